"""Fist of Dragonstones: the power primitives dispatch through tables, one handler per
primitive for each concern (issue 23, docs/architecture.md "Inside an engine").

:data:`powers.PRIMITIVES` is the one list; every :class:`powers.Table` (the engine's begins,
the snapshot's data, the text, the two bots' values) must have a handler for each of them,
so a new primitive fails here, not in a rare game.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, get_args

import pytest

import dragonlair
from dragonlair.games.fist import bots, describe, heuristic, powers_run, snapshot
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.custom import primitives
from dragonlair.games.fist.game import FistGame
from tests import sources

#: one step of every primitive
SAMPLES: tuple[pw.Step, ...] = (
    pw.Gain(common=2, stones=(1, 0, 0)),
    pw.GainStoneChoice(2),
    pw.PayStones(3, "each", 2),
    pw.Choice(pw.PayStones(4, "same", 2), pw.Gain(fairy=1)),
    pw.StealSecond(),
    pw.TakeAllFrom(silver=False),
    pw.KeepDoppelganger(),
    pw.CopyAuctioned(),
    pw.PlayUnauctioned(choose=True),
    pw.BuyStones(common=2, fairy=0),
    pw.Necromancer(2),
    pw.PayAllStones(),
    pw.PushYourLuck(),
    pw.LoseColour(),
    pw.BagDraw(3, 1),
    pw.DiscardDoppelganger(),
)
#: the tables the package keeps, by name
TABLES = {"powers_run.BEGIN": powers_run.BEGIN, "snapshot.DATA": snapshot.DATA,
          "describe.TEXT": describe.TEXT, "bots.VALUE": bots.VALUE,
          "heuristic.VALUE": heuristic.VALUE}
#: the primitives only the engine uses: no custom character has them (F9)
ENGINE_ONLY = {"keep_doppelganger", "discard_doppelganger"}


def test_the_one_list_is_the_step_union_and_names_each_primitive_once() -> None:
    assert get_args(pw.Step) == pw.PRIMITIVES
    kinds = [cls.kind for cls in pw.PRIMITIVES]
    assert len(set(kinds)) == len(kinds) == len(pw.PRIMITIVES)
    assert [type(s) for s in SAMPLES] == list(pw.PRIMITIVES)


def test_every_table_has_a_handler_for_every_primitive() -> None:
    FistGame({"players": 3})  # the engine: its powers_* modules are imported
    assert {t.name for t in pw.TABLES} >= set(TABLES)
    for table in pw.TABLES:
        assert table.missing() == [], table.name
        assert set(table.by_type) == set(pw.PRIMITIVES), table.name
        table.check()


def test_a_table_missing_a_primitive_or_holding_two_handlers_is_refused() -> None:
    table: pw.Table[Any] = pw.Table("test.partial")
    try:
        table.on(*pw.PRIMITIVES[1:])(lambda step: 0)
        assert table.missing() == ["gain"]
        with pytest.raises(TypeError, match=r"test\.partial: no handler for \['gain'\]"):
            table.check()
        with pytest.raises(TypeError, match="two handlers"):
            table.on(pw.LoseColour)(lambda step: 1)
        table.on(pw.Gain)(lambda step: 2)
        table.check()
        assert table.of(pw.Gain())(pw.Gain()) == 2
    finally:
        pw.TABLES.remove(table)


@pytest.mark.parametrize("step", SAMPLES, ids=lambda s: s.kind)
def test_each_primitive_is_written_read_back_and_described(step: pw.Step) -> None:
    data = snapshot.step_data(step)
    assert next(iter(data)) == step.kind
    assert snapshot._step_from(data) == step
    for lang in ("en", "de"):
        text = describe.describe_steps([step], lang)
        assert text and not text.startswith("fist.describe"), text


def test_custom_characters_offer_every_primitive_but_the_engines_own() -> None:
    offered = {p["name"] for p in primitives()}
    assert offered == {cls.kind for cls in pw.PRIMITIVES} - ENGINE_ONLY


def test_step_as_types_a_decisions_step() -> None:
    choice = SAMPLES[3]
    assert pw.step_as(choice, pw.Choice) is choice
    assert pw.step_as(choice, pw.PayStones) is None
    assert pw.step_as(None, pw.Choice) is None


def _isinstance_of_a_primitive(tree: ast.AST) -> list[int]:
    names = {cls.__name__ for cls in pw.PRIMITIVES}
    lines = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance" and len(node.args) == 2):
            for sub in ast.walk(node.args[1]):
                name = sub.attr if isinstance(sub, ast.Attribute) else (
                    sub.id if isinstance(sub, ast.Name) else "")
                if name in names:
                    lines.append(node.lineno)
                    break
    return lines


def test_no_module_branches_on_a_primitive_with_isinstance() -> None:
    """The tables replace the ``isinstance`` ladders: no module of the package asks which
    primitive a step is that way."""
    assert _isinstance_of_a_primitive(ast.parse("isinstance(s, (pw.Gain, int))")) == [1]
    root = Path(dragonlair.__file__).parent
    found = {}
    for path in sources.python_files(root):
        if "isinstance" not in sources.text(path):
            continue
        lines = _isinstance_of_a_primitive(sources.tree(path))
        if lines:
            found[path.relative_to(root.parent).as_posix()] = lines
    assert found == {}
