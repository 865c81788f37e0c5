"""``dragonlair admin grant|revoke USER``: give or take a forum moderator's right
(``users.is_moderator``: hide and restore posts, threads and workshop entries; docs/forum.md).
Registered on the app in :mod:`dragonlair.cli.main`.

The database is found as ``dragonlair db`` finds it (``--db`` or ``$DRAGONLAIR_DB``, else the
SQLite file in ``--data``); it must exist and be at the newest schema. Each change is a line of
the moderators' log (``moderation_log``, its moderator null: the command line). Exit 2, with
one line and no traceback, for an unknown user, a guest, or a database that cannot be used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dragonlair.core.i18n import render

admin_app = typer.Typer(no_args_is_help=True, add_completion=False)

UserArgument = Annotated[str, typer.Argument(metavar="USER")]
DbOption = Annotated[str | None, typer.Option("--db", envvar="DRAGONLAIR_DB")]
DataOption = Annotated[Path | None, typer.Option()]
LangOption = Annotated[str, typer.Option()]


def set_moderator(user: str, value: bool, db: str | None, data: Path | None,
                  lang: str) -> None:
    from dragonlair.cli.db_cmd import _engine, _fail
    from dragonlair.cli.main import check_lang, fail_with

    check_lang(lang)
    engine, shown = _engine(db, data, lang, must_exist=True)
    try:
        from sqlalchemy import func, select

        from dragonlair.server import migrate
        from dragonlair.server.db import User, make_sessionmaker
        from dragonlair.server.forum.models import ModerationLog

        try:
            pending = migrate.pending(engine)
        except Exception as exc:  # unreachable, refused: one line, no trace
            _fail(lang, shown, exc)
            return
        if pending:
            fail_with("cli.admin_pending", lang=lang, url=shown)
        said: dict[str, Any] = {}
        try:
            with make_sessionmaker(engine)() as s:
                row = s.scalar(select(User).where(User.username == user)) or s.scalar(
                    select(User).where(func.lower(User.username) == user.lower()))
                if row is None:
                    said = {"code": "cli.admin_no_user"}
                elif row.is_guest:
                    said = {"code": "cli.admin_guest"}
                elif bool(row.is_moderator) == value:
                    said = {"code": "cli.admin_already" if value else "cli.admin_not_one",
                            "name": row.display_name, "username": row.username}
                else:
                    row.is_moderator = value
                    s.add(ModerationLog(moderator_id=None, action="grant" if value else "revoke",
                                        target_kind="user", target_id=row.id))
                    s.commit()
                    said = {"code": "cli.admin_granted" if value else "cli.admin_revoked",
                            "name": row.display_name, "username": row.username}
        except Exception as exc:
            _fail(lang, shown, exc)
            return
    finally:
        engine.dispose()
    code = said.pop("code")
    if code in ("cli.admin_no_user", "cli.admin_guest"):
        fail_with(code, lang=lang, user=user)
    typer.echo(render(code, said, lang))


@admin_app.command()
def grant(user: UserArgument, db: DbOption = None, data: DataOption = None,
          lang: LangOption = "en") -> None:
    """Make an account a forum moderator."""
    set_moderator(user, True, db, data, lang)


@admin_app.command()
def revoke(user: UserArgument, db: DbOption = None, data: DataOption = None,
           lang: LangOption = "en") -> None:
    """Take the moderator's right from an account."""
    set_moderator(user, False, db, data, lang)
