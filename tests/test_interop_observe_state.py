"""The adapters' fast observations (issue 24): ``Encoder.observe_state`` reads a seat's
position from the engine state, and must give exactly the vector that the view encoding
gives (``observation(position_view(state, seat))``), so the view stays the definition of what
a seat may know (F8, M6, D9). Checked at every step of seeded random games, for every seat and
the spectator, at the tables the adapters are used at and at the extremes of the options;
``tests/test_interop_hidden.py`` scans the adapters (which observe through this path) for
planted secrets."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from dragonlair.core.game import CHANCE  # noqa: E402
from dragonlair.games import make_game  # noqa: E402
from dragonlair.interop import common  # noqa: E402
from dragonlair.interop.encoding import encoder_for  # noqa: E402
from tests.sizes import quick_first  # noqa: E402

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("master", {}, 6), ("master", {"match": True}, 3),
    ("farkle", {"players": 2, "max_turns": 12}, 4),
    ("fist", {"players": 4, "max_turns": 8}, 3),
    ("hoard", {"players": 2, "max_turns": 12}, 4),
    ("farkle", {"players": 5, "max_turns": 8}, 2),
    ("fist", {"players": 3, "max_turns": 8}, 2),
    ("fist", {"players": 6, "max_turns": 6}, 2),
]


@pytest.mark.parametrize(("game_id", "options", "games"), quick_first(5, CONFIGS),
                         ids=[f"{g}-{'-'.join(f'{k}{v}' for k, v in o.items())}"
                              for g, o, _ in CONFIGS])
def test_the_fast_observation_is_the_view_encoding(
        game_id: str, options: dict[str, Any], games: int) -> None:
    game = make_game(game_id, options)
    enc = encoder_for(game)
    steps = 0
    for g in range(games):
        rng = random.Random(1000 + g)
        state = game.new_initial_state()
        while True:
            for seat in [*range(game.num_players), None]:
                want = enc.observation(common.position_view(state, seat))
                got = enc.observe_state(state, seat)
                if not np.array_equal(got, want):
                    bad = [name for name, sl, _ in enc.layout()
                           if not np.array_equal(got[sl], want[sl])]
                    raise AssertionError(
                        f"game {g}, step {steps}, seat {seat}: the fast observation differs "
                        f"from the view's in {bad}")
            if state.is_terminal():
                break
            seats = state.current_seats()
            if seats == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                for seat in seats:
                    legal = state.legal_actions(seat)
                    state.apply(seat, legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 30 * games


def test_an_output_buffer_is_overwritten_whole() -> None:
    """A reused buffer (as the adapters reuse one) holds no value of the last position."""
    game = make_game("master", {})
    enc = encoder_for(game)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.current_seats() == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))
    buf = np.full(enc.observation_size, 0.5, np.float32)
    enc.observe_state(state, 0, buf)
    assert np.array_equal(buf, enc.observation(common.position_view(state, 0)))
