"""``dragonlair i18n export|check``: the message catalogues as JSON for the browser client,
and a check that every code has a message in every language (docs/i18n.md). Registered on
the app in :mod:`dragonlair.cli.main`."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from dragonlair.core.i18n import (
    DEFAULT_LANG,
    all_codes,
    catalogue,
    export_json,
    has_message,
    languages,
    template_fields,
)

i18n_app = typer.Typer(no_args_is_help=True, add_completion=False)

#: the package whose sources :func:`codes_in_source` reads
PACKAGE_DIR = Path(__file__).resolve().parent.parent
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def namespaces(root: Path = PACKAGE_DIR) -> set[str]:
    """The namespaces of codes: ``core``, ``server`` (when the package has one) and every
    game package's id (its folder)."""
    games = root / "games"
    found = {p.name for p in games.iterdir()
             if (p / "__init__.py").is_file()} if games.is_dir() else set()
    server = {"server"} if (root / "server" / "__init__.py").is_file() else set()
    return {"core", *server, *found}


def _literals(node: ast.expr) -> Iterator[str]:
    """The string values ``node`` may have: a literal, or each branch of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


def _func_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _looks_like_code(text: str, spaces: set[str]) -> bool:
    """``cli.<key>``, or ``<namespace>.<area>.<name>...`` (two parts at least after the
    namespace: a literal such as ``"fist.md"`` is no code)."""
    space, _, tail = text.partition(".")
    parts = tail.split(".")
    if space == "cli":
        return len(parts) == 1 and _is_name(parts[0])
    return space in spaces and len(parts) >= 2 and all(_is_name(p, "-") for p in parts)


def _is_name(part: str, more: str = "") -> bool:
    return bool(part) and all(ch in _NAME_CHARS or ch in more for ch in part)


def codes_in_source(root: Path = PACKAGE_DIR) -> dict[str, str]:
    """Every message code the sources under ``root`` name, with where (``path:line``): each
    string literal shaped like a code of a known namespace (``fist.bid.exceeds_unspent``,
    wherever it stands: an error, an event, a reason), each literal ``cli.<key>``, and each
    literal key of the terminal's ``tr(lang, "key")`` as ``cli.<key>``. Codes built at run
    time (``f"fist.gain.{kind}"``) cannot be seen here."""
    spaces = namespaces(root)
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):  # pragma: no cover - a file mid-edit
            continue
        where = path.relative_to(root.parent).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if _looks_like_code(node.value, spaces):
                    found.setdefault(node.value, f"{where}:{node.lineno}")
            elif (isinstance(node, ast.Call) and _func_name(node) == "tr"
                  and len(node.args) >= 2):
                for key in _literals(node.args[1]):
                    found.setdefault(f"cli.{key}", f"{where}:{node.lineno}")
    return found


def problems(root: Path | None = PACKAGE_DIR) -> list[str]:
    """What is wrong with the catalogues, one line each: a code (in any catalogue, or named
    in the sources under ``root``) with no message in some language, or a message whose
    fields are not those of the same code in English (all plural forms together)."""
    langs = languages()
    codes = {code: "" for code in all_codes(langs)}
    if root is not None:
        codes.update(codes_in_source(root))
    out = []
    for code, where in sorted(codes.items()):
        missing = [lang for lang in langs if not has_message(code, lang)]
        if missing:
            out.append(f"{code}: no message in {', '.join(missing)}"
                       + (f" (used at {where})" if where else ""))
    english = catalogue(DEFAULT_LANG)
    for lang in langs:
        cat = catalogue(lang)
        for code in sorted(cat.messages):
            fields, en_fields = fields_of(cat.messages[code]), fields_of(
                english.messages.get(code, ""))
            if lang != DEFAULT_LANG and code in english.messages and fields != en_fields:
                out.append(f"{code}: {lang} uses the fields {sorted(fields)}, English "
                           f"{sorted(en_fields)}")
    return out


def fields_of(text: str | tuple[str, ...]) -> set[str]:
    """The params a message uses (all its plural forms together)."""
    forms = (text,) if isinstance(text, str) else text
    return set().union(*(template_fields(form) for form in forms))


@i18n_app.command()
def export(
    lang: Annotated[str, typer.Option()] = "en",
    out: Annotated[Path | None, typer.Option()] = None,
) -> None:
    """Write one language's catalogue as JSON for the browser client.

    The object holds lang, plural (the plural rule, a C expression in n) and messages
    (code: its template, or the list of its plural forms)."""
    from dragonlair.cli.main import fail_with

    if lang not in languages():
        fail_with("cli.err_no_catalogues", given=lang, langs=list(languages()))
    text = json.dumps(export_json(lang), ensure_ascii=False, indent=1, sort_keys=True)
    if out is None:
        typer.echo(text)
        return
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        fail_with("cli.err_cannot_write", path=str(out), why=str(exc.strerror or exc))


@i18n_app.command()
def check(
    source: Annotated[bool, typer.Option()] = True,
) -> None:
    """List the codes missing in any language; exit 1 if there are any.

    Also listed: messages whose fields differ from the English message of the same code."""
    found = problems(PACKAGE_DIR if source else None)
    for line in found:
        typer.echo(line)
    if found:
        typer.echo(f"{len(found)} problem(s) in the catalogues of {', '.join(languages())}",
                   err=True)
        raise typer.Exit(1)
    typer.echo(f"ok: {len(all_codes())} codes in {', '.join(languages())}")
