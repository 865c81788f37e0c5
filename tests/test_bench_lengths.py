"""bench/lengths.py: the cost per action as a game grows, for every way of looking at it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")


def _lengths() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "lengths.py"
    spec = importlib.util.spec_from_file_location("bench_lengths", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_lengths"] = module
    spec.loader.exec_module(module)
    return module


def test_costs_per_action_at_each_mark_for_every_way() -> None:
    lengths = _lengths()
    events, rows = lengths.costs("master", 3, (5, 30, 10_000))
    assert 40 < events < 200  # a match: a few rounds of 16 placements and their deals
    assert list(rows) == list(lengths.WAYS)
    for way, row in rows.items():
        assert row[2] is None, way  # no match reaches 10,000 events
        assert all(c is not None and 0 < c < 1e6 for c in row[:2]), way
