"""The event fan-out between server processes (issue 15; docs/deploy.md).

A process that commits a change of a table publishes it here; every process that holds
viewers of that table (the publisher included) gets it and filters it per viewer. Two
buses behind one small interface, :class:`Bus`:

- :class:`LocalBus`: one process (the SQLite default); delivery is a function call.
- :class:`RedisBus`: Redis pub/sub, one channel per table (``<prefix>:table:<id>``), for any
  number of processes. The publisher delivers to its own subscribers at once and ignores its
  echo from Redis.

Order and completeness come from the database, never from the bus: each publication carries
the table's log length before and after it (``since``, ``seq``), and each subscription
remembers the newest ``seq`` it has delivered. A publication at or below that is a
duplicate and dropped; one whose ``since`` lies beyond it means something was missed, and
the subscription's ``catch_up`` callback (which reads the action log after that ``seq``)
fills the gap first. When the connection to Redis breaks, the bus reconnects with backoff;
while Redis is away it asks the database every ``poll_s`` whether each subscribed table
moved on (the same catch-up), so play goes on across processes, a little slower; once
Redis is back it subscribes again and catches every subscription up once more. An outage
of Redis delays viewers but loses nothing; publications that failed meanwhile are sent
again once it is back (subscribers drop what they already have).

Publications without a ``seq`` (chat, presence) are delivered at most once, in order, while
Redis is up; they are not caught up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger("dragonlair.server.bus")


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One publication about a table: ``payload`` is JSON-able. ``since`` and ``seq``: the
    table's action-log length before and after the change (``None`` for a change outside
    the log, such as a chat line)."""

    table_id: str
    payload: dict[str, Any]
    since: int | None = None
    seq: int | None = None

    def to_json(self, origin: str) -> str:
        return json.dumps({"o": origin, "t": self.table_id, "a": self.since, "s": self.seq,
                           "p": self.payload}, separators=(",", ":"))

    @staticmethod
    def from_json(text: str | bytes) -> tuple[str, TableEvent]:
        """(origin, event) of a message :meth:`to_json` wrote."""
        data = json.loads(text)
        return str(data["o"]), TableEvent(str(data["t"]), data["p"], data["a"], data["s"])


#: receives each new publication of a table, in order
Handler = Callable[[TableEvent], Awaitable[None]]
#: ``catch_up(table_id, seq)``: the publications after log length ``seq``, read from the
#: database, in order (the action log is the truth; the bus only carries news of it)
CatchUp = Callable[[str, int], Awaitable[list[TableEvent]]]


@dataclass(eq=False, slots=True)
class Subscription:
    """One subscriber's interest in one table; ``seq``: the newest log length delivered."""

    table_id: str
    handler: Handler
    catch_up: CatchUp | None
    seq: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False

    async def deliver(self, event: TableEvent) -> None:
        """Hand ``event`` to the handler unless it is old news; fill a gap first."""
        async with self.lock:
            if self.closed:
                return
            if event.seq is None:
                await self._call(event)
                return
            if event.seq <= self.seq:
                return  # a duplicate (an echo, a resend, or caught up already)
            if event.since is not None and event.since > self.seq:
                await self._catch_up()
                if event.seq <= self.seq:
                    return
            await self._call(event)
            self.seq = event.seq

    async def resync(self) -> None:
        """Catch up from the database (after a reconnection)."""
        async with self.lock:
            if not self.closed:
                await self._catch_up()

    async def _catch_up(self) -> None:
        if self.catch_up is None:
            return
        for missed in await self.catch_up(self.table_id, self.seq):
            if missed.seq is not None and missed.seq <= self.seq:
                continue
            await self._call(missed)
            if missed.seq is not None:
                self.seq = missed.seq

    async def _call(self, event: TableEvent) -> None:
        try:
            await self.handler(event)
        except Exception:  # one subscriber's bug stops no other
            log.exception("a subscriber of table %s failed", self.table_id)


class Bus:
    """The interface (and the shared bookkeeping): subscriptions per table, delivery."""

    #: catch a new subscription up from the database once it listens
    resync_on_subscribe = False

    def __init__(self) -> None:
        self.subscriptions: dict[str, list[Subscription]] = {}

    async def start(self) -> None:
        """Connect (nothing to do for the local bus)."""

    async def close(self) -> None:
        """Disconnect; no delivery after this returns."""
        for subs in self.subscriptions.values():
            for sub in subs:
                sub.closed = True
        self.subscriptions.clear()

    async def publish(self, event: TableEvent) -> None:
        """Deliver ``event`` to every subscriber of its table, in every process. Call it after
        the change is committed; it never raises for a broken connection (the subscribers
        catch up from the database)."""
        raise NotImplementedError

    async def subscribe(self, table_id: str, handler: Handler, seq: int = 0,
                        catch_up: CatchUp | None = None) -> Subscription:
        """Receive the publications of ``table_id`` after log length ``seq``."""
        sub = Subscription(table_id, handler, catch_up, seq)
        subs = self.subscriptions.setdefault(table_id, [])
        subs.append(sub)
        if len(subs) == 1:
            await self._listen(table_id)
        if self.resync_on_subscribe:
            # a publication between the subscriber's read of the log and the channel's
            # subscription would otherwise wait for the table's next one to show the gap
            await sub.resync()
        return sub

    async def unsubscribe(self, sub: Subscription) -> None:
        sub.closed = True
        subs = self.subscriptions.get(sub.table_id, [])
        if sub in subs:
            subs.remove(sub)
        if not subs and self.subscriptions.pop(sub.table_id, None) is not None:
            await self._unlisten(sub.table_id)

    async def _deliver_here(self, event: TableEvent) -> None:
        for sub in list(self.subscriptions.get(event.table_id, ())):
            await sub.deliver(event)

    async def _listen(self, table_id: str) -> None:
        """The first subscriber of ``table_id`` in this process arrived."""

    async def _unlisten(self, table_id: str) -> None:
        """The last subscriber of ``table_id`` in this process left."""


class LocalBus(Bus):
    """One process: :meth:`publish` delivers directly."""

    async def publish(self, event: TableEvent) -> None:
        await self._deliver_here(event)


class RedisBus(Bus):
    """Redis pub/sub between processes (see the module docs). ``url``: ``redis://...``;
    ``prefix`` separates several deployments on one Redis."""

    resync_on_subscribe = True

    def __init__(self, url: str, prefix: str = "dragonlair", *, backoff: float = 0.05,
                 max_backoff: float = 2.0, max_unsent: int = 10_000,
                 poll_s: float = 0.5) -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        #: this process, so that it can tell its own echo
        self.origin = uuid.uuid4().hex
        self.backoff, self.max_backoff = backoff, max_backoff
        #: while Redis is away, how often the database is asked what the bus cannot tell
        self.poll_s = poll_s
        #: rounds of those questions so far (tests read it)
        self.polls = 0
        self.redis: Redis | None = None
        self.pubsub: PubSub | None = None
        self.reader: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        #: publications whose send failed, sent again on reconnection (oldest dropped first:
        #: subscribers then catch up from the database when the next one shows the gap)
        self.unsent: deque[TableEvent] = deque(maxlen=max_unsent)
        #: reconnections so far (tests and the benchmark read it)
        self.reconnects = 0
        self.closing = False
        #: publications waiting for the sender, which sends them in order, many per round
        #: trip (a pipeline): one coroutine per publication, each on a connection of the
        #: pool, let a table's later news overtake its earlier news on the way, which the
        #: receivers took for a gap and read the database to fill
        self.outbox: deque[TableEvent] = deque()
        self.outbox_ready = asyncio.Event()
        self.sender: asyncio.Task[None] | None = None

    def channel(self, table_id: str) -> str:
        return f"{self.prefix}:table:{table_id}"

    async def start(self) -> None:
        await self._connect()
        self.reader = asyncio.create_task(self._read(), name="dragonlair-redis-bus")
        self.sender = asyncio.create_task(self._send(), name="dragonlair-redis-publish")

    async def close(self) -> None:
        self.closing = True
        await super().close()
        for task in (self.reader, self.sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):  # what was published before closing goes out
            while self.outbox:
                await self._send_batch()
        await self._disconnect()

    async def publish(self, event: TableEvent) -> None:
        """Deliver here, then queue for the sender (:meth:`_send`): the publications of
        this process leave in the order they were made."""
        await self._deliver_here(event)
        if self.redis is None or not self.connected.is_set():
            self.unsent.append(event)
            return
        self.outbox.append(event)
        self.outbox_ready.set()

    async def _send(self) -> None:
        while not self.closing:
            await self.outbox_ready.wait()
            self.outbox_ready.clear()
            while self.outbox and not self.closing:
                await self._send_batch()

    async def _send_batch(self, most: int = 256) -> None:
        """Send up to ``most`` queued publications in one pipeline; if Redis is away they
        wait in :attr:`unsent` (the reader reconnects and resends them)."""
        batch = [self.outbox.popleft() for _ in range(min(most, len(self.outbox)))]
        if not batch:
            return
        redis = self.redis
        if redis is None or not self.connected.is_set():
            self.unsent.extend(batch)
            return
        try:
            async with redis.pipeline(transaction=False) as pipe:
                for event in batch:
                    pipe.publish(self.channel(event.table_id), event.to_json(self.origin))
                await pipe.execute()
        except Exception as exc:  # Redis is away: the reader reconnects and resends
            log.warning("redis publish failed (%s); will resend", exc)
            self.unsent.extend(batch)
            self.connected.clear()

    async def _listen(self, table_id: str) -> None:
        if self.pubsub is not None and self.connected.is_set():
            try:
                await self.pubsub.subscribe(self.channel(table_id))
            except Exception as exc:  # the reader resubscribes everything on reconnection
                log.warning("redis subscribe failed (%s)", exc)
                self.connected.clear()

    async def _unlisten(self, table_id: str) -> None:
        if self.pubsub is not None and self.connected.is_set():
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(self.channel(table_id))

    async def _connect(self) -> None:
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # no silent retries inside redis-py: a reconnection must be seen here, because it
        # means catching up from the database
        self.redis = Redis.from_url(self.url, retry=Retry(NoBackoff(), 0),
                                    socket_connect_timeout=2, health_check_interval=5)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        channels = [self.channel(t) for t in self.subscriptions]
        # a pubsub with no channel has no connection yet: a ping proves the server is there
        await self.redis.ping()
        if channels:
            await self.pubsub.subscribe(*channels)
        self.connected.set()

    async def _disconnect(self) -> None:
        self.connected.clear()
        pubsub, redis = self.pubsub, self.redis
        self.pubsub = self.redis = None
        if pubsub is not None:
            close: Callable[[], Awaitable[None]] = pubsub.aclose  # untyped in redis-py
            with contextlib.suppress(Exception):
                await close()
        if redis is not None:
            with contextlib.suppress(Exception):
                await redis.aclose()

    async def _read(self) -> None:
        while not self.closing:
            try:
                await self._read_until_broken()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.closing:
                    return
                log.warning("redis bus connection lost (%s); reconnecting", exc)
            await self._reconnect()

    async def _read_until_broken(self) -> None:
        while not self.closing:
            pubsub = self.pubsub
            if pubsub is None or not self.connected.is_set():
                return
            if not pubsub.subscribed:  # nothing to read yet (publish notices a dead server)
                await asyncio.sleep(0.05)
                continue
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if message is None or message.get("type") != "message":
                continue
            try:
                origin, event = TableEvent.from_json(message["data"])
            except (ValueError, KeyError, TypeError):
                log.warning("an unreadable message on %s", message.get("channel"))
                continue
            if origin != self.origin:
                await self._deliver_here(event)

    async def _resync_all(self) -> None:
        """Catch every subscription up from the database."""
        for subs in list(self.subscriptions.values()):
            for sub in list(subs):
                await sub.resync()

    async def _poll_while_away(self) -> None:
        """Until cancelled (Redis is back): every ``poll_s``, what the other processes
        committed meanwhile, from the database; they cannot tell us now."""
        failed = False  # logged once per outage, not twice a second
        while not self.closing:
            await asyncio.sleep(self.poll_s)
            try:
                await self._resync_all()
            except Exception:  # the database is away too: ask again next round
                if not failed:
                    log.exception("catching up from the database while redis is away failed")
                failed = True
            self.polls += 1

    async def _reconnect(self) -> None:
        await self._disconnect()
        poller = asyncio.create_task(self._poll_while_away(), name="dragonlair-bus-poll")
        try:
            delay = self.backoff
            while not self.closing:
                try:
                    await self._connect()
                    break
                except Exception:
                    await self._disconnect()
                    await asyncio.sleep(delay)
                    delay = min(self.max_backoff, delay * 2)
        finally:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
        if self.closing:
            return
        self.reconnects += 1
        log.info("redis bus reconnected; catching up %d table(s)", len(self.subscriptions))
        # what was published while we were away, or since the last poll, is in the database
        await self._resync_all()
        # and what we failed to publish goes out now (receivers drop duplicates)
        while self.unsent and self.redis is not None:
            event = self.unsent[0]
            try:
                await self.redis.publish(self.channel(event.table_id),
                                         event.to_json(self.origin))
            except Exception:
                self.connected.clear()
                return
            self.unsent.popleft()


def make_bus(redis_url: str | None) -> Bus:
    """A :class:`RedisBus` for a Redis URL, else the :class:`LocalBus`."""
    return RedisBus(redis_url) if redis_url else LocalBus()
