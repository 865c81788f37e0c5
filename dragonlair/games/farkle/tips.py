"""Dragon Farkle's tips (dragonlair/tips): the optimal Recruit policy's banking thresholds and
expected soldiers (D4), exact."""

from __future__ import annotations

from typing import Any

from dragonlair.core.i18n import render
from dragonlair.tips.format import pct

#: games a default regeneration plays
DEFAULT_GAMES = 0


def measure(games: int = 0, seed: int = 0) -> dict[str, Any]:
    """The optimal Recruit policy (D4): the banking threshold for each number of dice in
    hand and the soldiers one turn brings on average."""
    from dragonlair.games.farkle.policy import recruit_distribution, recruit_dp

    dp = recruit_dp()
    dist = recruit_distribution()
    return {"thresholds": [{"dice": n, "bank_from": dp.threshold(n)} for n in range(1, 7)],
            "expected_soldiers": round(sum(k * p for k, p in dist.items()), 2),
            "farkle_chance": round(dist.get(0, 0.0), 4)}


def paragraphs(f: dict[str, Any], lang: str) -> list[str]:
    out = [render("tips.farkle.intro", {"soldiers": f"{f['expected_soldiers']:.0f}",
                                        "farkle": pct(f["farkle_chance"])}, lang)]
    out += [render("tips.farkle.threshold", {"n": t["dice"], "points": t["bank_from"]}, lang)
            for t in f["thresholds"]]
    out.append(render("tips.farkle.advice", {}, lang))
    return out
