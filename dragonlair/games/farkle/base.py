"""The helpers every rule module of Dragon Farkle uses, as functions over a
:class:`~dragonlair.games.farkle.state.FarkleState`: events, the companion's powers, the
piles, moving soldiers (D1), asking a seat to decide or chance to draw, the keep choices of
a roll (D2), items held and usable (D8).

The rules over them: the turn flow (:mod:`.turns`), the Skirmish and the Final Battle
(:mod:`.fight`); the views (:mod:`.viewing`).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from dragonlair.core.game import CHANCE
from dragonlair.games.farkle.actions import DICE_CODE, FarkleAction
from dragonlair.games.farkle.cards import CompanionEffect, FarkleCard, ItemEffect, Window
from dragonlair.games.farkle.enums import Dec, Mode, Phase
from dragonlair.games.farkle.scoring import Counts

if TYPE_CHECKING:
    from dragonlair.games.farkle.game import FarkleGame
    from dragonlair.games.farkle.state import FarkleState

BATTLE_ARMY = 5000  # D3: soldiers needed to start a Final Battle
SKIRMISH_BONUS = 500  # D5.3
SUPPLY = 10**9  # the supply is unlimited (D1); counted so that soldiers are conserved
#: ``to_move`` at a chance node
AT_CHANCE = (CHANCE,)

# Enum members as module globals, for the hot paths: a global is read several times
# faster than a member (an enum class's attributes miss the interpreter's fast path).
_P_DECIDE = Phase.DECIDE
_P_ROLL = Phase.ROLL
_KEEP_EXTRA = ItemEffect.KEEP_EXTRA

#: a roll's keep actions (index order), their values by dice code, its scoring dice and value
RollInfo = tuple[tuple[FarkleAction, ...], dict[int, int], tuple[Counts, int]]

#: sort key: an action's index
_index = attrgetter("index")

#: per game: by roll, :func:`keep_choices` (shared by the game's states)
KEEPS: weakref.WeakKeyDictionary[FarkleGame, dict[Counts, RollInfo]] = (
    weakref.WeakKeyDictionary())


def emit(state: FarkleState, code: str, to: int | None, *values: Any) -> None:
    """Append an event, compactly (:mod:`dragonlair.games.farkle.events`)."""
    state._ev = ((code, to, *values), state._ev)
    state._nev += 1


def companion_of(state: FarkleState, seat: int) -> FarkleCard | None:
    k = state.companions[seat]
    return state.game.companions[k] if k >= 0 else None


def has(state: FarkleState, seat: int, effect: CompanionEffect) -> bool:
    """Whether ``seat``'s companion has ``effect``."""
    k = state.companions[seat]
    return k >= 0 and state.game.companion_effects[k] is effect


def item_pile(state: FarkleState) -> list[int]:
    if not any(state.item_deck) and any(state.item_discard):
        return state.item_discard  # D8.2: an empty pile is the shuffled discards
    return state.item_deck


def companion_pile(state: FarkleState) -> list[int]:
    if not any(state.companion_deck) and any(state.companion_discard):
        return state.companion_discard
    return state.companion_deck


def take_item(state: FarkleState, k: int) -> None:
    """Item ``k`` leaves the pile (D8.2: the discards shuffled when it is empty)."""
    if not any(state.item_deck):
        state.item_deck, state.item_discard = state.item_discard, [0] * len(state.item_deck)
    state.item_deck[k] -= 1


def take_companion(state: FarkleState, k: int) -> None:
    """Companion ``k`` leaves the pile (the discards shuffled when it is empty)."""
    if not any(state.companion_deck):
        state.companion_deck, state.companion_discard = (
            state.companion_discard, [0] * len(state.companion_deck))
    state.companion_deck[k] -= 1


def move(state: FarkleState, seat: int, delta: int) -> int:
    """Soldiers between an army and the supply; an army never goes below 0."""
    if delta < 0:
        delta = -min(-delta, state.armies[seat])
    state.armies[seat] += delta
    state.supply -= delta
    return delta


def ask(state: FarkleState, seat: int, dec: Dec | None, legal: Sequence[FarkleAction],
        phase: Phase = _P_DECIDE) -> None:
    """Wait for ``seat`` to choose among ``legal`` (the action choice has no ``dec``)."""
    state.phase = phase
    state.dec = dec
    state.dec_legal = tuple(sorted(legal, key=_index))
    state.to_move = (seat,)


def ask_sorted(state: FarkleState, seat: int, dec: Dec | None,
               legal: tuple[FarkleAction, ...], phase: Phase = _P_DECIDE) -> None:
    """:func:`ask` for a decision whose ``legal`` is already in index order."""
    state.phase = phase
    state.dec = dec
    state.dec_legal = legal
    state.to_move = (seat,)


def keep_choices(state: FarkleState, roll: Counts) -> RollInfo:
    """The keep actions of a roll, in index order (none: a farkle), each one's value by
    its dice code, and the roll's scoring dice (``Scorer.scoring_dice``); cached per
    game."""
    got = state._keeps.get(roll)
    if got is None:
        keep = state.space.keep
        sels = state.scorer.selections(roll)
        got = (tuple(sorted((keep[DICE_CODE[c]] for c, _ in sels), key=_index)),
               {DICE_CODE[c]: v for c, v in sels}, state.scorer.scoring_dice(roll))
        state._keeps[roll] = got
    return got


def begin(state: FarkleState, mode: Mode, roller: int, dice: int) -> None:
    """``roller`` rolls ``dice`` dice for a Recruit, a side of a Skirmish or a Final Battle."""
    state.mode = mode
    state.roller = roller
    state.full_dice = dice
    state.hand_dice = dice
    state.pending = 0
    to_chance(state, _P_ROLL)


def to_chance(state: FarkleState, phase: Phase) -> None:
    """Wait for chance (a roll, a die, a draw)."""
    state.phase = phase
    state.dec = None
    state.dec_legal = ()
    state.to_move = AT_CHANCE


def item_limit(state: FarkleState, seat: int) -> int:
    """D8.3: one item; a Plunder Sack held lets its holder keep that many others too."""
    game = state.game
    effects = game.item_effects
    extra: int | None = None  # the largest Plunder Sack held
    for i in state.items[seat]:
        if effects[i] is _KEEP_EXTRA:
            amount = game.items[i].amount
            if extra is None or amount > extra:
                extra = amount
    return 1 if extra is None or extra < 0 else 1 + extra


def usable_items(state: FarkleState, seat: int, window: Window) -> list[FarkleAction]:
    """The ``use`` actions of ``seat``'s items of this window (one per card)."""
    held = state.items[seat]
    if state.game.items_of_window[window].isdisjoint(held):  # the most frequent answer
        return []
    windows = state.game.item_windows
    out: list[FarkleAction] = []
    for i in held:
        if windows[i] is window:
            use = state.space.use[i]
            for u in out:  # two copies of a card: one action (by identity: interned)
                if u is use:
                    break
            else:
                out.append(use)
    return out


def use_item(state: FarkleState, seat: int, i: int) -> None:
    state.items[seat].remove(i)
    state.item_discard[i] += 1
