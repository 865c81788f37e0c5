"""Fist's fast observation (issue 24, :mod:`dragonlair.games.fist.observe`): the vector
written from the engine state equals the view encoding's at every step, at tables the
adapters' random games rarely reach (custom characters, a custom-only special deck, Silver
tie-breaks with bids in, the Rainbow Dragon's draws, the Doppelganger, the end at 3 points,
the turn limit), while positions are observed out of order (its kept card blocks), into any
output buffer, and it reads nothing of another seat's screen or sealed bid (F8)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from dragonlair.core.game import CHANCE  # noqa: E402
from dragonlair.games.fist.actions import FistAction, Kind  # noqa: E402
from dragonlair.games.fist.custom import load_file  # noqa: E402
from dragonlair.games.fist.game import FistGame  # noqa: E402
from dragonlair.games.fist.pending import Decision, Draw, Phase  # noqa: E402
from dragonlair.games.fist.state import FistState  # noqa: E402
from dragonlair.interop import common  # noqa: E402
from dragonlair.interop.encoding import Encoder, encoder_for  # noqa: E402
from tests.sizes import quick_first, size  # noqa: E402

#: games per table (the seeds 500 on)
GAMES = size(ci=2, long=10)
CUSTOM = load_file("moneylender") + load_file("stormcaller")
TABLES: list[dict[str, Any]] = [
    {"players": 3, "max_turns": 30},
    {"players": 4, "custom": CUSTOM, "max_turns": 30},
    {"players": 3, "specials": "custom", "custom": CUSTOM, "max_turns": 12},
    {"players": 5, "max_turns": 4},  # ends at the turn limit
    {"players": 6, "max_turns": 10},
]


def _pick(state: FistState, seat: int, rng: random.Random) -> FistAction:
    """A random action; bids mostly small, so that bids often tie and go to Silver (F5.7)."""
    legal = state.legal_actions(seat)
    if state.phase is Phase.BID and rng.random() < 0.8:
        legal = [a for a in legal if a.fairy + a.common <= 1] or legal
    return legal[rng.randrange(len(legal))]


def _steps(game: FistGame, rng: random.Random) -> Iterator[FistState]:
    """Each position of a game (the live state) up to its end, one seat's move apart."""
    state = game.new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        seats = state.current_seats()
        if seats == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            seat = seats[rng.randrange(len(seats))]
            state.apply(seat, _pick(state, seat, rng))


def _check(enc: Encoder, state: FistState, where: str) -> None:
    for seat in [*range(state.num_players), None]:
        want = enc.observation(common.position_view(state, seat))
        got = enc.observe_state(state, seat)
        if not np.array_equal(got, want):
            bad = [name for name, sl, _ in enc.layout() if not np.array_equal(got[sl], want[sl])]
            raise AssertionError(f"{where}, seat {seat}: the fast observation differs in {bad}")


def _seen(state: FistState, seen: Counter[str]) -> None:
    """What a position shows that the checks should have met."""
    seen[state.phase.name] += 1
    if state.phase is Phase.TIEBID and any(b is not None for b in state.bids):
        seen["silver bid in"] += 1
    if state.phase is Phase.BID and any(b is not None for b in state.bids):
        seen["bid in"] += 1
    pending = state.pending
    if isinstance(pending, Decision | Draw):
        seen[f"{type(pending).__name__} {pending.kind.name}"] += 1
    if any(state.drawn):
        seen["drawn"] += 1
    if state.doppel_holder is not None:
        seen["doppelganger"] += 1
    if any(state.special_discard):
        seen["discard"] += 1
    if state.is_terminal():
        seen[state.end_reason] += 1


@pytest.mark.parametrize("options", quick_first(1, TABLES), ids=lambda o: "-".join(
    f"{k}{len(v) if k == 'custom' else v}" for k, v in o.items()))
def test_the_fast_observation_is_the_view_encoding_at_every_step(options: dict[str, Any]) -> None:
    game = FistGame(options)
    enc = encoder_for(game)
    seen: Counter[str] = Counter()
    for g in range(GAMES):
        for i, state in enumerate(_steps(game, random.Random(500 + g))):
            _check(enc, state, f"game {g}, step {i}")
            _seen(state, seen)
    assert seen["DECIDE"] and seen["silver bid in"] and seen["bid in"] and seen["OVER"], seen


def test_the_checked_games_reach_the_rare_fields() -> None:
    """The games of the test above (the same seeds) meet every field at least once."""
    seen: Counter[str] = Counter()
    for options in TABLES:
        game = FistGame(options)
        for g in range(GAMES):
            for state in _steps(game, random.Random(500 + g)):
                _seen(state, seen)
    for what in ("TIEBID", "silver bid in", "DECIDE", "POWER_CHANCE", "Decision RAINBOW_MORE",
                 "Draw RAINBOW", "Decision DOUBLE", "Draw GOBLIN", "Decision PICK_IMP", "drawn",
                 "doppelganger", "discard", "fist.end.points_reached", "fist.end.turn_limit"):
        assert seen[what], (what, seen)


@pytest.mark.slow
def test_positions_observed_out_of_order() -> None:
    """One encoder observes two games in turns and old positions between (as a search or
    OpenSpiel's states do): its kept card blocks never answer for another position."""
    game = FistGame({"players": 4, "max_turns": 6})
    enc = encoder_for(game)
    rng = random.Random(7)
    games = [_steps(game, random.Random(s)) for s in (11, 12)]
    kept: list[FistState] = []
    done = [False, False]
    step = 0
    while not all(done):
        for g, it in enumerate(games):
            if done[g]:
                continue
            state = next(it, None)
            if state is None or step > 600:
                done[g] = True
                continue
            _check(enc, state, f"game {g}, step {step}")
            kept.append(state.clone())
            old = kept[rng.randrange(len(kept))]
            _check(enc, old, f"an old position at step {step}")
            step += 1
    assert step > 100


def test_any_output_buffer() -> None:
    """A reused buffer, a slice of a larger one, a strided view and a float64 vector all end
    up holding the view encoding's values."""
    game = FistGame({"players": 4, "max_turns": 30})
    enc = encoder_for(game)
    n = enc.observation_size
    for i, state in enumerate(_steps(game, random.Random(3))):
        if i % 7:
            continue
        for seat in (0, 3, None):
            want = enc.observation(common.position_view(state, seat))
            big = np.full(3 * n, 0.5, np.float32)
            wide = np.full(3 * n, 0.5, np.float32)
            outs = [np.full(n, 0.25, np.float32), big[n:2 * n], wide[::3],
                    np.full(n, 0.5, np.float64)]
            for out in outs:
                got = enc.observe_state(state, seat, out)
                assert got is out
                assert np.array_equal(out, want.astype(out.dtype)), (i, seat, out.dtype)
            assert np.all(big[:n] == 0.5) and np.all(big[2 * n:] == 0.5)
            assert np.all(wide[1::3] == 0.5) and np.all(wide[2::3] == 0.5)


def _perturbed(state: FistState, seat: int | None, rng: random.Random) -> FistState:
    """Every other seat's screen and sealed bid changed (F8: none of it may show)."""
    other = state.clone()
    space = other.space
    for s, p in enumerate(other.players):
        if s == seat:
            continue
        p.fairy += rng.randint(1, 5)
        p.fairy_spent += rng.randint(0, 2)
        p.common += rng.randint(1, 3)
        p.silver += rng.randint(1, 4)
        p.black += rng.randint(0, 1)
        p.amulet += rng.randint(0, 1)
        bid = other.bids[s]
        if bid is not None:
            other.bids[s] = (space.bid[bid.fairy + 1][bid.common][int(bid.black)][
                int(bid.amulet)] if bid.kind is Kind.BID
                else space.silver[bid.silver + 1][int(bid.amulet)])
    return other


def test_another_seats_secrets_never_show() -> None:
    """F8: other seats' coins and sealed bids (plain and Silver) changed, a seat's fast
    observation and the spectator's stay the same."""
    rng = random.Random(9)
    checked = Counter[str]()
    for options in TABLES[:3]:
        game = FistGame(options)
        enc = encoder_for(game)
        for state in _steps(game, random.Random(501)):
            if state.is_terminal() or state.current_seats() == (CHANCE,):
                continue
            for seat in [*range(state.num_players), None]:
                before = enc.observe_state(state, seat).copy()
                after = enc.observe_state(_perturbed(state, seat, rng), seat)
                assert np.array_equal(before, after), (state.phase, seat)
            checked[state.phase.name] += 1
    assert checked["BID"] and checked["TIEBID"] and checked["DECIDE"], checked


def test_the_kept_card_blocks_follow_every_card_list() -> None:
    """A position that differs from the one observed last in one card list only (each in
    turn, even where play never changes it alone) is observed as its view shows it."""
    game = FistGame({"players": 4, "max_turns": 30})
    enc = encoder_for(game)
    state = next(s for s in _steps(game, random.Random(2))
                 if s.turn == 2 and s.phase is Phase.BID and len(s.auctioned) > 2)

    def holder(st: FistState) -> None:
        st.doppel_holder = 1 if st.doppel_holder is None else None

    def pile(st: FistState) -> None:
        k = st.pile.index(max(st.pile))
        st.pile[k] -= 1
        st.pile[(k + 1) % len(st.pile)] += 1

    def auctioned(st: FistState) -> None:
        st.auctioned[-1], st.auctioned[0] = st.auctioned[0], st.auctioned[-1]

    def specials(st: FistState) -> None:
        st.turn_specials[0] = (st.turn_specials[0] + 1) % len(st.pile)

    def discard(st: FistState) -> None:
        st.special_discard[3] += 1

    def deck(st: FistState) -> None:
        k = st.special_deck.index(max(st.special_deck))
        st.special_deck[k] -= 1
        st.special_deck[(k + 5) % len(st.special_deck)] += 1  # the same size: moved

    for change in (holder, pile, auctioned, specials, discard, deck):
        other = state.clone()
        change(other)
        _check(enc, state, "the position")
        _check(enc, other, f"the position with {change.__name__} changed")
        _check(enc, state, "the position again")


@pytest.mark.parametrize("seat", [-1, 4, True, 1.0])
def test_no_seat_but_the_tables(seat: Any) -> None:
    """A seat that is none of the table's is refused, as the view refuses it (no other
    seat's screen read through an index from the end)."""
    from dragonlair.core.errors import SeatError

    game = FistGame({"players": 4, "max_turns": 30})
    enc = encoder_for(game)
    state = next(s for s in _steps(game, random.Random(2)) if s.phase is Phase.BID)
    with pytest.raises(SeatError):
        state.view(seat)
    with pytest.raises(SeatError):
        enc.observe_state(state, seat)
