"""What a Dragon Farkle seat may know (D9), as the view envelope's models and its schema.

``state.view(seat)`` returns plain data in the envelope of :mod:`dragonlair.core.views`;
its ``public``, ``private`` and ``legal`` parts have the shapes of :class:`FarklePublic`,
:class:`FarklePrivate` and :class:`FarkleLegal` (docs/views.md). The published schema is
``dragonlair/games/farkle/schemas/view-farkle.v1.json`` (and docs/schemas/); regenerate it with
``python -m dragonlair.games.farkle.views``.

D9: everything is public but the identity of a magic item: a seat's items (held and gained
this turn) are in its private part only; the others see how many it holds.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from dragonlair.core import views
from dragonlair.core.views import Envelope, Strict, envelope_schema

Seat = int
#: a companion or item card id (a deck file may bring its own, D8)
CardId = str
#: dice as text, each die a face 1-6, sorted (``"1155"``); ``""`` for none
DICE_PATTERN = "^[1-6]{0,6}$"
Mode = Literal["none", "recruit", "skirmish", "battle"]
Decision = Literal["action", "tabby", "hiccup", "keep", "alliance", "continue", "farkle",
                   "keep_item", "discard"]
Power = Literal["tabby", "hiccup", "scare"]


class Dragon(Strict):
    strength: int = Field(ge=1, description="hits that slay the dragon (D6.4)")
    damage: int = Field(ge=0, description="hits in the Final Battle so far (healed after it)")


class Skirmish(Strict):
    attacker: Seat = Field(ge=0, le=4)
    defender: Seat = Field(ge=0, le=4)
    attack_value: int = Field(ge=0, description="the attacker's value once it stopped (D5.1)")


class SeatPublic(Strict):
    """What everyone sees of a seat (D9): its army, the Lair, its companion, how many items."""

    seat: Seat = Field(ge=0, le=4)
    army: int = Field(ge=0)
    in_lair: bool = Field(description="fought the Final Battle and has not left (D7)")
    companion: CardId | None = Field(description="null: wiped out, a new one comes (D7)")
    items: int = Field(ge=0, description="magic items held (which ones is hidden, D9)")
    items_gained: int = Field(ge=0, description="items set aside this turn (D4.4)")


class LastKeep(Strict):
    """The dice set aside last in the game and the soldiers (attack, defence) they gave."""

    seat: Seat = Field(ge=0, le=4)
    dice: str = Field(pattern=DICE_PATTERN)
    soldiers: int = Field(ge=0)


class NextRoll(Strict):
    """The roller's next roll: how many soldier dice it takes and its farkle risk."""

    dice: int = Field(ge=1, le=6, description="soldier dice of the next roll: those in hand, "
                      "after hot dice all the roller's dice again (6; a Skirmish defender "
                      "5, D5.2)")
    risk: float = Field(ge=0, le=1, description="the chance that the roll scores nothing "
                        "(a farkle, D4.2) with the table in use, rounded to 4 places")


class ScoringTableModel(Strict):
    """The scoring table in use (D2)."""

    single_one: int
    single_five: int
    triple: list[int] = Field(min_length=6, max_length=6, description="three 1s .. three 6s")
    four: int
    five: int
    six: int
    three_pairs: int
    straight: int


class FarklePublic(Strict):
    """What everyone sees (D9)."""

    players: int = Field(ge=2, le=5)
    max_turns: int | None = Field(ge=1, description="the table's turn limit, if any")
    player: Seat = Field(ge=0, le=4, description="whose turn it is")
    decision: Decision | None = Field(description="what the seat to move decides; null at "
                                      "a chance node or at the end")
    mode: Mode = Field(description="the action of the turn (D3)")
    roller: Seat | None = Field(ge=0, le=4, description="who is rolling; null between actions")
    roll: str = Field(pattern=DICE_PATTERN, description="the soldier dice of the last roll "
                      "(still in hand: not yet set aside)")
    event: Literal["dragon", "alliance", "blank"] = Field(description="the event die (D4)")
    dice_in_hand: int = Field(ge=0, le=6, description="0: hot dice, the next roll takes all")
    next_roll: NextRoll | None = Field(description="the roller's next roll: being rolled, or "
                                       "to be chosen now (an alliance's choice, roll on or "
                                       "stop, an item drawn mid-turn); null between actions "
                                       "and while a roll lies on the table (each of "
                                       "`legal.keeps` says what follows it)")
    pending: int = Field(ge=0, description="soldiers (attack, defence) set aside this turn")
    skirmish: Skirmish | None
    dragon: Dragon
    table: ScoringTableModel
    seats: list[SeatPublic] = Field(min_length=2, max_length=5)
    item_deck_size: int = Field(ge=0, description="cards in the item pile (D8.2)")
    last_keep: LastKeep | None = Field(description="the dice set aside last (an alliance "
                                       "decision follows it, D4.4)")
    powers_used: list[Power] = Field(description="once-per-turn companion powers used this "
                                     "turn (D8.4)")
    items_used: dict[CardId, int] = Field(description="per item card, the `use` actions the "
                                          "record shows so far (public, D9)")
    history: list[str] = Field(description="the record so far (`p0: keep 155`); another "
                               "seat's item draw reads `chance: item for pN`, its discard and "
                               "keep-item choices `pN: discard (hidden)` (D9)")


class FarklePrivate(Strict):
    """This seat's hidden items (D9) and its item limit (D8.3)."""

    items: list[CardId] = Field(description="items held, sorted")
    gained: list[CardId] = Field(description="items set aside this turn (D4.4), sorted")
    item_limit: int = Field(ge=1, description="the most items this seat may keep (D8.3)")


class KeepChoice(Strict):
    """One scoring selection of the roll (D2): ``keep DICE``."""

    action: str
    dice: str = Field(pattern="^[1-6]{1,6}$")
    soldiers: int = Field(ge=0, description="what it gives (soldiers, attack or defence)")
    dice_left: int = Field(ge=0, le=6, description="dice left in hand (0: hot dice)")
    next_dice: int = Field(ge=1, le=6, description="soldier dice of the roll after this "
                           "selection: `dice_left`, after hot dice all the roller's dice "
                           "again (6; a Skirmish defender 5, D5.2)")
    risk: float = Field(ge=0, le=1, description="the farkle risk of that roll (D4.2), "
                        "rounded to 4 places")


MoveKind = Literal["recruit", "skirmish", "battle", "scare", "use", "tabby", "pass", "reroll",
                   "keep", "double", "item", "roll", "bank", "stop", "farkle", "discard",
                   "keep_item"]


class Move(Strict):
    """One legal action: its text, its kind, and what it names (only the fields its kind
    has are present)."""

    action: str
    kind: MoveKind
    seat: Seat | None = Field(default=None, ge=0, le=4,
                              description="`skirmish`, `scare`: the seat named")
    card: CardId | None = Field(default=None,
                                description="`use`, `discard`, `keep_item`: the item named")
    face: int | None = Field(default=None, ge=1, le=6, description="`reroll`: the face")
    dice: str | None = Field(default=None, pattern="^[1-6]{1,6}$",
                             description="`keep`: the dice set aside")


class FarkleLegal(Strict):
    """The legal actions of the seat to move: ``actions`` lists them all (there are few),
    in the order of ``legal_actions()``, and ``moves`` each with what it is; the other fields
    say what each one is, by kind."""

    decision: Decision
    actions: list[str] = Field(min_length=1, description="every legal action's text")
    moves: list[Move] = Field(min_length=1, description="every legal action as `actions` "
                              "lists it: its text, kind and what it names")
    recruit: bool = Field(description="`recruit` (D4)")
    skirmish: list[Seat] = Field(description="`skirmish pN`: the seats that may be attacked "
                                 "(D5; not one in the Lair)")
    battle: bool = Field(description="`battle`: the Final Battle (D6)")
    scare: list[Seat] = Field(description="`scare pN` (a companion power)")
    use: list[CardId] = Field(description="`use ITEM`: own items usable now (D8.4)")
    keeps: list[KeepChoice] = Field(description="`keep DICE`: the scoring selections")
    alliance: list[Literal["double", "item"]] = Field(description="the alliance's choice "
                                                      "(D4.4)")
    roll: bool = Field(description="`roll` again")
    end: Literal["bank", "stop"] | None = Field(description="`bank` (Recruit) or `stop` "
                                                "(Skirmish) ends the rolling")
    farkle: bool = Field(description="`farkle`: accept the farkle (D4.2)")
    tabby: bool = Field(description="`ignore dragon` (a companion power)")
    reroll: list[int] = Field(description="`reroll F`: the faces one die may be rerolled of")
    pass_: bool = Field(alias="pass", description="`pass`: decline a companion power")
    items: list[CardId] = Field(description="`discard ITEM` / `keep-item ITEM`: the items "
                                "to choose among (D8.3, D5.3)")


FarkleView = Envelope[FarklePublic, FarklePrivate, FarkleLegal]

def view_schema() -> dict[str, Any]:
    """The JSON Schema of Dragon Farkle views."""
    return envelope_schema("farkle", FarklePublic, FarklePrivate, FarkleLegal)


def schema_text() -> str:
    return views.schema_text(view_schema())


def schema_paths(root: Path | None = None) -> list[Path]:
    return views.schema_paths("farkle", root)


if __name__ == "__main__":
    sys.exit(views.write_schema("farkle", view_schema()))
