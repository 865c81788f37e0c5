"""Server settings: where the database lives, who may open a WebSocket, and every bound."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dragonlair.server.clocks import Clock

#: the data folder when none is given: ``$DRAGONLAIR_DATA`` or ``~/.local/share/dragonlair``
DEFAULT_DATA_DIR = Path(os.environ.get("DRAGONLAIR_DATA")
                        or Path.home() / ".local" / "share" / "dragonlair")


def default_bot_processes() -> int:
    """``$DRAGONLAIR_BOT_PROCESSES`` (also ``dragonlair serve --bot-processes``), else 2."""
    try:
        return max(0, int(os.environ.get("DRAGONLAIR_BOT_PROCESSES", "2")))
    except ValueError:
        return 2


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on everything a client sends (docs/protocol.md, "Limits")."""

    #: the largest WebSocket message the server reads (characters of JSON text)
    max_message_chars: int = 8192
    #: the largest HTTP JSON body of the lobby (bytes)
    max_body_bytes: int = 65536
    #: the longest action text, idempotency key and correlation id
    max_action_chars: int = 200
    max_key_chars: int = 64
    #: messages per second a WebSocket may send (token bucket), and the burst it may save up
    messages_per_second: float = 20.0
    message_burst: int = 40
    #: errors for flooding after which the server closes the socket
    max_rate_errors: int = 50
    #: messages the server may queue for one slow viewer before it drops the connection
    #: (the client then resumes)
    max_queued: int = 512
    #: usernames, display names, passwords (characters)
    max_username: int = 32
    max_display_name: int = 40
    min_password: int = 8
    max_password: int = 256
    #: tables a user may have open (not yet started) at once
    max_open_tables_per_user: int = 10
    #: chance draws and bot moves applied in a row before the server yields to others
    max_auto_actions: int = 100_000
    #: many processes: how often a person's action is judged again after another process
    #: committed the same sequence number first (then ``server.act.stale``)
    max_commit_races: int = 5
    #: table chat: the longest line (characters, after trimming blanks), lines per minute a
    #: user may write (token bucket, per user), the burst saved up, and the lines of history
    #: a ``welcome`` carries
    max_chat_chars: int = 500
    chat_per_minute: float = 20.0
    chat_burst: int = 5
    chat_history: int = 50
    #: login throttling (dragonlair/server/throttle.py, docs/server.md "Security notes"):
    #: failures that cost nothing per account and per client address, the first delay after
    #: them (doubled with each further failure), its cap, and how long failures are kept
    login_free_failures: int = 5
    login_address_free_failures: int = 20
    login_delay_s: float = 2.0
    login_max_delay_s: float = 900.0
    login_forget_s: float = 3600.0
    #: new accounts per client address: guests a minute and registrations an hour (token
    #: buckets), and the bursts saved up
    guests_per_minute: float = 10.0
    guest_burst: int = 10
    registrations_per_hour: float = 20.0
    registration_burst: int = 5
    #: Web Push (dragonlair/server/push.py): subscriptions a user may hold (one per browser)
    max_push_subscriptions: int = 10
    #: the forum (docs/forum.md, "Limits"): posts a minute, threads an hour, reports an hour
    #: and previews a minute per account; the longest title, post and report reason
    #: (characters)
    forum_posts_per_minute: int = 5
    forum_threads_per_hour: int = 10
    forum_reports_per_hour: int = 20
    forum_previews_per_minute: int = 30
    max_forum_title: int = 120
    max_forum_body: int = 10_000
    max_forum_reason: int = 500
    #: puzzle answers a minute per account (docs/puzzles.md, "On the server")
    puzzle_answers_per_minute: int = 30


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything :func:`dragonlair.server.create_app` needs.

    ``database_url``: a SQLAlchemy URL; ``None`` means a SQLite file ``dragonlair.db`` in
    ``data_dir`` (created, with the folder, on first start). ``allowed_origins``: origins (as
    ``scheme://host[:port]``) whose pages may open a WebSocket or send a state-changing REST
    request, besides the server's own (an ``Origin`` equal to the request's ``Host``).
    ``cookie_secure``: always mark the session cookie ``Secure`` (without it, it is marked so
    whenever the request came over TLS, as a trusted proxy tells). ``bot_workers``: threads
    that think for bots (and hints); ``bot_processes``: worker processes the tables' bots
    think in, off the event loop's interpreter lock (0: the threads; dragonlair/server/
    botpool.py), except the bots named in ``bots_in_process`` (cheaper than a round trip).
    ``sqlite_synchronous``: ``FULL`` (default: an acknowledged action survives a power cut)
    or ``NORMAL`` (faster in WAL mode; survives a crash of the server, not of the machine)."""

    database_url: str | None = None
    data_dir: Path = DEFAULT_DATA_DIR
    allowed_origins: tuple[str, ...] = ()
    cookie_secure: bool = False
    #: proxies whose ``X-Forwarded-Proto``/``X-Forwarded-For`` are believed (addresses,
    #: networks, ``*``; uvicorn's default: the machine itself) and client addresses spared
    #: the per-address throttles (dragonlair/server/security.py, throttle.py)
    forwarded_allow_ips: tuple[str, ...] = ("127.0.0.1", "::1")
    throttle_exempt: tuple[str, ...] = ("127.0.0.0/8", "::1")
    session_days: int = 30
    bot_workers: int = 2
    bot_processes: int = field(default_factory=lambda: default_bot_processes())
    #: bots whose decision costs less than a round trip to a worker (~0.4-0.6 ms of the
    #: server's CPU): measured, docs/server.md "Performance"
    bots_in_process: tuple[str, ...] = ("random", "greedy", "cautious", "heuristic",
                                        "optimal")
    sqlite_synchronous: str = "FULL"
    limits: Limits = field(default_factory=Limits)
    #: the argon2id cost of password hashes, ``(passes, memory in KiB, lanes)``; ``None``:
    #: argon2-cffi's defaults (RFC 9106's second choice: 3 passes over 64 MiB, 4 lanes), what
    #: a server should use. Only the test servers choose a cheap one (tests/server/helpers.py)
    argon2_cost: tuple[int, int, int] | None = None
    #: the time source of the table clocks (``None``: the system's; tests pass a
    #: :class:`~dragonlair.server.clocks.FakeClock`), and how often a running server records
    #: that it is alive (time with no server alive is charged to no clock: docs/server.md)
    clock: Clock | None = None
    clock_heartbeat_s: float = 5.0
    #: many processes (docs/deploy.md): the Redis that carries each table's news between
    #: them (``None``: one process, the default). With it, each table's timers and bots run
    #: in the process holding its claim, a lease of ``claim_ttl_s`` seconds renewed every
    #: ``claim_renew_s`` seconds (dragonlair/server/claims.py)
    redis_url: str | None = None
    claim_ttl_s: float = 10.0
    claim_renew_s: float = 3.0
    #: Web Push for turn-based tables (docs/server.md, "Turn alerts and Web Push"): the
    #: VAPID private key (a PEM file, ``dragonlair push keygen``; ``None``: no push), the
    #: ``sub`` claim (``mailto:...`` or ``https://...``; ``None``: ``mailto:`` the
    #: machine's name), and origins of push endpoints allowed besides ``https://`` push
    #: services (tests: a local receiver, ``http://127.0.0.1:PORT``)
    vapid_key: Path | None = None
    vapid_subject: str | None = None
    push_test_origins: tuple[str, ...] = ()
    #: how long a rematch offer stands (seconds of ``clock``; dragonlair/server/rematch.py)
    rematch_timeout_s: float = 120.0
    #: away players (docs/server.md, "Away players and abandoned tables"): the seconds a
    #: person may be disconnected from a running real-time table before its takeover bot
    #: takes the seat, unless the table chose otherwise; the fewest seconds a table may
    #: choose (``dragonlair serve --away-min``, ``$DRAGONLAIR_AWAY_SECONDS_MIN``: the e2e
    #: tests shorten it); how long an open table waits to be started before it expires, and
    #: how often the server looks for such tables
    away_seconds: float = 180.0
    away_min_s: float = 30.0
    open_table_ttl_s: float = 3600.0
    expiry_sweep_s: float = 60.0
    #: run each game plugin's ``warm_up`` in a bot thread at start-up (the bots' tables
    #: built before a first decision needs them; the test servers leave it off)
    warm_up: bool = True
    #: the puzzle miner (docs/puzzles.md, "On the server"; dragonlair/server/puzzles/
    #: miner.py): on or off; seconds between its rounds; finished tables a round takes; the
    #: share of one core it may use (it pauses after each table); records longer than this
    #: many actions are skipped. ``$DRAGONLAIR_PUZZLE_MINER=0``: off by default
    puzzle_miner: bool = field(
        default_factory=lambda: os.environ.get("DRAGONLAIR_PUZZLE_MINER", "1") != "0")
    #: load the shipped puzzles (dragonlair/puzzles/data) into an empty database on start;
    #: the test servers leave it off (a fifth of a CPU-second each), test_puzzles.py not
    puzzle_shipped: bool = True
    puzzle_miner_every_s: float = 30.0
    puzzle_miner_batch: int = 5
    puzzle_miner_share: float = 0.25
    puzzle_miner_max_actions: int = 5000

    def url(self) -> str:
        """The database URL (the default SQLite file's folder is created here)."""
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'dragonlair.db').resolve()}"
