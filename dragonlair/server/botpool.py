"""Bots that think in other processes, off the event loop's interpreter lock.

A bot thread of the server process holds the interpreter lock while it thinks: an ISMCTS
decision of 40-400 ms is as long a stall of every other table's event loop, however many
threads there are (issue 24). Here bots think in worker processes (``Settings.bot_processes``,
``dragonlair serve --bot-processes``; 0: the hub's threads, as before):

- **What travels.** The server builds the seat's view exactly as
  :func:`dragonlair.core.players.ask_bot` would (the bot's ``reads_view``/``reads_events``,
  the table's :class:`~dragonlair.core.streams.SeatViews`) and sends it with the legal
  actions' canonical texts; the worker parses them with the table's game and asks the bot;
  the answer is the position of its choice among the legal actions, which the server maps
  back to its own action and checks as ``ask_bot`` does. The state never travels (a Fist
  state pickles to half a megabyte in ~35 ms); a view and its texts are a few kilobytes.
- **Memory.** Each bot of a table seat lives in one worker for its whole life (the pool is
  one single-process executor per worker; a bot is placed round robin when made), made there
  from its name and a seed drawn by the server, so a bot that keeps memory between decisions
  keeps it. A worker keeps its most recent :data:`MAX_KEPT` bots; the server tells it to
  forget a seat's bot when a takeover replaces it. A worker that dies is started again and
  the decision asked again there (its bots start afresh from their seeds; logged). A worker
  whose server is gone (killed, crashed) ends itself within a second.
- **Start-up.** Each worker runs every game plugin's ``warm_up`` in its initializer (the
  Farkle optimal policy's tables: 3.7 s when built, not on a first decision) when
  ``Settings.warm_up`` is on; the workers are started with the server then, else on the
  first decision. Workers run at a lower priority (``os.nice``, :data:`NICENESS`): a search
  gives way to the event loop, on a busy machine too.
- **Cheap bots stay.** A bot in ``Settings.bots_in_process`` (default: ``random``,
  ``greedy``, ``cautious``, ``heuristic``, ``optimal``: 0.01-0.2 ms a decision) decides in
  the hub's thread pool: a round trip to a worker costs the server more (0.4-0.6 ms of its
  CPU) than the decision would (docs/server.md, "Performance").

Processes are started with ``spawn`` (the server has threads: no ``fork``), which imports
the main module again in each worker: a program that runs the server from a script of its
own guards it with ``if __name__ == "__main__":`` (the ``dragonlair`` command does), or sets
``bot_processes=0``. Where no process can be made (no ``multiprocessing`` semaphores, a
sandbox), the hub falls back to its threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from dragonlair.core.game import JSON, Action, Game, State
from dragonlair.core.players import Bot, BotError, bot_view
from dragonlair.core.streams import SeatViews

log = logging.getLogger("dragonlair.server")

#: how many bots one worker keeps (the least recently asked go first)
MAX_KEPT = 4096
#: how much lower a worker's scheduling priority is than the server's
NICENESS = 5
#: how often a worker looks whether the server is still there (seconds)
PARENT_POLL_S = 1.0


# ------------------------------------------------------------------ in the worker
_bots: OrderedDict[str, Bot] = OrderedDict()
_games: dict[tuple[str, str], Game] = {}


def _watch_parent(parent: int) -> None:
    """(A thread of the worker.) End the worker once the server is gone, however it went
    (a SIGKILL, a crash, an exit before the pool was shut down): an orphan would sit on its
    memory forever."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(0)


def _init(warm: bool, niceness: int, parent: int) -> None:
    """A worker starts: follow the server's life, lower its priority, build what the bots
    need before a decision."""
    threading.Thread(target=_watch_parent, args=(parent,), name="dragonlair-parent",
                     daemon=True).start()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(niceness)
    import dragonlair.games  # noqa: F401  (the registry, before the first decision)

    if warm:
        from dragonlair.core.plugin import load_path
        from dragonlair.games import game_ids, plugin

        for game_id in game_ids():
            path = plugin(game_id).warm_up
            if path is not None:
                try:
                    load_path(path)()
                except Exception:  # a bot then builds it on its first decision
                    log.exception("the start-up work of %s failed in a bot worker", game_id)


def _ready() -> int:
    return os.getpid()


def _game(game_id: str, options: str) -> Game:
    import json

    from dragonlair.games import make_game

    game = _games.get((game_id, options))
    if game is None:
        game = _games[game_id, options] = make_game(game_id, json.loads(options))
    return game


def _think(key: str, game_id: str, options: str, name: str, seed: int, view: JSON,
           legal: Sequence[str]) -> int:
    """(In a worker.) The bot ``key``'s choice among ``legal`` (texts), as a position."""
    from dragonlair.bots import make_bot

    bot = _bots.get(key)
    if bot is None:
        bot = _bots[key] = make_bot(game_id, name, random.Random(seed))
        while len(_bots) > MAX_KEPT:
            _bots.popitem(last=False)
    else:
        _bots.move_to_end(key)
    game = _game(game_id, options)
    actions = [game.parse_action(text) for text in legal]
    choice = bot.choose(view, actions)
    index = getattr(choice, "index", None)
    for i, a in enumerate(actions):
        if a.index == index:
            return i
    return -1


def _forget(keys: Sequence[str]) -> None:
    for key in keys:
        _bots.pop(key, None)


# ------------------------------------------------------------------ in the server
@dataclass
class RemoteBot:
    """A table seat's bot that lives in a worker: where, and how to make it there."""

    key: str
    game_id: str
    options: str
    name: str
    seed: int
    worker: int
    #: ``reads_view`` / ``reads_events`` of the bot's class (:class:`Bot`)
    reads_view: bool = True
    reads_events: bool = True


@dataclass
class BotPool:
    """The worker processes (see the module docs)."""

    workers: int
    warm: bool = True
    niceness: int = NICENESS
    executors: list[ProcessPoolExecutor | None] = field(default_factory=list)
    _next: itertools.count[int] = field(default_factory=itertools.count)
    #: per (game id, bot name): its ``reads_view`` and ``reads_events``
    _flags: dict[tuple[str, str], tuple[bool, bool]] = field(default_factory=dict)
    #: decisions asked, workers restarted (for tests and the log)
    asked: int = 0
    restarts: int = 0

    def __post_init__(self) -> None:
        self.workers = max(1, self.workers)
        self.executors = [None] * self.workers

    def _executor(self, i: int) -> ProcessPoolExecutor:
        ex = self.executors[i]
        if ex is None:
            import multiprocessing

            ex = self.executors[i] = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_init,
                initargs=(self.warm, self.niceness, os.getpid()))
        return ex

    async def start(self) -> list[int]:
        """Start every worker now (their initializers warm up); their process ids."""
        loop = asyncio.get_running_loop()
        return list(await asyncio.gather(*(
            loop.run_in_executor(self._executor(i), _ready) for i in range(self.workers))))

    def make(self, game: Game, name: str, table_id: str, seat: int) -> RemoteBot:
        """A new bot for ``seat`` of ``table_id`` (made in its worker on first use)."""
        import json

        from dragonlair.bots import make_bot

        game_id = game.info.id
        flags = self._flags.get((game_id, name))
        if flags is None:  # the class's flags (a bot is cheap to make; it thinks there)
            probe = make_bot(game_id, name, random.Random(0))
            flags = self._flags[game_id, name] = (getattr(probe, "reads_view", True),
                                                  getattr(probe, "reads_events", True))
        return RemoteBot(f"{table_id}:{seat}:{secrets.token_hex(6)}", game_id,
                         json.dumps(game.options, sort_keys=True, separators=(",", ":")),
                         name, secrets.randbits(64), next(self._next) % self.workers,
                         *flags)

    async def think(self, bot: RemoteBot, state: State, seat: int,
                    views: SeatViews | None) -> Action:
        """``bot``'s choice on ``state`` (a clone the caller does not change meanwhile)."""
        legal = tuple(state.legal_actions(seat))
        view = bot_view(bot.reads_view, bot.reads_events, state, seat, views)
        texts = [str(a) for a in legal]
        loop = asyncio.get_running_loop()
        self.asked += 1
        for attempt in (1, 2):
            try:
                at = await loop.run_in_executor(
                    self._executor(bot.worker), _think, bot.key, bot.game_id, bot.options,
                    bot.name, bot.seed, view, texts)
                break
            except BrokenProcessPool:
                # the worker died (killed, out of memory): start it again and ask there;
                # the bots it held start afresh from their seeds
                log.warning("bot worker %d died; starting it again", bot.worker)
                self.restarts += 1
                ex, self.executors[bot.worker] = self.executors[bot.worker], None
                if ex is not None:
                    ex.shutdown(wait=False, cancel_futures=True)
                if attempt == 2:
                    raise
        if not 0 <= at < len(legal):
            raise BotError("core.bot.illegal_choice", seat=seat, bot=bot.name,
                           action="?", n=len(legal))
        return legal[at]

    def forget(self, bots: Sequence[RemoteBot]) -> None:
        """Let the workers drop these bots (a seat's bot replaced, a table done)."""
        for i in range(self.workers):
            keys = [b.key for b in bots if b.worker == i]
            ex = self.executors[i]
            if keys and ex is not None:
                with contextlib.suppress(Exception):
                    ex.submit(_forget, keys)

    def close(self) -> None:
        for ex in self.executors:
            if ex is not None:
                ex.shutdown(wait=False, cancel_futures=True)
        self.executors = [None] * self.workers


def processes_available() -> bool:
    """Whether worker processes can be made here (POSIX semaphores; not in every sandbox)."""
    try:
        import multiprocessing

        multiprocessing.get_context("spawn").Lock()
    except (ImportError, OSError, NotImplementedError):
        return False
    return True


def describe(pool: BotPool | None) -> str:
    return "threads" if pool is None else f"{pool.workers} worker process(es)"

