"""The Dragon Farkle state's enums: phases, the action of a turn, the decisions, the powers
used, what follows a draw."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Phase(IntEnum):
    SETUP = 0  # chance: companions, items, start player
    COMPANION = 1  # chance: a new companion for a player wiped out in the Lair (D7)
    CHOOSE = 2  # the player's action (and start-of-turn powers)
    ROLL = 3  # chance: a roll
    DIE = 4  # chance: one die rerolled (companion)
    DRAW = 5  # chance: a magic item drawn
    DECIDE = 6
    OVER = 7


class Mode(IntEnum):
    NONE = 0
    RECRUIT = 1
    SKIRMISH = 2
    BATTLE = 3


class Dec(IntEnum):
    TABBY = 0  # ignore the dragon on this roll?
    HICCUP = 1  # the attacker may reroll one die of this roll
    KEEP = 2  # which dice to set aside
    ALLIANCE = 3  # double or item
    CONTINUE = 4  # roll again or bank / stop
    FARKLE = 5  # accept the farkle (or use an item against it)
    KEEP_ITEM = 6  # Skirmish winner keeps one gained item
    DISCARD = 7  # end of turn: over the item limit


class Power(StrEnum):
    """A once-per-turn companion power (D8.4): used this turn, or offered on this roll."""

    TABBY = "tabby"  # ignore the dragon (Tabby)
    HICCUP = "hiccup"  # reroll one die (Hiccup)
    SCARE = "scare"  # another player loses soldiers (Skree)


class BattleBonus(StrEnum):
    """What acts once per Final Battle turn (D6, D8): the companion's extra damage, the
    Dragonsbane Arrow, the Healing Potion."""

    COMPANION = "companion"
    ARROW = "arrow"
    SHIELD = "shield"


class AfterDraw(StrEnum):
    """What follows a magic item drawn: the rolling goes on (an alliance, D4.4) or the turn
    ends (a treasure after banking); ``NOTHING`` while no draw is waited for."""

    NOTHING = ""
    CONTINUE = "continue"
    END = "end"
