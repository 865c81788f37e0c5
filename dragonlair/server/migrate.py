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


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision (nothing to do when it is there)."""
    if current(engine) == head():
        return
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
