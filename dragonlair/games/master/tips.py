"""Dragon Master's tips (dragonlair/tips): the line scores (M4), the starting player's result
between expert bots, and which kinds of line decide the rounds (M4's comparison from the
lowest line up), measured in seeded single rounds between expert bots."""

from __future__ import annotations

import random
from typing import Any

from dragonlair.core.i18n import render, term
from dragonlair.tips.format import TipsTable, pct, share

#: games a default regeneration plays (about a second a game: a few minutes on two cores)
DEFAULT_GAMES = 200

#: the kinds of a full line of four cards (M4), strongest first: four of a kind, three of a
#: kind, two pairs, a pair of emeralds, sapphires or rubies, a pair of eggs (it scores
#: nothing, M4), and four different cards (egg, emerald, sapphire, ruby: always 6)
KINDS = ("four", "three", "two_pairs", "pair", "egg_pair", "no_group")

#: a kind's "holding more of them" win rate is named in the text only from this many rounds
EDGE_MIN = 20


def line_kind(values: list[int]) -> str:
    """The kind of a line (M4's groups) from the values of its cards."""
    counts = sorted((values.count(v), v) for v in set(values))
    top = counts[-1][0]
    if top == 4:
        return "four"
    if top == 3:
        return "three"
    pairs = [v for n, v in counts if n == 2]
    if len(pairs) == 2:
        return "two_pairs"
    if pairs:
        return "egg_pair" if pairs[0] == 0 else "pair"
    return "no_group"


def lines_of(grid: list[int], size: int) -> tuple[list[list[int]], list[list[int]]]:
    """Seat 0's columns and seat 1's rows (M4) of a finished grid (``-1``: an empty cell)."""
    cols = [[grid[y * size + x] for y in range(size) if grid[y * size + x] >= 0]
            for x in range(size)]
    rows = [[grid[y * size + x] for x in range(size) if grid[y * size + x] >= 0]
            for y in range(size)]
    return [c for c in cols if c], [r for r in rows if r]


def measure(games: int, seed: int) -> dict[str, Any]:
    """The score of pairs, threes and fours (M4), the starting player's result, and which
    kinds of line decide (single rounds between expert bots, the starter drawn at random,
    M2): where the sorted lists first differ, the kind of the winner's and of the loser's
    line there, and how often the player holding more lines of a kind than the other won."""
    from dragonlair.bots import make_bot
    from dragonlair.core.driver import play_out, seed_for
    from dragonlair.games import make_game
    from dragonlair.games.master.actions import SIZE
    from dragonlair.games.master.cards import CARDS, line_code, score_table
    from dragonlair.games.master.state import MasterState

    table = score_table("100")
    lines = [{"id": c.id, "pair": table[line_code([c.value] * 2)],
              "three": table[line_code([c.value] * 3)],
              "four": table[line_code([c.value] * 4)]} for c in CARDS]
    game = make_game("master", {})
    starter_wins = draws = 0
    at = [0] * 4
    won = dict.fromkeys(KINDS, 0)
    lost = dict.fromkeys(KINDS, 0)
    edge = dict.fromkeys(KINDS, 0)
    edge_wins = dict.fromkeys(KINDS, 0)
    for i in range(games):
        seats = [make_bot("master", "expert", random.Random(seed_for(seed, i, s + 1)))
                 for s in range(2)]
        state = play_out(game.new_initial_state(), seats, random.Random(seed_for(seed, i)))
        assert isinstance(state, MasterState)
        last = state.rounds[-1]
        # each seat's lines, lowest score first (a tie in score: the weaker kind first)
        owned = [sorted((table[line_code(v)], -KINDS.index(line_kind(v))) for v in side)
                 for side in lines_of(state.grid, SIZE)]
        if last.winner is None or last.decided_at is None:
            draws += 1
        else:
            if last.winner == last.starter:
                starter_wins += 1
            at[last.decided_at] += 1
            won[KINDS[-owned[last.winner][last.decided_at][1]]] += 1
            lost[KINDS[-owned[1 - last.winner][last.decided_at][1]]] += 1
        for kind in KINDS:
            held = [sum(1 for _, k in side if KINDS[-k] == kind) for side in owned]
            if held[0] != held[1]:
                edge[kind] += 1
                edge_wins[kind] += last.winner == (0 if held[0] > held[1] else 1)
    decided = games - draws
    return {"bots": ["expert", "expert"], "lines": lines,
            "starter_win_rate": share(starter_wins, games),
            "draw_rate": share(draws, games),
            "decided": decided,
            "decided_at": [share(n, decided) for n in at],
            "kinds": [{"kind": k, "won": share(won[k], decided), "lost": share(lost[k], decided),
                       "edge_games": edge[k], "edge_win_rate": share(edge_wins[k], edge[k])}
                      for k in KINDS]}


def kind_name(kind: str, lang: str, within: bool = False) -> str:
    """A kind's name; ``within``: as in "lines with ..." (German wants the dative there)."""
    return term(f"tips.master.{'kind_with' if within else 'kind'}.{kind}", lang)


def paragraphs(f: dict[str, Any], lang: str) -> list[str]:
    lines = f["lines"]
    pairs = "; ".join(
        f"{term('master.card.' + x['id'], lang, fallback=x['id'])} {x['pair']}" for x in lines)
    out = [render("tips.master.pairs", {"pairs": pairs}, lang),
           render("tips.master.threes", {"three": lines[-1]["three"],
                                         "four": lines[-1]["four"]}, lang),
           render("tips.master.start", {"rate": pct(f["starter_win_rate"]),
                                        "draws": pct(f["draw_rate"])}, lang)]
    at = f["decided_at"]
    out.append(render("tips.master.decided_at", {
        "decided": f["decided"], "lowest": pct(at[0]), "second": pct(at[1]),
        "higher": pct(at[2] + at[3])}, lang))
    kinds = f["kinds"]
    if f["decided"]:
        top_won = max(kinds, key=lambda k: (k["won"], -KINDS.index(k["kind"])))
        top_lost = max(kinds, key=lambda k: (k["lost"], KINDS.index(k["kind"])))
        out.append(render("tips.master.deciding", {
            "won": kind_name(top_won["kind"], lang), "won_rate": pct(top_won["won"]),
            "lost": kind_name(top_lost["kind"], lang), "lost_rate": pct(top_lost["lost"])},
            lang))
    sure = [k for k in kinds if k["edge_games"] >= EDGE_MIN]
    if len(sure) >= 2:
        best = max(sure, key=lambda k: (k["edge_win_rate"], -KINDS.index(k["kind"])))
        worst = min(sure, key=lambda k: (k["edge_win_rate"], KINDS.index(k["kind"])))
        out.append(render("tips.master.edge", {
            "best": kind_name(best["kind"], lang, within=True),
            "best_rate": pct(best["edge_win_rate"]), "best_games": best["edge_games"],
            "worst": kind_name(worst["kind"], lang, within=True),
            "worst_rate": pct(worst["edge_win_rate"]), "worst_games": worst["edge_games"]},
            lang))
    out.append(render("tips.master.advice", {}, lang))
    return out


def tables(f: dict[str, Any], lang: str) -> list[TipsTable]:
    """Every kind of line: the deciding lines won and lost with it, and the result of the
    player who held more lines of it."""
    rows = [[kind_name(k["kind"], lang), pct(k["won"]), pct(k["lost"]), str(k["edge_games"]),
             pct(k["edge_win_rate"]) if k["edge_games"] else "–"] for k in f["kinds"]]
    return [TipsTable(
        render("tips.master.table.caption", {"decided": f["decided"]}, lang),
        [term(f"tips.master.table.{c}", lang) for c in ("kind", "won", "lost", "edge_games",
                                                         "edge_win_rate")],
        rows)]
