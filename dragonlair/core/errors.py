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


class OptionError(DragonlairError):
    """A game option or table setting is unknown or out of range."""


class RecordError(DragonlairError):
    """A game record is malformed or does not replay."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message)
