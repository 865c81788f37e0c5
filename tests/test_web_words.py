"""Issue 25, "every word a player reads right", for the browser's own words (the ``web.*``
codes of dragonlair/locale/<lang>/LC_MESSAGES/web.po): no developer word on a player's screen
(an engine seat ``p0``, notation in backticks, a terminal command or instruction), and one
German word for each kind of Dragon Master line (docs/rulings.md, "Words on screen"): a
player's lines are ``Zeilen`` (rows) or ``Spalten`` (columns), a line of either kind a
``Reihe``; never ``Linie``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dragonlair.core.i18n import catalogue, languages

ROOT = Path(__file__).resolve().parent.parent

#: what a player must never read on a screen of the browser
DEVELOPER = [
    (re.compile(r"\bp\d\b|\bpN\b"), "an engine seat (p0): a seat is a name or 'Player 1'"),
    (re.compile(r"`"), "backticks: notation or code"),
    (re.compile(r"\bdragonlair\s+\w|--\w"), "a terminal command"),
    (re.compile(r"\btype (help|hint|quit)\b|\btipp(e|t) (hilfe|hinweis)\b", re.I),
     "a terminal instruction"),
    (re.compile(r"\bdocs/|\.md\b|\.py\b"), "a file of the project"),
]


def _web(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for code, text in catalogue(lang).messages.items():
        if code.startswith("web."):
            out[code] = " / ".join(text) if isinstance(text, tuple) else text
    return out


@pytest.mark.parametrize("lang", languages())
def test_no_developer_words_in_the_browsers_messages(lang: str) -> None:
    found = [f"{code}: {why}: {text!r}" for code, text in _web(lang).items()
             for pattern, why in DEVELOPER if pattern.search(text)]
    assert found == []


def test_the_german_master_lines_have_one_word_each() -> None:
    """Zeile (a row), Spalte (a column), Reihe (a line of either kind); not Linie."""
    de = {code: text for code, text in _web("de").items() if code.startswith("web.master.")}
    assert not [code for code, text in de.items() if re.search(r"Linie", text)]
    assert "Zeilen" in de["web.master.lines.rows"] and "Spalten" in de["web.master.lines.columns"]
    assert "Reihe" in de["web.master.rounds"] and "Reihen" in de["web.master.scores"]
    # the engine's own words for them agree (the log and the end of a round)
    master = catalogue("de").messages
    assert master["master.lines.rows"] == "Zeilen" and master["master.lines.columns"] == "Spalten"
    assert "Reihen" in str(master["master.round.won"])


def test_no_german_text_calls_a_line_linie() -> None:
    """The same word everywhere a German reader meets a Master line: every German
    catalogue (tips, tutorials, the terminal, the engine), not only the browser's."""
    found = [(path.name, line.strip()[:80])
             for path in sorted((ROOT / "dragonlair" / "locale" / "de").rglob("*.po"))
             for line in path.read_text(encoding="utf-8").splitlines()
             if line.startswith("msgstr") and "Linie" in line]
    assert found == []
