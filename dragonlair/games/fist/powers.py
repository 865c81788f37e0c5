"""The power primitives every character is composed of (built-in and custom, F6, F7, F9).

A power is a tuple of steps, run in order by the engine for the auction's winner.

:data:`Step` is the one list of primitives (:data:`PRIMITIVES`, in its order). Each primitive
names its ``kind``: its key in a character's data (docs/custom-characters.md). Whatever
treats primitives one by one -- the engine's begin (:mod:`.powers_run`), the snapshot's data
(:mod:`.snapshot`), the text (:mod:`.describe`), the bots' values (:mod:`.bots`,
:mod:`.heuristic`) -- keeps a :class:`Table` of one handler per primitive, looked up by the
step's type; a table that misses a primitive fails at import, and tests/test_fist_powers_table.py
checks every table against :data:`PRIMITIVES`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar, get_args


@dataclass(frozen=True, slots=True)
class Gain:
    """Take from the bank; what the bank lacks is not given (F1). Black coins never run short."""

    kind: ClassVar[str] = "gain"

    fairy: int = 0
    common: int = 0
    silver: int = 0
    amulet: int = 0
    black: int = 0
    stones: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class GainStoneChoice:
    """Take ``count`` stones, one at a time, each of a colour the bank has (Ancient Dragon)."""

    kind: ClassVar[str] = "gain_stone_choice"

    count: int = 1


Pattern = Literal["any", "same", "each"]


@dataclass(frozen=True, slots=True)
class PayStones:
    """Pay ``count`` stones to the bank for ``points``: any colours, all of one colour,
    or equally many of each colour. Alone it is mandatory if affordable (Apprentice)."""

    kind: ClassVar[str] = "pay_stones"

    count: int
    pattern: Pattern
    points: int


@dataclass(frozen=True, slots=True)
class Choice:
    """Either pay stones for points, or take the alternative (Magician, Sorcerer...)."""

    kind: ClassVar[str] = "either"

    pay: PayStones
    alternative: Gain


@dataclass(frozen=True, slots=True)
class StealSecond:
    """Take a stone from a second-highest bidder, else a Common, else a Fairy Gold (Thief)."""

    kind: ClassVar[str] = "steal_from_second"


@dataclass(frozen=True, slots=True)
class TakeAllFrom:
    """Choose another player, who gives you all their unspent coins of these kinds (Brigand)."""

    kind: ClassVar[str] = "take_all_from"

    common: bool = True
    silver: bool = True


@dataclass(frozen=True, slots=True)
class KeepDoppelganger:
    """Keep the Doppelganger card, if no player holds it."""

    kind: ClassVar[str] = "keep_doppelganger"


@dataclass(frozen=True, slots=True)
class CopyAuctioned:
    """Use the power of a card already auctioned this turn (Ghost)."""

    kind: ClassVar[str] = "copy_auctioned"


@dataclass(frozen=True, slots=True)
class PlayUnauctioned:
    """Play a card not yet auctioned this turn, drawn at random or chosen (Goblin, Imp)."""

    kind: ClassVar[str] = "play_unauctioned"

    choose: bool


@dataclass(frozen=True, slots=True)
class BuyStones:
    """Buy any number of stones; each costs one of these (0 = not accepted) (Merchant)."""

    kind: ClassVar[str] = "buy_stones"

    common: int = 1
    fairy: int = 1
    silver: int = 3


@dataclass(frozen=True, slots=True)
class Necromancer:
    """May pay every coin bid in this auction for ``points``, or decline."""

    kind: ClassVar[str] = "necromancer"

    points: int = 1


@dataclass(frozen=True, slots=True)
class PayAllStones:
    """Pay all your stones for ``points`` (free with none) (Quack Wizard)."""

    kind: ClassVar[str] = "pay_all_stones"

    points: int = 1


@dataclass(frozen=True, slots=True)
class PushYourLuck:
    """Name a colour, draw from the bank's stones until you stop or draw it (Rainbow Dragon)."""

    kind: ClassVar[str] = "push_your_luck"


@dataclass(frozen=True, slots=True)
class LoseColour:
    """Choose a colour; every player returns all stones of it (Troll)."""

    kind: ClassVar[str] = "lose_colour"


@dataclass(frozen=True, slots=True)
class BagDraw:
    """Up to ``per_colour`` of each colour from the bank into the bag; keep ``draws`` drawn at
    random; the rest go back (Two-headed Dragon)."""

    kind: ClassVar[str] = "bag_draw"

    per_colour: int = 2
    draws: int = 2


@dataclass(frozen=True, slots=True)
class DiscardDoppelganger:
    """Engine-internal: the played Doppelganger goes to the discard pile once the doubled
    power is done (F7). Not available to custom characters."""

    kind: ClassVar[str] = "discard_doppelganger"


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

#: every power primitive, in the order of :data:`Step`: the one list each :class:`Table` is
#: checked against
PRIMITIVES: tuple[type[Step], ...] = get_args(Step)

H = TypeVar("H", bound=Callable[..., object])
P = TypeVar("P")

#: every :class:`Table` made so far (tests/test_fist_powers_table.py checks them all)
TABLES: list[Table[Any]] = []


class Table(Generic[H]):
    """One concern's handler for every primitive, looked up by the step's type::

        VALUE: Table[Value] = Table("bots.value")

        @VALUE.on(pw.Gain)
        def _gain(pos: _Position, step: pw.Gain, ...) -> float: ...

        VALUE.check()  # at the end of the module: every primitive has its handler

        VALUE.of(step)(pos, step, ...)  # or, on a hot path, VALUE.by_type[type(step)]

    :meth:`check` raises :class:`TypeError` naming each primitive without a handler, so a
    new primitive cannot reach a game before each of its tables has its entry; every table
    made is listed in :data:`TABLES` for the test that checks them all."""

    __slots__ = ("by_type", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        #: the handler of each primitive, by its class (a plain dict: the hot path reads it)
        self.by_type: dict[type, H] = {}
        TABLES.append(self)

    def on(self, *primitives: type[Step]) -> Callable[[H], H]:
        """Register the decorated function as the handler of these primitives."""
        def register(fn: H) -> H:
            for cls in primitives:
                if cls in self.by_type:
                    raise TypeError(f"{self.name}: {cls.kind} has two handlers")
                self.by_type[cls] = fn
            return fn
        return register

    def of(self, step: Step) -> H:
        """The handler of ``step``."""
        return self.by_type[type(step)]

    def missing(self) -> list[str]:
        """The kinds of the primitives without a handler (empty when complete)."""
        return [cls.kind for cls in PRIMITIVES if cls not in self.by_type]

    def check(self) -> None:
        """Raise :class:`TypeError` unless every primitive, and nothing else, has a handler."""
        missing = self.missing()
        extra = [cls.__name__ for cls in self.by_type if cls not in PRIMITIVES]
        if missing or extra:
            raise TypeError(f"{self.name}: no handler for {missing}; not primitives: {extra}")


def step_as(step: object, cls: type[P]) -> P | None:
    """``step`` if it is the primitive ``cls``, else None: a decision's step, typed (a
    decision's kind says which primitive asked it; this is no dispatch)."""
    return step if type(step) is cls else None


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
