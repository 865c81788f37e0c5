"""Property tests over thousands of seeded random Fist games (F1, F4, F5.9, F8, records)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dragonlair.core.game import CHANCE
from dragonlair.core.records import Record, finish_record, new_record, replay
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import TOTALS, FistState

TOTALS_F1 = {**{k: v for k, v in TOTALS.items() if k != "black"},
             "red": 12, "blue": 12, "yellow": 12, "cards": 25}
GAMES_PER_TABLE = 600  # 4 table sizes: 2,400 games


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


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_f1_conservation_and_every_game_ends(players: int) -> None:
    """F1: bank + players + spent bids = totals after every action; F5.9: every game ends
    with one winner at 3 points."""
    for seed in range(GAMES_PER_TABLE):
        state = random_game(players, seed)
        outcome = state.outcome()
        assert outcome is not None
        (winner,) = outcome.winners
        assert state.players[winner].score == 3
        assert all(p.score <= 3 for p in state.players)
        assert outcome.placings[winner] == 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_records_replay_and_round_trip(players: int) -> None:
    """Every record replays to the same final state and round-trips through JSON text;
    every action round-trips through its canonical text and index."""
    game = FistGame({"players": players})
    for seed in range(150):
        state = random_game(players, 10_000 + seed, check=False)
        record = finish_record(new_record(game, [{"name": f"r{s}", "player": "bot:random"}
                                                 for s in range(players)]), state)
        text = record.dumps()
        again = Record.from_json(json.loads(text))
        assert again.dumps() == text
        _, replayed = replay(again)
        assert replayed.full_state() == state.full_state()
        for _, action in state.history:
            assert game.parse_action(str(action)) == action
            assert game.action_from_index(action.index) == action


def test_every_action_text_and_index_round_trips() -> None:
    game = FistGame({"players": 6})
    seen = set()
    for i in range(game.num_distinct_actions):
        action = game.action_from_index(i)
        assert action.index == i
        assert game.parse_action(str(action)) is action
        seen.add(str(action))
    assert len(seen) == game.num_distinct_actions


def _hidden_perturbed(state: FistState, seat: int, rng: random.Random) -> FistState:
    other = state.clone()
    for s, p in enumerate(other.players):
        if s != seat:
            p.fairy += rng.randint(1, 5)
            p.common += rng.randint(1, 3)
            p.silver += rng.randint(1, 4)
            p.amulet += 1
            p.black += 1
            p.fairy_spent += 1
            if other.bids[s] is not None:
                bid = other.bids[s]
                assert bid is not None
                space = other.space
                other.bids[s] = (space.bid[bid.a + 1][bid.b][bid.c][bid.d]
                                 if bid.kind == 0 else space.silver[bid.a + 1][bid.b])
    return other


@settings(max_examples=120, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_f8_view_never_depends_on_another_seats_hidden_coins(players: int, seed: int,
                                                             cut: float) -> None:
    """F8: changing another seat's coins or sealed bid never changes a view."""
    rng = random.Random(seed)
    full = random_game(players, seed, check=False)
    stop = int(len(full.history) * cut)
    state = FistGame({"players": players}).new_initial_state()
    for s, a in full.history[:stop]:
        state.apply(s, a)
    for seat in range(players):
        before = json.dumps(state.view(seat), sort_keys=True)
        assert json.dumps(_hidden_perturbed(state, seat, rng).view(seat),
                          sort_keys=True) == before
    spectator = json.dumps(state.view(None), sort_keys=True)
    assert json.dumps(_hidden_perturbed(state, -1, rng).view(None), sort_keys=True) == spectator
