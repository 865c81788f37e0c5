"""The lobby's work on the database: tables created, listed, joined, left, started, expired,
and finished records, as plain functions.

Each takes an ORM session (the caller's transaction: a route's ``DB`` dependency, or
:meth:`Hub.db <dragonlair.server.hub.Hub.db>` off the event loop), commits what it changes,
and returns the table as the lobby answers it (:func:`table_json`) or raises the error the
route answers with (:class:`~dragonlair.server.errors.ServerError`). The routes
(:mod:`dragonlair.server.lobby`) only read the request, call one of these and shape the
typed answer; a running table's own changes are :mod:`dragonlair.server.table`'s.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session as OrmSession

from dragonlair.core.errors import DragonlairError
from dragonlair.server import invites
from dragonlair.server.clocks import Clock, ClockIn, ClockSpec
from dragonlair.server.db import ActionRow, GameTable, Seat, SeatChange, now
from dragonlair.server.errors import ServerError
from dragonlair.server.presence import BotAwayIn, WaitAwayIn, away_policy
from dragonlair.server.settings import Settings
from dragonlair.server.table.storage import action_count, entry, read_seats


def table_json(s: OrmSession, table: GameTable, detail: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": table.id, "game": table.game, "game_version": table.game_version,
        "status": table.status, "rated": table.rated, "options": table.options,
        "created_by": table.created_by, "created_at": table.created_at,
        "started_at": table.started_at, "finished_at": table.finished_at,
        "seats": [seat.to_json() for seat in read_seats(s, table.id)],
        "result": table.result,
        "clock": table.clock, "takeover_bot": table.takeover_bot,
        "away": table.away, "expires_at": table.expires_at,
    }
    if table.workshop is not None:  # made from a workshop entry (dragonlair/server/workshop)
        out["workshop"] = table.workshop
    if detail:
        out["seq"] = action_count(s, table.id)
        out["tournament"] = tournament_of(s, table.id)
    return out


def tournament_of(s: OrmSession, table_id: str) -> dict[str, Any] | None:
    """The tournament that created the table (dragonlair/server/tournaments): ``{id, name,
    kind}``, or ``None`` (one query on ``tournament_games.table_id``, unique)."""
    from dragonlair.server.tournaments.models import Tournament, TournamentGame

    row = s.execute(select(Tournament.id, Tournament.name, Tournament.kind)
                    .join(TournamentGame, TournamentGame.tournament_id == Tournament.id)
                    .where(TournamentGame.table_id == table_id)).first()
    return None if row is None else {"id": row.id, "name": row.name, "kind": row.kind}


def new_table_id() -> str:
    """A fresh table id: 72 random bits, URL-safe, never starting with ``-`` or ``_`` (so
    that it can follow a command-line option such as ``--table`` without being read as one)."""
    while True:
        table_id = secrets.token_urlsafe(9)
        if table_id[0].isalnum():
            return table_id


def get_table(s: OrmSession, table_id: str) -> GameTable:
    table = s.get(GameTable, table_id) if len(table_id) <= 32 else None
    if table is None:
        raise ServerError("server.table.not_found", 404, table=table_id[:32])
    return table


def show_table(s: OrmSession, table_id: str) -> dict[str, Any]:
    """The table with its ``seq`` (:func:`table_json` in detail)."""
    return table_json(s, get_table(s, table_id), detail=True)


def status_of(s: OrmSession, table_id: str) -> str:
    return get_table(s, table_id).status


# ---------------------------------------------------------------------- create
def create_table(s: OrmSession, user_id: int, game_id: str, options: dict[str, Any],
                 seats: Sequence[tuple[str, str | None]] | None, rated: bool,
                 clock: ClockIn | None, away: BotAwayIn | WaitAwayIn | None,
                 takeover_bot: str | None, settings: Settings,
                 hub_clock: Clock, workshop: dict[str, Any] | None = None,
                 ) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """A new open table of ``game_id`` created by ``user_id``, its options checked by the
    game (an :class:`~dragonlair.core.errors.OptionError` is raised as a 422 with its
    code). ``seats``: (kind, bot) per seat, kind ``me``, ``open``, ``bot`` or ``invite``
    (``None``: the creator and open seats). Returns the table and the invite tokens issued
    (seat, token); ``hub_clock`` dates its expiry; ``workshop``: the workshop entry the
    options come from (dragonlair/server/workshop: ``{"entry", "version", "title", "kind"}``)."""
    from dragonlair.bots import bot_names
    from dragonlair.games import game_ids, make_game, plugin

    if game_id not in game_ids():
        raise ServerError("core.game.unknown", 422, game=game_id, known=game_ids())
    p = plugin(game_id)
    options = dict(options)
    plan = list(seats) if seats else [("me", None)]
    if seats is not None and "players" not in options and any(
            spec.name == "players" for spec in p.info.options):
        options["players"] = len(seats)
    try:
        game = make_game(game_id, options)
    except DragonlairError as exc:
        raise ServerError(exc.code, 422, **exc.params) from None
    if seats is None:
        plan = [("me", None)] + [("open", None)] * (game.num_players - 1)
    if len(plan) != game.num_players:
        raise ServerError("server.table.seat_count", 422, seats=len(plan),
                          players=game.num_players)
    if sum(kind == "me" for kind, _ in plan) > 1:
        raise ServerError("server.table.one_seat_each", 422)
    known = bot_names(game_id)
    for kind, bot in plan:
        if kind == "bot" and (bot or p.default_bot) not in known:
            raise ServerError("server.table.unknown_bot", 422, bot=bot, known=known)
    if takeover_bot is not None and takeover_bot not in known:
        raise ServerError("server.table.unknown_bot", 422, bot=takeover_bot, known=known)
    spec = ClockSpec.from_input(clock)
    policy = away_policy(away, spec, settings)
    opened = s.scalar(select(func.count()).select_from(GameTable).where(
        GameTable.created_by == user_id, GameTable.status == "open")) or 0
    limit = settings.limits.max_open_tables_per_user
    if opened >= limit:
        raise ServerError("server.table.too_many_open", 429, limit=limit)
    table = GameTable(id=new_table_id(), game=game_id,
                      game_version=game.info.version, options=game.record_options(),
                      status="open", rated=rated, created_by=user_id,
                      clock=spec.to_json(), away=policy.to_json(),
                      expires_at=hub_clock.now() + settings.open_table_ttl_s,
                      takeover_bot=takeover_bot or p.default_bot, workshop=workshop)
    s.add(table)
    s.flush()
    for i, (kind, bot) in enumerate(plan):
        s.add(Seat(table_id=table.id, seat=i,
                   kind={"me": "human", "open": "open", "bot": "bot",
                         "invite": "invite"}[kind],
                   user_id=user_id if kind == "me" else None,
                   bot=(bot or p.default_bot) if kind == "bot" else None))
    tokens = [(i, invites.issue(s, table.id, i, user_id))
              for i, (kind, _) in enumerate(plan) if kind == "invite"]
    s.commit()
    return table_json(s, table, detail=True), tokens


# ------------------------------------------------------------------------ list
def list_tables(s: OrmSession, wanted: Sequence[str], hub_clock: Clock, game: str | None,
                limit: int, offset: int) -> list[dict[str, Any]]:
    """Tables of the statuses ``wanted``, newest first, a page of ``limit`` from ``offset``
    on, of one ``game`` if given; an open table past its expiry (by ``hub_clock``) is not listed
    as open even before the sweep marks it ``expired``."""
    query = select(GameTable).where(GameTable.status.in_(wanted))
    if "open" in wanted:
        at = hub_clock.now()
        query = query.where((GameTable.status != "open") | GameTable.expires_at.is_(None)
                            | (GameTable.expires_at > at))
    if game is not None:
        query = query.where(GameTable.game == game)
    tables = s.scalars(query.order_by(GameTable.created_at.desc(), GameTable.id.desc())
                       .limit(limit).offset(offset)).all()
    return [table_json(s, t) for t in tables]


# ------------------------------------------------------------ join, leave, start
def join(s: OrmSession, table_id: str, user_id: int, seat: int | None, invite: str | None,
         at: float) -> dict[str, Any]:
    """``user_id`` takes an open seat (``seat``, or the first) of a table not yet started,
    or the seat that ``invite`` reserves (invites.py)."""
    table = get_table(s, table_id)
    expire_if_due(s, table, at)
    if table.status != "open":
        raise ServerError("server.table.not_open", 409, status=table.status)
    if s.scalar(select(Seat.seat).where(Seat.table_id == table_id,
                                        Seat.user_id == user_id)) is not None:
        raise ServerError("server.table.already_seated", 409)
    if invite is not None:  # the seat its invite reserves (invites.py)
        invites.redeem(s, table_id, user_id, invite, seat)
        s.commit()
        return table_json(s, table, detail=True)
    query = select(Seat.seat).where(Seat.table_id == table_id, Seat.kind == "open")
    if seat is not None:
        query = query.where(Seat.seat == seat)
    taken = s.scalar(query.order_by(Seat.seat).limit(1))
    if taken is None:
        raise ServerError("server.table.no_open_seat", 409, seat=seat)
    done = s.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == taken,
                                        Seat.kind == "open")
                     .values(kind="human", user_id=user_id))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise ServerError("server.table.no_open_seat", 409, seat=taken)
    s.commit()
    return table_json(s, table, detail=True)


def vacate(s: OrmSession, table_id: str, user_id: int) -> dict[str, Any]:
    """``user_id`` gives up their seat of a table not yet started: it becomes open."""
    table = get_table(s, table_id)
    if table.status != "open":
        raise ServerError("server.table.not_open", 409, status=table.status)
    done = s.execute(update(Seat).where(Seat.table_id == table_id,
                                        Seat.user_id == user_id)
                     .values(kind="open", user_id=None))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise ServerError("server.table.not_seated", 409)
    s.commit()
    return table_json(s, table, detail=True)


def start(s: OrmSession, table_id: str, user_id: int, at: float) -> dict[str, Any]:
    """Start a table whose seats are all taken, by its creator or a seated player."""
    table = get_table(s, table_id)
    expire_if_due(s, table, at)
    if table.status != "open":
        raise ServerError("server.table.not_open", 409, status=table.status)
    seats = read_seats(s, table_id)
    if table.created_by != user_id and all(x.user_id != user_id for x in seats):
        raise ServerError("server.table.not_yours", 403)
    still = [x.seat for x in seats if x.kind in ("open", "invite")]
    if still:
        raise ServerError("server.table.seats_open", 409, seats=still)
    done = s.execute(update(GameTable).where(GameTable.id == table_id,
                                             GameTable.status == "open")
                     .values(status="running", started_at=now()))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise ServerError("server.table.not_open", 409, status="running")
    s.commit()
    s.refresh(table)
    return table_json(s, table, detail=True)


# ---------------------------------------------------------------------- record
def record(s: OrmSession, table_id: str) -> dict[str, Any]:
    """A finished table as a record ``dragonlair replay`` accepts (docs/records.md); a
    table still being played has none (``server.table.not_finished``)."""
    from dragonlair.core.records import Record

    table = get_table(s, table_id)
    if table.status != "finished":
        raise ServerError("server.table.not_finished", 409, status=table.status)
    seats = []
    for seat in read_seats(s, table_id):
        if seat.kind == "bot":
            seats.append({"name": seat.name or f"bot {seat.bot}", "player": f"bot:{seat.bot}"})
        else:
            seats.append({"name": seat.name or f"p{seat.seat}", "player": "human"})
    rows = s.execute(select(ActionRow.seat, ActionRow.action)
                     .where(ActionRow.table_id == table_id).order_by(ActionRow.seq)).all()
    changes = list(s.scalars(select(SeatChange).where(SeatChange.table_id == table_id)
                             .order_by(SeatChange.id)))
    for change in changes:  # the seat's player is the person; a bot finished for them
        seats[change.seat]["player"] = "human"
    takeovers = [{"seat": c.seat, "seq": c.seq, "reason": c.reason, "bot": c.bot}
                 for c in changes]
    rec = Record(table.game, table.game_version, dict(table.options), seats,
                 [entry(r[0], r[1]) for r in rows], table.result,
                 meta={"server_table": table.id, "started_at": table.started_at,
                       "finished_at": table.finished_at,
                       **({"takeovers": takeovers} if takeovers else {}),
                       **({"workshop": table.workshop} if table.workshop else {})})
    out: dict[str, Any] = json.loads(json.dumps(rec.to_json()))
    return out


# ------------------------------------------------------------ open tables expire
def expire_if_due(s: OrmSession, table: GameTable, at: float) -> None:
    """An open table past its ``expires_at`` becomes ``expired`` now (committed), before a
    join or a start is judged on it (the sweep may not have come yet)."""
    if table.status == "open" and table.expires_at is not None and table.expires_at <= at:
        expire_open(s, at, table.id)
        s.refresh(table)


def expire_open(s: OrmSession, at: float, table_id: str | None = None) -> list[str]:
    """Mark every open table whose ``expires_at`` has passed (or only ``table_id``)
    ``expired``, with ``finished_at`` the moment; the ids (docs/server.md, "Away players
    and abandoned tables"). Many processes may run it at once: the update decides."""
    query = select(GameTable.id).where(GameTable.status == "open",
                                       GameTable.expires_at.is_not(None),
                                       GameTable.expires_at <= at)
    if table_id is not None:
        query = query.where(GameTable.id == table_id)
    ids = list(s.scalars(query))
    if ids:
        s.execute(update(GameTable).where(GameTable.id.in_(ids), GameTable.status == "open")
                  .values(status="expired", finished_at=now()))
        s.commit()
    return ids
