"""Real event sequences for the game log's tests (web/src/lib/fixtures/log-<game>.json; read
by src/lib/logmap.test.ts and events.test.ts): a seeded random game of each game, cut after a
while, as seat 0, seat 1 and a spectator are sent its events (each viewer's secrets beside
the public twins: a Fist sealed bid and a Silver tie-break, a Farkle item, a Master hand).

    .venv/bin/python web/scripts/log_fixtures.py          # (re)write them
    .venv/bin/python web/scripts/log_fixtures.py --check  # exit 1 when they are stale

tests/test_web_log_fixtures.py runs the check.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from dragonlair.core.game import CHANCE, Game
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.fist.game import FistGame
from dragonlair.games.master.game import MasterGame

OUT = Path(__file__).resolve().parent.parent / "src" / "lib" / "fixtures"
NAMES = ["Ann", "Bob", "Cai", "Dee"]


def play(game: Game, seed: int, until: str, count: int) -> dict[str, Any]:
    """Random play until ``count`` events of code ``until`` happened (or the end)."""
    rng = random.Random(seed)
    st = game.new_initial_state()
    while not st.is_terminal():
        if sum(e.code == until for e in st.all_events()) >= count:
            break
        if st.is_chance():
            st.apply(CHANCE, st.sample_chance(rng))
            continue
        seat = st.current_seats()[0]
        st.apply(seat, rng.choice(list(st.legal_actions(seat))))
    n = int(game.options.get("players", game.info.min_players))
    return {"seed": seed, "names": NAMES[:n],
            "events": {("spectator" if v is None else str(v)): st.view(v)["events"]
                       for v in (None, 0, 1)}}


def fist() -> dict[str, Any]:
    for seed in range(200):
        out = play(FistGame({"players": 3}), seed, "fist.tiebreak.revealed", 1)
        if any(e["code"] == "fist.tiebreak.own" for e in out["events"]["0"]):
            return out
    raise SystemExit("fist: no tie-break")


def fixtures() -> dict[str, str]:
    """Each fixture's file name and text."""
    return {f"log-{name}.json": json.dumps(data, ensure_ascii=False) + "\n" for name, data in (
        ("fist", fist()),
        ("farkle", play(FarkleGame({"players": 2}), 1, "farkle.turn.start", 7)),
        ("master", play(MasterGame({"match": True}), 1, "master.round.begin", 3)))}


def stale() -> list[str]:
    """The fixtures that differ from what the engines play now."""
    return [name for name, text in fixtures().items()
            if not (OUT / name).exists() or (OUT / name).read_text(encoding="utf-8") != text]


def main() -> None:
    if "--check" in sys.argv[1:]:
        bad = stale()
        if bad:
            raise SystemExit(f"stale: {', '.join(bad)} (run web/scripts/log_fixtures.py)")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in fixtures().items():
        (OUT / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
