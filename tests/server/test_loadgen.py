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
