"""The four kinds of dragon card (M1): five of each value."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dragonlair.core.errors import OptionError, shown


@dataclass(frozen=True, slots=True)
class DragonCard:
    """A kind of dragon card: its value and id; its name is in the catalogues, keyed by id
    (``master.card.<id>``)."""

    value: int
    id: str

    def name(self, lang: str = "en") -> str:
        from dragonlair.core.i18n import term

        return term(f"master.card.{self.id}", lang)


CARDS: tuple[DragonCard, ...] = (
    DragonCard(0, "egg"),
    DragonCard(1, "emerald"),
    DragonCard(2, "sapphire"),
    DragonCard(3, "ruby"),
)
COPIES = 5
HAND = 8
BY_ID = {c.id: c for c in CARDS}
#: each value's card id, by value
IDS = tuple(c.id for c in CARDS)

FOUR_OF_A_KIND = ("100", "100+face")


def score_table(four_of_a_kind: str) -> list[int]:
    """Line score (M4) for every line content, indexed by the base-5 code
    ``sum(5 ** value for each card)`` (at most 4 cards, so codes stay below 625): a list of
    the caller's own, copied from the table worked out once per rule (a new game asked for
    it every time: half a millisecond of a server's table start)."""
    if four_of_a_kind not in FOUR_OF_A_KIND:
        raise OptionError("master.option.four_of_a_kind", value=shown(four_of_a_kind),
                          choices=list(FOUR_OF_A_KIND))
    return list(_score_table(four_of_a_kind))


@functools.cache
def _score_table(four_of_a_kind: str) -> tuple[int, ...]:
    table = [0] * 625
    for code in range(625):
        counts = [(code // 5**v) % 5 for v in range(4)]
        if sum(counts) > 4:
            continue
        total = 0
        for v, n in enumerate(counts):
            if n == 1:
                total += v
            elif n == 2:
                total += 10 * v
            elif n == 3:
                total += 100
            elif n == 4:
                total += 100 + (v if four_of_a_kind == "100+face" else 0)
        table[code] = total
    return tuple(table)


def line_code(values: list[int] | tuple[int, ...]) -> int:
    return sum(5**v for v in values)


def compare(mine: list[int], theirs: list[int]) -> int:
    """M4: sort both lists from lowest; the first difference decides. 1, 0 or -1."""
    a, b = sorted(mine), sorted(theirs)
    for x, y in zip(a, b, strict=True):
        if x != y:
            return 1 if x > y else -1
    return 0
