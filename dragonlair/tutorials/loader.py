"""Tutorial files: one JSON document per game, named by its plugin
(:attr:`dragonlair.core.plugin.GamePlugin.tutorial`; the built-in games' lie in
``dragonlair/games/<game>/tutorial.json``), read and checked here (its shape only;
:func:`dragonlair.tutorials.runner.check_path` plays it through the engine). A malformed
file is a :class:`TutorialError` with a code that says what is wrong, never a traceback.

The document (``"format": "dragonlair-tutorial"``, ``"format_version": 1``)::

    {"game": "fist", "options": {...}, "real_options": {"max_turns": null},
     "seat": 0, "names": ["", "Ember", "Ash"],
     "terminal": "dragonlair.games.fist.terminal.play:FistSession", "title": "tutorial.fist.title",
     "steps": [{"do": ["chance: stone red", "p1: bid f2 c0"]},
               {"say": "tutorial.fist.goal"},
               {"ask": "tutorial.fist.bid", "expect": ["bid f3 c0"],
                "why": "tutorial.fist.bid.why", "hint": "tutorial.fist.bid.hint",
                "wrong": {"bid f0 c0": "tutorial.fist.bid.empty"}}]}

``real_options`` (optional) are the options of the real game the lesson stands for, laid
over ``options``: the hint at a question values the learner's position in that game (the Fist
lesson lasts one turn, ``max_turns`` 1, but teaches the game to 3 points).
``do`` entries are record entries (chance outcomes and the scripted seats' moves, docs/
records.md); ``say`` is a text to read; ``ask`` asks the learner's seat for a move:
``expect`` lists the acceptable moves (the first is the tutorial's own path), ``why`` says
why they are right (shown after another legal move), ``wrong`` gives a fitter explanation for
particular legal moves, ``hint`` is added to the engine's refusal of an illegal move.
Every text is a catalogue code (``tutorial.*``), so the tutorial reads in every language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dragonlair.core.errors import DragonlairError, shown
from dragonlair.core.i18n import has_message

FORMAT = "dragonlair-tutorial"
FORMAT_VERSION = 1


#: the browser's introduction (the terminal's, ``tutorial.ui.intro``, explains its commands)
BROWSER_INTRO = "tutorial.ui.intro.browser"
#: the learner's name on the game's screens, where third-person templates name seats ("{name}
#: holds 8 cards"): a name, not "You"; both introductions say it (their ``{name}``)
LEARNER = "tutorial.ui.learner"
#: the suffix of a text's browser wording
BROWSER = ".browser"


def browser_code(code: str) -> str:
    """The code of ``code``'s wording in the browser: ``<code>.browser`` where the catalogue
    has one (a text about typing a command at the terminal: the browser has buttons and
    steppers instead), else ``code`` itself. The texts that name a move name it in words,
    in every interface; the terminal adds the command to type (``tutorial.ui.type``)."""
    return code + BROWSER if has_message(code + BROWSER, "en") else code


class TutorialError(DragonlairError):
    """A tutorial file that cannot be used (codes ``tutorial.file.*``)."""


@dataclass(frozen=True, slots=True)
class DoStep:
    """Scripted record entries, applied without asking anyone."""

    entries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SayStep:
    """A text to read before going on."""

    text: str


@dataclass(frozen=True, slots=True)
class AskStep:
    """A move asked of the learner: ``expect`` (canonical action texts; the first is the
    path the tutorial follows), why that is right, and the hint for an illegal move."""

    text: str
    expect: tuple[str, ...]
    why: str
    hint: str
    wrong: Mapping[str, str] = field(default_factory=dict)


Step = DoStep | SayStep | AskStep


@dataclass(frozen=True, slots=True)
class Tutorial:
    """One game's tutorial, as read from its file."""

    game: str
    options: Mapping[str, Any]
    seat: int
    names: tuple[str, ...]
    terminal: str
    title: str
    steps: tuple[Step, ...]
    #: the options of the real game the lesson stands for, over ``options`` (Fist: no turn
    #: limit): hints value the learner's position in that game (docs/tutorials.md)
    real_options: Mapping[str, Any] = field(default_factory=dict)

    def codes(self) -> list[str]:
        """Every catalogue code the tutorial shows."""
        found = [self.title]
        for step in self.steps:
            if isinstance(step, SayStep):
                found.append(step.text)
            elif isinstance(step, AskStep):
                found += [step.text, step.why, step.hint, *step.wrong.values()]
        return found

    def browser_codes(self) -> list[str]:
        """Every catalogue code the browser shows of this tutorial (its wording there)."""
        return [browser_code(c) for c in self.codes()] + [BROWSER_INTRO]

    @property
    def asks(self) -> int:
        return sum(isinstance(s, AskStep) for s in self.steps)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.startswith("tutorial."):
        raise TutorialError("tutorial.file.text", where=where, value=shown(value))
    return value


def _step(raw: Any, i: int) -> Step:
    where = f"steps[{i}]"
    if not isinstance(raw, dict):
        raise TutorialError("tutorial.file.step", where=where)
    if "do" in raw:
        entries = raw["do"]
        if not isinstance(entries, list) or not entries or not all(
                isinstance(e, str) for e in entries):
            raise TutorialError("tutorial.file.entries", where=where)
        return DoStep(tuple(entries))
    if "say" in raw:
        return SayStep(_text(raw["say"], where))
    if "ask" in raw:
        expect = raw.get("expect")
        if not isinstance(expect, list) or not expect or not all(
                isinstance(e, str) for e in expect):
            raise TutorialError("tutorial.file.expect", where=where)
        wrong = raw.get("wrong", {})
        if not isinstance(wrong, dict):
            raise TutorialError("tutorial.file.step", where=where)
        return AskStep(_text(raw["ask"], where), tuple(expect), _text(raw.get("why"), where),
                       _text(raw.get("hint"), where),
                       {str(k): _text(v, where) for k, v in wrong.items()})
    raise TutorialError("tutorial.file.step", where=where)


def parse_tutorial(data: Any) -> Tutorial:
    """A tutorial from its decoded JSON; :class:`TutorialError` names what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TutorialError("tutorial.file.not_a_tutorial", format=FORMAT)
    if data.get("format_version") != FORMAT_VERSION:
        raise TutorialError("tutorial.file.version", version=shown(data.get("format_version")),
                            supported=FORMAT_VERSION)
    game, options, seat = data.get("game"), data.get("options"), data.get("seat")
    names, terminal, steps = data.get("names"), data.get("terminal"), data.get("steps")
    if not isinstance(game, str) or not isinstance(options, dict):
        raise TutorialError("tutorial.file.game")
    if type(seat) is not int or not isinstance(names, list) or not all(
            isinstance(n, str) for n in names) or not 0 <= seat < len(names):
        raise TutorialError("tutorial.file.seats")
    if not isinstance(terminal, str) or ":" not in terminal:
        raise TutorialError("tutorial.file.terminal")
    if not isinstance(steps, list) or not steps:
        raise TutorialError("tutorial.file.steps")
    real = data.get("real_options", {})
    if not isinstance(real, dict):
        raise TutorialError("tutorial.file.game")
    parsed = tuple(_step(raw, i) for i, raw in enumerate(steps))
    return Tutorial(game, dict(options), seat, tuple(names), terminal,
                    _text(data.get("title"), "title"), parsed, dict(real))


def tutorial_file(game: str) -> Path | None:
    """The tutorial file of ``game``, as its plugin names it (``package:file``), or None for
    a game without a tutorial (or no game)."""
    from importlib import resources

    from dragonlair.games import game_ids, plugin

    ref = plugin(game).tutorial if game in game_ids() else None
    if ref is None:
        return None
    package, _, name = ref.partition(":")
    return Path(str(resources.files(package) / name))


def load_tutorial(source: str | Path) -> Tutorial:
    """The tutorial of a game id (``"fist"``) or in a file; :class:`TutorialError` if there
    is none or it is malformed."""
    if isinstance(source, Path) or source.endswith(".json"):
        path = Path(source)
    else:
        path = tutorial_file(source) or Path(f"{source}.json")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TutorialError("tutorial.file.missing", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TutorialError("tutorial.file.unreadable", path=str(path),
                            why=str(getattr(exc, "strerror", None) or exc)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TutorialError("tutorial.file.not_json", path=str(path), why=exc.msg,
                            line=exc.lineno, column=exc.colno) from None
    return parse_tutorial(data)


def available() -> list[str]:
    """The registry's games that have a tutorial (their plugin's ``tutorial``), sorted."""
    from dragonlair.games import game_ids, plugin

    return [g for g in game_ids() if plugin(g).tutorial is not None]
