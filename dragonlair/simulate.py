"""Batch simulation of bot games: reproducible from a seed, records optionally saved."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.errors import OptionError
from dragonlair.core.records import finish_record, new_record
from dragonlair.games import make_game


@dataclass(slots=True)
class SimResult:
    """Totals of a simulation run. ``wins[s]``: games seat ``s`` won (shared wins count);
    ``draws``: games nobody won."""

    games: int
    bots: list[str]
    wins: list[int]
    draws: int
    mean_turns: float
    seconds: float
    reasons: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "bots": self.bots, "wins": self.wins, "draws": self.draws,
                "mean_turns": round(self.mean_turns, 4), "seconds": round(self.seconds, 3)}


def seat_bots(names: Sequence[str], players: int) -> list[str]:
    """Bot names per seat: the list is repeated to fill the table."""
    if not names:
        raise OptionError("--bots needs at least one bot name")
    return [names[i % len(names)] for i in range(players)]


def simulate(
    game_id: str,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    save_dir: Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> SimResult:
    """Play ``games`` games; game ``i`` is seeded from ``(seed, i)`` alone."""
    if games < 1:
        raise OptionError("--games must be at least 1")
    game = make_game(game_id, options or {})
    names = seat_bots(bots, game.num_players)
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    wins = [0] * game.num_players
    draws = 0
    turns = 0
    reasons: dict[str, int] = {}
    start = time.perf_counter()
    for i in range(games):
        seats = [make_bot(game_id, name, random.Random(seed_for(seed, i, s + 1)))
                 for s, name in enumerate(names)]
        state = play_out(game.new_initial_state(), seats, random.Random(seed_for(seed, i)))
        outcome = state.outcome()
        assert outcome is not None
        for w in outcome.winners:
            wins[w] += 1
        draws += not outcome.winners
        turns += state.turn_count()
        reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
        if save_dir is not None:
            record = new_record(game, [{"name": f"{n} ({s})", "player": f"bot:{n}"}
                                       for s, n in enumerate(names)],
                                {"seed": seed, "game_index": i})
            finish_record(record, state).save(save_dir / f"{game_id}-{seed}-{i:05d}.json")
        if on_game:
            on_game(i)
    return SimResult(games, names, wins, draws, turns / games, time.perf_counter() - start,
                     reasons)
