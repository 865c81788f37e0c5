"""Dragon Farkle actions: notation, interned values, stable indices (docs/records.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations_with_replacement

from dragonlair.core.errors import MalformedActionError, shown
from dragonlair.games.farkle.scoring import Counts, counts_of, dice_text

EVENTS = ("dragon", "alliance", "blank")
DRAGON, ALLIANCE, BLANK = 0, 1, 2
MAX_SEATS = 5


class Kind(IntEnum):
    RECRUIT = 0
    SKIRMISH = 1  # a = target seat
    BATTLE = 2
    SCARE = 3  # a = target seat (a companion power)
    USE = 4  # a = item card index
    TABBY = 5  # use the ignore-dragon companion on this roll
    PASS = 6  # decline a companion power offered now
    REROLL = 7  # a = face to reroll (the reroll companion)
    KEEP = 8  # a = selection code
    DOUBLE = 9  # alliance: double this roll's soldiers
    ITEM = 10  # alliance: draw a magic item instead
    ROLL = 11  # roll again
    BANK = 12  # end a Recruit, soldiers join the army
    STOP = 13  # end your side of a Skirmish
    FARKLE = 14  # accept a farkle
    DISCARD = 15  # a = item card index (end of turn, over the limit)
    KEEP_ITEM = 16  # a = item card index (Skirmish winner's one kept item)
    DICE = 17  # chance: a = dice code, b = event face
    DIE = 18  # chance: one rerolled die, a = face
    DRAW_ITEM = 19  # chance: a = item card index
    DRAW_COMPANION = 20  # chance: a = companion card index
    START = 21  # chance: a = start seat


@dataclass(frozen=True, slots=True)
class FarkleAction:
    kind: Kind
    a: int = 0
    b: int = 0
    index: int = field(default=-1, compare=False)
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"FarkleAction({self.text!r})"


def all_dice() -> list[Counts]:
    """Every multiset of 1 to 6 dice, in a fixed order (by size, then faces)."""
    out: list[Counts] = []
    for k in range(1, 7):
        for faces in combinations_with_replacement(range(1, 7), k):
            out.append(counts_of("".join(map(str, faces))))
    return out


DICE_SETS = all_dice()
DICE_CODE = {c: i for i, c in enumerate(DICE_SETS)}


class ActionSpace:
    """Every Farkle action for a table with these item and companion ids."""

    def __init__(self, item_ids: list[str], companion_ids: list[str]) -> None:
        self.item_ids, self.companion_ids = item_ids, companion_ids
        self.actions: list[FarkleAction] = []
        self.by_text: dict[str, FarkleAction] = {}
        add = self._add
        self.recruit = add(Kind.RECRUIT, text="recruit")
        self.skirmish = [add(Kind.SKIRMISH, s, text=f"skirmish p{s}") for s in range(MAX_SEATS)]
        self.battle = add(Kind.BATTLE, text="battle")
        self.scare = [add(Kind.SCARE, s, text=f"scare p{s}") for s in range(MAX_SEATS)]
        self.use = [add(Kind.USE, i, text=f"use {iid}") for i, iid in enumerate(item_ids)]
        self.tabby = add(Kind.TABBY, text="ignore dragon")
        self.pass_ = add(Kind.PASS, text="pass")
        self.reroll = [add(Kind.REROLL, f, text=f"reroll {f}") for f in range(1, 7)]
        self.keep = [add(Kind.KEEP, i, text=f"keep {dice_text(c)}")
                     for i, c in enumerate(DICE_SETS)]
        self.double = add(Kind.DOUBLE, text="double")
        self.item = add(Kind.ITEM, text="item")
        self.roll = add(Kind.ROLL, text="roll")
        self.bank = add(Kind.BANK, text="bank")
        self.stop = add(Kind.STOP, text="stop")
        self.farkle = add(Kind.FARKLE, text="farkle")
        self.discard = [add(Kind.DISCARD, i, text=f"discard {iid}")
                        for i, iid in enumerate(item_ids)]
        self.keep_item = [add(Kind.KEEP_ITEM, i, text=f"keep-item {iid}")
                          for i, iid in enumerate(item_ids)]
        self.dice = [[add(Kind.DICE, i, e, text=f"dice {dice_text(c)} {EVENTS[e]}")
                      for e in range(3)] for i, c in enumerate(DICE_SETS)]
        self.die = [add(Kind.DIE, f, text=f"die {f}") for f in range(1, 7)]
        self.draw_item = [add(Kind.DRAW_ITEM, i, text=f"item {iid}")
                          for i, iid in enumerate(item_ids)]
        self.draw_companion = [add(Kind.DRAW_COMPANION, i, text=f"companion {cid}")
                               for i, cid in enumerate(companion_ids)]
        self.start = [add(Kind.START, s, text=f"start p{s}") for s in range(MAX_SEATS)]

    def _add(self, kind: Kind, a: int = 0, b: int = 0, *, text: str) -> FarkleAction:
        action = FarkleAction(kind, a, b, len(self.actions), text)
        self.actions.append(action)
        self.by_text[text] = action
        return action

    def parse(self, text: str) -> FarkleAction:
        canon = " ".join(text.lower().split())
        words = canon.split()
        if (len(words) >= 2 and words[0] in ("keep", "dice") and len(words[1]) <= 6
                and words[1].isascii() and words[1].isdigit()):
            # forgive unsorted dice: 'keep 5444' is 'keep 4445' (six dice at most, 0-9 only)
            words[1] = "".join(sorted(words[1]))
            canon = " ".join(words)
        got = self.by_text.get(canon)
        if got is None:
            raise MalformedActionError("farkle.action.unknown", text=shown(text))
        return got
