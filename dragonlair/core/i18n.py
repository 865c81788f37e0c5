"""Messages by code, in the reader's language, from gettext catalogues.

The engines speak in codes with params (:class:`~dragonlair.core.errors.DragonlairError`,
:class:`~dragonlair.core.events.Event`, an outcome's reason); every interface renders them
here, or (the browser) from the same catalogues exported as JSON by :func:`export_json`.

The catalogues are gettext ``.po`` files read with Babel, one per domain and language::

    dragonlair/locale/<lang>/LC_MESSAGES/<domain>.po

the shared ones (``core``, ``cli``, ``server``, ``web``, ...) in :data:`LOCALE_DIR`, and each
game's own in the folder its plugin names (:func:`dragonlair.games.locale_dir`, by default
``locale/`` next to the plugin module: ``dragonlair/games/fist/locale/de/LC_MESSAGES/fist.po``,
or the same in a game installed as its own distribution), holding only codes of that game's
namespace (``<id>.``).
keyed by code (``msgid "fist.bid.exceeds_unspent"``), the text a template in Python's
format syntax whose fields name the params. A field may carry a *kind* that says how its
value is shown: ``{seat:seat}`` (a seat number: the seat's name, or where no names are given the
seat counted from 1 as people count, ``core.seat.numbered``: "Player 3" for seat 2), ``{card:card}``
(a card id of the code's game: its name in the language), ``{colour:colour}``, or any
``{x:k}`` that looks up ``<game>.k.<value>`` in the catalogue; ``{x:list}`` joins a list,
and ``{x:list-card}`` renders each element as ``card`` first. ``{cause:error}`` renders a
nested error given as JSON (``{"code", "params", "rule"}``) and ``{source:file}`` a file name
or, for none, "the record". A plural entry (``msgid_plural``) chooses its form by the param
``n``. See docs/i18n.md.

Adding a language is adding a folder of ``.po`` files: nothing here names a language but
English, the fallback.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The language every code must have a message in, and the fallback of every other.
DEFAULT_LANG = "en"
#: the seat number of chance (:data:`dragonlair.core.game.CHANCE`, kept here: no import cycle)
CHANCE_SEAT = -1


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Every message of one language: code -> template (a tuple of forms for plurals)."""

    lang: str
    messages: Mapping[str, str | tuple[str, ...]]
    plural_expr: str
    plural: Callable[[int], int]

    def template(self, code: str, n: int | None = None) -> str | None:
        text = self.messages.get(code)
        if text is None or isinstance(text, str):
            return text or None
        form = self.plural(n if n is not None else 1)
        chosen = text[min(form, len(text) - 1)]
        return chosen or None


def catalogue_dirs() -> list[tuple[Path, str | None]]:
    """The folders of catalogues: :data:`LOCALE_DIR` (any namespace) first, then each game's
    own with its id (only that game's codes). The games are found through the registry,
    imported by name here (``core`` imports no game). The built-in games' folders
    (``dragonlair/games/<id>/locale``) are also found by path, without importing anything:
    the client's build exports the catalogues in pip's isolated build environment, where
    only the build requirements (Babel) are installed and no engine can be imported."""
    import contextlib
    import importlib

    games = {folder.parent.name: folder
             for folder in sorted((Path(__file__).resolve().parent.parent / "games")
                                  .glob("*/locale")) if folder.is_dir()}
    # in the build environment the built-in games' folders are all there is
    with contextlib.suppress(ImportError):
        games.update(importlib.import_module("dragonlair.games").locale_dirs())
    return [(LOCALE_DIR, None), *((folder, game) for game, folder in sorted(games.items()))]


def languages() -> tuple[str, ...]:
    """The languages with catalogues (shared or a game's), English first."""
    found = {p.name for folder, _ in catalogue_dirs() if folder.is_dir()
             for p in folder.iterdir() if (p / "LC_MESSAGES").is_dir()}
    return tuple(sorted(found, key=lambda lang: (lang != DEFAULT_LANG, lang)))


@cache
def catalogue(lang: str) -> Catalogue:
    """All domains of ``lang`` merged, shared and the games' (unknown languages get an empty
    catalogue). A code defined twice, or a game's catalogue defining a code outside its
    namespace, is a :class:`ValueError`."""
    messages: dict[str, str | tuple[str, ...]] = {}
    plural_expr = "(n != 1)"
    paths = [(path, game) for base, game in catalogue_dirs()
             for path in sorted((base / lang / "LC_MESSAGES").glob("*.po"))]
    for path, game in paths:
        with path.open("rb") as fh:
            cat = read_po(fh, locale=None, domain=path.stem)
        plural_expr = cat.plural_expr or plural_expr
        for message in cat:
            if not message.id:
                continue
            key = str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)
            if game is not None and game_of(key) != game:
                raise ValueError(f"{path}: code {key!r} is not of the game {game!r}")
            raw = message.string
            value: str | tuple[str, ...] = (tuple(str(s) for s in raw)
                                             if isinstance(raw, (tuple, list)) else str(raw or ""))
            if key in messages:
                raise ValueError(f"{path}: code {key!r} is defined twice in {lang}")
            messages[key] = value
    return Catalogue(lang, messages, plural_expr, gettext.c2py(plural_expr))


def has_message(code: str, lang: str) -> bool:
    return catalogue(lang).template(code) is not None


def game_of(code: str) -> str:
    """The namespace of a code: ``fist`` for ``fist.bid.exceeds_unspent``."""
    return code.partition(".")[0]


class _Formatter(string.Formatter):
    def __init__(self, lang: str, game: str, names: Sequence[str] | None) -> None:
        self.lang = lang
        self.game = game
        self.names = names

    def format_field(self, value: Any, format_spec: str) -> str:
        if not format_spec:
            return str(value)
        kind = format_spec
        if kind == "seat":
            if value == CHANCE_SEAT and type(value) is int:
                return term("core.seat.chance_name", self.lang)
            return seat_name(value, self.names, self.lang)
        if kind == "error":  # a nested error as JSON: {"code", "params", "rule"}
            return error_message(value, self.lang, self.names)
        if kind == "file":  # a file's name, or (none given) "the record"
            return str(value) if value else term("core.record.this_record", self.lang)
        if kind == "list":
            return ", ".join(str(v) for v in value) or term("core.nothing", self.lang)
        if kind.startswith("list-"):
            inner = kind[5:]
            parts = [self.format_field(v, inner) for v in value]
            return ", ".join(parts) or term("core.nothing", self.lang)
        if kind == "card":  # cards are keyed <game>.card.<id>.name (and .text)
            return term(f"{self.game}.card.{value}.name", self.lang,
                        fallback=term(f"{self.game}.card.{value}", self.lang,
                                      fallback=str(value)))
        return term(f"{self.game}.{kind}.{value}", self.lang, fallback=str(value))


def error_message(error: Any, lang: str = DEFAULT_LANG,
                  names: Sequence[str] | None = None) -> str:
    """An error given as JSON (:meth:`DragonlairError.to_json`: ``{"code", "params",
    "rule"}``) rendered in ``lang``, with its rule; anything else as its text."""
    if not isinstance(error, Mapping) or not isinstance(error.get("code"), str):
        return str(error)
    params = error.get("params")
    text = render(error["code"], params if isinstance(params, Mapping) else None, lang, names)
    rule = error.get("rule")
    if rule:
        text += render("core.rule_suffix", {"rule": rule}, lang)
    return text


def seat_name(seat: Any, names: Sequence[str] | None = None, lang: str = DEFAULT_LANG) -> str:
    """A seat as a message names it: its name from ``names``, else (no names known, or a seat
    beyond them) its number counted from 1 as people count, in ``lang`` (``core.seat.numbered``:
    "Player 3" for seat 2); never the engines' ``p2``. Anything but a seat number as given."""
    if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
        if names is not None and seat < len(names):
            return names[seat]
        return render("core.seat.numbered", {"n": seat + 1}, lang)
    return str(seat)


def term(code: str, lang: str = DEFAULT_LANG, fallback: str | None = None) -> str:
    """A catalogue entry with no params (a card name, a colour), in ``lang``."""
    for cat in (catalogue(lang), catalogue(DEFAULT_LANG)):
        text = cat.template(code)
        if text is not None:
            return text
    return fallback if fallback is not None else code


def render(code: str, params: Mapping[str, Any] | None = None, lang: str = DEFAULT_LANG,
           names: Sequence[str] | None = None) -> str:
    """The message of ``code`` with ``params`` in ``lang`` (English where ``lang`` lacks it;
    the code and its params where no language has it). ``names``: the seats' names."""
    params = dict(params or {})
    n = params.get("n")
    count = n if isinstance(n, int) else None
    template = catalogue(lang).template(code, count) or catalogue(DEFAULT_LANG).template(
        code, count)
    if template is None:
        shown = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
        return f"{code}({shown})" if shown else code
    try:
        return _Formatter(lang, game_of(code), names).vformat(template, (), params)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return template


def template_fields(template: str) -> set[str]:
    """The param names a template uses."""
    return {field.partition(".")[0].partition("[")[0]
            for _, field, _, _ in string.Formatter().parse(template) if field}


def export_json(lang: str, omit: tuple[str, ...] = ()) -> dict[str, Any]:
    """One language's catalogue as JSON for the browser client: ``{"lang", "plural",
    "messages": {code: template or [forms]}}`` (the plural rule as a C expression in ``n``),
    less the codes that start with one of ``omit``."""
    cat = catalogue(lang)
    return {
        "lang": lang,
        "plural": cat.plural_expr,
        "messages": {code: list(text) if isinstance(text, tuple) else text
                     for code, text in sorted(cat.messages.items())
                     if text and not code.startswith(omit)},
    }


def all_codes(langs: Iterable[str] | None = None) -> set[str]:
    """Every code with a message in any of ``langs`` (default: all)."""
    codes: set[str] = set()
    for lang in langs or languages():
        codes.update(code for code, text in catalogue(lang).messages.items() if text)
    return codes
