"""The balance report of a published version, worked out in the background (docs/workshop.md,
"Balance report").

One worker thread per process (:data:`WORKER`): reports are made one at a time, in the order
published, each bounded by :data:`LIMITS` (games and wall time). The result goes into the
version's row (``balance``, ``balance_status`` ``done``; ``failed`` with the error's code).

- Fist characters: the game's workshop's own balance report (every card with how often its
  holders won, with 95 % intervals; the custom ones marked).
- Everything else: games of one fast bot of the game's (:data:`FAST_BOTS`) at every seat,
  with the entry's options; the wins of each seat with Wilson 95 % intervals, and the
  games' mean length in turns.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.workshop.models import WorkshopVersion

JSON = dict[str, Any]
log = logging.getLogger(__name__)


@dataclass(slots=True)
class BalanceLimits:
    """The bounds of one report (a test makes them smaller)."""

    #: games played at most
    games: int = 40
    #: wall seconds after which no further game is started
    seconds: float = 20.0
    #: seats of a Fist characters report
    players: int = 4


LIMITS = BalanceLimits()
#: one report at a time in this process
WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dragonlair-workshop")


def report(game_id: str, kind: str, content: JSON, seed: int) -> JSON:
    """The balance report of an entry's content (seconds: call it off the event loop)."""
    from dragonlair.server.characters import workshops

    ws = workshops().get(game_id)
    if kind == "characters" and ws is not None:
        entries = next(iter(content.values()))
        out = ws.balance(entries, LIMITS.games, LIMITS.players, seed)()
        out["kind"] = "cards"
        return out
    return seat_report(game_id, content, seed)


#: the bots of a seats report, the first the game has (fast ones: a report is many games)
FAST_BOTS = ("greedy", "cautious")


def report_bot(game_id: str) -> str:
    """The bot at every seat of a seats report: a fast one of the game's, else its default."""
    from dragonlair.bots import bot_names
    from dragonlair.games import plugin

    names = bot_names(game_id)
    return next((b for b in FAST_BOTS if b in names), plugin(game_id).default_bot)


def seat_report(game_id: str, options: JSON, seed: int) -> JSON:
    """Bot games with ``options``: the wins of each seat with Wilson 95 % intervals, the mean
    game length, and how many games were played before the limits."""
    from dragonlair.balance import wilson_interval
    from dragonlair.bots import make_bot
    from dragonlair.core.driver import play_out, seed_for
    from dragonlair.games import make_game

    game = make_game(game_id, options)
    bot = report_bot(game_id)
    wins = [0] * game.num_players
    turns = 0
    played = 0
    start = time.monotonic()
    for i in range(LIMITS.games):
        if time.monotonic() - start > LIMITS.seconds:
            break
        seats = [make_bot(game_id, bot, random.Random(seed_for(seed, i, s + 1)))
                 for s in range(game.num_players)]
        state = play_out(game.new_initial_state(), seats, random.Random(seed_for(seed, i)))
        outcome = state.outcome()
        assert outcome is not None
        for w in outcome.winners:
            wins[w] += 1
        turns += state.turn_count()
        played += 1
    seats_out = []
    for seat, k in enumerate(wins):
        low, high = wilson_interval(k, played)
        seats_out.append({"seat": seat, "wins": k,
                          "win_rate": round(k / played, 4) if played else None,
                          "ci95": [round(low, 4), round(high, 4)]})
    return {"kind": "seats", "games": played, "players": game.num_players, "bots": [bot],
            "seed": seed, "mean_turns": round(turns / played, 2) if played else None,
            "seconds": round(time.monotonic() - start, 3),
            "stopped_early": played < LIMITS.games, "seats": seats_out}


def schedule(sessions: Callable[[], OrmSession], version_id: int, game_id: str, kind: str,
             content: JSON) -> Future[None]:
    """Work out the report of version ``version_id`` in the background."""
    seed = secrets.randbelow(2**31)

    def run() -> None:
        status, out = "done", None
        try:
            out = report(game_id, kind, content, seed)
        except Exception as exc:  # a report is extra: it fails alone, with a reason
            log.exception("workshop balance report of version %s failed", version_id)
            status, out = "failed", {"error": getattr(exc, "code", type(exc).__name__)}
        try:
            with sessions() as s:
                row = s.get(WorkshopVersion, version_id)
                if row is not None:
                    row.balance, row.balance_status = out, status
                    s.commit()
        except Exception:  # the database went away (a server stopping): nothing to keep
            log.warning("workshop balance report of version %s not stored", version_id)

    return WORKER.submit(run)
