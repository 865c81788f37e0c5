"""Dragon Farkle bots: the exact Recruit DP (D4) and its companions (docs/farkle-optimal.md),
the ``optimal`` and ``cautious`` bots in hand-staged positions, and the D9 contract that a
bot decides from its own view alone.

Positions are staged with record entries ("chance: companion scout", "chance: item
gold-purse", "chance: start p0", "p0: recruit", "chance: dice 234445 blank",
"p0: keep 4445", ...); each test checks the legal actions there and the bot's choice.
"""

from __future__ import annotations

import random

import pytest

from dragonlair.bots import Bot, bot_names, make_bot
from dragonlair.core.game import CHANCE
from dragonlair.core.records import parse_entry
from dragonlair.games.farkle.actions import FarkleAction
from dragonlair.games.farkle.bots import CautiousFarkleBot, OptimalFarkleBot
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.policy import (
    BattleParams,
    RecruitDP,
    RecruitParams,
    attack_dp,
    battle_model,
    defence_dp,
    recruit_distribution,
    recruit_dp,
)
from dragonlair.games.farkle.state import FarkleState, Mode
from dragonlair.simulate import simulate
from tests.sizes import size

# the figures documented in docs/farkle-optimal.md
VALUE_EVENT = 706.69  # expected soldiers per Recruit turn, D2 with the event die
VALUE_PLAIN = 671.39  # D2 without the event die (plain Farkle)
THRESHOLDS_EVENT = [450, 350, 550, 1300, 3900, 25000]  # banks from here, 1..6 dice in hand
THRESHOLDS_PLAIN = [350, 300, 450, 1100, 3250, 20800]


# ---------------------------------------------------------------------------- helpers
def play(state: FarkleState, *entries: str) -> FarkleState:
    for entry in entries:
        seat, text = parse_entry(entry, state.num_players)
        state.apply(seat, state.game.parse_action(text))
    return state


def table(c0: str = "scout", c1: str = "old-sergeant", i0: str = "healing-potion",
          i1: str = "healing-potion", **options: object) -> FarkleState:
    """Two seats with these companions and items; p0 starts. The default cards do nothing in
    a Recruit (Scout: Skirmish attack; Healing Potion: Final Battle)."""
    state = FarkleGame({"players": 2, **options}).new_initial_state()
    return play(state, f"chance: companion {c0}", f"chance: companion {c1}",
                f"chance: item {i0}", f"chance: item {i1}", "chance: start p0")


def texts(state: FarkleState, seat: int = 0) -> list[str]:
    return [a.text for a in state.legal_actions(seat)]


def choice(state: FarkleState, seat: int = 0, bot: type = OptimalFarkleBot) -> str:
    legal = state.legal_actions(seat)
    picked = bot(random.Random(0)).choose(state.view(seat), legal)
    assert picked in legal
    return str(picked)


def bank_six_thousand(state: FarkleState) -> FarkleState:
    """p0 banks 6,000 (two six-of-a-kinds with hot dice), p1 farkles: p0 may fight (D3)."""
    return play(state, "p0: recruit", "chance: dice 111111 blank", "p0: keep 111111",
                "p0: roll", "chance: dice 111111 blank", "p0: keep 111111", "p0: bank",
                "p1: recruit", "chance: dice 223466 blank", "p1: farkle")


# ---------------------------------------------------------------------------- the Recruit DP
def test_dp_value_matches_the_documented_figures() -> None:
    assert recruit_dp().value(6, 0) == pytest.approx(VALUE_EVENT, abs=0.005)
    plain = recruit_dp(params=RecruitParams(event=False))
    assert plain.value(6, 0) == pytest.approx(VALUE_PLAIN, abs=0.005)


def test_event_die_is_worth_soldiers() -> None:
    """The dragon face eats one roll in six but also turns that roll's farkle into a free
    reroll (D4.3), and the alliance doubles one roll in six (D4.4): on balance the event die
    adds soldiers per turn, and the policy rolls on a little longer with it."""
    event, plain = recruit_dp(), recruit_dp(params=RecruitParams(event=False))
    assert event.value(6, 0) > plain.value(6, 0)
    for n in range(1, 7):
        assert event.threshold(n) >= plain.threshold(n)


def test_banking_thresholds_match_the_documented_table() -> None:
    event, plain = recruit_dp(), recruit_dp(params=RecruitParams(event=False))
    assert [event.threshold(n) for n in range(1, 7)] == THRESHOLDS_EVENT
    assert [plain.threshold(n) for n in range(1, 7)] == THRESHOLDS_PLAIN


@pytest.mark.parametrize("event", [True, False])
def test_banking_is_monotone_in_pending(event: bool) -> None:
    """Below the threshold the policy always rolls, from it on it always banks (up to the
    cap, where banking is assumed); the thresholds rise with the dice in hand from two dice
    up, and one die rolls on longer than two (a single 1 or 5 brings all six back)."""
    dp = recruit_dp(params=RecruitParams(event=event))
    for n in range(1, 7):
        t = dp.threshold(n)
        assert dp.bank_points(n) == list(range(t, dp.cap * dp.step + 1, dp.step))
    th = [dp.threshold(n) for n in range(1, 7)]
    assert th[1:] == sorted(th[1:]) and len(set(th[1:])) == 5
    assert th[0] > th[1]


def test_dp_does_not_depend_on_the_cap() -> None:
    """Pending is capped where banking is always optimal: a cap three times as high gives
    the same values and thresholds."""
    dp = recruit_dp()
    wide = RecruitDP(params=RecruitParams(), min_cap=3 * dp.cap)
    assert wide.cap >= 3 * dp.cap
    for n in range(1, 7):
        assert wide.threshold(n) == dp.threshold(n)
        for p in (0, 500, 5000, 24000, 30000):
            assert wide.value(n, p) == pytest.approx(dp.value(n, p), abs=1e-9)


def test_dp_is_a_fixed_point_of_the_bellman_equation() -> None:
    dp = recruit_dp()
    for n in range(1, 7):
        for p in (0, 50, 300, 350, 1000, 3850, 3900, 24950, 25000):
            assert dp.value(n, p) == pytest.approx(max(p, dp.roll_value(n, p)), abs=1e-6)
            assert dp.value(n, p) >= p
        values = [dp.value(n, p) for p in range(0, 5000, 50)]
        assert values == sorted(values)
    assert dp.value(0, 700) == dp.value(6, 700)  # hot dice: six again


def test_policy_distribution_has_the_dp_mean() -> None:
    """Playing the policy forward gives a distribution of banked soldiers whose mean is the
    DP value (policy evaluation agrees with value iteration)."""
    for event, value in ((True, VALUE_EVENT), (False, VALUE_PLAIN)):
        dist = recruit_distribution(event=event)
        assert sum(dist.values()) == pytest.approx(1.0, abs=1e-9)
        assert sum(s * p for s, p in dist.items()) == pytest.approx(value, abs=0.005)


@pytest.mark.parametrize("params", [
    RecruitParams(item_worth=250), RecruitParams(bank_bonus=100),
    # Tabby's and the Quartermaster's tables take seconds to solve: CI
    pytest.param(RecruitParams(tabby=True), marks=pytest.mark.slow),
    pytest.param(RecruitParams(keep_half=True), marks=pytest.mark.slow)],
    ids=["item", "bank_bonus", "tabby", "keep_half"])
def test_items_and_companions_add_value(params: RecruitParams) -> None:
    assert recruit_dp(params=params).value(6, 0) > recruit_dp().value(6, 0)


def test_a_drawn_item_counts_as_its_worth_pending() -> None:
    worth = recruit_dp(params=RecruitParams(item_worth=250))
    # once an item is drawn, it counts like 250 more pending in the table without items
    assert worth.value(5, 50, g=1) == pytest.approx(recruit_dp().value(5, 300))


def test_dp_is_computed_once_per_table() -> None:
    assert recruit_dp() is recruit_dp()
    assert recruit_dp(params=RecruitParams()) is recruit_dp()


# ---------------------------------------------------------------------------- Skirmish and battle
def test_defence_chance_falls_with_the_attack_value() -> None:
    dp = defence_dp()
    chances = [dp.start(t)[0] for t in (0, 200, 500, 1000, 2000, 4000)]
    assert chances == sorted(chances, reverse=True)
    assert 0.0 < chances[-1] < chances[0] < 1.0
    assert dp.chance(3, 600, 500) == 1.0  # already beaten: stop and win
    assert dp.stop_chance(300, 500, bonus=200) == 0.5  # a tie counts half
    assert dp.chance(3, 300, 500, bonus=200) >= 0.5
    assert dp.chance(1, 300, 5000) < dp.chance(5, 300, 5000) < 0.05


def test_attacker_stops_sooner_with_fewer_dice() -> None:
    dp = attack_dp()
    assert dp.should_roll(6, 0) and dp.should_roll(6, 1000)
    assert not dp.should_roll(1, 1000)
    assert dp.value(6, 0) > 0  # the skirmish is worth attacking for, on average


def test_battle_model_matches_the_engine() -> None:
    """D6: the chance to slay the dragon in one battle turn with 6,000 soldiers, from the
    Markov chain and from 600 engine battles (within four standard errors)."""
    model = battle_model()
    p = model.slay(6000)
    assert 0.3 < p < 0.45
    assert sum(model.failures(6000).values()) == pytest.approx(1 - p)
    assert [model.slay(a) for a in (500, 2000, 5000)] == sorted(
        model.slay(a) for a in (500, 2000, 5000))
    assert battle_model(params=BattleParams(bonus=1)).slay(6000) > p + 0.1
    start = play(bank_six_thousand(table()), "p0: battle")
    rng = random.Random(5)
    wins = 0
    runs = 600
    for _ in range(runs):
        s = start.clone()
        while s.mode == Mode.BATTLE and not s.is_terminal():
            if s.current_seats()[0] == CHANCE:
                s.apply(CHANCE, s.sample_chance(rng))
            else:
                s.apply(0, s.game.parse_action("farkle"))
        wins += s.is_terminal()
    se = (p * (1 - p) / runs) ** 0.5
    assert abs(wins / runs - p) < 4 * se


# ---------------------------------------------------------------------------- staged Recruits
def test_optimal_keeps_all_and_banks_with_two_dice() -> None:
    s = play(table(), "p0: recruit", "chance: dice 234445 blank")
    assert texts(s) == ["keep 5", "keep 444", "keep 4445"]
    assert choice(s) == "keep 4445"  # 450 with two dice (banks from 350) beats 50 or 400
    play(s, "p0: keep 4445")
    assert texts(s) == ["roll", "bank"]
    assert choice(s) == "bank"


def test_optimal_keeps_one_five_of_two() -> None:
    s = play(table(), "p0: recruit", "chance: dice 223455 blank")
    assert texts(s) == ["keep 5", "keep 55"]
    assert choice(s) == "keep 5"  # five dice and 50 are worth more than four dice and 100


def test_optimal_rolls_on_after_hot_dice() -> None:
    s = play(table(), "p0: recruit", "chance: dice 111555 blank")
    assert choice(s) == "keep 111555"
    play(s, "p0: keep 111555")
    assert s.hand_dice == 0 and s.pending == 1500
    assert choice(s) == "roll"  # all six again: banks only from 25,000


@pytest.mark.parametrize(("rolls", "pending", "dice", "want"), [
    (["dice 155236 blank", "keep 155", "roll", "dice 134 blank", "keep 1"], 300, 2, "roll"),
    (["dice 155236 blank", "keep 155", "roll", "dice 114 blank", "keep 11"], 400, 1, "roll"),
    (["dice 155236 blank", "keep 155", "roll", "dice 114 blank", "keep 1"], 300, 2, "roll"),
    (["dice 155236 blank", "keep 155", "roll", "dice 145 blank", "keep 15"], 350, 1, "roll"),
    (["dice 155236 blank", "keep 155", "roll", "dice 115 blank", "keep 115"], 450, 0, "roll"),
    (["dice 155236 blank", "keep 155", "roll", "dice 115 blank", "keep 11"], 400, 1, "roll"),
    (["dice 155236 blank", "keep 155", "roll", "dice 111 blank", "keep 1"], 300, 2, "roll"),
    (["dice 111236 blank", "keep 111"], 1000, 3, "bank"),
    (["dice 111236 blank", "keep 1"], 100, 5, "roll"),
    (["dice 155236 blank", "keep 155", "roll", "dice 155 dragon"], 200, 0, "roll"),
    (["dice 223466 dragon"], 0, 6, "roll"),
])
def test_optimal_rolls_or_banks_by_its_thresholds(rolls: list[str], pending: int, dice: int,
                                                  want: str) -> None:
    s = table()
    play(s, "p0: recruit")
    for r in rolls:
        play(s, f"chance: {r}" if r.startswith("dice") else f"p0: {r}")
    assert (s.pending, s.hand_dice) == (pending, dice)
    assert texts(s) == ["roll", "bank"]
    assert choice(s) == want


def test_optimal_draws_an_item_for_a_small_alliance_and_doubles_a_big_one() -> None:
    # holding no item, an item is worth about 250 soldiers to the bot: more than 50 more
    s = play(table(i0="gold-purse"), "p0: use gold-purse", "p0: recruit",
             "chance: dice 234665 alliance")
    assert texts(s) == ["keep 5"]
    play(s, "p0: keep 5")
    assert texts(s) == ["double", "item"]
    assert choice(s) == "item"
    s = play(table(i0="gold-purse"), "p0: use gold-purse", "p0: recruit",
             "chance: dice 111346 alliance", "p0: keep 111")
    assert choice(s) == "double"
    # holding an item already (D8.3 keeps one), it doubles even the 50
    s = play(table(), "p0: recruit", "chance: dice 234665 alliance", "p0: keep 5")
    assert choice(s) == "double"


@pytest.mark.slow
def test_optimal_uses_tabby_when_the_dragon_would_eat_soldiers() -> None:
    s = play(table(c0="tabby"), "p0: recruit", "chance: dice 111234 dragon")
    assert texts(s) == ["ignore dragon", "pass"]
    assert choice(s) == "ignore dragon"  # keep 1,000 instead of losing the three 1s
    play(s, "p0: ignore dragon")
    assert choice(s) == "keep 111"
    s = play(table(c0="tabby"), "p0: recruit", "chance: dice 223466 dragon")
    assert texts(s) == ["ignore dragon", "pass"]
    assert choice(s) == "pass"  # no scoring die: the dragon saves the roll (D4.3)


def test_optimal_saves_a_large_pending_with_a_farkle_item() -> None:
    s = play(table(i0="lucky-clover"), "p0: recruit", "chance: dice 111555 blank",
             "p0: keep 111555", "p0: roll", "chance: dice 223466 blank")
    assert texts(s) == ["use lucky-clover", "farkle"]
    assert choice(s) == "use lucky-clover"
    s = play(table(i0="lucky-clover"), "p0: recruit", "chance: dice 155236 blank",
             "p0: keep 155", "p0: roll", "chance: dice 134 blank", "p0: keep 1", "p0: roll",
             "chance: dice 46 blank")
    assert s.pending == 300
    assert choice(s) == "farkle"  # two dice from 300 are worth less than the item


def test_optimal_uses_the_horn_before_banking() -> None:
    s = play(table(i0="recruiting-horn"), "p0: recruit", "chance: dice 234445 blank",
             "p0: keep 4445")
    assert texts(s) == ["use recruiting-horn", "roll", "bank"]
    assert choice(s) == "use recruiting-horn"
    play(s, "p0: use recruiting-horn")
    assert s.pending == 750 and choice(s) == "bank"


def test_cautious_banks_early() -> None:
    s = play(table(), "p0: recruit", "chance: dice 155236 blank")
    assert choice(s, bot=CautiousFarkleBot) == "keep 155"
    play(s, "p0: keep 155", "p0: roll", "chance: dice 134 blank", "p0: keep 1")
    assert choice(s, bot=CautiousFarkleBot) == "bank"  # 300: enough for it
    assert choice(s) == "roll"


# ---------------------------------------------------------------------------- actions
def test_both_bots_fight_when_they_may() -> None:
    s = bank_six_thousand(table(i0="gold-purse"))
    assert s.armies == [6000, 0]
    assert texts(s) == ["recruit", "skirmish p1", "battle", "use gold-purse"]
    assert choice(s) == "use gold-purse"  # the purse at once
    play(s, "p0: use gold-purse")
    assert choice(s) == "battle"
    assert choice(s, bot=CautiousFarkleBot) == "battle"


def test_optimal_attacks_a_player_close_to_the_battle() -> None:
    s = play(table(), "p0: recruit", "chance: dice 223466 blank", "p0: farkle",
             "p1: recruit", "chance: dice 111111 blank", "p1: keep 111111", "p1: roll",
             "chance: dice 111555 blank", "p1: keep 111555", "p1: bank")
    assert s.armies == [0, 4600]
    assert texts(s) == ["recruit", "skirmish p1"]
    assert choice(s) == "skirmish p1"
    assert choice(s, bot=CautiousFarkleBot) == "recruit"
    # with both armies at 0 recruiting is better than an attack for 500 soldiers
    s = table()
    assert choice(s) == "recruit"


def test_defender_maximises_the_chance_to_beat_the_attack() -> None:
    """D5.2: the defender stops as soon as it beats the attack value, even with all five
    dice back in hand, where a soldier maximiser would roll on."""
    s = play(table(), "p0: skirmish p1", "chance: dice 234665 blank", "p0: keep 5")
    assert choice(s) == "roll"  # the attacker would go on from 50 with five dice
    play(s, "p0: stop", "chance: dice 11555 blank")
    assert s.attack_value == 250
    assert choice(s, seat=1) == "keep 11555"
    play(s, "p1: keep 11555")
    assert (s.pending, s.hand_dice) == (700, 0)
    assert texts(s, 1) == ["roll", "stop"]
    assert choice(s, seat=1) == "stop"
    s = play(table(), "p0: skirmish p1", "chance: dice 111234 blank", "p0: keep 111",
             "p0: stop", "chance: dice 15234 blank", "p1: keep 15")
    assert s.attack_value == 1200 and s.pending == 150
    assert choice(s, seat=1) == "roll"  # stopping below the attack loses for sure


# ---------------------------------------------------------------------------- D9 and games
def test_bots_decide_from_their_view_only() -> None:
    """Changing another seat's hidden items (D9) in a clone changes nothing the bot sees,
    so with the same seed it chooses the same at every decision of a whole game."""
    game = FarkleGame({"players": 2})
    rng = random.Random(11)
    state = game.new_initial_state()
    bots: list[Bot] = [OptimalFarkleBot(random.Random(1)), CautiousFarkleBot(random.Random(2))]
    checked = swapped = 0
    while not state.is_terminal() and checked < 400:
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        legal = state.legal_actions(seat)
        other = 1 - seat
        twin = state.clone()
        # other hidden cards, as many (D9: the number is public, the identity is not)
        twin.items[other] = [5 if i != 5 else 6 for i in twin.items[other]]
        twin.gained[other] = [7 if i != 7 else 3 for i in twin.gained[other]]
        for name in ("optimal", "cautious"):
            a = make_bot("farkle", name, random.Random(3)).choose(state.view(seat), legal)
            b = make_bot("farkle", name, random.Random(3)).choose(
                twin.view(seat), twin.legal_actions(seat))
            assert str(a) == str(b)
        swapped += twin.items[other] != state.items[other]
        picked = bots[seat].choose(state.view(seat), legal)
        assert isinstance(picked, FarkleAction)
        state.apply(seat, picked)
        checked += 1
    assert checked > 20 and swapped > 10


def test_bots_are_registered() -> None:
    assert {"cautious", "optimal", "random"} <= set(bot_names("farkle"))
    assert isinstance(make_bot("farkle", "optimal", random.Random(0)), OptimalFarkleBot)
    assert isinstance(make_bot("farkle", "cautious", random.Random(0)), CautiousFarkleBot)


@pytest.mark.slow  # a bot-strength match: CI 8 games, the release run (--long) 20
@pytest.mark.parametrize(("games", "seed"), [(size(ci=8, long=20), 4)])
def test_optimal_beats_random(games: int, seed: int) -> None:
    result = simulate("farkle", games, ["optimal", "random"], seed=seed)
    assert result.wins[0] >= 0.8 * games


@pytest.mark.slow
def test_bots_play_other_tables() -> None:
    """A custom scoring table (D2: the table is data), a stronger dragon and five seats."""
    result = simulate("farkle", 1, ["optimal", "cautious", "random"], seed=2,
                      options={"players": 3, "dragon": 4, "max_turns": 24,
                               "table": {"single_five": 100, "three_pairs": 1500}})
    assert sum(result.wins) + result.draws == 1
    result = simulate("farkle", 1, ["optimal", "cautious"], seed=4,
                      options={"players": 5, "max_turns": 10})
    assert result.games == 1
