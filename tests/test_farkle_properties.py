"""Property tests over thousands of seeded random Dragon Farkle games (D1, D3, D8, D9,
records): every game ends; soldiers (armies + supply, D1) and item cards (deck + discards
+ held + set aside = 20, D8) are conserved after every action; records replay to the same
position and round-trip through JSON; every action's text and index round-trip; views do not
depend on another seat's hidden items (D9)."""

from __future__ import annotations

import json
import random

import pytest

from dragonlair.core.game import CHANCE
from dragonlair.core.records import Record, finish_record, new_record, replay
from dragonlair.games.farkle.actions import Kind
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.state import SUPPLY, FarkleState, roll_outcomes

GAMES_PER_TABLE = 500  # 4 table sizes: 2,000 games
MAX_ACTIONS = 50_000
GAMES = {p: FarkleGame({"players": p}) for p in range(2, 6)}  # shared: the scorer's memo


def check(state: FarkleState) -> None:
    assert state.soldiers() == SUPPLY, "D1: soldiers not conserved"
    assert min(state.armies) >= 0
    items = (sum(state.item_deck) + sum(state.item_discard)
             + sum(map(len, state.items)) + sum(map(len, state.gained)))
    assert items == 20, "D8: an item card appeared or vanished"
    companions = (sum(state.companion_deck) + sum(state.companion_discard)
                  + sum(c >= 0 for c in state.companions))
    assert companions == 10


def random_game(game: FarkleGame, seed: int, checks: bool = True) -> FarkleState:
    """A game of uniformly random legal actions, chance by ``sample_chance``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(MAX_ACTIONS):
        seats = state.current_seats()
        if not seats:
            return state
        (seat,) = seats
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            legal = state.legal_actions(seat)
            if checks:
                assert legal, f"p{seat} to move with no legal action"
                indices = [a.index for a in legal]
                assert indices == sorted(set(indices)), "legal actions in index order, once"
            state.apply(seat, rng.choice(legal))
        if checks:
            check(state)
    raise AssertionError(f"game {game.num_players}/{seed} did not end")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_game_ends_and_conserves_soldiers_and_items(players: int) -> None:
    """D1, D8: conservation after every action; D6.4: every game ends with the dragon
    slain by one player, who places first."""
    game = GAMES[players]
    for seed in range(GAMES_PER_TABLE):
        state = random_game(game, seed)
        outcome = state.outcome()
        assert outcome is not None
        (winner,) = outcome.winners
        assert outcome.reason == "farkle.end.dragon_slain"
        assert outcome.reason_params == {"seat": winner}
        assert outcome.placings[winner] == 1
        assert state.damage >= game.dragon and state.player == winner
        assert state.full_state()["result"] == outcome.to_json()


@pytest.mark.parametrize("strength", [4, 5])
def test_variant_dragons_are_slain_too(strength: int) -> None:
    game = FarkleGame({"players": 3, "dragon": strength})
    for seed in range(100):
        state = random_game(game, seed)
        assert state.damage >= strength


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_records_replay_and_round_trip(players: int) -> None:
    """Every record replays to the same full state and round-trips through JSON text; every
    action round-trips through its canonical text and its index."""
    game = GAMES[players]
    seats = [{"name": f"r{s}", "player": "bot:random"} for s in range(players)]
    for seed in range(40):
        state = random_game(game, 10_000 + seed, checks=False)
        record = finish_record(new_record(game, seats), state)
        text = record.dumps()
        again = Record.from_json(json.loads(text))
        assert again.dumps() == text
        _, replayed = replay(again)
        assert replayed.full_state() == state.full_state()
        for _, action in state.history:
            assert game.parse_action(str(action)) is action
            assert game.action_from_index(action.index) is action


def test_every_action_text_and_index_round_trips() -> None:
    for options in ({"players": 5}, {"players": 2, "decks": {"items": [
            {"id": "cookie", "effect": "gain", "amount": 100, "count": 4,
             "name": {"en": "Cookie"}, "text": {"en": "100 soldiers."}}]}}):
        game = FarkleGame(options)
        texts = set()
        for i in range(game.num_distinct_actions):
            action = game.action_from_index(i)
            assert action.index == i
            assert game.parse_action(str(action)) is action
            texts.add(str(action))
        assert len(texts) == game.num_distinct_actions


def test_chance_outcomes_are_distributions() -> None:
    """Every chance node lists outcomes whose probabilities sum to 1, and the sampled
    outcome is among them; a roll of k dice has 6^k x 6 equally likely throws."""
    for k in range(1, 7):
        outs = roll_outcomes(k)
        assert sum(p for _, _, p in outs) == pytest.approx(1.0)
        assert min(p for _, _, p in outs) == pytest.approx(1 / 6**k / 6)
    game = GAMES[4]
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            (seat,) = state.current_seats()
            if seat == CHANCE:
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                action = state.sample_chance(rng)
                assert any(a is action for a, _ in outcomes)
                state.apply(CHANCE, action)
            else:
                state.apply(seat, rng.choice(state.legal_actions(seat)))


def _perturbed(state: FarkleState, seat: int | None, rng: random.Random) -> FarkleState:
    """Every other seat's items (held and set aside) replaced by random cards, same counts;
    their hidden record entries rewritten."""
    other = state.clone()
    n = len(state.game.items)
    for s in range(state.num_players):
        if s != seat:
            other.items[s] = [rng.randrange(n) for _ in other.items[s]]
            other.gained[s] = [rng.randrange(n) for _ in other.gained[s]]
    for i, owner in other.hidden_for.items():
        if owner != seat:
            other._log[i] = f"chance: item {state.game.items[rng.randrange(n)].id}"
    for i, (s, a) in enumerate(other.history):
        if s != seat and a.kind in (Kind.DISCARD, Kind.KEEP_ITEM):
            other._log[i] = f"p{s}: discard {state.game.items[rng.randrange(n)].id}"
    return other


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_d9_views_never_depend_on_another_seats_items(players: int) -> None:
    """D9: changing another seat's items (same count) never changes a seat's view or the
    spectator's; an item draw shows others only 'chance: item for pN'."""
    game = GAMES[players]
    for seed in range(25):
        rng = random.Random(seed)
        whole = random_game(game, 20_000 + seed, checks=False)
        state = game.new_initial_state()
        stops = sorted(rng.sample(range(len(whole.history)), min(8, len(whole.history))))
        done = 0
        for stop in stops:
            for s, a in whole.history[done:stop]:
                state.apply(s, a)
            done = stop
            for seat in [*range(players), None]:
                view = state.view(seat)
                before = json.dumps(view, sort_keys=True)
                assert json.dumps(_perturbed(state, seat, rng).view(seat),
                                  sort_keys=True) == before
                for i, owner in state.hidden_for.items():
                    if owner != seat:
                        assert view["public"]["history"][i] == \
                            f"chance: item for p{owner}"
