"""The MaskablePPO recipe (examples/research/maskable_ppo_master.py, docs/research.md) at a
tiny size: it trains, the trained policy with the masks plays only legal actions, and the evaluation
plays the asked number of whole games. Needs the `rl` extra (scripts/test.sh installs it)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from tests.scripts import load_script

# imported by each test, not here: torch costs seconds per process, and the quick run, which
# deselects these, still collects this module in every worker
# the release tier (scripts/test.sh --long installs torch and the `rl` extra; CI does not)
pytestmark = pytest.mark.long


def _torch() -> Any:
    pytest.importorskip("sb3_contrib")  # a machine without the `rl` extra; --long has it
    import torch

    torch.set_num_threads(1)
    return torch


def _recipe() -> ModuleType:
    """The script as a module (examples/ is no package)."""
    return load_script("examples/research/maskable_ppo_master.py", "maskable_ppo_master")


def test_maskable_ppo_trains_and_plays_only_legal_actions() -> None:
    torch = _torch()
    recipe = _recipe()
    model = recipe.build(steps=128, seed=3)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(total_timesteps=128)
    assert model.num_timesteps >= 128
    after = list(model.policy.parameters())
    assert any(not torch.equal(b, a) for b, a in zip(before, after, strict=True)), \
        "training changed no weight"

    result = recipe.evaluate(model, games=6, seed=11)
    assert result.illegal == 0
    assert result.games == result.finished == 6
    assert result.wins + result.draws <= 6
    assert result.decisions >= 6  # a Master game asks the agent at least once
    assert 0.0 <= result.win_rate <= 1.0
    assert result.score == result.wins + result.draws / 2

    # the count is real: without the masks the same policy picks illegal actions, and each
    # ends its game there (no outcome)
    unmasked = recipe.evaluate(model, games=6, seed=11, masked=False)
    assert unmasked.games == 6 and unmasked.illegal > 0
    assert unmasked.finished == 6 - unmasked.illegal


def test_the_script_prints_both_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    _torch()
    _recipe().main(["--steps", "64", "--games", "3", "--seed", "1"])
    out = capsys.readouterr().out
    assert "before training: win rate" in out and "after training:  win rate" in out
    assert out.count("over 3 games") == 2 and "0 illegal" in out
    assert "trained 64 steps" in out
