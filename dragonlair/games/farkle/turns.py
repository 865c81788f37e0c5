"""The turn flow of Dragon Farkle (D3, D4, D8): the setup and the other chance events, the
start of a turn and the action chosen, rolling, setting dice aside, the alliance, banking,
farkles, item draws and the end of a turn (item limits, the turn limit)."""

from __future__ import annotations

from typing import Any

from dragonlair.games.farkle.actions import (
    ALLIANCE,
    BLANK,
    DICE_COUNT,
    DICE_SETS,
    DRAGON,
    FarkleAction,
    Kind,
)
from dragonlair.games.farkle.base import BATTLE_ARMY, FarkleBase
from dragonlair.games.farkle.cards import CompanionEffect, ItemEffect, Window
from dragonlair.games.farkle.enums import AfterDraw, Dec, Mode, Phase, Power

_P_CHOOSE = Phase.CHOOSE
_P_COMPANION = Phase.COMPANION
_P_DIE = Phase.DIE
_P_DRAW = Phase.DRAW
_P_OVER = Phase.OVER
_P_ROLL = Phase.ROLL
_P_SETUP = Phase.SETUP
_M_BATTLE = Mode.BATTLE
_M_NONE = Mode.NONE
_M_RECRUIT = Mode.RECRUIT
_M_SKIRMISH = Mode.SKIRMISH
_D_ALLIANCE = Dec.ALLIANCE
_D_CONTINUE = Dec.CONTINUE
_D_DISCARD = Dec.DISCARD
_D_FARKLE = Dec.FARKLE
_D_HICCUP = Dec.HICCUP
_D_KEEP = Dec.KEEP
_D_KEEP_ITEM = Dec.KEEP_ITEM
_D_TABBY = Dec.TABBY
_K_BANK = Kind.BANK
_K_DICE = Kind.DICE
_K_DIE = Kind.DIE
_K_DOUBLE = Kind.DOUBLE
_K_DRAW_COMPANION = Kind.DRAW_COMPANION
_K_DRAW_ITEM = Kind.DRAW_ITEM
_K_RECRUIT = Kind.RECRUIT
_K_REROLL = Kind.REROLL
_K_ROLL = Kind.ROLL
_K_SCARE = Kind.SCARE
_K_SKIRMISH = Kind.SKIRMISH
_K_TABBY = Kind.TABBY
_K_USE = Kind.USE
_PW_TABBY = Power.TABBY
_PW_HICCUP = Power.HICCUP
_PW_SCARE = Power.SCARE
_CE_BANK_BONUS = CompanionEffect.BANK_BONUS
_CE_FARKLE_KEEP_HALF = CompanionEffect.FARKLE_KEEP_HALF
_CE_IGNORE_DRAGON = CompanionEffect.IGNORE_DRAGON
_CE_REROLL_ONE = CompanionEffect.REROLL_ONE
_CE_SCARE = CompanionEffect.SCARE
_CE_TREASURE = CompanionEffect.TREASURE
_IE_PENDING_BONUS = ItemEffect.PENDING_BONUS
_W_DECIDE = Window.DECIDE
_W_FARKLE = Window.FARKLE
_W_START = Window.START
_AD_NOTHING = AfterDraw.NOTHING
_AD_CONTINUE = AfterDraw.CONTINUE
_AD_END = AfterDraw.END


class TurnFlow(FarkleBase):
    """The turn flow (see the module docs)."""

    # ------------------------------------------------------------------ chance
    def _on_chance(self, action: FarkleAction, index: int) -> None:
        k = action.kind
        if k is _K_DICE:  # a roll (the most frequent event; never one in the setup)
            self.roll = DICE_SETS[action.dice]
            self.event = action.event
            self._ev = (("farkle.roll.rolled", None, self.roller, action.dice, action.event),
                        self._ev)  # inlined _e (a hot path)
            self._nev += 1
            if self.asked:  # (each state has its own set: clone copies it)
                self.asked = set()
            self._resolve_roll()
        elif self.phase is _P_SETUP:
            n = self.num_players
            if self.setup_step < n:
                self._take_companion(action.card)
                self.companions[self.setup_step] = action.card
                self._e("farkle.setup.companion", None, self.setup_step,
                        self.game.companions[action.card].id)
            elif self.setup_step < 2 * n:
                seat = self.setup_step - n
                self._take_item(action.card)
                self.items[seat].append(action.card)
                self.hidden_for[index] = seat
                self._e("farkle.setup.item", None, seat)
                self._e("farkle.setup.item_own", seat, seat, self.game.items[action.card].id)
            else:
                self.turn = 1
                self._e("farkle.setup.start", None, action.seat)
                self._start_turn(action.seat)
                return
            self.setup_step += 1
            self._chance(_P_SETUP)
        elif k is _K_DRAW_COMPANION:
            self._take_companion(action.card)
            self.companions[self.player] = action.card
            self.needs_companion[self.player] = False
            self._e("farkle.companion.new", None, self.player, self.game.companions[action.card].id)
            self._choose()
        elif k is _K_DRAW_ITEM:
            self._take_item(action.card)
            self.gained[self.draw_for].append(action.card)
            self.hidden_for[index] = self.draw_for
            self._e("farkle.item.drawn", None, self.draw_for)
            self._e("farkle.item.drawn_own", self.draw_for, self.draw_for,
                    self.game.items[action.card].id)
            then, self.after_draw = self.after_draw, _AD_NOTHING
            if then is _AD_END:
                self._end_turn()
            else:
                self._continue()
        elif k is _K_DIE:
            self._e("farkle.roll.die", None, self.roller, action.face)
            c = list(self.roll)
            c[action.face - 1] += 1
            self.roll = (c[0], c[1], c[2], c[3], c[4], c[5])
            self._resolve_roll()

    # ------------------------------------------------------------------ turns (D3)
    def _start_turn(self, seat: int) -> None:
        self.player = seat
        self.mode = _M_NONE
        if self.used:
            self.used = set()
        self.damage = 0
        self.start_army = self.armies[seat]
        self._ev = (("farkle.turn.start", None, self.turn, seat, self.start_army),
                    self._ev)  # inlined _e (a hot path)
        self._nev += 1
        if self.needs_companion[seat]:  # D7: a new companion at the start of the turn
            self._chance(_P_COMPANION)
            return
        self._choose()

    def _choose(self) -> None:
        seat = self.player
        sp = self.space
        legal = [sp.recruit]
        legal += [sp.skirmish[s] for s in range(self.num_players)
                  if s != seat and not self.in_lair[s]]
        if self.start_army >= BATTLE_ARMY or self.in_lair[seat]:
            legal.append(sp.battle)
        if self._has(seat, _CE_SCARE) and _PW_SCARE not in self.used:
            legal += [sp.scare[s] for s in range(self.num_players) if s != seat]
        usable = self._usable(seat, _W_START)
        if usable:
            self._ask(seat, None, legal + usable, _P_CHOOSE)
        else:  # recruit, skirmish, battle, scare: built in index order
            self._ask_sorted(seat, None, tuple(legal), _P_CHOOSE)

    def _on_decision(self, seat: int, action: FarkleAction) -> None:
        k = action.kind
        sp = self.space
        if self.phase is _P_CHOOSE:
            if k is _K_SCARE:
                self.used.add(_PW_SCARE)
                card = self._card(seat)
                assert card is not None
                lost = -self._move(action.seat, -card.amount)
                self._e("farkle.power.scare", None, seat, card.id, action.seat, lost)
                if self.in_lair[action.seat] and self.armies[action.seat] == 0:
                    self._wipe_out(action.seat)  # D7: an army reduced to 0 in the Lair
                self._choose()
            elif k is _K_USE:
                card = self.game.items[action.card]
                self._use_item(seat, action.card)
                self._e("farkle.item.used", None, seat, card.id)
                gain = self._move(seat, card.amount)
                self._e("farkle.item.gain", None, seat, gain, self.armies[seat])
                self._choose()
            elif k is _K_RECRUIT:
                self.in_lair[seat] = False  # D7
                self._ev = (("farkle.choose.recruit", None, seat),
                            self._ev)  # inlined _e (a hot path)
                self._nev += 1
                self._begin(_M_RECRUIT, seat, 6)
            elif k is _K_SKIRMISH:
                self.in_lair[seat] = False
                self.attacker, self.defender = seat, action.seat
                self.attack_value = 0
                self._ev = (("farkle.choose.skirmish", None, seat, action.seat),
                            self._ev)  # inlined _e (a hot path)
                self._nev += 1
                self._begin(_M_SKIRMISH, seat, 6)
            else:
                self.in_lair[seat] = True  # D7: whoever fights is in the Lair
                self.damage = 0
                self.battle_bonus_used = set()
                self._e("farkle.choose.battle", None, seat, self.game.dragon)
                self._begin(_M_BATTLE, seat, 6)
            return
        dec = self.dec
        # the decisions exclude each other: the most frequent first
        if dec is _D_KEEP:
            info = self._keeps.get(self.roll) or self._keep_choices(self.roll)
            value = info[1][action.dice]
            self.hand_dice -= DICE_COUNT[action.dice]
            self.last_value = value
            code = ("farkle.keep.soldiers" if self.mode is not _M_SKIRMISH else
                    "farkle.keep.defence" if seat == self.defender else "farkle.keep.attack")
            self._ev = ((code, None, seat, action.dice, value),
                        self._ev)  # inlined _e (a hot path)
            self._nev += 1
            if self.event is ALLIANCE:
                self._ask_sorted(self.roller, _D_ALLIANCE, (sp.double, sp.item))
                return
            self.pending += value
            self._continue()
        elif dec is _D_CONTINUE:
            if k is _K_USE:
                card = self.game.items[action.card]
                self._use_item(seat, action.card)
                self._e("farkle.item.used", None, seat, card.id)
                if card.effect is _IE_PENDING_BONUS:
                    self.pending += card.amount
                else:  # hot_dice
                    self.hand_dice = 0
                self._continue()
            elif k is _K_ROLL:
                if self.hand_dice == 0:
                    self.hand_dice = self.full_dice  # hot dice
                    self._e("farkle.roll.hot", None, seat, self.full_dice)
                self._chance(_P_ROLL)
            elif k is _K_BANK:
                self._bank()
            else:
                self._ev = (("farkle.skirmish.stop", None, seat, self.pending),
                            self._ev)  # inlined _e (a hot path)
                self._nev += 1
                self._finish_side(self.pending)
        elif dec is _D_ALLIANCE:
            if k is _K_DOUBLE:
                self.pending += 2 * self.last_value
                self._e("farkle.alliance.double", None, seat, 2 * self.last_value,
                        self.pending)
                self._continue()
            else:
                self.pending += self.last_value
                self._e("farkle.alliance.item", None, seat)
                self.draw_for = self.roller
                self._draw_item(_AD_CONTINUE)
        elif dec is _D_FARKLE:
            if k is _K_USE:
                self._use_item(seat, action.card)
                self._e("farkle.item.ignore_farkle", None, seat, self.game.items[action.card].id)
                self.roll = (0, 0, 0, 0, 0, 0)
                self._chance(_P_ROLL)  # the same dice again
            else:
                self._farkle()
        elif dec is _D_TABBY:
            self.asked.add(_PW_TABBY)
            if k is _K_TABBY:
                self.used.add(_PW_TABBY)
                self.event = BLANK
                self._e("farkle.power.tabby", None, seat)
            else:
                self._e("farkle.power.pass", None, seat)
            self._resolve_roll()
        elif dec is _D_HICCUP:
            self.asked.add(_PW_HICCUP)
            if k is _K_REROLL:
                self.used.add(_PW_HICCUP)
                self._e("farkle.power.reroll", None, seat, action.face)
                c = list(self.roll)
                c[action.face - 1] -= 1
                self.roll = (c[0], c[1], c[2], c[3], c[4], c[5])
                self._chance(_P_DIE)
                return
            self._e("farkle.power.pass", None, seat)
            self._resolve_roll()
        elif dec is _D_KEEP_ITEM:
            keep = action.card
            self._e("farkle.item.kept", None, seat)
            self._e("farkle.item.kept_own", seat, seat, self.game.items[keep].id)
            self.gained[seat].remove(keep)  # one copy kept; any other (alike too) discarded
            for i in self.gained[seat]:
                self.item_discard[i] += 1
            self.gained[seat] = [keep]
            self._end_turn()
        elif dec is _D_DISCARD:
            self._e("farkle.item.discarded", None, seat)
            self._e("farkle.item.discarded_own", seat, seat, self.game.items[action.card].id)
            self.items[seat].remove(action.card)
            self.item_discard[action.card] += 1
            self._check_limits()

    def _draw_item(self, then: AfterDraw) -> None:
        if not any(self.item_deck) and not any(self.item_discard):
            self._e("farkle.item.none_left", None)
            if then is _AD_END:
                self._end_turn()
            else:
                self._continue()
            return
        self.after_draw = then
        self._chance(_P_DRAW)

    # ------------------------------------------------------------------ rolls (D4, D5)
    def _resolve_roll(self) -> None:
        if self.mode is _M_BATTLE:
            self._battle_roll()
            return
        seat = self.roller
        sp = self.space
        if (self.event is DRAGON and self.mode is _M_RECRUIT and _PW_TABBY not in self.used
                and _PW_TABBY not in self.asked and self._has(seat, _CE_IGNORE_DRAGON)):
            self._ask_sorted(seat, _D_TABBY, (sp.tabby, sp.pass_))
            return
        if (self.mode is _M_SKIRMISH and _PW_HICCUP not in self.used
                and _PW_HICCUP not in self.asked and self._has(self.attacker, _CE_REROLL_ONE)):
            faces = [sp.reroll[f] for f in range(6) if self.roll[f]]
            self._ask(self.attacker, _D_HICCUP, [*faces, sp.pass_])
            return
        info = self._keeps.get(self.roll) or self._keep_choices(self.roll)  # (a hot path)
        keeps = info[0]
        if not keeps:
            if self.event is DRAGON:  # D4.3: the farkle is ignored
                self._e("farkle.roll.escape", None, seat)
                self._continue()
                return
            # D8.4: a farkle item works during its owner's turn (not for a defender)
            usable = self._usable(seat, _W_FARKLE) if seat == self.player else []
            self._ask(seat, _D_FARKLE, [sp.farkle, *usable])
            return
        if self.event is DRAGON:  # D4.3: the dragon eats every scoring die
            eaten, value = info[2]
            self.hand_dice -= sum(eaten)
            self._e("farkle.roll.eaten", None, seat, eaten, value)
            self._continue()
            return
        self._ask_sorted(seat, _D_KEEP, keeps)

    def _continue(self) -> None:
        sp = self.space
        usable = self._usable(self.roller, _W_DECIDE)
        if usable:
            end = sp.bank if self.mode is _M_RECRUIT else sp.stop
            self._ask(self.roller, _D_CONTINUE, [sp.roll, end, *usable])
        else:
            self._ask_sorted(self.roller, _D_CONTINUE,
                             sp.roll_or_bank if self.mode is _M_RECRUIT else sp.roll_or_stop)

    def _farkle(self) -> None:
        seat = self.roller
        if self.mode is _M_RECRUIT:  # D4.2
            kept = 0
            if self._has(seat, _CE_FARKLE_KEEP_HALF):
                kept = self.pending // 2 // 50 * 50
                self._move(seat, kept)
            self._ev = (("farkle.recruit.farkle", None, seat, self.pending - kept, kept),
                        self._ev)  # inlined _e (a hot path)
            self._nev += 1
            for i in self.gained[seat]:
                self.item_discard[i] += 1
            self.gained[seat] = []
            self.pending = 0
            self._end_turn()
        elif self.mode is _M_SKIRMISH:
            self._e("farkle.skirmish.farkle", None, seat)
            self._finish_side(0)  # D5.1: a farkle makes the value 0
        else:
            self._e("farkle.battle.farkle", None, seat)
            self._end_turn()

    def _bank(self) -> None:
        seat = self.roller
        amount = self.pending
        card = self._card(seat)
        bonus = 0
        if amount and card is not None and card.effect is _CE_BANK_BONUS:
            bonus = card.amount
            amount += bonus
        self._move(seat, amount)
        self._ev = (("farkle.recruit.bank", None, seat, amount, self.armies[seat]),
                    self._ev)  # inlined _e (a hot path)
        self._nev += 1
        if bonus and card is not None:
            self._e("farkle.recruit.bank_bonus", None, seat, card.id, bonus)
        if (card is not None and card.effect is _CE_TREASURE
                and self.pending >= card.amount):
            self.draw_for = seat
            self._draw_item(_AD_END)
            return
        self._end_turn()

    # ------------------------------------------------------------------ end of turn
    def _end_turn(self) -> None:
        self.mode = _M_NONE
        self.damage = 0  # D6.4: the dragon heals
        self.pending = 0  # banked or lost: nothing is pending between turns
        gained = self.gained
        for s in range(self.num_players):
            if gained[s]:
                self.items[s] += gained[s]
                gained[s] = []
        self._check_limits()

    def _check_limits(self) -> None:
        """D8.3: each player keeps at most their limit of items, choosing which."""
        for s in range(self.num_players):
            held = len(self.items[s])
            if held > 1 and held > self.item_limit(s):  # the limit is at least 1
                self._ask(s, _D_DISCARD, [self.space.discard[i] for i in set(self.items[s])])
                return
        max_turns = self.game.max_turns
        if max_turns is not None and self.turn >= max_turns:
            self.stop_at_limit("farkle.end.turn_limit")
            return
        self.turn += 1
        self._start_turn((self.player + 1) % self.num_players)

    def stop_at_limit(self, reason: str) -> None:
        """End the game now as the turn limit does: the largest army wins, ties shared.
        ``reason``: ``farkle.end.turn_limit`` at the table's own limit; anything else (a
        caller's length bound) ends it as ``farkle.end.stopped``."""
        best = max(self.armies)
        winners = tuple(s for s, a in enumerate(self.armies) if a == best)
        if reason == "farkle.end.turn_limit":
            self._game_over(winners, reason, turns=self.turn, seats=list(winners))
        else:
            self._game_over(winners, "farkle.end.stopped", turn=self.turn,
                            seats=list(winners))

    def _game_over(self, winners: tuple[int, ...], reason: str, **params: Any) -> None:
        self.phase = _P_OVER
        self.to_move = ()
        self.dec = None
        self.dec_legal = ()
        self.winners = winners
        self.end_reason = reason
        self.end_params = params
        self._e(reason, None, *params.values())
