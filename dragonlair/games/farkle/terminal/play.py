"""Dragon Farkle at the terminal (`dragonlair play farkle`): every decision from a numbered
menu that shows what each choice is worth (soldiers from the engine's scorer, the risk of the
next roll), the table and the story told in words, magic items hidden from the others (D9).

The game-independent parts (the loop, hot-seat pauses, records) are in
:mod:`dragonlair.cli.session`; the screens in :mod:`dragonlair.games.farkle.terminal.screen`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from dragonlair.bots import Bot, bot_names
from dragonlair.cli import session
from dragonlair.cli.fit import printed_rows
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
)
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import JSON, Action
from dragonlair.games import make_game
from dragonlair.games.farkle.actions import FarkleAction, Kind
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.state import FarkleState
from dragonlair.games.farkle.terminal.screen import (
    FarkleNarrator,
    decision_head,
    describe_choice,
    end_lines,
    keep_columns,
    keep_legend,
    least_rows,
    num,
    render_help,
    render_screen,
    who,
)

#: the default opponents: the strongest registered Dragon Farkle bot
BOT_PREFERENCE = ("optimal", "cautious", "random")
DEFAULT_PLAYERS = 2

#: words a player may type for an action's first word (German and a few short forms)
ALIASES = {
    "rekrutieren": "recruit", "rekrutiere": "recruit", "rekrutierung": "recruit",
    "r": "recruit",
    "angreifen": "skirmish", "angriff": "skirmish", "greife": "skirmish",
    "scharmützel": "skirmish", "attack": "skirmish", "s": "skirmish",
    "endkampf": "battle", "kampf": "battle", "b": "battle", "fight": "battle",
    "erschrecken": "scare", "verscheuchen": "scare",
    "nutze": "use", "benutze": "use", "benutzen": "use", "einsetzen": "use",
    "behalte": "keep", "behalten": "keep", "k": "keep",
    "verdoppeln": "double", "verdopple": "double", "doppeln": "double", "d": "double",
    "gegenstand": "item", "ziehen": "item",
    "würfeln": "roll", "würfle": "roll", "weiter": "roll", "wurf": "roll",
    "sichern": "bank", "sichere": "bank", "einstreichen": "bank",
    "aufhören": "stop", "stopp": "stop", "halt": "stop",
    "passen": "pass", "passe": "pass", "p": "pass", "nein": "pass", "no": "pass",
    "ignorieren": "ignore dragon", "ignoriere": "ignore dragon", "ignore": "ignore dragon",
    "neu": "reroll",
    "ablegen": "discard", "abwerfen": "discard", "lege": "discard",
}
#: the action kinds that name an item, by their first word
ITEM_WORDS = {"use": Kind.USE, "discard": Kind.DISCARD, "keep-item": Kind.KEEP_ITEM}
#: the action words followed by a seat (typed as its number from 1, or a player's name)
SEAT_WORDS = frozenset({"skirmish", "scare"})
#: the engine's refusal of an action, in the reader's words (None: it is legal)
Refusal = Callable[[FarkleAction], "str | None"]

#: how a menu of selections to keep may be laid out, the first that lets the screen fit
#: (:meth:`FarkleSession.menu_rows`): 0 a line each, its dice drawn as dice; 1 a line
#: each, the dice only in its text (``keep 155``); 2 in two columns, in brief under a legend
KEEP_LAYOUTS = 3

__all__ = ["choice_from_text", "default_bot", "play_farkle", "resolve_seats", "typed_action"]


# ---------------------------------------------------------------- table setup
def default_bot() -> str:
    """The strongest Dragon Farkle bot registered now: optimal, else cautious, else random."""
    names = bot_names("farkle")
    return next(b for b in BOT_PREFERENCE if b in names)


def resolve_seats(players: int | None, seats: Sequence[str], lang: str) -> list[str]:
    """Who holds each seat: ``"human"`` or a bot name. Raises :class:`OptionError`."""
    return session.resolve_seats(players, seats, lang, allowed=(2, 5),
                                 default_players=DEFAULT_PLAYERS, default_bot=default_bot(),
                                 players_error="err_f_players")


# ---------------------------------------------------------------- reading a choice
def _item_choice(game: FarkleGame, kind: Kind, rest: str, legal: Sequence[FarkleAction],
                 lang: str) -> FarkleAction | None:
    """``use Gold Purse`` / ``use goldbeutel`` / ``use gold``: the legal item action of
    ``kind`` whose item id or name (either language) is or starts with ``rest``."""
    found: list[FarkleAction] = []
    for action in legal:
        if action.kind != kind:
            continue
        item = game.items[action.card]
        names = {item.id, item.name_en.lower(), item.name_de.lower()}
        if rest in names:
            return action
        if any(n.startswith(rest) or n.replace(" ", "-").startswith(rest) for n in names):
            found.append(action)
    if len(found) > 1:
        cards = tr(lang, "or_join").join(game.items[a.card].name(lang) for a in found)
        raise InputProblem(tr(lang, "f_ambiguous_item", text=rest, cards=cards))
    return found[0] if found else None


def _seats(game: FarkleGame, names: Sequence[str] | None) -> list[str]:
    return list(names) if names is not None else [str(s + 1) for s in range(game.num_players)]


def _canonical(text: str) -> str:
    """What a player typed, in lower case, a menu line's explanation dropped (``keep 155 =
    200 soldiers``) and a German or short first word as the engine's (``sichern``: bank)."""
    canon = " ".join(text.lower().split())
    for mark in (" = ", " — ", " – ", " - "):  # a menu line: its explanation dropped
        canon = canon.partition(mark)[0]
    words = canon.split()
    if words and " ".join(words[:2]) != "ignore dragon" and words[0] in ALIASES:
        words = ALIASES[words[0]].split() + words[1:]
    return " ".join(words)


def named_moves(moves: Sequence[JSON]) -> list[Named]:
    """A view's legal moves (``legal.moves``) as (the engine's text, the seat it names)."""
    return [(str(m["action"]), m.get("seat")) for m in moves]


def typed_action(game: FarkleGame, text: str, lang: str, names: Sequence[str] | None = None,
                 offered: Sequence[Named] | None = None) -> FarkleAction | None:
    """The engine's action a player typed (:func:`choice_from_text`'s forms but a menu
    number), legal now or not, so that the engine can say why it is refused; ``None`` for
    no action. A move that names a seat (``skirmish 2``, ``skirmish Bob``) is matched
    against ``offered`` (a view's moves, :func:`named_moves`) or by default all the
    engine's actions, and the engine's text of it taken. A seat typed as no player
    (``skirmish 9``, the engine's ``skirmish p1``) is an :class:`InputProblem`."""
    canon = _canonical(text)
    if not canon:
        return None
    move = seat_move(canon, SEAT_WORDS, _seats(game, names), lang)
    if move is not None:
        if offered is None:
            offered = named_actions(every_action(game))
        found = seat_action(move, offered)
        return game.parse_action(found) if found is not None else None
    try:
        return game.parse_action(canon)
    except DragonlairError:
        return None


def choice_from_text(game: FarkleGame, text: str, legal: Sequence[FarkleAction],
                     lang: str, refuse: Refusal | None = None,
                     names: Sequence[str] | None = None,
                     moves: Sequence[JSON] | None = None) -> FarkleAction:
    """A decision typed as its number in the menu, its action as the menu shows it
    (``keep 155``, ``skirmish 2``, ``use lucky-clover``), a line of the menu (``keep 155 =
    200 soldiers``), an item's name (``use Lucky Clover``) or a German word (``sichern``).
    A seat is typed as its number from 1 or the player's name (``skirmish 2``, ``skirmish
    Bob``), matched against ``moves`` (the view's ``legal.moves``, each with the seat it
    names; by default ``legal``'s): the engine's text of the one typed is taken (``skirmish
    p1``; ``names``: the seats' names, by default the numbers only). ``refuse``: the
    engine's refusal of an action that is not legal now, in words (the terminal never
    re-checks a rule to word it)."""
    text = text.strip()
    example = shown_action(legal[0].text) if legal else "roll"
    if not text:
        if len(legal) == 1:
            return legal[0]
        raise InputProblem(tr(lang, "empty_input"))
    i = plain_number(text)
    if i is not None:
        if 1 <= i <= len(legal):
            return legal[i - 1]
        raise InputProblem(tr(lang, "bad_number", n=i, max=len(legal)))
    words = _canonical(text).split()
    if words and words[0] in ITEM_WORDS and len(words) > 1:
        chosen = _item_choice(game, ITEM_WORDS[words[0]], " ".join(words[1:]), legal, lang)
        if chosen is not None:
            return chosen
    offered = named_moves(moves) if moves is not None else named_actions(legal)
    action = typed_action(game, text, lang, names, offered)
    if action is None:  # a seat's move that is no choice now: the engine's own action
        action = typed_action(game, text, lang, names)
    if action is not None and action in legal:
        return legal[legal.index(action)]
    if action is not None and action.kind in (Kind.KEEP, Kind.SKIRMISH, Kind.BATTLE) \
            and refuse is not None:
        why = refuse(action)
        if why is not None:
            raise InputProblem(why)
    raise InputProblem(tr(lang, "f_bad_choice", text=text, max=len(legal), example=example))


# ---------------------------------------------------------------- the session
class _Thinking:
    """A bot that shows a spinner while it chooses (a human at a terminal waits for it;
    the optimal bot may work out its tables for a few seconds)."""

    def __init__(self, bot: Bot, console: Console, label: str) -> None:
        self.bot, self.console, self.label = bot, console, label

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        with self.console.status(self.label):
            return self.bot.choose(view, legal)


class FarkleSession(Session[FarkleGame, FarkleState]):
    """One game of Dragon Farkle at the terminal."""

    def __init__(self, game: FarkleGame, kinds: Sequence[str], bots: dict[int, Bot], seed: int,
                 lang: str, console: Console, save: Path | None,
                 name: str | None = None) -> None:
        super().__init__(game, game.new_initial_state(), kinds, bots, seed, lang, console, save,
                         name)
        self.narrator = FarkleNarrator(game, lang, self.names)
        self.seen: dict[int | None, int] = {}  # log lines each viewer has been shown
        #: the layout of the keep menu on the screen drawn now (:data:`KEEP_LAYOUTS`)
        self.keep_layout = 0
        if self.humans and console.is_terminal:
            for seat, bot in list(self.bots.items()):
                label = tr(lang, "f_thinking", who=who(seat, self.names))
                self.bots[seat] = _Thinking(bot, console, label)

    # -------------------------------------------------------------- what happened
    def log_for(self, viewer: int | None) -> list[str]:
        """The engine's events ``viewer`` may see, in words."""
        return self.narrator.lines_for(self.state, viewer)

    def end_log(self) -> tuple[str, list[str]] | None:
        return (tr(self.lang, "f_log_title"),
                self.log_for(None if self.hotseat else self.humans[0]))

    def show_end(self) -> None:
        lang = self.lang
        state = self.state
        if not self.humans:
            self.console.rule(f"[bold]{tr(lang, 'f_log_title')}[/]")
            for line in self.log_for(None):
                self.say(line)
            self.console.rule(f"[bold]{tr(lang, 'f_final_table')}[/]")
            render_screen(self.console, self.game, state.view(None), self.names, lang, [],
                          self.log_for(None))
        else:
            if self.hotseat:
                self.clear()
            # one human sees their own final screen; at a hot-seat table nobody's items
            viewer = None if self.hotseat else self.humans[0]
            lines = self.log_for(viewer)
            seen = min(self.seen.get(s, 0) for s in self.humans)
            render_screen(self.console, self.game, state.view(viewer), self.names, lang,
                          lines[seen:], lines[:seen], seed=self.seed,
                          rows=self.screen_rows(self.tell_result,
                                                extra=1 if self.save else 0))
        self.tell_result()

    def tell_result(self) -> None:
        state = self.state
        self.console.rule(f"[bold]{tr(self.lang, 'result_head')}[/]")
        for line in end_lines(state.view(None), self.names, self.lang, state.turn_count()):
            self.say(line)

    # -------------------------------------------------------------- a human's turn
    def ask_human(self, seat: int) -> FarkleAction:
        state = self.state
        view = state.view(seat)
        legal = state.legal_actions(seat)
        self.private_screen(seat, self.defend_note(seat, view))
        lines = self.log_for(seat)
        seen = self.seen.get(seat, 0)
        render_screen(self.console, self.game, view, self.names, self.lang, lines[seen:],
                      lines[:seen], seed=self.seed, rows=self.menu_rows(seat, view, legal))
        self.seen[seat] = len(lines)
        action = self.prompt(seat, view, legal)
        self.end_private_screen()
        return action

    def defend_note(self, seat: int, view: JSON) -> str | None:
        """At a hot-seat table, why a defender is asked during another player's turn."""
        sk = view["public"]["skirmish"]
        if sk is None or sk["defender"] != seat or seat == view["public"]["player"]:
            return None
        return "[bold]" + tr(self.lang, "f_defend_note", who=who(seat, self.names),
                             attacker=who(sk["attacker"], self.names),
                             n=num(self.lang, sk["attack_value"])) + "[/]"

    def menu_rows(self, seat: int, view: JSON, legal: Sequence[FarkleAction]) -> int:
        """The rows the screen above the menu may take (:meth:`screen_rows`), the menu's
        layout chosen: a long menu of selections to keep more compact (:data:`KEEP_LAYOUTS`)
        where the screen would not fit above it even at its most compact."""
        rows = self.screen_rows()
        self.keep_layout = 0
        menu_rows = printed_rows(self.console, lambda: self.menu(seat, view, legal))
        if len(legal) > 1 and all(a.kind == Kind.KEEP for a in legal):
            least = least_rows(self.console, self.game, view, self.names, self.lang)
            while least + menu_rows > rows and self.keep_layout < KEEP_LAYOUTS - 1:
                self.keep_layout += 1
                menu_rows = printed_rows(self.console, lambda: self.menu(seat, view, legal))
        return rows - menu_rows

    def menu(self, seat: int, view: JSON, legal: Sequence[FarkleAction]) -> None:
        lang = self.lang
        self.say(f"[bold]{decision_head(lang, view, self.names, seat)}[/]")
        keeps = all(a.kind == Kind.KEEP for a in legal)
        if keeps and self.keep_layout >= 2:
            self.say(f"[dim]{escape(keep_legend(lang, view))}[/]")
            self.console.print(keep_columns(self.game, lang, legal, view), highlight=False)
        else:
            width = len(str(len(legal)))
            dice = not (keeps and self.keep_layout >= 1)
            for i, action in enumerate(legal, 1):
                line = describe_choice(self.game, lang, action, view, self.names, dice=dice)
                self.say(f"  [bold cyan]{i:>{width}}[/]. {line}")
        hint = tr(lang, "f_menu_hint")
        if len(legal) == 1:
            hint = tr(lang, "f_forced_hint") + " " + hint
        self.say(f"[dim]{hint}[/]")

    def parse_move(self, seat: int, text: str, legal: Sequence[FarkleAction],
                   moves: Sequence[JSON] | None = None) -> FarkleAction:
        """What ``seat`` typed, as a legal action (else :class:`InputProblem` with the
        engine's reason), a seat's move matched against the view's ``moves``. The online
        terminal (:mod:`dragonlair.cli.online`) sends it to the server instead, which asks
        the engine there."""
        lang = self.lang

        def refuse(action: FarkleAction) -> str | None:
            err = self.state.refusal(seat, action)
            if err is None or err.code == "farkle.action.not_now":
                return None  # nothing more to say than that it is not a choice now
            return refusal_words(err, lang, self.names)

        return choice_from_text(self.game, text, legal, lang, refuse, self.names, moves)

    def prompt(self, seat: int, view: JSON, legal: Sequence[FarkleAction]) -> FarkleAction:
        lang = self.lang
        self.menu(seat, view, legal)
        moves = (view.get("legal") or {}).get("moves")  # each legal action, with its seat

        def show_again() -> None:
            render_help(self.console, self.game, lang)
            self.menu(seat, view, legal)

        def show_log() -> None:
            self.console.rule(f"[bold]{tr(lang, 'f_log_title')}[/]")
            for line in self.log_for(seat):
                self.say(line)

        return self.read_command(tr(lang, "f_prompt"),
                                 lambda text: self.parse_move(seat, text, legal, moves),
                                 on_help=show_again, on_log=show_log)


def play_farkle(*, players: int | None, seats: list[str], seed: int | None, lang: str,
                options: dict[str, Any], save: Path | None, console: Console,
                name: str | None = None) -> int:
    """Play one game of Dragon Farkle; the exit code (0: finished, 1: abandoned)."""
    kinds = resolve_seats(players, seats, lang)
    name = check_name(name, kinds)
    game = make_game("farkle", {**options, "players": len(kinds)})
    assert isinstance(game, FarkleGame)
    seed = pick_seed(seed)
    bots = make_bots("farkle", kinds, seed)
    return FarkleSession(game, kinds, bots, seed, lang, console, save, name).run()
