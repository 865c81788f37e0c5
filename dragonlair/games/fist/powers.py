"""The power primitives every character is composed of (built-in and custom, F6, F7, F9).

A power is a tuple of steps, run in order by the engine for the auction's winner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Gain:
    """Take from the bank; what the bank lacks is not given (F1). Black coins never run short."""

    fairy: int = 0
    common: int = 0
    silver: int = 0
    amulet: int = 0
    black: int = 0
    stones: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class GainStoneChoice:
    """Take ``count`` stones, one at a time, each of a colour the bank has (Ancient Dragon)."""

    count: int = 1


Pattern = Literal["any", "same", "each"]


@dataclass(frozen=True, slots=True)
class PayStones:
    """Pay ``count`` stones to the bank for ``points``: any colours, all of one colour,
    or equally many of each colour. Alone it is mandatory if affordable (Apprentice)."""

    count: int
    pattern: Pattern
    points: int


@dataclass(frozen=True, slots=True)
class Choice:
    """Either pay stones for points, or take the alternative (Magician, Sorcerer...)."""

    pay: PayStones
    alternative: Gain


@dataclass(frozen=True, slots=True)
class StealSecond:
    """Take a stone from a second-highest bidder, else a Common, else a Fairy Gold (Thief)."""


@dataclass(frozen=True, slots=True)
class TakeAllFrom:
    """Choose another player, who gives you all their unspent coins of these kinds (Brigand)."""

    common: bool = True
    silver: bool = True


@dataclass(frozen=True, slots=True)
class KeepDoppelganger:
    """Keep the Doppelganger card, if no player holds it."""


@dataclass(frozen=True, slots=True)
class CopyAuctioned:
    """Use the power of a card already auctioned this turn (Ghost)."""


@dataclass(frozen=True, slots=True)
class PlayUnauctioned:
    """Play a card not yet auctioned this turn, drawn at random or chosen (Goblin, Imp)."""

    choose: bool


@dataclass(frozen=True, slots=True)
class BuyStones:
    """Buy any number of stones; each costs one of these (0 = not accepted) (Merchant)."""

    common: int = 1
    fairy: int = 1
    silver: int = 3


@dataclass(frozen=True, slots=True)
class Necromancer:
    """May pay every coin bid in this auction for ``points``, or decline."""

    points: int = 1


@dataclass(frozen=True, slots=True)
class PayAllStones:
    """Pay all your stones for ``points`` (free with none) (Quack Wizard)."""

    points: int = 1


@dataclass(frozen=True, slots=True)
class PushYourLuck:
    """Name a colour, draw from the bank's stones until you stop or draw it (Rainbow Dragon)."""


@dataclass(frozen=True, slots=True)
class LoseColour:
    """Choose a colour; every player returns all stones of it (Troll)."""


@dataclass(frozen=True, slots=True)
class BagDraw:
    """Up to ``per_colour`` of each colour from the bank into the bag; keep ``draws`` drawn at
    random; the rest go back (Two-headed Dragon)."""

    per_colour: int = 2
    draws: int = 2


@dataclass(frozen=True, slots=True)
class DiscardDoppelganger:
    """Engine-internal: the played Doppelganger goes to the discard pile once the doubled
    power is done (F7). Not available to custom characters."""


Step = (
    Gain
    | GainStoneChoice
    | PayStones
    | Choice
    | StealSecond
    | TakeAllFrom
    | KeepDoppelganger
    | CopyAuctioned
    | PlayUnauctioned
    | BuyStones
    | Necromancer
    | PayAllStones
    | PushYourLuck
    | LoseColour
    | BagDraw
    | DiscardDoppelganger
)


def payments(have: tuple[int, int, int] | list[int], pay: PayStones) -> list[tuple[int, int, int]]:
    """Every stone multiset (r, b, y) that pays ``pay`` from ``have``, in index order."""
    n = pay.count
    out: list[tuple[int, int, int]] = []
    if pay.pattern == "same":
        for c in range(3):
            if have[c] >= n:
                out.append((n, 0, 0) if c == 0 else (0, n, 0) if c == 1 else (0, 0, n))
    elif pay.pattern == "each":
        k = n // 3
        if min(have) >= k:
            out.append((k, k, k))
    else:
        for r in range(min(n, have[0]) + 1):
            for b in range(min(n - r, have[1]) + 1):
                y = n - r - b
                if y <= have[2]:
                    out.append((r, b, y))
    return out
