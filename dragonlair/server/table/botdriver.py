"""Chance and bots (:class:`BotDriver`): what nobody at the table sends is played here.

Chance outcomes are drawn with the hub's :class:`secrets.SystemRandom` (no client can
predict them) and bots think in the hub's worker processes
(:mod:`dragonlair.server.botpool`, handed their seat's view) or in its thread pool, on a
clone of the state, through :func:`dragonlair.core.players.ask_bot`; both are committed
like a person's move
(:meth:`MovePipeline.commit <dragonlair.server.table.pipeline.MovePipeline.commit>`), so a
draw is in the database before anybody sees it. One task per table plays until a person
must act or the game ends, and only in the process that runs the table (``Hub.runs``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import CHANCE, Action
from dragonlair.core.players import Bot
from dragonlair.core.streams import SeatViews
from dragonlair.server.botpool import RemoteBot
from dragonlair.server.table.storage import Row, StaleTable

if TYPE_CHECKING:
    from dragonlair.server.table.runtime import TableRuntime

log = logging.getLogger("dragonlair.server")


class BotDriver:
    """Chance and the bot seats of one table (see the module docs)."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.rt = runtime
        #: the bots playing the table's bot seats, by seat (made on first use)
        self.bots: dict[int, Bot | RemoteBot] = {}
        #: the bot seats' views, kept current from the events since (issue 24)
        self.views = SeatViews()
        #: the task playing chance and bots (``None``: none running)
        self.task: asyncio.Task[None] | None = None

    def kick(self) -> None:
        """Make sure chance and bots are being played (one task per table; none while only
        people may move, as :meth:`advance` would find at once)."""
        if self.task is None and not self.waits_for_people():
            self.task = asyncio.create_task(self.advance())

    def waits_for_people(self) -> bool:
        """Whether, on this process's log, only people may move (or nobody: the game is
        over, or this process no longer runs the table): no chance, no bot to play."""
        rt = self.rt
        if rt.status != "running" or rt.state.is_terminal() or not rt.hub.runs(rt.id):
            return True
        if rt.state.is_chance():
            return False
        return not any(rt.seats[s].kind == "bot" for s in rt.state.current_seats()
                       if s < len(rt.seats))

    async def advance(self) -> None:
        """Draw chance outcomes and play bot seats until a person must act or the game ends."""
        rt = self.rt
        # what this process knows is current as of the change that kicked it (its own
        # commit, or news it applied): a later change elsewhere is news that kicks again
        # (Hub.notice -> refresh), and a draw on a log that another process has extended
        # meanwhile fails on UNIQUE(table_id, seq), after which the database is read. So
        # the database is read only then, or where clocks are involved (their state is in
        # the database): no read per action (docs/server.md, "Performance")
        trusted = not rt.spec.active
        try:
            for _ in range(rt.hub.settings.limits.max_auto_actions):
                async with rt.lock:
                    if self.waits_for_people():  # nothing to play on what we know
                        self.task = None
                        return
                    if not trusted:
                        await rt.sync()
                    trusted = False
                    if rt.status != "running" or rt.state.is_terminal() \
                            or not rt.hub.runs(rt.id):  # the claim passed on meanwhile
                        self.task = None
                        return
                    if rt.state.is_chance():
                        trusted = await self.draw_chance() and not rt.spec.active
                        continue
                    bot_seats = [s for s in rt.state.current_seats()
                                 if rt.seats[s].kind == "bot"]
                    if not bot_seats:
                        self.task = None
                        return
                    base = rt.seq
                    jobs = [(s, self.bot(s), rt.state.clone()) for s in bot_seats]
                choices = await asyncio.gather(*(rt.hub.think(bot, state, seat, self.views)
                                                 for seat, bot, state in jobs))
                async with rt.lock:
                    await rt.sync()
                    await self.apply_bot_moves(base, list(zip(bot_seats, choices, strict=True)))
                await asyncio.sleep(0)
            log.warning("table %s: stopped after %d automatic actions", rt.id,
                        rt.hub.settings.limits.max_auto_actions)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug: log it, and let the next action try again
            log.exception("table %s: playing chance and bots failed", rt.id)
        self.task = None

    async def draw_chance(self) -> bool:
        """Draw every chance outcome due now (one transaction), then broadcast. ``False``:
        another process had extended the log (nothing written)."""
        rt = self.rt
        trial = rt.state.clone()
        rows: list[Row] = []
        while trial.is_chance() and len(rows) < 10_000:
            action = trial.sample_chance(rt.hub.chance)
            before = tuple(trial.current_seats())
            trial.apply(CHANCE, action)
            rows.append(Row(CHANCE, str(action), None, before))
        try:
            await rt.moves.commit(trial, rows)
        except (IntegrityError, StaleTable):
            return False  # another process drew first: the next sync reads its draws
        rt.audience.broadcast()
        return True

    async def apply_bot_moves(self, base: int, choices: list[tuple[int, Action]]) -> None:
        """(Under the lock, synced.) Commit the bots' ``choices``, thought on the log of
        length ``base``, that still fit; a lost race leaves them to the next round."""
        rt = self.rt
        trial = rt.state.clone()
        rows: list[Row] = []
        for seat, action in choices:
            before = tuple(trial.current_seats())
            if (rt.seats[seat].kind != "bot" or seat not in before
                    or not rt.fresh_enough(seat, base)):
                continue
            try:
                trial.apply(seat, action)
            except DragonlairError as exc:  # the position moved on: think again next round
                log.info("table %s: bot p%d's move no longer fits: %s", rt.id, seat, exc.code)
                break
            rows.append(Row(seat, str(action), None, before))
        if not rows:
            return
        try:
            await rt.moves.commit(trial, rows)
        except IntegrityError:
            return
        rt.audience.broadcast()

    def bot(self, seat: int) -> Bot | RemoteBot:
        """The bot playing ``seat`` (made on first use, with a seed of its own): in a worker
        process of the hub's, unless it is one of ``Settings.bots_in_process`` or the hub
        has none."""
        rt = self.rt
        if seat not in self.bots:
            name = rt.seats[seat].bot or "random"
            pool = rt.hub.bots
            if pool is not None and name not in rt.hub.settings.bots_in_process:
                self.bots[seat] = pool.make(rt.game, name, rt.id, seat)
            else:
                from dragonlair.bots import make_bot

                self.bots[seat] = make_bot(rt.game.info.id, name,
                                           random.Random(secrets.randbits(64)))
        return self.bots[seat]

    def drop(self, seat: int) -> None:
        """Forget ``seat``'s bot (a new one takes the seat): a worker drops it too."""
        old = self.bots.pop(seat, None)
        if isinstance(old, RemoteBot) and self.rt.hub.bots is not None:
            self.rt.hub.bots.forget([old])
