"""What a Fist of Dragonstones player sees in the terminal: the table from one seat's
view (F8), the engine's events told in words, and the legal actions described.

Everything here works from views (``state.view(seat, since)``: the envelope of
docs/views.md, its ``public``, ``private`` and ``legal`` parts and the ``events`` this
seat may see): the screen never reads a state's secrets. Every word comes from the
catalogues (``fist.po``: the engine's event, choice and end codes, ``fist.card.*``,
``fist.ui.*``); nothing here re-checks a rule or turns engine text into other words.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dragonlair.cli.i18n import COLOUR_STYLES, tr
from dragonlair.cli.session import seat_number, shown_action
from dragonlair.core.events import Event
from dragonlair.core.game import JSON
from dragonlair.core.i18n import catalogue, render, seat_name, term
from dragonlair.games.fist.actions import COLOURS, FistAction
from dragonlair.games.fist.game import FistGame

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState

COIN_KEYS = ("fairy", "common", "silver", "amulet", "black")
EVENTS_SHOWN = 12
NOTES_SHOWN = 5


# ---------------------------------------------------------------- small words
def ui(lang: str, key: str, **fields: object) -> str:
    """The terminal's word ``key`` in ``lang``: the catalogue entry ``fist.ui.<key>``
    (``dragonlair/games/fist/locale/<lang>/LC_MESSAGES/fist.po``, section ``# terminal``)."""
    return render(f"fist.ui.{key}", fields, lang)


def colour_name(lang: str, colour: str) -> str:
    """A stone colour by its id (``red``), in ``lang``."""
    return term(f"fist.colour.{colour}", lang)


def plain_card_name(game: FistGame, card_id: str, lang: str) -> str:
    """A character's name in ``lang`` from the catalogue (``fist.card.<id>.name``); a custom
    character (F9) carries its own names."""
    card = game.card(card_id)
    if card.custom:
        return card.name(lang)
    return term(f"fist.card.{card_id}.name", lang, fallback=card.name(lang))


def card_text(game: FistGame, card_id: str, lang: str) -> str:
    """A character's power in words (``fist.card.<id>.text``; a custom one's own text)."""
    card = game.card(card_id)
    if card.custom:
        return card.text(lang)
    return term(f"fist.card.{card_id}.text", lang, fallback=card.text(lang))


def card_name(game: FistGame, card_id: str, lang: str) -> str:
    """A character's name as markup."""
    return escape(plain_card_name(game, card_id, lang))


def stone_word(lang: str, colour: str) -> str:
    """A colour name in its colour (markup)."""
    return f"[{COLOUR_STYLES[colour]}]{colour_name(lang, colour)}[/]"


def stones_markup(lang: str, counts: Sequence[int], *, zeros: bool = True) -> str:
    """``red 2  blue 0  yellow 1``, coloured."""
    parts = [f"{stone_word(lang, c)} {n}" for c, n in zip(COLOURS, counts, strict=True)
             if zeros or n]
    return "  ".join(parts) if parts else ui(lang, "nothing")


def stone_list(lang: str, counts: Sequence[int]) -> str:
    """``2 red, 1 blue`` (markup)."""
    parts = [ui(lang, "stone_n", n=n, colour=stone_word(lang, c))
             for c, n in zip(COLOURS, counts, strict=True) if n]
    return ", ".join(parts) if parts else ui(lang, "nothing")


def stone_counts(stones: JSON) -> list[int]:
    return [int(stones[c]) for c in COLOURS]


def bid_words(lang: str, action: FistAction) -> str:
    """A sealed bid in words: ``3 Fairy + 1 Common + a Black Magic coin``."""
    parts = []
    if action.fairy:
        parts.append(ui(lang, "bid_fairy", n=action.fairy))
    if action.common:
        parts.append(ui(lang, "bid_common", n=action.common))
    if action.black:
        parts.append(ui(lang, "bid_black"))
    if action.amulet:
        parts.append(ui(lang, "bid_amulet"))
    return " + ".join(parts) if parts else ui(lang, "bid_empty")


def silver_words(lang: str, action: FistAction) -> str:
    """A tie-break bid in words: ``2 Silver + an Amulet (×2)``."""
    text = ui(lang, "silver_n", n=action.silver) if action.silver else ui(lang, "silver_zero")
    return text + (" + " + ui(lang, "bid_amulet") if action.amulet else "")


def choice_words(game: FistGame, choice: Mapping[str, Any], lang: str,
                 names: Sequence[str] | None = None) -> str:
    """One option of a power decision (an entry of ``view["legal"]["choices"]``) in words
    (markup): its ``fist.choice.*`` code rendered from the catalogue, seats by ``names``."""
    return escape(render_message(game, choice["code"], choice["params"], lang, names))


def forced_words(game: FistGame, view: JSON, action: FistAction, lang: str,
                 names: Sequence[str] | None = None) -> str:
    """The one action ``view``'s seat could take, in words (markup): a bid, a Silver bid, or
    the one choice of a decision."""
    legal = view["legal"] or {}
    if legal.get("kind") == "decision":
        for choice in legal["choices"] or ():
            if choice["action"] == str(action):
                return choice_words(game, choice, lang, names)
    if legal.get("kind") == "silver":
        return silver_words(lang, action)
    if legal.get("kind") == "bid":
        return bid_words(lang, action)
    return escape(shown_action(str(action)))


# ---------------------------------------------------------------- the engine's events
#: the events that tell how an auction ended, the turns, points and the end (every
#: ``fist.end.*``): the summary a player sees when more happened than the recent events show
SUMMARY_CODES = frozenset({"fist.auction.won", "fist.auction.passed", "fist.auction.cursed",
                           "fist.auction.skipped", "fist.tiebreak.no_winner", "fist.goblin.drew",
                           "fist.score.points", "fist.turn.start"})
#: how the log shows some events (rich styles): the turns, auctions and what they decide
EVENT_STYLES = {"fist.turn.start": "bold", "fist.auction.card": "magenta",
                "fist.auction.won": "bold green", "fist.score.points": "bold",
                "fist.auction.passed": "dim", "fist.auction.cursed": "red"}


def _card_fields(template: str) -> tuple[set[str], set[str]]:
    """The params a template shows as a card (``{x:card}``) or a list of cards."""
    single: set[str] = set()
    many: set[str] = set()
    for _, field, spec, _ in string.Formatter().parse(template):
        if field and spec == "card":
            single.add(field)
        elif field and spec == "list-card":
            many.add(field)
    return single, many


def render_message(game: FistGame, code: str, params: Mapping[str, Any], lang: str,
                   names: Sequence[str] | None = None) -> str:
    """A catalogue message (an event, an end reason, a choice) in ``lang``, as plain text.
    A custom character (F9) is not in the catalogue: its own name stands in for its id."""
    custom = {c.id: c.name(lang) for c in game.cards if c.custom}
    if custom:
        template = catalogue(lang).template(code) or catalogue("en").template(code) or ""
        single, many = _card_fields(template)
        fixed = dict(params)
        for key in single:
            if fixed.get(key) in custom:
                fixed[key] = custom[fixed[key]]
        for key in many:
            if isinstance(fixed.get(key), list):
                fixed[key] = [custom.get(v, v) for v in fixed[key]]
        params = fixed
    return render(code, params, lang, names)


def event_line(game: FistGame, event: Event, lang: str,
               names: Sequence[str] | None = None) -> str:
    """One event as a log line (markup), its seats by ``names``: a private one (told to this
    seat only) marked, the turns, auctions and the end set off."""
    plain = render_message(game, event.code, event.params, lang, names)
    text = escape(plain)
    if event.to is not None:
        return f"[cyan]{text}[/] [dim]{escape(ui(lang, 'private_event'))}[/]"
    if event.code == "fist.turn.start":
        text = f"— {text} —"
    elif event.code.startswith("fist.end."):
        return f"[bold]{escape(ui(lang, 'game_over', reason=plain))}[/]"
    style = EVENT_STYLES.get(event.code)
    return f"[{style}]{text}[/]" if style else text


def event_from_json(data: Mapping[str, Any]) -> tuple[int, Event]:
    """``(seq, Event)`` of an event of a view (``view["events"]``, docs/views.md)."""
    return int(data["seq"]), Event(data["code"], data["params"], data.get("to"))


class EventLog:
    """The game log of one viewer (a seat, or ``None`` for a spectator): the engine's
    events that this viewer may see (F8), rendered in ``lang`` with the seats' ``names``
    (without them, seats by number from 1), fed as they come. The starting stones (F3.1),
    one event per stone, are told in one line."""

    def __init__(self, game: FistGame, lang: str, viewer: int | None = None,
                 names: Sequence[str] | None = None) -> None:
        self.game = game
        self.lang = lang
        self.viewer = viewer
        self.names = list(names) if names is not None else None
        self.lines: list[str] = []
        self.summary_at: list[int] = []
        #: the lines told to this seat only (its secrets: what a Thief or Brigand took or
        #: gave), but for its own sealed bids, which its screen shows until they are revealed
        self.private: list[str] = []
        self.next_seq = 0  # the first event not seen yet

    def feed(self, events: Iterable[tuple[int, Event]]) -> list[str]:
        """Tell the events with ``seq`` not seen yet; returns the new lines."""
        start = len(self.lines)
        stones: dict[int, list[int]] = {}  # starting stones drawn in a row, per seat
        for seq, event in events:
            if seq < self.next_seq or not event.visible_to(self.viewer):
                continue
            self.next_seq = seq + 1
            if event.code == "fist.setup.stone":
                counts = stones.setdefault(int(event.params["seat"]), [0, 0, 0])
                counts[COLOURS.index(event.params["colour"])] += 1
                continue
            self._setup_line(stones)
            if event.code in SUMMARY_CODES or event.code.startswith("fist.end."):
                self.summary_at.append(len(self.lines))
            line = event_line(self.game, event, self.lang, self.names)
            self.lines.append(line)
            if event.to is not None and not event.code.endswith(".own"):
                self.private.append(line)  # a secret; its own sealed bids are on its screen
        self._setup_line(stones)
        return self.lines[start:]

    def _setup_line(self, stones: dict[int, list[int]]) -> None:
        if stones:
            hands = "; ".join(f"{escape(seat_name(s, self.names, self.lang))}: "
                              f"{stone_list(self.lang, counts)}"
                              for s, counts in sorted(stones.items()))
            self.lines.append(ui(self.lang, "ev_setup", stones=hands))
            stones.clear()

    def feed_view(self, view: JSON) -> list[str]:
        """Tell the events of a view (``view["events"]``) not seen yet."""
        return self.feed(event_from_json(e) for e in view["events"])

    def feed_state(self, state: FistState) -> list[str]:
        """Tell what happened in ``state`` since the last feed: the events of this viewer's
        view from the first one not seen yet (``view(viewer, since)``, F8)."""
        return self.feed_view(state.view(self.viewer, self.next_seq))

    def summary(self, since: int = 0) -> list[str]:
        """From line ``since`` on, only how the auctions ended, the turns and the points."""
        return [self.lines[i] for i in self.summary_at if i >= since]


# ---------------------------------------------------------------- the screen
def _names_of(game: FistGame, ids: Sequence[str], lang: str) -> str:
    return ", ".join(card_name(game, c, lang) for c in ids) if ids else ui(lang, "none")


def _sorted_names(game: FistGame, ids: Sequence[str], lang: str) -> str:
    """Cards whose order is hidden, alphabetically in ``lang``."""
    return _names_of(game, sorted(ids, key=lambda c: plain_card_name(game, c, lang)), lang)


def players_table(view: JSON, names: Sequence[str], lang: str, *,
                  compact: bool = False) -> Table:
    """The seats as everyone sees them (``view["public"]["seats"]``): stones, points, who
    holds the Doppelganger, who is in a tie-break and who has handed in a sealed bid.
    ``compact``: without the line under the heads."""
    viewer = view.get("seat")
    public = view["public"]
    table = Table(show_edge=False, pad_edge=False, expand=False, header_style="bold",
                  box=None if compact else box.HEAVY_HEAD)
    table.add_column(ui(lang, "col_seat"))
    table.add_column(ui(lang, "col_name"))
    table.add_column(ui(lang, "col_stones"))
    table.add_column(ui(lang, "col_score"), justify="right")
    tied = set(public["tie_break"])
    rows: list[tuple[Text, Text, Text, str, str]] = []
    for entry in public["seats"]:
        seat = entry["seat"]
        status = []
        if entry["doppelganger"]:
            status.append(ui(lang, "doppel_mark"))
        if seat in tied:
            status.append(ui(lang, "in_tie"))
        if entry.get("has_bid"):
            status.append(ui(lang, "has_bid"))
        style = "reverse" if seat == viewer else ""
        rows.append((Text(seat_number(seat), style=style), Text(names[seat]),
                     Text.from_markup(stones_markup(lang, stone_counts(entry["stones"]))),
                     str(entry["score"]), ", ".join(status)))
    with_status = any(row[-1] for row in rows)
    if with_status:  # no empty column dangling at the right
        table.add_column(ui(lang, "col_status"))
    for row in rows:
        table.add_row(*(row if with_status else row[:-1]))
    return table


def bank_text(view: JSON, lang: str) -> Text:
    bank = view["public"]["bank"]
    text = Text.from_markup(f"[bold]{ui(lang, 'bank')}:[/] ")
    text.append(ui(lang, "bank_line", **{k: bank[k] for k in COIN_KEYS}))
    text.append(" · ")
    text.append_text(Text.from_markup(stones_markup(lang, stone_counts(bank["stones"]))))
    return text


def auction_rows(game: FistGame, view: JSON, lang: str, names: Sequence[str] | None = None,
                 *, compact: bool = False, bare: bool = False) -> list[RenderableType]:
    """What the auction panel holds; ``compact``: only what is decided now (the card and
    its power, a tie-break, the Rainbow Dragon's draw), where the screen is short of rows
    (the power's text is then left to the menu that asks about it); ``bare``: not even the
    card's text (``help`` has it)."""
    public = view["public"]
    rows: list[RenderableType] = []
    card_id = public["card"]
    deciding = view["phase"] in ("decide", "power_chance")
    if card_id and view["phase"] not in ("special", "setup"):
        key = "power_now" if deciding else "up_for_auction"
        rows.append(Text.from_markup(
            f"[bold magenta]{ui(lang, key, card=card_name(game, card_id, lang))}[/]"))
        if not (compact and deciding) and not bare:
            rows.append(Text(card_text(game, card_id, lang), style="italic"))
    else:
        rows.append(Text(ui(lang, "no_card")))
    if public["tie_break"]:
        rows.append(Text(ui(lang, "tie_break_now",
                            seats=", ".join(seat_name(s, names, lang)
                                            for s in public["tie_break"])),
                         style="bold"))
    if public["rainbow_colour"]:
        rows.append(Text.from_markup(ui(
            lang, "rainbow_state", colour=stone_word(lang, public["rainbow_colour"]),
            drawn=stone_list(lang, stone_counts(public["drawn"])))))
    if compact:
        return rows
    rows.append(Text.from_markup(ui(lang, "to_come", n=len(public["pile"]),
                                    cards=_sorted_names(game, public["pile"], lang))))
    rows.append(Text.from_markup(ui(lang, "auctioned",
                                    cards=_names_of(game, public["auctioned"], lang))))
    rows.append(Text.from_markup(
        ui(lang, "specials", cards=_names_of(game, public["turn_specials"], lang)) + " · "
        + ui(lang, "deck_left", n=public["special_deck_size"])))
    return rows


def auction_panel(game: FistGame, view: JSON, lang: str,
                  names: Sequence[str] | None = None, *, compact: bool = False) -> Panel:
    """The card up for auction (or whose power is being used), the tie-break (its players by
    ``names``), the Rainbow Dragon's draw, and this turn's cards (``view["public"]``)."""
    return Panel(Group(*auction_rows(game, view, lang, names, compact=compact)),
                 title=ui(lang, "auction"), title_align="left")


def coins_rows(view: JSON, lang: str) -> list[RenderableType]:
    me = view["private"]
    rows: list[RenderableType] = [
        Text(ui(lang, "coins_fairy", fairy=me["fairy"], spent=me["fairy_spent"])),
        Text(ui(lang, "coins_rest", common=me["common"], silver=me["silver"], black=me["black"],
                amulet=me["amulet"])),
    ]
    if me.get("bid"):
        rows.append(Text(ui(lang, "your_bid", bid=me["bid"])))
    return rows


def coins_panel(view: JSON, names: Sequence[str], lang: str) -> Panel:
    """The viewer's own screen: only ever the ``private`` part of their own view."""
    title = ui(lang, "behind_screen", name=escape(names[view["seat"]]))
    return Panel(Group(*coins_rows(view, lang)), title=title, title_align="left",
                 border_style="green")


def fixed_parts(game: FistGame, view: JSON, names: Sequence[str], lang: str,
                level: int) -> list[RenderableType]:
    """The screen but its logs, at a level of compactness: 0 all of it; 1 the auction
    panel with only what is decided now; 2 the auction and the coins without frames; 3 no
    card text (``help`` has it), and no auction while a power is decided (its menu names
    it); 4 not the card up for auction either while the viewer is asked to bid (the bid's
    head under the screen names it)."""
    parts: list[RenderableType] = [players_table(view, names, lang, compact=level > 0),
                                   bank_text(view, lang)]
    deciding = view["phase"] in ("decide", "power_chance")
    bidding = (view.get("legal") or {}).get("kind") in ("bid", "silver")
    if view["phase"] != "over":
        if level < 2:
            parts.append(auction_panel(game, view, lang, names, compact=level > 0))
        elif level == 2 or not deciding:
            rows = auction_rows(game, view, lang, names, compact=True, bare=level > 2)
            parts += rows[1:] if level > 3 and bidding else rows
    if view["private"] is not None:
        if level < 2:
            parts.append(coins_panel(view, names, lang))
        else:
            head = ui(lang, "behind_screen", name=escape(names[view["seat"]]))
            parts.append(Text.from_markup(f"[bold green]{head}[/]"))
            parts += coins_rows(view, lang)
    return parts


#: the levels of compactness of a screen (:func:`fixed_parts`)
LEVELS = 5


def render_table(console: Console, game: FistGame, view: JSON, names: Sequence[str], lang: str,
                 events: Sequence[str], *, seed: int | None = None,
                 events_shown: int = EVENTS_SHOWN, summary: Sequence[str] = (),
                 notes: Sequence[str] | None = None, rows: int | None = None) -> None:
    """The whole screen for ``view``: its seat's coins only if it is a seat's view.
    ``summary``: the auctions since the viewer's last screen, when there are more events
    than the recent events show (:meth:`EventLog.summary`); ``notes``: the lines told to
    this seat only (:attr:`EventLog.private`). ``rows``: the rows the screen may take (what
    is printed below it, the prompt included, already counted out); the logs get the rows
    the rest leaves, their newest lines, and the rest is drawn more compactly where even
    that does not fit (None: no bound)."""
    from dragonlair.cli.fit import (
        MIN_PANEL,
        Rendered,
        fitting_level,
        height,
        log_panel,
        newest_lines,
        print_rendered,
        rendered,
        rows_of,
    )

    turn = view["turn"]
    head = ui(lang, "title") + " · " + (ui(lang, "turn", n=turn) if turn
                                         else ui(lang, "setup_title"))
    if seed is not None:
        head += f" · seed {seed}"
    wanted = (MIN_PANEL if events_shown > 0 else 0) + (MIN_PANEL if summary else 0)
    tried: dict[int, tuple[list[Rendered], int | None]] = {}

    def attempt(level: int) -> bool:  # this level, rendered once; the logs get what is left
        if level not in tried:
            shown = rendered(console, *fixed_parts(game, view, names, lang, level))
            tried[level] = (shown, None if rows is None else rows - 1 - rows_of(shown))
        rest = tried[level][1]
        return rest is None or rest >= wanted

    parts, left = tried[fitting_level(console, "fist", LEVELS, attempt)]
    console.rule(f"[bold]{escape(head)}[/]")
    print_rendered(console, parts)

    def more(n: int) -> str:
        return tr(lang, "f_more_events", n=n)

    if view["private"] is not None and notes:
        bound = None if left is None else min(NOTES_SHOWN + 2, left // 3)
        panel = log_panel(console, notes, bound, title=ui(lang, "notes"),
                          border_style="cyan", limit=NOTES_SHOWN, more=more)
        if panel is not None:
            console.print(panel)
            left = None if left is None else left - height(console, panel)
    if summary:  # before the recent events, which get the rows it leaves: what the viewer
        # missed, outcomes only; without room for all of it, the newest, and a word on "log"
        lines = [*summary, f"[dim]{escape(ui(lang, 'since_more'))}[/]"]
        if left is not None and len(newest_lines(console, lines, left - 2)) < len(lines):
            lines = list(summary)  # the line on "log" is then the panel's head
        panel = log_panel(console, lines, left, title=ui(lang, "since_title"),
                          border_style="magenta", more=more)
        if panel is not None:
            console.print(panel)
            left = None if left is None else left - height(console, panel)
    if events_shown <= 0:
        return
    shown = list(events[-events_shown:]) or [ui(lang, "no_events")]
    panel = log_panel(console, shown, left, title=ui(lang, "events"), border_style="dim",
                      more=more)
    if panel is not None:
        console.print(panel)


def render_help(console: Console, game: FistGame, lang: str) -> None:
    console.rule(f"[bold]{tr(lang, 'help_title')}[/]")
    console.print(Text(ui(lang, "help_rules")))
    console.print()
    console.print(Text(ui(lang, "help_typing")))
    console.print(Text(tr(lang, "seat_typing", example="target 2")))
    console.print()
    table = Table(title=ui(lang, "help_cards"), show_lines=False, expand=True)
    table.add_column(ui(lang, "col_character"), no_wrap=True, style="bold")
    table.add_column(ui(lang, "col_copies"), justify="right")
    table.add_column(ui(lang, "col_power"))
    for card in game.cards:
        kind = ui(lang, "standard") if card.standard else ui(lang, "special")
        table.add_row(Text(plain_card_name(game, card.id, lang)), ui(lang, "copies", n=card.count),
                      Text(f"{card_text(game, card.id, lang)} ({kind})"))
    console.print(table)


def reason_text(result: JSON, lang: str, names: Sequence[str] | None = None) -> str:
    """Why the game ended: the outcome's reason code rendered with its params in ``lang``,
    seats by ``names``."""
    return render(result["reason"], result.get("reason_params") or {}, lang, names)


def result_lines(view: JSON, names: Sequence[str], lang: str, turns: int) -> list[str]:
    """The result of a finished game in words (markup)."""
    result = view["result"]
    winners = result["winners"]
    who = ", ".join(escape(names[s]) for s in winners)
    scores = ", ".join(f"{names[s]}: {score:g}" for s, score in enumerate(result["scores"]))
    key = "winner" if len(winners) == 1 else "winners"
    return [
        f"[bold green]{tr(lang, key, who=who)}[/]",
        tr(lang, "reason", reason=escape(reason_text(result, lang, names))),
        tr(lang, "scores", scores=escape(scores)),
        ui(lang, "turns_played", n=turns),
    ]
