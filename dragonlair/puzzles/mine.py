"""Mining puzzles from finished games (issue 27; docs/puzzles.md).

:func:`mine_record` replays a record and, before every decision of every seat (two or more
legal actions), takes that seat's view as a bot is handed it (the position without the event
log: only what the seat may know, F8, M6, D9). The game's puzzle rules (its
``dragonlair/games/<game>/puzzles.py``, declared as ``GamePlugin.puzzles``) keep what a puzzle
stores of it (:meth:`PuzzleRules.position`) and what its id hashes, without what differs
between games but not between positions (:meth:`PuzzleRules.identity`), say whether
the decision is worth analysing at all (:meth:`PuzzleRules.candidate`: Master only with few
cards left, where the analyser is exact), and judge the analyser's hint
(:meth:`PuzzleRules.judge`): a puzzle is kept only where the answer is certain (exact values)
and unique, and every other option loses at least the set margin. The stored view is exactly
the one the analyser read; the options are the proof.

A record of a workshop variant (``meta.workshop``: custom characters, decks or rules) yields
no puzzles: a puzzle must stand on the game's own rules. A server record's table
(``meta.server_table``) is named in each puzzle's source.

Determinism: the same record and settings give the same puzzles in the same order; any
sampling is seeded from the settings' seed, the record's hash and the entry's index.
:func:`mine_records` de-duplicates by :func:`~dragonlair.puzzles.model.position_id` (the first
record's puzzle is kept).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from dragonlair.analysis.hints import Hint, analyser_for
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import CHANCE, JSON
from dragonlair.core.plugin import load_path
from dragonlair.core.records import Record, parse_entry, replay
from dragonlair.puzzles.model import Option, Puzzle, position_id


@dataclass(frozen=True, slots=True)
class MineSettings:
    """What makes a decision a puzzle (docs/puzzles.md, "The criteria").

    ``master_margin``: the least win chance (a draw counts 1/2) by which the unique best
    placement must beat every other (0.15: a placement that wins at least one game in seven
    more often; smaller gaps are matters of taste, not puzzles). ``master_left``: at most this
    many cards still to place (the exact solver's reach, docs/analysis.md).
    ``farkle_soldiers``: the least expected soldiers by which the best Recruit or attack
    choice beats every other (150: a 1 and a 5 kept; at 100 half of all decisions passed,
    most of them plain). ``farkle_chance``: the defender's least win chance margin (0.10).
    ``seed``: seeds any sampling."""

    master_margin: float = 0.15
    master_left: int = 8
    farkle_soldiers: float = 150.0
    farkle_chance: float = 0.10
    seed: int = 0


@dataclass(frozen=True, slots=True)
class Judged:
    """A game's verdict on a hint that makes a puzzle."""

    question: str
    solution: tuple[str, ...]
    margin: float
    themes: tuple[str, ...]
    explanation: JSON


class PuzzleRules(Protocol):
    """A game's puzzle rules (``GamePlugin.puzzles``)."""

    def position(self, view: JSON) -> JSON:
        """The view a puzzle stores, from the bot's view (no event log): what the analyser
        reads and the terminal draws, never more than the seat's view."""
        ...

    def identity(self, view: JSON) -> JSON:
        """That view without what differs between games but not between positions (names,
        turn counts, the order of play): what the puzzle's id hashes."""
        ...

    def candidate(self, view: JSON, legal: Sequence[str], settings: MineSettings) -> bool:
        """Whether this decision may make a puzzle (before the analyser is asked)."""
        ...

    def judge(self, view: JSON, hint: Hint, settings: MineSettings) -> Judged | None:
        """The puzzle this hint makes, or None."""
        ...


class PuzzleShow(Protocol):
    """How the terminal draws a puzzle's view: ``show(console, view, names, lang)``, the
    plugin's ``terminal_puzzle`` (the game's own terminal screen)."""

    def __call__(self, console: object, view: JSON, names: Sequence[str], lang: str) -> None:
        ...


def show_for(game_id: str) -> PuzzleShow:
    from dragonlair.games import plugin

    path = plugin(game_id).terminal_puzzle
    if path is None:
        raise NoPuzzles("puzzle.no_rules", game=game_id)
    show: PuzzleShow = load_path(path)
    return show


class NoPuzzles(DragonlairError):
    """The game declares no puzzle rules."""


def rules_for(game_id: str) -> PuzzleRules:
    from dragonlair.games import plugin

    path = plugin(game_id).puzzles
    if path is None:
        raise NoPuzzles("puzzle.no_rules", game=game_id)
    rules: PuzzleRules = load_path(path)
    return rules


def record_key(record: Record) -> str:
    """A short hash of the record's JSON: its name in a puzzle's source."""
    import json

    text = json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(slots=True)
class Tally:
    """What mining saw: decisions asked, candidates analysed, puzzles kept."""

    decisions: int = 0
    analysed: int = 0
    kept: int = 0


def _rounded(x: float) -> float:
    return round(x, 9)


def mine_record(record: Record, *, settings: MineSettings = MineSettings(),
                tally: Tally | None = None, source: str | None = None) -> list[Puzzle]:
    """Every puzzle in one record, in record order (see the module docs). Raises
    :class:`~dragonlair.core.errors.RecordError` for a record that does not replay and
    :class:`NoPuzzles` for a game without puzzle rules."""
    game, _ = replay(record, check_result=False)
    rules = rules_for(game.info.id)
    if record.meta.get("workshop"):
        return []  # a workshop variant's rules: a puzzle must stand on the game's own
    server_table = record.meta.get("server_table")
    table: JSON = {"table": server_table} if server_table is not None else {}
    analyser = analyser_for(game)
    key = record_key(record)
    n = game.num_players
    moves = [(who, game.parse_action(text))
             for who, text in (parse_entry(entry, n) for entry in record.actions)]
    state = game.new_initial_state()
    out: list[Puzzle] = []
    for i, (who, action) in enumerate(moves):
        if who != CHANCE:
            legal = list(state.legal_actions(who))
            if len(legal) > 1:
                if tally is not None:
                    tally.decisions += 1
                texts = [str(a) for a in legal]
                view = rules.position(state.view(who, state.event_count))
                if rules.candidate(view, texts, settings):
                    if tally is not None:
                        tally.analysed += 1
                    hint = analyser.hint(view, legal, random.Random(f"{settings.seed}:{key}:{i}"))
                    judged = rules.judge(view, hint, settings)
                    if judged is not None:
                        out.append(_puzzle(rules, game.info.id, game.info.version, who, view, texts,
                                           hint, judged, {
                                               "record": source or key, "index": i,
                                               "played": str(action),
                                               **table}))
                        if tally is not None:
                            tally.kept += 1
        state.apply(who, action)
    return out


def difficulty(options: Sequence[Option], margin: float, played: str | None) -> float:
    """Where a new puzzle's rating starts (Glicko-2's scale; docs/puzzles.md, "Difficulty"):
    1500, plus 150 for every doubling of the options beyond two (more to choose from), plus
    up to 150 for a close call or down to 150 less for a plain one (the margin as a share of
    the spread between the best and the worst option: 0.5 is neutral), plus 200 where the
    player in the source game missed the answer or 100 less where they found it; between 800
    and 2400, whole points. An estimate: the solvers' answers rate it from there."""
    values = [o.value for o in options]
    spread = max(values) - min(values) if values else 0.0
    share = min(1.0, margin / spread) if spread > 0 else 1.0
    estimate = 1500.0 + 150.0 * math.log2(max(2, len(options)) / 2) + 300.0 * (0.5 - share)
    if played is not None:
        found = any(o.best and o.action == played for o in options)
        estimate += -100.0 if found else 200.0
    return float(round(min(2400.0, max(800.0, estimate))))


def _puzzle(rules: PuzzleRules, game: str, version: int, seat: int, view: JSON,
            legal: list[str], hint: Hint, judged: Judged, source: JSON) -> Puzzle:
    options = tuple(Option(o.action, _rounded(o.value if o.value is not None else 0.0),
                           o.action in judged.solution) for o in hint.options)
    played = source.get("played")
    return Puzzle(id=position_id(game, version, seat, rules.identity(view)), game=game,
                  game_version=version,
                  seat=seat, view=view, legal=tuple(legal), question=judged.question,
                  solution=judged.solution, unit=hint.unit, options=options,
                  margin=_rounded(judged.margin), themes=judged.themes,
                  explanation=judged.explanation, source=source,
                  difficulty=difficulty(options, judged.margin,
                                        played if isinstance(played, str) else None))


def load_records(paths: Iterable[Path]) -> list[tuple[str, Record]]:
    """Every record in the files and folders (``*.json`` inside) given, with its name."""
    out: list[tuple[str, Record]] = []
    for path in paths:
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        out.extend((f.name, Record.load(f)) for f in files)
    return out


def mine_records(records: Iterable[Record | Path], *, settings: MineSettings = MineSettings(),
                 tally: Tally | None = None,
                 on_error: Callable[[str, DragonlairError], None] | None = None
                 ) -> list[Puzzle]:
    """The puzzles of many records (paths or records), de-duplicated by their id (the first
    kept), in the order met. A record that cannot be read or replayed is told to
    ``on_error`` (its name and the error) and skipped; without ``on_error`` it raises."""
    seen: set[str] = set()
    out: list[Puzzle] = []
    for item in records:
        name = str(item) if isinstance(item, Path) else None
        try:
            record = Record.load(item) if isinstance(item, Path) else item
            found = mine_record(record, settings=settings, tally=tally,
                                source=Path(name).name if name else None)
        except DragonlairError as exc:
            if on_error is None:
                raise
            on_error(name or "record", exc)
            continue
        for p in found:
            if p.id not in seen:
                seen.add(p.id)
                out.append(p)
    return out
