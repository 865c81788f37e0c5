"""Every migration on both databases (issue 15): an empty database upgraded to the newest
revision has exactly the schema of the models (Alembic's autogenerate comparison finds
nothing), a downgrade to base leaves no table behind, and upgrading again works; and
``dragonlair db check`` / ``db upgrade`` on both."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Integer, MetaData, Table, inspect, text
from typer.testing import CliRunner

from dragonlair.cli.main import app
from dragonlair.server import migrate
from dragonlair.server.accounts import name_count
from dragonlair.server.db import Base, make_engine
from dragonlair.server.workshop.search import include_name


def differences(engine: Any, metadata: MetaData = Base.metadata) -> list[Any]:
    with engine.connect() as conn, warnings.catch_warnings():
        # SQLite's reflection skips expression indexes (lower(display_name)): it says so,
        # and name_lookup_uses_the_index below checks that one instead
        warnings.filterwarnings("ignore", ".*expression-based index.*")
        # the workshop's full-text indexes are the migration's, not models (search.py)
        ctx = MigrationContext.configure(conn, opts={"compare_type": True,
                                                     "include_name": include_name})
        return list(compare_metadata(ctx, metadata))


def round_trip(url: str) -> None:
    engine = make_engine(url)
    try:
        todo = migrate.pending(engine)
        assert todo[0] == "0001" and todo[-1] == migrate.head() and len(set(todo)) == len(todo)
        migrate.upgrade(engine)
        assert migrate.current(engine) == migrate.head()
        assert migrate.pending(engine) == []
        assert differences(engine) == []
        name_lookup_uses_the_index(engine)
        # the comparison does see a difference when there is one
        extra = MetaData()
        for table in Base.metadata.tables.values():
            table.to_metadata(extra)
        Table("not_migrated", extra, Column("id", Integer, primary_key=True))
        assert [d[0] for d in differences(engine, extra)] == ["add_table"]

        migrate.downgrade(engine, "base")
        assert migrate.current(engine) is None
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        migrate.upgrade(engine)
        assert migrate.current(engine) == migrate.head()
        assert differences(engine) == []
        migrate.upgrade(engine)  # at the head: nothing to do
    finally:
        engine.dispose()


def name_lookup_uses_the_index(engine: Any) -> None:
    """A new guest's friendly name is looked up by ``lower(display_name)``'s index, not by
    reading every account (migration 0013)."""
    query = name_count("Brave Griffin")
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SET enable_seqscan = off"))  # a few rows: else a scan is cheaper
        compiled = query.compile(engine, compile_kwargs={"literal_binds": True})
        prefix = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN "
        plan = " ".join(str(row) for row in conn.execute(text(prefix + str(compiled))))
    assert "ix_users_display_name_lower" in plan, plan


def test_migrations_postgresql(pg_url: str) -> None:
    round_trip(pg_url)


def test_migrations_sqlite(tmp_path: Path) -> None:
    round_trip(f"sqlite:///{tmp_path / 'm.db'}")


def test_postgresql_url_without_driver(pg_url: str) -> None:
    """``postgresql://`` (libpq's spelling) means psycopg 3."""
    plain = pg_url.replace("postgresql+psycopg://", "postgresql://")
    engine = make_engine(plain)
    try:
        assert engine.dialect.driver == "psycopg"
        migrate.upgrade(engine)
        assert migrate.current(engine) == migrate.head()
    finally:
        engine.dispose()


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_db_check_and_upgrade(db: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = (f"sqlite:///{tmp_path / 'c.db'}" if db == "sqlite"
           else request.getfixturevalue("pg_url"))
    runner = CliRunner()
    chain = migrate.pending(make_engine(url))
    pending = runner.invoke(app, ["db", "check", "--db", url])
    assert pending.exit_code == 1, pending.output
    assert f"{len(chain)} migrations pending ({', '.join(chain)})" in pending.output
    assert "dragonlair db upgrade" in pending.output

    done = runner.invoke(app, ["db", "upgrade", "--db", url])
    assert done.exit_code == 0, done.output
    assert f"upgraded to revision {migrate.head()}" in done.output

    ok = runner.invoke(app, ["db", "check", "--db", url])
    assert ok.exit_code == 0, ok.output
    assert "no migration pending" in ok.output


def test_db_check_one_pending_and_data_folder(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'dragonlair.db'}")
    migrate.upgrade(engine)
    head = migrate.head()
    previous = migrate.ScriptDirectory.from_config(migrate.alembic_config()).get_revision(
        head).down_revision
    migrate.downgrade(engine, str(previous))
    engine.dispose()
    runner = CliRunner()
    out = runner.invoke(app, ["db", "check", "--data", str(tmp_path)])
    assert out.exit_code == 1
    assert f"1 migration pending ({head})" in out.output
    de = runner.invoke(app, ["db", "check", "--data", str(tmp_path), "--lang", "de"])
    assert f"1 Migration ausstehend ({head})" in de.output


def test_db_check_unreachable_is_one_line_without_password() -> None:
    pytest.importorskip("psycopg")
    out = CliRunner().invoke(app, ["db", "check", "--db",
                                   "postgresql://u:hunter2@127.0.0.1:1/none"])
    assert out.exit_code == 2
    assert "hunter2" not in out.output
    assert "cannot use the database postgresql+psycopg://u:***@127.0.0.1:1/none" in out.output
    assert "Traceback" not in out.output
