"""``dragonlair db upgrade|check``: the server database's schema migrations (Alembic), run
by hand, for example once before starting several server processes (docs/deploy.md).
Registered on the app in :mod:`dragonlair.cli.main`.

``check`` exits 0 when the database is at the newest revision and 1 when migrations are
pending (a deploy script can gate on it); 2 when the database cannot be used (unreachable,
or at a revision this version does not know).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dragonlair.core.i18n import render

db_app = typer.Typer(no_args_is_help=True, add_completion=False,
                     help="The game server's database: run or check schema migrations.")

DbOption = Annotated[str | None, typer.Option(
    "--db", envvar="DRAGONLAIR_DB",
    help="database URL, e.g. postgresql://user@host/db "
                 "(default: the SQLite file in --data)")]
DataOption = Annotated[Path | None, typer.Option(
    help="data folder of the default SQLite database")]
LangOption = Annotated[str, typer.Option(help="language: en, de (any with catalogues)")]


def _say(code: str, lang: str, **params: Any) -> None:
    typer.echo(render(code, params, lang))


def _fail(lang: str, url: str, why: object) -> None:
    from dragonlair.cli.main import fail_with

    # the driver's own words, first line only (SQLAlchemy appends its statement and a link)
    cause = getattr(why, "orig", None) or why
    lines = str(cause).strip().splitlines()
    fail_with("cli.err_db", lang=lang, url=url, why=lines[0] if lines else type(cause).__name__)


def _engine(db: str | None, data: Path | None) -> tuple[Any, str]:
    """(engine, the URL shown: its password hidden)."""
    from sqlalchemy.engine import make_url

    from dragonlair.server.db import database_url, make_engine
    from dragonlair.server.settings import Settings

    extra: dict[str, Any] = {"database_url": db}
    if data is not None:
        extra["data_dir"] = data
    url = database_url(Settings(**extra).url())
    shown = make_url(url).render_as_string(hide_password=True)
    return make_engine(url), shown


@db_app.command()
def upgrade(db: DbOption = None, data: DataOption = None, lang: LangOption = "en") -> None:
    """Bring the database to the newest schema (a server also does this when it starts)."""
    from dragonlair.server import migrate

    engine, shown = _engine(db, data)
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

    engine, shown = _engine(db, data)
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
