"""Errors as data: a stable code, its params and the ruling section; a message per language.

Every error raised for bad input (never for a bug) is a :class:`DragonlairError` with a
``code`` (``fist.bid.exceeds_unspent``), JSON-ready ``params`` (seats as numbers, cards by
id) and, where a rule forbids it, the ruling section ``rule`` (``"F5.1"``). The sentence a
person reads is rendered from the message catalogues in the reader's language
(:meth:`DragonlairError.message`); ``str(err)`` is the English one. See docs/architecture.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

#: What a code looks like: ``<namespace>.<area>.<name>``, lower case.
CODE_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9_-]+)+$")
#: The code of an error still given as an English sentence (transitional; the engines use none)
TEXT_CODE = "core.text"


class DragonlairError(Exception):
    """Base of every error raised for bad input (never for a bug)."""

    code: str
    params: dict[str, Any]
    rule: str | None

    def __init__(self, code: str, /, rule: str | None = None, **params: Any) -> None:
        if not CODE_PATTERN.match(code):
            code, params = TEXT_CODE, {"text": code}
        self.code = code
        self.params = params
        self.rule = rule
        super().__init__(code)

    def message(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        """The message in ``lang`` (English where ``lang`` lacks it), with the rule."""
        from dragonlair.core.i18n import render

        text = render(self.code, self.params, lang, names)
        if self.rule:
            text += render("core.rule_suffix", {"rule": self.rule}, lang)
        return text

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params", "rule"}``: what a server sends and a client renders."""
        return {"code": self.code, "params": dict(self.params), "rule": self.rule}

    def __str__(self) -> str:
        return self.message()

    def __reduce__(self) -> tuple[Any, ...]:  # pickles with its params (worker processes)
        return (_rebuild, (type(self), self.code, self.rule, self.params,
                           getattr(self, "index", None)))


def _rebuild(cls: type[DragonlairError], code: str, rule: str | None, params: dict[str, Any],
             index: int | None) -> DragonlairError:
    err = cls.__new__(cls)
    Exception.__init__(err, code)
    err.code, err.rule, err.params = code, rule, params
    if index is not None or cls is RecordError or issubclass(cls, RecordError):
        err.index = index  # type: ignore[attr-defined]
    return err


class MalformedActionError(DragonlairError):
    """The text of an action does not parse as any action of the game."""


class IllegalActionError(DragonlairError):
    """A well-formed action that the rules forbid now; ``rule`` names the ruling section
    (e.g. ``"F5.1"``) that forbids it."""


class SeatError(IllegalActionError):
    """A seat that is not at the table, or no seat number at all (``view(99)``, ``True``)."""


class OptionError(DragonlairError):
    """A game option or table setting is unknown or out of range."""


class RecordError(DragonlairError):
    """A game record or snapshot is malformed or does not replay; ``index``: the entry."""

    def __init__(self, code: str, /, index: int | None = None, rule: str | None = None,
                 **params: Any) -> None:
        self.index = index
        super().__init__(code, rule=rule, **params)


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
