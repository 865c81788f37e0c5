"""Property tests over thousands of seeded random Fist games (F1, F4, F5.9).

Records, action round-trips and view secrecy (F8) are checked for every game alike in
tests/test_contract.py."""

from __future__ import annotations

import random

import pytest

from dragonlair.core.game import CHANCE
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import TOTALS, FistState
from tests.sizes import size

TOTALS_F1 = {**{k: v for k, v in TOTALS.items() if k != "black"},
             "red": 12, "blue": 12, "yellow": 12, "cards": 25}
QUICK_GAMES = 12  # per table size, a plain run
#: per table size, after the quick ones: CI 150, the release run (scripts/test.sh --long) 600
GAMES_PER_TABLE = size(ci=75, long=600)


def random_game(players: int, seed: int, check: bool = True) -> FistState:
    """A uniform random game; F1 conservation checked after every action."""
    rng = random.Random(seed)
    state = FistGame({"players": players}).new_initial_state()
    for _ in range(20_000):
        seats = state.current_seats()
        if not seats:
            return state
        if seats[0] == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            for seat in seats:
                legal = state.legal_actions(seat)
                assert legal, f"seat {seat} to move with no legal action"
                state.apply(seat, rng.choice(legal))
        if check:
            assert state.totals() == TOTALS_F1, f"F1 conservation broken at {len(state.history)}"
    raise AssertionError(f"game {players}/{seed} did not end")


def check_conservation(players: int, seeds: range) -> None:
    for seed in seeds:
        state = random_game(players, seed)
        outcome = state.outcome()
        assert outcome is not None
        (winner,) = outcome.winners
        assert state.players[winner].score == 3
        assert all(p.score <= 3 for p in state.players)
        assert outcome.placings[winner] == 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_f1_conservation_and_every_game_ends(players: int) -> None:
    """F1: bank + players + spent bids = totals after every action; F5.9: every game ends
    with one winner at 3 points."""
    check_conservation(players, range(QUICK_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_f1_conservation_and_every_game_ends_many(players: int) -> None:
    check_conservation(players, range(QUICK_GAMES, QUICK_GAMES + GAMES_PER_TABLE))
