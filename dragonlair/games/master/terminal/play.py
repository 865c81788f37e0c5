"""Dragon Master at the terminal (`dragonlair play master`): a card and a cell typed in
friendly forms, the grid drawn from the player's own side, round ends told (M4, M5).

The game-independent parts (the loop, hot-seat pauses, records) are in
:mod:`dragonlair.cli.session`; the screens in :mod:`dragonlair.games.master.terminal.screen`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from dragonlair.bots import Bot, bot_names
from dragonlair.cli.fit import SCREEN_ROWS, height, printed_rows
from dragonlair.cli.i18n import tr
from dragonlair.cli.session import (
    HUMAN,
    InputProblem,
    Session,
    check_name,
    make_bots,
    pick_seed,
    plain_number,
)
from dragonlair.core.errors import DragonlairError, OptionError
from dragonlair.core.forms import form_text
from dragonlair.core.game import JSON, Action
from dragonlair.core.i18n import render
from dragonlair.games import make_game
from dragonlair.games.master.actions import CELLS, cell_name, place_form
from dragonlair.games.master.cards import BY_ID, CARDS
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import Kind, MasterAction, MasterState
from dragonlair.games.master.terminal.screen import (
    CARD_WORDS,
    COLS,
    SIZE,
    card_name,
    cell_of,
    dragons_line,
    end_lines,
    event_line,
    grid_text,
    hand_words,
    names_for,
    orientation,
    render_help,
    render_screen,
    round_end_lines,
)

#: events that the round-end and end screens tell in full (M4, M5), not as a log line
SCREEN_TOLD = frozenset({"master.round.won", "master.round.drawn", "master.round.set_aside",
                         "master.match.dragon", "master.end.lowest_lines", "master.end.drawn",
                         "master.end.second_dragon"})

#: the default opponent: the strongest registered Dragon Master bot
BOT_PREFERENCE = ("expert", "greedy", "random")

FILLER_WORDS = {"place", "put", "lege", "legen", "on", "at", "to", "auf", "nach", "an",
                "dragon", "drache", "card", "karte"}
_CELLISH = re.compile(r"^[a-z][0-9]{1,6}$")  # ASCII digits only
#: every placement as the engine writes it (M3: its action form, slots ``card`` and ``cell``
#: over these lists): one the view's form does not hold (a card not in hand, a cell not
#: legal now) is written in it, and refused by the engine with its reason
EVERY_CARD = [card.id for card in CARDS]
EVERY_CELL = [cell_name(cell) for cell in range(CELLS)]
EVERY_PLACEMENT = place_form(range(len(CARDS)), range(CELLS))

__all__ = ["default_bot", "placement_from_text", "play_master", "resolve_seats"]


# ---------------------------------------------------------------- table setup
def default_bot() -> str:
    """The strongest Dragon Master bot registered now: expert, else greedy, else random."""
    names = bot_names("master")
    return next(b for b in BOT_PREFERENCE if b in names)


def resolve_seats(players: int | None, seats: Sequence[str], lang: str) -> list[str]:
    """Who holds the first and the second seat: ``"human"`` or a bot name. Raises
    :class:`OptionError`."""
    if players is not None and players != 2:
        raise OptionError("cli.err_m_players", n=players)
    kinds = [s.strip() for s in seats]
    if not kinds:
        return [HUMAN, default_bot()]
    if len(kinds) != 2:
        raise OptionError("cli.err_m_seats", n=len(kinds), bot=default_bot())
    return [HUMAN if k.lower() == HUMAN else k for k in kinds]


# ---------------------------------------------------------------- reading a move
def _card_from_word(word: str, lang: str) -> str | None:
    """The card id a word names (value, name or start of a name), None if it is no card
    word; :class:`InputProblem` if it could be several."""
    value = plain_number(word)
    if value is not None:
        if value > 3:
            raise InputProblem(tr(lang, "m_bad_value", n=value))
        return CARDS[value].id
    if word in BY_ID:
        return word
    first = "de" if lang == "de" else "en"
    for words in (CARD_WORDS[first], CARD_WORDS["en" if first == "de" else "de"]):
        exact = [c for c, ws in words.items() if word in ws]
        if exact:
            return exact[0]
        found = [c for c, ws in words.items() if any(w.startswith(word) for w in ws)]
        if len(found) == 1:
            return found[0]
        if found:
            names = tr(lang, "or_join").join(card_name(c, lang) for c in found)
            raise InputProblem(tr(lang, "m_ambiguous", word=word, cards=names))
    return None


def example_move(view: JSON, legal: Sequence[Action] | None = None) -> tuple[str, str]:
    """A move the player can make now, (card id, cell): the highest card of a legal
    placement on its first cell, never a card they do not hold. From ``legal`` when given,
    else from the view's hand and legal cells (M3: any card in hand may go on any legal
    cell)."""
    places = [a for a in legal or () if isinstance(a, MasterAction) and a.kind == Kind.PLACE]
    if places:
        best = max(places, key=lambda a: (a.value, -a.index))
        return CARDS[best.value].id, cell_of(best.cell % SIZE, best.cell // SIZE)
    held = [c.id for c in reversed(CARDS) if view["private"]["hand"].get(c.id)]
    cells = view["public"]["legal_cells"]
    return (held[0] if held else CARDS[-1].id), (cells[0] if cells else "d4")


def example_text(view: JSON, lang: str, legal: Sequence[Action] | None = None, *,
                 with_value: bool = False) -> str:
    """:func:`example_move` as the player would type it: ``ruby d4`` (and ``3 d4``)."""
    card, cell = example_move(view, legal)
    text = f"{CARD_WORDS['de' if lang == 'de' else 'en'][card][0]} {cell}"
    return text + (f", {BY_ID[card].value} {cell}" if with_value else "")


def placement_from_text(text: str, view: JSON, lang: str,
                        legal: Sequence[Action] | None = None) -> str:
    """The canonical action (``place ruby d4``) for what a player typed: a card (value, name,
    start of a name) and a cell in any order, or the record form; else :class:`InputProblem`
    with a reason (its example a move they can make: :func:`example_move`). Whether the
    placement is legal is the engine's to say (:func:`action_from_text`)."""
    example = example_text(view, lang, legal)
    words = text.lower().replace(",", " ").split()
    if not words:
        raise InputProblem(tr(lang, "empty_input"))
    cards: list[str] = []
    cells: list[str] = []
    for word in words:
        if word in FILLER_WORDS:
            continue
        if _CELLISH.match(word):
            row = plain_number(word[1:])
            if word[0] not in COLS or row is None or not 1 <= row <= SIZE:
                raise InputProblem(tr(lang, "m_bad_cell", cell=word))
            cells.append(word)
            continue
        card = _card_from_word(word, lang)
        if card is None:
            raise InputProblem(tr(lang, "m_unknown_word", word=word, example=example))
        cards.append(card)
    hand: JSON = view["private"]["hand"]
    legal_cells: list[str] = view["public"]["legal_cells"]
    if len(set(cards)) > 1:
        raise InputProblem(tr(lang, "m_two_cards"))
    if len(set(cells)) > 1:
        raise InputProblem(tr(lang, "m_two_cells"))
    if not cards:
        kinds = [c for c, n in hand.items() if n]
        if len(kinds) != 1:
            raise InputProblem(tr(lang, "m_which_card", hand=hand_words(hand, lang, markup=False)))
        cards = kinds
    if not cells:
        if len(legal_cells) != 1:
            raise InputProblem(tr(lang, "m_which_cell", legal=", ".join(legal_cells)))
        cells = list(legal_cells)
    return placement_text(view, cards[0], cells[0], lang)


def placement_text(view: JSON, card: str, cell: str, lang: str) -> str:
    """The engine's text of ``card`` (its id) on ``cell`` (its name): from the view's action
    form (``legal.form``, its options in the order of ``legal.cards`` and ``legal.cells``)
    when the placement is legal, else from the engine's form of every placement
    (:data:`EVERY_PLACEMENT`)."""
    legal = view.get("legal") or {}
    for form, cards, cells in ((legal.get("form"), legal.get("cards"), legal.get("cells")),
                               (EVERY_PLACEMENT, EVERY_CARD, EVERY_CELL)):
        if form is None or cards is None or cells is None or card not in cards \
                or cell not in cells:
            continue
        text = form_text(form, {"card": cards.index(card), "cell": cells.index(cell)})
        if text is not None:
            return text
    raise InputProblem(tr(lang, "m_bad_cell", cell=cell))  # no such cell on the board


def action_from_text(state: MasterState, seat: int, text: str, view: JSON,
                     legal: Sequence[Action], lang: str,
                     names: Sequence[str] | None = None) -> MasterAction:
    """The legal action for what ``seat`` typed. The engine judges it (M3): a refusal is the
    engine's coded error, rendered in ``lang`` (with the hand when the card is missing)."""
    canon = placement_from_text(text, view, lang, legal)
    try:
        action = state.game.parse_action(canon)
    except DragonlairError as exc:  # pragma: no cover - placement_from_text writes valid text
        raise InputProblem(exc.message(lang)) from None
    refusal = state.refusal(seat, action)
    if refusal is not None:
        said = names_for(names) if names is not None else None
        why = refusal.message(lang, said)
        if refusal.code == "master.place.card_not_in_hand":
            why += " " + render("master.ui.your_hand", {
                "hand": hand_words(view["private"]["hand"], lang, markup=False)}, lang)
        raise InputProblem(why)
    return action


# ---------------------------------------------------------------- the session
class MasterSession(Session[MasterGame, MasterState]):
    """One round or match of Dragon Master at the terminal. What happened is told from the
    engine's events (rendered from the catalogues), as the viewer of this table may see them:
    the one human's seat, or a spectator at an all-bot or hot-seat table (M6)."""

    def __init__(self, game: MasterGame, kinds: Sequence[str], bots: dict[int, Bot], seed: int,
                 lang: str, console: Console, save: Path | None,
                 name: str | None = None) -> None:
        super().__init__(game, game.new_initial_state(), kinds, bots, seed, lang, console, save,
                         name)
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.rounds_told = 0
        self.told = 0  # the events told so far (the next event's sequence number)
        self.narrate = not self.humans  # an all-bot table prints every event as it happens

    # -------------------------------------------------------------- what happened
    def event_lines(self, seat: int | None, since: int = 0) -> list[str]:
        """The events ``seat`` may see from ``since`` on, rendered (markup-safe)."""
        view = self.state.view(seat, since)
        return [event_line(e, self.names, self.lang) for e in view["events"]]

    def after_apply(self, seat: int, action: Action) -> None:
        view = self.state.view(self.viewer, self.told)
        self.told = view["events_total"]
        public = view["public"]
        finished = len(public["rounds"]) > self.rounds_told
        for event in view["events"]:
            if event["code"] in SCREEN_TOLD or (not self.narrate
                                                and event["code"] == "master.move.placed"):
                continue  # the round-end screen and the player's own screen tell these
            line = event_line(event, self.names, self.lang)
            self.say(line)
            self.carried_rows += height(self.console, line)  # above the next screen
        if finished:  # the 16th card: the round is over (M4)
            self.rounds_told = len(public["rounds"])
            self.tell_round_end(public)

    def tell_round_end(self, public: JSON) -> None:
        """M4 and M5 at a round's end: the final grid, both players' lines lowest first, the
        winner; in a match the dragons and who starts next."""
        result = public["rounds"][-1]
        lang = self.lang
        if self.hotseat:
            self.clear()
        viewer = self.viewer
        board = {p["cell"]: p["card"] for p in result["placements"]}
        scores = {"columns": result["columns"], "rows": result["rows"]}
        # the game's result follows right under it: its deciding line says the comparison
        ends = self.state.is_terminal() and not self.game.match
        dragons: list[str] = []  # in a match: who won the round's dragon, and the dragons
        if self.game.match:
            winner = result["winner"]
            dragons = [tr(lang, "m_no_dragon") if winner is None
                       else tr(lang, "m_dragon_won", name=escape(self.names[winner])),
                       dragons_line(public, self.names, lang)]

        def draw(level: int) -> None:
            """0: all of it; 1 without the orientation line (the grid's heads name whose
            the columns and the rows are); 2 without the comparison too, where the game's
            result under it says which lines decided."""
            self.console.rule(f"[bold]{tr(lang, 'm_round_over', n=self.rounds_told)}[/]")
            if level < 1:
                self.say(escape(orientation(viewer, lang, self.names)))
            self.console.print(grid_text(board, [], scores, viewer, names=self.names,
                                         lang=lang))
            for line in round_end_lines(result, self.names, lang, compared=level < 2):
                self.say(line)

        level = 0
        if self.humans:  # fitted to the terminal, with what is printed under it
            rows = (SCREEN_ROWS - 1 - self.carried_rows - height(self.console, *dragons)
                    - printed_rows(self.console, self.screen_extra)
                    - (printed_rows(self.console, self.show_end) if self.state.is_terminal()
                       else 0))
            levels = 3 if ends else 2
            while level < levels - 1 and printed_rows(self.console,
                                                      partial(draw, level)) > rows:
                level += 1
        draw(level)
        if not self.game.match:
            return
        for line in dragons:
            self.say(line)
        if self.humans and not self.state.is_terminal():
            self.read(tr(lang, "m_next_round") + " ")
            self.last_looker = None  # the next player's hand only after a new pause

    def show_end(self) -> None:
        self.console.rule(f"[bold]{tr(self.lang, 'result_head')}[/]")
        for line in end_lines(self.state.view(None), self.names, self.lang, self.game.match,
                              self.state.turn_count()):
            self.say(line)

    def end_log(self) -> tuple[str, list[str]] | None:
        lines = self.event_lines(self.viewer)
        if not lines:
            return None
        return render("master.ui.log_title", {}, self.lang), lines

    # -------------------------------------------------------------- a human's turn
    def ask_human(self, seat: int) -> MasterAction:
        view = self.state.view(seat)
        legal = self.state.legal_actions(seat)
        self.private_screen(seat)
        render_screen(self.console, view, self.names, self.lang, seed=self.seed,
                      rows=self.screen_rows(lambda: self.say(self.place_head(seat, view,
                                                                             legal))))
        action = self.prompt(seat, view, legal)
        self.end_private_screen()
        return action

    def prompt(self, seat: int, view: JSON, legal: Sequence[Action]) -> MasterAction:
        lang = self.lang
        head = self.place_head(seat, view, legal)
        self.say(head)

        def show_again() -> None:
            render_help(self.console, lang, self.game.four_of_a_kind)
            render_screen(self.console, view, self.names, lang, seed=self.seed)
            self.say(head)

        def show_log() -> None:
            self.console.rule(f"[bold]{render('master.ui.log_title', {}, lang)}[/]")
            lines = [event_line(e, self.names, lang) for e in view["events"]]
            for line in lines:
                self.say(line)
            if not lines:
                self.say(render("master.ui.log_empty", {}, lang))

        return self.read_command(tr(lang, "m_prompt"),
                                 lambda text: self.parse_move(seat, text, view, legal),
                                 on_help=show_again, on_log=show_log)

    def place_head(self, seat: int, view: JSON, legal: Sequence[Action]) -> str:
        """What the prompt asks (markup): place a card, with an example from the moves."""
        example = example_text(view, self.lang, legal, with_value=True)
        head = tr(self.lang, "m_place_head", name=escape(self.names[seat]), example=example)
        return f"[bold]{head}[/]"

    def parse_move(self, seat: int, text: str, view: JSON,
                   legal: Sequence[Action]) -> MasterAction:
        """What ``seat`` typed, as a legal action (else :class:`InputProblem` with the
        engine's reason). The online terminal (:mod:`dragonlair.cli.online`) sends it to the
        server instead, which asks the engine there."""
        return action_from_text(self.state, seat, text, view, legal, self.lang, self.names)


def play_master(*, players: int | None, seats: list[str], seed: int | None, lang: str,
                options: dict[str, Any], save: Path | None, console: Console,
                name: str | None = None) -> int:
    """Play one round (or a match, ``options["match"]``) of Dragon Master; the exit code
    (0: finished, 1: abandoned)."""
    kinds = resolve_seats(players, seats, lang)
    name = check_name(name, kinds)
    game = make_game("master", options)
    assert isinstance(game, MasterGame)
    seed = pick_seed(seed)
    bots = make_bots("master", kinds, seed)
    return MasterSession(game, kinds, bots, seed, lang, console, save, name).run()

