"""The load generator of ``dragonlair bench --server`` (bench/server_load.py) works end to end:
a few tables, a low rate, every action delivered to every connection, no error. (Its figures
are the benchmark's business: no timing is asserted here.)"""

from __future__ import annotations

import pytest

from dragonlair.server import loadgen


@pytest.mark.slow  # a server process and seconds of load: CI runs it, a plain pytest not
def test_the_load_generator_plays_tables_without_errors() -> None:
    out = loadgen.run(tables=3, spectators=1, rates=[10.0], seconds=1.0, warmup=0.25,
                      ramp=False)
    assert out["connections"] == 9
    assert out["errors"] == 0, out["error_samples"]
    (step,) = out["steps"]
    assert step["actions"] > 0 and step["errors"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("fresh_people", [False, True])
def test_a_finished_table_is_played_again_or_replaced(fresh_people: bool) -> None:
    """A finished match's place: its players' rematch (both ask; the spectators follow), or
    with ``fresh_people`` a table two new guests open; play goes on there without errors."""
    out = loadgen.run(tables=2, spectators=1, rates=[150.0], seconds=2.0, warmup=0.25,
                      ramp=False, fresh_people=fresh_people)
    assert out["errors"] == 0, out["error_samples"]
    replaced = out["replaced"]
    assert replaced["rematches" if not fresh_people else "fresh_tables"] >= 2, replaced
    assert replaced["fresh_tables" if not fresh_people else "rematches"] == 0, replaced
    (step,) = out["steps"]  # the ones replaced while the rate was measured, of them all
    assert 1 <= step["tables_replaced"] <= sum(replaced.values()), (step, replaced)
