"""A table option from a player's file (issue 25): the new-table form offers a file input for
the options a game takes from a file (:attr:`GamePlugin.option_uploads
<dragonlair.core.plugin.GamePlugin.option_uploads>`: Farkle's scoring table and decks), and
this route checks the file before the table is made.

``POST /api/games/{game}/options/{name}/file`` with ``{"filename", "text"}`` (TOML, or JSON
when the name ends in ``.json``) answers ``{"value", "problems"}``: the option's data when the
file is fine (``problems`` empty), else ``value`` null and one problem per bad line, each with
its line number (counted from 1), a catalogue code and params (a file that does not parse:
``server.option_file.not_toml`` / ``not_json`` at the line the parser names; a bad entry: the
game's own code, at the line of the entry's key). Every byte is the sender's: the text is
bounded (:data:`MAX_FILE`; 413 ``server.option_file.too_large``), nothing is stored, nothing
changes. Unknown game or option: 404 ``server.game.not_found`` / ``server.option_file.none``.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import PurePath
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from dragonlair.core.errors import DragonlairError, OptionError
from dragonlair.core.plugin import load_path
from dragonlair.server.characters import Bounded
from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals

router = APIRouter(prefix="/api", tags=["lobby"])

#: the largest file text (characters)
MAX_FILE = 32 * 1024
#: the most problems answered (a file of garbage does not get a list as long as itself)
MAX_PROBLEMS = 50

KeyPath = tuple[str | int, ...]


class OptionFileIn(BaseModel):
    #: the file's name: ``.json`` reads it as JSON, anything else as TOML
    filename: str = Field(min_length=1, max_length=255)
    #: the file's text (at most 32 KiB)
    text: str


class FileProblemOut(BaseModel):
    """One bad line: its number (from 1), and why, as a catalogue code with params."""

    line: int
    code: str
    params: dict[str, Any]
    rule: str | None = None


class OptionFileOut(BaseModel):
    #: the option's data (null when there are problems)
    value: Any = None
    problems: list[FileProblemOut]


# ---- where a key is: a path of keys and indexes -> its line ------------------------------

_TABLES = re.compile(r"^\[\[\s*([A-Za-z0-9_-]+)\s*\]\]")
_TABLE = re.compile(r"^\[\s*([A-Za-z0-9_.-]+)\s*\]")
_KEY = re.compile(r"""^(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*[.=]""")


def toml_lines(text: str) -> dict[KeyPath, int]:
    """The line of each table header and key of a TOML text (top-level keys, ``[table]``,
    ``[[array]]`` entries by index, and the keys inside them)."""
    out: dict[KeyPath, int] = {}
    where: KeyPath = ()
    count: dict[str, int] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if m := _TABLES.match(line):
            name = m.group(1)
            count[name] = count.get(name, -1) + 1
            out.setdefault((name,), n)
            where = (name, count[name])
            out[where] = n
        elif m := _TABLE.match(line):
            where = tuple(line[1:line.index("]")].strip().split("."))
            out.setdefault(where, n)
        elif m := _KEY.match(line):
            key = next(g for g in m.groups() if g is not None)
            out.setdefault((*where, key), n)
    return out


def json_lines(text: str) -> dict[KeyPath, int]:
    """The line of each key and array entry of a JSON text (a small scanner: strings,
    containers and scalars; it reads what ``json.loads`` has already accepted)."""
    out: dict[KeyPath, int] = {}
    stack: list[list[Any]] = []  # [kind "o"/"a", current key or index, expecting a key]
    line, i, size = 1, 0, len(text)

    def path() -> KeyPath:
        return tuple(frame[1] for frame in stack)

    def value_starts() -> None:
        if stack and stack[-1][0] == "a":
            stack[-1][1] += 1
            out.setdefault(path(), line)

    while i < size:
        c = text[i]
        if c == "\n":
            line += 1
        elif c == '"':
            j, chars = i + 1, []
            start_line = line
            while j < size and text[j] != '"':
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n":
                    line += 1
                chars.append(text[j] if j < size else "")
                j += 1
            if stack and stack[-1][0] == "o" and stack[-1][2]:
                stack[-1][1], stack[-1][2] = "".join(chars), False
                out.setdefault(path(), start_line)
            else:
                value_starts()
            i = j
        elif c in "{[":
            value_starts()
            stack.append(["o", None, True] if c == "{" else ["a", -1, False])
        elif c in "}]":
            if stack:
                stack.pop()
        elif c == "," and stack and stack[-1][0] == "o":
            stack[-1][2] = True
        elif c not in " \t\r:,":
            value_starts()
            while i + 1 < size and text[i + 1] not in " \t\r\n,]}":
                i += 1
        i += 1
    return out


def line_of(lines: dict[KeyPath, int], path: KeyPath) -> int:
    """The line of ``path``, else of its nearest parent that has one, else 1."""
    for cut in range(len(path), 0, -1):
        if path[:cut] in lines:
            return lines[path[:cut]]
    return 1


# ---- the route ---------------------------------------------------------------------------

_AT_LINE = re.compile(r"at line (\d+)")


def _problem(line: int, exc: DragonlairError | ServerError) -> FileProblemOut:
    return FileProblemOut(line=line, code=exc.code, params=dict(exc.params),
                          rule=getattr(exc, "rule", None))


def parse(filename: str, text: str) -> tuple[Any, list[FileProblemOut], bool]:
    """The file's data, or the problem of a text that does not parse (at its line), and
    whether it is JSON."""
    as_json = PurePath(filename.replace("\\", "/")).suffix.lower() == ".json"
    try:
        data = json.loads(text) if as_json else tomllib.loads(text)
    except json.JSONDecodeError as exc:
        return None, [_problem(exc.lineno, ServerError("server.option_file.not_json"))], True
    except tomllib.TOMLDecodeError as exc:
        m = _AT_LINE.search(str(exc))
        line = int(m.group(1)) if m else 1
        return None, [_problem(line, ServerError("server.option_file.not_toml"))], False
    except (ValueError, RecursionError):  # a number past 4,300 digits; nesting too deep
        return None, [_problem(1, ServerError("server.option_file.unreadable"))], as_json
    return data, [], as_json


@router.post("/games/{game}/options/{name}/file", response_model=OptionFileOut,
             responses=refusals(404, 413), dependencies=[Bounded])
def check_option_file(game: Annotated[str, PathParam(max_length=64)],
                      name: Annotated[str, PathParam(max_length=64)],
                      body: OptionFileIn) -> OptionFileOut:
    """Check a file (TOML, or JSON by its name) holding the data of option ``name`` of
    ``game``: the data, or each bad line with its number and why. Changes nothing."""
    from dragonlair.games import game_ids, plugin

    if game not in game_ids():
        raise ServerError("server.game.not_found", 404, game=game[:64])
    path = plugin(game).option_uploads.get(name)
    if path is None:
        raise ServerError("server.option_file.none", 404, game=game, option=name[:64])
    if len(body.text) > MAX_FILE:
        raise ServerError("server.option_file.too_large", 413, limit=MAX_FILE)
    data, problems, as_json = parse(body.filename, body.text)
    if problems:
        return OptionFileOut(problems=problems)
    check: Callable[[Any], list[tuple[KeyPath, OptionError]]] = load_path(path)
    found = check(data)
    if not found:
        return OptionFileOut(value=data, problems=[])
    lines = json_lines(body.text) if as_json else toml_lines(body.text)
    out = sorted((_problem(line_of(lines, where), exc) for where, exc in found),
                 key=lambda p: p.line)
    return OptionFileOut(problems=out[:MAX_PROBLEMS])
