"""Dragon Farkle bots. They see only their seat's view (D9) and the legal actions.

``cautious``: banks early (300 pending, or any pending with one or two dice left), always
doubles on an alliance, never attacks, fights the Final Battle whenever it may, and uses its
cards plainly (Gold Purse at once, the Horn before banking, a farkle item on any farkle,
Tabby whenever the roll scores, Skree on the largest army).

``optimal``: every dice decision from the exact policies of :mod:`.policy` (docs/farkle-
optimal.md). In a Recruit it maximises the expected soldiers banked (value iteration over
dice in hand and pending, with the event die, hot dice, and its companion); as attacker it
maximises the expected swing of soldiers against a defender who plays to win; as defender it
maximises the chance to beat the attack value. Its action (Recruit, Skirmish, Final Battle,
and Skree's target) comes from estimated win chances: a race model in which each player
first recruits to the 5,000 soldiers of D3 (the turns that takes, from the Recruit policy's
distribution of banked soldiers) and then slays the dragon with the chance of the Final
Battle chain for its army, companion and items; an action is scored by the chance that the
bot finishes first, averaged over the action's outcomes. Items are used at their windows
when the DP says they gain more than they are worth kept, and the least useful is discarded.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from dragonlair.core.diskcache import code_version, disk_cached
from dragonlair.core.game import JSON, Action
from dragonlair.games.farkle.actions import DICE_SETS, FarkleAction, Kind
from dragonlair.games.farkle.cards import (
    COMPANIONS,
    ITEMS,
    CompanionEffect,
    Effect,
    FarkleCard,
    ItemEffect,
)
from dragonlair.games.farkle.policy import (
    TABLES_VERSION,
    AttackDP,
    BattleModel,
    BattleParams,
    RecruitDP,
    RecruitParams,
    attack_dp,
    battle_model,
    defence_dp,
    keep_choices,
    recruit_distribution,
    recruit_dp,
    roll_table,
)
from dragonlair.games.farkle.scoring import (
    DEFAULT_TABLE,
    Counts,
    ScoringTable,
    counts_of,
    scorer_for,
)
from dragonlair.games.farkle.state import BATTLE_ARMY, SKIRMISH_BONUS

COMPANION_CARDS = {c.id: c for c in COMPANIONS}
ITEM_CARDS = {c.id: c for c in ITEMS}
ITEM_DRAW_WORTH = 250  # soldiers an unknown item drawn on an alliance is worth to the bot
HORIZON = 40  # turns the race model looks ahead
Curve = tuple[list[float], list[float]]


@cache
def _table(key: tuple[tuple[str, Any], ...]) -> ScoringTable:
    return ScoringTable.from_json({k: list(v) if isinstance(v, tuple) else v for k, v in key})


def table_of(view: JSON) -> ScoringTable:
    """The scoring table of the game (the view's ``table``; D2 when absent)."""
    data = view.get("table")
    if not data:
        return DEFAULT_TABLE
    return _table(tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                               for k, v in data.items())))


class Pos:
    """What a bot reads from its view."""

    def __init__(self, view: JSON) -> None:
        self.view = view
        self.seat: int = view["seat"]
        pub = view["public"]  # the envelope's parts (docs/views.md)
        self.public: JSON = pub
        self.players: int = pub["players"]
        seats = pub["seats"]
        self.armies: list[int] = [s["army"] for s in seats]
        self.lair: list[bool] = [s["in_lair"] for s in seats]
        self.companions: list[FarkleCard | None] = [
            COMPANION_CARDS.get(s["companion"]) if s["companion"] else None for s in seats]
        me = view["private"]
        self.items: list[str] = me["items"]
        self.gained: list[str] = me["gained"]
        self.item_limit: int = me["item_limit"]
        self.decision: str | None = pub["decision"]
        self.mode: str = pub["mode"]
        self.roller: int | None = pub["roller"]
        roll = pub["roll"]
        self.roll: Counts = counts_of(roll) if roll else (0, 0, 0, 0, 0, 0)
        self.event: str = pub["event"]
        self.n: int = pub["dice_in_hand"]
        self.pending: int = pub["pending"]
        self.skirmish: JSON | None = pub["skirmish"]
        self.dragon: int = pub["dragon"]["strength"]
        self.damage: int = pub["dragon"]["damage"]
        self.table = table_of(pub)
        self.scorer = scorer_for(self.table)
        self.army = self.armies[self.seat]

    def effect(self, seat: int, effect: CompanionEffect) -> int | None:
        """The amount of this companion effect for a seat, or None without it."""
        card = self.companions[seat]
        return card.amount if card is not None and card.effect == effect else None

    def item_effects(self) -> list[Effect]:
        return [ITEM_CARDS[i].effect for i in self.items if i in ITEM_CARDS]

    def last_keep(self) -> Counts | None:
        """The dice this seat set aside last (the alliance decision follows it)."""
        last = self.public["last_keep"]
        if last is None or last["seat"] != self.seat:
            return None
        return counts_of(last["dice"])

    def used_this_turn(self, power: str) -> bool:
        """Whether the once-per-turn companion ``power`` (``tabby``, ``hiccup``, ``scare``)
        was used this turn (the view's ``powers_used``)."""
        return power in self.public["powers_used"]

    def battle_params(self, seat: int, with_items: bool) -> BattleParams:
        bonus = self.effect(seat, CompanionEffect.BATTLE_DAMAGE) or 0
        shield = False
        if with_items:
            for i in self.items:
                card = ITEM_CARDS.get(i)
                if card is not None and card.effect == ItemEffect.BATTLE_DAMAGE:
                    bonus += card.amount
                    break
            shield = ItemEffect.BATTLE_SHIELD in self.item_effects()
        return BattleParams(self.dragon, bonus, shield,
                            self.effect(seat, CompanionEffect.BATTLE_LOSS_HALF) is not None)


def _actions(legal: Sequence[Action]) -> list[FarkleAction]:
    return [a for a in legal if isinstance(a, FarkleAction)]


def _find(actions: list[FarkleAction], kind: Kind) -> FarkleAction | None:
    return next((a for a in actions if a.kind == kind), None)


def _selection(action: FarkleAction) -> Counts:
    return DICE_SETS[action.dice]


def _uses(actions: list[FarkleAction]) -> dict[Effect, FarkleAction]:
    """Usable items offered now, by effect."""
    out: dict[Effect, FarkleAction] = {}
    for a in actions:
        if a.kind == Kind.USE:
            card = ITEM_CARDS.get(a.text.removeprefix("use "))
            if card is not None:
                out.setdefault(card.effect, a)
    return out


def item_worth(pos: Pos, item_id: str) -> float:
    """How many soldiers an item held is worth to the bot now (for keeping and discarding)."""
    card = ITEM_CARDS.get(item_id)
    if card is None:
        return 100.0
    near = pos.army >= 3000 or pos.lair[pos.seat]
    worth: dict[Effect, float] = {
        ItemEffect.BATTLE_DAMAGE: 1500.0 if near else 700.0, ItemEffect.BATTLE_SHIELD: 150.0,
        ItemEffect.REROLL_FARKLE: 350.0, ItemEffect.GAIN: float(card.amount),
        ItemEffect.PENDING_BONUS: float(card.amount), ItemEffect.HOT_DICE: 250.0,
        ItemEffect.KEEP_EXTRA: 400.0}
    return worth.get(card.effect, 100.0)


# ---------------------------------------------------------------------------- cautious
class CautiousFarkleBot:
    """Banks early, never attacks, battles when it may (see the module docs)."""

    #: it reads the position, not the event log (:class:`dragonlair.core.players.Bot`)
    reads_events = False

    BANK_AT = 300

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        actions = _actions(legal)
        if len(actions) != len(legal) or not actions:
            return legal[0]
        pos = Pos(view)
        uses = _uses(actions)
        dec = pos.decision
        if dec == "action":
            if ItemEffect.GAIN in uses:
                return uses[ItemEffect.GAIN]
            scares = [a for a in actions if a.kind == Kind.SCARE]
            if scares:
                return max(scares, key=lambda a: pos.armies[a.seat])
            return _find(actions, Kind.BATTLE) or _find(actions, Kind.RECRUIT) or actions[0]
        if dec == "tabby":
            scores = bool(pos.scorer.selections(pos.roll))
            return _find(actions, Kind.TABBY if scores else Kind.PASS) or actions[0]
        if dec == "keep":
            keeps = [a for a in actions if a.kind == Kind.KEEP]
            values = dict(pos.scorer.selections(pos.roll))
            return max(keeps, key=lambda a: (values[_selection(a)], -sum(_selection(a))))
        if dec == "alliance":
            return _find(actions, Kind.DOUBLE) or actions[0]
        if dec == "continue":
            return self._continue(pos, actions, uses)
        if dec == "farkle":
            return uses.get(ItemEffect.REROLL_FARKLE) or _find(actions, Kind.FARKLE) or actions[0]
        if dec == "hiccup":
            return _find(actions, Kind.PASS) or actions[0]
        return actions[0]

    def _continue(self, pos: Pos, actions: list[FarkleAction],
                  uses: dict[Effect, FarkleAction]) -> FarkleAction:
        roll = _find(actions, Kind.ROLL)
        end = _find(actions, Kind.BANK) or _find(actions, Kind.STOP)
        assert roll is not None and end is not None
        p, n = pos.pending, pos.n
        sk = pos.skirmish
        if sk is not None and pos.seat == sk["defender"]:
            bonus = pos.effect(pos.seat, CompanionEffect.DEFENCE_BONUS) or 0
            stop = p > 0 and p + bonus > sk["attack_value"]
        else:
            stop = p >= self.BANK_AT or (0 < n <= 2 and p > 0)
        if stop:
            return uses.get(ItemEffect.PENDING_BONUS) or end
        return roll


# ---------------------------------------------------------------------------- race model
class Race:
    """Estimated win chances: each player recruits until the Final Battle is allowed (D3),
    then slays the dragon on each of its turns with the chance of :class:`BattleModel`."""

    def __init__(self, table: ScoringTable) -> None:
        self.table = table
        self.step = roll_table(table).step
        self.need = -(-BATTLE_ARMY // self.step)
        merged: dict[int, float] = {}
        for soldiers, p in recruit_distribution(table).items():
            units = min(soldiers // self.step, self.need)
            merged[units] = merged.get(units, 0.0) + p
        self.recruit = [(u * self.step, p) for u, p in sorted(merged.items()) if p > 1e-7]
        norm = sum(p for _, p in self.recruit)
        self.recruit = [(s, p / norm) for s, p in self.recruit]
        # reach[k][d]: the chance to have recruited d more units within k turns
        reach = [[1.0 if d == 0 else 0.0 for d in range(self.need + 1)]]
        for _ in range(HORIZON):
            prev = reach[-1]
            row = [1.0] * (self.need + 1)
            for d in range(1, self.need + 1):
                row[d] = sum(p * prev[max(0, d - s // self.step)] for s, p in self.recruit)
            reach.append(row)
        self.reach = reach
        self._pmf: dict[tuple[int, int], tuple[list[float], list[float]]] = {}

    def first_win(self, deficit: int, hazard: float) -> tuple[list[float], list[float]]:
        """(chance of first slaying the dragon on one's i-th next turn, chance of not having
        slain it by then), i = 1..HORIZON, for ``deficit`` units still to recruit."""
        h = min(999, max(0, round(hazard * 1000)))
        key = (min(deficit, self.need), h)
        got = self._pmf.get(key)
        if got is None:
            s = h / 1000
            d = key[0]
            start = [self.reach[k][d] - (self.reach[k - 1][d] if k else 0.0)
                     for k in range(HORIZON + 1)]  # P(able to fight from turn k + 1)
            pmf = [0.0] * (HORIZON + 1)
            for i in range(1, HORIZON + 1):
                pmf[i] = s * sum(start[k] * (1 - s) ** (i - k - 1) for k in range(i))
            surv = [1.0] * (HORIZON + 1)
            for i in range(1, HORIZON + 1):
                surv[i] = surv[i - 1] - pmf[i]
            got = self._pmf[key] = (pmf, surv)
        return got

    def curve(self, army: int, lair: bool, model: BattleModel) -> Curve:
        """A player's chances of first slaying the dragon on each next turn (and of not
        having slain it yet), from its army, whether it is in the Lair, and its battle."""
        able = army >= BATTLE_ARMY or (lair and army > 0)
        hazard = model.slay(army) if able else model.slay(max(army, BATTLE_ARMY))
        deficit = 0 if able else -(-(BATTLE_ARMY - army) // self.step)
        return self.first_win(deficit, hazard)

    @staticmethod
    def others(curves: Sequence[Curve]) -> list[float]:
        """The chance that none of these players has slain the dragon by each turn."""
        prod = [1.0] * (HORIZON + 1)
        for _, surv in curves:
            prod = [x * y for x, y in zip(prod, surv, strict=True)]
        return prod

    @staticmethod
    def first(mine: Curve, others: list[float], players: int) -> float:
        """The chance to be first, the others moving before each of one's turns (a race
        still open after the horizon is shared)."""
        pmf, surv = mine
        total = sum(x * y for x, y in zip(pmf, others, strict=True))
        return total + surv[HORIZON] * others[HORIZON] / players


#: the version of the code the kept race tables come from (:mod:`dragonlair.core.diskcache`)
RACE_VERSION = code_version([__file__]) + TABLES_VERSION


@cache
@disk_cached("farkle-race", RACE_VERSION)
def race_for(table: ScoringTable) -> Race:
    return Race(table)


def warm_up() -> None:
    """Build (or read from disk, :mod:`dragonlair.core.diskcache`) the optimal bot's tables
    for the built-in scoring table, so that its first decision does not pay for them: the
    race, the plain Recruit programme and its distribution, the defence, a plain attack and
    the Final Battle model. A server calls it at start-up (the plugin's ``warm_up``)."""
    race_for(DEFAULT_TABLE)
    recruit_dp(DEFAULT_TABLE, RecruitParams())
    recruit_distribution(DEFAULT_TABLE, True)
    defence_dp(DEFAULT_TABLE)
    attack_dp(DEFAULT_TABLE)
    battle_model(DEFAULT_TABLE, BattleParams())


# ---------------------------------------------------------------------------- optimal
class OptimalFarkleBot:
    """Exact dice policies and a race estimate for its actions (see the module docs)."""

    #: it reads the position, not the event log (:class:`dragonlair.core.players.Bot`)
    reads_events = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        actions = _actions(legal)
        if len(actions) != len(legal) or not actions:
            return legal[0]
        if len(actions) == 1:
            return actions[0]
        pos = Pos(view)
        dec = pos.decision
        if dec == "action":
            return self._action(pos, actions)
        if dec in ("keep_item", "discard"):
            worth = {a: item_worth(pos, a.text.split(" ", 1)[1]) for a in actions}
            pick = max if dec == "keep_item" else min
            return pick(actions, key=lambda a: worth[a])
        if pos.mode == "recruit":
            return self._recruit(pos, actions)
        if pos.mode == "skirmish":
            sk = pos.skirmish
            assert sk is not None
            if dec == "hiccup":
                return self._hiccup(pos, actions)
            if pos.seat == sk["attacker"] and pos.roller == pos.seat:
                return self._attack(pos, actions)
            return self._defend(pos, actions)
        if pos.mode == "battle" and dec == "farkle":
            uses = _uses(actions)
            model = battle_model(pos.table, pos.battle_params(pos.seat, True))
            saved = model.slay(pos.army, pos.n, pos.damage, bonus_left=False, shield_left=False)
            if ItemEffect.REROLL_FARKLE in uses and saved >= 0.08:
                return uses[ItemEffect.REROLL_FARKLE]
            return _find(actions, Kind.FARKLE) or actions[0]
        return actions[0]

    # ------------------------------------------------------------------ the action (D3)
    def _action(self, pos: Pos, actions: list[FarkleAction]) -> FarkleAction:
        uses = _uses(actions)
        if ItemEffect.GAIN in uses:
            return uses[ItemEffect.GAIN]  # the Gold Purse: soldiers now
        race = race_for(pos.table)
        me = pos.seat
        models = [battle_model(pos.table, pos.battle_params(s, s == me))
                  for s in range(pos.players)]
        curves = [race.curve(pos.armies[s], pos.lair[s], models[s])
                  for s in range(pos.players)]
        scares = [a for a in actions if a.kind == Kind.SCARE]
        if scares:  # Skree: the player whose loss helps the bot most (the leader)
            amount = pos.effect(me, CompanionEffect.SCARE) or 0

            def after_scare(a: FarkleAction) -> float:
                army = max(0, pos.armies[a.seat] - amount)
                changed = curves[:]
                changed[a.seat] = race.curve(army, pos.lair[a.seat] and army > 0, models[a.seat])
                return race.first(curves[me], race.others(
                    [c for s, c in enumerate(changed) if s != me]), pos.players)

            return max(scares, key=after_scare)
        others = race.others([c for s, c in enumerate(curves) if s != me])
        best: tuple[float, FarkleAction] | None = None
        for a in actions:
            if a.kind == Kind.RECRUIT:
                value = self._value_recruit(pos, race, models[me], others)
            elif a.kind == Kind.BATTLE:
                value = self._value_battle(pos, race, models[me], others)
            elif a.kind == Kind.SKIRMISH:
                rest = race.others([c for s, c in enumerate(curves) if s not in (me, a.seat)])
                value = self._value_skirmish(pos, race, models, rest, a.seat)
            else:
                continue
            if best is None or value > best[0] + 1e-9:
                best = (value, a)
        assert best is not None
        return best[1]

    def _value_recruit(self, pos: Pos, race: Race, model: BattleModel,
                       others: list[float]) -> float:
        bonus = pos.effect(pos.seat, CompanionEffect.BANK_BONUS) or 0
        total = 0.0
        for soldiers, p in race.recruit:
            army = pos.army + soldiers + (bonus if soldiers else 0)
            total += p * race.first(race.curve(army, False, model), others, pos.players)
        return total

    def _value_battle(self, pos: Pos, race: Race, model: BattleModel,
                      others: list[float]) -> float:
        total = model.slay(pos.army)
        for left, p in model.failures(pos.army).items():
            total += p * race.first(race.curve(left, left > 0, model), others, pos.players)
        return total

    def _value_skirmish(self, pos: Pos, race: Race, models: list[BattleModel],
                        rest: list[float], target: int) -> float:
        me = pos.seat
        dp = attack_dp(pos.table, pos.effect(me, CompanionEffect.ATTACK_BONUS) or 0,
                       pos.effect(target, CompanionEffect.DEFENCE_BONUS) or 0)
        a, b = pos.army, pos.armies[target]
        lair = pos.lair[target]
        total = 0.0

        def chance(mine: int, theirs: int) -> float:
            them = race.curve(theirs, lair, models[target])[1]
            others = [x * y for x, y in zip(rest, them, strict=True)]
            return race.first(race.curve(mine, False, models[me]), others, pos.players)

        for p, attack, q, margin in _outcomes(dp):
            taken = min(attack, b)
            lost = min(int(margin), a)
            total += p * ((1 - q) * chance(a + taken + SKIRMISH_BONUS, b - taken)
                          + q * chance(a - lost, b + lost + SKIRMISH_BONUS))
        return total

    # ------------------------------------------------------------------ Recruit (D4)
    def _recruit_dp(self, pos: Pos) -> tuple[RecruitDP, int, int]:
        me = pos.seat
        tabby = pos.effect(me, CompanionEffect.IGNORE_DRAGON) is not None
        # D8.3: a drawn item is worth something only if the bot may keep it as well
        worth = ITEM_DRAW_WORTH if len(pos.items) < pos.item_limit else 0
        params = RecruitParams(
            item_worth=worth, bank_bonus=pos.effect(me, CompanionEffect.BANK_BONUS) or 0,
            keep_half=pos.effect(me, CompanionEffect.FARKLE_KEEP_HALF) is not None, tabby=tabby)
        t = 1 if tabby and not pos.used_this_turn("tabby") else 0
        g = 1 if pos.gained and worth else 0
        return recruit_dp(pos.table, params), g, t

    def _recruit(self, pos: Pos, actions: list[FarkleAction]) -> FarkleAction:
        dp, g, t = self._recruit_dp(pos)
        dec = pos.decision
        n, p = pos.n, pos.pending
        uses = _uses(actions)
        if dec == "keep":
            values = dict(pos.scorer.selections(pos.roll))

            def keep_value(a: FarkleAction) -> float:
                sel = _selection(a)
                v, m = values[sel], n - sum(sel)
                if pos.event == "alliance":
                    best = dp.value(m, p + 2 * v, g, t)
                    if dp.params.item_worth:
                        best = max(best, dp.value(m, p + v, 1, t))
                    return best
                return dp.value(m, p + v, g, t)

            return max((a for a in actions if a.kind == Kind.KEEP), key=keep_value)
        if dec == "alliance":
            sel = pos.last_keep()
            v = dict(pos.scorer.selections(pos.roll)).get(sel, 0) if sel else 0
            double = dp.value(n, p + 2 * v, g, t)
            item = dp.value(n, p + v, 1, t) if dp.params.item_worth else -1.0
            return (_find(actions, Kind.ITEM) if item > double else None) or \
                _find(actions, Kind.DOUBLE) or actions[0]
        if dec == "tabby":
            return self._tabby(pos, actions, dp, g)
        if dec == "continue":
            roll = _find(actions, Kind.ROLL)
            bank = _find(actions, Kind.BANK)
            assert roll is not None and bank is not None
            if not dp.should_roll(n, p, g, t):
                return uses.get(ItemEffect.PENDING_BONUS) or bank  # the Horn just before banking
            if ItemEffect.HOT_DICE in uses and 0 < n < 6:
                gain = dp.value(6, p, g, t) - dp.value(n, p, g, t)
                if gain >= item_worth(pos, "second-wind"):
                    return uses[ItemEffect.HOT_DICE]
            return roll
        if dec == "farkle":
            if ItemEffect.REROLL_FARKLE in uses:
                gain = dp.roll_value(n, p, g, t) - dp.farkle_value(p)
                if gain >= item_worth(pos, "lucky-clover"):
                    return uses[ItemEffect.REROLL_FARKLE]
            return _find(actions, Kind.FARKLE) or actions[0]
        return actions[0]

    def _tabby(self, pos: Pos, actions: list[FarkleAction], dp: RecruitDP,
               g: int) -> FarkleAction:
        """Tabby turns the dragon blank: worth it when setting dice aside beats losing them
        to the dragon (never on a roll without scoring dice: that would be a farkle)."""
        n, p = pos.n, pos.pending
        eaten, _ = pos.scorer.scoring_dice(pos.roll)
        keep_dragon = dp.value(n - sum(eaten), p, g, 1) if any(eaten) else dp.value(n, p, g, 1)
        blank = max((dp.value(n - sum(sel), p + v, g, 0)
                     for sel, v in keep_choices(pos.scorer, pos.roll)),
                    default=dp.farkle_value(p))
        want = Kind.TABBY if blank > keep_dragon else Kind.PASS
        return _find(actions, want) or actions[0]

    # ------------------------------------------------------------------ Skirmish (D5)
    def _attack_dp(self, pos: Pos) -> AttackDP:
        sk = pos.skirmish
        assert sk is not None
        return attack_dp(pos.table, pos.effect(sk["attacker"], CompanionEffect.ATTACK_BONUS) or 0,
                         pos.effect(sk["defender"], CompanionEffect.DEFENCE_BONUS) or 0)

    def _attack(self, pos: Pos, actions: list[FarkleAction]) -> FarkleAction:
        dp = self._attack_dp(pos)
        dec = pos.decision
        n, p = pos.n, pos.pending
        uses = _uses(actions)
        if dec == "keep":
            values = dict(pos.scorer.selections(pos.roll))
            mult = 2 if pos.event == "alliance" else 1
            return max((a for a in actions if a.kind == Kind.KEEP),
                       key=lambda a: dp.value(n - sum(_selection(a)),
                                              p + mult * values[_selection(a)]))
        if dec == "alliance":
            return _find(actions, Kind.DOUBLE) or actions[0]
        if dec == "continue":
            roll = _find(actions, Kind.ROLL)
            stop = _find(actions, Kind.STOP)
            assert roll is not None and stop is not None
            if p > 0 and not dp.should_roll(n, p):
                return uses.get(ItemEffect.PENDING_BONUS) or stop
            if ItemEffect.HOT_DICE in uses and 0 < n < 6 and \
                    dp.value(6, p) - dp.value(n, p) >= 2 * item_worth(pos, "second-wind"):
                return uses[ItemEffect.HOT_DICE]
            return roll
        if dec == "farkle":
            if ItemEffect.REROLL_FARKLE in uses:
                gain = dp.roll_value(n, p) - dp.payoff[0]
                if gain >= 2 * item_worth(pos, "lucky-clover"):
                    return uses[ItemEffect.REROLL_FARKLE]
            return _find(actions, Kind.FARKLE) or actions[0]
        return actions[0]

    def _defend(self, pos: Pos, actions: list[FarkleAction]) -> FarkleAction:
        sk = pos.skirmish
        assert sk is not None
        dp = defence_dp(pos.table)
        target = sk["attack_value"]
        bonus = pos.effect(pos.seat, CompanionEffect.DEFENCE_BONUS) or 0
        dec = pos.decision
        n, p = pos.n, pos.pending
        uses = _uses(actions)
        if dec == "keep":
            values = dict(pos.scorer.selections(pos.roll))
            mult = 2 if pos.event == "alliance" else 1

            def chance(a: FarkleAction) -> tuple[float, int]:
                sel = _selection(a)
                gained = p + mult * values[sel]
                return (dp.chance(n - sum(sel), gained, target, bonus), gained)

            return max((a for a in actions if a.kind == Kind.KEEP), key=chance)
        if dec == "alliance":
            sel = pos.last_keep()
            v = dict(pos.scorer.selections(pos.roll)).get(sel, 0) if sel else 0
            if p + v + bonus > target and 2 * v < ITEM_DRAW_WORTH:
                return _find(actions, Kind.ITEM) or actions[0]  # winning anyway: an item
            return _find(actions, Kind.DOUBLE) or actions[0]
        if dec == "continue":
            roll = _find(actions, Kind.ROLL)
            stop = _find(actions, Kind.STOP)
            assert roll is not None and stop is not None
            horn = uses.get(ItemEffect.PENDING_BONUS)
            if horn is not None:
                amount = ITEM_CARDS[horn.text.removeprefix("use ")].amount
                if dp.stop_chance(p + amount, target, bonus) > dp.stop_chance(p, target, bonus):
                    return horn
            now = dp.stop_chance(p, target, bonus)
            if now >= 1.0 or now >= dp.roll_chance(n, p, target, bonus):
                return stop
            if ItemEffect.HOT_DICE in uses and 0 < n < 5 and \
                    dp.chance(5, p, target, bonus) - dp.chance(n, p, target, bonus) >= 0.2:
                return uses[ItemEffect.HOT_DICE]
            return roll
        if dec == "farkle":
            if ItemEffect.REROLL_FARKLE in uses and dp.roll_chance(n, p, target, bonus) >= 0.3:
                return uses[ItemEffect.REROLL_FARKLE]
            return _find(actions, Kind.FARKLE) or actions[0]
        return actions[0]

    def _hiccup(self, pos: Pos, actions: list[FarkleAction]) -> FarkleAction:
        """Hiccup (the attacker's, once per Skirmish): reroll the die that helps the bot
        most: its own roll for a better attack, the defender's for a worse defence."""
        sk = pos.skirmish
        assert sk is not None
        own = pos.roller == pos.seat
        if own:
            dp = self._attack_dp(pos)

            def value(roll: Counts) -> float:
                return _resolve_attack(pos, dp, roll)
            margin = 40.0
        else:
            target = sk["attack_value"]
            bonus = pos.effect(sk["defender"], CompanionEffect.DEFENCE_BONUS) or 0

            def value(roll: Counts) -> float:
                return -_resolve_defence(pos, roll, target, bonus)
            margin = 0.02
        now = value(pos.roll)
        best: tuple[float, FarkleAction | None] = (now + margin, _find(actions, Kind.PASS))
        for a in actions:
            if a.kind != Kind.REROLL:
                continue
            c = list(pos.roll)
            c[a.face - 1] -= 1
            total = 0.0
            for face in range(6):
                c[face] += 1
                total += value((c[0], c[1], c[2], c[3], c[4], c[5])) / 6
                c[face] -= 1
            if total > best[0]:
                best = (total, a)
        return best[1] or actions[0]


def _resolve_attack(pos: Pos, dp: AttackDP, roll: Counts) -> float:
    """The attacker's expected swing from this roll (with this event face), before the
    choice of dice to set aside."""
    n, p = sum(roll), pos.pending
    choices = keep_choices(pos.scorer, roll)
    if pos.event == "dragon":
        eaten, _ = pos.scorer.scoring_dice(roll)
        return dp.value(n - sum(eaten), p) if any(eaten) else dp.value(n, p)
    if not choices:
        return dp.payoff[0]
    mult = 2 if pos.event == "alliance" else 1
    return max(dp.value(n - sum(sel), p + mult * v) for sel, v in choices)


def _resolve_defence(pos: Pos, roll: Counts, target: int, bonus: int) -> float:
    """The defender's win chance from this roll (with this event face)."""
    dp = defence_dp(pos.table)
    n, p = sum(roll), pos.pending
    choices = keep_choices(pos.scorer, roll)
    if pos.event == "dragon":
        eaten, _ = pos.scorer.scoring_dice(roll)
        return dp.chance(n - sum(eaten), p, target, bonus) if any(eaten) else \
            dp.chance(n, p, target, bonus)
    if not choices:
        return dp.stop_chance(0, target, bonus)
    mult = 2 if pos.event == "alliance" else 1
    return max(dp.chance(n - sum(sel), p + mult * v, target, bonus) for sel, v in choices)


@cache
def _outcomes(dp: AttackDP) -> list[tuple[float, int, float, float]]:
    """A skirmish's outcomes merged to 100-soldier attack values (fewer to evaluate)."""
    merged: dict[int, list[float]] = {}
    for p, attack, q, margin in dp.outcomes():
        key = attack // 100 * 100
        row = merged.setdefault(key, [0.0, 0.0, 0.0])
        row[0] += p
        row[1] += p * q
        row[2] += p * q * margin
    return [(p, a, pq / p, pqm / pq if pq > 0 else 0.0)
            for a, (p, pq, pqm) in sorted(merged.items()) if p > 1e-6]
