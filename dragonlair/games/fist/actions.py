"""Fist of Dragonstones actions: canonical notation, interned values, stable indices.

Every action of a configured game is built once, up front, in a fixed order; its
position in that order is its index. Parsing returns the interned value, so
``parse(str(a)) is a``. The notation is documented in docs/records.md.

The space depends only on the table's card ids, so :func:`action_space` builds it once per
card set in a process and every game with that set shares it (its tables are tuples; its
bid caches only ever gain entries that are the same whatever game asks first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from typing import Any

from dragonlair.core.errors import MalformedActionError, shown
from dragonlair.core.game import ascii_number
from dragonlair.core.views import form_part

COLOURS = ("red", "blue", "yellow")
LETTERS = "rby"
CURRENCIES = ("common", "fairy", "silver")
MAX_SEATS = 6
MAX_FAIRY, MAX_COMMON, MAX_SILVER, MAX_STONES = 60, 15, 40, 12
#: how many action spaces (card sets) :func:`action_space` keeps: the built-in set and a few
#: custom ones (each is about 6,300 actions)
SPACES_KEPT = 16
#: what each word of a bid names (a ``word`` param of ``fist.action.bid_word_twice``)
_BID_WORDS = {"f": "fairy", "c": "common", "black": "black", "amulet": "amulet"}
#: the parts a sealed bid's text is written of (F5.1): ``bid`` + ``FAIRY_TEXT[f]`` +
#: ``COMMON_TEXT[c]`` + ``BLACK_TEXT[black]`` + ``AMULET_TEXT[amulet]``; the action texts and
#: the views' action forms (:func:`bid_form`) are both written from them
BID_TEXT = "bid"
FAIRY_TEXT = tuple(f" f{n}" for n in range(MAX_FAIRY + 1))
COMMON_TEXT = tuple(f" c{n}" for n in range(MAX_COMMON + 1))
BLACK_TEXT = ("", " black")
AMULET_TEXT = ("", " amulet")
#: a tie-break bid's parts (F5.7): ``silver`` + ``SILVER_TEXT[n]`` + ``AMULET_TEXT[amulet]``
SILVER_WORD = "silver"
SILVER_TEXT = tuple(f" {n}" for n in range(MAX_SILVER + 1))


def bid_form(fairy: int, common: int, black: bool, amulet: bool) -> dict[str, Any]:
    """Every sealed bid these holdings allow (F5.1) as an action form
    (:class:`dragonlair.core.views.ActionForm`): slots ``fairy`` and ``common`` (counts),
    ``black`` and ``amulet`` (flags)."""
    return {"parts": [form_part(None, (BID_TEXT,)),
                      form_part("fairy", FAIRY_TEXT[:fairy + 1]),
                      form_part("common", COMMON_TEXT[:common + 1]),
                      form_part("black", BLACK_TEXT[:2 if black else 1]),
                      form_part("amulet", AMULET_TEXT[:2 if amulet else 1])]}


def silver_form(silver: int, amulet: bool) -> dict[str, Any]:
    """Every tie-break bid (F5.7) as an action form: slots ``silver`` (a count) and
    ``amulet`` (a flag)."""
    return {"parts": [form_part(None, (SILVER_WORD,)),
                      form_part("silver", SILVER_TEXT[:silver + 1]),
                      form_part("amulet", AMULET_TEXT[:2 if amulet else 1])]}


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
    """One Fist action: its kind and what it names, by meaning. A field a kind does not use
    keeps its default (``0``, ``False``, ``(0, 0, 0)`` or ``None``)."""

    kind: Kind
    #: a bid's Fairy Gold and Common Gold (F5.1)
    fairy: int = 0
    common: int = 0
    #: a bid holds a Black Magic coin (F5.4)
    black: bool = False
    #: a bid or tie-break bid holds the Red Amulet (F5.2, F5.7)
    amulet: bool = False
    #: a tie-break bid's Silver (F5.7)
    silver: int = 0
    #: the red, blue and yellow stones a ``pay`` gives
    stones: tuple[int, int, int] = (0, 0, 0)
    #: the seat a ``steal`` or ``target`` names
    seat: int | None = None
    #: the colour (0 red, 1 blue, 2 yellow) a ``colour``, ``buy``, ``stone`` or ``steal``
    #: names (``None`` for a Thief's coin)
    colour: int | None = None
    #: the card (its index at the table) a ``pick`` or ``card`` names
    card: int | None = None
    #: what a ``buy`` pays with: 0 Common Gold, 1 Fairy Gold, 2 Silver
    currency: int | None = None
    #: what a (tie-break) bid is worth: doubled by the Amulet (F5.2, F5.7); 0 otherwise
    value: int = field(default=0, compare=False)
    index: int = field(default=-1, compare=False)
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"FistAction({self.text!r})"


def stones_text(counts: Sequence[int]) -> str:
    return "".join(LETTERS[c] * n for c, n in enumerate(counts))


@lru_cache(maxsize=SPACES_KEPT)
def action_space(card_ids: tuple[str, ...]) -> ActionSpace:
    """The action space of a table with these card ids (built-in then custom), built once
    per card set and shared: a second game with the same cards costs a dictionary look-up
    (issue 23). Treat it as read-only."""
    return ActionSpace(card_ids)


class ActionSpace:
    """All actions of a Fist table with the given card ids (built-in then custom). Shared
    between games (:func:`action_space`): its tables are tuples, not to be changed."""

    def __init__(self, card_ids: Sequence[str]) -> None:
        self.card_ids = tuple(card_ids)
        self.card_index = {cid: i for i, cid in enumerate(self.card_ids)}
        actions: list[FistAction] = []
        self._actions = actions
        self.by_text: dict[str, FistAction] = {}
        add = self._add
        self.bid = tuple(
            tuple(tuple(tuple(add(FistAction(Kind.BID, fairy=f, common=c, black=bool(k),
                                             amulet=bool(m), value=(f + c) * (2 if m else 1)))
                              for m in (0, 1)) for k in (0, 1))
                  for c in range(MAX_COMMON + 1))
            for f in range(MAX_FAIRY + 1)
        )
        self.silver = tuple(tuple(add(FistAction(Kind.SILVER, silver=s, amulet=bool(m),
                                                 value=s * (2 if m else 1))) for m in (0, 1))
                            for s in range(MAX_SILVER + 1))
        self.pay: dict[tuple[int, int, int], FistAction] = {}
        for r in range(MAX_STONES + 1):
            for b in range(MAX_STONES + 1):
                for y in range(MAX_STONES + 1):
                    if r + b + y:
                        self.pay[(r, b, y)] = add(FistAction(Kind.PAY, stones=(r, b, y)))
        self.take = add(FistAction(Kind.TAKE))
        self.colour = tuple(add(FistAction(Kind.COLOUR, colour=c)) for c in range(3))
        #: ``steal[seat][colour]``; ``steal[seat][3]``: a coin
        self.steal = tuple(tuple(add(FistAction(Kind.STEAL, seat=s,
                                                colour=c if c < 3 else None))
                                 for c in range(4)) for s in range(MAX_SEATS))
        self.target = tuple(add(FistAction(Kind.TARGET, seat=s)) for s in range(MAX_SEATS))
        self.pick = tuple(add(FistAction(Kind.PICK, card=k))
                          for k in range(len(self.card_ids)))
        self.buy = tuple(tuple(add(FistAction(Kind.BUY, colour=c, currency=m))
                               for m in range(3)) for c in range(3))
        self.done = add(FistAction(Kind.DONE))
        self.accept = add(FistAction(Kind.ACCEPT))
        self.decline = add(FistAction(Kind.DECLINE))
        self.draw = add(FistAction(Kind.DRAW))
        self.stop = add(FistAction(Kind.STOP))
        self.double = add(FistAction(Kind.DOUBLE))
        self.single = add(FistAction(Kind.SINGLE))
        self.card = tuple(add(FistAction(Kind.CARD, card=k))
                          for k in range(len(self.card_ids)))
        self.stone = tuple(add(FistAction(Kind.STONE, colour=c)) for c in range(3))
        #: every action, by index
        self.actions: tuple[FistAction, ...] = tuple(actions)
        del self._actions
        #: bids() by ``fairy << 12 | common << 2 | black << 1 | amulet`` (filled by bids())
        self.bid_cache: dict[int, tuple[FistAction, ...]] = {}
        # silvers() by ``silver << 1 | amulet``
        self._silver_cache: dict[int, tuple[FistAction, ...]] = {}

    def _text(self, a: FistAction) -> str:
        ids = self.card_ids
        match a.kind:
            case Kind.BID:
                return (BID_TEXT + FAIRY_TEXT[a.fairy] + COMMON_TEXT[a.common]
                        + BLACK_TEXT[a.black] + AMULET_TEXT[a.amulet])
            case Kind.SILVER:
                return SILVER_WORD + SILVER_TEXT[a.silver] + AMULET_TEXT[a.amulet]
            case Kind.PAY:
                return "pay " + stones_text(a.stones)
            case Kind.COLOUR | Kind.STONE:
                assert a.colour is not None
                return f"{a.kind.name.lower()} {COLOURS[a.colour]}"
            case Kind.STEAL:
                return f"steal p{a.seat} " + (COLOURS[a.colour] if a.colour is not None
                                              else "coin")
            case Kind.TARGET:
                return f"target p{a.seat}"
            case Kind.PICK | Kind.CARD:
                assert a.card is not None
                return f"{a.kind.name.lower()} {ids[a.card]}"
            case Kind.BUY:
                assert a.colour is not None and a.currency is not None
                return f"buy {COLOURS[a.colour]} {CURRENCIES[a.currency]}"
            case _:
                return a.kind.name.lower()

    def _add(self, action: FistAction) -> FistAction:
        """Intern ``action``: give it its index (the next) and its text. Set in place on
        the new, not yet shared value (``replace`` would build every action twice)."""
        actions = self._actions
        object.__setattr__(action, "index", len(actions))
        object.__setattr__(action, "text", self._text(action))
        actions.append(action)
        self.by_text[action.text] = action
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
