"""Exact dice policies for Dragon Farkle, computed from a scoring table (D2).

Everything here is a function of the scoring table alone, computed once and cached:

* :class:`RollTable`: every roll of 1 to 6 soldier dice, grouped by what it offers. For each
  number of dice set aside only the best-scoring selection matters (more soldiers are never
  worse), so a roll is reduced to its *options* ``(dice left, soldiers)``, found with the
  engine's own enumerator :meth:`Scorer.selections`; rolls with the same options are merged.
* :class:`RecruitDP`: the Recruit policy (D4) that maximises the expected soldiers banked in a
  turn, by value iteration over (dice in hand, pending soldiers), with the event die (dragon,
  alliance, blank), hot dice, and optionally a magic item's worth, Tabby, a bank bonus and
  the Quartermaster's farkle rule. Pending is capped where banking is always optimal.
* :class:`DefenceDP`: the Skirmish defender's policy (D5.2, five dice) that maximises the chance
  to beat the attack value (a tie counts half), by dynamic programming over (dice in hand,
  soldiers still needed).
* :class:`AttackDP`: the attacker's stopping policy (D5.1) against that defender, maximising the
  expected swing of soldiers between the two armies.
* :class:`BattleModel`: the chance to slay the dragon in one Final Battle turn (D6) given the
  army, as a small Markov chain, with the battle items and companions.

Pending soldiers are counted in *units* of the table's greatest common divisor (50 for D2).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from math import factorial, gcd

from dragonlair.core.diskcache import code_version, disk_cached
from dragonlair.games.farkle import scoring
from dragonlair.games.farkle.actions import DICE_SETS
from dragonlair.games.farkle.scoring import DEFAULT_TABLE, Counts, Scorer, ScoringTable, scorer_for

#: a roll's options: (dice left in hand after setting aside; 0 = all set aside, hot dice,
#: soldiers in units), best value per number of dice set aside
Options = tuple[tuple[int, int], ...]
EPS = 1e-11

#: the version of the code the kept tables come from (:mod:`dragonlair.core.diskcache`)
TABLES_VERSION = code_version([__file__, scoring.__file__])


def roll_probability(counts: Counts) -> float:
    """The chance of rolling exactly these faces with ``sum(counts)`` dice."""
    n = sum(counts)
    ways = factorial(n)
    for c in counts:
        ways //= factorial(c)
    return float(ways) / float(6**n)


@dataclass(frozen=True, slots=True)
class RollTable:
    """The rolls of 1 to 6 dice for one scoring table, indexed by the number of dice."""

    table: ScoringTable
    step: int  # soldiers per unit
    #: keep[n]: (probability, options, dice left if the dragon eats every scoring die)
    keep: tuple[tuple[tuple[float, Options, int], ...], ...]
    farkle: tuple[float, ...]  # farkle[n]: the chance that n dice score nothing
    #: eaten[n]: (dice left, chance) when the dragon eats every scoring die (D4.3)
    eaten: tuple[tuple[tuple[int, float], ...], ...]
    #: battle[n]: (probability, dice left, soldiers lost) when all scoring dice are set aside
    battle: tuple[tuple[tuple[float, int, int], ...], ...]


def roll_table(table: ScoringTable = DEFAULT_TABLE) -> RollTable:
    return _roll_table(table)


@cache
def _roll_table(table: ScoringTable) -> RollTable:
    scorer = scorer_for(table)
    values = [v for _, v, _ in scorer.combos if v > 0]
    step = 0
    for v in values:
        step = gcd(step, v)
    step = step or 50
    keep: list[tuple[tuple[float, Options, int], ...]] = [()]
    farkle = [0.0]
    eaten_all: list[tuple[tuple[int, float], ...]] = [()]
    battle: list[tuple[tuple[float, int, int], ...]] = [()]
    for n in range(1, 7):
        merged: dict[Options, float] = {}
        lost: dict[tuple[int, int], float] = {}
        fk = 0.0
        for counts in DICE_SETS:
            if sum(counts) != n:
                continue
            p = roll_probability(counts)
            sels = scorer.selections(counts)
            if not sels:
                fk += p
                continue
            best: dict[int, int] = {}
            for sel, value in sels:
                left = n - sum(sel)
                best[left] = max(best.get(left, -1), value)
            opts = tuple(sorted((left, v // step) for left, v in best.items()))
            merged[opts] = merged.get(opts, 0.0) + p
            eaten, loss = scorer.scoring_dice(counts)
            key = (n - sum(eaten), loss)
            lost[key] = lost.get(key, 0.0) + p
        keep.append(tuple((p, o, min(m for m, _ in o)) for o, p in sorted(merged.items())))
        farkle.append(fk)
        left_after: dict[int, float] = {}
        for p, _, m in keep[-1]:
            left_after[m] = left_after.get(m, 0.0) + p
        eaten_all.append(tuple(sorted(left_after.items())))
        battle.append(tuple((p, m, loss) for (m, loss), p in sorted(lost.items())))
    return RollTable(table, step, tuple(keep), tuple(farkle), tuple(eaten_all),
                     tuple(battle))


# ---------------------------------------------------------------------------- Recruit (D4)
@dataclass(frozen=True, slots=True)
class RecruitParams:
    """What the Recruit DP takes into account besides the scoring table."""

    event: bool = True  # roll the event die (D4.3, D4.4); False: plain Farkle
    item_worth: int = 0  # soldiers an alliance item is worth if the turn is banked (D4.4)
    bank_bonus: int = 0  # the Old Sergeant: more soldiers when banking a pending amount
    keep_half: bool = False  # the Quartermaster: a farkle keeps half the pending (down to 50s)
    tabby: bool = False  # Tabby: once per turn, a dragon may be treated as blank


class RecruitDP:
    """The Recruit policy maximising expected soldiers per turn (D4), by value iteration.

    The state is (dice in hand ``n``, pending soldiers ``p``). ``value(n, p)`` is the expected
    soldiers banked from a decision to roll or bank with ``n`` dice (0: hot dice, six again)
    and ``p`` pending, playing optimally; banking gives ``p``. Each roll: blank face (4/6): set
    dice aside or farkle; alliance (1/6): set aside and double that roll's soldiers, or (when
    an item is worth something) draw an item; dragon (1/6): the scoring dice are lost, and
    with no scoring die the farkle is ignored (D4.3). Above a cap banking is assumed; the cap
    is raised until the highest banking threshold lies well below it. Pending amounts are
    solved from the cap down; at each amount the dragon's loops (same pending, fewer or the
    same dice) are a small fixed point.

    Two states are solved by reference to other tables of the same scoring table: once an
    item was drawn, a further item adds nothing and the first is worth ``item_worth`` exactly
    when the turn is banked, so it counts as that much more pending in the table without
    items (``after_item``); once Tabby was used, the table without Tabby (``after_tabby``)
    applies. ``value(n, p, g, t)`` takes g = 1 after an item was drawn this turn and t = 0
    after Tabby was used.
    """

    cap: int
    V: list[list[float]]

    def __init__(self, table: ScoringTable = DEFAULT_TABLE,
                 params: RecruitParams = RecruitParams(), *, min_cap: int = 0) -> None:
        self.table = table
        self.params = params
        self.rolls = roll_table(table)
        self.step = self.rolls.step
        self.worth = params.item_worth // self.step  # an item's worth in units
        self.after_item = (recruit_dp(table, replace(params, item_worth=0))
                           if self.worth > 0 and params.event else None)
        self.after_tabby = (recruit_dp(table, replace(params, tabby=False))
                            if params.tabby and params.event else None)
        top = max(v for _, v, _ in scorer_for(table).combos) // self.step
        self.pad = 2 * top + 2
        cap: int = max(12 * (top + 1), min_cap)
        for other in (self.after_item, self.after_tabby):
            if other is not None:
                cap = max(cap, other.cap)
        while True:
            self.cap = cap
            self._solve()
            highest = max(self.threshold(n) for n in range(1, 7)) // self.step
            if highest * 11 // 10 + self.pad <= cap:
                break
            cap = cap * 5 // 4
        self._ext: dict[int, list[list[float]]] = {}

    # ------------------------------------------------------------------ values
    def bank_value(self, p: int) -> float:
        return p + (self.params.bank_bonus if p > 0 else 0)

    def farkle_value(self, p: int) -> float:
        return p // 2 // 50 * 50 if self.params.keep_half else 0.0

    def rows(self, size: int) -> list[list[float]]:
        """The value table V[n][j] extended with banking up to ``size`` units."""
        if size <= len(self.V[0]):
            return self.V
        got = self._ext.get(size)
        if got is None:
            more = [self.bank_value(j * self.step) for j in range(len(self.V[0]), size)]
            got = self._ext[size] = [row + more for row in self.V]
        return got

    def _solve(self) -> None:
        prm = self.params
        step, cap = self.step, self.cap
        size = cap + self.pad + self.worth + 1
        # V[n][j]; n = 0 is a copy of n = 6 (hot dice); beyond the cap: bank
        V = [[self.bank_value(j * step) for j in range(size)] for _ in range(7)]
        self.V = V
        event = prm.event
        pd = 1 / 6 if event else 0.0
        wb, wa = (4 / 6, 1 / 6) if event else (1.0, 0.0)
        wu = self.worth
        item = self.after_item.rows(size + wu) if self.after_item is not None else None
        plain = self.after_tabby.rows(size) if self.after_tabby is not None else None
        rolls = self.rolls
        # each profile's options bound to their rows: (row, units)
        bound = [[(pr, [(V[m or 6], v) for m, v in opts],
                   [(item[m or 6], v + wu) for m, v in opts] if item is not None else [],
                   [(plain[m or 6], v) for m, v in opts] if plain is not None else [],
                   eaten_left or 6)
                  for pr, opts, eaten_left in rolls.keep[n]] for n in range(7)]
        farkle = rolls.farkle
        eaten = [[(m or 6, p) for m, p in rolls.eaten[n]] for n in range(7)]
        for j in range(cap, -1, -1):
            bank = self.bank_value(j * step)
            fv = self.farkle_value(j * step)
            const = [0.0] * 7
            tabby: list[list[tuple[float, int, float]]] = [[] for _ in range(7)]
            for n in range(1, 7):
                c = 0.0
                for pr, opts, item_opts, plain_opts, eaten_left in bound[n]:
                    b = -1e300
                    for row, v in opts:
                        x = row[j + v]
                        if x > b:
                            b = x
                    if not event:
                        c += pr * b
                        continue
                    a = -1e300
                    for row, v in opts:
                        x = row[j + v + v]
                        if x > a:
                            a = x
                    for row, v in item_opts:
                        x = row[j + v]
                        if x > a:
                            a = x
                    c += pr * (wb * b + wa * a)
                    if plain_opts:
                        t = -1e300
                        for row, v in plain_opts:
                            x = row[j + v]
                            if x > t:
                                t = x
                        tabby[n].append((pr, eaten_left, t))
                const[n] = c + farkle[n] * (wb + wa) * fv
            cur = [bank] * 7
            for _ in range(500):
                delta = 0.0
                for n in range(1, 7):
                    if plain is not None:
                        d = farkle[n] * max(cur[n], fv)
                        for pr, m, blank_value in tabby[n]:
                            d += pr * max(cur[m], blank_value)
                    else:
                        d = farkle[n] * cur[n]
                        for m, pr in eaten[n]:
                            d += pr * cur[m]
                    new = const[n] + pd * d
                    if new < bank:
                        new = bank
                    delta = max(delta, abs(new - cur[n]))
                    cur[n] = new
                if delta < EPS * (1 + bank):
                    break
            for n in range(1, 7):
                V[n][j] = cur[n]
            V[0][j] = cur[6]

    def value(self, n: int, p: int, g: int = 0, t: int = 1) -> float:
        """Expected soldiers banked from a decision with n dice (0: hot dice) and p pending,
        playing on optimally; g = 1: an item was drawn this turn; t = 0: Tabby was used."""
        if g and self.after_item is not None:
            return self.after_item.value(n, p + self.worth * self.step, 0, t)
        if not t and self.after_tabby is not None:
            return self.after_tabby.value(n, p, g, 1)
        j, rest = divmod(p, self.step)
        if j > self.cap:
            return self.bank_value(p)
        return self.V[n][j] + rest

    def roll_value(self, n: int, p: int, g: int = 0, t: int = 1) -> float:
        """Expected soldiers banked if the player rolls now and then plays optimally."""
        if g and self.after_item is not None:
            return self.after_item.roll_value(n, p + self.worth * self.step, 0, t)
        if not t and self.after_tabby is not None:
            return self.after_tabby.roll_value(n, p, g, 1)
        n = n or 6
        event = self.params.event
        wb, wa, pd = (4 / 6, 1 / 6, 1 / 6) if event else (1.0, 0.0, 0.0)
        rolls, step = self.rolls, self.step
        tabby = self.after_tabby is not None
        fv = self.farkle_value(p)
        total = rolls.farkle[n] * ((wb + wa) * fv
                                   + pd * (max(self.value(n, p), fv) if tabby
                                           else self.value(n, p)))
        for pr, opts, eaten_left in rolls.keep[n]:
            b = max(self.value(m, p + v * step) for m, v in opts)
            if not event:
                total += pr * b
                continue
            a = max(self.value(m, p + 2 * v * step) for m, v in opts)
            if self.after_item is not None:
                a = max(a, max(self.value(m, p + v * step, 1) for m, v in opts))
            d = self.value(eaten_left, p)
            if tabby:
                d = max(d, max(self.value(m, p + v * step, 0, 0) for m, v in opts))
            total += pr * (wb * b + wa * a + pd * d)
        return total

    def should_roll(self, n: int, p: int, g: int = 0, t: int = 1) -> bool:
        """Whether the policy rolls on (rather than banks) with n dice and p pending. After an
        item was drawn (g) or Tabby used (t = 0) the choice is the one of that table, with
        the item counted on both sides, as :meth:`value` counts it (comparing rolling with
        the item against banking without it would roll where banking is worth more)."""
        if g and self.after_item is not None:
            return self.after_item.should_roll(n, p + self.worth * self.step, 0, t)
        if not t and self.after_tabby is not None:
            return self.after_tabby.should_roll(n, p, g, 1)
        return self.roll_value(n, p) > self.bank_value(p) + 1e-9

    def threshold(self, n: int) -> int:
        """The pending amount from which banking is optimal with ``n`` dice in hand: the
        smallest p such that the policy banks at p and at every larger p up to the cap."""
        rows = self.V[n]
        for j in range(self.cap, -1, -1):
            if rows[j] > self.bank_value(j * self.step) + 1e-9:
                return (j + 1) * self.step
        return 0

    def bank_points(self, n: int) -> list[int]:
        """Every pending amount (in the grid, below the cap) at which the policy banks."""
        rows = self.V[n]
        return [j * self.step for j in range(self.cap + 1)
                if rows[j] <= self.bank_value(j * self.step) + 1e-9]


def recruit_dp(table: ScoringTable = DEFAULT_TABLE,
               params: RecruitParams = RecruitParams()) -> RecruitDP:
    """The Recruit DP for this table and these parameters, computed once."""
    return _recruit_dp(table, params)


@cache
@disk_cached("farkle-recruit", TABLES_VERSION)
def _recruit_dp(table: ScoringTable, params: RecruitParams) -> RecruitDP:
    return RecruitDP(table, params)


def keep_choices(scorer: Scorer, roll: Counts) -> list[tuple[Counts, int]]:
    """The selections of a roll worth considering: the best value for each number of dice."""
    best: dict[int, tuple[Counts, int]] = {}
    for sel, value in scorer.selections(roll):
        k = sum(sel)
        if k not in best or value > best[k][1]:
            best[k] = (sel, value)
    return list(best.values())


def policy_distribution(rolls: RollTable, full: int, event: bool,
                        value: Callable[[int, int], float],
                        roll_here: Callable[[int, int], bool]) -> dict[int, float]:
    """The final pending amount (units) of a turn played by a policy, with its chance; a
    farkle ends at -1. ``value(n, j)`` values a decision point (n dice, j units pending;
    n = 0 is hot dice) and picks the dice set aside; ``roll_here(n, j)`` decides to roll on.
    Every roll's alliance is taken as doubling."""
    pb, pa, pd = (4 / 6, 1 / 6, 1 / 6) if event else (1.0, 0.0, 0.0)
    final: dict[int, float] = {}
    waiting: dict[int, list[float]] = {0: [0.0] * (full + 1)}
    waiting[0][full] = 1.0
    choice: dict[tuple[int, int, Options, int], tuple[int, int]] = {}

    def pick(n: int, j: int, opts: Options, mult: int) -> tuple[int, int]:
        key = (n, j, opts, mult)
        got = choice.get(key)
        if got is None:
            m, v = max(opts, key=lambda mv: value(mv[0], j + mult * mv[1]))
            got = choice[key] = (m or full, j + mult * v)
        return got

    while waiting:
        j = min(waiting)
        mass = waiting.pop(j)
        if sum(mass) < 1e-13:  # too little to follow: it banks here
            final[j] = final.get(j, 0.0) + sum(mass)
            continue
        # visits at this pending amount: the dragon keeps it (D4.3), so solve those loops
        rolling = [n > 0 and roll_here(n, j) for n in range(full + 1)]
        visits = mass[:]
        extra = mass[:]
        while sum(extra) > 1e-16:
            again = [0.0] * (full + 1)
            for n in range(1, full + 1):
                w = extra[n]
                if w > 0.0 and rolling[n]:
                    again[n] += w * pd * rolls.farkle[n]
                    for m, pr in rolls.eaten[n]:
                        again[m or full] += w * pd * pr
            for n in range(1, full + 1):
                visits[n] += again[n]
            extra = again
        for n in range(1, full + 1):
            w = visits[n]
            if w <= 0.0:
                continue
            if not rolling[n]:
                final[j] = final.get(j, 0.0) + w
                continue
            final[-1] = final.get(-1, 0.0) + w * (pb + pa) * rolls.farkle[n]
            for pr, opts, _ in rolls.keep[n]:
                for mult, share in ((1, pb), (2, pa)):
                    if share:
                        m, to = pick(n, j, opts, mult)
                        row = waiting.setdefault(to, [0.0] * (full + 1))
                        row[m] += w * share * pr
    return final


def recruit_distribution(table: ScoringTable = DEFAULT_TABLE,
                         event: bool = True) -> dict[int, float]:
    """Soldiers banked in one Recruit turn under the expected-soldiers policy (no companion
    or item), with their chance; a farkle banks 0."""
    return _recruit_distribution(table, event)


@cache
@disk_cached("farkle-recruit-distribution", TABLES_VERSION)
def _recruit_distribution(table: ScoringTable, event: bool) -> dict[int, float]:
    dp = recruit_dp(table, RecruitParams(event=event))
    step = dp.step
    rows, cap = dp.V, dp.cap

    def value(n: int, j: int) -> float:
        return rows[n][j] if j <= cap else j * step

    def roll_here(n: int, j: int) -> bool:
        return j <= cap and rows[n][j] > j * step + 1e-9

    dist = policy_distribution(dp.rolls, 6, event, value, roll_here)
    out: dict[int, float] = {}
    for j, p in dist.items():
        key = max(j, 0) * step
        out[key] = out.get(key, 0.0) + p
    return out


# ---------------------------------------------------------------------------- Skirmish (D5)
class DefenceDP:
    """The defender's chance to beat the attack value with ``full`` dice (D5.2), a tie
    counting half, and the policy that maximises it.

    ``U[n][r]``: the chance from ``n`` dice in hand (0: hot dice) when ``r`` more units would
    tie (the defence must exceed the attack: ``r < 0`` wins, and then the defender stops);
    ``X[n][r]``: the expected overshoot (units) of a win under that policy. The value depends
    on the gap alone, so one table serves every attack value.
    """

    def __init__(self, table: ScoringTable = DEFAULT_TABLE, full: int = 5,
                 limit: int = 20000) -> None:
        self.rolls = roll_table(table)
        self.step = self.rolls.step
        self.full = full
        self.size = limit // self.step + 1
        self.U = [[0.0] * self.size for _ in range(full + 1)]
        self.X = [[0.0] * self.size for _ in range(full + 1)]
        self._solve()

    def get(self, n: int, r: int) -> tuple[float, float]:
        if r < 0:
            return 1.0, float(-r)
        if r >= self.size:
            return 0.0, 0.0
        return self.U[n or self.full][r], self.X[n or self.full][r]

    def _fixed_point(self, const: list[float], const_x: list[float],
                     stop: float) -> tuple[list[float], list[float]]:
        """Solve the dragon's loops (same gap, fewer or the same dice)."""
        rolls, full = self.rolls, self.full
        cur = [stop] * (full + 1)
        cur_x = [0.0] * (full + 1)
        for _ in range(500):
            delta = 0.0
            for n in range(1, full + 1):
                d = rolls.farkle[n] * cur[n]
                dx = rolls.farkle[n] * cur_x[n]
                for m, pr in rolls.eaten[n]:
                    d += pr * cur[m or full]
                    dx += pr * cur_x[m or full]
                new, new_x = const[n] + d / 6, const_x[n] + dx / 6
                if new <= stop:
                    new, new_x = stop, 0.0
                delta = max(delta, abs(new - cur[n]))
                cur[n], cur_x[n] = new, new_x
            if delta < EPS:
                break
        return cur, cur_x

    def _consts(self, after: Callable[[int, int], tuple[float, float]]
                ) -> tuple[list[float], list[float]]:
        """The blank and alliance part of a roll from every number of dice, given the value
        ``after(dice left, units gained)`` of setting dice aside."""
        rolls, full = self.rolls, self.full
        const = [0.0] * (full + 1)
        const_x = [0.0] * (full + 1)
        for n in range(1, full + 1):
            c = cx = 0.0
            for pr, opts, _ in rolls.keep[n]:
                for mult, w in ((1, 4 / 6), (2, 1 / 6)):
                    bu, bx = max(after(m, mult * v) for m, v in opts)
                    c += pr * w * bu
                    cx += pr * w * bx
            const[n], const_x[n] = c, cx
        return const, const_x

    def _solve(self) -> None:
        for r in range(self.size):
            const, const_x = self._consts(lambda m, g, r=r: self.get(m, r - g))  # type: ignore[misc]
            cur, cur_x = self._fixed_point(const, const_x, 0.5 if r == 0 else 0.0)
            for n in range(1, self.full + 1):
                self.U[n][r], self.X[n][r] = cur[n], cur_x[n]

    def start(self, target: int, bonus: int = 0, n: int = 0) -> tuple[float, float]:
        """(Win chance, expected overshoot in soldiers on a win) before a defence's first
        scoring roll against ``target``, with ``bonus`` added to a value above 0
        (Shieldmaiden), from ``n`` dice (0: all)."""
        r0 = (target - bonus) // self.step  # a value of g units > 0 wins when g > r0
        const, const_x = self._consts(lambda m, g: self.get(m, r0 - g))
        cur, cur_x = self._fixed_point(const, const_x, 0.5 if target == 0 else 0.0)
        return cur[n or self.full], cur_x[n or self.full] * self.step

    def chance(self, n: int, pending: int, target: int, bonus: int = 0) -> float:
        """The win chance at a decision to roll or stop with ``pending`` set aside."""
        if pending <= 0:
            return max(self.stop_chance(pending, target, bonus), self.start(target, bonus, n)[0])
        total = pending + bonus
        if total > target:
            return 1.0
        return self.get(n, (target - total) // self.step)[0]

    def stop_chance(self, pending: int, target: int, bonus: int = 0) -> float:
        value = pending + bonus if pending > 0 else 0
        return 1.0 if value > target else 0.5 if value == target else 0.0

    def roll_chance(self, n: int, pending: int, target: int, bonus: int = 0) -> float:
        """The win chance if the defender rolls now and then plays on optimally."""
        n = n or self.full
        step, full = self.step, self.full
        total = self.rolls.farkle[n] / 6 * self.chance(n, pending, target, bonus)
        for pr, opts, eaten_left in self.rolls.keep[n]:
            b = max(self.chance(m or full, pending + v * step, target, bonus) for m, v in opts)
            a = max(self.chance(m or full, pending + 2 * v * step, target, bonus)
                    for m, v in opts)
            d = self.chance(eaten_left or full, pending, target, bonus)
            total += pr * (4 / 6 * b + 1 / 6 * a + 1 / 6 * d)
        return total


def defence_dp(table: ScoringTable = DEFAULT_TABLE) -> DefenceDP:
    return _defence_dp(table)


@cache
@disk_cached("farkle-defence", TABLES_VERSION)
def _defence_dp(table: ScoringTable) -> DefenceDP:
    return DefenceDP(table)


class AttackDP:
    """The attacker's policy (D5.1) against a defender playing :class:`DefenceDP`.

    Stopping at attack value A is worth the expected *swing* (D5.3): the soldiers the attacker
    gains plus ``weight`` times those the defender loses, from the defender's win chance and
    overshoot against A (plus the attack bonus). A farkle is an attack of 0.
    """

    def __init__(self, table: ScoringTable = DEFAULT_TABLE, attack_bonus: int = 0,
                 defence_bonus: int = 0, weight: float = 1.0, limit: int = 12000) -> None:
        self.rolls = roll_table(table)
        self.step = self.rolls.step
        self.defence = defence_dp(table)
        self.attack_bonus, self.defence_bonus, self.weight = attack_bonus, defence_bonus, weight
        self.cap = limit // self.step
        #: per attack value (units): (defender's win chance, overshoot in soldiers on a win)
        self.reply = [self.defence.start(self.final(j * self.step), defence_bonus)
                      for j in range(self.cap + 1)]
        self.payoff = [self._payoff(j) for j in range(self.cap + 1)]
        top = max(v for _, v, _ in scorer_for(table).combos) // self.step * 2 + 1
        self.size = self.cap + top + 1
        self.V = [[self.stop_value(j * self.step) for j in range(self.size)] for _ in range(7)]
        self._solve()

    def final(self, attack: int) -> int:
        """The attack value after the attacker's bonus (Scout, only above 0)."""
        return attack + self.attack_bonus if attack > 0 else 0

    def _payoff(self, j: int) -> float:
        from dragonlair.games.farkle.state import SKIRMISH_BONUS

        value = self.final(j * self.step)
        q, over = self.reply[j]
        w = self.weight
        return (1 - q) * ((1 + w) * value + SKIRMISH_BONUS) - q * ((1 + w) * over
                                                                  + w * SKIRMISH_BONUS)

    def stop_value(self, attack: int) -> float:
        j = attack // self.step
        return self.payoff[min(j, self.cap)] + (1 + self.weight) * max(0, attack - self.cap
                                                                        * self.step)

    def _solve(self) -> None:
        rolls = self.rolls
        V = self.V
        farkle = self.payoff[0]
        for j in range(self.cap, -1, -1):
            stop = self.payoff[j]
            const = [0.0] * 7
            for n in range(1, 7):
                c = 0.0
                for pr, opts, _ in rolls.keep[n]:
                    b = max(V[m][j + v] for m, v in opts)
                    a = max(V[m][j + 2 * v] for m, v in opts)
                    c += pr * (4 * b + a) / 6
                const[n] = c + rolls.farkle[n] * 5 / 6 * farkle
            cur = [stop] * 7
            for _ in range(500):
                delta = 0.0
                for n in range(1, 7):
                    d = rolls.farkle[n] * cur[n]
                    for m, pr in rolls.eaten[n]:
                        d += pr * cur[m or 6]
                    new = max(stop, const[n] + d / 6)
                    delta = max(delta, abs(new - cur[n]))
                    cur[n] = new
                if delta < EPS * (1 + abs(stop)):
                    break
            for n in range(1, 7):
                V[n][j] = cur[n]
            V[0][j] = cur[6]

    def value(self, n: int, attack: int) -> float:
        j = attack // self.step
        return self.V[n][j] if j < self.size else self.stop_value(attack)

    def roll_value(self, n: int, attack: int) -> float:
        """The expected swing if the attacker rolls now and then plays on optimally."""
        n = n or 6
        j = attack // self.step
        if j > self.cap:
            return -1e18  # far beyond any sensible attack: stop
        V = self.V
        total = self.rolls.farkle[n] * (5 * self.payoff[0] + V[n][j]) / 6
        for pr, opts, eaten_left in self.rolls.keep[n]:
            b = max(V[m][j + v] for m, v in opts)
            a = max(V[m][j + 2 * v] for m, v in opts)
            total += pr * (4 * b + a + V[eaten_left][j]) / 6
        return total

    def should_roll(self, n: int, attack: int) -> bool:
        """Whether the attacker rolls on (rather than stops) with n dice and this value."""
        j, rest = divmod(attack, self.step)
        if j > self.cap:
            return False
        if rest == 0:
            return self.V[n][j] > self.payoff[j] + 1e-9
        return self.roll_value(n, attack) > self.stop_value(attack) + 1e-9

    def outcomes(self) -> list[tuple[float, int, float, float]]:
        """The skirmish's outcomes under both policies, from the start: (chance of this
        attack value, final attack value, defender's win chance, defender's mean margin
        of victory in soldiers)."""
        step = self.step
        dist = policy_distribution(self.rolls, 6, True,
                                   lambda n, j: self.value(n, j * step),
                                   lambda n, j: j == 0 or self.should_roll(n, j * step))
        out = []
        for j, p in sorted(dist.items()):
            jj = max(j, 0)
            q, over = self.reply[min(jj, self.cap)]
            out.append((p, self.final(jj * step), q, over / q if q > 0 else 0.0))
        return out


def attack_dp(table: ScoringTable = DEFAULT_TABLE, attack_bonus: int = 0,
              defence_bonus: int = 0, weight: float = 1.0) -> AttackDP:
    return _attack_dp(table, attack_bonus, defence_bonus, weight)


@cache
@disk_cached("farkle-attack", TABLES_VERSION)
def _attack_dp(table: ScoringTable, attack_bonus: int, defence_bonus: int,
               weight: float) -> AttackDP:
    return AttackDP(table, attack_bonus, defence_bonus, weight)


# ---------------------------------------------------------------------------- Final Battle (D6)
@dataclass(frozen=True, slots=True)
class BattleParams:
    dragon: int = 3  # the dragon's strength (D6.4)
    bonus: int = 0  # extra damage on the first damaging roll (Battle Mage, Dragonsbane Arrow)
    shield: bool = False  # the first loss is cancelled (Healing Potion)
    half_loss: bool = False  # only half the soldiers are lost, rounded down to 50s (Medic)


class BattleModel:
    """The chance to slay the dragon in one Final Battle turn (D6), given the army: a Markov
    chain over (army, damage dealt, first-damage bonus unused, shield unused, dice in hand).
    Each roll: dragon face 1 damage, alliance 2 (the damage lands first, D6.2); then the
    scoring dice are set aside and cost their soldiers; a blank face without scoring dice is
    a farkle. Armies are counted in units of the smallest loss step (50 for D2)."""

    def __init__(self, table: ScoringTable = DEFAULT_TABLE,
                 params: BattleParams = BattleParams()) -> None:
        self.rolls = roll_table(table)
        self.params = params
        self.unit = gcd(self.rolls.step, 50) if params.half_loss else self.rolls.step
        unit = self.unit
        #: battle[n]: (chance, dice left, units lost without / with the Medic)
        self.outcomes = [[(pr, left, loss // unit) for pr, left, loss in self.rolls.battle[n]]
                         for n in range(7)]
        if params.half_loss:
            self.outcomes = [[(pr, left, loss * unit // 2 // 50 * 50 // unit)
                              for pr, left, loss in row] for row in self.outcomes]
        self._table: list[dict[tuple[int, bool, bool], list[float]]] = []
        self._fail: dict[int, dict[int, float]] = {}
        self._profile: tuple[list[float], list[float], float] | None = None
        self._won: list[float] | None = None

    def slay(self, army: int, n: int = 6, damage: int = 0, bonus_left: bool = True,
             shield_left: bool = True) -> float:
        """The chance to slay the dragon from here (``n`` dice in hand, ``damage`` dealt)."""
        k = army // self.unit
        if k <= 0:
            return 0.0
        if damage >= self.params.dragon:
            return 1.0
        if n in (0, 6) and damage == 0 and bonus_left and shield_left:
            won = self.won_within()
            if k < len(won):
                return won[k]
        self._ensure(k)
        prm = self.params
        return self._table[k][(damage, bonus_left and prm.bonus > 0,
                               shield_left and prm.shield)][n or 6]

    def _get(self, k: int, d: int, b: bool, s: bool, n: int) -> float:
        return self._table[k][(d, b, s)][n] if k > 0 else 0.0

    def _ensure(self, k_max: int) -> None:
        prm = self.params
        dragon = prm.dragon
        rolls = self.rolls
        while len(self._table) <= k_max:
            k = len(self._table)
            groups: dict[tuple[int, bool, bool], list[float]] = {}
            self._table.append(groups)
            if k == 0:
                continue
            for d in range(dragon - 1, -1, -1):  # more damage first: the same army leads there
                for s in (False, True):  # a used shield first
                    for b in (False, True):
                        const = [0.0] * 7
                        loops: list[list[tuple[float, int]]] = [[] for _ in range(7)]
                        for n in range(1, 7):
                            c = 0.0
                            for face_dmg in (1, 2):
                                hit = d + face_dmg + (prm.bonus if b else 0)
                                if hit >= dragon:
                                    c += 1 / 6
                                    continue
                                sub = rolls.farkle[n] * groups[(hit, False, s)][n]
                                for pr, left, loss in self.outcomes[n]:
                                    if s:
                                        sub += pr * groups[(hit, False, False)][left or 6]
                                    elif k - loss > 0:
                                        sub += pr * self._get(k - loss, hit, False, False,
                                                              left or 6)
                                c += sub / 6
                            for pr, left, loss in self.outcomes[n]:
                                if s:
                                    c += 4 / 6 * pr * groups[(d, b, False)][left or 6]
                                elif loss == 0:  # the Medic halves 50 to nothing
                                    loops[n].append((4 / 6 * pr, left or 6))
                                elif k - loss > 0:
                                    c += 4 / 6 * pr * self._get(k - loss, d, b, False, left or 6)
                            const[n] = c
                        cur = const[:]
                        for _ in range(500):
                            delta = 0.0
                            for n in range(1, 7):
                                new = const[n] + sum(w * cur[m] for w, m in loops[n])
                                delta = max(delta, abs(new - cur[n]))
                                cur[n] = new
                            if delta < EPS:
                                break
                        cur[0] = cur[6]
                        groups[(d, b, s)] = cur

    def won_within(self) -> list[float]:
        """won_within()[k]: the chance to win a battle from the start with k units."""
        if self._won is None:
            won, _, _ = self.loss_profile()
            acc = [0.0]
            for w in won:
                acc.append(acc[-1] + w)
            self._won = acc
        return self._won

    def failures(self, army: int) -> dict[int, float]:
        """Where a failed battle from the start leaves the army (soldiers left -> chance; the
        chances add up to 1 - slay(army); 0: the army is gone)."""
        got = self._fail.get(army)
        if got is not None:
            return got
        won, farkled, tail = self.loss_profile()
        unit = self.unit
        k = army // unit
        out: dict[int, float] = {}
        for lost in range(min(k, len(farkled))):
            if farkled[lost] > 0.0:
                left = army - lost * unit
                out[left] = out.get(left, 0.0) + farkled[lost]
        gone = tail + sum(won[k:]) + sum(farkled[k:])
        if gone > 0.0:
            out[0] = out.get(0, 0.0) + gone
        self._fail[army] = out
        return out

    def loss_profile(self, limit: int = 20000) -> tuple[list[float], list[float], float]:
        """The battle with an army too large to run out: the chance that it is won, or ends
        in a farkle, after losing L units (L < limit), and the chance of losing more. A real
        army of A soldiers wins or farkles as these with L < A units lost, and is gone
        otherwise (the losses only grow)."""
        if self._profile is not None:
            return self._profile
        prm, rolls = self.params, self.rolls
        size = limit // self.unit
        won = [0.0] * size
        farkled = [0.0] * size
        tail = 0.0
        # masses by (units lost, damage, bonus unused, shield unused) -> dice in hand
        waiting: dict[tuple[int, int, bool, bool], list[float]] = {}
        heap: list[tuple[int, int, int, int]] = []

        def push(lost: int, d: int, b: bool, s: bool, n: int, w: float) -> None:
            nonlocal tail
            if lost >= size:
                tail += w
                return
            key = (lost, d, b, s)
            row = waiting.get(key)
            if row is None:
                row = waiting[key] = [0.0] * 7
                heapq.heappush(heap, (lost, d, -int(s), -int(b)))
            row[n] += w

        push(0, 0, prm.bonus > 0, prm.shield, 6, 1.0)
        while heap:
            lost, d, ns, nb = heapq.heappop(heap)
            s, b = bool(-ns), bool(-nb)
            mass = waiting.pop((lost, d, b, s))
            while sum(mass) > 1e-15:
                again = [0.0] * 7
                for n in range(1, 7):
                    w = mass[n]
                    if w <= 0.0:
                        continue
                    farkled[lost] += w * 4 / 6 * rolls.farkle[n]
                    for face_dmg in (1, 2):
                        hit = d + face_dmg + (prm.bonus if b else 0)
                        if hit >= prm.dragon:
                            won[lost] += w / 6
                            continue
                        push(lost, hit, False, s, n, w / 6 * rolls.farkle[n])
                        for pr, left, loss in self.outcomes[n]:
                            push(lost + (0 if s else loss), hit, False, False, left or 6,
                                 w / 6 * pr)
                    for pr, left, loss in self.outcomes[n]:
                        if not s and loss == 0:
                            again[left or 6] += w * 4 / 6 * pr
                        else:
                            push(lost + (0 if s else loss), d, b, False, left or 6,
                                 w * 4 / 6 * pr)
                mass = again
        self._profile = (won, farkled, tail)
        return self._profile


def battle_model(table: ScoringTable = DEFAULT_TABLE,
                 params: BattleParams = BattleParams()) -> BattleModel:
    return _battle_model(table, params)


@cache
@disk_cached("farkle-battle", TABLES_VERSION)
def _battle_model(table: ScoringTable, params: BattleParams) -> BattleModel:
    return BattleModel(table, params)
