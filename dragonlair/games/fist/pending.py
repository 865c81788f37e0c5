"""Where a Fist game stands: its phase, and what a power under way waits for.

While a power runs (F6, F7) the engine may stop for the auction's winner to decide or for
a draw from a deck or a bag. What it waits for is one value, :data:`Pending`: a
:class:`Decision` (phase ``DECIDE``) or a :class:`Draw` (phase ``POWER_CHANCE``). Each power
primitive that asks keeps its asking and its resolving together (``powers_*.py``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import FistAction


class Phase(IntEnum):
    SETUP = 0  # chance: the starting stones (F3.1)
    SPECIAL = 1  # chance: the turn's special cards (F4.1)
    REVEAL = 2  # chance: the next card of the turn's pile (F4.2)
    BID = 3  # sealed bids (F5.1)
    TIEBID = 4  # sealed Silver tie-break (F5.7)
    DECIDE = 5  # the winner decides inside a power
    POWER_CHANCE = 6  # chance inside a power (Goblin, Rainbow, Two-headed Dragon)
    OVER = 7
    RUNNING = 8  # transient: power steps are being carried out


class Dec(IntEnum):
    """What the winner is being asked."""

    DOUBLE = 0  # play the Doppelganger? (F7)
    CHOICE = 1  # pay stones or take the alternative
    PAY = 2  # which stones to pay
    COLOUR_GAIN = 3
    COLOUR_TROLL = 4
    COLOUR_RAINBOW = 5
    STEAL = 6
    TARGET = 7
    PICK_GHOST = 8
    PICK_IMP = 9
    BUY = 10
    NECRO = 11
    RAINBOW_MORE = 12


class PowerChance(IntEnum):
    """What a power draws at random."""

    GOBLIN = 0  # a card of the turn's pile
    RAINBOW = 1  # a stone of the bank
    BAG = 2  # a stone of the Two-headed Dragon's bag


class Decision(NamedTuple):
    """The winner is asked ``kind`` inside the power of card ``card`` (its index at the
    table). ``legal``: the options, in index order. ``step``: the power step asked about,
    where resolving needs it (a Choice, a PayStones, a TakeAllFrom, a BuyStones, a
    Necromancer); else ``None``. Immutable (a named tuple: cheap to make on the hot path)."""

    kind: Dec
    card: int
    legal: tuple[FistAction, ...]
    step: pw.Step | None = None


class Draw(NamedTuple):
    """The power of card ``card`` draws ``kind`` at random (a chance node). Immutable."""

    kind: PowerChance
    card: int


#: what a power under way waits for (``None``: nothing)
Pending = Decision | Draw
