"""What the research adapters share, with no optional dependency: returns, the chance-id
space, and the length bounds and truncation used where a framework needs a finite game.

Returns
    Every adapter pays the same: the winners share 1 (a sole winner gets 1, two tied winners
    1/2 each), the others get 0; a game with no winner (a drawn Dragon Master round) gives
    every seat 1/n. The sum is always 1 (constant-sum), each return lies in [0, 1].

Chance ids
    Our action indices put every chance outcome (cards, stones, dice, deals, start players)
    after every decision, in one contiguous block. OpenSpiel numbers chance outcomes from 0,
    so a chance outcome's OpenSpiel id is its index minus :func:`chance_offset`.

Length bounds
    OpenSpiel wants ``max_game_length``, a bound on the number of decisions. Dragon Master has
    one (16 placements a round); Fist and Farkle have none (F5.10 and Farkle's turn limit are
    options, and even a bounded Farkle turn may roll on forever). :func:`decision_bound`
    derives a bound from ``max_turns``; an adapter that enforces it ends the game when the
    bound is reached, and the largest score or army then wins, as at the turn limit.
"""

from __future__ import annotations

from dragonlair.core.game import Action, Game, Outcome, State

#: Fist: decisions of one auction's winner inside a power, bounded generously: a Merchant
#: buys at most the 36 stones, a Rainbow Dragon draws at most 36, a Doppelganger doubles,
#: a Ghost copies one more power (measured worst case over random games: well under 40).
FIST_POWER_DECISIONS = 200
#: Fist: auctions in a turn: the Witch, the other 7 standard characters and 2 specials (F4).
FIST_AUCTIONS_PER_TURN = 10
#: Farkle: decisions allowed per turn on average before the adapter truncates (random play
#: measures at most about 30 in one turn).
FARKLE_DECISIONS_PER_TURN = 100
#: The turn limit the adapters use for Fist and Farkle when none is given.
DEFAULT_MAX_TURNS = 30


def is_chance_action(game_id: str, action: Action) -> bool:
    """Whether ``action`` is a chance outcome (it lies in the chance block of the indices)."""
    kind = int(getattr(action, "kind", -1))
    if game_id == "fist":
        from dragonlair.games.fist.actions import Kind as FistKind

        return kind in (FistKind.CARD, FistKind.STONE)
    if game_id == "master":
        from dragonlair.games.master.state import Kind as MasterKind

        return kind in (MasterKind.DEAL, MasterKind.START)
    if game_id == "farkle":
        from dragonlair.games.farkle.actions import Kind as FarkleKind

        return kind >= FarkleKind.DICE
    raise ValueError(f"unknown game {game_id!r}")


def chance_offset(game: Game) -> int:
    """The index of the first chance outcome; every index from it on is a chance outcome."""
    n = game.num_distinct_actions
    gid = game.info.id
    first = next(i for i in range(n) if is_chance_action(gid, game.action_from_index(i)))
    if not all(is_chance_action(gid, game.action_from_index(i)) for i in range(first, n)):
        raise AssertionError(f"{gid}: chance outcomes are not one block at the end")
    return first


def returns(outcome: Outcome | None, num_players: int) -> list[float]:
    """Each seat's return: winners share 1; no winner: everybody 1/n; not over: zeros."""
    if outcome is None:
        return [0.0] * num_players
    winners = outcome.winners or tuple(range(num_players))
    share = 1.0 / len(winners)
    return [share if s in winners else 0.0 for s in range(num_players)]


def decision_bound(game: Game) -> int:
    """A bound on the number of decisions (not chance outcomes) in one game.

    Dragon Master (one round): 16. Fist: ``max_turns`` x 10 auctions x (2 bids a seat, the
    sealed bid and a Silver tie-break, + 200 power decisions). Farkle: ``max_turns`` x 100.
    Fist and Farkle need ``max_turns``; a match of Dragon Master has no bound.
    """
    gid = game.info.id
    if gid == "master":
        if game.options.get("match"):
            raise ValueError("a Dragon Master match has no bound on its length (drawn rounds "
                             "repeat); use single rounds (match=false)")
        return 16
    max_turns = game.options.get("max_turns")
    if not isinstance(max_turns, int) or max_turns < 1:
        raise ValueError(f"{gid} has no natural length bound; give max_turns")
    if gid == "fist":
        per_auction = 2 * game.num_players + FIST_POWER_DECISIONS
        return max_turns * FIST_AUCTIONS_PER_TURN * per_auction
    if gid == "farkle":
        return max_turns * FARKLE_DECISIONS_PER_TURN
    raise ValueError(f"unknown game {gid!r}")


def truncated_outcome(state: State, limit: int) -> Outcome:
    """The outcome of a game stopped after ``limit`` decisions: the engine ends a copy of the
    state as its turn limit would (:meth:`State.stop_at_limit`: the highest score in Fist,
    the largest army in Farkle, ties shared)."""
    stopped = state.clone()
    stopped.stop_at_limit(f"stopped after {limit} decisions (the adapter's length bound)")
    outcome = stopped.outcome()
    assert outcome is not None
    return outcome
