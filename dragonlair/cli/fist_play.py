"""Fist of Dragonstones at the terminal (`dragonlair play fist`): sealed bids typed in
friendly forms, power decisions from a menu, the table told in words (F8).

The game-independent parts (the loop, hot-seat pauses, records) are in
:mod:`dragonlair.cli.session`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from dragonlair.bots import Bot
from dragonlair.cli import session
from dragonlair.cli.fist_screen import (
    EVENTS_SHOWN,
    Narrator,
    describe_action,
    render_help,
    render_table,
    result_lines,
)
from dragonlair.cli.i18n import tr
from dragonlair.cli.session import (
    InputProblem,
    Session,
    make_bots,
    pick_seed,
    plain_number,
)
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import JSON
from dragonlair.games import make_game
from dragonlair.games.fist.actions import FistAction, Kind
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState

DEFAULT_BOT = "ismcts"
DEFAULT_PLAYERS = 4

PASS_WORDS = {"pass", "passe", "nothing", "nichts", "empty", "leer", "-"}
FAIRY_WORDS = {"f", "fairy", "fee", "feen", "feengold"}
COMMON_WORDS = {"c", "common", "g", "gemein", "gemeingold"}
SILVER_WORDS = {"s", "silver", "silber"}
BLACK_WORDS = {"black", "b", "k", "schwarz", "curse", "fluch"}
AMULET_WORDS = {"amulet", "a", "amulett", "m"}
_WORD_NUM = re.compile(r"^([a-zäöü]+)([0-9]{1,6})$|^([0-9]{1,6})([a-zäöü]+)$")  # ASCII digits

__all__ = ["InputProblem", "bid_from_text", "choice_from_text", "parse_bid_words", "play_fist",
           "resolve_seats"]


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
    return session.resolve_seats(players, seats, lang, allowed=(3, 6),
                                 default_players=DEFAULT_PLAYERS, default_bot=DEFAULT_BOT,
                                 players_error="err_players")


def parse_bid_words(text: str, lang: str, *, tiebreak: bool) -> BidParts:
    """Friendly bid forms: ``3``, ``3 1``, ``f3 c1 black amulet``, ``3 fairy``, ``0``,
    ``pass``; in a tie-break ``2``, ``2 amulet``, ``s2``. The canonical forms (``bid f3 c1``,
    ``silver 2``) are read by the engine instead."""
    parts = BidParts()
    numbers: list[int] = []
    for word in text.lower().replace(",", " ").replace("+", " ").split():
        if word in PASS_WORDS:
            continue
        number = plain_number(word)
        if number is not None:
            numbers.append(number)
            continue
        m = _WORD_NUM.match(word)
        if m:
            letters, digits = (m[1], m[2]) if m[1] else (m[4], m[3])
            typed = plain_number(digits)
            if typed is None:  # too many digits to be a number of coins
                raise InputProblem(tr(lang, "bad_word", word=word))
            amount = typed
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
    i = plain_number(text)
    if i is not None:
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
class FistSession(Session[FistGame, FistState]):
    """One game of Fist of Dragonstones at the terminal."""

    def __init__(self, game: FistGame, kinds: Sequence[str], bots: dict[int, Bot], seed: int,
                 lang: str, console: Console, save: Path | None) -> None:
        super().__init__(game, game.new_initial_state(), kinds, bots, seed, lang, console, save)
        self.narrators: dict[int | None, Narrator] = {}
        self.notices: dict[int, list[str]] = {s: [] for s in self.humans}
        self.seen: dict[int, int] = {}  # log lines each human has had on a screen

    def narrator(self, viewer: int | None) -> Narrator:
        if viewer not in self.narrators:
            self.narrators[viewer] = Narrator(self.game, self.lang, self.names, viewer)
        return self.narrators[viewer]

    def summary_since(self, narrator: Narrator, seen: int) -> list[str]:
        """How the auctions since line ``seen`` ended, when more happened than the recent
        events show (e.g. while a human could only pass): else nothing."""
        if len(narrator.lines) - seen <= EVENTS_SHOWN:
            return []
        return narrator.summary(seen)

    def end_log(self) -> tuple[str, list[str]] | None:
        viewer = None if self.hotseat else self.humans[0]
        narrator = self.narrator(viewer)
        narrator.feed(self.state.view(viewer)["history"])
        return tr(self.lang, "log_title"), narrator.lines

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
            seen = min(self.seen.get(s, 0) for s in self.humans)
            render_table(self.console, self.game, view, self.names, lang, narrator.lines,
                         seed=self.seed, summary=self.summary_since(narrator, seen))
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
        self.private_screen(seat)
        seen = self.seen.get(seat, 0)
        render_table(self.console, self.game, view, self.names, lang, narrator.lines,
                     seed=self.seed, summary=self.summary_since(narrator, seen))
        self.seen[seat] = len(narrator.lines)
        for notice, n in groupby(self.notices[seat]):  # the same forced pass once, ×n
            times = len(list(n))
            self.say(f"[cyan]{notice}[/]" + (f" [cyan](×{times})[/]" if times > 1 else ""))
        self.notices[seat].clear()
        action = self.prompt(seat, view, legal, narrator)
        self.end_private_screen()
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
        def show_again() -> None:
            render_help(self.console, self.game, lang)
            if phase in ("bid", "tiebid"):
                self.bid_header(seat, view, tiebreak)
            else:
                self.menu(seat, view, legal, narrator)

        def show_log() -> None:
            self.console.rule(f"[bold]{tr(lang, 'log_title')}[/]")
            for line in narrator.lines:
                self.say(line)

        def parse(text: str) -> FistAction:
            if phase in ("bid", "tiebid"):
                return bid_from_text(self.game, text, view["me"], legal, lang,
                                     tiebreak=tiebreak)
            return choice_from_text(self.game, text, legal, lang)

        return self.read_command(ask, parse, on_help=show_again, on_log=show_log)

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


def play_fist(*, players: int | None, seats: list[str], seed: int | None, lang: str,
              options: dict[str, Any], save: Path | None, console: Console) -> int:
    """Play one game of Fist of Dragonstones; the exit code (0: finished, 1: abandoned)."""
    kinds = resolve_seats(players, seats, lang)
    game = make_game("fist", {**options, "players": len(kinds)})
    assert isinstance(game, FistGame)
    seed = pick_seed(seed)
    bots = make_bots("fist", kinds, seed)
    return FistSession(game, kinds, bots, seed, lang, console, save).run()
