"""Interactive terminal play: humans and bots at one table, hot-seat when several humans.

The program is the game master: it holds the state, draws chance with its own
seeded ``random.Random``, and shows each human only their own view (F8). Bots are
asked as the driver asks them (``choose(view, legal)``), every seat of a sealed bid
choosing from the same position, so an all-bot table plays exactly the game that
``dragonlair simulate`` plays for the same seed.
"""

from __future__ import annotations

import random
import re
import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from dragonlair.bots import Bot, make_bot
from dragonlair.cli.fist_screen import (
    Narrator,
    describe_action,
    render_help,
    render_table,
    result_lines,
)
from dragonlair.cli.i18n import tr
from dragonlair.core.driver import seed_for
from dragonlair.core.errors import DragonlairError, OptionError
from dragonlair.core.game import CHANCE, JSON
from dragonlair.core.records import Record, finish_record, new_record
from dragonlair.games import make_game
from dragonlair.games.fist.actions import FistAction, Kind
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState

HUMAN = "human"
DEFAULT_BOT = "greedy"
DEFAULT_PLAYERS = 4
#: an all-bot table that has not ended after this many actions is stopped
MAX_ACTIONS = 200_000

HELP_WORDS = {"?", "help", "hilfe", "h"}
LOG_WORDS = {"log", "verlauf"}
QUIT_WORDS = {"quit", "exit", "beenden", "ende"}
PASS_WORDS = {"pass", "passe", "nothing", "nichts", "empty", "leer", "-"}
FAIRY_WORDS = {"f", "fairy", "fee", "feen", "feengold"}
COMMON_WORDS = {"c", "common", "g", "gemein", "gemeingold"}
SILVER_WORDS = {"s", "silver", "silber"}
BLACK_WORDS = {"black", "b", "k", "schwarz", "curse", "fluch"}
AMULET_WORDS = {"amulet", "a", "amulett", "m"}
_WORD_NUM = re.compile(r"^([a-zäöü]+)(\d+)$|^(\d+)([a-zäöü]+)$")


class InputProblem(Exception):
    """What a human typed cannot be used; the message says why (in the UI language)."""


class QuitGame(Exception):
    """The human typed quit."""


@dataclass(slots=True)
class BidParts:
    """A bid as typed: Fairy, Common, Black, Amulet (auctions) or Silver, Amulet (tie-breaks)."""

    fairy: int = 0
    common: int = 0
    silver: int = 0
    black: bool = False
    amulet: bool = False
    words: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- table setup
def resolve_seats(players: int | None, seats: Sequence[str], lang: str) -> list[str]:
    """Who holds each seat: ``"human"`` or a bot name. Raises :class:`OptionError`."""
    kinds = [s.strip() for s in seats]
    if kinds:
        if players is not None and players != len(kinds):
            raise OptionError(tr(lang, "err_mismatch", players=players, seats=len(kinds)))
        n = len(kinds)
    else:
        n = DEFAULT_PLAYERS if players is None else players
    if not 3 <= n <= 6:
        raise OptionError(tr(lang, "err_players", n=n))
    if not kinds:
        kinds = [HUMAN] + [DEFAULT_BOT] * (n - 1)
    return [HUMAN if k.lower() == HUMAN else k for k in kinds]


def parse_bid_words(text: str, lang: str, *, tiebreak: bool) -> BidParts:
    """Friendly bid forms: ``3``, ``3 1``, ``f3 c1 black amulet``, ``3 fairy``, ``0``,
    ``pass``; in a tie-break ``2``, ``2 amulet``, ``s2``. The canonical forms (``bid f3 c1``,
    ``silver 2``) are read by the engine instead."""
    parts = BidParts()
    numbers: list[int] = []
    for word in text.lower().replace(",", " ").replace("+", " ").split():
        if word in PASS_WORDS:
            continue
        if word.isdigit():
            numbers.append(int(word))
            continue
        m = _WORD_NUM.match(word)
        if m:
            letters, amount = (m[1], int(m[2])) if m[1] else (m[4], int(m[3]))
        elif word in FAIRY_WORDS | COMMON_WORDS | SILVER_WORDS and numbers:
            letters, amount = word, numbers.pop()
        elif word in BLACK_WORDS:
            parts.black = True
            continue
        elif word in AMULET_WORDS:
            parts.amulet = True
            continue
        else:
            raise InputProblem(tr(lang, "bad_word", word=word))
        if letters in FAIRY_WORDS:
            parts.fairy = amount
        elif letters in COMMON_WORDS:
            parts.common = amount
        elif letters in SILVER_WORDS:
            parts.silver = amount
        else:
            raise InputProblem(tr(lang, "bad_word", word=word))
    if tiebreak:
        if len(numbers) > 1:
            raise InputProblem(tr(lang, "too_many_silver"))
        if numbers:
            parts.silver = numbers[0]
        if parts.fairy or parts.common or parts.black:
            raise InputProblem(tr(lang, "only_silver"))
    else:
        if len(numbers) > 2:
            raise InputProblem(tr(lang, "too_many_numbers"))
        if numbers:
            parts.fairy = numbers[0]
        if len(numbers) > 1:
            parts.common = numbers[1]
        if parts.silver:
            raise InputProblem(tr(lang, "only_gold"))
    return parts


def check_bid(parts: BidParts, me: JSON, lang: str, *, tiebreak: bool) -> str:
    """The canonical action text of a bid the player can afford; else :class:`InputProblem`."""
    if tiebreak:
        if parts.silver > me["silver"]:
            raise InputProblem(tr(lang, "no_silver", n=me["silver"]))
    else:
        if parts.fairy > me["fairy"]:
            raise InputProblem(tr(lang, "no_fairy", n=me["fairy"]))
        if parts.common > me["common"]:
            raise InputProblem(tr(lang, "no_common", n=me["common"]))
        if parts.black and not me["black"]:
            raise InputProblem(tr(lang, "no_black"))
    if parts.amulet and not me["amulet"]:
        raise InputProblem(tr(lang, "no_amulet"))
    amulet = " amulet" if parts.amulet else ""
    if tiebreak:
        return f"silver {parts.silver}{amulet}"
    black = " black" if parts.black else ""
    return f"bid f{parts.fairy} c{parts.common}{black}{amulet}"


def bid_from_text(game: FistGame, text: str, me: JSON, legal: Sequence[FistAction], lang: str,
                  *, tiebreak: bool) -> FistAction:
    """The legal sealed bid typed as ``text`` (friendly or canonical); else
    :class:`InputProblem` with a reason."""
    words = text.lower().split()
    if not words:
        raise InputProblem(tr(lang, "empty_input"))
    if words[0] in ("bid", "silver"):
        try:
            typed = game.parse_action(text)
        except DragonlairError as exc:
            raise InputProblem(str(exc)) from None
        if typed.kind == Kind.BID:
            parts = BidParts(fairy=typed.a, common=typed.b, black=bool(typed.c),
                             amulet=bool(typed.d))
            if tiebreak:
                raise InputProblem(tr(lang, "only_silver"))
        else:
            parts = BidParts(silver=typed.a, amulet=bool(typed.b))
            if not tiebreak:
                raise InputProblem(tr(lang, "only_gold"))
    else:
        parts = parse_bid_words(text, lang, tiebreak=tiebreak)
    canon = check_bid(parts, me, lang, tiebreak=tiebreak)
    try:
        action = game.parse_action(canon)
    except DragonlairError as exc:
        raise InputProblem(str(exc)) from None
    if action not in legal:
        raise InputProblem(tr(lang, "not_legal", reason=canon))
    return action


def choice_from_text(game: FistGame, text: str, legal: Sequence[FistAction],
                     lang: str) -> FistAction:
    """A decision typed as its number in the menu or as its action text."""
    text = text.strip()
    if not text:
        raise InputProblem(tr(lang, "empty_input"))
    if text.isdigit():
        i = int(text)
        if 1 <= i <= len(legal):
            return legal[i - 1]
        raise InputProblem(tr(lang, "bad_number", n=i, max=len(legal)))
    for guess in (text, f"colour {text}", f"pick {text}", f"target {text}"):
        try:
            action = game.parse_action(guess)
        except DragonlairError:
            continue
        if action in legal:
            return action
    raise InputProblem(tr(lang, "bad_choice", text=text, max=len(legal)))


# ---------------------------------------------------------------- the session
class FistSession:
    """One game at the terminal."""

    def __init__(self, game: FistGame, kinds: Sequence[str], bots: dict[int, Bot], seed: int,
                 lang: str, console: Console, save: Path | None) -> None:
        self.game = game
        self.kinds = list(kinds)
        self.bots = bots
        self.seed = seed
        self.lang = lang
        self.console = console
        self.save = save
        self.humans = [s for s, k in enumerate(kinds) if k == HUMAN]
        self.hotseat = len(self.humans) >= 2
        self.names: list[str] = []
        self.record_seats: list[JSON] = []
        for s, kind in enumerate(kinds):
            if kind != HUMAN:
                self.names.append(kind)
                self.record_seats.append({"name": kind, "player": f"bot:{kind}"})
            elif self.hotseat:
                n = self.humans.index(s) + 1
                self.names.append(tr(lang, "player_n", n=n))
                self.record_seats.append({"name": f"Player {n}", "player": HUMAN})
            else:
                self.names.append(tr(lang, "you"))
                self.record_seats.append({"name": "You", "player": HUMAN})
        self.narrators: dict[int | None, Narrator] = {}
        self.notices: dict[int, list[str]] = {s: [] for s in self.humans}
        self.last_looker: int | None = None
        self.rng = random.Random(seed_for(seed, 0))
        self.state: FistState = game.new_initial_state()
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
        player's coins."""
        if self.console.is_terminal:
            self.console.clear()
            if self.hotseat:
                self.console.file.write("\x1b[3J")
                self.console.file.flush()
        else:
            self.console.print("\n")

    def read(self, prompt: str) -> str:
        """One line of input; EOFError and KeyboardInterrupt go up to :meth:`run`."""
        line = self.console.input(prompt)
        if self.echo:
            self.console.print(Text(line), highlight=False)
        return line.strip()

    def narrator(self, viewer: int | None) -> Narrator:
        if viewer not in self.narrators:
            self.narrators[viewer] = Narrator(self.game, self.lang, self.names, viewer)
        return self.narrators[viewer]

    # -------------------------------------------------------------- the game
    def run(self) -> int:
        lang = self.lang
        self.say(tr(lang, "seed", seed=self.seed))
        self.say(escape(tr(lang, "seats_line", seats=", ".join(
            f"p{s} {n}" for s, n in enumerate(self.names)))))
        record = new_record(self.game, self.record_seats, {"seed": self.seed})
        try:
            finished = self.loop()
        except (EOFError, KeyboardInterrupt, QuitGame):
            self.console.print()
            self.say(f"[bold red]{tr(lang, 'abandoned')}[/]")
            self.write_record(record)
            return 1
        if not finished:
            self.say(f"[bold red]{tr(lang, 'stopped', n=len(self.state.history))}[/]")
            self.write_record(record)
            return 1
        self.show_end()
        return 0 if self.write_record(record) else 1

    def loop(self) -> bool:
        """Play to the end; False if an all-bot table ran past :data:`MAX_ACTIONS`."""
        state = self.state
        for _ in range(MAX_ACTIONS):
            seats = state.current_seats()
            if not seats:
                return True
            if seats[0] == CHANCE:
                drawn = state.sample_chance(self.rng)
                assert isinstance(drawn, FistAction)
                state.apply(CHANCE, drawn)
                continue
            # a sealed simultaneous move: every seat chooses from the same position
            choices: list[tuple[int, FistAction]] = []
            for seat in seats:
                if seat in self.bots:
                    chosen = self.bots[seat].choose(state.view(seat), state.legal_actions(seat))
                    assert isinstance(chosen, FistAction)
                else:
                    chosen = self.ask_human(seat)
                choices.append((seat, chosen))
            for seat, action in choices:
                state.apply(seat, action)
        return state.is_terminal()

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

    def show_end(self) -> None:
        lang = self.lang
        state = self.state
        if not self.humans:
            public = state.view(None)
            narrator = self.narrator(None)
            narrator.feed(public["history"])
            self.console.rule(f"[bold]{tr(lang, 'log_title')}[/]")
            for line in narrator.lines:
                self.say(line)
            self.console.rule(f"[bold]{tr(lang, 'final_table')}[/]")
            render_table(self.console, self.game, public, self.names, lang, [], events_shown=0)
        else:
            if self.hotseat:
                self.clear()
            # one human sees their own final screen; at a hot-seat table nobody's coins
            viewer = None if self.hotseat else self.humans[0]
            view = state.view(viewer)
            narrator = self.narrator(viewer)
            narrator.feed(view["history"])
            render_table(self.console, self.game, view, self.names, lang, narrator.lines,
                         seed=self.seed)
        self.console.rule(f"[bold]{tr(lang, 'result_head')}[/]")
        for line in result_lines(state.view(None), self.names, lang, state.turn_count()):
            self.say(line)

    # -------------------------------------------------------------- a human's turn
    def ask_human(self, seat: int) -> FistAction:
        state = self.state
        lang = self.lang
        view = state.view(seat)
        legal = state.legal_actions(seat)
        narrator = self.narrator(seat)
        narrator.feed(view["history"])
        if len(legal) == 1:  # nothing to decide: say so on this player's next screen
            what = describe_action(self.game, lang, legal[0], decision=view["decision"],
                                   power_card=narrator.power_card, view=view, names=self.names)
            self.notices[seat].append(tr(lang, "forced", what=what))
            return legal[0]
        if self.hotseat and self.last_looker != seat:
            self.clear()
            self.read(tr(lang, "pause", seat=seat, name=escape(self.names[seat])) + " ")
            self.clear()
            self.last_looker = seat
        elif self.console.is_terminal:
            self.clear()
        render_table(self.console, self.game, view, self.names, lang, narrator.lines,
                     seed=self.seed)
        for notice in self.notices[seat]:
            self.say(f"[cyan]{notice}[/]")
        self.notices[seat].clear()
        action = self.prompt(seat, view, legal, narrator)
        if self.hotseat:
            self.clear()
        return action

    def prompt(self, seat: int, view: JSON, legal: Sequence[FistAction],
               narrator: Narrator) -> FistAction:
        lang = self.lang
        phase = view["phase"]
        tiebreak = phase == "tiebid"
        if phase in ("bid", "tiebid"):
            self.bid_header(seat, view, tiebreak)
            ask = tr(lang, "silver_prompt" if tiebreak else "bid_prompt")
        else:
            self.menu(seat, view, legal, narrator)
            ask = tr(lang, "decide_prompt")
        while True:
            text = self.read(ask)
            word = text.lower()
            if word in HELP_WORDS:
                render_help(self.console, self.game, lang)
                if phase in ("bid", "tiebid"):
                    self.bid_header(seat, view, tiebreak)
                else:
                    self.menu(seat, view, legal, narrator)
                continue
            if word in LOG_WORDS:
                self.console.rule(f"[bold]{tr(lang, 'log_title')}[/]")
                for line in narrator.lines:
                    self.say(line)
                continue
            if word in QUIT_WORDS:
                raise QuitGame
            try:
                if phase in ("bid", "tiebid"):
                    return bid_from_text(self.game, text, view["me"], legal, lang,
                                         tiebreak=tiebreak)
                return choice_from_text(self.game, text, legal, lang)
            except InputProblem as problem:
                self.say(f"[bold red]{escape(str(problem))}[/] {tr(lang, 'try_again')}")

    def bid_header(self, seat: int, view: JSON, tiebreak: bool) -> None:
        lang = self.lang
        me = view["me"]
        card = escape(self.game.card(view["card"]).name(lang))
        name = escape(self.names[seat])
        if tiebreak:
            seats = ", ".join(f"p{s}" for s in view["tie_break"])
            head = tr(lang, "silver_head", seat=seat, name=name, card=card, seats=seats)
            self.say(f"[bold]{head}[/]")
            extra = tr(lang, "silver_can_amulet") if me["amulet"] else ""
            self.say(tr(lang, "silver_can", silver=me["silver"], extra=extra))
            self.say(tr(lang, "silver_examples"))
            return
        self.say(f"[bold]{tr(lang, 'bid_head', seat=seat, name=name, card=card)}[/]")
        extra = (tr(lang, "bid_can_black") if me["black"] else "") + (
            tr(lang, "bid_can_amulet") if me["amulet"] else "")
        self.say(tr(lang, "bid_can", fairy=me["fairy"], common=me["common"], extra=extra))
        self.say(tr(lang, "bid_examples"))

    def menu(self, seat: int, view: JSON, legal: Sequence[FistAction],
             narrator: Narrator) -> None:
        lang = self.lang
        card_id = narrator.power_card or view["card"]
        card = escape(self.game.card(card_id).name(lang)) if card_id else "?"
        name = escape(self.names[seat])
        self.say(f"[bold]{tr(lang, 'decide_head', seat=seat, name=name, card=card)}[/]")
        width = len(str(len(legal)))
        for i, action in enumerate(legal, 1):
            what = describe_action(self.game, lang, action, decision=view["decision"],
                                   power_card=narrator.power_card, view=view, names=self.names)
            self.say(f"  [bold]{i:>{width}}[/]. {what}  [dim]({escape(str(action))})[/]")


def run_play(game_id: str, *, players: int | None, seats: list[str], seed: int | None,
             lang: str, options: dict[str, Any], save: Path | None, console: Console) -> int:
    """Play one game in the terminal; returns the exit code (0: finished, 1: abandoned).

    Bad table settings raise :class:`OptionError` with a one-line reason."""
    if game_id != "fist":
        raise OptionError(tr(lang, "err_game", game=game_id))
    kinds = resolve_seats(players, seats, lang)
    game = make_game(game_id, {**options, "players": len(kinds)})
    assert isinstance(game, FistGame)
    if seed is None:
        seed = secrets.randbelow(2**31)
    bots: dict[int, Bot] = {}
    for s, kind in enumerate(kinds):
        if kind != HUMAN:
            bots[s] = make_bot(game_id, kind, random.Random(seed_for(seed, 0, s + 1)))
    return FistSession(game, kinds, bots, seed, lang, console, save).run()
