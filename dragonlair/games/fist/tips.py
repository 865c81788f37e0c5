"""Fist of Dragonstones' tips (dragonlair/tips): each character's worth, measured as how often
its buyer won in seeded bot games (the balance report), with its 95% Wilson interval, and
whether that interval lies clearly above or below the base rate or the difference is noise."""

from __future__ import annotations

from typing import Any

from dragonlair.core.i18n import render, term
from dragonlair.tips.format import TipsTable, interval, pct

#: games a default regeneration plays (about half a minute)
DEFAULT_GAMES = 1000

#: a character needs one buyer per this many games before its win rate is shown
#: (20 buyers in the default 1000 games: fewer make a rate mostly noise)
GAMES_PER_HOLDER = 50

#: the verdicts, in the order the page names them
VERDICTS = ("above", "noise", "below")


def measure(games: int, seed: int) -> dict[str, Any]:
    """Each character's worth: how often its buyer won (``balance_report``), with the 95%
    Wilson interval of that rate (``CardStats.interval``)."""
    from dragonlair.balance import balance_report

    report = balance_report("fist", games, seed=seed)
    least = max(1, games // GAMES_PER_HOLDER)
    rated = sorted(((round(c.win_rate, 4), c) for c in report.cards
                    if c.kind == "character" and c.win_rate is not None and c.holders >= least),
                   key=lambda rc: (-rc[0], rc[1].id))
    chars: list[dict[str, Any]] = []
    for rate, c in rated:
        lo, hi = c.interval or (0.0, 1.0)
        chars.append({"id": c.id, "holders": c.holders, "wins": c.holder_wins,
                      "win_rate": rate, "ci95": [round(lo, 4), round(hi, 4)]})
    holders = sum(c.holders for _, c in rated)
    pooled = round(sum(c.holder_wins for _, c in rated) / holders, 4) if holders else 0.0
    return {"bots": report.bots, "players": report.players,
            "base_rate": round(report.base_rate, 4), "buyer_rate": pooled,
            "characters": chars}


def verdict(c: dict[str, Any], rate: float) -> str:
    """``above`` when the whole 95% interval lies above ``rate`` (the base rate, or the
    average buyer's), ``below`` when it lies below, ``noise`` when it holds ``rate`` (the
    difference may be chance)."""
    lo, hi = c["ci95"]
    return "above" if lo > rate else "below" if hi < rate else "noise"


def _name(c: dict[str, Any], lang: str) -> str:
    return term(f"fist.card.{c['id']}.name", lang, fallback=c["id"])


def paragraphs(f: dict[str, Any], lang: str) -> list[str]:
    chars = f["characters"]
    base = f["base_rate"]

    def named(c: dict[str, Any]) -> str:
        return f"{_name(c, lang)} ({pct(c['win_rate'])}, {interval(*c['ci95'])})"

    best = [named(c) for c in chars[:3]]
    worst = [named(c) for c in chars[-3:][::-1]] if len(chars) > 3 else []
    out = [render("tips.fist.intro", {"players": f["players"], "base": pct(base),
                                      "bots": ", ".join(sorted(set(f["bots"])))}, lang)]
    if best:
        out.append(render("tips.fist.best", {"cards": "; ".join(best)}, lang))
    if worst:
        out.append(render("tips.fist.worst", {"cards": "; ".join(worst)}, lang))
    for v in VERDICTS:
        group = [_name(c, lang) for c in chars if verdict(c, base) == v]
        if group:
            out.append(render(f"tips.fist.{v}", {"n": len(group), "cards": ", ".join(group),
                                                 "base": pct(base)}, lang))
    buyer = f["buyer_rate"]
    none = term("tips.fist.none", lang)
    out.append(render("tips.fist.buyers", {
        "rate": pct(buyer),
        "above": ", ".join(_name(c, lang) for c in chars if verdict(c, buyer) == "above") or none,
        "below": ", ".join(_name(c, lang) for c in chars if verdict(c, buyer) == "below") or none,
    }, lang))
    out.append(render("tips.fist.advice", {}, lang))
    return out


def tables(f: dict[str, Any], lang: str) -> list[TipsTable]:
    """Every listed character: buyers, their wins, the win rate, its 95% interval, and the
    verdicts against the base rate and against the average buyer."""
    base, buyer = f["base_rate"], f["buyer_rate"]
    rows = [[_name(c, lang), str(c["holders"]), str(c["wins"]), pct(c["win_rate"]),
             interval(*c["ci95"]), term(f"tips.fist.verdict.{verdict(c, base)}", lang),
             term(f"tips.fist.verdict.{verdict(c, buyer)}", lang)]
            for c in f["characters"]]
    return [TipsTable(
        render("tips.fist.table.caption", {"base": pct(base), "buyer": pct(buyer)}, lang),
        [term(f"tips.fist.table.{c}", lang)
         for c in ("character", "holders", "wins", "win_rate", "ci95", "verdict", "buyer")],
        rows)]
