"""What every game's terminal play shares: the table, the loop, the screen, the record.

The program is the game master: it holds the state, draws chance with its own seeded
``random.Random`` and shows each human only their own view (F8, M6). Bots are asked as
the driver asks them (``choose(view, legal)``), every seat of a sealed move choosing from
the same position, so an all-bot table plays exactly the game that ``dragonlair
simulate`` plays for the same seed.

A game's terminal play subclasses :class:`Session` and supplies :meth:`Session.ask_human`
(a human's turn: draw their screen, read and check their input) and
:meth:`Session.show_end`; :meth:`Session.after_apply` may tell what happened.
"""

from __future__ import annotations

import random
import re
import secrets
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from dragonlair.bots import Bot, ask_bot, make_bot
from dragonlair.cli.fit import SCREEN_ROWS, printed_rows
from dragonlair.cli.i18n import tr
from dragonlair.core.driver import seed_for
from dragonlair.core.errors import OptionError
from dragonlair.core.game import CHANCE, JSON, Action, Game, State, ascii_number
from dragonlair.core.i18n import error_message
from dragonlair.core.records import Record, finish_record, new_record
from dragonlair.core.streams import SeatViews

HUMAN = "human"


def resolve_seats(players: int | None, seats: Sequence[str], lang: str, *,
                  allowed: tuple[int, int], default_players: int, default_bot: str,
                  players_error: str) -> list[str]:
    """Who holds each seat: ``"human"`` or a bot name. Without ``--seat``, seat 0 is the
    human and the rest ``default_bot``; with it, the seats given fix the number of players.
    Raises :class:`OptionError` (``players_error`` names the message for a bad count: the
    code ``cli.<players_error>``), rendered by the caller in ``lang``."""
    kinds = [s.strip() for s in seats]
    if kinds:
        if players is not None and players != len(kinds):
            raise OptionError("cli.err_mismatch", players=players, seats=len(kinds))
        n = len(kinds)
    else:
        n = default_players if players is None else players
    if not allowed[0] <= n <= allowed[1]:
        raise OptionError(f"cli.{players_error}", n=n)
    if not kinds:
        kinds = [HUMAN] + [default_bot] * (n - 1)
    return [HUMAN if k.lower() == HUMAN else k for k in kinds]


#: the longest name ``--name`` may give (the server's display names are as long)
NAME_MAX = 40


def check_name(name: str | None, kinds: Sequence[str]) -> str | None:
    """``--name`` for the one human at the table, without control characters or surrounding
    blanks. Raises :class:`OptionError` for an empty or too long name, or for a table that
    has no human or several (a hot-seat table numbers its players)."""
    if name is None:
        return None
    clean = "".join(ch for ch in name if ch.isprintable()).strip()
    if not clean or len(clean) > NAME_MAX:
        raise OptionError("cli.err_name", most=NAME_MAX)
    humans = sum(1 for k in kinds if k == HUMAN)
    if humans != 1:
        raise OptionError("cli.err_name_seats", n=humans)
    return clean


#: an all-bot table that has not ended after this many actions is stopped
MAX_ACTIONS = 200_000

HELP_WORDS = {"?", "help", "hilfe", "h"}
LOG_WORDS = {"log", "verlauf"}
QUIT_WORDS = {"quit", "exit", "beenden", "ende"}

GameT = TypeVar("GameT", bound=Game)
A = TypeVar("A")
StateT = TypeVar("StateT", bound=State)


def plain_number(text: str) -> int | None:
    """``text`` as a whole number if it is ASCII digits only (``"12"``), else None: ``"²"``
    or ``"٣"`` pass ``str.isdigit`` but are no menu number, and ``int("²")`` fails; nor are
    more than :data:`~dragonlair.core.game.MAX_DIGITS` digits (``int()`` refuses 4,300)."""
    return ascii_number(text)


class HasJson(Protocol):
    """An error that can be sent as JSON (``{"code", "params", "rule"}``): the engine's
    :class:`~dragonlair.core.errors.DragonlairError`, the client's ``Refused``."""

    def to_json(self) -> dict[str, Any]: ...


class InputProblem(Exception):
    """What a human typed cannot be used; the message says why (in the UI language)."""


# ---------------------------------------------------------------- seats in the player's words
# The terminal names a person by their name, and numbers seats from 1 where a number is
# needed (the seat column of a table, a seat typed in a move). The engines' action texts keep
# their own seat words (``skirmish p1``: seat 1 counted from 0, what records hold); the
# terminal only shows them with the seat from 1 (``skirmish 2``) and never writes one: a move
# typed with a seat (``skirmish 2``, ``skirmish Anna``) is matched against the actions the
# view offers, each with the seat it names (Farkle's ``legal.moves``, Fist's ``choices``), or
# against the engine's own actions, and the engine's text is sent. The engine's ``p1`` is not
# read from a player: beside the numbers from 1 it would mean another seat.

#: a seat in an engine's action text: ``p1`` (seat 1, counted from 0)
ENGINE_SEAT = re.compile(r"\bp(\d+)\b")


def unique_names(names: Sequence[str]) -> list[str]:
    """The seats' names with every name that several seats share followed by the seat's
    number from 1 (``greedy``, ``greedy`` -> ``greedy #1``, ``greedy #2``), so that a name
    alone says who is meant; unique names as they are."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name.casefold()] = counts.get(name.casefold(), 0) + 1
    given = set(counts)
    out = []
    for s, name in enumerate(names):
        if counts[name.casefold()] > 1:
            numbered = f"{name} #{s + 1}"
            # a player already named "greedy #2": this seat is "greedy (#2)"
            name = f"{name} (#{s + 1})" if numbered.casefold() in given else numbered
        out.append(name)
    return out


def seat_number(seat: int) -> str:
    """A seat as the terminal numbers it: from 1 (seat 0 is ``1``)."""
    return str(seat + 1)


def seats_words(names: Sequence[str]) -> str:
    """The players in seat order, by name: ``Anna, greedy #2, greedy #3``."""
    return ", ".join(names)


def shown_action(text: str) -> str:
    """An engine's action text as the terminal shows it, its seats numbered from 1:
    ``skirmish p1`` -> ``skirmish 2``, ``steal p0 red`` -> ``steal 1 red``."""
    return ENGINE_SEAT.sub(lambda m: seat_number(int(m.group(1))), text)


def _shown_param(value: Any) -> Any:
    if isinstance(value, str):
        return shown_action(value)
    if isinstance(value, list):
        return [_shown_param(v) for v in value]
    if isinstance(value, dict) and isinstance(value.get("code"), str):  # a nested error
        params = value.get("params")
        return {**value, "params": {k: _shown_param(v) for k, v in params.items()}
                if isinstance(params, dict) else params}
    return value


def refusal_words(error: HasJson, lang: str, names: Sequence[str] | None = None) -> str:
    """An engine's (or the server's) refusal in the player's words: its code rendered in
    ``lang`` with the seats' ``names``, the engine's action texts among its params as the
    terminal shows them (``'steal 2 red' is not allowed now``: the engine's ``steal p1
    red``)."""
    data = error.to_json()
    params = data.get("params")
    shown = {k: _shown_param(v) for k, v in params.items()} if isinstance(params, dict) else {}
    return error_message({**data, "params": shown}, lang, names)


def _no_seat(word: str, names: Sequence[str], lang: str) -> InputProblem:
    return InputProblem(tr(lang, "seat_word", word=word, max=len(names),
                           names=seats_words(names)))


def typed_seat(words: Sequence[str], names: Sequence[str],
               lang: str) -> tuple[int, list[str]] | None:
    """The seat that ``words`` (what a player typed, split) start with, counted from 0, and
    the words after it: a seat's number from 1, or a seat's name (any case, names of several
    words too; the longest that fits). ``None`` when they start with no seat. A number of no
    seat, or an engine's own seat word (``p1``, which a player would mean as another seat),
    is an :class:`InputProblem` that says how to name a player."""
    if not words:
        return None
    number = plain_number(words[0])
    if number is not None:
        if not 1 <= number <= len(names):
            raise _no_seat(words[0], names, lang)
        return number - 1, list(words[1:])
    folded = [w.casefold() for w in words]
    for seat in sorted(range(len(names)), key=lambda s: -len(names[s].split())):
        name = names[seat].casefold().split()
        if name and folded[:len(name)] == name:
            return seat, list(words[len(name):])
    if ENGINE_SEAT.fullmatch(folded[0]):
        raise _no_seat(words[0], names, lang)
    return None


@dataclass(frozen=True, slots=True)
class SeatMove:
    """A move typed with a seat (``steal Bob red``): its action word, the seat it names
    (counted from 0) and the words after the seat, in lower case."""

    verb: str
    seat: int
    rest: tuple[str, ...]


def seat_move(text: str, verbs: Collection[str], names: Sequence[str],
              lang: str) -> SeatMove | None:
    """What a player typed, read as one of ``verbs`` (the action words that name a seat,
    e.g. ``skirmish``) and a seat (:func:`typed_seat`): ``skirmish 2`` and ``skirmish Bob``
    name seat 1. ``None`` for text that is no such move; an :class:`InputProblem` for a
    number of no seat or an engine's seat word after such a verb."""
    words = text.split()
    if len(words) < 2 or words[0].lower() not in verbs:
        return None
    found = typed_seat(words[1:], names, lang)
    if found is None:
        return None
    seat, rest = found
    return SeatMove(words[0].lower(), seat, tuple(w.lower() for w in rest))


#: an action as a client sees it: the engine's text and the seat it names (``None``: none)
Named = tuple[str, int | None]


def seat_action(move: SeatMove, actions: Iterable[Named]) -> str | None:
    """The engine's text, among ``actions`` (each the engine's text of an action and the
    seat it names, as a view's structures give them: Farkle's ``legal.moves``, Fist's
    ``choices``, or as :func:`named_actions` reads the engine's actions), of the action
    ``move`` is: the seat it names, and its words as the terminal shows them
    (:func:`shown_action`, the seat from 1) the ones typed. ``None``: no such action."""
    typed = [move.verb, seat_number(move.seat), *move.rest]
    for text, seat in actions:
        if seat == move.seat and shown_action(text).lower().split() == typed:
            return text
    return None


def named_actions(actions: Iterable[Action]) -> list[Named]:
    """Engine actions as (text, the seat it names): an action's ``seat`` field when it has
    one (a seat counted from 0), else ``None``."""
    out: list[Named] = []
    for action in actions:
        seat = getattr(action, "seat", None)
        out.append((str(action), seat if isinstance(seat, int) and seat >= 0 else None))
    return out


def every_action(game: Game) -> list[Action]:
    """Every action of ``game``, in index order: what a player may have meant by a move that
    is no choice now (the engine then says why it is refused)."""
    return [game.action_from_index(i) for i in range(game.num_distinct_actions)]


class QuitGame(Exception):
    """The human typed quit."""


#: the exit code of a game left with Ctrl-C (128 + SIGINT, as shells report it)
INTERRUPTED = 130


def quit_code(exc: BaseException, saved: bool = True) -> int:
    """The exit code of a game left early by ``exc``: ``quit`` is no failure (0, or 1 when
    its record could not be saved), the input's end is (1), Ctrl-C is 130."""
    if isinstance(exc, KeyboardInterrupt):
        return INTERRUPTED
    if isinstance(exc, QuitGame):
        return 0 if saved else 1
    return 1


def pick_seed(seed: int | None) -> int:
    """The seed given, or a fresh one (printed at the start so the table can be replayed)."""
    return secrets.randbelow(2**31) if seed is None else seed


def make_bots(game_id: str, kinds: Sequence[str], seed: int) -> dict[int, Bot]:
    """A bot for every seat that is not ``human``, each with its own seeded stream (as
    ``dragonlair simulate`` seeds them). Unknown names raise :class:`OptionError`."""
    return {s: make_bot(game_id, kind, random.Random(seed_for(seed, 0, s + 1)))
            for s, kind in enumerate(kinds) if kind != HUMAN}


class Session(ABC, Generic[GameT, StateT]):
    """One game at the terminal."""

    def __init__(self, game: GameT, state: StateT, kinds: Sequence[str], bots: dict[int, Bot],
                 seed: int, lang: str, console: Console, save: Path | None,
                 name: str | None = None) -> None:
        self.game = game
        self.state = state
        self.kinds = list(kinds)
        self.bots = bots
        #: the bot seats' views, kept current from the events since (issue 24)
        self.bot_views = SeatViews()
        self.seed = seed
        self.lang = lang
        self.console = console
        self.save = save
        self.humans = [s for s, k in enumerate(kinds) if k == HUMAN]
        self.hotseat = len(self.humans) >= 2
        names: list[str] = []
        self.record_seats: list[JSON] = []
        for s, kind in enumerate(kinds):
            if kind != HUMAN:
                names.append(kind)
                self.record_seats.append({"name": kind, "player": f"bot:{kind}"})
            elif self.hotseat:  # numbered by seat, from 1: the number the seat tables show
                names.append(tr(lang, "player_n", n=s + 1))
                self.record_seats.append({"name": f"Player {s + 1}", "player": HUMAN})
            else:  # a name the game's third-person lines read well with ("Anna wins")
                names.append(name or tr(lang, "default_name"))
                self.record_seats.append({"name": name or "Player", "player": HUMAN})
        #: each seat's name on the screens, unique at the table (two greedy bots: "greedy #1",
        #: "greedy #2"), so a name alone says who is meant
        self.names = unique_names(names)
        self.last_looker: int | None = None
        #: rows printed since the last prompt above the next screen (the preamble)
        self.carried_rows = 0
        self.rng = random.Random(seed_for(seed, 0))
        try:
            self.echo = not sys.stdin.isatty()
        except (AttributeError, ValueError):
            self.echo = True

    # -------------------------------------------------------------- output helpers
    def say(self, markup: str) -> None:
        self.console.print(markup, highlight=False)

    def clear(self) -> None:
        """Clear the screen (a terminal), or leave some blank lines (a pipe). At a hot-seat
        table the terminal's scrollback is erased too, so nobody scrolls up to another
        player's secrets."""
        if self.console.is_terminal:
            self.console.clear()
            if self.hotseat:
                self.console.file.write("\x1b[3J")
                self.console.file.flush()
        else:
            self.console.print("\n")

    def say_preamble(self) -> None:
        """The seed and the players, once, above the first screen."""
        self.say(tr(self.lang, "seed", seed=self.seed))
        self.say(escape(tr(self.lang, "seats_line", seats=seats_words(self.names))))

    def screen_rows(self, below: Callable[[], None] | None = None, extra: int = 0) -> int:
        """The rows a screen's table may take: :data:`~dragonlair.cli.fit.SCREEN_ROWS`
        less the prompt's row, what ``below()`` prints under the table, ``extra`` rows more
        and, on the first screen, the lines printed above it."""
        rows = SCREEN_ROWS - 1 - extra - self.carried_rows - printed_rows(self.console,
                                                                          self.screen_extra)
        self.carried_rows = 0
        return rows - (printed_rows(self.console, below) if below is not None else 0)

    def screen_extra(self) -> None:
        """What is printed under every screen before its prompt, besides the game's own
        (a tutorial's step); nothing here."""

    def read(self, prompt: str) -> str:
        """One line of input; EOFError and KeyboardInterrupt go up to :meth:`run`."""
        self.carried_rows = 0
        line = self.console.input(prompt)
        if self.echo:
            self.console.print(Text(line), highlight=False)
        return line.strip()

    def read_command(self, prompt: str, parse: Callable[[str], A], *,
                     on_help: Callable[[], None], on_log: Callable[[], None]) -> A:
        """Read until ``parse`` accepts a line. ``help``/``log`` call their handlers,
        ``quit`` raises :class:`QuitGame`, and an :class:`InputProblem` is shown with a
        new prompt."""
        while True:
            text = self.read(prompt)
            word = text.lower()
            if word in HELP_WORDS:
                on_help()
            elif word in LOG_WORDS:
                on_log()
            elif word in QUIT_WORDS:
                raise QuitGame
            else:
                try:
                    return parse(text)
                except InputProblem as problem:
                    self.say(f"[bold red]{escape(str(problem))}[/] {tr(self.lang, 'try_again')}")

    def private_screen(self, seat: int, note: str | None = None) -> None:
        """Before a human's own screen: at a hot-seat table, hide the last screen and wait
        until only ``seat`` is looking (not again while the same player goes on); with one
        human, start a fresh screen in a terminal. ``note`` (markup), if given, is shown
        above the pause: why this player is asked now (e.g. to defend)."""
        if self.hotseat and self.last_looker != seat:
            self.clear()
            if note:
                self.say(note)
            self.read(tr(self.lang, "pause", name=escape(self.names[seat])) + " ")
            self.clear()
            self.last_looker = seat
        elif self.console.is_terminal:
            self.clear()

    def end_private_screen(self) -> None:
        """After a human's own screen: at a hot-seat table, take it off the screen."""
        if self.hotseat:
            self.clear()

    # -------------------------------------------------------------- the game
    def run(self) -> int:
        """Play to the end; the exit code: 0 finished, or left by ``quit`` (not a failure);
        1 the input ended mid-game, or the record could not be saved; 130 Ctrl-C."""
        lang = self.lang
        before = printed_rows(self.console, self.say_preamble)
        self.say_preamble()
        self.carried_rows = before  # on the first screen, above its table
        record = new_record(self.game, self.record_seats, {"seed": self.seed})
        try:
            finished = self.loop()
        except (EOFError, KeyboardInterrupt, QuitGame) as exc:
            self.console.print()
            self.say(f"[bold red]{tr(lang, 'abandoned')}[/]")
            saved = self.write_record(record)
            return quit_code(exc, saved)
        if not finished:
            self.say(f"[bold red]{tr(lang, 'stopped', n=len(self.state.history))}[/]")
            self.write_record(record)
            return 1
        self.show_end()
        saved = self.write_record(record)
        self.end_prompt()
        return 0 if saved else 1

    def loop(self) -> bool:
        """Play to the end; False if an all-bot table ran past :data:`MAX_ACTIONS`."""
        state = self.state
        for _ in range(MAX_ACTIONS):
            seats = state.current_seats()
            if not seats:
                return True
            if seats[0] == CHANCE:
                drawn = state.sample_chance(self.rng)
                state.apply(CHANCE, drawn)
                self.after_apply(CHANCE, drawn)
                continue
            # a sealed simultaneous move: every seat chooses from the same position
            choices: list[tuple[int, Action]] = []
            for seat in seats:
                chosen = self.bot_move(seat) if seat in self.bots else self.ask_human(seat)
                choices.append((seat, chosen))
            for seat, action in choices:
                state.apply(seat, action)
                self.after_apply(seat, action)
        return state.is_terminal()

    def bot_move(self, seat: int) -> Action:
        """The bot of ``seat``'s move; at a terminal, with a spinner while it thinks (gone
        once it has chosen)."""
        bot = self.bots[seat]
        if not (self.humans and self.console.is_terminal):
            return ask_bot(bot, self.state, seat, self.bot_views)
        words = escape(tr(self.lang, "thinking", name=self.names[seat]))
        with self.console.status(f"[dim]{words}[/]", spinner="dots"):
            return ask_bot(bot, self.state, seat, self.bot_views)

    def write_record(self, record: Record) -> bool:
        if self.save is None:
            return True
        finish_record(record, self.state)
        try:
            record.save(self.save)
        except OSError as exc:
            why = tr(self.lang, "save_failed", path=self.save, why=exc)
            self.say(f"[bold red]{escape(why)}[/]")
            return False
        self.say(escape(tr(self.lang, "saved", path=self.save)))
        return True

    # -------------------------------------------------------------- per game
    @abstractmethod
    def ask_human(self, seat: int) -> Action:
        """A human's turn: show their screen, return a legal action they typed."""

    @abstractmethod
    def show_end(self) -> None:
        """The finished game: final position and result."""

    def after_apply(self, seat: int, action: Action) -> None:
        """Called after every action (chance included); tells what happened if wanted."""

    def end_log(self) -> tuple[str, Sequence[str]] | None:
        """The whole game log a human may read again once the game is over: its title and
        its lines (markup); None: nothing to offer."""
        return None

    def end_prompt(self) -> None:
        """After the result, with a human at the table: ``log`` prints the whole game log
        (as often as asked), Enter or anything else leaves. End of input leaves too, so a
        scripted or closed stdin never hangs here."""
        log = self.end_log() if self.humans else None
        if log is None:
            return
        title, lines = log
        while True:
            try:
                word = self.read(tr(self.lang, "end_prompt")).lower()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if word not in LOG_WORDS:
                return
            self.console.rule(f"[bold]{escape(title)}[/]")
            for line in lines:
                self.say(line)
