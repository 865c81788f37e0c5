"""Dragon Farkle actions: notation, interned values, stable indices (docs/records.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from itertools import combinations_with_replacement

from dragonlair.core.errors import MalformedActionError, shown
from dragonlair.games.farkle.scoring import Counts, counts_of, dice_text

EVENTS = ("dragon", "alliance", "blank")
MAX_SEATS = 5


class EventFace(IntEnum):
    """What the event die shows (D4): one face a dragon, one an alliance, four blank."""

    DRAGON = 0
    ALLIANCE = 1
    BLANK = 2


DRAGON, ALLIANCE, BLANK = EventFace.DRAGON, EventFace.ALLIANCE, EventFace.BLANK


class Kind(IntEnum):
    RECRUIT = 0
    SKIRMISH = 1  # seat: the seat attacked
    BATTLE = 2
    SCARE = 3  # seat: the seat scared (a companion power)
    USE = 4  # card: the item used
    TABBY = 5  # use the ignore-dragon companion on this roll
    PASS = 6  # decline a companion power offered now
    REROLL = 7  # face: the face of the die rerolled (the reroll companion)
    KEEP = 8  # dice: the dice set aside
    DOUBLE = 9  # alliance: double this roll's soldiers
    ITEM = 10  # alliance: draw a magic item instead
    ROLL = 11  # roll again
    BANK = 12  # end a Recruit, soldiers join the army
    STOP = 13  # end your side of a Skirmish
    FARKLE = 14  # accept a farkle
    DISCARD = 15  # card: the item discarded (end of turn, over the limit)
    KEEP_ITEM = 16  # card: the item kept (Skirmish winner's one kept item)
    DICE = 17  # chance: dice, the soldier dice rolled; event, the event die
    DIE = 18  # chance: one rerolled die, face: what it shows
    DRAW_ITEM = 19  # chance: card, the item drawn
    DRAW_COMPANION = 20  # chance: card, the companion drawn
    START = 21  # chance: seat, the start player


@dataclass(frozen=True, slots=True)
class FarkleAction:
    """One action. ``kind`` says what it is; the fields that mean something for that kind
    (see :class:`Kind`) are set, the others keep their defaults:

    ``seat``: a seat (the seat attacked or scared, the start player); ``card``: an item (or for
    ``DRAW_COMPANION`` a companion) by its index in the table's deck; ``face``: a die's face,
    1 to 6; ``dice``: soldier dice by their dice code (an index of :data:`DICE_SETS`);
    ``event``: the event die of a roll.

    Actions are interned by :class:`ActionSpace` (``index``: the stable integer of the action,
    ``text``: its canonical text); equal actions have equal kinds and fields."""

    kind: Kind
    seat: int = -1
    card: int = -1
    face: int = -1
    dice: int = -1
    event: EventFace = BLANK
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
#: each dice code's text (``dice_text`` of :data:`DICE_SETS`), computed once
DICE_TEXT = tuple(dice_text(c) for c in DICE_SETS)
#: the number of dice of each dice code
DICE_COUNT = tuple(sum(c) for c in DICE_SETS)


#: how many action spaces (item and companion sets) :func:`action_space` keeps
SPACES_KEPT = 64


@lru_cache(maxsize=SPACES_KEPT)
def action_space(item_ids: tuple[str, ...], companion_ids: tuple[str, ...]) -> ActionSpace:
    """The action space of a table with these item and companion ids, built once per deck
    and shared by every game with that deck (a new game costs a look-up, not 2,800 actions).
    Treat it as read-only."""
    return ActionSpace(list(item_ids), list(companion_ids))


class ActionSpace:
    """Every Farkle action for a table with these item and companion ids."""

    def __init__(self, item_ids: list[str], companion_ids: list[str]) -> None:
        self.item_ids, self.companion_ids = item_ids, companion_ids
        self.actions: list[FarkleAction] = []
        self.by_text: dict[str, FarkleAction] = {}
        add = self._add
        self.recruit = add(Kind.RECRUIT, text="recruit")
        self.skirmish = [add(Kind.SKIRMISH, text=f"skirmish p{s}", seat=s)
                         for s in range(MAX_SEATS)]
        self.battle = add(Kind.BATTLE, text="battle")
        self.scare = [add(Kind.SCARE, text=f"scare p{s}", seat=s) for s in range(MAX_SEATS)]
        self.use = [add(Kind.USE, text=f"use {iid}", card=i) for i, iid in enumerate(item_ids)]
        self.tabby = add(Kind.TABBY, text="ignore dragon")
        self.pass_ = add(Kind.PASS, text="pass")
        self.reroll = [add(Kind.REROLL, text=f"reroll {f}", face=f) for f in range(1, 7)]
        self.keep = [add(Kind.KEEP, text=f"keep {t}", dice=i) for i, t in enumerate(DICE_TEXT)]
        self.double = add(Kind.DOUBLE, text="double")
        self.item = add(Kind.ITEM, text="item")
        self.roll = add(Kind.ROLL, text="roll")
        self.bank = add(Kind.BANK, text="bank")
        self.stop = add(Kind.STOP, text="stop")
        self.farkle = add(Kind.FARKLE, text="farkle")
        self.discard = [add(Kind.DISCARD, text=f"discard {iid}", card=i)
                        for i, iid in enumerate(item_ids)]
        self.keep_item = [add(Kind.KEEP_ITEM, text=f"keep-item {iid}", card=i)
                          for i, iid in enumerate(item_ids)]
        self.dice = [[add(Kind.DICE, text=f"dice {t} {EVENTS[e]}", dice=i, event=e)
                      for e in EventFace] for i, t in enumerate(DICE_TEXT)]
        self.die = [add(Kind.DIE, text=f"die {f}", face=f) for f in range(1, 7)]
        self.draw_item = [add(Kind.DRAW_ITEM, text=f"item {iid}", card=i)
                          for i, iid in enumerate(item_ids)]
        self.draw_companion = [add(Kind.DRAW_COMPANION, text=f"companion {cid}", card=i)
                               for i, cid in enumerate(companion_ids)]
        self.start = [add(Kind.START, text=f"start p{s}", seat=s) for s in range(MAX_SEATS)]
        #: the choices after a roll without items to use, in index order
        self.roll_or_bank = (self.roll, self.bank)
        self.roll_or_stop = (self.roll, self.stop)

    def _add(self, kind: Kind, *, text: str, seat: int = -1, card: int = -1, face: int = -1,
             dice: int = -1, event: EventFace = BLANK) -> FarkleAction:
        action = FarkleAction(kind, seat, card, face, dice, event, len(self.actions), text)
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
