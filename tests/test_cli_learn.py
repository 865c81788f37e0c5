"""``dragonlair learn`` at the terminal (issue 25): the tutorial's word on a wrong move stays
on screen (right above the prompt that asks again, not pushed away by the screen drawn
again, not wiped by a terminal's clearing of the screen, and shown again after the help),
and every page of every tutorial, the one that holds that word too, fits 80 by 24."""

from __future__ import annotations

import io
import sys
from typing import Any

import pytest
from rich.console import Console

from dragonlair.cli.fit import SCREEN_ROWS
from dragonlair.cli.learn_cmd import run_tutorial
from dragonlair.core.i18n import render
from tests.sizes import quick_first
from tests.test_lang_de import flat
from tests.test_tutorials import GAMES, MISTAKES, learn, script


@pytest.mark.parametrize("game", sorted(MISTAKES))
def test_the_word_on_a_wrong_move_is_right_above_the_next_prompt(game: str) -> None:
    code, out = learn(game, "en", script(game))
    assert code == 0, out[-3000:]
    word = flat(render("tutorial.ui.not_quite", None, "en"))
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if word in flat(line))
    rest = lines[at:]
    prompt = next(i for i, line in enumerate(rest) if ">" in line)
    assert prompt <= 4, rest[:prompt + 1]  # the reason's few rows, then the prompt
    assert not any("─" in line for line in rest[:prompt]), rest[:prompt + 1]  # no screen


#: what a terminal's console.clear() writes: the screen is wiped there
CLEAR = "\x1b[2J"


@pytest.mark.parametrize("game", sorted(MISTAKES))
def test_at_a_terminal_the_word_on_a_wrong_move_is_drawn_after_the_screen_is_cleared(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a terminal every screen starts on a cleared page: the word on the wrong move must
    come after the clear that starts the next screen (not wiped with the old one), under
    the redrawn screen and right above the prompt, and that page must fit 24 rows."""
    import io
    import sys

    from rich.console import Console

    from dragonlair.cli.fit import SCREEN_ROWS
    from dragonlair.cli.learn_cmd import run_tutorial

    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(script(game)) + "\n"))
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80, height=SCREEN_ROWS,
                      color_system=None)
    assert run_tutorial(game, "en", console) == 0
    text = out.getvalue()
    word = render("tutorial.ui.not_quite", None, "en")
    at = text.index(word)
    wrong = text.rindex(f"> {MISTAKES[game][1]}\n", 0, at)  # the wrong move, as typed
    cleared = text.rindex(CLEAR, 0, at)
    assert wrong < cleared, "the screen was not drawn again after the wrong move"
    page = text[cleared + len(CLEAR):]
    page = page[:page.index(f"> {MISTAKES[game][2]}\n")]  # up to the next prompt's input
    rows = page.splitlines()
    assert word in page and len(rows) <= SCREEN_ROWS, rows
    after = page[page.index(word):].splitlines()
    assert len(after) <= 4 and not any("─" in line for line in after), after


@pytest.mark.parametrize("game", sorted(MISTAKES))
def test_the_word_on_a_wrong_move_stays_after_the_learner_asks_for_help(game: str) -> None:
    """The game's help printed at the question asked again does not push the word away: it
    is shown again under the step, above the prompt, until the next move is typed."""
    lines = script(game)
    at = lines.index(MISTAKES[game][1])
    lines[at + 1:at + 1] = ["help"]  # right after the wrong move
    code, out = learn(game, "en", lines)
    assert code == 0, out[-3000:]
    word = flat(render("tutorial.ui.not_quite", None, "en"))
    rows = out.splitlines()
    asked = next(i for i, line in enumerate(rows) if line.endswith("> help"))
    rest = rows[asked + 1:]
    prompt = next(i for i, line in enumerate(rest) if ">" in line)
    assert any(word in flat(line) for line in rest[:prompt]), rest[:prompt + 1]
    assert flat(out).count(word) == 2  # after the wrong move, and again after the help


class PageConsole(Console):
    """A terminal of 80 columns and 24 rows where a learner types ``lines``: each page, what
    a prompt asks under, is kept: from the last clearing of the screen or the last line
    typed (the rows above have had their page), the prompt's row included."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(file=io.StringIO(), width=80, height=SCREEN_ROWS,
                         force_terminal=True, color_system=None, legacy_windows=False)
        self.lines = list(lines)
        self.mark = 0
        self.pages: list[str] = []

    def input(self, prompt: Any = "", **_kw: Any) -> str:
        self.print(prompt, end="", highlight=False)
        out: str = self.file.getvalue()  # type: ignore[attr-defined]
        page = out[self.mark:]
        if CLEAR in page:
            page = page[page.rindex(CLEAR) + len(CLEAR):]
        self.pages.append(page.replace("\x1b[H", ""))  # the cursor sent home: no row
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.file.write(line + "\n")  # typed on the prompt's row, as a terminal echoes it
        self.mark = len(self.file.getvalue())  # type: ignore[attr-defined]
        return line


class Terminal(io.StringIO):
    """Standard input at a terminal: a session does not echo what is typed."""

    def isatty(self) -> bool:
        return True


#: a plain run: the Farkle tutorial (its keep menus are the longest), in both languages
PAGES = quick_first(2, [("farkle", "en"), ("farkle", "de")]
                    + [(game, lang) for game in GAMES if game != "farkle"
                       for lang in ("en", "de")])


@pytest.mark.parametrize(("game", "lang"), PAGES)
def test_every_page_of_the_tutorial_fits_80_by_24(game: str, lang: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page of the tutorial at a terminal, from the first text to the last, the
    question with eleven selections to keep, the wrong and the illegal move and the final
    position under the last words included, takes at most 24 rows at 80 columns."""
    monkeypatch.setattr(sys, "stdin", Terminal())
    lines = script(game)
    console = PageConsole(lines)
    assert run_tutorial(game, lang, console) == 0
    assert len(console.pages) >= len(lines) - 3  # every line typed was asked for
    for page in console.pages:
        rows = page.split("\n")
        assert len(rows) <= SCREEN_ROWS, "\n".join(rows)
