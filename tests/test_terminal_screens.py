"""Every terminal screen fits a terminal of 80 columns and 24 rows (issue 25, "The terminal,
too"): a scripted game of each game, the human's seat played by a bot's choices, bots in the
other seats, every screen (all that is printed from one prompt to the next, the prompt
included) rendered at 80 columns and its height measured."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from rich.console import Console

from dragonlair.bots import make_bot
from dragonlair.cli.session import Session
from dragonlair.core.driver import seed_for
from dragonlair.games import make_game
from dragonlair.games.farkle.terminal.play import FarkleSession
from dragonlair.games.fist.terminal.play import FistSession
from dragonlair.games.master.terminal.play import MasterSession

WIDTH, HEIGHT = 80, 24


class ScreenConsole(Console):
    """A console of 80 columns that measures each screen: the rows printed since the last
    prompt, plus the prompt's own row, whenever it is asked for a line."""

    def __init__(self) -> None:
        super().__init__(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None,
                         force_terminal=False, legacy_windows=False)
        self.mark = 0
        self.heights: list[int] = []
        self.screens: list[str] = []

    def screen_done(self, prompt: str) -> None:
        self.print(prompt, end="", highlight=False)
        text = self.file.getvalue()[self.mark:]  # type: ignore[attr-defined]
        self.file.write("\n")
        self.mark = len(self.file.getvalue())  # type: ignore[attr-defined]
        self.heights.append(text.count("\n") + 1)
        self.screens.append(text)

    def input(self, prompt: Any = "", **_kw: Any) -> str:
        self.screen_done(str(prompt))
        return ""  # Enter: at a pause, and to leave the end prompt


def scripted_session(session: Session[Any, Any], seed: int) -> None:
    """Let ``session``'s humans choose as a greedy bot would, without typing: each screen is
    drawn as for a person, and the prompt answered with the bot's legal choice."""
    game_id = session.game.info.id
    kind = {"fist": "greedy", "farkle": "cautious"}.get(game_id, "random")
    stand_ins = {s: make_bot(game_id, kind, random.Random(seed_for(seed, 9, s)))
                 for s in session.humans}
    asking: list[int] = []
    ask_human: Callable[[int], Any] = session.ask_human
    console = session.console
    assert isinstance(console, ScreenConsole)

    def ask(seat: int) -> Any:
        asking.append(seat)
        return ask_human(seat)

    def read_command(prompt: str, parse: Callable[[str], Any], **_kw: Any) -> Any:
        console.screen_done(prompt)
        seat = asking[-1]
        legal = session.state.legal_actions(seat)
        return stand_ins[seat].choose(session.state.view(seat), list(legal))

    session.echo = False  # as at a terminal: what is typed stays on the prompt's row
    session.ask_human = ask  # type: ignore[method-assign]
    session.read_command = read_command  # type: ignore[method-assign]


def play(game_id: str, kinds: Sequence[str], seed: int, lang: str = "en",
         options: dict[str, Any] | None = None) -> ScreenConsole:
    from dragonlair.cli.session import make_bots

    console = ScreenConsole()
    game = make_game(game_id, {**(options or {}),
                               **({"players": len(kinds)} if game_id != "master" else {})})
    sessions: dict[str, Any] = {"fist": FistSession, "master": MasterSession,
                                "farkle": FarkleSession}
    session = sessions[game_id](game, list(kinds), make_bots(game_id, list(kinds), seed), seed,
                                lang, console, None)
    scripted_session(session, seed)
    assert session.run() == 0
    return console


TABLES: list[Any] = [
    ("fist", ["human", "greedy", "greedy"], 1, "en", {"max_turns": 2}),
    pytest.param("fist", ["human", "greedy", "greedy"], 1, "en", {}, marks=pytest.mark.slow),
    pytest.param("fist", ["human", "greedy", "random", "greedy", "random", "greedy"], 2, "de",
                 {}, marks=pytest.mark.slow),
    ("master", ["human", "random"], 3, "en", {}),
    ("master", ["human", "random"], 4, "de", {"match": True}),
    ("farkle", ["human", "cautious"], 5, "en", {"max_turns": 6}),
    pytest.param("farkle", ["human", "cautious"], 5, "en", {}, marks=pytest.mark.slow),
    pytest.param("farkle", ["human", "cautious", "random", "cautious"], 6, "de", {},
                 marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("game", "kinds", "seed", "lang", "options"), TABLES)
def test_every_screen_of_a_scripted_game_fits_80_by_24(game: str, kinds: list[str], seed: int,
                                                       lang: str,
                                                       options: dict[str, Any]) -> None:
    console = play(game, kinds, seed, lang, options)
    assert len(console.heights) > 3
    tallest = max(range(len(console.heights)), key=lambda i: console.heights[i])
    print(f"{game} {len(kinds)} players, {lang}: {len(console.heights)} screens, "
          f"the tallest {console.heights[tallest]} rows")
    assert console.heights[tallest] <= HEIGHT, console.screens[tallest]
