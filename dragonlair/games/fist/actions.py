"""Fist of Dragonstones actions: canonical notation, interned values, stable indices.

Every action of a configured game is built once, up front, in a fixed order; its
position in that order is its index. Parsing returns the interned value, so
``parse(str(a)) is a``. The notation is documented in docs/records.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from dragonlair.core.errors import MalformedActionError, shown
from dragonlair.core.game import ascii_number

COLOURS = ("red", "blue", "yellow")
LETTERS = "rby"
CURRENCIES = ("common", "fairy", "silver")
MAX_SEATS = 6
MAX_FAIRY, MAX_COMMON, MAX_SILVER, MAX_STONES = 60, 15, 40, 12
#: what each word of a bid names (a ``word`` param of ``fist.action.bid_word_twice``)
_BID_WORDS = {"f": "fairy", "c": "common", "black": "black", "amulet": "amulet"}


class Kind(IntEnum):
    """Action kinds, in index order."""

    BID = 0  # sealed bid (F5.1)
    SILVER = 1  # sealed tie-break bid (F5.7)
    PAY = 2  # pay stones for points
    TAKE = 3  # the coin alternative of an either/or power
    COLOUR = 4  # name a colour
    STEAL = 5  # Thief
    TARGET = 6  # Brigand
    PICK = 7  # Ghost / Imp: choose a card
    BUY = 8  # Merchant: buy one stone
    DONE = 9  # Merchant: stop buying
    ACCEPT = 10  # Necromancer
    DECLINE = 11
    DRAW = 12  # Rainbow Dragon: draw again
    STOP = 13
    DOUBLE = 14  # play the Doppelganger
    SINGLE = 15  # keep it
    CARD = 16  # chance: a card comes out (special deck, turn pile, Goblin)
    STONE = 17  # chance: a stone comes out of the bag


@dataclass(frozen=True, slots=True)
class FistAction:
    """One Fist action. ``a..d`` are kind-specific small integers."""

    kind: Kind
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0
    index: int = field(default=-1, compare=False)
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"FistAction({self.text!r})"

    # What ``a..d`` mean, by kind (the engine's hot paths read the fields directly).
    @property
    def fairy(self) -> int:
        """A bid's Fairy Gold (F5.1)."""
        return self.a if self.kind == Kind.BID else 0

    @property
    def common(self) -> int:
        """A bid's Common Gold (F5.1)."""
        return self.b if self.kind == Kind.BID else 0

    @property
    def black(self) -> bool:
        """A bid holds a Black Magic coin (F5.4)."""
        return self.kind == Kind.BID and bool(self.c)

    @property
    def amulet(self) -> bool:
        """A bid or tie-break bid holds the Red Amulet (F5.2, F5.7)."""
        if self.kind == Kind.BID:
            return bool(self.d)
        return self.kind == Kind.SILVER and bool(self.b)

    @property
    def silver(self) -> int:
        """A tie-break bid's Silver (F5.7)."""
        return self.a if self.kind == Kind.SILVER else 0

    @property
    def value(self) -> int:
        """What a (tie-break) bid is worth: doubled by the Amulet (F5.2, F5.7)."""
        base = self.a + self.b if self.kind == Kind.BID else self.silver
        return base * (2 if self.amulet else 1)

    @property
    def stones(self) -> tuple[int, int, int]:
        """The red, blue and yellow stones a ``pay`` gives."""
        return (self.a, self.b, self.c) if self.kind == Kind.PAY else (0, 0, 0)

    @property
    def seat(self) -> int | None:
        """The seat a ``steal`` or ``target`` names."""
        return self.a if self.kind in (Kind.STEAL, Kind.TARGET) else None

    @property
    def colour(self) -> int | None:
        """The colour (0 red, 1 blue, 2 yellow) a ``colour``, ``buy``, ``stone`` or ``steal``
        names (``None`` for a Thief's coin)."""
        if self.kind in (Kind.COLOUR, Kind.BUY, Kind.STONE):
            return self.a
        if self.kind == Kind.STEAL:
            return self.b if self.b < 3 else None
        return None

    @property
    def card(self) -> int | None:
        """The card (its index at the table) a ``pick`` or ``card`` names."""
        return self.a if self.kind in (Kind.PICK, Kind.CARD) else None

    @property
    def currency(self) -> int | None:
        """What a ``buy`` pays with: 0 Common Gold, 1 Fairy Gold, 2 Silver."""
        return self.b if self.kind == Kind.BUY else None


def stones_text(counts: Sequence[int]) -> str:
    return "".join(LETTERS[c] * n for c, n in enumerate(counts))


class ActionSpace:
    """All actions of a Fist table with the given card ids (built-in then custom)."""

    def __init__(self, card_ids: Sequence[str]) -> None:
        self.card_ids = tuple(card_ids)
        self.card_index = {cid: i for i, cid in enumerate(self.card_ids)}
        self.actions: list[FistAction] = []
        self.by_text: dict[str, FistAction] = {}
        add = self._add
        self.bid = [
            [[[add(Kind.BID, f, c, k, m) for m in (0, 1)] for k in (0, 1)]
             for c in range(MAX_COMMON + 1)]
            for f in range(MAX_FAIRY + 1)
        ]
        self.silver = [[add(Kind.SILVER, s, m) for m in (0, 1)] for s in range(MAX_SILVER + 1)]
        self.pay: dict[tuple[int, int, int], FistAction] = {}
        for r in range(MAX_STONES + 1):
            for b in range(MAX_STONES + 1):
                for y in range(MAX_STONES + 1):
                    if r + b + y:
                        self.pay[(r, b, y)] = add(Kind.PAY, r, b, y)
        self.take = add(Kind.TAKE)
        self.colour = [add(Kind.COLOUR, c) for c in range(3)]
        self.steal = [[add(Kind.STEAL, s, c) for c in range(4)] for s in range(MAX_SEATS)]
        self.target = [add(Kind.TARGET, s) for s in range(MAX_SEATS)]
        self.pick = [add(Kind.PICK, k) for k in range(len(self.card_ids))]
        self.buy = [[add(Kind.BUY, c, m) for m in range(3)] for c in range(3)]
        self.done = add(Kind.DONE)
        self.accept = add(Kind.ACCEPT)
        self.decline = add(Kind.DECLINE)
        self.draw = add(Kind.DRAW)
        self.stop = add(Kind.STOP)
        self.double = add(Kind.DOUBLE)
        self.single = add(Kind.SINGLE)
        self.card = [add(Kind.CARD, k) for k in range(len(self.card_ids))]
        self.stone = [add(Kind.STONE, c) for c in range(3)]
        #: bids() by ``fairy << 12 | common << 2 | black << 1 | amulet`` (filled by bids())
        self.bid_cache: dict[int, tuple[FistAction, ...]] = {}
        # silvers() by ``silver << 1 | amulet``
        self._silver_cache: dict[int, tuple[FistAction, ...]] = {}

    def _text(self, kind: Kind, a: int, b: int, c: int, d: int) -> str:
        ids = self.card_ids
        match kind:
            case Kind.BID:
                extra = (" black" if c else "") + (" amulet" if d else "")
                return f"bid f{a} c{b}{extra}"
            case Kind.SILVER:
                return f"silver {a}" + (" amulet" if b else "")
            case Kind.PAY:
                return "pay " + stones_text((a, b, c))
            case Kind.COLOUR:
                return f"colour {COLOURS[a]}"
            case Kind.STEAL:
                return f"steal p{a} " + (COLOURS[b] if b < 3 else "coin")
            case Kind.TARGET:
                return f"target p{a}"
            case Kind.PICK:
                return f"pick {ids[a]}"
            case Kind.BUY:
                return f"buy {COLOURS[a]} {CURRENCIES[b]}"
            case Kind.CARD:
                return f"card {ids[a]}"
            case Kind.STONE:
                return f"stone {COLOURS[a]}"
            case _:
                return kind.name.lower()

    def _add(self, kind: Kind, a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> FistAction:
        text = self._text(kind, a, b, c, d)
        action = FistAction(kind, a, b, c, d, len(self.actions), text)
        self.actions.append(action)
        self.by_text[text] = action
        return action

    def bids(self, fairy: int, common: int, black: int, amulet: int) -> tuple[FistAction, ...]:
        """Every legal sealed bid for these holdings (F5.1), cached."""
        key = fairy << 12 | common << 2 | black << 1 | amulet
        got = self.bid_cache.get(key)
        if got is None:
            if not (0 <= common < 1024 and black in (0, 1) and amulet in (0, 1)):
                raise ValueError(f"bids: unexpected holdings {(fairy, common, black, amulet)}")
            got = tuple(
                sorted(
                    (self.bid[f][c][k][m]
                     for f in range(fairy + 1) for c in range(common + 1)
                     for k in range(black + 1) for m in range(amulet + 1)),
                    key=lambda a: a.index,
                )
            )
            self.bid_cache[key] = got
        return got

    def silvers(self, silver: int, amulet: int) -> tuple[FistAction, ...]:
        """Every legal tie-break bid (F5.7), cached."""
        key = silver << 1 | amulet
        got = self._silver_cache.get(key)
        if got is None:
            if amulet not in (0, 1):
                raise ValueError(f"silvers: unexpected holdings {(silver, amulet)}")
            got = tuple(self.silver[s][m] for s in range(silver + 1) for m in range(amulet + 1))
            self._silver_cache[key] = got
        return got

    def parse(self, text: str) -> FistAction:
        """The action written as ``text`` (whitespace and case are forgiven)."""
        canon = " ".join(text.lower().split())
        got = self.by_text.get(canon)
        if got is not None:
            return got
        got = self._parse_loose(canon, text)
        if got is None:
            raise MalformedActionError("fist.action.unknown", text=shown(text))
        return got

    def _parse_loose(self, canon: str, text: str) -> FistAction | None:
        """Accept reorderings people type: 'pay byr', 'bid c1 f3 amulet black'. ``None``
        if ``canon`` is no such form; :class:`MalformedActionError` for a bid that names a
        coin twice or more than the bid can hold."""
        words = canon.split()
        if not words:
            return None
        if words[0] == "pay" and len(words) == 2:
            counts = [words[1].count(ch) for ch in LETTERS]
            if sum(counts) == len(words[1]):
                return self.pay.get((counts[0], counts[1], counts[2]))
        if words[0] == "bid" and len(words) > 1:
            f = c = k = m = 0
            seen: set[str] = set()
            for w in words[1:]:
                word = w if w in ("black", "amulet") else w[0]
                if word in "fc":
                    digits = w[1:]
                    if not (digits.isascii() and digits.isdigit()):
                        if digits.isdigit():  # 'f²', 'f٣'
                            raise MalformedActionError("fist.action.bid_digits",
                                                       text=shown(text))
                        return None  # 'fx': no bid word
                    n = ascii_number(digits)
                    if n is None or n > (MAX_FAIRY if word == "f" else MAX_COMMON):
                        raise MalformedActionError(
                            "fist.action.bid_too_large", text=shown(text), max_fairy=MAX_FAIRY,
                            max_common=MAX_COMMON)
                    if word == "f":
                        f = n
                    else:
                        c = n
                elif word == "black":
                    k = 1
                elif word == "amulet":
                    m = 1
                else:
                    return None
                if word in seen:
                    raise MalformedActionError("fist.action.bid_word_twice", text=shown(text),
                                               coin=_BID_WORDS[word])
                seen.add(word)
            return self.bid[f][c][k][m]
        return None
