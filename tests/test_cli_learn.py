"""``dragonlair learn`` at the terminal (issue 25): the tutorial's word on a wrong move stays
on screen (right above the prompt that asks again, not pushed away by the screen drawn
again, not wiped by a terminal's clearing of the screen, and shown again after the help),
and the page that holds it fits 24 rows too."""

from __future__ import annotations

import pytest

from dragonlair.core.i18n import render
from tests.test_lang_de import flat
from tests.test_tutorials import MISTAKES, learn, script


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
