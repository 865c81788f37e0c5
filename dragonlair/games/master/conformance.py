"""Dragon Master in the conformance suite (:mod:`dragonlair.core.conformance`)."""

from __future__ import annotations

import random
from typing import Any

from dragonlair.core.conformance import Conformance, builtin_schema, replayed
from dragonlair.core.game import CHANCE
from dragonlair.games.master.cards import HAND
from dragonlair.games.master.state import DEAL
from dragonlair.games.master.views import MasterView


def hand_changed(state: Any, seat: int | None, rng: random.Random) -> Any:
    """M6: the other seat's unplaced cards and the set-aside cards of this round shuffled
    together and dealt again (what was placed stays): a game ``seat`` cannot tell apart."""
    if seat is None:
        return hand_changed(hand_changed(state, 0, rng), 1, rng)
    hidden = 1 - seat
    history = list(state.history)
    start = state.round_start
    if len(history) < start + 2 * HAND:  # this round's deal is not done yet
        return replayed(state.game, history)
    own = range(start + hidden * HAND, start + (hidden + 1) * HAND)
    placed = [a.value for s, a in history[start:] if s == hidden]
    pool = [v for v in range(4) for _ in range(state.hands[hidden][v] + state.deck[v])]
    rng.shuffle(pool)
    cards = placed + pool[:HAND - len(placed)]
    rng.shuffle(cards)
    for i, v in zip(own, cards, strict=True):
        history[i] = (CHANCE, DEAL[v])
    return replayed(state.game, history)


TABLES: list[dict[str, Any]] = [{}, {"match": True}, {"four_of_a_kind": "100+face"},
                                {"match": True, "four_of_a_kind": "100+face"}]


def varied(seed: int) -> dict[str, Any]:
    """A single round or a match (M5), with either scoring of four of a kind (M4)."""
    return TABLES[seed % 4]


CONFORMANCE = Conformance(
    tables=({}, {"match": True}), model=MasterView, varied=varied,
    secrets_changed=hand_changed, cut=(0, 80), cuts=1, follow=None,
    published_schema=builtin_schema("master"))
