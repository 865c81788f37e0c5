"""The Fist bots: perfect memory (F8), the heuristic, ISMCTS, and the bot interface."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from dragonlair.bots import BotError, RandomBot, ask_bot, make_bot
from dragonlair.bots.ismcts import ISMCTS, Budget
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.game import CHANCE, JSON, Action
from dragonlair.games.fist.bots import HeuristicFistBot, ISMCTSFistBot
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.heuristic import (
    WIN_VALUE,
    FistHeuristic,
    card_value,
    stone_worth,
    win_chances,
)
from dragonlair.games.fist.memory import FistMemory
from dragonlair.games.fist.search import FistSearchModel
from dragonlair.games.fist.state import FistState, Phase
from tests.fist_helpers import bids, new_table, play, quiet_witch, setup
from tests.sizes import size


def _same_position(a: FistState, b: FistState) -> None:
    for p, q in zip(a.players, b.players, strict=True):
        assert (p.fairy, p.fairy_spent, p.common, p.silver, p.black, p.amulet, p.stones,
                p.score) == (q.fairy, q.fairy_spent, q.common, q.silver, q.black, q.amulet,
                             q.stones, q.score)
    assert a.bank.stones == b.bank.stones and a.bank.common == b.bank.common
    assert a.pile == b.pile and a.auctioned == b.auctioned and a.turn == b.turn
    assert a.doppel_holder == b.doppel_holder and a.special_discard == b.special_discard


# ---------------------------------------------------------------- perfect memory (F8)
@pytest.mark.parametrize("games", [
    pytest.param(range(1), id="1"),
    # CI one more game, the release run (scripts/test.sh --long) four more
    pytest.param(range(1, 1 + size(ci=1, long=4)), id="many", marks=pytest.mark.slow)])
@pytest.mark.parametrize("players", [3, 4, 6])
def test_f8_perfect_memory_rebuilds_every_coin_from_the_public_record(players: int,
                                                                      games: range) -> None:
    """F8: a view shows the public record in full; replaying it rebuilds every seat's coins,
    whatever passed by Thief or Brigand, but never a sealed bid before it is revealed.
    (Every action rebuilds from the whole record: a 6-player game takes a second or two.)"""
    for g in games:
        rng = random.Random(100 * players + g)
        state = FistGame({"players": players}).new_initial_state()
        memories = [FistMemory() for _ in range(players)]
        while not state.is_terminal():
            seats = state.current_seats()
            if seats[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            for seat in seats:
                rebuilt = memories[seat].update(state.view(seat))
                _same_position(rebuilt, state)
                if state.phase in (Phase.BID, Phase.TIEBID):
                    assert all(b is None for b in rebuilt.bids)  # nobody's sealed bid
                    assert seat in rebuilt.current_seats()
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])


def test_f8_memory_stops_at_the_first_sealed_bid() -> None:
    state = quiet_witch(setup(new_table(4), ["rrrr", "bbbb", "yyyy", "rbyr"],
                              ("gnome", "fairy")))
    play(state, "chance: card sorcerer", "p0: bid f3 c0", "p1: bid f5 c0")
    rebuilt = FistMemory().update(state.view(2))
    assert rebuilt.current_seats() == (0, 1, 2, 3)  # p0 and p1 still "to bid" for p2
    assert rebuilt.players[0].fairy == 8 and rebuilt.players[1].fairy == 8


# ---------------------------------------------------------------- the bot interface
class _Spy:
    def __init__(self) -> None:
        self.views: list[JSON] = []

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        self.views.append(view)
        view["private"]["fairy"] = 99  # a bot scribbling on its view changes nothing
        view["public"]["seats"].clear()
        view["events"].clear()
        return legal[0]


def test_f8_bots_get_plain_json_views_only() -> None:
    """F8: what a bot is handed is data built for its seat, with no way back to the state."""
    game = FistGame({"players": 3, "max_turns": 1})
    spies = [_Spy() for _ in range(3)]
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        seats = state.current_seats()
        if seats[0] == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        seat = seats[0]
        expected = state.view(seat)
        totals = state.totals()
        before = json.dumps(state.full_state(), sort_keys=True)
        action = ask_bot(spies[seat], state, seat)
        got = spies[seat].views[-1]
        assert got is not expected
        assert json.loads(json.dumps(expected)) == expected  # plain JSON data
        assert json.dumps(state.full_state(), sort_keys=True) == before
        assert state.totals() == totals
        state.apply(seat, action)
    assert all(spy.views for spy in spies)


class _Cheater:
    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        return FistGame({"players": 3}).parse_action("bid f60 c15")


def test_a_bot_answering_an_illegal_action_is_refused_with_a_clear_error() -> None:
    game = FistGame({"players": 3})
    # the seat counted from 1 where no names are known
    with pytest.raises(BotError,
                       match=r"the bot playing Player 1 \(_Cheater\) chose .*not one of its"):
        play_out(game.new_initial_state(), [_Cheater(), RandomBot(random.Random(1)),
                                            RandomBot(random.Random(2))], random.Random(0))


@pytest.mark.parametrize("name", ["heuristic", "ismcts-fast"])
def test_f8_a_bot_never_depends_on_another_seats_sealed_bid(name: str) -> None:
    """F8: p0's sealed bid is invisible to p1, so p1's choice cannot depend on it."""
    chosen = []
    for p0_bid in ("f0 c0", "f8 c2"):
        state = quiet_witch(setup(new_table(4), ["rrrr", "bbbb", "yyyy", "rbyr"],
                                  ("gnome", "fairy")))
        play(state, "chance: card sorcerer", f"p0: bid {p0_bid}")
        bot = make_bot("fist", name, random.Random(7))
        chosen.append(ask_bot(bot, state, 1))
    assert chosen[0] == chosen[1]


def test_bots_are_loaded_by_module_attr() -> None:
    bot = make_bot("fist", "dragonlair.games.fist.bots:HeuristicFistBot", random.Random(1))
    assert isinstance(bot, HeuristicFistBot)


# ---------------------------------------------------------------- the heuristic
def test_stone_worth_counts_the_sets_the_standard_characters_pay_for() -> None:
    """F6: four of one colour pay the Sorcerer 2 points, one of each the Wizard 1, any four
    the Magician 1; a set is worth more than its stones apart."""
    assert stone_worth(4, 0, 0) > stone_worth(2, 1, 1) > stone_worth(2, 1, 0)
    assert stone_worth(1, 1, 1) > stone_worth(3, 0, 0)
    assert stone_worth(0, 0, 0) == 0.0
    assert stone_worth(8, 0, 0) == pytest.approx(2 * stone_worth(4, 0, 0))


def _sorcerer_for(seat0_stones: str) -> FistState:
    state = quiet_witch(setup(new_table(4), [seat0_stones, "bbyy", "yyrb", "rbyb"],
                              ("gnome", "fairy")))
    return play(state, "chance: card sorcerer")


def test_card_values_follow_the_position() -> None:
    """F6 Sorcerer: worth 2 points to a seat holding four stones of one colour."""
    state = _sorcerer_for("rrrr")
    k = state.current
    assert k is not None
    assert card_value(state, 0, k) >= 0.9  # 2 points, less the stones' worth as a set
    assert card_value(state, 1, k) < 0.2  # only the Common Gold for the others


def test_the_winning_point_is_worth_everything() -> None:
    state = _sorcerer_for("rrrr")
    state.players[0].score = 1  # two more points end the game (F5.9)
    k = state.current
    assert k is not None
    assert card_value(state, 0, k) >= WIN_VALUE - stone_worth(4, 0, 0)


def test_win_chances_sum_to_one_and_favour_the_leader() -> None:
    state = _sorcerer_for("rrrr")
    state.players[2].score = 2
    chances = win_chances(state)
    assert sum(chances) == pytest.approx(1.0)
    assert max(range(4), key=lambda s: chances[s]) == 2


def _the_winning_sorcerer() -> FistState:
    """p0 (four red stones) wins the Necromancer for 1 Fairy Gold and takes the point (F7);
    the others spend all their Fairy Gold on the Red Dragon and nobody wins it (F5.7); then
    the Sorcerer comes up: its 2 points end the game for p0 (F6, F5.9)."""
    state = quiet_witch(setup(new_table(4), ["rrrr", "bbyy", "yyrb", "rbyb"],
                              ("necromancer", "fairy")))
    play(state, "chance: card necromancer")
    bids(state, "f1 c0", "f0 c0", "f0 c0", "f0 c0")
    play(state, "p0: accept", "chance: card red-dragon")
    bids(state, "f0 c0", "f8 c0", "f8 c0", "f8 c0")
    bids(state, "s0", "s0", "s0")
    play(state, "chance: card sorcerer")
    assert state.players[0].score == 1 and state.players[1].fairy == 0
    return state


@pytest.mark.parametrize("name", ["heuristic", "ismcts-fast"])
def test_bots_outbid_what_the_others_can_still_pay_for_the_winning_card(name: str) -> None:
    """F5.3, F5.9: the others have only 2 Common Gold each left this turn, so a bid of 3
    wins p0 the game."""
    state = _the_winning_sorcerer()
    action = ask_bot(make_bot("fist", name, random.Random(5)), state, 0)
    assert action.value >= 3  # type: ignore[attr-defined]


def test_the_heuristic_pays_for_points_and_names_the_rarest_colour() -> None:
    """F6 Sorcerer: pay four of one colour for 2 points rather than take 1 Common Gold;
    F7 Rainbow Dragon: name the colour the bank has fewest of."""
    state = _sorcerer_for("rrrr")
    bids(state, "f3 c0", "f0 c0", "f0 c0", "f0 c0")
    assert state.phase == Phase.DECIDE
    policy = FistHeuristic(random.Random(1))
    assert str(policy.act(state, 0)) == "pay rrrr"
    state.bank.stones = [5, 1, 9]
    from dragonlair.games.fist.state import Dec, Decision
    legal = tuple(state.space.colour)
    state.pending = Decision(Dec.COLOUR_RAINBOW, state.game.space.card_index["rainbow-dragon"],
                             legal)
    assert str(policy.decide(state, 0, legal)) == "colour blue"


# ---------------------------------------------------------------- ISMCTS
def test_ismcts_is_reproducible_and_spends_its_budget() -> None:
    state = _sorcerer_for("rrrr")
    results = []
    for _ in range(2):
        search = ISMCTS(FistSearchModel(random.Random(9)), random.Random(9), Budget(60))
        results.append(search.search(state.view(0), 0, state.legal_actions(0)))
    assert results[0].action == results[1].action
    assert results[0].visits == results[1].visits
    assert results[0].iterations == 60
    assert sum(results[0].visits.values()) == 60  # every iteration visits one root bid
    assert results[0].action in state.legal_actions(0)


def test_ismcts_time_budget_stops_early() -> None:
    state = _sorcerer_for("rrrr")
    search = ISMCTS(FistSearchModel(random.Random(1)), random.Random(1),
                    Budget(iterations=10**9, seconds=0.05))
    result = search.search(state.view(0), 0, state.legal_actions(0))
    assert 0 < result.iterations < 10**9


def test_strength_levels_are_budgets() -> None:
    fast = make_bot("fist", "ismcts-fast", random.Random(1))
    strong = make_bot("fist", "ismcts-strong", random.Random(1))
    assert isinstance(fast, ISMCTSFistBot) and isinstance(strong, ISMCTSFistBot)
    assert fast.search.budget.iterations < strong.search.budget.iterations


def _rotated(names: list[str], games: int, seed: int) -> list[float]:
    wins = [0.0] * len(names)
    for i in range(games):
        lineup = [(i + s) % len(names) for s in range(len(names))]
        seats = [make_bot("fist", names[p], random.Random(seed_for(seed, i, s + 1)))
                 for s, p in enumerate(lineup)]
        state = play_out(FistGame({"players": len(names)}).new_initial_state(), seats,
                         random.Random(seed_for(seed, i)))
        outcome = state.outcome()
        assert outcome is not None
        for w in outcome.winners:
            wins[lineup[w]] += 1 / len(outcome.winners)
    return wins


def test_heuristic_beats_random_and_greedy() -> None:
    wins = _rotated(["heuristic", "greedy", "random", "random"], 8, seed=3)  # two rotations
    assert wins[0] > wins[1] > max(wins[2], wins[3])


@pytest.mark.slow  # whole games of a search bot: CI runs it, a plain pytest not
def test_ismcts_beats_the_heuristic() -> None:
    """Each seat in turn: CI one rotation (three games), the release run
    (scripts/test.sh --long) four (twelve)."""
    wins = _rotated(["ismcts-fast", "heuristic", "heuristic"], size(ci=3, long=12), seed=6)
    assert wins[0] > max(wins[1], wins[2])


def test_the_example_bot_in_docs_bots_md_plays_a_whole_game(tmp_path: object,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """docs/bots.md: the example bot, loaded by module:attr, plays legal moves throughout."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).parent.parent / "docs" / "bots.md").read_text()
    code = re.findall(r"```python\n(.*?)```", text, re.S)[-1]
    assert isinstance(tmp_path, pathlib.Path)
    (tmp_path / "my_bots.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    seats = [make_bot("fist", "my_bots:CheapestBid", random.Random(s)) for s in range(3)]
    state = play_out(FistGame({"players": 3, "max_turns": 3}).new_initial_state(), seats,
                     random.Random(1))
    assert state.is_terminal()
    assert any(str(a) == "bid f1 c0" for _, a in state.history)


def test_the_view_tells_a_custom_only_special_deck_so_bots_can_follow_it() -> None:
    """F9: with ``specials: custom`` the special deck holds only the custom characters; the
    public options say so, else a bot's memory rebuilds the full deck and meets a card it
    thinks impossible (found by a tournament of the heuristic bot)."""
    from dragonlair.games.fist.custom import load_file
    from dragonlair.simulate import simulate

    options = {"players": 3, "specials": "custom",
               "custom": load_file("moneylender") + load_file("stormcaller")}
    state = FistGame(options).new_initial_state()
    assert state.view(0)["public"]["options"]["specials"] == "custom"
    result = simulate("fist", 4, ["heuristic", "random", "random"], seed=1, options=options)
    assert result.games == 4


class _ReadingRandom(RandomBot):
    """The random bot, but handed every view (as a bot without ``reads_view`` is)."""

    reads_view = True

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.views: list[JSON] = []

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        self.views.append(view)
        return super().choose(view, legal)


def test_a_bot_that_reads_no_view_is_handed_none_and_plays_the_same_games() -> None:
    """``reads_view = False`` (the random bot): :func:`ask_bot` builds no view for it, an
    empty one is all it gets (nothing of any seat), and so does a subclass that keeps the
    attribute; the games are those of the same bot handed every view (a bot that says nothing
    is handed its seat's view: test_f8_bots_get_plain_json_views_only)."""
    game = FistGame({"players": 4, "max_turns": 3})
    assert RandomBot.reads_view is False
    finals = []
    for bot_class in (RandomBot, _ReadingRandom):
        bots = [bot_class(random.Random(seed_for(5, seat))) for seat in range(4)]
        state = play_out(game.new_initial_state(), bots, random.Random(5))
        finals.append([str(a) for _, a in state.history])
        if bot_class is _ReadingRandom:
            assert all(b.views and all(v["seat"] == s for v in b.views)  # type: ignore[attr-defined]
                       for s, b in enumerate(bots))
    assert finals[0] == finals[1]

    seen: list[JSON] = []

    class Mute(RandomBot):
        def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
            seen.append(view)
            return super().choose(view, legal)

    state = game.new_initial_state()
    while state.current_seats()[0] == CHANCE:
        state.apply(CHANCE, state.sample_chance(random.Random(1)))
    ask_bot(Mute(random.Random(1)), state, state.current_seats()[0])
    assert seen == [{}]
