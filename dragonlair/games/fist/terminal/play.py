"""Fist of Dragonstones at the terminal (`dragonlair play fist`): sealed bids typed in
friendly forms, power decisions from a menu, the table told in words (F8).

The game-independent parts (the loop, hot-seat pauses, records) are in
:mod:`dragonlair.cli.session`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from dragonlair.bots import Bot
from dragonlair.cli import session
from dragonlair.cli.i18n import tr
from dragonlair.cli.session import (
    InputProblem,
    Named,
    Session,
    check_name,
    every_action,
    make_bots,
    named_actions,
    pick_seed,
    plain_number,
    refusal_words,
    seat_action,
    seat_move,
    shown_action,
    typed_seat,
)
from dragonlair.core.errors import DragonlairError, MalformedActionError, shown
from dragonlair.core.forms import form_slots, written
from dragonlair.core.game import JSON
from dragonlair.games import make_game
from dragonlair.games.fist.actions import (
    MAX_COMMON,
    MAX_FAIRY,
    MAX_SILVER,
    FistAction,
    bid_form,
    silver_form,
)
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState
from dragonlair.games.fist.terminal.screen import (
    EVENTS_SHOWN,
    EventLog,
    card_name,
    card_text,
    choice_words,
    forced_words,
    render_help,
    render_table,
    result_lines,
    ui,
)

DEFAULT_BOT = "ismcts"
DEFAULT_PLAYERS = 4

PASS_WORDS = {"pass", "passe", "nothing", "nichts", "empty", "leer", "-"}
FAIRY_WORDS = {"f", "fairy", "fee", "feen", "feengold"}
COMMON_WORDS = {"c", "common", "g", "gemein", "gemeingold"}
SILVER_WORDS = {"s", "silver", "silber"}
BLACK_WORDS = {"black", "b", "k", "schwarz", "curse", "fluch"}
AMULET_WORDS = {"amulet", "a", "amulett", "m"}
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzäöü")
_DIGITS = frozenset("0123456789")  # ASCII only: "²" or "٣" is no number of coins
#: the action words followed by a seat (typed as its number from 1, or a player's name)
SEAT_WORDS = frozenset({"steal", "target"})
#: the decisions whose choice may be typed as what it names alone: ``red`` (``colour red``),
#: ``thief`` (``pick thief``), ``2`` or ``Bob`` (``target`` that player), tried in this order
BARE_WORDS = ("colour", "pick", "target")
#: every sealed bid and every tie-break bid, as the engine writes them (its action forms,
#: :class:`~dragonlair.core.views.ActionForm`): a bid typed that the view's form does not
#: hold (more than the seat has, a Black coin it lacks) is written in these, and refused by
#: the engine with its reason
EVERY_BID = bid_form(MAX_FAIRY, MAX_COMMON, True, True)
EVERY_SILVER = silver_form(MAX_SILVER, True)


def split_word_number(word: str) -> tuple[str, str] | None:
    """``"f3"`` or ``"3f"`` as ``("f", "3")``: letters and at most 6 ASCII digits, in
    either order; else None."""
    if len(word) < 2:
        return None
    first = _DIGITS if word[0] in _DIGITS else _LETTERS
    i = 1  # the end of the first run of one kind (linear: the word may be thousands long)
    while i < len(word) and word[i] in first:
        i += 1
    head, tail = word[:i], word[i:]
    if not tail or not set(head) <= first:
        return None
    if first is _LETTERS and set(tail) <= _DIGITS and len(tail) <= 6:
        return head, tail
    if first is _DIGITS and set(tail) <= _LETTERS and len(head) <= 6:
        return tail, head
    return None

__all__ = ["InputProblem", "bid_from_text", "bid_text", "checked", "choice_from_text",
           "parse_bid_words", "play_fist", "resolve_seats", "typed_action"]


@dataclass(slots=True)
class BidParts:
    """A bid as typed: Fairy, Common, Black, Amulet (auctions) or Silver, Amulet (tie-breaks)."""

    fairy: int = 0
    common: int = 0
    silver: int = 0
    black: bool = False
    amulet: bool = False
    words: list[str] = field(default_factory=list)
    #: the text typed (what a refusal quotes)
    typed: str = ""


# ---------------------------------------------------------------- table setup
def resolve_seats(players: int | None, seats: Sequence[str], lang: str) -> list[str]:
    """Who holds each seat: ``"human"`` or a bot name. Raises :class:`OptionError`."""
    return session.resolve_seats(players, seats, lang, allowed=(3, 6),
                                 default_players=DEFAULT_PLAYERS, default_bot=DEFAULT_BOT,
                                 players_error="err_players")


def parse_bid_words(text: str, lang: str, *, tiebreak: bool) -> BidParts:
    """Friendly bid forms: ``3``, ``3 1``, ``f3 c1 black amulet``, ``3 fairy``, ``0``,
    ``pass``; in a tie-break ``2``, ``2 amulet``, ``s2``. The canonical forms (``bid f3 c1``,
    ``silver 2``) are read by the engine instead. Notation only: what the words say, not
    whether the player may bid it (:func:`bid_from_text` asks the engine)."""
    parts = BidParts(typed=text)
    numbers: list[int] = []
    for word in text.lower().replace(",", " ").replace("+", " ").split():
        if word in PASS_WORDS:
            continue
        number = plain_number(word)
        if number is not None:
            numbers.append(number)
            continue
        split = split_word_number(word)
        if split:
            letters, digits = split
            typed = plain_number(digits)
            if typed is None:  # too many digits to be a number of coins
                raise InputProblem(ui(lang, "bad_word", word=word))
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
            raise InputProblem(ui(lang, "bad_word", word=word))
        if letters in FAIRY_WORDS:
            parts.fairy = amount
        elif letters in COMMON_WORDS:
            parts.common = amount
        elif letters in SILVER_WORDS:
            parts.silver = amount
        else:
            raise InputProblem(ui(lang, "bad_word", word=word))
    if tiebreak:
        if len(numbers) > 1:
            raise InputProblem(ui(lang, "too_many_silver"))
        if numbers:
            parts.silver = numbers[0]
    else:
        if len(numbers) > 2:
            raise InputProblem(ui(lang, "too_many_numbers"))
        if numbers:
            parts.fairy = numbers[0]
        if len(numbers) > 1:
            parts.common = numbers[1]
    return parts


def bid_text(parts: BidParts, lang: str, *, tiebreak: bool, form: JSON | None = None) -> str:
    """The canonical action text of a bid typed in a friendly form, written by the engine:
    in ``form`` (the view's ``legal.form``: the bids the seat may make) when it holds the
    bid, else in the engine's form of every bid of its kind (:data:`EVERY_BID`,
    :data:`EVERY_SILVER`). Notation only: whether the player may bid it is the engine's to
    say (:func:`checked`); more than any bid can hold is refused here, with the engine's
    reason."""
    gold = parts.fairy or parts.common or parts.black
    if parts.silver and gold:
        raise InputProblem(ui(lang, "mixed_bid"))
    choice: dict[str, int | bool]
    if parts.silver or (tiebreak and not gold):
        every, choice = EVERY_SILVER, {"silver": parts.silver, "amulet": parts.amulet}
    else:
        every, choice = EVERY_BID, {"fairy": parts.fairy, "common": parts.common,
                                    "black": parts.black, "amulet": parts.amulet}
    text = written(form, choice) or written(every, choice)
    if text is not None:
        return text
    typed = shown(parts.typed)
    if "fairy" in choice:  # more gold than a bid can hold
        most = form_slots(every)
        err = MalformedActionError("fist.action.bid_too_large", text=typed,
                                   max_fairy=most["fairy"] - 1, max_common=most["common"] - 1)
    else:  # more Silver than any tie-break bid: no such action
        err = MalformedActionError("fist.action.unknown", text=typed)
    raise refusal(err, lang)


def refusal(err: DragonlairError, lang: str, names: Sequence[str] | None = None) -> InputProblem:
    """The engine's refusal, rendered from its code in ``lang`` (its action texts as the
    terminal shows them: :func:`~dragonlair.cli.session.refusal_words`)."""
    return InputProblem(refusal_words(err, lang, names))


def checked(state: FistState, seat: int, action: FistAction, lang: str,
            names: Sequence[str] | None = None) -> FistAction:
    """``action`` if the engine accepts it from ``seat`` now; else :class:`InputProblem`
    with the engine's reason (its code rendered in ``lang``). The engine is asked on a copy
    of the state: the real one moves only when every sealed bid is in."""
    trial = state.clone()
    try:
        trial.apply(seat, action)
    except DragonlairError as err:
        raise refusal(err, lang, names) from None
    return action


def bid_from_text(game: FistGame, state: FistState, seat: int, text: str, lang: str,
                  names: Sequence[str] | None = None, *, tiebreak: bool) -> FistAction:
    """The sealed bid typed as ``text`` (friendly or canonical), if the engine accepts it
    from ``seat``; else :class:`InputProblem` with the reason."""
    words = text.lower().split()
    if not words:
        raise InputProblem(tr(lang, "empty_input"))
    if words[0] in ("bid", "silver"):
        canon = text
    else:
        legal = state.view(seat, state.event_count).get("legal") or {}
        canon = bid_text(parse_bid_words(text, lang, tiebreak=tiebreak), lang,
                         tiebreak=tiebreak, form=legal.get("form"))
    try:
        action = game.parse_action(canon)
    except DragonlairError as err:
        raise refusal(err, lang, names) from None
    return checked(state, seat, action, lang, names)


def _seats(game: FistGame, names: Sequence[str] | None) -> list[str]:
    return list(names) if names is not None else [str(s + 1) for s in range(game.num_players)]


def named_choices(choices: Sequence[JSON]) -> list[Named]:
    """A view's power-decision choices (``legal.choices``) as (the engine's text, the seat
    it names: a steal's or a target's ``victim``)."""
    return [(str(c["action"]), c["params"].get("victim")) for c in choices]


def typed_text(text: str, actions: Sequence[Named], lang: str,
               names: Sequence[str]) -> str | None:
    """The engine's text, among ``actions`` (each with the seat it names: a view's choices,
    :func:`named_choices`, or the engine's actions), of what a player typed: the action as
    the menu shows it (``take``, ``steal 2 red`` or ``steal Bob red``: a seat from 1 or by
    name, :func:`~dragonlair.cli.session.seat_move`), or what a colour, a card or a target
    names alone (``red``, ``thief``, ``2`` or ``Bob``: :data:`BARE_WORDS`). ``None``: none of
    them. A seat typed as no player is an :class:`InputProblem`."""
    move = seat_move(text, SEAT_WORDS, names, lang)
    if move is not None:
        return seat_action(move, actions)
    words = text.lower().split()
    if not words:
        return None
    told = [(t, seat, shown_action(t).lower().split()) for t, seat in actions]
    for t, _, said in told:
        if said == words:
            return t
    alone: tuple[int, list[str]] | None = None
    for verb in BARE_WORDS:
        for t, seat, said in told:
            if said[0] != verb:
                continue
            if said[1:] == words:
                return t
            if seat is not None:  # a target by the player's name alone
                alone = alone or typed_seat(words, names, lang)
                if alone is not None and alone == (seat, []):
                    return t
    return None


def typed_action(game: FistGame, text: str, lang: str,
                 names: Sequence[str] | None = None) -> FistAction | None:
    """The engine's action a player typed, legal now or not (:func:`typed_text` among all
    the engine's actions, else the engine's reading of the text: ``pay yrbr``), so that the
    engine can say why it is refused; ``None`` for no action. A seat typed as no player
    (``target 4``, the engine's ``target p1``) is an :class:`InputProblem`."""
    found = typed_text(text, named_actions(every_action(game)), lang, _seats(game, names))
    try:
        action = game.parse_action(found if found is not None else text)
    except DragonlairError:
        return None
    assert isinstance(action, FistAction)
    return action


def choice_from_text(game: FistGame, text: str, legal: Sequence[FistAction], lang: str,
                     state: FistState | None = None, seat: int | None = None,
                     names: Sequence[str] | None = None,
                     choices: Sequence[JSON] | None = None) -> FistAction:
    """A decision typed as its number in the menu or as its action as the menu shows it,
    a seat by its number from 1 or the player's name (``target 2``, ``steal Bob red``, or
    the name alone for ``target``), matched against the decision's ``choices`` (the view's,
    each with the seat it names; by default ``legal``'s): the engine's text of the one
    typed is taken. An action that is not among the choices is refused with the engine's
    reason when ``state`` and ``seat`` are given (:func:`typed_action`)."""
    text = text.strip()
    if not text:
        raise InputProblem(tr(lang, "empty_input"))
    i = plain_number(text)
    if i is not None:
        if 1 <= i <= len(legal):
            return legal[i - 1]
        raise InputProblem(tr(lang, "bad_number", n=i, max=len(legal)))
    offered = named_choices(choices) if choices is not None else named_actions(legal)
    chosen = typed_text(text, offered, lang, _seats(game, names))
    if chosen is not None:
        action = game.parse_action(chosen)
        if action in legal:
            return legal[legal.index(action)]
    typed = typed_action(game, text, lang, names)
    if typed is not None and typed in legal:  # another way to write a choice: pay yrbr
        return legal[legal.index(typed)]
    if typed is not None and state is not None and seat is not None:
        checked(state, seat, typed, lang, names)  # raises with the engine's reason
    raise InputProblem(ui(lang, "bad_choice", text=text, max=len(legal)))


# ---------------------------------------------------------------- the session
class FistSession(Session[FistGame, FistState]):
    """One game of Fist of Dragonstones at the terminal."""

    def __init__(self, game: FistGame, kinds: Sequence[str], bots: dict[int, Bot], seed: int,
                 lang: str, console: Console, save: Path | None,
                 name: str | None = None) -> None:
        super().__init__(game, game.new_initial_state(), kinds, bots, seed, lang, console, save,
                         name)
        self.event_logs: dict[int | None, EventLog] = {}
        self.notices: dict[int, list[str]] = {s: [] for s in self.humans}
        self.seen: dict[int, int] = {}  # log lines each human has had on a screen

    def log(self, viewer: int | None) -> EventLog:
        """The game log ``viewer`` may read, brought up to date: the events of this viewer's
        view since the last look (F8), rendered from the catalogues."""
        if viewer not in self.event_logs:
            self.event_logs[viewer] = EventLog(self.game, self.lang, viewer, self.names)
        log = self.event_logs[viewer]
        log.feed_state(self.state)
        return log

    def view(self, viewer: int | None) -> JSON:
        """``viewer``'s view now, its log brought up to date (the view's events are in it)."""
        log = self.log(viewer)
        return self.state.view(viewer, log.next_seq)

    def summary_since(self, log: EventLog, seen: int) -> list[str]:
        """How the auctions since line ``seen`` ended, when more happened than the recent
        events show (e.g. while a human could only pass): else nothing."""
        if len(log.lines) - seen <= EVENTS_SHOWN:
            return []
        return log.summary(seen)

    def end_log(self) -> tuple[str, list[str]] | None:
        viewer = None if self.hotseat else self.humans[0]
        return ui(self.lang, "log_title"), self.log(viewer).lines

    def show_end(self) -> None:
        lang = self.lang
        if not self.humans:
            public = self.view(None)
            self.console.rule(f"[bold]{ui(lang, 'log_title')}[/]")
            for line in self.log(None).lines:
                self.say(line)
            self.console.rule(f"[bold]{ui(lang, 'final_table')}[/]")
            render_table(self.console, self.game, public, self.names, lang, [], events_shown=0)
        else:
            if self.hotseat:
                self.clear()
            # one human sees their own final screen; at a hot-seat table nobody's coins
            viewer = None if self.hotseat else self.humans[0]
            view = self.view(viewer)
            log = self.log(viewer)
            seen = min(self.seen.get(s, 0) for s in self.humans)
            rows = self.screen_rows(self.tell_result, extra=1 if self.save else 0)
            render_table(self.console, self.game, view, self.names, lang, log.lines,
                         seed=self.seed, summary=self.summary_since(log, seen),
                         notes=log.private, rows=rows)
        self.tell_result()

    def tell_result(self) -> None:
        state = self.state
        self.console.rule(f"[bold]{tr(self.lang, 'result_head')}[/]")
        for line in result_lines(state.view(None), self.names, self.lang, state.turn_count()):
            self.say(line)

    # -------------------------------------------------------------- a human's turn
    def ask_human(self, seat: int) -> FistAction:
        state = self.state
        lang = self.lang
        view = self.view(seat)
        legal = state.legal_actions(seat)
        if len(legal) == 1:  # nothing to decide: say so on this player's next screen
            what = forced_words(self.game, view, legal[0], lang, self.names)
            self.notices[seat].append(ui(lang, "forced", what=what))
            return legal[0]
        self.private_screen(seat)
        seen = self.seen.get(seat, 0)
        log = self.log(seat)

        def below() -> None:  # what follows the table, the prompt's row aside
            self.tell_notices(seat)
            self.prompt_head(seat, view)

        rows = self.screen_rows(below)
        render_table(self.console, self.game, view, self.names, lang, log.lines,
                     seed=self.seed, summary=self.summary_since(log, seen),
                     notes=log.private, rows=rows)
        self.seen[seat] = len(log.lines)
        self.tell_notices(seat)
        self.notices[seat].clear()
        action = self.prompt(seat, view)
        self.end_private_screen()
        return action

    def tell_notices(self, seat: int) -> None:
        """The moves this seat was not asked about (it had one), the same one once, ×n."""
        for notice, n in groupby(self.notices[seat]):
            times = len(list(n))
            self.say(f"[cyan]{notice}[/]" + (f" [cyan](×{times})[/]" if times > 1 else ""))

    def prompt_head(self, seat: int, view: JSON) -> None:
        """What the prompt asks: the bid's limits, or the menu of a decision."""
        legal = view["legal"]
        if legal["kind"] in ("bid", "silver"):
            self.bid_header(seat, view, legal["kind"] == "silver")
        else:
            self.menu(seat, view)

    def prompt(self, seat: int, view: JSON) -> FistAction:
        """Ask ``seat`` for its move: a sealed bid, a Silver bid or a choice from the menu
        of its view's legal actions (``view["legal"]``)."""
        lang = self.lang
        legal = view["legal"]
        sealed = legal["kind"] in ("bid", "silver")
        tiebreak = legal["kind"] == "silver"
        choices = legal["choices"] or []
        options = [self.game.parse_action(c["action"]) for c in choices]
        self.prompt_head(seat, view)
        ask = ui(lang, ("silver_prompt" if tiebreak else "bid_prompt") if sealed
                 else "decide_prompt")

        def show_again() -> None:
            render_help(self.console, self.game, lang)
            if sealed:
                self.bid_header(seat, view, tiebreak)
            else:
                self.menu(seat, view)

        def show_log() -> None:
            self.console.rule(f"[bold]{ui(lang, 'log_title')}[/]")
            for line in self.log(seat).lines:
                self.say(line)

        def parse(text: str) -> FistAction:
            return self.parse_move(seat, text, sealed=sealed, tiebreak=tiebreak,
                                   options=options, choices=choices)

        return self.read_command(ask, parse, on_help=show_again, on_log=show_log)

    def parse_move(self, seat: int, text: str, *, sealed: bool, tiebreak: bool,
                   options: Sequence[FistAction],
                   choices: Sequence[JSON] | None = None) -> FistAction:
        """What ``seat`` typed, as an action the engine accepts (else :class:`InputProblem`
        with its reason): a bid written in the view's form, a decision matched against the
        view's ``choices``. The online terminal (:mod:`dragonlair.cli.online`) sends it to
        the server instead, which asks the engine there."""
        if sealed:
            return bid_from_text(self.game, self.state, seat, text, self.lang, self.names,
                                 tiebreak=tiebreak)
        return choice_from_text(self.game, text, options, self.lang, self.state, seat,
                                self.names, choices)

    def bid_header(self, seat: int, view: JSON, tiebreak: bool) -> None:
        """What ``seat`` may bid (the limits of ``view["legal"]``, F5.1, F5.7)."""
        lang = self.lang
        legal = view["legal"]
        card = card_name(self.game, legal["card"], lang)
        name = escape(self.names[seat])
        if tiebreak:
            limits = legal["silver"]
            seats = ", ".join(escape(self.names[s]) for s in view["public"]["tie_break"])
            head = ui(lang, "silver_head", name=name, card=card, seats=seats)
            self.say(f"[bold]{head}[/]")
            extra = ui(lang, "silver_can_amulet") if limits["amulet"] else ""
            self.say(ui(lang, "silver_can", silver=limits["silver"], extra=extra))
            self.say(ui(lang, "silver_examples"))
            return
        limits = legal["bid"]
        self.say(f"[bold]{ui(lang, 'bid_head', name=name, card=card)}[/]")
        extra = (ui(lang, "bid_can_black") if limits["black"] else "") + (
            ui(lang, "bid_can_amulet") if limits["amulet"] else "")
        self.say(ui(lang, "bid_can", fairy=limits["fairy"], common=limits["common"],
                    extra=extra))
        self.say(ui(lang, "bid_examples"))

    def menu(self, seat: int, view: JSON) -> None:
        """The choices of a power decision (``view["legal"]["choices"]``), numbered, each
        told from its ``fist.choice.*`` code, under the card whose power asks."""
        lang = self.lang
        legal = view["legal"]
        card_id = legal["card"]
        card = card_name(self.game, card_id, lang) if card_id else "?"
        name = escape(self.names[seat])
        self.say(f"[bold]{ui(lang, 'decide_head', name=name, card=card)}[/]")
        if card_id:
            self.say(f"[italic]{escape(card_text(self.game, card_id, lang))}[/]")
        choices = legal["choices"] or []
        width = len(str(len(choices)))
        for i, choice in enumerate(choices, 1):
            what = choice_words(self.game, choice, lang, self.names)
            typed = escape(shown_action(choice["action"]))  # its seats from 1: target 2
            self.say(f"  [bold]{i:>{width}}[/]. {what}  [dim]({typed})[/]")


def play_fist(*, players: int | None, seats: list[str], seed: int | None, lang: str,
              options: dict[str, Any], save: Path | None, console: Console,
              name: str | None = None) -> int:
    """Play one game of Fist of Dragonstones; the exit code (0: finished, 1: abandoned)."""
    kinds = resolve_seats(players, seats, lang)
    name = check_name(name, kinds)
    game = make_game("fist", {**options, "players": len(kinds)})
    assert isinstance(game, FistGame)
    seed = pick_seed(seed)
    bots = make_bots("fist", kinds, seed)
    return FistSession(game, kinds, bots, seed, lang, console, save, name).run()
