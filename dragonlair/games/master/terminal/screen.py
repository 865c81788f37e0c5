"""What a Dragon Master player sees in the terminal: the grid from their own side, the line
scores, their hand (M6), and the rules and scoring table.

Everything here works from views (``state.view(seat)``): the screen never reads a state's
secrets. Cells keep the engine's names (``a1``..``g7``) whichever way the grid is drawn:

- seat 0 owns the columns and sees the grid as stored, like a chessboard from White's side:
  columns ``a``-``g`` from left to right, row 1 nearest (at the bottom);
- seat 1 owns the rows and sits at the next side of the table (M2), so its grid is the same
  one turned a quarter turn: the rows ``1``-``7`` run from left to right as columns, and
  column ``a`` is farthest (at the top). Each player's own lines run away from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

from rich.console import Console, RenderableType
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dragonlair.cli.i18n import tr
from dragonlair.core.game import JSON
from dragonlair.core.i18n import render, seat_name, term
from dragonlair.games.master.cards import BY_ID, CARDS, COPIES, line_code, score_table

SIZE = 7
BOX = 4
COLS = "abcdefg"
LABEL_W = 5
#: the longest name beside the grid (a longer one is cut)
GRID_LABEL_MAX = 12
CELL_W = 5

CARD_STYLES = {"egg": "bold white", "emerald": "bold green", "sapphire": "bold bright_blue",
               "ruby": "bold red"}

#: the words a player may type for a card, per language (the value works in every language)
CARD_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"egg": ("egg",), "emerald": ("emerald",), "sapphire": ("sapphire",),
           "ruby": ("ruby",)},
    "de": {"egg": ("ei", "drachenei"), "emerald": ("smaragd", "smaragd-drache"),
           "sapphire": ("saphir", "saphir-drache"), "ruby": ("rubin", "rubin-drache")},
}

XY = tuple[int, int]


# ---------------------------------------------------------------- small words
def xy(cell: str) -> XY:
    """``"d4"`` -> ``(3, 3)``: column index, row index."""
    return COLS.index(cell[0]), int(cell[1:]) - 1


def cell_of(x: int, y: int) -> str:
    return f"{COLS[x]}{y + 1}"


def card_name(card_id: str, lang: str) -> str:
    return term(f"master.card.{card_id}", lang)


def card_words(card_id: str, lang: str) -> str:
    """``Ruby Dragon [3]`` (markup, in the card's colour)."""
    card = BY_ID[card_id]
    return f"[{CARD_STYLES[card_id]}]{escape(card_name(card_id, lang))} \\[{card.value}][/]"


def short_form(card_id: str, lang: str) -> str:
    """The shortest start of a card's name that names only that card in ``lang``."""
    words = CARD_WORDS["de" if lang == "de" else "en"]
    others = [w for other, ws in words.items() if other != card_id for w in ws]
    forms = []
    for word in words[card_id]:
        for n in range(1, len(word) + 1):
            if not any(w.startswith(word[:n]) for w in others):
                forms.append(word[:n])
                break
    return min(forms, key=len) if forms else words[card_id][0]


def short_name(card_id: str, lang: str) -> str:
    """``Ruby`` / ``Rubin``: the card's name without the word dragon."""
    return CARD_WORDS["de" if lang == "de" else "en"][card_id][0].capitalize()


def lines_word(seat: int, lang: str) -> str:
    return tr(lang, "m_lines_cols" if seat == 0 else "m_lines_rows")


def scores_text(scores: Sequence[int]) -> str:
    return " · ".join(str(s) for s in sorted(scores))


def hand_words(hand: JSON, lang: str, *, markup: bool = True) -> str:
    """``2× Ruby Dragon [3] · 1× Dragon Egg [0]`` (markup, or plain text), highest value
    first."""
    parts = [f"{hand[c.id]}× "
             + (card_words(c.id, lang) if markup else f"{card_name(c.id, lang)} [{c.value}]")
             for c in reversed(CARDS) if hand[c.id]]
    return " · ".join(parts) if parts else tr(lang, "m_hand_empty")


def counts_words(counts: JSON) -> str:
    """``[0]×2 [2]×3`` for a multiset of cards by id."""
    return " ".join(f"\\[{c.value}]×{counts[c.id]}" for c in CARDS if counts[c.id])


# ---------------------------------------------------------------- the grid
def region(cards: dict[XY, str]) -> tuple[range, range]:
    """The columns and rows where the 4 × 4 box can still lie (all of it once it is full)."""
    if not cards:
        return range(3, 4), range(3, 4)  # only d4: the first card goes there
    xs = [x for x, _ in cards]
    ys = [y for _, y in cards]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return (range(max(0, x1 - BOX + 1), min(SIZE - 1, x0 + BOX - 1) + 1),
            range(max(0, y1 - BOX + 1), min(SIZE - 1, y0 + BOX - 1) + 1))


def line_maps(cards: dict[XY, str], scores: JSON) -> tuple[dict[int, int], dict[int, int]]:
    """The engine's line scores (``view["line_scores"]``: four columns and four rows from the
    box's left / top edge, or the last four of the frame) by column and row index, for the
    lines that hold a card."""
    if not cards:
        return {}, {}
    xs = {x for x, _ in cards}
    ys = {y for _, y in cards}

    def by_index(used: set[int], values: Sequence[int]) -> dict[int, int]:
        start = min(used) if min(used) + BOX <= SIZE else SIZE - BOX
        return {start + i: v for i, v in enumerate(values) if start + i in used}

    return by_index(xs, scores["columns"]), by_index(ys, scores["rows"])


def _centre(text: str, style: str = "") -> Text:
    return Text(f"{text:^{CELL_W}}", style=style)


def grid_label(seat: int, names: Sequence[str] | None, lang: str = "en") -> str:
    """Whose lines a row or column of line scores beside the grid holds: the player's name
    (cut to :data:`GRID_LABEL_MAX` characters), or without names the seat by its number from
    1 (``Player 2``)."""
    name = seat_name(seat, names, lang)
    return name if len(name) <= GRID_LABEL_MAX else name[:GRID_LABEL_MAX - 1] + "…"


def grid_text(grid: JSON, legal: Sequence[str], scores: JSON, viewer: int | None,
              *, last: str | None = None, names: Sequence[str] | None = None,
              lang: str = "en") -> Text:
    """The grid from ``viewer``'s side (seat 1 turned a quarter turn; others as stored), only
    the region where the box can still lie, legal cells by name, each line's score beside
    the grid (the other player's lines, named at the top) and under it (the viewer's own
    lines, named at the left); ``names``: the seats' names (else ``Player 1``, ...)."""
    cards = {xy(c): card for c, card in grid.items()}
    legal_xy = {xy(c) for c in legal}
    xs, ys = region(cards)
    col_scores, row_scores = line_maps(cards, scores)
    if viewer == 1:  # seat 1's lines (rows 1-7) across, seat 0's (columns a-g) down, a on top
        across = [(str(y + 1), y) for y in ys]
        down = [(COLS[x], x) for x in xs]
        own_scores, other_scores = row_scores, col_scores
        own, other = 1, 0

        def at(a: int, d: int) -> XY:
            return d, a
    else:  # as stored: columns a-g across, row 1 at the bottom
        across = [(COLS[x], x) for x in xs]
        down = [(str(y + 1), y) for y in reversed(ys)]
        own_scores, other_scores = col_scores, row_scores
        own, other = 0, 1

        def at(a: int, d: int) -> XY:
            return a, d
    own_label, other_label = grid_label(own, names, lang), grid_label(other, names, lang)
    margin = max(LABEL_W - 2, len(own_label))  # the row labels, and under them the own name
    out = Text()
    out.append(" " * (margin + 2))
    for label, _ in across:
        out.append_text(_centre(label, "bold"))
    out.append(f"  {other_label}", style="dim")
    out.append("\n")
    for label, d in down:
        out.append(f"{label:>{margin}}  ", style="bold")
        for _, a in across:
            pos = at(a, d)
            card = cards.get(pos)
            if card is not None:
                style = CARD_STYLES[card] + (" reverse" if cell_of(*pos) == last else "")
                out.append_text(_centre(f"[{BY_ID[card].value}]", style))
            elif pos in legal_xy:
                out.append_text(_centre(cell_of(*pos), "bold cyan"))
            else:
                out.append_text(_centre("·", "dim"))
        if d in other_scores:
            out.append(f" {other_scores[d]:>4}", style="bold")
        out.append("\n")
    out.append(f"{own_label:>{margin}}  ", style="dim")
    for _, a in across:
        out.append_text(_centre(str(own_scores[a]) if a in own_scores else "", "bold"))
    return out


def orientation(viewer: int | None, lang: str, names: Sequence[str] | None = None) -> str:
    """How the grid is drawn for ``viewer``, and who owns which lines, by name (plain
    text)."""
    key = {0: "m_view_0", 1: "m_view_1"}.get(viewer if viewer is not None else -1,
                                             "m_view_public")
    return tr(lang, key, name0=seat_name(0, names, lang), name1=seat_name(1, names, lang))


# ---------------------------------------------------------------- the screens
def last_placement(view: JSON) -> tuple[int, str, str] | None:
    """``(seat, card id, cell)`` of the last card placed in this round, from the view."""
    placed = view["public"]["placements"]
    if not placed or not view["public"]["grid"]:
        return None
    last = placed[-1]
    return last["seat"], last["card"], last["cell"]


def names_for(names: Sequence[str]) -> list[str]:
    """The seats as messages name them: by their names."""
    return list(names)


def event_line(event: JSON, names: Sequence[str], lang: str) -> str:
    """One event of the view (``{"code", "params"}``), rendered from the catalogue in ``lang``
    (markup-safe)."""
    return escape(render(event["code"], event["params"], lang, names_for(names)))


def seats_line(view: JSON, names: Sequence[str], lang: str) -> str:
    """Who owns which lines, and who began this round (``view``: the public part)."""
    parts = [tr(lang, "m_seat_lines", name=escape(names[s]), lines=lines_word(s, lang))
             for s in (0, 1)]
    line = " · ".join(parts)
    if view["starter"] is not None and view["legal_cells"]:
        line += " · " + tr(lang, "m_started", name=escape(names[view["starter"]]))
    return line


def dragons_line(view: JSON, names: Sequence[str], lang: str) -> str:
    """Dragons won so far (M5); ``view``: the public part."""
    dragons = ", ".join(f"{escape(names[s])}: {n}" for s, n in enumerate(view["dragons"]))
    return tr(lang, "m_dragons", dragons=dragons)


def screen_parts(view: JSON, names: Sequence[str], lang: str,
                 level: int = 0) -> list[RenderableType]:
    """A player's screen for ``view`` under its title, at a level of compactness: 0 all of
    it; 1 no blank lines, no orientation and no legend (``help`` has them); 2 the hand
    without a frame; 3 not the unseen cards."""
    seat = view["seat"]
    private = view["private"]
    last = last_placement(view)
    public = view["public"]
    parts: list[RenderableType] = [Text.from_markup(seats_line(public, names, lang))]
    if public["match"]:
        parts.append(Text.from_markup(dragons_line(public, names, lang)))
    if last is None:
        parts.append(Text.from_markup(tr(lang, "m_first")))
    else:
        s, card, cell = last
        parts.append(Text.from_markup(tr(lang, "m_last", name=escape(names[s]),
                                         card=card_words(card, lang),
                                         cell=f"[bold]{cell}[/]")))
    if level == 0:
        parts += [Text(), Text(orientation(seat, lang, names), style="dim")]
    parts.append(grid_text(public["grid"], public["legal_cells"], public["line_scores"], seat,
                           last=last[2] if last else None, names=names, lang=lang))
    if level == 0:
        example = public["legal_cells"][0] if public["legal_cells"] else "d4"
        parts += [Text(tr(lang, "m_legend", cell=example), style="dim"), Text()]
    scores = public["line_scores"]
    for s in ((seat, 1 - seat) if seat in (0, 1) else (0, 1)):
        parts.append(Text.from_markup(tr(
            lang, "m_lines_now", name=escape(names[s]), lines=lines_word(s, lang),
            scores=scores_text(scores["columns" if s == 0 else "rows"]))))
    if private is not None:
        title = tr(lang, "m_hand_title", name=escape(names[seat]))
        hand = hand_words(private["hand"], lang)
        if level < 2:
            parts.append(Panel(Text.from_markup(hand), title=title, title_align="left",
                               border_style="green"))
        else:
            parts.append(Text.from_markup(f"[bold green]{title}:[/] {hand}"))
        other = 1 - seat
        n = public["hand_sizes"][other]
        parts.append(Text.from_markup(tr(lang, "m_other_hand_1" if n == 1 else "m_other_hand",
                                         name=escape(names[other]), n=n)))
        if level < 3:
            parts.append(Text.from_markup(tr(lang, "m_unseen",
                                             n=sum(private["unseen"].values()),
                                             cards=counts_words(private["unseen"]))))
    else:
        hands = ", ".join(f"{escape(names[s])} {n}" for s, n in enumerate(public["hand_sizes"]))
        parts.append(Text.from_markup(tr(lang, "m_hands_public", hands=hands)))
    return parts


def render_screen(console: Console, view: JSON, names: Sequence[str], lang: str, *,
                  seed: int | None = None, rows: int | None = None) -> None:
    """A player's whole screen for ``view`` (their own hand only: it is their view), within
    ``rows`` rows (what is printed below it, the prompt included, already counted out):
    drawn more compactly where all of it does not fit (None: no bound)."""
    from dragonlair.cli.fit import Rendered, fitting_level, print_rendered, rendered, rows_of

    head = tr(lang, "m_title") + " · " + tr(lang, "m_round", n=view["public"]["round"])
    if seed is not None:
        head += f" · seed {seed}"
    tried: dict[int, list[Rendered]] = {}

    def attempt(level: int) -> bool:  # this level, rendered once
        if level not in tried:
            tried[level] = rendered(console, *screen_parts(view, names, lang, level),
                                    highlight=False)
        return rows is None or 1 + rows_of(tried[level]) <= rows

    parts = tried[fitting_level(console, "master", 4, attempt)]
    console.rule(f"[bold]{escape(head)}[/]")
    print_rendered(console, parts)


def round_end_lines(result: JSON, names: Sequence[str], lang: str, *,
                    compared: bool = True) -> list[str]:
    """M4 in words: both players' line scores lowest first, and who won (markup lines);
    not ``compared``: without the comparison that decided it (the game's result says it)."""
    lines = [tr(lang, "m_final_lines", name=escape(names[s]), lines=lines_word(s, lang),
                scores=scores_text(result["columns" if s == 0 else "rows"])) for s in (0, 1)]
    winner = result["winner"]
    at = result.get("decided_at")
    if not compared:
        pass
    elif winner is None or at is None:
        lines.append(f"[bold]{tr(lang, 'm_drawn')}[/]")
    else:
        pairs = zip(sorted(result["columns"]), sorted(result["rows"]), strict=True)
        steps = [f"{a} : {b}" for a, b in list(pairs)[:at + 1]]
        lines.append("[bold green]" + tr(lang, "m_decided", steps=", ".join(steps),
                                         name0=escape(names[0]), name1=escape(names[1]),
                                         name=escape(names[winner])) + "[/]")
    if result["set_aside"]:
        cards = ", ".join(card_words(c, lang)
                          for c in sorted(result["set_aside"], key=lambda c: BY_ID[c].value))
        lines.append(tr(lang, "m_set_aside", cards=cards))
    return lines


def deciding_line(result: JSON, names: Sequence[str], lang: str) -> str | None:
    """M4: the lines that decided a finished round (the engine's ``decided_at``), as markup:
    "Decided by the second-lowest lines: Anna 12 against Bo 33 (lower lines equal: 6 : 6)";
    None for a drawn round."""
    at = result.get("decided_at")
    if at is None:
        return None
    cols, rows = sorted(result["columns"]), sorted(result["rows"])
    which = tr(lang, ("m_which_lowest", "m_which_second", "m_which_third",
                      "m_which_highest")[min(at, 3)])
    line = tr(lang, "m_deciding", which=which, name0=escape(names[0]), a=cols[at],
              name1=escape(names[1]), b=rows[at])
    if at:
        ties = ", ".join(f"{a} : {b}" for a, b in zip(cols[:at], rows[:at], strict=True))
        line += " " + tr(lang, "m_deciding_ties", ties=ties)
    return line


def result_detail(full: JSON, names: Sequence[str], lang: str) -> str | None:
    """The plugin's ``terminal_result``: what decided a single round (M4), the one pair of
    lines the engine names; ``None`` for a match or an unfinished game."""
    if full.get("match") or not full.get("rounds"):
        return None
    padded = [*names[:2], *(seat_name(s, None, lang) for s in range(len(names), 2))]
    line = deciding_line(full["rounds"][-1], padded, lang)
    return None if line is None else line + "."


# ---------------------------------------------------------------- rules and help
def rules_markdown(lang: str) -> str:
    folder = resources.files("dragonlair.games.master") / "rules"
    return (folder / f"{'de' if lang == 'de' else 'en'}.md").read_text(encoding="utf-8")


def cards_table(lang: str) -> Table:
    table = Table(title=tr(lang, "m_cards_title"), show_lines=False)
    table.add_column(tr(lang, "m_col_card"))
    table.add_column(tr(lang, "m_col_value"), justify="right")
    table.add_column(tr(lang, "m_col_copies"), justify="right")
    table.add_column(tr(lang, "m_col_type"))
    for card in CARDS:
        typed = ", ".join(dict.fromkeys((str(card.value), short_form(card.id, lang),
                                         CARD_WORDS['de' if lang == 'de' else 'en'][card.id][0])))
        table.add_row(Text(card_name(card.id, lang), style=CARD_STYLES[card.id]), str(card.value),
                      str(COPIES), typed)
    return table


def scoring_table(lang: str, four_of_a_kind: str | None = None) -> Table:
    """Line scores by group size and value, from the engine's own table. Without an option
    the four-of-a-kind row shows both variants."""
    table = Table(title=tr(lang, "m_scoring_title"), show_lines=False)
    table.add_column(tr(lang, "m_col_group"))
    for card in CARDS:
        table.add_column(Text(f"{short_name(card.id, lang)} {card.value}",
                              style=CARD_STYLES[card.id]), justify="right")
    plain = score_table(four_of_a_kind or "100")
    face = score_table("100+face")
    for n, key in enumerate(("m_one", "m_pair", "m_three", "m_four"), 1):
        row = []
        for card in CARDS:
            value = plain[line_code([card.value] * n)]
            if n == 4 and four_of_a_kind is None:
                row.append(f"{value} / {face[line_code([card.value] * n)]}")
            else:
                row.append(str(value))
        table.add_row(tr(lang, key), *row)
    return table


def render_rules(console: Console, lang: str, four_of_a_kind: str | None = None) -> None:
    """The rules in brief, the cards and the scoring table (``dragonlair rules master``,
    and ``help`` during a game, where ``four_of_a_kind`` is the table's option)."""
    console.print(Markdown(rules_markdown(lang)))
    console.print(cards_table(lang))
    console.print(scoring_table(lang, four_of_a_kind))
    notes = tr(lang, "m_scoring_notes")
    if four_of_a_kind is not None:
        rule = tr(lang, "m_rule_face" if four_of_a_kind == "100+face" else "m_rule_100")
        notes += " " + tr(lang, "m_four_option", rule=rule)
    else:
        notes += " " + tr(lang, "m_four_both")
    console.print(Text(notes))


def render_help(console: Console, lang: str, four_of_a_kind: str) -> None:
    console.rule(f"[bold]{tr(lang, 'help_title')}[/]")
    render_rules(console, lang, four_of_a_kind)
    console.print()
    console.print(Text(tr(lang, "m_help_typing")))



def end_lines(view: JSON, names: Sequence[str], lang: str, match: bool,
              rounds_played: int) -> list[str]:
    """The end of a game in words (markup), from the final view: the winner, why, and for a
    single round the line that decided it (M4; the lowest lines only when they decide or the
    round is drawn), for a match the dragons each won (M5). The local and the online game
    both print these."""
    result = view["result"]
    lines: list[str] = []
    winners = result["winners"]
    if winners:
        w = winners[0]
        lines.append(f"[bold green]{tr(lang, 'winner', who=escape(names[w]))}[/]")
    else:
        lines.append(f"[bold]{tr(lang, 'm_drawn_game')}[/]")
    reason = render(result["reason"], result["reason_params"], lang, names_for(names))
    lines.append(tr(lang, "reason", reason=escape(reason)))
    scores = ", ".join(f"{escape(names[s])}: {v:g}" for s, v in enumerate(result["scores"]))
    rounds = view["public"]["rounds"]
    if match:
        lines.append(tr(lang, "m_dragons_end", dragons=scores))
        lines.append(tr(lang, "m_rounds_played", n=rounds_played))
        return lines
    deciding = deciding_line(rounds[-1], names, lang) if rounds else None
    lines.append(deciding if deciding is not None else tr(lang, "m_lowest", scores=scores))
    return lines
