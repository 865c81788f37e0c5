"""Dragonlair: faithful engines, bots and tools for three dragon tabletop games."""

__version__ = "0.1.0"
