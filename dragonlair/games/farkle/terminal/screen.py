"""What a Dragon Farkle player sees in the terminal: dice drawn as dice, the event die in
words and colour, the scoring options with their soldiers, the risk of the next roll, the
table (armies, companions, the Lair, the dragon), the player's own magic items (D9), the
events told in words, and the rules with the scoring table and both card lists.

The screens work from views (``state.view(seat)``): a screen never reads a state's secrets.
Soldiers come from the engine's scorer (``game.scorer``), never from rules written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

from rich import box
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dragonlair.cli.i18n import tr
from dragonlair.cli.session import seat_number, shown_action
from dragonlair.core.events import Event
from dragonlair.core.game import JSON
from dragonlair.core.i18n import render, term
from dragonlair.games.farkle.actions import DICE_SETS, FarkleAction, Kind
from dragonlair.games.farkle.cards import COMPANIONS, ITEMS, FarkleCard
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.scoring import DEFAULT_TABLE, Counts, Scorer, ScoringTable, counts_of
from dragonlair.games.farkle.state import BATTLE_ARMY, FarkleState, roll_outcomes

FACES = "⚀⚁⚂⚃⚄⚅"
EVENT_STYLES = {"dragon": "bold red", "alliance": "bold green", "blank": "dim"}
MODE_KEYS = {"recruit": "f_mode_recruit", "skirmish": "f_mode_skirmish",
             "battle": "f_mode_battle"}
EVENTS_SHOWN = 14  # new lines of the log on a player's screen, at most
#: the levels of compactness of a player's screen (:func:`screen_parts`)
LEVELS = 5

__all__ = ["FarkleNarrator", "cards_by_id", "dice_markup", "event_markup", "farkle_risks",
           "percent", "render_help", "render_rules", "render_screen", "selection_value"]


# ---------------------------------------------------------------- small words
def num(lang: str, n: int) -> str:
    """``1,250`` (English) / ``1.250`` (German)."""
    text = f"{n:,}"
    return text.replace(",", ".") if lang == "de" else text


def percent(p: float, lang: str = "en") -> str:
    """A probability as a percent with two decimals: ``2.31%`` (German ``2,31 %``)."""
    if lang == "de":
        return f"{100 * p:.2f} %".replace(".", ",")
    return f"{100 * p:.2f}%"


def who(seat: int, names: Sequence[str]) -> str:
    """A seat by its player's name (markup-safe): ``cautious``."""
    return escape(names[seat])


def die_markup(face: int, style: str = "bold") -> str:
    return f"[{style}]{FACES[face - 1]}{face}[/]"


def dice_markup(dice: str | Counts, scoring: Counts | None = None) -> str:
    """Dice as die faces with their digits (``⚀1 ⚄5 ⚅6``), lowest first; the dice in
    ``scoring`` (a multiset) green, the others plain."""
    counts = counts_of(dice) if isinstance(dice, str) else dice
    left = list(scoring) if scoring is not None else [0] * 6
    parts = []
    for face in range(1, 7):
        for _ in range(counts[face - 1]):
            if scoring is None:
                style = "bold"
            elif left[face - 1]:
                left[face - 1] -= 1
                style = "bold green"
            else:
                style = "white"
            parts.append(die_markup(face, style))
    return " ".join(parts) if parts else "-"


def event_markup(lang: str, event: str) -> str:
    """The event die in words and colour."""
    word = term(f"farkle.event.{event}", lang)
    return f"[{EVENT_STYLES[event]}]{word}[/]"


def farkle_risk(scorer: Scorer, k: int) -> float:
    """The chance that ``k`` soldier dice show nothing that scores, by the engine's scorer
    over every roll of ``k`` dice (the probabilities of :func:`roll_outcomes`)."""
    return sum(p for code, _, p in roll_outcomes(k) if not scorer.selections(DICE_SETS[code]))


_RISKS: dict[ScoringTable, dict[int, float]] = {}


def farkle_risks(scorer: Scorer) -> dict[int, float]:
    """:func:`farkle_risk` for 1 to 6 dice, worked out once per scoring table."""
    got = _RISKS.get(scorer.table)
    if got is None:
        got = _RISKS[scorer.table] = {k: farkle_risk(scorer, k) for k in range(1, 7)}
    return got


def selection_value(scorer: Scorer, roll: str | Counts, keep: Counts) -> int:
    """The soldiers a legal selection of ``roll`` is worth, from the engine's scorer."""
    counts = counts_of(roll) if isinstance(roll, str) else roll
    return dict(scorer.selections(counts))[keep]


def cards_by_id(game: FarkleGame) -> dict[str, FarkleCard]:
    return {c.id: c for c in (*game.companions, *game.items)}


def card_words(card: FarkleCard, lang: str) -> str:
    """The card's name in ``lang`` (markup), house cards marked as such."""
    name = f"[bold]{escape(card.name(lang))}[/]"
    if card.house:
        name += f" [dim]({tr(lang, 'f_house')})[/]"
    return name


def unit_words(lang: str, mode: str, defending: bool, n: int) -> str:
    """``150 soldiers`` / ``150 attack`` / ``150 defence``."""
    if mode == "skirmish":
        return tr(lang, "f_defence" if defending else "f_attack", n=num(lang, n))
    return tr(lang, "f_soldiers", n=num(lang, n))


def keep_of(view: JSON, action: FarkleAction) -> JSON | None:
    """The view's word on a selection to keep (``legal.keeps``: its soldiers, the dice left,
    and the next roll's dice and farkle risk, all the roller's dice again after hot dice)."""
    keeps = (view.get("legal") or {}).get("keeps") or []
    return next((k for k in keeps if k["action"] == action.text), None)


# ---------------------------------------------------------------- decisions in words
def describe_choice(game: FarkleGame, lang: str, action: FarkleAction, view: JSON,
                    names: Sequence[str], *, dice: bool = True) -> str:
    """One line of a decision menu (markup): the action's text, then what it means; a
    selection to keep with its dice drawn as dice unless not ``dice`` (its text names them:
    ``keep 155``)."""
    cards = cards_by_id(game)
    k = action.kind
    text = f"[bold]{escape(shown_action(action.text))}[/]"  # its seats from 1: skirmish 2
    seat = view["to_move"][0] if view["to_move"] else 0
    if k == Kind.KEEP:
        keep = keep_of(view, action)
        value = keep["soldiers"] if keep is not None else selection_value(
            game.scorer, view["public"]["roll"], DICE_SETS[action.dice])
        defending = _defending(view)
        after = "" if keep is None else tr(
            lang, "f_keep_left" if keep["dice_left"] else "f_keep_hot", k=keep["next_dice"],
            risk=percent(keep["risk"], lang))
        drawn = f"{dice_markup(DICE_SETS[action.dice])}  " if dice else ""
        return (f"{text} = {unit_words(lang, view['public']['mode'], defending, value)}  "
                f"{drawn}[dim]{after}[/]").rstrip()
    if k == Kind.RECRUIT:
        what = tr(lang, "f_d_recruit")
    elif k == Kind.SKIRMISH:
        what = tr(lang, "f_d_skirmish", who=who(action.seat, names),
                  army=num(lang, view["public"]["seats"][action.seat]["army"]))
    elif k == Kind.BATTLE:
        what = tr(lang, "f_d_battle", strength=view["public"]["dragon"]["strength"])
    elif k == Kind.SCARE:
        comp = cards[view["public"]["seats"][seat]["companion"]]
        what = tr(lang, "f_d_scare", card=escape(comp.name(lang)), who=who(action.seat, names),
                  n=num(lang, comp.amount))
    elif k in (Kind.USE, Kind.DISCARD, Kind.KEEP_ITEM):
        item = game.items[action.card]
        key = {Kind.USE: "f_d_use", Kind.DISCARD: "f_d_discard",
               Kind.KEEP_ITEM: "f_d_keep_item"}[k]
        what = tr(lang, key, card=card_words(item, lang), text=escape(item.text(lang)))
    elif k == Kind.DOUBLE:
        last = _last_value(game, view)
        what = tr(lang, "f_d_double", n=num(lang, 2 * last), half=num(lang, last))
    elif k == Kind.ITEM:
        what = tr(lang, "f_d_item", n=num(lang, _last_value(game, view)))
    elif k == Kind.ROLL:  # the view's next roll: after hot dice, all the roller's dice
        nxt = view["public"]["next_roll"]
        what = tr(lang, "f_d_roll_on") if nxt is None else tr(
            lang, "f_d_roll" if view["public"]["dice_in_hand"] else "f_d_roll_hot",
            k=nxt["dice"], risk=percent(nxt["risk"], lang))
    elif k == Kind.BANK:
        what = tr(lang, "f_d_bank", n=num(lang, view["public"]["pending"]))
    elif k == Kind.STOP:
        sk = view["public"]["skirmish"]
        if sk is not None and view["public"]["roller"] == sk["defender"]:
            what = tr(lang, "f_d_stop_defence", n=num(lang, view["public"]["pending"]),
                      attack=num(lang, sk["attack_value"]))
        else:
            what = tr(lang, "f_d_stop_attack", n=num(lang, view["public"]["pending"]))
    elif k == Kind.FARKLE:
        key = {"recruit": "f_d_farkle_recruit", "skirmish": "f_d_farkle_skirmish"}.get(
            view["public"]["mode"], "f_d_farkle_battle")
        what = tr(lang, key, n=num(lang, view["public"]["pending"]))
    elif k == Kind.TABBY:
        comp = cards[view["public"]["seats"][seat]["companion"]]
        what = tr(lang, "f_d_tabby", card=escape(comp.name(lang)))
    elif k == Kind.REROLL:
        what = tr(lang, "f_d_reroll", face=die_markup(action.face))
    else:  # PASS
        what = tr(lang, "f_d_pass")
    return f"{text} — {what}"


def _defending(view: JSON) -> bool:
    """Whether the roller is the defender of a skirmish (their dice count as defence)."""
    sk = view["public"]["skirmish"]
    return sk is not None and view["public"]["roller"] == sk["defender"]


def keep_legend(lang: str, view: JSON) -> str:
    """What each :func:`keep_brief` says, in words: the heading of the keep menu in two
    columns."""
    mode = view["public"]["mode"]
    unit = ("f_unit_defence" if _defending(view) else "f_unit_attack") \
        if mode == "skirmish" else "f_unit_soldiers"
    return tr(lang, "f_keep_legend", unit=tr(lang, unit))


def keep_brief(game: FarkleGame, lang: str, action: FarkleAction, view: JSON) -> str:
    """A selection to keep in brief (markup), as :func:`keep_legend` reads it: its text
    (``keep 155``), what it is worth, and the next roll's dice and farkle risk (the view's
    ``legal.keeps``) — a cell of the keep menu in two columns."""
    keep = keep_of(view, action)
    value = keep["soldiers"] if keep is not None else selection_value(
        game.scorer, view["public"]["roll"], DICE_SETS[action.dice])
    text = f"[bold]{escape(shown_action(action.text))}[/] = {num(lang, value)}"
    if keep is None:
        return text
    after = tr(lang, "f_keep_brief" if keep["dice_left"] else "f_keep_brief_hot",
               k=keep["next_dice"], risk=percent(keep["risk"], lang))
    return f"{text}  [dim]{after}[/]"


def keep_columns(game: FarkleGame, lang: str, legal: Sequence[FarkleAction],
                 view: JSON) -> Table:
    """The choices of a long keep menu in two columns, numbered down the first column and
    on down the second (:func:`keep_brief` each)."""
    grid = Table.grid(padding=(0, 1))
    for _ in range(2):
        grid.add_column(justify="right", style="bold cyan", no_wrap=True)
        grid.add_column()
    half = (len(legal) + 1) // 2
    width = len(str(len(legal)))
    cells = [(Text(f"  {i:>{width}}."), Text.from_markup(keep_brief(game, lang, a, view)))
             for i, a in enumerate(legal, 1)]
    for row in range(half):
        left = cells[row]
        right = cells[row + half] if row + half < len(cells) else (Text(""), Text(""))
        grid.add_row(*left, *right)
    return grid


def _last_value(game: FarkleGame, view: JSON) -> int:
    """The soldiers of the selection just set aside (an alliance follows it): the view's
    ``last_keep``."""
    last = view["public"]["last_keep"]
    return int(last["soldiers"]) if last is not None else 0


DECISION_HEADS = {"action": "f_head_action", "keep": "f_head_keep",
                  "alliance": "f_head_alliance", "farkle": "f_head_farkle",
                  "tabby": "f_head_tabby", "hiccup": "f_head_hiccup",
                  "keep_item": "f_head_keep_item", "discard": "f_head_discard"}


def decision_head(lang: str, view: JSON, names: Sequence[str], seat: int) -> str:
    decision = view["public"]["decision"]
    if decision == "continue":
        key = "f_head_continue_recruit" if view["public"]["mode"] == "recruit" else \
            "f_head_continue_skirmish"
    else:
        key = DECISION_HEADS.get(decision or "", "f_head_action")
    limit = (view["private"] or {}).get("item_limit", 1)
    return tr(lang, key, who=who(seat, names), limit=limit)


# ---------------------------------------------------------------- the screen
def players_table(game: FarkleGame, view: JSON, names: Sequence[str], lang: str, *,
                  compact: bool = False) -> Table:
    """The seats; ``compact``: without the line under the heads."""
    cards = cards_by_id(game)
    viewer = view.get("seat")
    over = view["phase"] == "over"
    table = Table(show_edge=False, pad_edge=False, expand=False, header_style="bold",
                  box=None if compact else box.HEAVY_HEAD)
    table.add_column(tr(lang, "f_col_seat"))
    table.add_column(tr(lang, "f_col_player"))
    table.add_column(tr(lang, "f_col_army"), justify="right")
    table.add_column(tr(lang, "f_col_companion"))
    table.add_column(tr(lang, "f_col_items"), justify="right")
    rows: list[tuple[Text, Text, Text, Text, str, Text]] = []
    for entry in view["public"]["seats"]:
        seat = entry["seat"]
        mark = "▶ " if seat == view["public"]["player"] and not over and view["turn"] else "  "
        comp = entry["companion"]
        comp_text = (Text(cards[comp].name(lang)) if comp is not None  # marks: see below
                     else Text(tr(lang, "f_no_companion"), style="dim"))
        items = str(entry["items"])
        if entry["items_gained"]:
            items += " " + tr(lang, "f_gained_n", n=entry["items_gained"])
        status = []
        if entry["in_lair"]:
            status.append(f"[bold red]{tr(lang, 'f_in_lair')}[/]")
        rows.append((Text(mark + seat_number(seat), style="reverse" if seat == viewer else ""),
                     Text(names[seat]), Text(num(lang, entry["army"]), style="bold"),
                     comp_text, items, Text.from_markup(", ".join(status))))
    with_status = any(row[-1].plain for row in rows)
    if with_status:  # no empty column dangling at the right
        table.add_column(tr(lang, "f_col_status"))
    for row in rows:
        table.add_row(*(row if with_status else row[:-1]))
    return table


def companions_table(game: FarkleGame, view: JSON, lang: str,
                     names: Sequence[str] | None = None) -> Table:
    """Each companion on the table with its holders (by name; by seat number from 1 without
    ``names``) and its text (public, D9)."""
    cards = cards_by_id(game)
    out = Table.grid(padding=(0, 1))
    out.add_column(no_wrap=True)
    out.add_column(no_wrap=True)
    out.add_column(style="italic")
    seen: list[str] = []
    for entry in view["public"]["seats"]:
        comp = entry["companion"]
        if comp is None or comp in seen:
            continue
        seen.append(comp)
        card = cards[comp]
        holders = ", ".join(names[e["seat"]] if names is not None else seat_number(e["seat"])
                            for e in view["public"]["seats"] if e["companion"] == comp)
        out.add_row(Text(f" {holders}"), Text.from_markup(card_words(card, lang) + ":"),
                    card.text(lang))
    return out


def dragon_text(view: JSON, lang: str) -> Text:
    dragon = view["public"]["dragon"]
    if view["public"]["mode"] == "battle":
        return Text(tr(lang, "f_dragon_battle", damage=dragon["damage"],
                       strength=dragon["strength"]), style="bold red")
    return Text(tr(lang, "f_dragon_line", strength=dragon["strength"],
                   army=num(lang, BATTLE_ARMY)), style="dim")


def turn_panel(game: FarkleGame, view: JSON, names: Sequence[str], lang: str) -> Panel:
    """The roll in progress: dice, event die, pending soldiers, dice in hand, risk."""
    pub = view["public"]
    title = tr(lang, "f_turn_panel", who=who(pub["roller"], names),
               mode=tr(lang, MODE_KEYS.get(pub["mode"], "f_mode_recruit")))
    return Panel(Group(*turn_rows(game, view, names, lang)), title=title, title_align="left",
                 border_style="red" if pub["mode"] == "battle" else "yellow")


def turn_rows(game: FarkleGame, view: JSON, names: Sequence[str],
              lang: str) -> list[RenderableType]:
    """What :func:`turn_panel` holds."""
    pub = view["public"]
    roller = pub["roller"]
    mode = pub["mode"]
    sk = pub["skirmish"]
    defending = sk is not None and roller == sk["defender"]
    rows: list[RenderableType] = []
    if sk is not None:
        rows.append(Text.from_markup(tr(lang, "f_skirmish_line", attacker=who(
            sk["attacker"], names), defender=who(sk["defender"], names))))
        if defending:
            rows.append(Text.from_markup(
                f"[bold]{tr(lang, 'f_to_beat', n=num(lang, sk['attack_value']))}[/]"))
    if pub["roll"]:
        scoring, _ = game.scorer.scoring_dice(counts_of(pub["roll"]))
        roll_key = "f_last_roll" if pub["decision"] in ("continue", "alliance") else "f_roll"
        rows.append(Text.from_markup(
            f"{tr(lang, roll_key)} {dice_markup(pub['roll'], scoring)}   "
            f"{tr(lang, 'f_event_die')} {event_markup(lang, pub['event'])}   "
            f"[dim]{tr(lang, 'f_scoring_hint')}[/]"))
    if mode != "battle":
        key = ("f_pending_defence" if defending else "f_pending_attack") \
            if mode == "skirmish" else "f_pending_recruit"
        rows.append(Text.from_markup(f"[bold]{tr(lang, key, n=num(lang, pub['pending']))}[/]"))
    hand = pub["dice_in_hand"]
    nxt = pub["next_roll"]  # the view's: after hot dice all the roller's dice (D5.2)
    if pub["decision"] in ("continue", "alliance") and nxt is not None:  # between rolls
        line = tr(lang, "f_in_hand", n=hand) if hand else tr(lang, "f_hot_dice",
                                                              full=nxt["dice"])
        line += " · " + tr(lang, "f_risk", k=nxt["dice"], risk=percent(nxt["risk"], lang))
    else:  # a roll on the table: its dice are still in hand
        line = tr(lang, "f_rolled", n=hand)
    rows.append(Text(line))
    return rows


def items_panel(game: FarkleGame, view: JSON, names: Sequence[str], lang: str) -> Panel:
    """The viewer's own magic items, with their texts: only the ``me`` part of their view."""
    me = view["private"]
    title = tr(lang, "f_your_items", who=who(view["seat"], names), limit=me["item_limit"])
    return Panel(Group(*items_rows(game, view, lang)), title=title, title_align="left",
                 border_style="green")


def items_rows(game: FarkleGame, view: JSON, lang: str) -> list[RenderableType]:
    """What :func:`items_panel` holds."""
    cards = cards_by_id(game)
    me = view["private"]
    rows: list[RenderableType] = []
    for item in me["items"]:
        card = cards[item]
        rows.append(Text.from_markup(f"{card_words(card, lang)}: {escape(card.text(lang))}"))
    if not me["items"]:
        rows.append(Text(tr(lang, "f_no_items"), style="dim"))
    if me["gained"]:
        rows.append(Text(tr(lang, "f_gained_items"), style="bold"))
        for item in me["gained"]:
            card = cards[item]
            rows.append(Text.from_markup(f"  {card_words(card, lang)}: "
                                         f"{escape(card.text(lang))}"))
    return rows


def events_panel(lang: str, new: Sequence[str], old: Sequence[str],
                 rows: int | None = None, console: Console | None = None) -> Panel | None:
    """The log lines since the viewer's last screen (or, without any, the last few), within
    ``rows`` rows on ``console`` (None: up to :data:`EVENTS_SHOWN` lines): the newest
    that fit, headed by how many were left out. None when not even one fits."""
    from dragonlair.cli.fit import log_panel

    title = tr(lang, "f_events")
    if rows is not None and console is not None:
        def more(n: int) -> str:
            return tr(lang, "f_more_events", n=n)

        if new:
            return log_panel(console, new, rows, title=title, border_style="dim", more=more,
                             limit=EVENTS_SHOWN)
        lines = list(old[-5:]) or [escape(tr(lang, "f_no_events"))]
        return log_panel(console, lines, rows, title=title, border_style="dim",
                         style="dim" if old else "")
    body: list[RenderableType] = []
    if new:
        if len(new) > EVENTS_SHOWN:
            body.append(Text(tr(lang, "f_more_events", n=len(new) - EVENTS_SHOWN), style="dim"))
        body += [Text.from_markup(line) for line in new[-EVENTS_SHOWN:]]
    elif old:
        body += [Text.from_markup(line, style="dim") for line in old[-5:]]
    else:
        body.append(Text(tr(lang, "f_no_events")))
    return Panel(Group(*body), title=title, title_align="left", border_style="dim")


def screen_parts(game: FarkleGame, view: JSON, names: Sequence[str], lang: str,
                 level: int) -> tuple[list[RenderableType], list[RenderableType]]:
    """The screen but its log, above the log and below it, at a level of compactness: 0 all
    of it; 1 the table without the line under its heads; 2 the roll and the items without
    frames; 3 no companions' texts (the table names them; help has the texts); 4 the
    dragon's line only in the Final Battle."""
    above: list[RenderableType] = [players_table(game, view, names, lang, compact=level > 0)]
    if level < 3:
        above += [Text(tr(lang, "f_companions") + ":", style="bold"),
                  companions_table(game, view, lang, names)]
    if level < 4 or view["public"]["mode"] == "battle":
        above.append(dragon_text(view, lang))
    below: list[RenderableType] = []
    if view["public"]["mode"] != "none" and view["phase"] != "over":
        below += [turn_panel(game, view, names, lang)] if level < 2 else turn_rows(
            game, view, names, lang)
    if view["private"] is not None:
        if level < 2:
            below.append(items_panel(game, view, names, lang))
        else:
            title = tr(lang, "f_your_items", who=who(view["seat"], names),
                       limit=view["private"]["item_limit"])
            below += [Text.from_markup(f"[bold green]{title}[/]"),
                      *items_rows(game, view, lang)]
    return above, below


def least_rows(console: Console, game: FarkleGame, view: JSON, names: Sequence[str],
               lang: str) -> int:
    """The rows :func:`render_screen` takes at its most compact, without the log: what a
    menu under it must leave."""
    from dragonlair.cli.fit import height

    above, below = screen_parts(game, view, names, lang, LEVELS - 1)
    return 1 + height(console, *above, *below)  # the head's rule, then the parts


def render_screen(console: Console, game: FarkleGame, view: JSON, names: Sequence[str],
                  lang: str, new: Sequence[str], old: Sequence[str] = (), *,
                  seed: int | None = None, rows: int | None = None) -> None:
    """The whole screen for ``view``; a seat's own items only if it is that seat's view.
    ``rows``: the rows it may take (what is printed below it, the prompt included, already
    counted out): the log gets the rows the rest leaves, and the rest is drawn more
    compactly where even that does not fit (None: no bound)."""
    from dragonlair.cli.fit import (
        MIN_PANEL,
        Rendered,
        fitting_level,
        print_rendered,
        rendered,
        rows_of,
    )

    turn = view["turn"]
    head = tr(lang, "f_title") + " · " + (tr(lang, "f_turn", n=turn) if turn
                                           else tr(lang, "f_setup"))
    if seed is not None:
        head += f" · seed {seed}"
    tried: dict[int, tuple[list[Rendered], list[Rendered], int | None]] = {}

    def attempt(level: int) -> bool:  # this level, rendered once; the log gets what is left
        if level not in tried:
            up, down = screen_parts(game, view, names, lang, level)
            above, below = rendered(console, *up), rendered(console, *down)
            tried[level] = (above, below, None if rows is None
                            else rows - 1 - rows_of(above) - rows_of(below))
        left = tried[level][2]
        return left is None or left >= MIN_PANEL

    above, below, left = tried[fitting_level(console, "farkle", LEVELS, attempt)]
    console.rule(f"[bold]{escape(head)}[/]")
    print_rendered(console, above)
    panel = events_panel(lang, new, old, left, console)
    if panel is not None:
        console.print(panel)
    print_rendered(console, below)


# ---------------------------------------------------------------- the story in words
#: params shown as numbers (1,250 / 1.250), as seats, as dice and as one die
_NUMBER_PARAMS = frozenset({"n", "army", "pending", "bonus", "attack", "defence", "kept"})


class FarkleNarrator:
    """The log: the engine's events a viewer may see (``state.events_for``, D9), each
    rendered from the message catalogues in the UI language, with the seats' names, dice
    drawn as dice and cards by their names (a deck file's own names too)."""

    def __init__(self, game: FarkleGame, lang: str, names: Sequence[str]) -> None:
        self.game = game
        self.lang = lang
        self.names = list(names)
        self.shown_names = [who(s, names) for s in range(len(names))]
        self.cards = cards_by_id(game)
        # the log as a stream (issue 24): each viewer's lines so far, and the state and the
        # number of its events they were read from; a later call words only the new events
        self._told: dict[int | None, tuple[FarkleState, int, list[str]]] = {}

    def lines_for(self, state: FarkleState, viewer: int | None) -> list[str]:
        """Every event ``viewer`` (``None``: a spectator) may see, in words (markup)."""
        state_then, read, lines = self._told.get(viewer, (state, 0, []))
        if state_then is not state or read > state.event_count:
            read, lines = 0, []  # another game: its log from the start
        lines = lines + [self.event_words(event)
                         for _, event in state.events_for(viewer, read)]
        self._told[viewer] = (state, state.event_count, lines)
        return list(lines)

    def event_words(self, event: Event) -> str:
        """One event in the UI language (markup)."""
        lang = self.lang
        params: dict[str, object] = {}
        for key, value in event.params.items():
            if key == "dice":
                params[key] = dice_markup(str(value))
            elif key == "face":
                params[key] = die_markup(int(value))
            elif key == "event":
                params[key] = event_markup(lang, str(value))
            elif key == "card" and value in self.cards:
                params[key] = card_words(self.cards[str(value)], lang)
            elif key in _NUMBER_PARAMS and type(value) is int:
                params[key] = num(lang, value)
            else:
                params[key] = value
        return render(event.code, params, lang, self.shown_names)


# ---------------------------------------------------------------- rules and help
def rules_markdown(lang: str) -> str:
    folder = resources.files("dragonlair.games.farkle") / "rules"
    return (folder / f"{'de' if lang == 'de' else 'en'}.md").read_text(encoding="utf-8")


def scoring_table(lang: str, table: ScoringTable = DEFAULT_TABLE) -> Table:
    """The soldiers of every combination, read from a :class:`ScoringTable`."""
    out = Table(title=tr(lang, "f_scoring_title"), show_lines=False)
    out.add_column(tr(lang, "f_col_combination"))
    out.add_column(tr(lang, "f_col_example"))
    out.add_column(tr(lang, "f_col_soldiers"), justify="right")
    rows: list[tuple[str, str, int]] = [
        (tr(lang, "f_single_1"), "1", table.single_one),
        (tr(lang, "f_single_5"), "5", table.single_five),
    ]
    rows += [(tr(lang, "f_three_n", n=face), str(face) * 3, table.triple[face - 1])
             for face in range(1, 7)]
    rows += [(tr(lang, "f_four"), "2222", table.four), (tr(lang, "f_five"), "33333", table.five),
             (tr(lang, "f_six"), "444444", table.six),
             (tr(lang, "f_three_pairs"), "225566", table.three_pairs),
             (tr(lang, "f_straight"), "123456", table.straight)]
    for name, example, soldiers in rows:
        out.add_row(name, Text.from_markup(dice_markup(example)), num(lang, soldiers))
    return out


def risk_table(lang: str, scorer: Scorer) -> Table:
    risks = farkle_risks(scorer)
    out = Table(title=tr(lang, "f_risk_title"), show_lines=False)
    out.add_column(tr(lang, "f_col_dice"), justify="right")
    out.add_column(tr(lang, "f_col_risk"), justify="right")
    for k in range(1, 7):
        out.add_row(str(k), percent(risks[k], lang))
    return out


def cards_table(lang: str, title: str, cards: Sequence[FarkleCard]) -> Table:
    out = Table(title=title, show_lines=False, expand=True)
    out.add_column(tr(lang, "f_col_card"), style="bold", no_wrap=True)
    out.add_column(tr(lang, "f_col_copies"), justify="right")
    out.add_column(tr(lang, "f_col_text"))
    for card in cards:
        out.add_row(card.name(lang) + (" *" if card.house else ""), str(card.count),
                    card.text(lang))
    return out


def render_rules(console: Console, lang: str, *, table: ScoringTable = DEFAULT_TABLE,
                 companions: Sequence[FarkleCard] = COMPANIONS,
                 items: Sequence[FarkleCard] = ITEMS) -> None:
    """The rules in brief, the scoring table, the farkle risks and both card lists
    (``dragonlair rules farkle``, and ``help`` during a game with the table's own data)."""
    console.print(Markdown(rules_markdown(lang)))
    console.print(scoring_table(lang, table))
    console.print(Text(tr(lang, "f_scoring_notes")))
    console.print(risk_table(lang, Scorer(table)))
    console.print(Text(tr(lang, "f_risk_note")))
    for key, cards in (("f_companions_title", companions), ("f_items_title", items)):
        title = tr(lang, key, n=sum(c.count for c in cards))
        console.print(cards_table(lang, title, cards))
    console.print(Text(tr(lang, "f_house_note")))


def render_help(console: Console, game: FarkleGame, lang: str) -> None:
    console.rule(f"[bold]{tr(lang, 'help_title')}[/]")
    render_rules(console, lang, table=game.table, companions=game.companions, items=game.items)
    console.print()
    console.print(Text(tr(lang, "f_help_typing")))


def end_lines(view: JSON, names: Sequence[str], lang: str, turns: int) -> list[str]:
    """The end of a game in words (markup), from the final view: who won, why, each
    army, and the turns played. The local and the online game both print these."""
    result = view["result"]
    winners = result["winners"]
    shown = ", ".join(who(s, names) for s in winners)
    key = "winner" if len(winners) == 1 else "winners"
    seats = [who(s, names) for s in range(len(names))]
    reason = render(result["reason"], result["reason_params"], lang, seats)
    armies = ", ".join(f"{who(s, names)}: {num(lang, int(a))}"
                       for s, a in enumerate(result["scores"]))
    return [f"[bold green]{tr(lang, key, who=shown)}[/]", tr(lang, "reason", reason=reason),
            tr(lang, "f_armies", armies=armies), tr(lang, "f_turns_played", n=turns)]
