"""The terminal's own words, in the player's language.

The strings live in the message catalogues (``dragonlair/locale/<lang>/LC_MESSAGES/cli.po``,
codes ``cli.<key>``), rendered by :func:`dragonlair.core.i18n.render`; :func:`tr` is the
terminal's call. The engines' errors, events and outcomes are rendered from their own codes
(``err.message(lang)``, :func:`~dragonlair.core.i18n.render`), never translated back from
English. See docs/i18n.md.
"""

from __future__ import annotations

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


# ---------------------------------------------------------------- printing what a file holds
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
