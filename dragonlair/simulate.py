"""Batch simulation of bot games: reproducible from a seed, records optionally saved."""

from __future__ import annotations

import json
import os
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
    ``draws``: games nobody won; ``reasons``: games per end reason code; ``endings``: games
    per end reason with its params (``(code, params as sorted JSON)``), what a reader is
    shown (``render(code, params, lang)``)."""

    games: int
    bots: list[str]
    wins: list[int]
    draws: int
    mean_turns: float
    seconds: float
    reasons: dict[str, int] = field(default_factory=dict)
    endings: dict[tuple[str, str], int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "bots": self.bots, "wins": self.wins, "draws": self.draws,
                "mean_turns": round(self.mean_turns, 4), "seconds": round(self.seconds, 3)}


def seat_bots(names: Sequence[str], players: int) -> list[str]:
    """Bot names per seat: the list is repeated to fill the table. More names than seats
    raise :class:`OptionError` (a bot would silently sit out)."""
    if not names:
        raise OptionError("core.run.no_bots")
    if len(names) > players:
        raise OptionError("core.run.too_many_bots", bots=len(names), players=players)
    return [names[i % len(names)] for i in range(players)]


def prepare_save_dir(path: Path) -> None:
    """Make ``path`` a folder records can be written into (created if missing), before any
    game is played; else :class:`OptionError` saying why."""
    if path.exists() and not path.is_dir():
        raise OptionError("core.run.save_dir_is_file", path=str(path))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OptionError("core.run.save_dir_create", path=str(path),
                          why=str(exc.strerror or exc)) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise OptionError("core.run.save_dir_not_writable", path=str(path))


def output_file_problem(path: Path) -> dict[str, Any] | None:
    """Why a file cannot be written at ``path`` (checked before a game or a run, so that
    its result is not lost at the end), as an error's JSON (``{"code", "params", "rule"}``,
    codes ``core.file.*``; a message shows it with ``{cause:error}``), or None if it looks
    writable."""
    if path.is_dir():
        return _why("core.file.is_folder")
    parent = path.parent
    if not parent.is_dir():
        return _why("core.file.no_folder" if not parent.exists() else "core.file.not_a_folder",
                    folder=str(parent))
    if path.exists():
        if not os.access(path, os.W_OK):
            return _why("core.file.not_writable")
    elif not os.access(parent, os.W_OK | os.X_OK):
        return _why("core.file.folder_not_writable", folder=str(parent))
    return None


def _why(code: str, **params: Any) -> dict[str, Any]:
    return OptionError(code, **params).to_json()


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
        raise OptionError("core.run.games_min")
    game = make_game(game_id, options or {})
    names = seat_bots(bots, game.num_players)
    if save_dir is not None:
        prepare_save_dir(save_dir)
    wins = [0] * game.num_players
    draws = 0
    turns = 0
    reasons: dict[str, int] = {}
    endings: dict[tuple[str, str], int] = {}
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
        ending = (outcome.reason, json.dumps(dict(outcome.reason_params), sort_keys=True))
        endings[ending] = endings.get(ending, 0) + 1
        if save_dir is not None:
            record = new_record(game, [{"name": f"{n} ({s})", "player": f"bot:{n}"}
                                       for s, n in enumerate(names)],
                                {"seed": seed, "game_index": i})
            finish_record(record, state).save(save_dir / f"{game_id}-{seed}-{i:05d}.json")
        if on_game:
            on_game(i)
    return SimResult(games, names, wins, draws, turns / games, time.perf_counter() - start,
                     reasons, endings)
