"""Dragon Farkle in the conformance suite (:mod:`dragonlair.core.conformance`)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from dragonlair.core.conformance import Conformance, builtin_schema
from dragonlair.games.farkle.cards import load_deck_file
from dragonlair.games.farkle.views import FarkleView

DECKS = {"items": [
    {"id": "ember-charm", "effect": "gain", "amount": 250, "count": 4,
     "name": {"en": "Ember Charm"}, "text": {"en": "Gain 250 soldiers."}},
    {"id": "iron-flask", "effect": "battle_shield", "count": 3,
     "name": {"en": "Iron Flask"}, "text": {"en": "No loss on one battle roll."}},
    {"id": "deep-pocket", "effect": "keep_extra", "amount": 1, "count": 2,
     "name": {"en": "Deep Pocket"}, "text": {"en": "Keep one more item."}},
]}


@cache
def deck_file() -> dict[str, Any]:
    """The example deck file shipped with the game."""
    deck: dict[str, Any] = load_deck_file(str(Path(__file__).parent / "examples" / "decks.toml"))
    return deck


def items_changed(state: Any, seat: int | None, rng: random.Random) -> Any:
    """D9: every other seat's items (held and set aside) replaced by random cards, the same
    counts, and their hidden record entries rewritten."""
    other = state.clone()
    items = state.game.items
    n = len(items)
    for s in range(state.num_players):
        if s != seat:
            other.items[s] = [rng.randrange(n) for _ in other.items[s]]
            other.gained[s] = [rng.randrange(n) for _ in other.gained[s]]
    for i, owner in other.hidden_for.items():
        if owner != seat:
            other._log[i] = f"chance: item {items[rng.randrange(n)].id}"
    for i, (s, a) in enumerate(other.history):
        if s != seat and a.text.split()[0] in ("discard", "keep-item"):
            other._log[i] = f"p{s}: {a.text.split()[0]} {items[rng.randrange(n)].id}"
    return other


def varied(seed: int) -> dict[str, Any]:
    """2 to 5 players, dragons 3-5, turn limits on three in four, a deck file's own cards
    (D8.5, the example file too) and its own scoring table (D2) now and then."""
    opts: dict[str, Any] = {"players": 2 + seed % 4, "dragon": (3, 4, 5)[seed % 3]}
    limit = (None, 8, 16, 30)[seed // 4 % 4]
    if limit is not None:
        opts["max_turns"] = limit
    if seed % 7 == 2:
        opts["decks"] = DECKS
    if seed % 13 == 6:  # the example deck file (for 2 to 4 players)
        opts.update(players=2 + seed % 3, decks=deck_file())
    if seed % 11 == 3:
        opts["table"] = {"single_one": 150, "straight": 2500}
    return opts


CONFORMANCE = Conformance(
    tables=({"players": 2}, {"players": 4}), model=FarkleView, varied=varied,
    secrets_changed=items_changed, cut=(0, 400), cuts=3, follow=40,
    published_schema=builtin_schema("farkle"))
