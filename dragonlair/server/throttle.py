"""Throttles of the account routes, checked before any password hash is computed
(docs/server.md, "Security notes").

* **Login failures**, counted per account (the username asked for) and per client address.
  The first ``Limits.login_free_failures`` failures of an account (``login_address_free_
  failures`` of an address) cost nothing; after that each attempt must wait
  ``login_delay_s`` seconds after the last failure, doubled with each further failure, at most
  ``login_max_delay_s``. Too early: ``429 server.auth.throttled`` with ``retry_after``
  (seconds) and a ``Retry-After`` header, without looking at the password (no argon2). A
  success forgets the account's failures (not the address's); failures older than
  ``login_forget_s`` are forgotten.
* **New accounts**, per client address: guests (``guests_per_minute``, burst
  ``guest_burst``) and registrations (``registrations_per_hour``, burst
  ``registration_burst``): token buckets; over them the same ``429``.
* The per-address limits do not apply to the addresses in ``Settings.throttle_exempt``
  (default: the machine itself, ``127.0.0.0/8`` and ``::1``: tests, ``bench --server``, a
  local server; behind a trusted proxy the address is the browser's, see
  :mod:`dragonlair.server.security`). The per-account login limit always applies.

The counts live in this process's memory (at most ``MAX_KEYS`` keys each, the least recently
used forgotten first): with several processes each counts its own, and a restart forgets.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import Request

from dragonlair.server.errors import ServerError
from dragonlair.server.settings import Limits, Settings

#: keys (accounts, addresses) each table of counts keeps at most
MAX_KEYS = 100_000


def throttled(wait: float) -> ServerError:
    """``429 server.auth.throttled`` (the app adds ``Retry-After``)."""
    return ServerError("server.auth.throttled", 429, retry_after=max(1, math.ceil(wait)))


@dataclass(slots=True)
class _Failures:
    count: int
    last: float


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


class Throttle:
    """One process's throttles (module docs); thread-safe (the account routes run in
    FastAPI's thread pool)."""

    def __init__(self, limits: Limits, exempt: tuple[str, ...] = (),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._exempt = [ipaddress.ip_network(net, strict=False) for net in exempt]
        self._lock = threading.Lock()
        self._accounts: OrderedDict[str, _Failures] = OrderedDict()
        self._addresses: OrderedDict[str, _Failures] = OrderedDict()
        self._buckets: OrderedDict[tuple[str, str], _Bucket] = OrderedDict()

    @classmethod
    def of(cls, settings: Settings) -> Throttle:
        clock = settings.clock.now if settings.clock is not None else time.monotonic
        return cls(settings.limits, settings.throttle_exempt, clock)

    def exempt(self, address: str | None) -> bool:
        """Whether the per-address limits spare ``address``."""
        if not address:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self._exempt)

    # ------------------------------------------------------------------ login failures
    def _wait(self, table: OrderedDict[str, _Failures], key: str, free: int,
              now: float) -> float:
        entry = table.get(key)
        if entry is None:
            return 0.0
        if now - entry.last > self.limits.login_forget_s:
            del table[key]
            return 0.0
        if entry.count < free:
            return 0.0
        delay = min(self.limits.login_max_delay_s,
                    self.limits.login_delay_s * 2.0 ** (entry.count - free))
        return entry.last + delay - now

    def check_login(self, username: str, address: str | None) -> None:
        """Refuse (``429``) a login attempt that comes too soon after failures."""
        limits, now = self.limits, self.clock()
        with self._lock:
            wait = self._wait(self._accounts, username.lower(), limits.login_free_failures,
                              now)
            if address and not self.exempt(address):
                wait = max(wait, self._wait(self._addresses, address,
                                            limits.login_address_free_failures, now))
        if wait > 0:
            raise throttled(wait)

    @staticmethod
    def _count(table: OrderedDict[str, _Failures], key: str, now: float,
               forget: float) -> None:
        entry = table.get(key)
        if entry is None or now - entry.last > forget:
            table[key] = _Failures(1, now)
        else:
            entry.count += 1
            entry.last = now
        table.move_to_end(key)
        while len(table) > MAX_KEYS:
            table.popitem(last=False)

    def login_failed(self, username: str, address: str | None) -> None:
        now, forget = self.clock(), self.limits.login_forget_s
        with self._lock:
            self._count(self._accounts, username.lower(), now, forget)
            if address and not self.exempt(address):
                self._count(self._addresses, address, now, forget)

    def login_succeeded(self, username: str) -> None:
        with self._lock:
            self._accounts.pop(username.lower(), None)

    # ------------------------------------------------------------------ new accounts
    def _take(self, kind: str, address: str | None, per_second: float, burst: int) -> None:
        if not address or self.exempt(address):
            return
        now = self.clock()
        with self._lock:
            bucket = self._buckets.get((kind, address))
            if bucket is None:
                bucket = _Bucket(float(burst), now)
                self._buckets[(kind, address)] = bucket
                while len(self._buckets) > MAX_KEYS:
                    self._buckets.popitem(last=False)
            else:
                self._buckets.move_to_end((kind, address))
            bucket.tokens = min(float(burst), bucket.tokens + (now - bucket.stamp) * per_second)
            bucket.stamp = now
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return
            wait = (1.0 - bucket.tokens) / per_second if per_second > 0 else 3600.0
        raise throttled(wait)

    def new_guest(self, address: str | None) -> None:
        """Refuse (``429``) a guest over the address's rate."""
        self._take("guest", address, self.limits.guests_per_minute / 60.0,
                   self.limits.guest_burst)

    def new_registration(self, address: str | None) -> None:
        """Refuse (``429``) a registration over the address's rate."""
        self._take("register", address, self.limits.registrations_per_hour / 3600.0,
                   self.limits.registration_burst)


def throttle_of(state: object, settings: Settings) -> Throttle:
    """The application's :class:`Throttle` (``app.state.throttle``), made on first use."""
    found: Throttle | None = getattr(state, "throttle", None)
    if found is None:
        found = Throttle.of(settings)
        state.throttle = found  # type: ignore[attr-defined]
    return found


def client_address(request: Request) -> str | None:
    """The client address of a request (the browser's behind a trusted proxy)."""
    return request.client.host if request.client is not None else None


def of_request(request: Request) -> Throttle:
    """The throttles of the application serving ``request``."""
    return throttle_of(request.app.state, request.app.state.settings)
