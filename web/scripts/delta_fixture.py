"""Deltas for the client's unit test (web/src/lib/fixtures/deltas.json, read by
web/src/lib/delta.test.ts): seeded random games of the three games, the view one seat is sent
after each action (as the server sends it: the events it has not been sent), the deltas the
server's ``dragonlair.core.viewdelta.diff`` makes between them (from the view held,
rebased), and the SHA-256 of each full view (canonical JSON: sorted keys, no spaces, UTF-8,
whole floats as integers). The browser's ``applyDelta`` must rebuild every view from the
first one and the deltas.

    .venv/bin/python web/scripts/delta_fixture.py          # (re)write the fixture
    .venv/bin/python web/scripts/delta_fixture.py --check  # exit 1 when it is stale
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from dragonlair.core import viewdelta
from dragonlair.core.game import CHANCE
from dragonlair.core.plugin import make_game

OUT = Path(__file__).resolve().parent.parent / "src" / "lib" / "fixtures" / "deltas.json"
#: (game, options, seat, seed, most actions)
GAMES: list[tuple[str, dict[str, Any], int | None, int, int]] = [
    ("fist", {"players": 4}, 0, 1, 90), ("fist", {"players": 3}, None, 2, 50),
    ("master", {}, 1, 3, 400), ("farkle", {"players": 2}, 0, 4, 40)]


def _js(value: Any) -> Any:
    """As JavaScript reads it: a whole float is a whole number (``6.0`` is ``6``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _js(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js(v) for v in value]
    return value


def canonical(value: Any) -> str:
    return json.dumps(_js(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game_case(game_id: str, options: dict[str, Any], seat: int | None, seed: int,
              most: int) -> dict[str, Any]:
    game = make_game(game_id, options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    first = json.loads(json.dumps(state.view(seat, since=0)))
    held, seen = first, first.get("events_total", 0)
    deltas, hashes = [], []
    for _ in range(most):
        if state.is_terminal():
            break
        mover = state.current_seats()[0]
        if mover == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            state.apply(mover, rng.choice(list(state.legal_actions(mover))))
        view = json.loads(json.dumps(state.view(seat, since=seen)))
        seen = view.get("events_total", 0)
        deltas.append(viewdelta.diff(viewdelta.rebased(held), view))
        hashes.append(hashlib.sha256(canonical(view).encode()).hexdigest())
        held = view
    return {"game": game_id, "seat": seat, "first": first, "deltas": deltas, "sha256": hashes}


def fixture() -> str:
    cases = [game_case(*g) for g in GAMES]
    return json.dumps({"cases": cases}, separators=(",", ":"), ensure_ascii=False) + "\n"


def main() -> int:
    text = fixture()
    if "--check" in sys.argv[1:]:
        if not OUT.is_file() or OUT.read_text("utf-8") != text:
            print(f"{OUT} is stale: .venv/bin/python web/scripts/delta_fixture.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
