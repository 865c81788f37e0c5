"""The sizes of the test loops, by tier: one place to read them from.

Three tiers (CONTRIBUTING.md, "Tests"):

* a plain ``pytest`` (pyproject's addopts ``-m 'not slow and not long'``): the quick checks;
* ``scripts/test.sh`` (CI, ``-m "not long"``): the ``slow`` loops too, at their CI size;
* ``scripts/test.sh --long`` (before a release, ``-m ""``): every test, and the loops at
  their release size: it sets ``DRAGONLAIR_TEST_TIER=long``, which :func:`size` reads.

A loop test takes its size from :func:`size` (``games = size(ci=150, long=1000)``), so the
same test runs at CI size by default and at release size in ``--long``; a check that has no
smaller size worth running (a regeneration compared to the digit) is marked ``long``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest

#: the type of ``pytest.param(...)`` (pytest names it only in a private module)
ParameterSet = type(pytest.param())

#: ``long``: the release sizes (scripts/test.sh --long); anything else: the CI sizes
TIER = os.environ.get("DRAGONLAIR_TEST_TIER") or "ci"
if TIER not in ("ci", "long"):
    raise RuntimeError(f"DRAGONLAIR_TEST_TIER={TIER!r}: 'ci' (the default) or 'long'")


def long_tier() -> bool:
    """Whether this run is the release run (``DRAGONLAIR_TEST_TIER=long``)."""
    return TIER == "long"


def size(ci: int, long: int) -> int:
    """A loop's size: ``long`` in the release run, ``ci`` otherwise."""
    return long if long_tier() else ci


def seconds(ci: float, long: float) -> float:
    """A time budget, as :func:`size`."""
    return long if long_tier() else ci


def quick_first(n: int, values: Sequence[Any]) -> list[Any]:
    """The parameters of a ``parametrize``, of which a plain ``pytest`` runs the first ``n``;
    the others are marked ``slow`` (CI and the release run take them all). A tuple is the
    values of several argument names, as ``parametrize`` reads it."""
    out: list[Any] = []
    for i, value in enumerate(values):
        if i < n:
            out.append(value)
        elif isinstance(value, ParameterSet):
            out.append(pytest.param(*value.values, id=value.id,
                                    marks=[*value.marks, pytest.mark.slow]))
        else:
            parts = value if isinstance(value, tuple) else (value,)
            out.append(pytest.param(*parts, marks=pytest.mark.slow))
    return out
