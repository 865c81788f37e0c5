"""bench/lengths.py: the cost per action as a game grows, for every way of looking at it."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.scripts import load_script

pytest.importorskip("numpy")


def _lengths() -> ModuleType:
    return load_script("bench/lengths.py", "bench_lengths")


def test_costs_per_action_at_each_mark_for_every_way() -> None:
    lengths = _lengths()
    events, rows = lengths.costs("master", 3, (5, 30, 10_000))
    assert 40 < events < 200  # a match: a few rounds of 16 placements and their deals
    assert list(rows) == list(lengths.WAYS)
    for way, row in rows.items():
        assert row[2] is None, way  # no match reaches 10,000 events
        assert all(c is not None and 0 < c < 1e6 for c in row[:2]), way
