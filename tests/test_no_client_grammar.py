"""The grammar of action texts is the engines' alone (docs/architecture.md): outside
``dragonlair/games/`` no code writes an action's text from parts. An interface takes the
texts a view offers (``legal.actions``, ``choices``, ``moves``) or writes them with the
engine's action form (``legal.form``, :mod:`dragonlair.core.forms`); a move typed with a
seat is matched against the view's structures (:mod:`dragonlair.cli.session`).

The check is an AST scan: a string built from an engine's verb and something computed,
``f"place {card} {cell}"``, ``"bid f" + str(n)``, ``"silver {}".format(n)``, ``"pay %s" %
s`` or ``" ".join(["skirmish", seat])``, is flagged; the verbs are the first words of every
action of every registered game, read from the engines themselves. Action texts are written
in lower-case letters, digits, spaces and dashes: a message that begins with such a word in
another case (``"Place a card"``), without a space after it (``"placed"``) or with other
characters among its words (``f"pass ({n})"``, ``f"keep {x}: not now"``) is no action text
and passes."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from dragonlair.games import game_ids, make_game
from tests import sources

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dragonlair"
#: where the engines live: the one place action texts are written
ENGINES = PACKAGE / "games"
#: besides the package, the scripts that play games through its interfaces (a game of
#: examples/, such as examples/hoard, is an engine: its own texts are its to write)
SCRIPTS = (ROOT / "examples", ROOT / "examples" / "research", ROOT / "bench")
#: the characters action texts are written in (every engine's, and a custom card's id)
ACTION_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 -_")


@cache
def verbs() -> frozenset[str]:
    """The first word of every action of every registered game (``bid``, ``place``,
    ``skirmish``, ...), from the engines' action spaces."""
    found: set[str] = set()
    for game_id in game_ids():
        game = make_game(game_id, {})
        for i in range(game.num_distinct_actions):
            text = str(game.action_from_index(i))
            if text.split():
                found.add(text.split()[0])
    return frozenset(found)


def _action_like(value: object) -> bool:
    return isinstance(value, str) and set(value) <= ACTION_CHARS


def _verb_head(value: object, words: frozenset[str]) -> str | None:
    """The verb a string constant starts an action text with (``"place "``, ``"bid f"``):
    one of ``words`` followed by a space, in an action text's characters; else None."""
    if not isinstance(value, str) or not _action_like(value):
        return None
    head, space, _ = value.partition(" ")
    return head if space and head in words else None


def _template(value: object) -> object:
    """A ``str.format`` or ``%`` template without its placeholders."""
    if not isinstance(value, str):
        return value
    for hole in ("{}", "%s", "%d", "%r"):
        value = value.replace(hole, "")
    return "".join(ch for ch in value if ch not in "{}")


def grammar_built(source: str | ast.Module, words: frozenset[str]) -> list[str]:
    """Where ``source`` builds an action text from parts: an f-string whose first part is a
    constant starting with a verb and a space and which formats something; a verb-led
    constant on the left of ``+`` or ``%``, or whose ``.format`` is called; ``str.join``
    of a list or tuple whose first item is a verb alone. Each as ``line: verb``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source) if isinstance(source, str) else source):
        verb: str | None = None
        if isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            parts = [v.value for v in node.values if isinstance(v, ast.Constant)]
            if isinstance(first, ast.Constant) and len(parts) < len(node.values) \
                    and all(_action_like(part) for part in parts):
                verb = _verb_head(first.value, words)
        elif isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant) \
                and not isinstance(node.right, ast.Constant):
            if isinstance(node.op, ast.Add):
                verb = _verb_head(node.left.value, words)
            elif isinstance(node.op, ast.Mod):
                verb = _verb_head(_template(node.left.value), words)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Constant):
            if node.func.attr == "format":
                verb = _verb_head(_template(node.func.value.value), words)
            elif node.func.attr == "join" and node.args \
                    and isinstance(node.args[0], (ast.List, ast.Tuple)) and node.args[0].elts:
                head = node.args[0].elts[0]
                if isinstance(head, ast.Constant) and head.value in words:
                    verb = str(head.value)
        if verb is not None:
            found.append((getattr(node, "lineno", 0), verb))
    return [f"{line}: {verb}" for line, verb in sorted(set(found))]


def test_the_engines_verbs_are_read_from_the_engines() -> None:
    assert {"bid", "silver", "steal", "target", "place", "keep", "skirmish", "scare",
            "recruit"} <= verbs()


def test_the_checker_sees_action_texts_and_passes_messages() -> None:
    words = frozenset({"place", "bid", "silver", "skirmish", "keep", "pay", "target"})
    source = (
        "a = f'place {card} {cell}'\n"
        "b = f'bid f{fairy} c{common}{black}'\n"
        "c = 'silver ' + str(n)\n"
        "d = 'skirmish {}'.format(seat)\n"
        "e = 'keep %s' % dice\n"
        "f = ' '.join(['target', seat])\n"
        "def g(x):\n"
        "    return [f'pay {s}' for s in x]\n"
        # not action texts: a message, a verb without a space, no formatted part, no verb
        "h = f'Place {card} on a cell'\n"
        "i = f'bidding {n}'\n"
        "j = f'place ruby d4'\n"
        "k = f'{verb} {seat}'\n"
        "m = 'place ' + 'ruby'\n"
        "n = f'placed {card}'\n"
        "o = ' '.join(['Anna', 'Bo'])\n"
        "q = f'pass ({n})'\n"
        "r = f'keep {dice}: not now'\n"
        "s = 'keep {}: not now'.format(dice)\n"
    )
    assert grammar_built(source, words) == ["1: place", "2: bid", "3: silver", "4: skirmish",
                                            "5: keep", "6: target", "8: pay"]


def _files() -> list[Path]:
    # outside the engines, and the games' own terminal screens (games/<id>/terminal/)
    files = [p for p in sources.python_files(PACKAGE)
             if ENGINES not in p.parents or "terminal" in p.relative_to(ENGINES).parts[1:2]]
    for folder in SCRIPTS:
        files += sorted(folder.glob("*.py"))
    return files


def test_no_interface_writes_an_action_text() -> None:
    """Outside the engines, no code builds an action text from an engine's verb: the CLI,
    the server, the client, the load generator and the scripts take the engines' texts
    from the views (or their forms)."""
    files = _files()
    assert any(p.parts[-3:] == ("fist", "terminal", "play.py") for p in files)
    bad = []
    for path in files:
        hits = grammar_built(sources.tree(path), verbs())
        bad += [f"{path.relative_to(ROOT)}:{hit}" for hit in hits]
    assert bad == []


@pytest.mark.parametrize("path", ["cli/session.py", "games/fist/terminal/play.py",
                                  "games/farkle/terminal/play.py", "cli/online.py"])
def test_the_terminal_writes_no_engine_seat_word(path: str) -> None:
    """A seat typed by a player is matched against the view's structures: the terminal
    never writes an engine's seat word (``p1``: ``f"p{seat}"``) into a move."""
    tree = sources.tree(PACKAGE / path)
    written = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
               and len(node.values) == 2 and isinstance(node.values[0], ast.Constant)
               and node.values[0].value == "p" and isinstance(node.values[1], ast.FormattedValue)]
    assert written == []
