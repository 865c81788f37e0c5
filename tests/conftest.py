"""The test tiers (tests/sizes.py): the header names the loop sizes this run uses."""

from __future__ import annotations

import gc
from typing import Any

from tests.sizes import TIER


def pytest_report_header() -> str:
    return (f"loop sizes: {TIER} (DRAGONLAIR_TEST_TIER; scripts/test.sh --long: release sizes)")


def _build_once() -> None:
    """typer's ``CliRunner.invoke`` builds the whole click command tree from the typer app on
    every call (signatures read with ``eval_str``, every option made anew): about a tenth of a
    plain run's CPU. The apps are built at import and never changed afterwards, so the tests
    build each once; ``dragonlair`` itself builds it once per process anyway."""
    import typer.main
    import typer.testing

    built: dict[int, tuple[typer.Typer, Any]] = {}
    build = typer.main.get_command

    def get_command(app: typer.Typer) -> Any:
        key = id(app)
        if key not in built or built[key][0] is not app:
            built[key] = (app, build(app))
        return built[key][1]

    typer.testing._get_command = get_command  # type: ignore[attr-defined]


_build_once()


def pytest_collection_finish(session: object) -> None:
    """What the run has built by now (the libraries, the test modules, their tables) lives to
    the end: frozen, the collector skips it. Its full passes over a heap of half a million
    objects took about a tenth of a plain run, and as long again when each worker exited."""
    gc.collect()
    gc.freeze()


def pytest_sessionfinish(session: object) -> None:
    gc.freeze()  # nothing left to collect that matters: the worker exits without a full pass
