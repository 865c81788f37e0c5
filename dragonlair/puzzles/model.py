"""A puzzle (issue 27): one seat's view of a position, the question, the answer and its
proof (the value of every legal option), themes and where it came from.

The format is JSON (:meth:`Puzzle.to_json` / :meth:`Puzzle.from_json`); a folder of puzzles
is one ``<id>.json`` per puzzle. The ``id`` is a hash of the game, its version, the seat and
the position as the seat sees it, so the same position met in two games is one puzzle.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

#: this format's version (``format_version`` in the JSON)
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Option:
    """One legal option: its record notation, its value in the puzzle's unit, and whether it
    solves the puzzle."""

    action: str
    value: float
    best: bool

    def to_json(self) -> JSON:
        return {"action": self.action, "value": self.value, "best": self.best}


@dataclass(frozen=True, slots=True)
class Puzzle:
    """See the module's docstring; every text is a catalogue key with its params."""

    id: str
    game: str
    game_version: int
    #: the seat to move, from 0 (records count so)
    seat: int
    #: that seat's view, exactly what it may know (F8, M6, D9): never the full state
    view: JSON
    #: the seat's legal actions in record notation, in the engine's order
    legal: tuple[str, ...]
    #: the question: a catalogue key (``puzzle.question.move``, ``.bank_or_roll``, ``.bid``...)
    question: str
    #: the answers that solve it (record notation; usually one)
    solution: tuple[str, ...]
    #: ``soldiers`` or ``win_chance`` (docs/analysis.md)
    unit: str
    #: the proof: every legal option with its value, best first
    options: tuple[Option, ...]
    #: the best value minus the best of the rest
    margin: float
    #: catalogue keys (``puzzle.theme.master.block_line``...)
    themes: tuple[str, ...]
    #: why: a catalogue key and its params
    explanation: JSON
    #: where it came from: ``record`` (its id or hash), ``index`` (the record entry), ``table``
    #: (a server table, when there is one)
    source: JSON
    #: the estimate of its difficulty on the Glicko-2 scale (where a new puzzle starts)
    difficulty: float = 1500.0
    extra: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "format": "dragonlair-puzzle", "format_version": FORMAT_VERSION,
            "id": self.id, "game": self.game, "game_version": self.game_version,
            "seat": self.seat, "view": self.view, "legal": list(self.legal),
            "question": self.question, "solution": list(self.solution), "unit": self.unit,
            "options": [o.to_json() for o in self.options], "margin": self.margin,
            "themes": list(self.themes), "explanation": self.explanation,
            "source": self.source, "difficulty": self.difficulty, "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: JSON) -> Puzzle:
        """A puzzle from its JSON; a missing or mistyped field raises ``ValueError``."""
        try:
            if data.get("format") != "dragonlair-puzzle":
                raise ValueError("not a puzzle (format is not 'dragonlair-puzzle')")
            return cls(
                id=str(data["id"]), game=str(data["game"]),
                game_version=int(data["game_version"]), seat=int(data["seat"]),
                view=dict(data["view"]), legal=tuple(str(a) for a in data["legal"]),
                question=str(data["question"]),
                solution=tuple(str(a) for a in data["solution"]), unit=str(data["unit"]),
                options=tuple(Option(str(o["action"]), float(o["value"]), bool(o["best"]))
                              for o in data["options"]),
                margin=float(data["margin"]), themes=tuple(str(t) for t in data["themes"]),
                explanation=dict(data["explanation"]), source=dict(data["source"]),
                difficulty=float(data.get("difficulty", 1500.0)),
                extra=dict(data.get("extra", {})))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"a puzzle's field is missing or malformed: {exc}") from exc


def position_id(game: str, game_version: int, seat: int, view: JSON) -> str:
    """The id of a position as one seat sees it: the same position from two games is one
    puzzle. Callers pass the view without what differs between games but not between
    positions (names, table ids, clocks)."""
    text = json.dumps([game, game_version, seat, view], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]
