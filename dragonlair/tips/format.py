"""Formatting shared by the games' tips pages."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TipsTable:
    """A table of a tips page, every cell already rendered (the client draws it as is)."""

    caption: str
    columns: list[str]
    rows: list[list[str]]


def pct(x: float) -> str:
    """A rate as a whole percentage."""
    return f"{x * 100:.0f}%"


def interval(lo: float, hi: float) -> str:
    """A 95% interval of rates, as whole percentages."""
    return f"{lo * 100:.0f}–{hi * 100:.0f}%"


def share(k: int, n: int) -> float:
    """``k`` out of ``n`` as a rate rounded for the figures (0 when ``n`` is 0)."""
    return round(k / n, 4) if n else 0.0
