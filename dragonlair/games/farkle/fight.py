"""The dragon fight of Dragon Farkle: the end of a Skirmish (D5), the Final Battle (D6) and
an army wiped out in the Lair (D7): functions over a
:class:`~dragonlair.games.farkle.state.FarkleState`, called from the turn flow
(:mod:`.turns`), whose end of a turn they call in turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dragonlair.games.farkle import turns
from dragonlair.games.farkle.actions import ALLIANCE, DRAGON
from dragonlair.games.farkle.base import (
    SKIRMISH_BONUS,
    ask,
    begin,
    companion_of,
    emit,
    has,
    keep_choices,
    move,
    to_chance,
    usable_items,
    use_item,
)
from dragonlair.games.farkle.cards import CompanionEffect, ItemEffect, Window
from dragonlair.games.farkle.enums import BattleBonus, Dec, Mode, Phase

if TYPE_CHECKING:
    from dragonlair.games.farkle.state import FarkleState

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


def finish_side(state: FarkleState, value: int) -> None:
    """The attacker's or the defender's rolling is over (D5)."""
    if state.roller == state.attacker:
        card = companion_of(state, state.attacker)
        if value and card is not None and card.effect is _CE_ATTACK_BONUS:
            value += card.amount
        state.attack_value = value
        state._ev = (("farkle.skirmish.defends", None, state.defender, value),
                     state._ev)  # inlined emit (a hot path)
        state._nev += 1
        begin(state, _M_SKIRMISH, state.defender, 5)  # D5.2
        return
    defence = value
    card = companion_of(state, state.defender)
    if defence and card is not None and card.effect is _CE_DEFENCE_BONUS:
        defence += card.amount
    a, d = state.attacker, state.defender
    attack = state.attack_value
    emit(state, "farkle.skirmish.values", None, a, attack, d, defence)
    if attack == defence:
        emit(state, "farkle.skirmish.tie", None)  # D5.3: nothing moves, gained items are discarded
        for s in (a, d):
            for i in state.gained[s]:
                state.item_discard[i] += 1
            state.gained[s] = []
        turns.end_turn(state)
        return
    winner, loser = (a, d) if attack > defence else (d, a)
    taken = -move(state, loser, -abs(attack - defence))  # all of it if the loser has less
    move(state, winner, taken + SKIRMISH_BONUS)
    emit(state, "farkle.skirmish.won", None, winner, loser, taken, SKIRMISH_BONUS)
    for i in state.gained[loser]:
        state.item_discard[i] += 1
    state.gained[loser] = []
    mine = state.gained[winner]
    if len(mine) > 1:  # asked even for two alike, so nobody learns they were (D9)
        ask(state, winner, _D_KEEP_ITEM, [state.space.keep_item[i] for i in set(mine)])
        return
    for i in mine[1:]:
        state.item_discard[i] += 1
    state.gained[winner] = mine[:1]
    turns.end_turn(state)


# ------------------------------------------------------------------ the Final Battle (D6)
def battle_roll(state: FarkleState) -> None:
    seat = state.roller
    items = state.game.items
    scoring, loss = keep_choices(state, state.roll)[2]
    damage = 2 if state.event is ALLIANCE else 1 if state.event is DRAGON else 0
    if not damage and not any(scoring):
        ask(state, seat, _D_FARKLE, [state.space.farkle, *usable_items(state, seat, _W_FARKLE)])
        return
    if damage:
        card = companion_of(state, seat)
        if card is not None and card.effect is _CE_BATTLE_DAMAGE \
                and _BB_COMPANION not in state.battle_bonus_used:
            state.battle_bonus_used.add(_BB_COMPANION)
            damage += card.amount
        arrow = next((i for i in state.items[seat]
                      if items[i].effect is _IE_BATTLE_DAMAGE), None)
        if arrow is not None and _BB_ARROW not in state.battle_bonus_used:
            state.battle_bonus_used.add(_BB_ARROW)
            use_item(state, seat, arrow)
            damage += items[arrow].amount
            emit(state, "farkle.battle.arrow", None, seat, items[arrow].id)
        state.damage += damage
        emit(state, "farkle.battle.damage", None, seat, damage, state.damage)
        if state.damage >= state.game.dragon:  # D6.4
            turns.game_over(state, (seat,), "farkle.end.dragon_slain", seat=seat)
            return
    if any(scoring):
        shield = next((i for i in state.items[seat]
                       if items[i].effect is _IE_BATTLE_SHIELD), None)
        if shield is not None and _BB_SHIELD not in state.battle_bonus_used:
            state.battle_bonus_used.add(_BB_SHIELD)
            use_item(state, seat, shield)
            emit(state, "farkle.battle.shield", None, seat, items[shield].id, loss)
            loss = 0
        if has(state, seat, _CE_BATTLE_LOSS_HALF):
            loss = loss // 2 // 50 * 50
        lost = -move(state, seat, -loss)
        if lost:
            emit(state, "farkle.battle.loses", None, seat, lost)
        state.hand_dice -= sum(scoring)
        if state.hand_dice == 0:
            state.hand_dice = 6  # hot dice (D6.3)
        if state.armies[seat] == 0:  # D7: wiped out in the Lair
            wipe_out(state, seat)
            emit(state, "farkle.battle.heals", None)
            turns.end_turn(state)
            return
    to_chance(state, _P_ROLL)


def wipe_out(state: FarkleState, seat: int) -> None:
    """D7: an army reduced to 0 in the Lair leaves it; the companion is discarded and a
    new one drawn at the start of the player's next turn; items are kept."""
    state.in_lair[seat] = False
    k = state.companions[seat]
    state.companion_discard[k] += 1
    state.companions[seat] = -1
    state.needs_companion[seat] = True
    emit(state, "farkle.lair.army_gone", None, seat)
