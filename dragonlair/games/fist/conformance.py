"""Fist of Dragonstones in the conformance suite (:mod:`dragonlair.core.conformance`)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from dragonlair.core.conformance import Conformance, builtin_schema
from dragonlair.core.game import Game
from dragonlair.games.fist.custom import load_file
from dragonlair.games.fist.views import FistView

FIST_CUSTOM = load_file("moneylender") + load_file("stormcaller")


@cache
def _actions_by_kind(game: Game) -> dict[Any, list[Any]]:
    out: dict[Any, list[Any]] = {}
    for i in range(game.num_distinct_actions):
        action: Any = game.action_from_index(i)
        out.setdefault(action.kind, []).append(action)
    return out


def hidden_changed(state: Any, seat: int | None, rng: random.Random) -> Any:
    """F8: every other seat's coins, and its sealed bid (if any), changed."""
    other = state.clone()
    bids = _actions_by_kind(state.game)
    for s, p in enumerate(other.players):
        if s == seat:
            continue
        p.fairy += rng.randint(1, 5)
        p.common += rng.randint(1, 3)
        p.silver += rng.randint(1, 4)
        p.amulet += 1
        p.black += 1
        p.fairy_spent += 1
        bid = other.bids[s]
        if bid is not None:
            # the i-th of the kind's other bids (the pool is in index order and holds the
            # bid): the same pick as listing the others, without comparing thousands
            pool = bids[bid.kind]
            i = rng.randrange(len(pool) - 1)
            other.bids[s] = pool[i + 1] if pool[i].index >= bid.index else pool[i]
    return other


def varied(seed: int) -> dict[str, Any]:
    """3 to 6 players, custom characters every 4th table, a turn limit (F5.10) on all but
    one in ten (to keep 2,000 games within CI's time)."""
    opts: dict[str, Any] = {"players": 3 + seed % 4}
    if seed % 4 == 1:
        opts["custom"] = FIST_CUSTOM
    if seed % 10:
        opts["max_turns"] = 1 + seed % 3
    return opts


def snapshot_tables(seed: int) -> dict[str, Any]:
    """3 to 6 players, custom characters every 3rd table, a turn limit of 2 every 5th: most
    games are long, so that snapshots are taken deep into them."""
    opts: dict[str, Any] = {"players": 3 + seed % 4}
    if seed % 3 == 0:
        opts["custom"] = FIST_CUSTOM
    if seed % 5 == 0:
        opts["max_turns"] = 2
    return opts


CONFORMANCE = Conformance(
    tables=({"players": 3}, {"players": 5}), model=FistView, varied=varied,
    secrets_changed=hidden_changed, cut=(40, 900), cuts=1, follow=None,
    snapshot_tables=snapshot_tables, published_schema=builtin_schema("fist"))
