"""``dragonlair db upgrade|check``: the server database's schema migrations (Alembic), run
by hand, for example once before starting several server processes (docs/deploy.md).
Registered on the app in :mod:`dragonlair.cli.main`.

``check`` exits 0 when the database is at the newest revision and 1 when migrations are
pending (a deploy script can gate on it); 2 when the database cannot be used (unreachable,
a URL that is none, a driver that is not installed, a SQLite file that does not exist: it
is not created, or at a revision this version does not know).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dragonlair.core.i18n import render

db_app = typer.Typer(no_args_is_help=True, add_completion=False)

DbOption = Annotated[str | None, typer.Option("--db", envvar="DRAGONLAIR_DB")]
DataOption = Annotated[Path | None, typer.Option()]
LangOption = Annotated[str, typer.Option()]


def _say(code: str, lang: str, **params: Any) -> None:
    typer.echo(render(code, params, lang))


def _fail(lang: str, url: str, why: object) -> None:
    from dragonlair.cli.main import fail_with

    # the driver's own words, first line only (SQLAlchemy appends its statement and a link)
    cause = getattr(why, "orig", None) or why
    lines = str(cause).strip().splitlines()
    fail_with("cli.err_db", lang=lang, url=url, why=lines[0] if lines else type(cause).__name__)


def _engine(db: str | None, data: Path | None, lang: str = "en",
            must_exist: bool = False) -> tuple[Any, str]:
    """(engine, the URL shown: its password hidden). Fails with one line (exit 2) when the
    data folder cannot be made, the URL cannot be read or names a database this server
    cannot use (no such driver installed); with ``must_exist``, also when it names a SQLite
    file that does not exist (which is then not created)."""
    from sqlalchemy.engine import make_url

    from dragonlair.cli.main import fail_with

    try:
        from dragonlair.server.db import database_url, make_engine
        from dragonlair.server.settings import Settings
    except ImportError as exc:
        fail_with("cli.err_server_extra", lang=lang, why=str(exc))
        raise  # not reached: fail_with exits
    extra: dict[str, Any] = {"database_url": db}
    if data is not None:
        extra["data_dir"] = data
    settings = Settings(**extra)
    if must_exist and not db and not (settings.data_dir / "dragonlair.db").is_file():
        fail_with("cli.err_db_missing", lang=lang,
                  url=f"sqlite:///{(settings.data_dir / 'dragonlair.db').resolve()}")
    try:
        url = database_url(settings.url())
    except OSError as exc:  # the default SQLite file's folder cannot be made
        fail_with("cli.err_data_dir", lang=lang, path=str(data),
                  why=exc.strerror or type(exc).__name__)
        raise  # not reached
    try:
        parsed = make_url(url)
    except Exception as exc:  # not a URL at all
        fail_with("cli.err_db_url", lang=lang, url=url, why=_first_line(exc))
        raise  # not reached
    shown = parsed.render_as_string(hide_password=True)
    file = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if must_exist and file and file != ":memory:" and not file.startswith("file:") \
            and not Path(file).is_file():
        fail_with("cli.err_db_missing", lang=lang, url=shown)
    try:
        return make_engine(url), shown
    except Exception as exc:  # an unknown dialect, a driver that is not installed
        fail_with("cli.err_db_driver", lang=lang, url=shown, why=_first_line(exc))
        raise  # not reached


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


@db_app.command()
def upgrade(db: DbOption = None, data: DataOption = None, lang: LangOption = "en") -> None:
    """Bring the database to the newest schema (a server also does this when it starts)."""
    from dragonlair.server import migrate

    engine, shown = _engine(db, data, lang)
    try:
        migrate.upgrade(engine)
        rev = migrate.current(engine)
    except Exception as exc:  # unreachable, refused, a failed migration: one line, no trace
        _fail(lang, shown, exc)
        return
    finally:
        engine.dispose()
    _say("cli.db_upgraded", lang, url=shown, rev=rev)


@db_app.command()
def check(db: DbOption = None, data: DataOption = None, lang: LangOption = "en") -> None:
    """Exit 1 and name them when migrations are pending; 0 when the schema is the newest."""
    from dragonlair.server import migrate

    engine, shown = _engine(db, data, lang, must_exist=True)
    try:
        todo = migrate.pending(engine)
        rev = migrate.current(engine)
    except Exception as exc:
        _fail(lang, shown, exc)
        return
    finally:
        engine.dispose()
    if todo:
        _say("cli.db_pending", lang, url=shown, n=len(todo), revs=todo)
        raise typer.Exit(1)
    _say("cli.db_up_to_date", lang, url=shown, rev=rev)
