"""Determinization for Fist (F8): the record hides only sealed bids not yet revealed
(``pN: sealed``); coins follow from the record (:mod:`dragonlair.games.fist.memory`). Each
sealed bid is drawn uniformly from that seat's legal bids. The generic loop and its check
are :func:`dragonlair.interop.resample.sample_history`.
"""

from __future__ import annotations

import random

from dragonlair.core.game import JSON, Game, State
from dragonlair.core.records import parse_entry
from dragonlair.interop.resample import History, ResampleError, apply_or_refuse


def determinize(game: Game, view: JSON, seat: int,
                rng: random.Random) -> tuple[State, History] | None:
    """One history fitting ``view`` (F8), or ``None`` when a sealed bid cannot be drawn."""
    state = game.new_initial_state()
    history: History = []
    try:  # the record in the view's public part (docs/views.md)
        entries = [parse_entry(e, game.num_players) for e in view["public"]["history"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ResampleError("core.resample.not_a_view", game="fist", why=str(exc)) from None
    for who, text in entries:
        if text == "sealed":
            legal = state.legal_actions(who)
            if not legal:
                return None
            action = legal[rng.randrange(len(legal))]
        else:
            action = game.parse_action(text)
        if not apply_or_refuse(state, history, who, action):
            raise ResampleError("core.resample.no_replay", entry=f"{who}: {text}")
    return state, history
