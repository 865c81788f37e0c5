"""Custom Fist characters over the server, for the browser's editor (issue 16; rule F9;
docs/custom-characters.md).

Stateless, no login needed:

- ``GET /api/games/fist/characters/examples``: the shipped example characters (each with
  ``example``: its file), the power primitives an editor may offer with their fields
  (:func:`dragonlair.games.fist.custom.primitives`, whose docstring says how the fields map
  to a power step), and the limits of a character.
- ``POST /api/games/fist/characters/check``: one character checked and written out in full
  (:func:`~dragonlair.games.fist.custom.normalize`: a missing text is the power described,
  a missing German name the English one), its power described in every language, and its
  card as a table shows it.
- ``POST /api/games/fist/characters/import``: the characters of a ``.toml``/``.json`` file's
  text, read as ``dragonlair play fist --custom FILE`` reads it.
- ``POST /api/games/fist/characters/export``: characters as the text of such a file.
- ``POST /api/games/fist/characters/balance``: the balance report of bot games with the
  characters in the deck (``dragonlair balance fist --custom FILE --json``), worked out in a
  thread off the event loop, one at a time per process (a second meanwhile: 429
  ``server.characters.busy``).

An invalid character is refused with 422 and the engine's ``fist.custom.*`` code, its params
(``id``, ``step``) and rule F9. Every body is bounded (64 KiB; strings, lists, and nesting
no deeper than :data:`MAX_DEPTH`) before the engine sees it.
"""

from __future__ import annotations

import json
import secrets
import threading
from pathlib import PurePath
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from dragonlair.core.errors import DragonlairError
from dragonlair.games.fist import custom
from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals

router = APIRouter(prefix="/api", tags=["characters"])

JSON = dict[str, Any]

#: the largest request body (bytes), whatever the server's own limit
MAX_BODY = 64 * 1024
#: the most characters one request may hold
MAX_CHARACTERS = 20
#: the deepest nesting of lists and tables in a character (a valid one needs 5)
MAX_DEPTH = 6
#: the longest string anywhere in a character (a text is the longest part)
MAX_STRING = custom.MAX_TEXT
#: the longest file text an import reads (characters)
MAX_FILE = 60_000
#: one balance run at a time in this process (each keeps a thread busy for seconds)
BALANCE_LOCK = threading.Lock()


def _bounded(request: Request) -> None:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ServerError("server.request.too_large", 413, limit=MAX_BODY)


Bounded = Depends(_bounded)


class _Refused(ServerError):
    """An engine's refusal of a character: its code, params and rule (F9)."""

    def __init__(self, exc: DragonlairError) -> None:
        super().__init__(exc.code, 422, **exc.params)
        self.rule = exc.rule

    def to_json(self) -> JSON:
        return {**super().to_json(), "rule": self.rule}


def _shape(value: Any, where: str) -> None:
    """Refuse data nested deeper than :data:`MAX_DEPTH` or holding a string longer than
    :data:`MAX_STRING` (``server.characters.too_deep`` / ``too_long``), without recursion."""
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise ServerError("server.characters.too_deep", 422, field=where, max=MAX_DEPTH)
            children = list(item.items()) if isinstance(item, dict) else list(enumerate(item))
            for key, child in children:
                if isinstance(key, str) and len(key) > MAX_STRING:
                    raise ServerError("server.characters.too_long", 422, field=where,
                                      max=MAX_STRING)
                todo.append((child, depth + 1))
        elif isinstance(item, str) and len(item) > MAX_STRING:
            raise ServerError("server.characters.too_long", 422, field=where, max=MAX_STRING)


def _normalized(data: Any) -> JSON:
    _shape(data, "character")
    try:
        return custom.normalize(data)
    except DragonlairError as exc:
        raise _Refused(exc) from None


def _all_normalized(chars: list[Any]) -> list[JSON]:
    """Each character normalized, and the set checked as a table checks it (ids unique)."""
    if len(chars) > MAX_CHARACTERS:
        raise ServerError("server.characters.too_many", 422, max=MAX_CHARACTERS,
                          value=len(chars))
    out = [_normalized(c) for c in chars]
    ids = [c["id"] for c in out]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup is not None:
        raise ServerError("fist.option.custom_duplicate_id", 422, id=dup)
    return out


# ---------------------------------------------------------------------------- models
class Words(BaseModel):
    """A name or text in English and German."""

    en: str
    de: str


class CharacterOut(BaseModel):
    """A character written out in full (docs/custom-characters.md)."""

    id: str
    count: int
    name: Words
    text: Words
    power: list[JSON]


class ExampleOut(CharacterOut):
    """A shipped example character, with the file it comes from."""

    example: str


class FieldOut(BaseModel):
    """A field of a primitive: ``int`` (``min``, ``max``), ``choice`` (one of ``choices``)
    or ``multi`` (one or more of ``choices``), with its ``default``."""

    name: str
    kind: Literal["int", "choice", "multi"]
    default: int | str | list[str]
    min: int | None = None
    max: int | None = None
    choices: list[str] | None = None


class PrimitiveOut(BaseModel):
    """A power primitive and its fields (``either``: ``groups`` of fields instead)."""

    name: str
    fields: list[FieldOut] | None = None
    groups: dict[str, list[FieldOut]] | None = None


class LimitsOut(BaseModel):
    """A character's limits: copies (least, most), steps, the id's pattern, the longest
    name and text."""

    count: list[int]
    steps: int
    id_pattern: str
    name: int
    text: int


class ExamplesOut(BaseModel):
    characters: list[ExampleOut]
    primitives: list[PrimitiveOut]
    limits: LimitsOut


class CheckIn(BaseModel):
    character: JSON


class CardOut(BaseModel):
    """The card as a table shows it in one language."""

    name: str
    text: str
    count: int


class CheckOut(BaseModel):
    character: CharacterOut
    described: Words
    cards: dict[str, CardOut]


class ImportIn(BaseModel):
    filename: str = Field(min_length=1, max_length=200)
    text: str = Field(max_length=MAX_FILE)


class OwnWords(BaseModel):
    """A character's own texts: a language whose text is the power described is left out."""

    en: str | None = None
    de: str | None = None


class ImportedOut(CharacterOut):
    """A character read from a file, with its own texts only (``text`` absent: none)."""

    text: OwnWords | None = None  # type: ignore[assignment]


class CharactersOut(BaseModel):
    characters: list[ImportedOut]


class ExportIn(BaseModel):
    characters: list[JSON] = Field(min_length=1, max_length=MAX_CHARACTERS)
    format: Literal["toml", "json"] = "toml"


class ExportOut(BaseModel):
    filename: str
    text: str


class BalanceIn(BaseModel):
    characters: list[JSON] = Field(min_length=1, max_length=MAX_CHARACTERS)
    games: int = Field(default=100, ge=10, le=400)
    players: int = Field(default=4, ge=3, le=6)
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1)


class BalanceCardOut(BaseModel):
    """One card's row of the balance report (docs/balance.md); ``custom``: one of the
    characters sent. The Fist tallies are absent (null) on the Doppelganger-at-end row."""

    id: str
    name: str
    kind: str
    custom: bool
    holders: int
    holder_wins: int
    games: int
    acquisitions: int
    auctioned: int | None = None
    won: int | None = None
    played: int | None = None
    cursed: int | None = None
    passed: int | None = None
    doubled: int | None = None
    win_rate: float | None
    ci95: list[float] | None
    lift: float | None


class BalanceOut(BaseModel):
    games: int
    players: int
    bots: list[str]
    seed: int
    base_rate: float
    mean_turns: float
    seconds: float
    cards: list[BalanceCardOut]


# ---------------------------------------------------------------------------- routes
@router.get("/games/fist/characters/examples", response_model=ExamplesOut,
            response_model_exclude_none=True)
def examples() -> JSON:
    """The shipped example characters, the primitives an editor may offer, the limits."""
    chars: list[JSON] = []
    for name in custom.example_names():
        chars += [{**custom.normalize(c), "example": f"{name}.toml"}
                  for c in custom.load_file(name)]
    return {"characters": chars, "primitives": custom.primitives(), "limits": custom.limits()}


@router.post("/games/fist/characters/check", response_model=CheckOut,
             responses=refusals(413, 422), dependencies=[Bounded])
def check(body: CheckIn) -> JSON:
    """One character checked and written out in full, its power described, its card."""
    from dragonlair.games.fist.describe import describe_steps

    character = _normalized(body.character)
    card = custom.card_from_data(character)
    return {"character": character,
            "described": {lang: describe_steps(card.power, lang) for lang in ("en", "de")},
            "cards": {lang: {"name": card.name(lang), "text": card.text(lang),
                             "count": card.count} for lang in ("en", "de")}}


@router.post("/games/fist/characters/import", response_model=CharactersOut,
             response_model_exclude_none=True, responses=refusals(413, 422),
             dependencies=[Bounded])
def import_file(body: ImportIn) -> JSON:
    """The characters of a character file's text (``.toml`` or ``.json``), each normalized."""
    name = PurePath(body.filename.replace("\\", "/")).name or "?"
    suffix = PurePath(name).suffix.lower()
    if suffix not in (".toml", ".json"):
        raise _Refused(DragonlairError("fist.custom.bad_suffix", rule="F9", file=name))
    try:
        chars = custom.load_text(body.text, suffix, name)
    except DragonlairError as exc:
        raise _Refused(exc) from None
    return {"characters": [_own_texts(c) for c in _all_normalized(chars)]}


def _own_texts(character: JSON) -> JSON:
    """``character`` without the texts that are just its power described (as an exported
    file writes them), so that in an editor they keep following the power."""
    from dragonlair.games.fist.describe import describe

    own = {lang: text for lang, text in character["text"].items()
           if text != describe(character["power"], lang, character["id"])}
    out = {k: v for k, v in character.items() if k != "text"}
    if own:
        out["text"] = own
    return out


@router.post("/games/fist/characters/export", response_model=ExportOut,
             responses=refusals(413, 422), dependencies=[Bounded])
def export(body: ExportIn) -> JSON:
    """Characters as the text of a character file (TOML or JSON) that ``dragonlair play fist
    --custom FILE`` loads; named after the character when there is one."""
    chars = _all_normalized(list(body.characters))
    stem = chars[0]["id"] if len(chars) == 1 else "characters"
    return {"filename": f"{stem}.{body.format}", "text": export_text(chars, body.format)}


def export_text(chars: list[JSON], fmt: str) -> str:
    """Normalized characters as the text of a ``.toml`` (headed by how to load it) or
    ``.json`` character file."""
    if fmt == "json":
        return json.dumps({"character": chars}, ensure_ascii=False, indent=2) + "\n"
    import tomli_w

    from dragonlair.core.i18n import render

    head = render("fist.custom.file_header", {"n": len(chars)}, "en")
    comment = "".join(f"# {line}\n" for line in head.splitlines())
    return comment + tomli_w.dumps({"character": chars})


@router.post("/games/fist/characters/balance", response_model=BalanceOut,
             responses=refusals(413, 422, 429), dependencies=[Bounded])
async def balance(body: BalanceIn) -> JSON:
    """The balance report of ``games`` games of greedy bots at ``players`` seats with the
    characters shuffled into the special deck: every card, built-in and custom (``custom``
    true), with how often its holders won. One run at a time in this process."""
    import anyio

    from dragonlair.games import make_game

    chars = _all_normalized(list(body.characters))
    options = {"players": body.players, "custom": chars}
    try:
        make_game("fist", options)
    except DragonlairError as exc:
        raise _Refused(exc) from None
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    if not BALANCE_LOCK.acquire(blocking=False):
        raise ServerError("server.characters.busy", 429)
    try:
        report = await anyio.to_thread.run_sync(
            lambda: _balance(body.games, seed, options))
    finally:
        BALANCE_LOCK.release()
    return report


def _balance(games: int, seed: int, options: JSON) -> JSON:
    from dragonlair.balance import balance_report

    report = balance_report("fist", games, ["greedy"], seed, options).to_json()
    ids = {c["id"] for c in options["custom"]}
    report.pop("game", None)
    report.pop("options", None)
    report["cards"] = [{**c, "custom": c["id"] in ids} for c in report["cards"]]
    return report

