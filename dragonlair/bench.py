"""Random-playout throughput per game, through the public API (legal actions included)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from dragonlair.core.driver import random_playout
from dragonlair.games import make_game

BENCH_TABLES: dict[str, dict[str, Any]] = {
    "fist": {"players": 4},
    "master": {},
    "farkle": {"players": 2},
}


@dataclass(slots=True)
class BenchResult:
    game: str
    options: dict[str, Any]
    games: int
    actions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "games": self.games,
                "actions": self.actions, "seconds": round(self.seconds, 3),
                "games_per_s": round(self.games_per_s, 1),
                "actions_per_s": round(self.actions_per_s)}


def bench_game(game_id: str, seconds: float = 3.0, seed: int = 0) -> BenchResult:
    """Play uniform random games of ``game_id`` for about ``seconds`` on one core."""
    options = BENCH_TABLES.get(game_id, {})
    game = make_game(game_id, options)
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        actions += random_playout(game.new_initial_state(), rng)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return BenchResult(game_id, options, games, actions, now - start)
