"""Fist of Dragonstones' tips (dragonlair/tips): each character's worth, measured as how often
its buyer won in seeded bot games (the balance report)."""

from __future__ import annotations

from typing import Any

from dragonlair.core.i18n import render, term
from dragonlair.tips.format import pct

#: games a default regeneration plays
DEFAULT_GAMES = 1000

#: a character needs one buyer per this many games before its win rate is shown
#: (20 buyers in the default 1000 games: fewer make a rate mostly noise)
GAMES_PER_HOLDER = 50


def measure(games: int, seed: int) -> dict[str, Any]:
    """Each character's worth: how often its buyer won (``balance_report``)."""
    from dragonlair.balance import balance_report

    report = balance_report("fist", games, seed=seed)
    least = max(1, games // GAMES_PER_HOLDER)
    rated = sorted(((round(c.win_rate, 4), c) for c in report.cards
                    if c.kind == "character" and c.win_rate is not None and c.holders >= least),
                   key=lambda rc: (-rc[0], rc[1].id))
    chars = [{"id": c.id, "holders": c.holders, "win_rate": rate} for rate, c in rated]
    return {"bots": report.bots, "players": report.players,
            "base_rate": round(report.base_rate, 4), "characters": chars}


def paragraphs(f: dict[str, Any], lang: str) -> list[str]:
    chars = f["characters"]

    def named(c: dict[str, Any]) -> str:
        name = term(f"fist.card.{c['id']}.name", lang, fallback=c["id"])
        return f"{name} ({pct(c['win_rate'])})"

    best = [named(c) for c in chars[:3]]
    worst = [named(c) for c in chars[-3:][::-1]] if len(chars) > 3 else []
    out = [render("tips.fist.intro", {"players": f["players"], "base": pct(f["base_rate"]),
                                      "bots": ", ".join(sorted(set(f["bots"])))}, lang)]
    if best:
        out.append(render("tips.fist.best", {"cards": "; ".join(best)}, lang))
    if worst:
        out.append(render("tips.fist.worst", {"cards": "; ".join(worst)}, lang))
    out.append(render("tips.fist.advice", {}, lang))
    return out
