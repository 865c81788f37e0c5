"""Every list of games in the command line's help comes from the registry (issue "A game is
one package"): a command for some games lists the registry's games whose plugin has what it
needs (a tutorial, a tips page, a balance observer), and no help text names games by hand."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest
import typer.main

from dragonlair import games as registry
from dragonlair.cli.main import app
from tests import sources

ROOT = Path(__file__).resolve().parent.parent


def game_help(command: str) -> str:
    """The help of ``command``'s game argument, as its help screen shows it."""
    cmd = typer.main.get_command(app)
    params = cmd.commands[command].params  # type: ignore[attr-defined]
    return str(next(p for p in params if p.name == "game").help)


def listed(text: str) -> list[str]:
    return [g.strip() for g in text.rpartition(":")[2].split(",")]


@pytest.mark.parametrize(("command", "attribute"), [
    ("learn", "tutorial"), ("tips", "tips"), ("balance", "balance")])
def test_a_command_for_some_games_lists_the_registrys_games_that_have_it(
        monkeypatch: pytest.MonkeyPatch, command: str, attribute: str) -> None:
    having = [g for g in registry.game_ids() if getattr(registry.plugin(g), attribute)]
    assert len(having) >= 2 and listed(game_help(command)) == having
    real = registry.plugin
    dropped = having[0]

    def plugin(game_id: str) -> registry.GamePlugin:
        p = real(game_id)
        return replace(p, **{attribute: None}) if game_id == dropped else p

    monkeypatch.setattr(registry, "plugin", plugin)
    assert listed(game_help(command)) == having[1:]


def test_no_help_text_of_the_command_line_lists_games_by_hand() -> None:
    """No ``help=`` text and no command's docstring in ``dragonlair/cli`` names two games
    or more (a game's own screens, ``<id>_*.py``, aside)."""
    games = registry.game_ids()
    word = re.compile(r"\b(" + "|".join(map(re.escape, games)) + r")\b")
    found = []
    for path in sorted((ROOT / "dragonlair" / "cli").glob("*.py")):
        if path.name.partition("_")[0] in games:
            continue
        tree = sources.tree(path)
        texts: list[tuple[int, str]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "help":
                texts += [(c.lineno, c.value) for c in ast.walk(node.value)
                          if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            elif isinstance(node, ast.FunctionDef) and any(
                    isinstance(a, ast.Subscript) and "typer" in ast.unparse(a)
                    for a in [arg.annotation for arg in node.args.args if arg.annotation]):
                doc = ast.get_docstring(node)  # a command: its docstring is its help
                texts += [(node.lineno, doc)] if doc else []
        for line, text in texts:
            if len(set(word.findall(text))) >= 2:
                found.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert found == []
