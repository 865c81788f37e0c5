"""Dragon Master at the terminal (`dragonlair play master`): a card and a cell typed in
friendly forms, the grid drawn from the player's own side, round ends told (M4, M5).

The game-independent parts (the loop, hot-seat pauses, records) are in
:mod:`dragonlair.cli.session`; the screens in :mod:`dragonlair.cli.master_screen`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from dragonlair.bots import Bot, bot_names
from dragonlair.cli.i18n import engine_reason, tr
from dragonlair.cli.master_screen import (
    CARD_WORDS,
    COLS,
    SIZE,
    cell_of,
    deciding_line,
    dragons_line,
    grid_text,
    hand_words,
    orientation,
    placement_line,
    render_help,
    render_screen,
    round_end_lines,
    round_placements,
)
from dragonlair.cli.session import (
    HUMAN,
    InputProblem,
    Session,
    make_bots,
    pick_seed,
    plain_number,
)
from dragonlair.core.errors import DragonlairError, OptionError
from dragonlair.core.game import CHANCE, JSON, Action
from dragonlair.games import make_game
from dragonlair.games.master.cards import BY_ID, CARDS
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import (
    Kind,
    MasterAction,
    MasterState,
    cell_index,
    placement_problem,
)

#: the default opponent: the strongest registered Dragon Master bot
BOT_PREFERENCE = ("expert", "greedy", "random")

FILLER_WORDS = {"place", "put", "lege", "legen", "on", "at", "to", "auf", "nach", "an",
                "dragon", "drache", "card", "karte"}
_CELLISH = re.compile(r"^[a-z][0-9]{1,6}$")  # ASCII digits only

__all__ = ["default_bot", "placement_from_text", "play_master", "resolve_seats"]


# ---------------------------------------------------------------- table setup
def default_bot() -> str:
    """The strongest Dragon Master bot registered now: expert, else greedy, else random."""
    names = bot_names("master")
    return next(b for b in BOT_PREFERENCE if b in names)


def resolve_seats(players: int | None, seats: Sequence[str], lang: str) -> list[str]:
    """Who holds seat 0 and seat 1: ``"human"`` or a bot name. Raises :class:`OptionError`."""
    if players is not None and players != 2:
        raise OptionError(tr(lang, "err_m_players", n=players))
    kinds = [s.strip() for s in seats]
    if not kinds:
        return [HUMAN, default_bot()]
    if len(kinds) != 2:
        raise OptionError(tr(lang, "err_m_seats", n=len(kinds), bot=default_bot()))
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
            names = tr(lang, "or_join").join(BY_ID[c].name(lang) for c in found)
            raise InputProblem(tr(lang, "m_ambiguous", word=word, cards=names))
    return None


def why_not_legal(cell: str, view: JSON, lang: str) -> str:
    """Why a card cannot go on ``cell`` now, in words; the engine says why (M3)."""
    legal = ", ".join(view["legal_cells"])
    grid = view["grid"]
    occupied = {c for c in (cell_index(name) for name in grid) if c is not None}
    where = cell_index(cell)
    problem = placement_problem(occupied, where) if where is not None else "outside_box"
    if problem == "taken":
        return tr(lang, "m_taken", cell=cell, card=card_name_plain(grid[cell], lang), legal=legal)
    if problem == "origin":
        return tr(lang, "m_origin", cell=cell)
    if problem == "not_adjacent":
        return tr(lang, "m_not_adjacent", cell=cell, legal=legal)
    return tr(lang, "m_outside_box", cell=cell, legal=legal)


def card_name_plain(card_id: str, lang: str) -> str:
    return BY_ID[card_id].name(lang)


def example_move(view: JSON, legal: Sequence[Action] | None = None) -> tuple[str, str]:
    """A move the player can make now, (card id, cell): the highest card of a legal
    placement on its first cell, never a card they do not hold. From ``legal`` when given,
    else from the view's hand and legal cells (M3: any card in hand may go on any legal
    cell)."""
    places = [a for a in legal or () if isinstance(a, MasterAction) and a.kind == Kind.PLACE]
    if places:
        best = max(places, key=lambda a: (a.value, -a.index))
        return CARDS[best.value].id, cell_of(best.cell % SIZE, best.cell // SIZE)
    held = [c.id for c in reversed(CARDS) if view["hand"].get(c.id)]
    cells = view["legal_cells"]
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
    start of a name) and a cell in any order, or the record form. Checks the hand and the
    cell against the view; else :class:`InputProblem` with a reason (its example a move
    they can make: :func:`example_move`)."""
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
    hand: JSON = view["hand"]
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
        if len(view["legal_cells"]) != 1:
            raise InputProblem(tr(lang, "m_which_cell", legal=", ".join(view["legal_cells"])))
        cells = list(view["legal_cells"])
    card, cell = cards[0], cells[0]
    if not hand.get(card):
        raise InputProblem(tr(lang, "m_no_card", card=card_name_plain(card, lang),
                              hand=hand_words(hand, lang, markup=False)))
    if cell not in view["legal_cells"]:
        raise InputProblem(why_not_legal(cell, view, lang))
    return f"place {card} {cell}"


def action_from_text(game: MasterGame, text: str, view: JSON, legal: Sequence[Action],
                     lang: str) -> MasterAction:
    canon = placement_from_text(text, view, lang, legal)
    try:
        action = game.parse_action(canon)
    except DragonlairError as exc:  # pragma: no cover - placement_from_text writes valid text
        raise InputProblem(str(exc)) from None
    if action not in legal:  # pragma: no cover - the view's legal cells and hand agree
        raise InputProblem(tr(lang, "not_legal", reason=canon))
    return action


# ---------------------------------------------------------------- the session
class MasterSession(Session[MasterGame, MasterState]):
    """One round or match of Dragon Master at the terminal."""

    def __init__(self, game: MasterGame, kinds: Sequence[str], bots: dict[int, Bot], seed: int,
                 lang: str, console: Console, save: Path | None) -> None:
        super().__init__(game, game.new_initial_state(), kinds, bots, seed, lang, console, save)
        self.board: dict[str, str] = {}  # this round's cards, as placed (public)
        self.finished: tuple[JSON, dict[str, str]] | None = None  # a round to tell, its grid
        self.rounds_told = 0
        self.narrate = not self.humans  # an all-bot table prints every card placed

    # -------------------------------------------------------------- what happened
    def after_apply(self, seat: int, action: Action) -> None:
        assert isinstance(action, MasterAction)
        lang = self.lang
        if seat != CHANCE:
            cell = cell_of(action.cell % SIZE, action.cell // SIZE)
            self.board[cell] = CARDS[action.value].id
            if self.narrate:
                self.say(placement_line(lang, self.names, seat, CARDS[action.value].id, cell))
            public = self.state.view(None)
            if len(public["rounds"]) > self.rounds_told:  # the 16th card: the round is over
                self.rounds_told = len(public["rounds"])
                self.finished = (public["rounds"][-1], self.board)
                self.board = {}
                if self.state.is_terminal():
                    self.tell_round_end(public, None)
            return
        public = self.state.view(None)
        if public["phase"] != "place":
            return
        # the placements of a round begin: tell the last round (whose start follows M5)
        starter = public["starter"]
        if self.finished is not None:
            self.tell_round_end(public, starter)
        if self.narrate:
            self.say(f"[bold]{tr(lang, 'm_ev_round', n=len(public['rounds']) + 1)}[/]")
            key = "m_ev_start_lot" if action.kind == Kind.START else "m_ev_start"
            self.say(tr(lang, key, seat=starter, name=escape(self.names[starter])))

    def tell_round_end(self, public: JSON, next_starter: int | None) -> None:
        """M4 and M5 at a round's end: the final grid, both players' lines lowest first, the
        winner; in a match the dragons and who starts next."""
        assert self.finished is not None
        result, board = self.finished
        self.finished = None
        lang = self.lang
        if self.hotseat:
            self.clear()
        viewer = self.humans[0] if len(self.humans) == 1 else None
        self.console.rule(f"[bold]{tr(lang, 'm_round_over', n=self.rounds_told)}[/]")
        self.say(escape(orientation(viewer, lang)))
        scores = {"columns": result["columns"], "rows": result["rows"]}
        self.console.print(grid_text(board, [], scores, viewer))
        for line in round_end_lines(result, self.names, lang):
            self.say(line)
        if not self.game.match:
            return
        winner = result["winner"]
        if winner is None:
            self.say(tr(lang, "m_no_dragon"))
        else:
            self.say(tr(lang, "m_dragon_won", seat=winner, name=escape(self.names[winner])))
        self.say(dragons_line(public, self.names, lang))
        if next_starter is None:
            return
        key = "m_next_drawn" if winner is None else "m_next_loser"
        self.say(tr(lang, key, seat=next_starter, name=escape(self.names[next_starter])))
        if self.humans:
            self.read(tr(lang, "m_next_round") + " ")
            self.last_looker = None  # the next player's hand only after a new pause

    def show_end(self) -> None:
        lang = self.lang
        result = self.state.view(None)["result"]
        self.console.rule(f"[bold]{tr(lang, 'result_head')}[/]")
        winners = result["winners"]
        if winners:
            w = winners[0]
            self.say(f"[bold green]{tr(lang, 'winner', who=f'p{w} ({escape(self.names[w])})')}[/]")
        else:
            self.say(f"[bold]{tr(lang, 'm_drawn_game')}[/]")
        self.say(tr(lang, "reason", reason=escape(engine_reason(lang, result["reason"]))))
        scores = ", ".join(f"p{s} {escape(self.names[s])}: {v:g}"
                           for s, v in enumerate(result["scores"]))
        if self.game.match:
            self.say(tr(lang, "m_dragons_end", dragons=scores))
            self.say(tr(lang, "m_rounds_played", n=self.state.turn_count()))
            return
        # a single round: the lines that decided it (M4), which the engine names; the
        # lowest lines only when they decide or the round is drawn
        deciding = deciding_line(self.state.view(None)["rounds"][-1], self.names, lang)
        self.say(deciding if deciding is not None else tr(lang, "m_lowest", scores=scores))

    def end_log(self) -> tuple[str, list[str]] | None:
        placed = round_placements(self.state.view(None))
        if not placed:
            return None
        return tr(self.lang, "m_log_title"), [placement_line(self.lang, self.names, s, card, cell)
                                              for s, card, cell in placed]

    # -------------------------------------------------------------- a human's turn
    def ask_human(self, seat: int) -> MasterAction:
        view = self.state.view(seat)
        legal = self.state.legal_actions(seat)
        self.private_screen(seat)
        render_screen(self.console, view, self.names, self.lang, seed=self.seed)
        action = self.prompt(seat, view, legal)
        self.end_private_screen()
        return action

    def prompt(self, seat: int, view: JSON, legal: Sequence[Action]) -> MasterAction:
        lang = self.lang
        example = example_text(view, lang, legal, with_value=True)
        head = tr(lang, "m_place_head", seat=seat, name=escape(self.names[seat]),
                  example=example)
        self.say(f"[bold]{head}[/]")

        def show_again() -> None:
            render_help(self.console, lang, self.game.four_of_a_kind)
            render_screen(self.console, view, self.names, lang, seed=self.seed)
            self.say(f"[bold]{head}[/]")

        def show_log() -> None:
            self.console.rule(f"[bold]{tr(lang, 'm_log_title')}[/]")
            placed = round_placements(view)
            for s, card, cell in placed:
                self.say(placement_line(lang, self.names, s, card, cell))
            if not placed:
                self.say(tr(lang, "m_log_empty"))

        return self.read_command(tr(lang, "m_prompt"),
                                 lambda text: action_from_text(self.game, text, view, legal,
                                                               lang),
                                 on_help=show_again, on_log=show_log)


def play_master(*, players: int | None, seats: list[str], seed: int | None, lang: str,
                options: dict[str, Any], save: Path | None, console: Console) -> int:
    """Play one round (or a match, ``options["match"]``) of Dragon Master; the exit code
    (0: finished, 1: abandoned)."""
    kinds = resolve_seats(players, seats, lang)
    game = make_game("master", options)
    assert isinstance(game, MasterGame)
    seed = pick_seed(seed)
    bots = make_bots("master", kinds, seed)
    return MasterSession(game, kinds, bots, seed, lang, console, save).run()

