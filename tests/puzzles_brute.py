"""An independent brute force for Dragon Master puzzles (tests only): from a seat's view,
every opponent hand the view allows with its probability, then plain minimax over every
legal placement (M3) to the end of the round, scored by M4. It shares no code with the
game's solver (dragonlair/games/master/bots.py)."""

from __future__ import annotations

from itertools import product
from math import comb
from typing import Any

VALUE = {"egg": 0, "emerald": 1, "sapphire": 2, "ruby": 3}  # M1
NAMES = {v: k for k, v in VALUE.items()}
Cell = tuple[int, int]  # (column letter index, row number)


def cell_of(name: str) -> Cell:
    return ord(name[0]) - ord("a"), int(name[1:])


def line_score(values: list[int], four: str) -> int:
    """M4: a value once its face, a pair 10 x value, three 100, four 100 (or 100 + face)."""
    total = 0
    for v in set(values):
        k = values.count(v)
        total += v if k == 1 else 10 * v if k == 2 else 100 if k == 3 else (
            100 + v if four == "100+face" else 100)
    return total


def result(grid: dict[Cell, int], four: str) -> int:
    """From seat 0's side (columns): 2 win, 1 draw, 0 loss (M4)."""
    xs = sorted({x for x, _ in grid})
    ys = sorted({y for _, y in grid})
    cols = sorted(line_score([grid[(x, y)] for y in ys], four) for x in xs)
    rows = sorted(line_score([grid[(x, y)] for x in xs], four) for y in ys)
    return 2 if cols > rows else 0 if cols < rows else 1


def legal_cells(grid: dict[Cell, int]) -> list[Cell]:
    """M3: empty, sharing a side with a placed card, the box of all cards at most 4 x 4."""
    out = set()
    xs = [x for x, _ in grid]
    ys = [y for _, y in grid]
    for x, y in grid:
        for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if c in grid:
                continue
            if max(*xs, c[0]) - min(*xs, c[0]) < 4 and max(*ys, c[1]) - min(*ys, c[1]) < 4:
                out.add(c)
    return sorted(out)


def opponent_hands(unseen: list[int], size: int) -> list[tuple[list[int], float]]:
    total = comb(sum(unseen), size)
    out = []
    for ks in product(*(range(n + 1) for n in unseen)):
        if sum(ks) == size:
            w = 1
            for n, k in zip(unseen, ks, strict=True):
                w *= comb(n, k)
            out.append((list(ks), w / total))
    return out


def minimax(grid: dict[Cell, int], hands: list[list[int]], mover: int, four: str,
            memo: dict[Any, int]) -> int:
    if len(grid) == 16:
        return result(grid, four)
    key = (frozenset(grid.items()), tuple(hands[0]), tuple(hands[1]), mover)
    if key in memo:
        return memo[key]
    goal = 2 if mover == 0 else 0
    best = -1 if mover == 0 else 3
    for cell in legal_cells(grid):
        for v in range(4):
            if not hands[mover][v]:
                continue
            hands[mover][v] -= 1
            grid[cell] = v
            r = minimax(grid, hands, 1 - mover, four, memo)
            del grid[cell]
            hands[mover][v] += 1
            best = max(best, r) if mover == 0 else min(best, r)
            if best == goal:  # nothing can do better: the value is exact
                memo[key] = best
                return best
    memo[key] = best
    return best


def values(view: dict[str, Any]) -> dict[str, float]:
    """Every legal placement of the seat's view -> its expected result (win 1, draw 1/2)."""
    seat = view["seat"]
    public, private = view["public"], view["private"]
    grid = {cell_of(c): VALUE[card] for c, card in public["grid"].items()}
    four = public["four_of_a_kind"]
    mine = [private["hand"][NAMES[v]] for v in range(4)]
    unseen = [private["unseen"][NAMES[v]] for v in range(4)]
    cells = legal_cells(grid)
    assert sorted(cell_of(c) for c in public["legal_cells"]) == cells
    out: dict[str, float] = {}
    for opp, w in opponent_hands(unseen, public["hand_sizes"][1 - seat]):
        hands = [mine[:], opp[:]] if seat == 0 else [opp[:], mine[:]]
        memo: dict[Any, int] = {}
        for cell in cells:
            for v in range(4):
                if not mine[v]:
                    continue
                hands[seat][v] -= 1
                grid[cell] = v
                r = minimax(grid, hands, 1 - seat, four, memo)
                del grid[cell]
                hands[seat][v] += 1
                name = f"place {NAMES[v]} {chr(ord('a') + cell[0])}{cell[1]}"
                out[name] = out.get(name, 0.0) + w * (r if seat == 0 else 2 - r) / 2
    return out
