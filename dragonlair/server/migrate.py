"""Schema migrations on start: Alembic's upgrade to the newest revision, programmatically.

The migration scripts live in the package (``dragonlair/server/migrations``), so a server
installed from a wheel migrates its own database with nothing else on the machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url:
        cfg.set_main_option("sqlalchemy.url", url)
    return cfg


@cache
def scripts() -> ScriptDirectory:
    """The migration scripts, read once per process: a ScriptDirectory loads every script
    file the first time it is asked for a revision, and keeps them."""
    return ScriptDirectory.from_config(alembic_config())


def head() -> str | None:
    """The newest revision of the scripts."""
    return scripts().get_current_head()


def current(engine: Engine) -> str | None:
    """The revision the database is at (``None``: empty)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def pending(engine: Engine) -> list[str]:
    """The revisions the database still lacks, oldest first (``[]``: up to date). A database
    at a revision these scripts do not know (a newer release's) raises
    :class:`alembic.util.CommandError`."""
    at = current(engine)
    newest = head()
    if at == newest:
        return []
    revs = [r.revision for r in scripts().iterate_revisions(newest, at)]
    return list(reversed(revs))


#: the PostgreSQL advisory lock that lets one process at a time migrate (any number may
#: start at once: the others wait, then find nothing to do)
MIGRATION_LOCK = 0x44524147  # "DRAG"


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision (nothing to do when it is there). On
    PostgreSQL the migration runs under a transaction-scoped advisory lock, so that several
    server processes starting together migrate once; every migration runs in the one
    transaction (PostgreSQL's DDL is transactional: a failed upgrade leaves no half)."""
    if current(engine) == head():
        return
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
            if MigrationContext.configure(conn).get_current_revision() == head():
                return
        _run(conn, lambda rev: scripts()._upgrade_revs("head", rev))


def _run(conn: Connection, step: Any) -> None:
    """Run the scripts' migrations on ``conn`` as ``env.py`` would (the same options), with the
    scripts this process has read already: ``command.upgrade`` would read env.py and every
    script file again on each start."""
    from dragonlair.server.db import Base

    def fn(rev: Sequence[str] | str, _context: MigrationContext) -> Any:
        return step(rev)

    ctx = MigrationContext.configure(
        connection=conn,
        opts={"target_metadata": Base.metadata, "render_as_batch": True, "fn": fn,
              "script": scripts()})
    with Operations.context(ctx), ctx.begin_transaction():
        ctx.run_migrations()


def downgrade(engine: Engine, revision: str = "base") -> None:
    """Undo migrations down to ``revision`` (``base``: an empty database). For tests and for
    stepping back before a downgrade of the package."""
    with engine.begin() as conn:
        _run(conn, lambda rev: scripts()._downgrade_revs(revision, rev))
