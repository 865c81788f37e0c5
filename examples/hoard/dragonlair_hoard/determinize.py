"""The game behind a view, for search bots and research adapters
(``dragonlair.interop.resample``).

Dragon's Hoard has no secrets, and a seat's view tells every roll and every bank in its
events, so the history is read back from them exactly: there is nothing to sample.
"""

from __future__ import annotations

import random
from typing import Any

from dragonlair.core.game import CHANCE, JSON, Action, Game, State
from dragonlair.interop.resample import ResampleError

History = list[tuple[int, Action]]


def determinize(game: Game, view: JSON, seat: int,
                rng: random.Random) -> tuple[State, History] | None:
    """The state and its history that ``view`` shows (the only one there is)."""
    roll, bank = game.parse_action("roll"), game.parse_action("bank")
    script: History = []
    try:
        events: list[dict[str, Any]] = view["events"]
        for event in events:
            code, params = event["code"], event["params"]
            if code in ("hoard.turn.rolled", "hoard.turn.dragon"):
                script += [(params["seat"], roll),
                           (CHANCE, game.parse_action(f"die {params['face']}"))]
            elif code == "hoard.turn.banked":
                script.append((params["seat"], bank))
        if view["chance"]:  # a roll was asked for, the die not yet cast
            script.append((view["public"]["roller"], roll))
    except (KeyError, TypeError) as exc:
        raise ResampleError("hoard.determinize.not_a_view", why=str(exc)) from None
    state = game.new_initial_state()
    for who, action in script:
        state.apply(who, action)
    return state, script
