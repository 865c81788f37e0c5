"""The load generator against two processes on PostgreSQL and Redis (bench/server_load.py
``--processes 2``): the connections are spread over both servers, every action reaches every
connection (a table's two players speak to different processes), no error. (The figures are
bench/README.md's business: no timing is asserted here.)"""

from __future__ import annotations

import pytest

from dragonlair.server import loadgen


@pytest.mark.slow  # two server processes of its own and seconds of load: CI runs it
def test_the_load_generator_spreads_tables_over_two_processes(pg_url: str,
                                                              redis_url: str) -> None:
    out = loadgen.run(tables=3, spectators=1, rates=[10.0], seconds=1.0, warmup=0.25,
                      ramp=False, processes=2,
                      server_args=["--db", pg_url, "--redis", redis_url])
    assert out["servers"] == 2 and out["connections"] == 9
    assert out["errors"] == 0, out["error_samples"]
    (step,) = out["steps"]
    assert step["actions"] > 0 and step["errors"] == 0
    assert step["delivery_p50_ms"] > 0  # deliveries to every viewer were measured
