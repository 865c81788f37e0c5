"""Schema migrations on start: Alembic's upgrade to the newest revision, programmatically.

The migration scripts live in the package (``dragonlair/server/migrations``), so a server
installed from a wheel migrates its own database with nothing else on the machine.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url:
        cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def head() -> str | None:
    """The newest revision of the scripts."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current(engine: Engine) -> str | None:
    """The revision the database is at (``None``: empty)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def pending(engine: Engine) -> list[str]:
    """The revisions the database still lacks, oldest first (``[]``: up to date). A database
    at a revision these scripts do not know (a newer release's) raises
    :class:`alembic.util.CommandError`."""
    at = current(engine)
    scripts = ScriptDirectory.from_config(alembic_config())
    newest = scripts.get_current_head()
    if at == newest:
        return []
    revs = [r.revision for r in scripts.iterate_revisions(newest, at)]
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
    cfg = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
            if MigrationContext.configure(conn).get_current_revision() == head():
                return
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def downgrade(engine: Engine, revision: str = "base") -> None:
    """Undo migrations down to ``revision`` (``base``: an empty database). For tests and for
    stepping back before a downgrade of the package."""
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)
