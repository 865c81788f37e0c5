"""Hints for Dragon Farkle: the ``optimal`` bot's exact values of each option (D4, D5).

Everything is read from the seat's view (D9) through the bot's own :class:`~.bots.Pos` and
its DP tables (:mod:`.policy`): a Recruit decision is valued in expected soldiers banked
this turn (``RecruitDP``), the attacker's in expected soldiers swung (``AttackDP``), the
defender's in the chance to beat the attack (``DefenceDP``), the action of the turn (D3) in
the race model's win chance. These values are exact for the policy's model (``exact``) except
the race model's, which is an estimate. Options the bot weighs by a rule of thumb (item
uses and keeps, Hiccup) get no value; the ``best`` option is always the bot's choice.

The seat's win chance (for the analysis chart) is the race model's: each player first
recruits to 5,000 soldiers at the Recruit policy's pace, then slays the dragon with its
Final Battle chance; an estimate, stated as such in docs/analysis.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dragonlair.analysis.hints import Hint, ranked
from dragonlair.core.game import JSON, Action
from dragonlair.games.farkle.actions import FarkleAction, Kind
from dragonlair.games.farkle.bots import (
    OptimalFarkleBot,
    Pos,
    _actions,
    _selection,
    race_for,
)
from dragonlair.games.farkle.cards import CompanionEffect
from dragonlair.games.farkle.policy import RecruitDP, battle_model, defence_dp, keep_choices

Values = dict[str, float | None]


def win_chance(pos: Pos) -> float:
    """The race model's chance that this seat slays the dragon first (see module docs)."""
    race = race_for(pos.table)
    me = pos.seat
    curves = [race.curve(pos.armies[s], pos.lair[s],
                         battle_model(pos.table, pos.battle_params(s, s == me)))
              for s in range(pos.players)]
    return race.first(curves[me], race.others([c for s, c in enumerate(curves) if s != me]),
                      pos.players)


class FarkleAnalyser:
    """The optimal bot's values, option by option (see the module docs)."""

    def hint(self, view: JSON, legal: Sequence[Action], rng: random.Random,
             effort: float = 1.0) -> Hint:
        bot = OptimalFarkleBot(rng)
        choice = bot.choose(view, legal)
        actions = _actions(legal)
        pos = Pos(view)
        unit, exact, values = "soldiers", True, Values()
        if actions and len(actions) == len(legal) and len(actions) > 1:
            unit, exact, values = self._values(bot, pos, actions)
        return ranked(unit, exact, legal, values, choice, win_chance=win_chance(pos))

    def _values(self, bot: OptimalFarkleBot, pos: Pos,
                actions: list[FarkleAction]) -> tuple[str, bool, Values]:
        dec = pos.decision
        if dec == "action":
            return "win_chance", False, self._action(bot, pos, actions)
        if pos.mode == "recruit":
            return "soldiers", True, self._recruit(bot, pos, actions)
        if pos.mode == "skirmish" and dec != "hiccup":
            sk = pos.skirmish
            assert sk is not None
            if pos.seat == sk["attacker"] and pos.roller == pos.seat:
                return "soldiers", True, self._attack(bot, pos, actions)
            return "win_chance", True, self._defend(pos, actions)
        return "soldiers", True, {}

    # ------------------------------------------------------------------ D3: the action
    def _action(self, bot: OptimalFarkleBot, pos: Pos, actions: list[FarkleAction]) -> Values:
        race = race_for(pos.table)
        me = pos.seat
        models = [battle_model(pos.table, pos.battle_params(s, s == me))
                  for s in range(pos.players)]
        curves = [race.curve(pos.armies[s], pos.lair[s], models[s]) for s in range(pos.players)]
        others = race.others([c for s, c in enumerate(curves) if s != me])
        out: Values = {}
        for a in actions:
            if a.kind == Kind.RECRUIT:
                out[str(a)] = bot._value_recruit(pos, race, models[me], others)
            elif a.kind == Kind.BATTLE:
                out[str(a)] = bot._value_battle(pos, race, models[me], others)
            elif a.kind == Kind.SKIRMISH:
                rest = race.others([c for s, c in enumerate(curves) if s not in (me, a.seat)])
                out[str(a)] = bot._value_skirmish(pos, race, models, rest, a.seat)
            elif a.kind == Kind.SCARE:
                amount = pos.effect(me, CompanionEffect.SCARE) or 0
                army = max(0, pos.armies[a.seat] - amount)
                changed = curves[:]
                changed[a.seat] = race.curve(army, pos.lair[a.seat] and army > 0,
                                             models[a.seat])
                out[str(a)] = race.first(curves[me], race.others(
                    [c for s, c in enumerate(changed) if s != me]), pos.players)
        return out

    # ------------------------------------------------------------------ D4: Recruit
    def _recruit(self, bot: OptimalFarkleBot, pos: Pos, actions: list[FarkleAction]) -> Values:
        dp, g, t = bot._recruit_dp(pos)
        n, p = pos.n, pos.pending
        dec = pos.decision
        out: Values = {}
        if dec == "keep":
            values = dict(pos.scorer.selections(pos.roll))
            for a in actions:
                if a.kind != Kind.KEEP:
                    continue
                sel = _selection(a)
                v, m = values[sel], n - sum(sel)
                if pos.event == "alliance":
                    best = dp.value(m, p + 2 * v, g, t)
                    if dp.params.item_worth:
                        best = max(best, dp.value(m, p + v, 1, t))
                    out[str(a)] = best
                else:
                    out[str(a)] = dp.value(m, p + v, g, t)
        elif dec == "alliance":
            last = pos.last_keep()
            v = dict(pos.scorer.selections(pos.roll)).get(last, 0) if last else 0
            for a in actions:
                if a.kind == Kind.DOUBLE:
                    out[str(a)] = dp.value(n, p + 2 * v, g, t)
                elif a.kind == Kind.ITEM and dp.params.item_worth:
                    out[str(a)] = dp.value(n, p + v, 1, t)
        elif dec == "continue":
            for a in actions:
                if a.kind == Kind.ROLL:
                    out[str(a)] = dp.roll_value(n, p, g, t)
                elif a.kind == Kind.BANK:
                    out[str(a)] = _bank(dp, p, g)
        elif dec == "farkle":
            for a in actions:
                if a.kind == Kind.FARKLE:
                    out[str(a)] = dp.farkle_value(p)
        elif dec == "tabby":
            eaten, _ = pos.scorer.scoring_dice(pos.roll)
            for a in actions:
                if a.kind == Kind.PASS:
                    out[str(a)] = (dp.value(n - sum(eaten), p, g, 1) if any(eaten)
                                   else dp.value(n, p, g, 1))
                elif a.kind == Kind.TABBY:
                    out[str(a)] = max((dp.value(n - sum(sel), p + v, g, 0)
                                       for sel, v in keep_choices(pos.scorer, pos.roll)),
                                      default=dp.farkle_value(p))
        return out

    # ------------------------------------------------------------------ D5: Skirmish
    def _attack(self, bot: OptimalFarkleBot, pos: Pos, actions: list[FarkleAction]) -> Values:
        dp = bot._attack_dp(pos)
        n, p = pos.n, pos.pending
        out: Values = {}
        if pos.decision == "keep":
            values = dict(pos.scorer.selections(pos.roll))
            mult = 2 if pos.event == "alliance" else 1
            for a in actions:
                if a.kind == Kind.KEEP:
                    sel = _selection(a)
                    out[str(a)] = dp.value(n - sum(sel), p + mult * values[sel])
        elif pos.decision == "continue":
            for a in actions:
                if a.kind == Kind.ROLL:
                    out[str(a)] = dp.roll_value(n, p)
                elif a.kind == Kind.STOP:
                    out[str(a)] = dp.stop_value(p)
        return out

    def _defend(self, pos: Pos, actions: list[FarkleAction]) -> Values:
        sk = pos.skirmish
        assert sk is not None
        dp = defence_dp(pos.table)
        target = sk["attack_value"]
        bonus = pos.effect(pos.seat, CompanionEffect.DEFENCE_BONUS) or 0
        n, p = pos.n, pos.pending
        out: Values = {}
        if pos.decision == "keep":
            values = dict(pos.scorer.selections(pos.roll))
            mult = 2 if pos.event == "alliance" else 1
            for a in actions:
                if a.kind == Kind.KEEP:
                    sel = _selection(a)
                    out[str(a)] = dp.chance(n - sum(sel), p + mult * values[sel], target, bonus)
        elif pos.decision == "continue":
            for a in actions:
                if a.kind == Kind.ROLL:
                    out[str(a)] = dp.roll_chance(n, p, target, bonus)
                elif a.kind == Kind.STOP:
                    out[str(a)] = dp.stop_chance(p, target, bonus)
        return out


def _bank(dp: RecruitDP, p: int, g: int) -> float:
    """What banking ``p`` pending gives (an item drawn this turn counts at its worth)."""
    if g and dp.after_item is not None:
        return dp.after_item.bank_value(p + dp.worth * dp.step)
    return dp.bank_value(p)


def analyser() -> FarkleAnalyser:
    return FarkleAnalyser()
