"""The research examples run (with tiny arguments), and docs/research.md shows the current
observation layouts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "research"


def _run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_ismcts_vs_ours_example_runs() -> None:
    pytest.importorskip("pyspiel")
    out = _run("ismcts_vs_ours.py", "--games", "2", "--players", "3", "--max-turns", "1",
               "--simulations", "4", "--opponent", "heuristic")
    assert "OpenSpiel ISMCTS:" in out and "our heuristic, per seat:" in out
    assert out.count("game ") >= 2


@pytest.mark.slow
def test_pettingzoo_random_example_runs() -> None:
    pytest.importorskip("pettingzoo")
    out = _run("pettingzoo_random.py", "--game", "farkle", "--games", "2", "--max-turns", "3")
    assert "player_0:" in out and "SingleSeatEnv farkle" in out


def test_docs_show_the_current_layouts() -> None:
    pytest.importorskip("numpy")
    from dragonlair.games import make_game
    from dragonlair.interop.encoding import encoder_for

    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    for game_id, options in (("master", {}), ("farkle", {"players": 2}),
                             ("fist", {"players": 4})):
        table = encoder_for(make_game(game_id, options)).describe(information_state=True)
        assert table in text, f"docs/research.md: the {game_id} layout is out of date"
