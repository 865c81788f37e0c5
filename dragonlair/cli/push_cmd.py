"""``dragonlair push keygen``: a VAPID key pair for Web Push (docs/server.md, "Turn alerts
and Web Push"; dragonlair/server/push.py). Registered on the app in :mod:`dragonlair.cli.main`.

The private key is written as a PEM file (PKCS#8, P-256, readable by its owner only; an
existing file is never overwritten); the public key is printed in the form browsers take as
``applicationServerKey`` (the uncompressed point, base64url). Serve with
``dragonlair serve --vapid-key FILE``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dragonlair.core.i18n import render

push_app = typer.Typer(no_args_is_help=True, add_completion=False)

LangOption = Annotated[str, typer.Option()]


def default_key_file() -> Path:
    from dragonlair.server.settings import DEFAULT_DATA_DIR

    return DEFAULT_DATA_DIR / "vapid.pem"


@push_app.command()
def keygen(
    out: Annotated[Path | None, typer.Option("--out")] = None,
    lang: LangOption = "en",
) -> None:
    """Write a new VAPID private key (PEM) and print its public key."""
    from dragonlair.cli.main import check_lang, fail_with

    try:
        from dragonlair.server.push import new_key, public_key_text, write_key
    except ImportError as exc:
        fail_with("cli.err_server_extra", why=str(exc))
        return
    lang = check_lang(lang)
    path = out if out is not None else default_key_file()
    key = new_key()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_key(path, key)
    except FileExistsError:
        fail_with("cli.err_push_exists", lang=lang, file=str(path))
        return
    except OSError as exc:
        fail_with("cli.err_push_write", lang=lang, file=str(path),
                  why=exc.strerror or type(exc).__name__)
        return
    typer.echo(render("cli.push_key_written", {"file": str(path)}, lang), err=True)
    typer.echo(public_key_text(key))
