"""The Farkle terminal shows the next roll's dice and farkle risk as the view gives them
(``public.next_roll``, ``legal.keeps[].next_dice``/``risk``), working out no rule of its own:
a Skirmish defender's hot dice are 5 dice again (Farkle rulings D5.2), so the defender sees
the 5-dice risk (7.72 %), not the 6-dice one (2.31 %)."""

from __future__ import annotations

import io

from rich.console import Console

from dragonlair.games.farkle.state import FarkleState
from dragonlair.games.farkle.terminal.screen import describe_choice, render_screen, turn_panel
from tests.test_farkle_rules import act, skirmish_table

NAMES = ["Anna", "Ben"]


def shown(*renderables: object) -> str:
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    for r in renderables:
        console.print(r, highlight=False)
    return " ".join(console.export_text().split())


def choice(state: FarkleState, seat: int, text: str, lang: str = "en") -> str:
    view = state.view(seat)
    action = next(a for a in state.legal_actions(seat) if a.text == text)
    return shown(describe_choice(state.game, lang, action, view, NAMES))


def defender_facing_hot_dice() -> FarkleState:
    """p0 attacks p1 (D5.1) and stops; p1 defends and rolls 11155: keeping all five is hot
    dice, the defender's 5 dice again (D5.2)."""
    state = skirmish_table()
    act(state, "p0: skirmish p1", "chance: dice 122346 blank", "p0: keep 1", "p0: stop",
        "chance: dice 11155 blank")
    return state


def test_a_skirmish_defender_sees_the_five_dice_hot_dice_risk() -> None:
    state = defender_facing_hot_dice()
    line = choice(state, 1, "keep 11155")
    assert "hot dice: all 5 again (risk 7.72%)" in line, line
    assert "6" not in line.partition("hot dice")[2] and "2.31" not in line
    assert "alle 5 erneut (Risiko 7,72 %)" in choice(state, 1, "keep 11155", "de")
    act(state, "p1: keep 11155")  # hot dice: roll on or stop
    view = state.view(1)
    panel = shown(turn_panel(state.game, view, NAMES, "en"))
    assert "hot dice: all 5 come back" in panel, panel
    assert "farkle risk of the next roll (5 dice): 7.72%" in panel, panel
    roll = choice(state, 1, "roll")
    assert "hot dice: roll all 5 again (farkle risk 7.72%)" in roll, roll
    # the whole screen, as the defender sees it at 80 columns
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    render_screen(console, state.game, view, NAMES, "de", [])
    screen = " ".join(console.export_text().split())
    assert "heiße Würfel: alle 5 kommen zurück" in screen, screen
    assert "Würfel): 7,72 %" in screen and "2,31" not in screen, screen


def test_an_attackers_hot_dice_are_six_dice_on_the_screen() -> None:
    state = skirmish_table()
    act(state, "p0: skirmish p1", "chance: dice 111555 blank")
    assert "hot dice: all 6 again (risk 2.31%)" in choice(state, 0, "keep 111555")
    assert "→ 1 left to roll (risk 66.67%)" in choice(state, 0, "keep 11155")
