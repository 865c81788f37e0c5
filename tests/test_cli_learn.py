"""``dragonlair learn`` at the terminal (issue 25): the tutorial's word on a wrong move stays
on screen (right above the prompt that asks again, not pushed away by the screen drawn
again), and a tutorial's screens fit 24 rows too."""

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
