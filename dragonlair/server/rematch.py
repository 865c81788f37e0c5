"""Rematch: play a finished table again, with the same people and the same settings.

``POST /api/tables/{id}/rematch`` offers a rematch of a finished table (or accepts the offer
standing); ``POST /api/tables/{id}/rematch/decline`` declines it. Who is asked: every person
who holds a seat of the finished table. A seat that a bot took over (its player timed out,
left or resigned) stays the bot's: it accepts at once, as every bot seat does, and its former
player is not asked (and may neither accept nor decline). The offer stands for
``Settings.rematch_timeout_s`` seconds (of the hub's clock); declined by anyone, or run out,
it ends, and any player may make a new one. A table a tournament made has no rematch
(409 ``server.tournament.no_rematch``): the tournament pairs its players.

Once every person has accepted, the new table starts at once (``running``): the same game,
options (as the record stores them), clock, rated flag and takeover bot, the same people and
bots, each moved one seat on (new seat ``i`` is old seat ``i + 1``): whoever moved first
moves last, and in a two-player game the two swap, as a chess rematch swaps colours.

Every viewer of the finished table (players and spectators) gets each change as a
``rematch`` message (docs/protocol.md): ``state`` ``offered`` (``accepted``: the seats that
said yes), ``declined`` (``by``: the seat), ``expired`` or ``started`` (``table``: the new
table's id, where clients go next); a viewer greeted at a finished table gets the current
one after its ``welcome``. The offer is one row per finished table (``rematches``), changed
under a row lock (PostgreSQL) or the one database thread (SQLite), so that two accepts at
once start one table.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from dragonlair.core.errors import DragonlairError
from dragonlair.server.accounts import CurrentUser
from dragonlair.server.db import GameTable, Rematch, Seat, now
from dragonlair.server.errors import ServerError
from dragonlair.server.hub import Hub
from dragonlair.server.protocol import RematchNote
from dragonlair.server.table.runtime import TableRuntime
from dragonlair.server.table.storage import SeatInfo, read_seats
from dragonlair.server.table.viewers import Viewer

JSON = dict[str, Any]

router = APIRouter(prefix="/api", tags=["lobby"])

OFFERED, DECLINED, EXPIRED, STARTED = "offered", "declined", "expired", "started"

#: columns of a table that a rematch does not copy (the rest is its settings: game,
#: options, clock, rated flag, takeover bot and whatever a later migration adds)
NOT_COPIED = frozenset({"id", "status", "created_by", "created_at", "started_at",
                        "finished_at", "result", "game_version", "options", "expires_at"})


def asked(seats: list[SeatInfo]) -> list[int]:
    """The seats whose people are asked: those a person holds."""
    return [s.seat for s in seats if s.kind == "human" and s.user_id is not None]


def note(row: Rematch | None, seats: list[SeatInfo]) -> JSON:
    """The ``rematch`` message of an offer (``none`` when there is none)."""
    if row is None:
        return {"type": "rematch", "state": "none", "accepted": [], "asked": asked(seats)}
    out: JSON = {"type": "rematch", "state": row.state, "accepted": sorted(row.accepted),
                 "asked": asked(seats), "expires_at": row.expires_at}
    if row.declined_by is not None:
        out["by"] = row.declined_by
    if row.new_table is not None:
        out["table"] = row.new_table
    return out


def _finished(s: OrmSession, table_id: str) -> GameTable:
    table = s.get(GameTable, table_id) if len(table_id) <= 32 else None
    if table is None:
        raise ServerError("server.table.not_found", 404, table=table_id[:32])
    if table.status != "finished":
        raise ServerError("server.rematch.not_finished", 409, status=table.status)
    return table


def _my_seat(seats: list[SeatInfo], user_id: int) -> int:
    for s in seats:
        if s.kind == "human" and s.user_id == user_id:
            return s.seat
    raise ServerError("server.rematch.not_player", 403)


def _current(s: OrmSession, table_id: str, at: float) -> Rematch | None:
    """The offer row, locked for this transaction, an offer past its time marked expired."""
    row = s.scalars(select(Rematch).where(Rematch.table_id == table_id)
                    .with_for_update()).first()
    if row is not None and row.state == OFFERED and row.expires_at <= at:
        row.state = EXPIRED
    return row


def start_table(s: OrmSession, old: GameTable, seats: list[SeatInfo],
                offered_by: int | None) -> str:
    """Insert the rematch table, running, seats moved one on (module docs); its id."""
    from dragonlair.games import make_game
    from dragonlair.server.lobby_service import new_table_id

    try:
        game = make_game(old.game, dict(old.options))
    except DragonlairError as exc:
        raise ServerError(exc.code, 409, **exc.params) from None
    copied = {c.key: getattr(old, c.key) for c in GameTable.__mapper__.column_attrs
              if c.key not in NOT_COPIED}
    table = GameTable(**copied, id=new_table_id(), status="running",
                      game_version=game.info.version, options=game.record_options(),
                      created_by=offered_by, created_at=now(), started_at=now())
    s.add(table)
    s.flush()
    n = len(seats)
    for i in range(n):
        was = seats[(i + 1) % n]
        human = was.kind == "human"
        s.add(Seat(table_id=table.id, seat=i, kind="human" if human else "bot",
                   user_id=was.user_id if human else None,
                   bot=None if human else (was.bot or old.takeover_bot)))
    return table.id


def accept(s: OrmSession, table_id: str, user_id: int, at: float,
           timeout: float) -> tuple[JSON, bool]:
    """Offer a rematch, or accept the one standing (idempotent); commits. The note, and
    whether a new offer was made (its expiry wants a timer)."""
    table = _finished(s, table_id)
    seats = read_seats(s, table_id)
    mine = _my_seat(seats, user_id)
    from dragonlair.server.lobby_service import tournament_of

    if tournament_of(s, table_id) is not None:  # the tournament pairs its players itself
        raise ServerError("server.tournament.no_rematch", 409)
    row = _current(s, table_id, at)
    fresh = row is None or row.state in (DECLINED, EXPIRED)
    if row is None:
        row = Rematch(table_id=table_id)
        s.add(row)
    if fresh:
        row.state, row.offered_by, row.declined_by, row.new_table = OFFERED, user_id, None, None
        row.accepted = sorted({x.seat for x in seats if x.kind == "bot"} | {mine})
        row.created_at, row.expires_at = at, at + timeout
    elif row.state == OFFERED and mine not in row.accepted:
        row.accepted = sorted({*row.accepted, mine})  # a new list: the JSON column sees it
    if row.state == OFFERED and set(asked(seats)) <= set(row.accepted):
        row.new_table = start_table(s, table, seats, row.offered_by)
        row.state = STARTED
    s.commit()
    return note(row, seats), fresh


def decline(s: OrmSession, table_id: str, user_id: int, at: float) -> JSON:
    """Decline the offer standing (409 ``server.rematch.no_offer`` when none); commits."""
    _finished(s, table_id)
    seats = read_seats(s, table_id)
    mine = _my_seat(seats, user_id)
    row = _current(s, table_id, at)
    if row is None or row.state != OFFERED:
        raise ServerError("server.rematch.no_offer", 409,
                          state=row.state if row is not None else "none")
    row.state, row.declined_by = DECLINED, mine
    s.commit()
    return note(row, seats)


def expire(s: OrmSession, table_id: str, at: float) -> JSON | None:
    """Mark the offer expired if its time has run out; the note if it changed."""
    row = s.scalars(select(Rematch).where(Rematch.table_id == table_id)
                    .with_for_update()).first()
    if row is None or row.state != OFFERED or row.expires_at > at:
        s.rollback()
        return None
    row.state = EXPIRED
    s.commit()
    return note(row, read_seats(s, table_id))


def current(s: OrmSession, table_id: str, at: float) -> JSON | None:
    """The note of a table's offer as it stands (``None``: never offered)."""
    row = s.get(Rematch, table_id)
    if row is None:
        return None
    out = note(row, read_seats(s, table_id))
    if row.state == OFFERED and row.expires_at <= at:
        out["state"] = EXPIRED
    return out


def tell(hub: Hub, table_id: str, message: JSON) -> None:
    """Send ``message`` to the table's viewers here and in the other processes."""
    runtime = hub.tables.get(table_id)
    if runtime is not None:
        runtime.audience.tell(message)
    hub.announce(table_id, {"k": "rematch", "note": message}, None, None)


def expire_later(hub: Hub, table_id: str, when: float) -> None:
    """At ``when`` (the hub's clock), mark the offer expired and say so (a restart loses the
    timer: the next request then finds the offer past its time)."""
    async def run() -> None:
        changed = await hub.db(lambda s: expire(s, table_id, hub.clock.now()))
        if changed is not None:
            tell(hub, table_id, changed)

    def due() -> None:
        if not hub.closing:
            hub.spawn(run())

    hub.clock.call_at(when, due)


async def greet(runtime: TableRuntime, viewer: Viewer, re: str | None = None) -> None:
    """After a ``welcome`` at a finished table: the offer as it stands, if there is one."""
    if runtime.status != "finished":
        return
    hub = runtime.hub
    message = await hub.db(lambda s: current(s, runtime.id, hub.clock.now()))
    if message is not None:
        viewer.push(message)


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.post("/tables/{table_id}/rematch", response_model=RematchNote,
             response_model_exclude_unset=True)
async def offer(table_id: str, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Offer a rematch of a finished table, or accept the offer standing (again: no change).
    Once every person at the table has accepted (bots accept at once), the new table starts
    and the answer's ``table`` names it (docs/server.md, "Rematch")."""
    hub = _hub(request)
    timeout = hub.settings.rematch_timeout_s
    at = hub.clock.now()
    try:
        out, fresh = await hub.db(lambda s: accept(s, table_id, user.id, at, timeout))
    except IntegrityError:  # two first offers at once (PostgreSQL): the other one stands
        out, fresh = await hub.db(lambda s: accept(s, table_id, user.id, at, timeout))
    if out["state"] == STARTED and "table" in out:
        await hub.changed(str(out["table"]))
    elif fresh:
        expire_later(hub, table_id, float(out["expires_at"]))
    tell(hub, table_id, out)
    return out


@router.post("/tables/{table_id}/rematch/decline", response_model=RematchNote,
             response_model_exclude_unset=True)
async def refuse(table_id: str, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Decline the rematch offered at a finished table: everybody there is told."""
    hub = _hub(request)
    at = hub.clock.now()
    out = await hub.db(lambda s: decline(s, table_id, user.id, at))
    tell(hub, table_id, out)
    return out
