"""What a Fist of Dragonstones player sees in the terminal: the table from one seat's
view (F8), the public history told in words, and the legal actions described.

Everything here works from views (``state.view(seat)``): the screen never reads a
state's secrets. The :class:`Narrator` turns the public history of a view into
sentences by replaying it on a table of its own and comparing the public parts
before and after each action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dragonlair.cli.i18n import (
    COLOUR_STYLES,
    coins,
    colour_name,
    engine_note,
    engine_reason,
    points,
    tr,
)
from dragonlair.core.game import CHANCE, JSON
from dragonlair.core.records import parse_entry
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import COLOURS, CURRENCIES, FistAction, Kind
from dragonlair.games.fist.cards import Card
from dragonlair.games.fist.game import FistGame

_T = TypeVar("_T")

COIN_KEYS = ("fairy", "common", "silver", "amulet", "black")
EVENTS_SHOWN = 12
NOTES_SHOWN = 5
#: the log lines that tell how an auction ended (and the turns and points around it): the
#: summary a player sees when more happened than the recent events can show
SUMMARY_KEYS = frozenset({"ev_turn", "ev_won", "ev_passed", "ev_cursed", "ev_tie_again",
                          "ev_last_unauctioned", "ev_goblin", "ev_score", "ev_over"})


# ---------------------------------------------------------------- small words
def seat_label(seat: int, viewer: int | None = None) -> str:
    """``p2`` as markup, bold for the viewer's own seat."""
    return f"[bold]p{seat}[/]" if seat == viewer else f"p{seat}"


def card_name(game: FistGame, card_id: str, lang: str) -> str:
    return escape(game.card(card_id).name(lang))


def stone_word(lang: str, colour: str) -> str:
    """A colour name in its colour (markup)."""
    return f"[{COLOUR_STYLES[colour]}]{colour_name(lang, colour)}[/]"


def stones_markup(lang: str, counts: Sequence[int], *, zeros: bool = True) -> str:
    """``red 2  blue 0  yellow 1``, coloured."""
    parts = [f"{stone_word(lang, c)} {n}" for c, n in zip(COLOURS, counts, strict=True)
             if zeros or n]
    return "  ".join(parts) if parts else tr(lang, "nothing")


def stone_list(lang: str, counts: Sequence[int]) -> str:
    """``2 red, 1 blue`` (markup)."""
    parts = [tr(lang, "stone_n", n=n, colour=stone_word(lang, c))
             for c, n in zip(COLOURS, counts, strict=True) if n]
    return ", ".join(parts) if parts else tr(lang, "nothing")


def stone_counts(stones: JSON) -> list[int]:
    return [int(stones[c]) for c in COLOURS]


def bid_words(lang: str, action: FistAction) -> str:
    """A sealed bid in words: ``3 Fairy + 1 Common + a Black Magic coin``."""
    parts = []
    if action.a:
        parts.append(tr(lang, "bid_fairy", n=action.a))
    if action.b:
        parts.append(tr(lang, "bid_common", n=action.b))
    if action.c:
        parts.append(tr(lang, "bid_black"))
    if action.d:
        parts.append(tr(lang, "bid_amulet"))
    return " + ".join(parts) if parts else tr(lang, "bid_empty")


def silver_words(lang: str, action: FistAction) -> str:
    text = tr(lang, "silver_n", n=action.a) if action.a else tr(lang, "silver_zero")
    return text + (" + " + tr(lang, "bid_amulet") if action.b else "")


def gain_words(lang: str, gain: pw.Gain) -> str:
    parts = [coins(lang, key, getattr(gain, key)) for key in COIN_KEYS if getattr(gain, key)]
    if any(gain.stones):
        parts.append(stone_list(lang, gain.stones))
    return ", ".join(parts) if parts else tr(lang, "nothing")


def _pay_step(card: Card | None) -> pw.PayStones | None:
    for step in card.power if card else ():
        if isinstance(step, pw.PayStones):
            return step
        if isinstance(step, pw.Choice):
            return step.pay
    return None


def _step_of(card: Card | None, kind: type[_T]) -> _T | None:
    for step in card.power if card else ():
        if isinstance(step, kind):
            return step
    return None


def describe_action(game: FistGame, lang: str, action: FistAction, *, decision: str | None = None,
                    power_card: str | None = None, view: JSON | None = None,
                    names: Sequence[str] = ()) -> str:
    """An action in words (markup), for menus and the event log."""
    card = game.card(power_card) if power_card else None

    def who(seat: int) -> str:
        name = f" ({escape(names[seat])})" if seat < len(names) else ""
        return f"p{seat}{name}"

    kind = action.kind
    if kind == Kind.BID:
        return bid_words(lang, action)
    if kind == Kind.SILVER:
        return silver_words(lang, action)
    if kind == Kind.PAY:
        counts = (action.a, action.b, action.c)
        stones = stone_list(lang, counts)
        pay = _pay_step(card)
        return (tr(lang, "d_pay_points", stones=stones, points=points(lang, pay.points)) if pay
                else tr(lang, "d_pay", stones=stones))
    if kind == Kind.TAKE:
        choice = _step_of(card, pw.Choice)
        return (tr(lang, "d_take", what=gain_words(lang, choice.alternative)) if choice
                else tr(lang, "d_take_plain"))
    if kind == Kind.COLOUR:
        colour = stone_word(lang, COLOURS[action.a])
        key = {"colour_gain": "d_colour_gain", "colour_troll": "d_colour_troll",
               "colour_rainbow": "d_colour_rainbow"}.get(decision or "", "d_colour")
        return tr(lang, key, colour=colour)
    if kind == Kind.STEAL:
        if action.b < 3:
            return tr(lang, "d_steal", colour=stone_word(lang, COLOURS[action.b]),
                      who=who(action.a))
        return tr(lang, "d_steal_coin", who=who(action.a))
    if kind == Kind.TARGET:
        return tr(lang, "d_target", who=who(action.a))
    if kind == Kind.PICK:
        picked = game.cards[action.a]
        return tr(lang, "d_pick", card=escape(picked.name(lang)), text=escape(picked.text(lang)))
    if kind == Kind.BUY:
        buy = _step_of(card, pw.BuyStones) or pw.BuyStones()
        currency = CURRENCIES[action.b]
        price = getattr(buy, currency)
        return tr(lang, "d_buy", colour=stone_word(lang, COLOURS[action.a]),
                  price=coins(lang, currency, price))
    if kind == Kind.ACCEPT:
        necro = _step_of(card, pw.Necromancer) or pw.Necromancer()
        return tr(lang, "d_accept", points=points(lang, necro.points))
    simple = {Kind.DONE: "d_done", Kind.DECLINE: "d_decline", Kind.DRAW: "d_draw",
              Kind.DOUBLE: "d_double", Kind.SINGLE: "d_single"}
    if kind in simple:
        return tr(lang, simple[kind])
    if kind == Kind.STOP:
        drawn = stone_counts(view["drawn"]) if view else [0, 0, 0]
        return tr(lang, "d_stop", drawn=stone_list(lang, drawn))
    if kind == Kind.CARD:
        return tr(lang, "d_card", card=escape(game.cards[action.a].name(lang)))
    return tr(lang, "d_stone", colour=stone_word(lang, COLOURS[action.a]))


# ---------------------------------------------------------------- the narrator
class Narrator:
    """Tells the public history of a view in words (markup lines).

    It replays the history on its own table and compares the public parts of that
    table (a spectator's view) before and after each action. Entries still sealed
    ("p1: sealed") stop it; it goes on once they are revealed.
    """

    def __init__(self, game: FistGame, lang: str, names: Sequence[str],
                 viewer: int | None = None) -> None:
        self.game = game
        self.lang = lang
        self.names = list(names)
        self.viewer = viewer
        self.table = game.new_initial_state()
        self.done = 0
        self.lines: list[str] = []
        self.summary_at: list[int] = []  # indices of the lines in SUMMARY_KEYS
        self.power_card: str | None = None  # whose power the winner is using now
        self.winner: int | None = None
        self.bids: dict[int, FistAction] = {}
        self.silvers: dict[int, FistAction] = {}

    def feed(self, history: Sequence[str]) -> list[str]:
        """Narrate the entries not seen yet; returns the new lines."""
        start = len(self.lines)
        n = self.game.num_players
        for entry in history[self.done:]:
            if entry.endswith(": sealed"):
                break
            seat, text = parse_entry(entry, n)
            action = self.game.parse_action(text)
            before = self.table.view(None)
            self.table.apply(seat, action)
            after = self.table.view(None)
            self._narrate(seat, action, before, after)
            self.done += 1
        return self.lines[start:]

    # -------------------------------------------------------------- helpers
    def _who(self, seat: int) -> str:
        return seat_label(seat, self.viewer)

    def _card(self, card_id: str | None) -> str:
        return card_name(self.game, card_id, self.lang) if card_id else "?"

    def _say(self, key: str, **fields: Any) -> None:
        if key in SUMMARY_KEYS:
            self.summary_at.append(len(self.lines))
        self.lines.append(tr(self.lang, key, **fields))

    def summary(self, since: int = 0) -> list[str]:
        """From line ``since`` on, only how each auction ended (who won which card, what
        passed or was cursed), the turns and the points: the story in short."""
        return [self.lines[i] for i in self.summary_at if i >= since]

    # -------------------------------------------------------------- one action
    def _narrate(self, seat: int, action: FistAction, before: JSON, after: JSON) -> None:
        kind = action.kind
        phase = before["phase"]
        paid: dict[str, int] = {}  # coins paid to the bank by bids revealed now
        if seat == CHANCE:
            self._narrate_chance(action, before, after)
        elif kind == Kind.BID:
            self.bids[seat] = action
            self._say("ev_bid", who=self._who(seat), bid=bid_words(self.lang, action))
            if after["phase"] != "bid":
                paid = self._reveal(before)
        elif kind == Kind.SILVER:
            self.silvers[seat] = action
            self._say("ev_silver", who=self._who(seat), silver=silver_words(self.lang, action))
            if after["phase"] != "tiebid":
                paid = self._reveal_silver(before)
        else:
            what = describe_action(self.game, self.lang, action, decision=before["decision"],
                                   power_card=self.power_card, view=before, names=self.names)
            self._say("ev_chose", who=self._who(seat), what=what)
            if kind == Kind.PICK:
                self.power_card = self.game.card_ids[action.a]
        if phase != "setup":
            self._effects(before, after, paid)
        self._turns_and_auctions(before, after)

    def _narrate_chance(self, action: FistAction, before: JSON, after: JSON) -> None:
        phase = before["phase"]
        if phase == "setup":
            if after["phase"] != "setup":
                hands = "; ".join(
                    f"{self._who(s['seat'])} {stone_list(self.lang, stone_counts(s['stones']))}"
                    for s in after["seats"])
                self._say("ev_setup", stones=hands)
        elif phase == "special":
            self._say("ev_special", card=self._card(self.game.card_ids[action.a]))
        elif phase == "reveal":
            card = self.game.card_ids[action.a]
            if after["phase"] != "bid" or after["card"] != card:
                self._say("ev_last_unauctioned", card=self._card(card))
        elif action.kind == Kind.CARD:  # the Goblin draws
            card = self.game.card_ids[action.a]
            who = self._who(self.winner) if self.winner is not None else "?"
            self._say("ev_goblin", who=who, card=self._card(card))
            self.power_card = card
        else:
            colour = COLOURS[action.a]
            who = self._who(self.winner) if self.winner is not None else "?"
            self._say("ev_draw_stone", who=who, colour=stone_word(self.lang, colour))
            if before["rainbow_colour"] == colour:
                self._say("ev_rainbow_bust")

    def _reveal(self, before: JSON) -> dict[str, int]:
        """All bids are in: say what they decide (F5.4-F5.7)."""
        bids = self.bids
        self.bids = {}
        card = before["card"]
        paid = {"common": sum(b.b for b in bids.values()),
                "amulet": sum(b.d for b in bids.values())}
        values = {s: (b.a + b.b) * (2 if b.d else 1) for s, b in bids.items()}
        cursers = [s for s, b in bids.items() if b.c]
        top = max(values.values())
        tied = sorted(s for s, v in values.items() if v == top)
        if cursers:
            self._say("ev_cursed", card=self._card(card),
                      who=", ".join(self._who(s) for s in sorted(cursers)))
        elif top == 0:
            self._say("ev_passed", card=self._card(card))
        elif len(tied) == 1:
            self._won(tied[0], card)
        else:
            self._say("ev_tie", who=", ".join(self._who(s) for s in tied), value=top)
        return paid

    def _reveal_silver(self, before: JSON) -> dict[str, int]:
        bids = self.silvers
        self.silvers = {}
        paid = {"silver": sum(b.a for b in bids.values()),
                "amulet": sum(b.b for b in bids.values())}
        values = {s: b.a * (2 if b.b else 1) for s, b in bids.items()}
        top = max(values.values())
        best = [s for s, v in values.items() if v == top]
        if len(best) == 1:
            self._won(best[0], before["card"])
        else:
            self._say("ev_tie_again", card=self._card(before["card"]))
        return paid

    def _won(self, seat: int, card: str) -> None:
        self.winner = seat
        self.power_card = card
        self._say("ev_won", who=self._who(seat), card=self._card(card))

    def _effects(self, before: JSON, after: JSON, paid: dict[str, int]) -> None:
        """Public changes: stones, points, the bank's coins, the Doppelganger."""
        lang = self.lang
        for b, a in zip(before["seats"], after["seats"], strict=True):
            seat = a["seat"]
            changes = []
            for colour in COLOURS:
                d = a["stones"][colour] - b["stones"][colour]
                if d:
                    changes.append(f"{d:+d} {stone_word(lang, colour)}")
            if changes:
                self._say("ev_stones", who=self._who(seat), change=", ".join(changes))
        took, gave = [], []
        for key in COIN_KEYS:
            d = after["bank"][key] - before["bank"][key] - paid.get(key, 0)
            if d < 0:
                took.append(coins(lang, key, -d))
            elif d > 0 and key != "black":  # unused Black coins go back at F4.4
                gave.append(coins(lang, key, d))
        user = self.winner
        # the winner's gains and payments, also when their power ends the turn (the last
        # auction): the end of a turn only gives unused Black coins back, never counted here;
        # a card revealed or drawn by chance is nobody's doing
        if user is not None and before["phase"] not in ("reveal", "special"):
            if took:
                self._say("ev_took", who=self._who(user), what=", ".join(took))
            if gave:
                self._say("ev_paid", who=self._who(user), what=", ".join(gave))
        for b, a in zip(before["seats"], after["seats"], strict=True):
            if a["score"] != b["score"]:
                self._say("ev_score", who=self._who(a["seat"]), points=points(lang, a["score"]))
        holder, was = after["doppelganger_holder"], before["doppelganger_holder"]
        if holder != was:
            if holder is not None:
                self._say("ev_doppel_keep", who=self._who(holder))
            else:
                self._say("ev_doppel_gone")

    def _turns_and_auctions(self, before: JSON, after: JSON) -> None:
        if after["phase"] == "over":
            self._say("ev_over", reason=escape(engine_reason(self.lang,
                                                             after["result"]["reason"])))
            return
        if after["turn"] != before["turn"]:
            if before["turn"]:
                self._say("ev_turn_end", n=before["turn"])
            self._say("ev_turn", n=after["turn"])
        if after["phase"] == "bid" and before["phase"] != "bid":
            self.winner = None
            self.power_card = None
            self._say("ev_up", card=self._card(after["card"]))


# ---------------------------------------------------------------- the screen
def _names_of(game: FistGame, ids: Sequence[str], lang: str) -> str:
    return ", ".join(card_name(game, c, lang) for c in ids) if ids else tr(lang, "none")


def _sorted_names(game: FistGame, ids: Sequence[str], lang: str) -> str:
    """Cards whose order is hidden, alphabetically in ``lang``."""
    return _names_of(game, sorted(ids, key=lambda c: game.card(c).name(lang)), lang)


def players_table(view: JSON, names: Sequence[str], lang: str) -> Table:
    viewer = view.get("seat")
    table = Table(show_edge=False, pad_edge=False, expand=False, header_style="bold")
    table.add_column(tr(lang, "col_seat"))
    table.add_column(tr(lang, "col_name"))
    table.add_column(tr(lang, "col_stones"))
    table.add_column(tr(lang, "col_score"), justify="right")
    tied = set(view.get("tie_break") or [])
    rows: list[tuple[Text, Text, Text, str, str]] = []
    for entry in view["seats"]:
        seat = entry["seat"]
        status = []
        if entry["doppelganger"]:
            status.append(tr(lang, "doppel_mark"))
        if seat in tied:
            status.append(tr(lang, "in_tie"))
        if entry.get("has_bid"):
            status.append(tr(lang, "has_bid"))
        style = "reverse" if seat == viewer else ""
        rows.append((Text(f"p{seat}", style=style), Text(names[seat]),
                     Text.from_markup(stones_markup(lang, stone_counts(entry["stones"]))),
                     str(entry["score"]), ", ".join(status)))
    with_status = any(row[-1] for row in rows)
    if with_status:  # no empty column dangling at the right
        table.add_column(tr(lang, "col_status"))
    for row in rows:
        table.add_row(*(row if with_status else row[:-1]))
    return table


def bank_text(view: JSON, lang: str) -> Text:
    bank = view["bank"]
    text = Text.from_markup(f"[bold]{tr(lang, 'bank')}:[/] ")
    text.append(tr(lang, "bank_line", **{k: bank[k] for k in COIN_KEYS}))
    text.append(" · ")
    text.append_text(Text.from_markup(stones_markup(lang, stone_counts(bank["stones"]))))
    return text


def auction_panel(game: FistGame, view: JSON, lang: str) -> Panel:
    rows: list[RenderableType] = []
    card_id = view["card"]
    if card_id and view["phase"] not in ("special", "setup"):
        card = game.card(card_id)
        rows.append(Text.from_markup(
            f"[bold magenta]{tr(lang, 'up_for_auction', card=escape(card.name(lang)))}[/]"))
        rows.append(Text(card.text(lang), style="italic"))
    else:
        rows.append(Text(tr(lang, "no_card")))
    if view.get("tie_break"):
        rows.append(Text(tr(lang, "tie_break_now",
                            seats=", ".join(f"p{s}" for s in view["tie_break"])),
                         style="bold"))
    if view.get("rainbow_colour"):
        rows.append(Text.from_markup(tr(
            lang, "rainbow_state", colour=stone_word(lang, view["rainbow_colour"]),
            drawn=stone_list(lang, stone_counts(view["drawn"])))))
    rows.append(Text.from_markup(tr(lang, "to_come", n=len(view["pile"]),
                                    cards=_sorted_names(game, view["pile"], lang))))
    rows.append(Text.from_markup(tr(lang, "auctioned",
                                    cards=_names_of(game, view["auctioned"], lang))))
    rows.append(Text.from_markup(
        tr(lang, "specials", cards=_names_of(game, view["turn_specials"], lang)) + " · "
        + tr(lang, "deck_left", n=view["special_deck_size"])))
    return Panel(Group(*rows), title=tr(lang, "auction"), title_align="left")


def coins_panel(view: JSON, names: Sequence[str], lang: str) -> Panel:
    """The viewer's own screen: only ever the ``me`` part of their own view."""
    me = view["me"]
    seat = view["seat"]
    rows: list[RenderableType] = [
        Text(tr(lang, "coins_fairy", fairy=me["fairy"], spent=me["fairy_spent"])),
        Text(tr(lang, "coins_rest", common=me["common"], silver=me["silver"], black=me["black"],
                amulet=me["amulet"])),
    ]
    if me.get("bid"):
        rows.append(Text(tr(lang, "your_bid", bid=me["bid"])))
    return Panel(Group(*rows), title=tr(lang, "behind_screen", seat=seat, name=names[seat]),
                 title_align="left", border_style="green")


def render_table(console: Console, game: FistGame, view: JSON, names: Sequence[str], lang: str,
                 events: Sequence[str], *, seed: int | None = None,
                 events_shown: int = EVENTS_SHOWN, summary: Sequence[str] = ()) -> None:
    """The whole screen for ``view``: its seat's coins only if it is a seat's view.
    ``summary``: the auctions since the viewer's last screen, when there are more events
    than the recent events show (:meth:`Narrator.summary`)."""
    turn = view["turn"]
    head = tr(lang, "title") + " · " + (tr(lang, "turn", n=turn) if turn
                                         else tr(lang, "setup_title"))
    if seed is not None:
        head += f" · seed {seed}"
    console.rule(f"[bold]{escape(head)}[/]")
    console.print(players_table(view, names, lang))
    console.print(bank_text(view, lang))
    if view["phase"] != "over":
        console.print(auction_panel(game, view, lang))
    if view.get("me") is not None:
        console.print(coins_panel(view, names, lang))
        notes = view["me"]["notes"]
        if notes:
            console.print(Panel(
                Group(*(Text(engine_note(lang, n)) for n in notes[-NOTES_SHOWN:])),
                title=tr(lang, "notes"), title_align="left", border_style="cyan"))
    if summary:
        rows = [Text.from_markup(line) for line in summary]
        rows.append(Text(tr(lang, "since_more"), style="dim"))
        console.print(Panel(Group(*rows), title=tr(lang, "since_title"), title_align="left",
                            border_style="magenta"))
    if events_shown <= 0:
        return
    shown = list(events[-events_shown:]) or [tr(lang, "no_events")]
    console.print(Panel(Group(*(Text.from_markup(line) for line in shown)),
                        title=tr(lang, "events"), title_align="left", border_style="dim"))


def render_help(console: Console, game: FistGame, lang: str) -> None:
    console.rule(f"[bold]{tr(lang, 'help_title')}[/]")
    console.print(Text(tr(lang, "help_rules")))
    console.print()
    console.print(Text(tr(lang, "help_typing")))
    console.print()
    table = Table(title=tr(lang, "help_cards"), show_lines=False, expand=True)
    table.add_column(tr(lang, "col_character"), no_wrap=True, style="bold")
    table.add_column(tr(lang, "col_copies"), justify="right")
    table.add_column(tr(lang, "col_power"))
    for card in game.cards:
        kind = tr(lang, "standard") if card.standard else tr(lang, "special")
        table.add_row(Text(card.name(lang)), tr(lang, "copies", n=card.count),
                      Text(f"{card.text(lang)} ({kind})"))
    console.print(table)


def result_lines(view: JSON, names: Sequence[str], lang: str, turns: int) -> list[str]:
    """The result of a finished game in words (markup)."""
    result = view["result"]
    winners = result["winners"]
    who = ", ".join(f"p{s} ({escape(names[s])})" for s in winners)
    scores = ", ".join(f"p{s} {names[s]}: {score:g}"
                       for s, score in enumerate(result["scores"]))
    key = "winner" if len(winners) == 1 else "winners"
    return [
        f"[bold green]{tr(lang, key, who=who)}[/]",
        tr(lang, "reason", reason=escape(engine_reason(lang, result["reason"]))),
        tr(lang, "scores", scores=escape(scores)),
        tr(lang, "turns_played", n=turns),
    ]
