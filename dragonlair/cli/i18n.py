"""The terminal's own words, in the player's language.

The strings live in the message catalogues (``dragonlair/locale/<lang>/LC_MESSAGES/cli.po``,
codes ``cli.<key>``), rendered by :func:`dragonlair.core.i18n.render`; :func:`tr` is the
terminal's call. The engines' errors, events and outcomes are rendered from their own codes
(``err.message(lang)``, :func:`~dragonlair.core.i18n.render`), never translated back from
English. See docs/i18n.md.
"""

from __future__ import annotations

import re

from dragonlair.core.i18n import render

#: rich styles of the stone colours
COLOUR_STYLES = {"red": "bold red", "blue": "bold bright_blue", "yellow": "bold yellow"}


def tr(lang: str, key: str, **fields: object) -> str:
    """The terminal's string ``key`` in ``lang``, fields filled in: the catalogue entry
    ``cli.<key>`` (``dragonlair/locale/<lang>/LC_MESSAGES/cli.po``), English where ``lang``
    has none. A plural entry chooses its form by the field ``n``."""
    return render(f"cli.{key}", fields, lang)


def points(lang: str, n: int) -> str:
    """``1 point`` / ``2 points`` (``1 Punkt`` / ``2 Punkte``)."""
    return tr(lang, "points", n=n)


def coins(lang: str, key: str, n: int) -> str:
    """``3 Silver``, ``1 Red Amulet``, ``2 Black Magic coins``... in ``lang``."""
    return tr(lang, f"c_{key}", n=n)


def colour_name(lang: str, colour: str) -> str:
    """A stone colour (``red``) in ``lang``."""
    return tr(lang, f"colour_{colour}")


# ---------------------------------------------------------------- engine texts in German
# The engine writes its private notes and end reasons in English; the German interface
# recognises the known forms and says them in German (anything else is shown as it is).

_WHAT_DE = {
    "1 Common Gold": "1 Gemeingold",
    "1 unspent Fairy Gold": "1 freies Feengold",
    "1 spent Fairy Gold (it returns to the thief at the end of the turn)":
        "1 ausgegebenes Feengold (es geht am Rundenende an den Dieb)",
    "nothing": "nichts",
}

_NOTE_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^turn (\d+): Thief: you took (.+) from (p\d+)$"),
     "Runde {0}: Dieb: du hast {2} {1} weggenommen"),
    (re.compile(r"^turn (\d+): Thief: (p\d+) took (.+) from you$"),
     "Runde {0}: Dieb: {1} hat dir {2} weggenommen"),
    (re.compile(r"^turn (\d+): Brigand: (p\d+) gave you (\d+) Common Gold and (\d+) Silver$"),
     "Runde {0}: Wegelagerer: {1} hat dir {2} Gemeingold und {3} Silber gegeben"),
    (re.compile(r"^turn (\d+): Brigand: you gave (p\d+) (\d+) Common Gold and (\d+) Silver$"),
     "Runde {0}: Wegelagerer: du hast {1} {2} Gemeingold und {3} Silber gegeben"),
]

_REASON_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(p\d+) reached (\d+) points$"), "{0} hat {1} Punkte erreicht"),
    (re.compile(r"^turn limit of (\d+) reached; highest score wins$"),
     "Rundenlimit von {0} erreicht; die höchste Punktzahl gewinnt"),
    # Dragon Master (M4, M5)
    (re.compile(r"^lowest lines compared$"), "die niedrigsten Reihen wurden verglichen"),
    (re.compile(r"^drawn round$"), "unentschiedene Runde"),
    (re.compile(r"^(p\d+) took a second dragon$"), "{0} hat den zweiten Drachen bekommen"),
    # Dragon Farkle (D6.4)
    (re.compile(r"^(p\d+) slew the dragon$"), "{0} hat den Drachen erlegt"),
    (re.compile(r"^turn limit of (\d+) reached; the largest army wins$"),
     "Zuglimit von {0} erreicht; die größte Armee gewinnt"),
]


def _translate(text: str, forms: list[tuple[re.Pattern[str], str]]) -> str:
    for pattern, german in forms:
        m = pattern.match(text)
        if m:
            return german.format(*(_WHAT_DE.get(g, g) for g in m.groups()))
    return text


def engine_note(lang: str, note: str) -> str:
    """A private note of the engine (Thief, Brigand) in ``lang``."""
    return _translate(note, _NOTE_FORMS) if lang == "de" else note


def engine_reason(lang: str, reason: str) -> str:
    """The engine's end-of-game reason in ``lang``."""
    return _translate(reason, _REASON_FORMS) if lang == "de" else reason


def printable(text: object) -> str:
    """``text`` safe to print as plain text: an unpaired surrogate (``"\\ud800"`` from a
    JSON file), a control character or another unprintable character is written as its
    escape (``\\ud800``, ``\\x1b``), so printing never fails and never sends terminal
    codes. Escape the result with :func:`rich.markup.escape` before using it in markup."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)
