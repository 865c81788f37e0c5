"""Game records: the save-game, the replay, the bug report and the test fixture.

A record is JSON (see docs/records.md)::

    {"format": "dragonlair-record", "format_version": 1,
     "game": "fist", "game_version": 1, "options": {...},
     "seats": [{"name": "Ann", "player": "human"}, ...],
     "actions": ["chance: stone red", "p0: bid f3 c1", ...],
     "result": {"winners": [1], "placings": [...], "reason": "...", "scores": [...]} | null}

Every entry is ``<who>: <action>`` with ``who`` = ``chance`` or ``p<seat>``; chance
outcomes are included, so a record replays without a seed and a hand-written record
can stage any card order or draw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dragonlair.core.errors import DragonlairError, RecordError, shown
from dragonlair.core.game import CHANCE, JSON, Action, Game, State, ascii_number

FORMAT = "dragonlair-record"
FORMAT_VERSION = 1


def entry_text(seat: int, action: Action) -> str:
    """One record entry: ``"p2: bid f3 c1"`` or ``"chance: card witch"``."""
    return f"{'chance' if seat == CHANCE else f'p{seat}'}: {action}"


def entries_up_to(entries: list[str], history: Sequence[tuple[int, Action]]) -> list[str]:
    """``entries``, the record entries of a prefix of ``history``, extended in place to all
    of it and returned (the engines write their record on demand, not per action)."""
    if len(entries) < len(history):
        entries.extend([entry_text(s, a) for s, a in history[len(entries):]])
    return entries


class EntryError(RecordError, ValueError):
    """A record entry that does not read ``<who>: <action>`` with ``who`` at the table (a
    :class:`RecordError`, and a :class:`ValueError` for callers that catch that)."""


def parse_entry(text: str, num_players: int) -> tuple[int, str]:
    """``(seat, action text)`` from an entry; raises :class:`EntryError` with a reason."""
    who, sep, action = text.partition(":")
    who = who.strip().lower()
    if not sep or not action.strip():
        raise EntryError("core.record.entry_form")
    if who == "chance":
        return CHANCE, action.strip()
    seat = ascii_number(who[1:]) if who.startswith("p") else None
    if seat is not None:
        if seat < num_players:
            return seat, action.strip()
        raise EntryError("core.record.entry_no_seat", who=who, players=num_players)
    if who.startswith("p") and who[1:].isascii() and who[1:].isdigit():
        raise EntryError("core.record.entry_no_seat", who=shown(who), players=num_players)
    raise EntryError("core.record.entry_who", who=shown(who))


@dataclass(slots=True)
class Record:
    """A game record (see the module docs)."""

    game: str
    game_version: int
    options: JSON
    seats: list[JSON]
    actions: list[str] = field(default_factory=list)
    result: JSON | None = None
    meta: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        out: JSON = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "game_version": self.game_version,
            "options": self.options,
            "seats": self.seats,
            "actions": self.actions,
            "result": self.result,
        }
        if self.meta:
            out["meta"] = self.meta
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def save(self, path: Path) -> None:
        path.write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Check the shape of a record; :class:`RecordError` names what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("core.record.not_an_object")
        if data.get("format") != FORMAT:
            raise RecordError("core.record.not_a_record", format=FORMAT)
        version = data.get("format_version")
        if type(version) is not int or version != FORMAT_VERSION:
            raise RecordError("core.record.format_version", version=shown(version),
                              supported=FORMAT_VERSION)
        game, gv = data.get("game"), data.get("game_version")
        if not isinstance(game, str) or type(gv) is not int:
            raise RecordError("core.record.game_field")
        options = data.get("options", {})
        seats = data.get("seats", [])
        actions = data.get("actions")
        if not isinstance(options, dict):
            raise RecordError("core.record.options_field")
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise RecordError("core.record.seats_field")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("core.record.actions_field")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("core.record.result_field")
        meta = data.get("meta", {})
        return cls(game, gv, options, seats, list(actions), result,
                   meta if isinstance(meta, dict) else {})

    @classmethod
    def loads(cls, data: str | bytes, source: str | None = None) -> Record:
        """A record from its JSON text (``bytes``: UTF-8). Whatever the text holds, the only
        error is :class:`RecordError` saying what is wrong (``source`` names the text in it:
        a file name; none: "the record")."""
        if isinstance(data, bytes | bytearray):
            try:
                text = bytes(data).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError("core.record.not_utf8", source=source,
                                  byte=exc.start) from None
        elif isinstance(data, str):
            text = data
        else:
            raise RecordError("core.record.not_text", type=type(data).__name__)
        try:
            decoded = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError("core.record.not_json", source=source, why=exc.msg,
                              line=exc.lineno, column=exc.colno) from None
        except ValueError:  # int(): a number past the interpreter's 4,300 digits
            raise RecordError("core.record.too_many_digits", source=source) from None
        except RecursionError:
            raise RecordError("core.record.too_deep", source=source) from None
        return cls.from_json(decoded)

    @classmethod
    def load(cls, path: Path) -> Record:
        """The record in the file at ``path`` (see :meth:`loads`); :class:`RecordError` if it
        cannot be read or is no record."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise RecordError("core.record.unreadable", path=str(path),
                              why=str(exc.strerror or exc)) from None
        return cls.loads(data, str(path))


def new_record(game: Game, seats: Sequence[JSON], meta: JSON | None = None) -> Record:
    return Record(game.info.id, game.info.version, game.record_options(), list(seats),
                  meta=dict(meta or {}))


def finish_record(record: Record, state: State) -> Record:
    """Fill the actions and result of ``record`` from ``state``."""
    record.actions = [entry_text(s, a) for s, a in state.history]
    outcome = state.outcome()
    record.result = outcome.to_json() if outcome else None
    return record


def replay(record: Record, *, check_result: bool = True) -> tuple[Game, State]:
    """Replay a record action by action. Raises :class:`RecordError` naming the first bad
    action (its index and why), or a result that does not match."""
    from dragonlair.core.plugin import make_game

    options = dict(record.options)
    try:
        game = make_game(record.game, options)
    except DragonlairError as exc:
        raise RecordError("core.record.options", cause=exc.to_json()) from None
    if record.game_version != game.info.version:
        raise RecordError("core.record.game_version", game=record.game,
                          version=record.game_version, plays=game.info.version)
    state = game.new_initial_state()
    for i, entry in enumerate(record.actions):
        try:
            seat, text = parse_entry(entry, game.num_players)
            action = game.parse_action(text)
            if state.is_terminal():
                raise RecordError("core.record.game_over")
            state.apply(seat, action)
        except DragonlairError as exc:
            raise RecordError("core.record.bad_action", index=i, step=i, entry=shown(entry),
                              cause=exc.to_json()) from None
        except ValueError as exc:  # a game's parser that still raises a bare ValueError
            raise RecordError("core.record.bad_action", index=i, step=i, entry=shown(entry),
                              cause=str(exc)) from None
    if check_result and record.result is not None:
        outcome = state.outcome()
        if outcome is None:
            raise RecordError("core.record.not_over", n=len(record.actions))
        got = outcome.to_json()
        # compared on what happened, never on wording: records written before reasons were
        # codes ("p0 reached 12 points") replay as they did
        for key in ("winners", "placings", "scores"):
            if key in record.result and record.result[key] != got[key]:
                raise RecordError("core.record.result_mismatch", key=key,
                                  claimed=shown(record.result[key]), got=shown(got[key]))
    return game, state
