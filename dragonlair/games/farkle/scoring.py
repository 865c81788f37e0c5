"""The soldier scoring table (D2) as data, and an exact enumerator of scoring selections.

A roll is a multiset of faces, written as ``counts[face - 1]``. A *selection* is a
sub-multiset of the roll that can be split entirely into combinations; its value is the best
such split (the player chooses the split, and more soldiers are never worse, except in the
Final Battle, which takes the best value as the soldiers lost: see docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any

from dragonlair.core.errors import OptionError

Counts = tuple[int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class ScoringTable:
    """Soldiers per combination (D2). ``triple[n - 1]`` is three of face n."""

    single_one: int = 100
    single_five: int = 50
    triple: tuple[int, int, int, int, int, int] = (1000, 200, 300, 400, 500, 600)
    four: int = 1500
    five: int = 2000
    six: int = 3000
    three_pairs: int = 2000
    straight: int = 3000

    def to_json(self) -> dict[str, Any]:
        return {"single_one": self.single_one, "single_five": self.single_five,
                "triple": list(self.triple), "four": self.four, "five": self.five,
                "six": self.six, "three_pairs": self.three_pairs, "straight": self.straight}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScoringTable:
        base = cls().to_json()
        unknown = set(data) - set(base)
        if unknown:
            raise OptionError("farkle.table.unknown", rule="D2",
                              entries=sorted(str(k) for k in unknown))
        merged = {**base, **data}
        try:
            triple = tuple(int(x) for x in merged["triple"])
            nums = {k: int(v) for k, v in merged.items() if k != "triple"}
        except (TypeError, ValueError):
            raise OptionError("farkle.table.not_whole", rule="D2") from None
        if len(triple) != 6 or min((*triple, *nums.values())) < 0:
            raise OptionError("farkle.table.shape", rule="D2")
        return cls(triple=(triple[0], triple[1], triple[2], triple[3], triple[4], triple[5]),
                   **nums)


DEFAULT_TABLE = ScoringTable()


def combinations(table: ScoringTable) -> list[tuple[Counts, int, str]]:
    """Every combination as (dice counts, soldiers, name)."""
    out: list[tuple[Counts, int, str]] = []

    def counts(pairs: Mapping[int, int]) -> Counts:
        c = [0] * 6
        for face, n in pairs.items():
            c[face - 1] += n
        return (c[0], c[1], c[2], c[3], c[4], c[5])

    out.append((counts({1: 1}), table.single_one, "single 1"))
    out.append((counts({5: 1}), table.single_five, "single 5"))
    for face in range(1, 7):
        out.append((counts({face: 3}), table.triple[face - 1], f"three {face}s"))
        out.append((counts({face: 4}), table.four, f"four {face}s"))
        out.append((counts({face: 5}), table.five, f"five {face}s"))
        out.append((counts({face: 6}), table.six, f"six {face}s"))
    out.append(((1, 1, 1, 1, 1, 1), table.straight, "straight"))
    for a, b, c in product(range(1, 7), repeat=3):
        if a <= b <= c:
            pairs: dict[int, int] = {}
            for f in (a, b, c):
                pairs[f] = pairs.get(f, 0) + 2
            if max(pairs.values()) <= 4:  # six alike is not "three pairs" of one face
                out.append((counts(pairs), table.three_pairs, "three pairs"))
    return out


class Scorer:
    """Best split and every selection of a roll, memoised, for one scoring table."""

    def __init__(self, table: ScoringTable = DEFAULT_TABLE) -> None:
        self.table = table
        self.combos = combinations(table)
        self._best: dict[Counts, tuple[int, tuple[str, ...]] | None] = {
            (0, 0, 0, 0, 0, 0): (0, ())}
        self._selections: dict[Counts, tuple[tuple[Counts, int], ...]] = {}

    def best(self, counts: Counts) -> tuple[int, tuple[str, ...]] | None:
        """The best split of exactly these dice: (soldiers, combination names), or None if
        some die belongs to no combination."""
        if counts in self._best:
            return self._best[counts]
        best: tuple[int, tuple[str, ...]] | None = None
        # split off the combination holding the lowest face present (avoids permutations)
        low = next(i for i, n in enumerate(counts) if n)
        for combo, value, name in self.combos:
            if not combo[low]:
                continue
            if any(c > n for c, n in zip(combo, counts, strict=True)):
                continue
            rest = tuple(n - c for c, n in zip(combo, counts, strict=True))
            sub = self.best(rest)  # type: ignore[arg-type]
            if sub is not None and (best is None or value + sub[0] > best[0]):
                best = (value + sub[0], (name, *sub[1]))
        self._best[counts] = best
        return best

    def selections(self, roll: Counts) -> tuple[tuple[Counts, int], ...]:
        """Every legal scoring selection of ``roll`` with its value, in a stable order
        (fewer dice first, then by faces)."""
        got = self._selections.get(roll)
        if got is None:
            found = []
            for sub in product(*(range(n + 1) for n in roll)):
                if not any(sub):
                    continue
                b = self.best(sub)  # type: ignore[arg-type]
                if b is not None:
                    found.append((sub, b[0]))
            found.sort(key=lambda sv: (sum(sv[0]), dice_text(sv[0])))
            got = tuple(found)  # type: ignore[arg-type]
            self._selections[roll] = got
        return got

    def scoring_dice(self, roll: Counts) -> tuple[Counts, int]:
        """All the scoring dice of a roll (the largest selection) and their best value;
        ``((0,)*6, 0)`` for a farkle."""
        sels = self.selections(roll)
        if not sels:
            return (0, 0, 0, 0, 0, 0), 0
        return max(sels, key=lambda sv: (sum(sv[0]), sv[1]))


#: how many scorers (scoring tables) :func:`scorer_for` keeps
SCORERS_KEPT = 64


@lru_cache(maxsize=SCORERS_KEPT)
def scorer_for(table: ScoringTable = DEFAULT_TABLE) -> Scorer:
    """The scorer of a table, shared by every game with that table, so that what one game
    worked out (best splits, selections) the next reads from the memo."""
    return Scorer(table)


def dice_text(counts: Counts | tuple[int, ...]) -> str:
    """Faces in ascending order, as digits: (0,0,1,3,1,0) -> '34445'."""
    return "".join(str(face + 1) * n for face, n in enumerate(counts))


def counts_of(text: str) -> Counts:
    c = [0] * 6
    for ch in text:
        c[int(ch) - 1] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])
