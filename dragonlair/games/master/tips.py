"""Dragon Master's tips (dragonlair/tips): the line scores (M4) and the starting player's result
between expert bots."""

from __future__ import annotations

import random
from typing import Any

from dragonlair.core.i18n import render, term
from dragonlair.tips.format import pct

#: games a default regeneration plays
DEFAULT_GAMES = 100


def measure(games: int, seed: int) -> dict[str, Any]:
    """The score of pairs, threes and fours (M4) and the starting player's result between
    expert bots (single rounds, the starter drawn at random, M2)."""
    from dragonlair.bots import make_bot
    from dragonlair.core.driver import play_out, seed_for
    from dragonlair.games import make_game
    from dragonlair.games.master.cards import CARDS, line_code, score_table

    table = score_table("100")
    lines = [{"id": c.id, "pair": table[line_code([c.value] * 2)],
              "three": table[line_code([c.value] * 3)],
              "four": table[line_code([c.value] * 4)]} for c in CARDS]
    game = make_game("master", {})
    starter_wins = draws = 0
    for i in range(games):
        seats = [make_bot("master", "expert", random.Random(seed_for(seed, i, s + 1)))
                 for s in range(2)]
        state = play_out(game.new_initial_state(), seats, random.Random(seed_for(seed, i)))
        last = state.rounds[-1]  # type: ignore[attr-defined]
        if last.winner is None:
            draws += 1
        elif last.winner == last.starter:
            starter_wins += 1
    return {"bots": ["expert", "expert"], "lines": lines,
            "starter_win_rate": round(starter_wins / games, 4) if games else 0.0,
            "draw_rate": round(draws / games, 4) if games else 0.0}


def paragraphs(f: dict[str, Any], lang: str) -> list[str]:
    lines = f["lines"]
    pairs = "; ".join(
        f"{term('master.card.' + x['id'], lang, fallback=x['id'])} {x['pair']}" for x in lines)
    return [render("tips.master.pairs", {"pairs": pairs}, lang),
            render("tips.master.threes", {"three": lines[-1]["three"],
                                          "four": lines[-1]["four"]}, lang),
            render("tips.master.start", {"rate": pct(f["starter_win_rate"]),
                                         "draws": pct(f["draw_rate"])}, lang),
            render("tips.master.advice", {}, lang)]
