"""Errors a person can read. Each names what was wrong and, where a rule forbids it, the rule."""

from __future__ import annotations


class DragonlairError(Exception):
    """Base of every error raised for bad input (never for a bug)."""


class MalformedActionError(DragonlairError):
    """The text of an action does not parse as any action of the game."""


class IllegalActionError(DragonlairError):
    """A well-formed action that the rules forbid now.

    ``rule`` names the ruling section (e.g. ``"F5.1"``) that forbids it.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} (rule {rule})" if rule else message)


class SeatError(IllegalActionError):
    """A seat that is not at the table, or no seat number at all (``view(99)``, ``True``)."""


class OptionError(DragonlairError):
    """A game option or table setting is unknown or out of range."""


class RecordError(DragonlairError):
    """A game record is malformed or does not replay."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message)


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for a message, cut to about ``limit`` characters: what a person typed
    or a file held may be arbitrarily long."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 18:
        return f"a {value.bit_length()}-bit number"  # repr() of a huge int may refuse
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__: name the type instead
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[:limit - 5]}...{text[-2:]}"
