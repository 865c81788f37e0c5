"""Property tests over thousands of seeded random Dragon Farkle games (D1, D3, D8): every
game ends; soldiers (armies + supply, D1) and item cards (deck + discards + held + set aside
= 20, D8) are conserved after every action; chance nodes are distributions.

Records, action round-trips and view secrecy (D9) are checked for every game alike in
tests/test_contract.py."""

from __future__ import annotations

import random

import pytest

from dragonlair.core.game import CHANCE
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.state import SUPPLY, FarkleState, roll_outcomes
from tests.sizes import size

QUICK_GAMES = 15  # per table size, a plain run
#: per table size, after the quick ones: CI 125, the release run (scripts/test.sh --long) 500
GAMES_PER_TABLE = size(ci=60, long=500)
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


def check_games(players: int, seeds: range) -> None:
    game = GAMES[players]
    for seed in seeds:
        state = random_game(game, seed)
        outcome = state.outcome()
        assert outcome is not None
        (winner,) = outcome.winners
        assert outcome.reason == "farkle.end.dragon_slain"
        assert outcome.reason_params == {"seat": winner}
        assert outcome.placings[winner] == 1
        assert state.damage >= game.dragon and state.player == winner
        assert state.full_state()["result"] == outcome.to_json()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_game_ends_and_conserves_soldiers_and_items(players: int) -> None:
    """D1, D8: conservation after every action; D6.4: every game ends with the dragon
    slain by one player, who places first."""
    check_games(players, range(QUICK_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_game_ends_and_conserves_soldiers_and_items_many(players: int) -> None:
    check_games(players, range(QUICK_GAMES, QUICK_GAMES + GAMES_PER_TABLE))


@pytest.mark.parametrize("strength", [4, 5])
def test_variant_dragons_are_slain_too(strength: int) -> None:
    """30 games (the release run, scripts/test.sh --long: 100)."""
    game = FarkleGame({"players": 3, "dragon": strength})
    for seed in range(size(ci=30, long=100)):
        state = random_game(game, seed)
        assert state.damage >= strength


def test_chance_outcomes_are_distributions() -> None:
    """Every chance node lists outcomes whose probabilities sum to 1, and the sampled
    outcome is among them; a roll of k dice has 6^k x 6 equally likely throws. (Eight
    games, 30 in the release run, scripts/test.sh --long: a roll of six dice lists 279,936
    outcomes.)"""
    for k in range(1, 7):
        outs = roll_outcomes(k)
        assert sum(p for _, _, p in outs) == pytest.approx(1.0)
        assert min(p for _, _, p in outs) == pytest.approx(1 / 6**k / 6)
    game = GAMES[4]
    for seed in range(size(ci=8, long=30)):
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
