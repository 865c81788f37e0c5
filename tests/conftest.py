"""The test tiers (tests/sizes.py): the header names the loop sizes this run uses."""

from __future__ import annotations

from tests.sizes import TIER


def pytest_report_header() -> str:
    return (f"loop sizes: {TIER} (DRAGONLAIR_TEST_TIER; scripts/test.sh --long: release sizes)")
