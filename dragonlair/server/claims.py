"""Claims: which server process runs each table's timers and bots (issue 15, docs/deploy.md).

With many processes (``serve --redis``), any process accepts any player's action (the
database's ``UNIQUE(table_id, seq)`` orders them), but the things nobody sends, the moves of
bots, chance draws and clock deadlines, are run by one process per table: the holder of the
table's claim, a row of ``table_claims`` with an owner (a process id) and a lease expiry.

- Each process renews the leases it holds every ``claim_renew_s`` seconds, and in the same
  round takes free or expired claims of running tables (``SELECT ... FOR UPDATE SKIP
  LOCKED`` on PostgreSQL, so two sweeping processes never take the same rows; SQLite ignores
  the clause and has one writer anyway). A process killed with SIGKILL renews nothing: after
  ``claim_ttl_s`` its tables pass to the others.
- A claim is taken on demand too (a table started here) by one conditional ``UPDATE``: only a
  free, expired or own claim is taken.
- Exactly once: a bot's move or a timeout is an action (or a seat change) written under the
  table's sequence number and a conditional update, so even two processes that both believe
  they hold a claim (a lease that ran out under a stalled process) commit it once.

One process alone (no Redis: the SQLite default) claims nothing: it runs every table.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.db import GameTable, TableClaim


def _insert_free(s: OrmSession, table_ids: Sequence[str]) -> None:
    """Rows for running tables that have none (free: no owner, expired), ignoring rows that
    another process inserted meanwhile."""
    dialect = s.get_bind().dialect.name
    rows = [{"table_id": t, "owner": "", "expires_at": 0.0} for t in table_ids]
    if not rows:
        return
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        s.execute(pg_insert(TableClaim).values(rows).on_conflict_do_nothing())
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        s.execute(sqlite_insert(TableClaim).values(rows).on_conflict_do_nothing())


def sweep(s: OrmSession, owner: str, now: float, ttl: float, limit: int = 100) -> list[str]:
    """One round of a process: renew the leases ``owner`` holds, take free or expired claims
    of running tables (at most ``limit`` new ones), drop the claims of finished tables.
    Returns the running tables ``owner`` holds now. Commits."""
    s.execute(delete(TableClaim).where(TableClaim.table_id.in_(
        select(GameTable.id).where(GameTable.status == "finished"))))
    s.execute(update(TableClaim).where(TableClaim.owner == owner)
              .values(expires_at=now + ttl))
    unclaimed = s.scalars(select(GameTable.id).where(
        GameTable.status == "running",
        GameTable.id.not_in(select(TableClaim.table_id)))).all()
    _insert_free(s, unclaimed)
    s.flush()
    free = s.scalars(
        select(TableClaim).join(GameTable, GameTable.id == TableClaim.table_id)
        .where(GameTable.status == "running", TableClaim.owner != owner,
               TableClaim.expires_at < now)
        .order_by(TableClaim.table_id).limit(limit)
        .with_for_update(skip_locked=True, of=TableClaim)).all()
    for claim in free:
        claim.owner, claim.expires_at = owner, now + ttl
    s.commit()
    return list(s.scalars(select(TableClaim.table_id).where(TableClaim.owner == owner)
                          .order_by(TableClaim.table_id)))


def claim(s: OrmSession, table_id: str, owner: str, now: float, ttl: float) -> bool:
    """Take ``table_id``'s claim if it is free, expired or ``owner``'s already; commits."""
    taken = s.execute(update(TableClaim).where(
        TableClaim.table_id == table_id,
        (TableClaim.owner == owner) | (TableClaim.expires_at < now))
        .values(owner=owner, expires_at=now + ttl))
    if taken.rowcount == 1:  # type: ignore[attr-defined]
        s.commit()
        return True
    exists = s.get(TableClaim, table_id) is not None
    if exists:
        s.rollback()
        return False
    s.add(TableClaim(table_id=table_id, owner=owner, expires_at=now + ttl))
    try:
        s.commit()
    except IntegrityError:  # another process inserted it first: theirs
        s.rollback()
        return False
    return True


def release(s: OrmSession, owner: str) -> None:
    """Give every claim of ``owner`` back at once (a clean shutdown); commits."""
    s.execute(update(TableClaim).where(TableClaim.owner == owner)
              .values(owner="", expires_at=0.0))
    s.commit()


def holder(s: OrmSession, table_id: str) -> tuple[str, float] | None:
    """(owner, lease expiry) of ``table_id``'s claim, if it has one."""
    row = s.get(TableClaim, table_id)
    return None if row is None else (row.owner, row.expires_at)
