"""Formatting shared by the games' tips pages."""

from __future__ import annotations


def pct(x: float) -> str:
    """A rate as a whole percentage."""
    return f"{x * 100:.0f}%"
