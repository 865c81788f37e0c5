"""The Fist character workshop (issue 16; rule F9; docs/custom-characters.md): custom
characters made in the browser's editor, as a :class:`~dragonlair.core.plugin.Workshop` that
the server serves under ``/api/games/fist/characters/`` (:mod:`dragonlair.server.characters`
bounds the bodies, counts the characters and runs one balance report at a time):

- ``examples``: the shipped example characters (each with ``example``: its file), the power
  primitives an editor may offer with their fields (:func:`dragonlair.games.fist.custom.
  primitives`, whose docstring says how the fields map to a power step), and the limits of a
  character.
- ``check``: one character checked and written out in full
  (:func:`~dragonlair.games.fist.custom.normalize`: a missing text is the power described, a
  missing German name the English one), its power described in every language, and its card
  as a table shows it.
- ``import``: the characters of a ``.toml``/``.json`` file's text, read as ``dragonlair play
  fist --custom FILE`` reads it.
- ``export``: characters as the text of such a file.
- ``balance``: the balance report of bot games with the characters in the deck
  (``dragonlair balance fist --custom FILE --json``).

An invalid character is refused with the engine's ``fist.custom.*`` code, its params (``id``,
``step``) and rule F9.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import PurePath
from typing import Any, Literal

from pydantic import BaseModel, Field

from dragonlair.core.errors import DragonlairError, OptionError
from dragonlair.core.plugin import Workshop
from dragonlair.games.fist import custom

JSON = dict[str, Any]

#: the most characters one request may hold
MAX_CHARACTERS = 20
#: the deepest nesting of lists and tables in a character (a valid one needs 5)
MAX_DEPTH = 6
#: the longest string anywhere in a character (a text is the longest part)
MAX_STRING = custom.MAX_TEXT
#: the longest file text an import reads (characters)
MAX_FILE = 60_000
#: the languages a character is written in
LANGS = ("en", "de")


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


# ---------------------------------------------------------------------------- the workshop
class FistWorkshop(Workshop):
    """Fist's custom characters (F9), for the server's workshop routes."""

    kind = "characters"
    entry = "character"
    max_entries = MAX_CHARACTERS
    max_depth = MAX_DEPTH
    max_string = MAX_STRING
    max_file = MAX_FILE
    examples_out = ExamplesOut
    check_in = CheckIn
    check_out = CheckOut
    import_in = ImportIn
    import_out = CharactersOut
    export_in = ExportIn
    export_out = ExportOut
    balance_in = BalanceIn
    balance_out = BalanceOut

    def normalize(self, data: Any) -> JSON:
        return custom.normalize(data)

    def check_set(self, entries: list[JSON]) -> None:
        """The characters as a table checks them together: ids unique."""
        ids = [c["id"] for c in entries]
        dup = next((i for i in ids if ids.count(i) > 1), None)
        if dup is not None:
            raise OptionError("fist.option.custom_duplicate_id", id=dup)

    def examples(self) -> JSON:
        """The shipped example characters, the primitives an editor may offer, the limits."""
        chars: list[JSON] = []
        for name in custom.example_names():
            chars += [{**custom.normalize(c), "example": f"{name}.toml"}
                      for c in custom.load_file(name)]
        return {"characters": chars, "primitives": custom.primitives(),
                "limits": custom.limits()}

    def check(self, entry: JSON) -> JSON:
        """One character checked and written out in full, its power described, its card."""
        from dragonlair.games.fist.describe import describe_steps

        card = custom.card_from_data(entry)
        return {"character": entry,
                "described": {lang: describe_steps(card.power, lang) for lang in LANGS},
                "cards": {lang: {"name": card.name(lang), "text": card.text(lang),
                                 "count": card.count} for lang in LANGS}}

    def import_file(self, name: str, text: str) -> list[Any]:
        """The characters of a character file's text (``.toml`` or ``.json``), each normalized."""
        suffix = PurePath(name).suffix.lower()
        if suffix not in (".toml", ".json"):
            raise DragonlairError("fist.custom.bad_suffix", rule="F9", file=name)
        return custom.load_text(text, suffix, name)

    def editable(self, entry: JSON) -> JSON:
        """``entry`` without the texts that are just its power described (as an exported
        file writes them), so that in an editor they keep following the power."""
        from dragonlair.games.fist.describe import describe

        own = {lang: text for lang, text in entry["text"].items()
               if text != describe(entry["power"], lang, entry["id"])}
        out = {k: v for k, v in entry.items() if k != "text"}
        if own:
            out["text"] = own
        return out

    def export(self, entries: list[JSON], fmt: str) -> JSON:
        """Characters as the text of a character file (TOML or JSON) that ``dragonlair play fist
        --custom FILE`` loads; named after the character when there is one."""
        stem = entries[0]["id"] if len(entries) == 1 else self.kind
        return {"filename": f"{stem}.{fmt}", "text": export_text(entries, fmt)}

    def balance(self, entries: list[JSON], games: int, players: int,
                seed: int) -> Callable[[], JSON]:
        """The balance report of ``games`` games of greedy bots at ``players`` seats with the
        characters shuffled into the special deck: every card, built-in and custom (``custom``
        true), with how often its holders won. One run at a time in this process."""
        from dragonlair.games.fist.game import FistGame

        options: JSON = {"players": players, "custom": entries}
        FistGame(options)  # the table is checked now, before any game is played
        return lambda: balance_report(entries, games, players, seed)


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


def balance_report(chars: list[JSON], games: int, players: int, seed: int) -> JSON:
    """The balance report of greedy-bot games with ``chars`` in the special deck, each card
    marked ``custom`` when it is one of them (seconds: call it off the event loop)."""
    from dragonlair.balance import balance_report as report_of

    options: JSON = {"players": players, "custom": chars}
    report = report_of("fist", games, ["greedy"], seed, options).to_json()
    ids = {c["id"] for c in chars}
    report.pop("game", None)
    report.pop("options", None)
    report["cards"] = [{**c, "custom": c["id"] in ids} for c in report["cards"]]
    return report


#: the plugin's workshop (:attr:`dragonlair.core.plugin.GamePlugin.workshop`)
WORKSHOP = FistWorkshop()
