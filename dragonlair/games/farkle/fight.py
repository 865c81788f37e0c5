"""The dragon fight of Dragon Farkle: the end of a Skirmish (D5), the Final Battle (D6) and
an army wiped out in the Lair (D7)."""

from __future__ import annotations

from dragonlair.games.farkle.actions import ALLIANCE, DRAGON
from dragonlair.games.farkle.base import SKIRMISH_BONUS, FarkleBase
from dragonlair.games.farkle.cards import CompanionEffect, ItemEffect, Window
from dragonlair.games.farkle.enums import BattleBonus, Dec, Mode, Phase

_P_ROLL = Phase.ROLL
_M_SKIRMISH = Mode.SKIRMISH
_D_FARKLE = Dec.FARKLE
_D_KEEP_ITEM = Dec.KEEP_ITEM
_CE_ATTACK_BONUS = CompanionEffect.ATTACK_BONUS
_CE_BATTLE_DAMAGE = CompanionEffect.BATTLE_DAMAGE
_CE_BATTLE_LOSS_HALF = CompanionEffect.BATTLE_LOSS_HALF
_CE_DEFENCE_BONUS = CompanionEffect.DEFENCE_BONUS
_IE_BATTLE_DAMAGE = ItemEffect.BATTLE_DAMAGE
_IE_BATTLE_SHIELD = ItemEffect.BATTLE_SHIELD
_W_FARKLE = Window.FARKLE
_BB_COMPANION = BattleBonus.COMPANION
_BB_ARROW = BattleBonus.ARROW
_BB_SHIELD = BattleBonus.SHIELD


class Fight(FarkleBase):
    """The end of a Skirmish, the Final Battle, the Lair (see the module docs)."""

    def _finish_side(self, value: int) -> None:
        """The attacker's or the defender's rolling is over (D5)."""
        if self.roller == self.attacker:
            card = self._card(self.attacker)
            if value and card is not None and card.effect is _CE_ATTACK_BONUS:
                value += card.amount
            self.attack_value = value
            self._ev = (("farkle.skirmish.defends", None, self.defender, value),
                        self._ev)  # inlined _e (a hot path)
            self._nev += 1
            self._begin(_M_SKIRMISH, self.defender, 5)  # D5.2
            return
        defence = value
        card = self._card(self.defender)
        if defence and card is not None and card.effect is _CE_DEFENCE_BONUS:
            defence += card.amount
        a, d = self.attacker, self.defender
        attack = self.attack_value
        self._e("farkle.skirmish.values", None, a, attack, d, defence)
        if attack == defence:
            self._e("farkle.skirmish.tie", None)  # D5.3: nothing moves, gained items are discarded
            for s in (a, d):
                for i in self.gained[s]:
                    self.item_discard[i] += 1
                self.gained[s] = []
            self._end_turn()
            return
        winner, loser = (a, d) if attack > defence else (d, a)
        taken = -self._move(loser, -abs(attack - defence))  # all of it if the loser has less
        self._move(winner, taken + SKIRMISH_BONUS)
        self._e("farkle.skirmish.won", None, winner, loser, taken, SKIRMISH_BONUS)
        for i in self.gained[loser]:
            self.item_discard[i] += 1
        self.gained[loser] = []
        mine = self.gained[winner]
        if len(mine) > 1:  # asked even for two alike, so nobody learns they were (D9)
            self._ask(winner, _D_KEEP_ITEM, [self.space.keep_item[i] for i in set(mine)])
            return
        for i in mine[1:]:
            self.item_discard[i] += 1
        self.gained[winner] = mine[:1]
        self._end_turn()

    # ------------------------------------------------------------------ the Final Battle (D6)
    def _battle_roll(self) -> None:
        seat = self.roller
        items = self.game.items
        scoring, loss = self._keep_choices(self.roll)[2]
        damage = 2 if self.event is ALLIANCE else 1 if self.event is DRAGON else 0
        if not damage and not any(scoring):
            self._ask(seat, _D_FARKLE, [self.space.farkle, *self._usable(seat, _W_FARKLE)])
            return
        if damage:
            card = self._card(seat)
            if card is not None and card.effect is _CE_BATTLE_DAMAGE \
                    and _BB_COMPANION not in self.battle_bonus_used:
                self.battle_bonus_used.add(_BB_COMPANION)
                damage += card.amount
            arrow = next((i for i in self.items[seat]
                          if items[i].effect is _IE_BATTLE_DAMAGE), None)
            if arrow is not None and _BB_ARROW not in self.battle_bonus_used:
                self.battle_bonus_used.add(_BB_ARROW)
                self._use_item(seat, arrow)
                damage += items[arrow].amount
                self._e("farkle.battle.arrow", None, seat, items[arrow].id)
            self.damage += damage
            self._e("farkle.battle.damage", None, seat, damage, self.damage)
            if self.damage >= self.game.dragon:  # D6.4
                self._game_over((seat,), "farkle.end.dragon_slain", seat=seat)
                return
        if any(scoring):
            shield = next((i for i in self.items[seat]
                           if items[i].effect is _IE_BATTLE_SHIELD), None)
            if shield is not None and _BB_SHIELD not in self.battle_bonus_used:
                self.battle_bonus_used.add(_BB_SHIELD)
                self._use_item(seat, shield)
                self._e("farkle.battle.shield", None, seat, items[shield].id, loss)
                loss = 0
            if self._has(seat, _CE_BATTLE_LOSS_HALF):
                loss = loss // 2 // 50 * 50
            lost = -self._move(seat, -loss)
            if lost:
                self._e("farkle.battle.loses", None, seat, lost)
            self.hand_dice -= sum(scoring)
            if self.hand_dice == 0:
                self.hand_dice = 6  # hot dice (D6.3)
            if self.armies[seat] == 0:  # D7: wiped out in the Lair
                self._wipe_out(seat)
                self._e("farkle.battle.heals", None)
                self._end_turn()
                return
        self._chance(_P_ROLL)

    def _wipe_out(self, seat: int) -> None:
        """D7: an army reduced to 0 in the Lair leaves it; the companion is discarded and a
        new one drawn at the start of the player's next turn; items are kept."""
        self.in_lair[seat] = False
        k = self.companions[seat]
        self.companion_discard[k] += 1
        self.companions[seat] = -1
        self.needs_companion[seat] = True
        self._e("farkle.lair.army_gone", None, seat)
