"""The turn flow of Dragon Farkle (D3, D4, D8): the setup and the other chance events, the
start of a turn and the action chosen, rolling, setting dice aside, the alliance, banking,
farkles, item draws and the end of a turn (item limits, the turn limit).

Functions over a :class:`~dragonlair.games.farkle.state.FarkleState`: ``FarkleState.apply``
hands each chance event to :func:`on_chance` and each decision to :func:`on_decision`; the
end of a Skirmish and the Final Battle are in :mod:`.fight`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dragonlair.games.farkle import fight
from dragonlair.games.farkle.actions import (
    ALLIANCE,
    BLANK,
    DICE_COUNT,
    DICE_SETS,
    DRAGON,
    FarkleAction,
    Kind,
)
from dragonlair.games.farkle.base import (
    BATTLE_ARMY,
    ask,
    ask_sorted,
    begin,
    companion_of,
    emit,
    has,
    item_limit,
    keep_choices,
    move,
    take_companion,
    take_item,
    to_chance,
    usable_items,
    use_item,
)
from dragonlair.games.farkle.cards import CompanionEffect, ItemEffect, Window
from dragonlair.games.farkle.enums import AfterDraw, Dec, Mode, Phase, Power

if TYPE_CHECKING:
    from dragonlair.games.farkle.state import FarkleState

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


# ------------------------------------------------------------------ chance
def on_chance(state: FarkleState, action: FarkleAction, index: int) -> None:
    k = action.kind
    if k is _K_DICE:  # a roll (the most frequent event; never one in the setup)
        state.roll = DICE_SETS[action.dice]
        state.event = action.event
        state._ev = (("farkle.roll.rolled", None, state.roller, action.dice, action.event),
                     state._ev)  # inlined emit (a hot path)
        state._nev += 1
        if state.asked:  # (each state has its own set: clone copies it)
            state.asked = set()
        resolve_roll(state)
    elif state.phase is _P_SETUP:
        n = state.num_players
        if state.setup_step < n:
            take_companion(state, action.card)
            state.companions[state.setup_step] = action.card
            emit(state, "farkle.setup.companion", None, state.setup_step,
                 state.game.companions[action.card].id)
        elif state.setup_step < 2 * n:
            seat = state.setup_step - n
            take_item(state, action.card)
            state.items[seat].append(action.card)
            state.hidden_for[index] = seat
            emit(state, "farkle.setup.item", None, seat)
            emit(state, "farkle.setup.item_own", seat, seat, state.game.items[action.card].id)
        else:
            state.turn = 1
            emit(state, "farkle.setup.start", None, action.seat)
            start_turn(state, action.seat)
            return
        state.setup_step += 1
        to_chance(state, _P_SETUP)
    elif k is _K_DRAW_COMPANION:
        take_companion(state, action.card)
        state.companions[state.player] = action.card
        state.needs_companion[state.player] = False
        emit(state, "farkle.companion.new", None, state.player,
             state.game.companions[action.card].id)
        choose(state)
    elif k is _K_DRAW_ITEM:
        take_item(state, action.card)
        state.gained[state.draw_for].append(action.card)
        state.hidden_for[index] = state.draw_for
        emit(state, "farkle.item.drawn", None, state.draw_for)
        emit(state, "farkle.item.drawn_own", state.draw_for, state.draw_for,
             state.game.items[action.card].id)
        then, state.after_draw = state.after_draw, _AD_NOTHING
        if then is _AD_END:
            end_turn(state)
        else:
            ask_continue(state)
    elif k is _K_DIE:
        emit(state, "farkle.roll.die", None, state.roller, action.face)
        c = list(state.roll)
        c[action.face - 1] += 1
        state.roll = (c[0], c[1], c[2], c[3], c[4], c[5])
        resolve_roll(state)


# ------------------------------------------------------------------ turns (D3)
def start_turn(state: FarkleState, seat: int) -> None:
    state.player = seat
    state.mode = _M_NONE
    if state.used:
        state.used = set()
    state.damage = 0
    state.start_army = state.armies[seat]
    state._ev = (("farkle.turn.start", None, state.turn, seat, state.start_army),
                 state._ev)  # inlined emit (a hot path)
    state._nev += 1
    if state.needs_companion[seat]:  # D7: a new companion at the start of the turn
        to_chance(state, _P_COMPANION)
        return
    choose(state)


def choose(state: FarkleState) -> None:
    seat = state.player
    sp = state.space
    legal = [sp.recruit]
    legal += [sp.skirmish[s] for s in range(state.num_players)
              if s != seat and not state.in_lair[s]]
    if state.start_army >= BATTLE_ARMY or state.in_lair[seat]:
        legal.append(sp.battle)
    if has(state, seat, _CE_SCARE) and _PW_SCARE not in state.used:
        legal += [sp.scare[s] for s in range(state.num_players) if s != seat]
    usable = usable_items(state, seat, _W_START)
    if usable:
        ask(state, seat, None, legal + usable, _P_CHOOSE)
    else:  # recruit, skirmish, battle, scare: built in index order
        ask_sorted(state, seat, None, tuple(legal), _P_CHOOSE)


def on_decision(state: FarkleState, seat: int, action: FarkleAction) -> None:
    k = action.kind
    sp = state.space
    if state.phase is _P_CHOOSE:
        if k is _K_SCARE:
            state.used.add(_PW_SCARE)
            card = companion_of(state, seat)
            assert card is not None
            lost = -move(state, action.seat, -card.amount)
            emit(state, "farkle.power.scare", None, seat, card.id, action.seat, lost)
            if state.in_lair[action.seat] and state.armies[action.seat] == 0:
                fight.wipe_out(state, action.seat)  # D7: an army reduced to 0 in the Lair
            choose(state)
        elif k is _K_USE:
            card = state.game.items[action.card]
            use_item(state, seat, action.card)
            emit(state, "farkle.item.used", None, seat, card.id)
            gain = move(state, seat, card.amount)
            emit(state, "farkle.item.gain", None, seat, gain, state.armies[seat])
            choose(state)
        elif k is _K_RECRUIT:
            state.in_lair[seat] = False  # D7
            state._ev = (("farkle.choose.recruit", None, seat),
                         state._ev)  # inlined emit (a hot path)
            state._nev += 1
            begin(state, _M_RECRUIT, seat, 6)
        elif k is _K_SKIRMISH:
            state.in_lair[seat] = False
            state.attacker, state.defender = seat, action.seat
            state.attack_value = 0
            state._ev = (("farkle.choose.skirmish", None, seat, action.seat),
                         state._ev)  # inlined emit (a hot path)
            state._nev += 1
            begin(state, _M_SKIRMISH, seat, 6)
        else:
            state.in_lair[seat] = True  # D7: whoever fights is in the Lair
            state.damage = 0
            state.battle_bonus_used = set()
            emit(state, "farkle.choose.battle", None, seat, state.game.dragon)
            begin(state, _M_BATTLE, seat, 6)
        return
    dec = state.dec
    # the decisions exclude each other: the most frequent first
    if dec is _D_KEEP:
        info = state._keeps.get(state.roll) or keep_choices(state, state.roll)
        value = info[1][action.dice]
        state.hand_dice -= DICE_COUNT[action.dice]
        state.last_value = value
        code = ("farkle.keep.soldiers" if state.mode is not _M_SKIRMISH else
                "farkle.keep.defence" if seat == state.defender else "farkle.keep.attack")
        state._ev = ((code, None, seat, action.dice, value),
                     state._ev)  # inlined emit (a hot path)
        state._nev += 1
        if state.event is ALLIANCE:
            ask_sorted(state, state.roller, _D_ALLIANCE, (sp.double, sp.item))
            return
        state.pending += value
        ask_continue(state)
    elif dec is _D_CONTINUE:
        if k is _K_USE:
            card = state.game.items[action.card]
            use_item(state, seat, action.card)
            emit(state, "farkle.item.used", None, seat, card.id)
            if card.effect is _IE_PENDING_BONUS:
                state.pending += card.amount
            else:  # hot_dice
                state.hand_dice = 0
            ask_continue(state)
        elif k is _K_ROLL:
            if state.hand_dice == 0:
                state.hand_dice = state.full_dice  # hot dice
                emit(state, "farkle.roll.hot", None, seat, state.full_dice)
            to_chance(state, _P_ROLL)
        elif k is _K_BANK:
            bank(state)
        else:
            state._ev = (("farkle.skirmish.stop", None, seat, state.pending),
                         state._ev)  # inlined emit (a hot path)
            state._nev += 1
            fight.finish_side(state, state.pending)
    elif dec is _D_ALLIANCE:
        if k is _K_DOUBLE:
            state.pending += 2 * state.last_value
            emit(state, "farkle.alliance.double", None, seat, 2 * state.last_value,
                 state.pending)
            ask_continue(state)
        else:
            state.pending += state.last_value
            emit(state, "farkle.alliance.item", None, seat)
            state.draw_for = state.roller
            draw_item(state, _AD_CONTINUE)
    elif dec is _D_FARKLE:
        if k is _K_USE:
            use_item(state, seat, action.card)
            emit(state, "farkle.item.ignore_farkle", None, seat, state.game.items[action.card].id)
            state.roll = (0, 0, 0, 0, 0, 0)
            to_chance(state, _P_ROLL)  # the same dice again
        else:
            farkle(state)
    elif dec is _D_TABBY:
        state.asked.add(_PW_TABBY)
        if k is _K_TABBY:
            state.used.add(_PW_TABBY)
            state.event = BLANK
            emit(state, "farkle.power.tabby", None, seat)
        else:
            emit(state, "farkle.power.pass", None, seat)
        resolve_roll(state)
    elif dec is _D_HICCUP:
        state.asked.add(_PW_HICCUP)
        if k is _K_REROLL:
            state.used.add(_PW_HICCUP)
            emit(state, "farkle.power.reroll", None, seat, action.face)
            c = list(state.roll)
            c[action.face - 1] -= 1
            state.roll = (c[0], c[1], c[2], c[3], c[4], c[5])
            to_chance(state, _P_DIE)
            return
        emit(state, "farkle.power.pass", None, seat)
        resolve_roll(state)
    elif dec is _D_KEEP_ITEM:
        keep = action.card
        emit(state, "farkle.item.kept", None, seat)
        emit(state, "farkle.item.kept_own", seat, seat, state.game.items[keep].id)
        state.gained[seat].remove(keep)  # one copy kept; any other (alike too) discarded
        for i in state.gained[seat]:
            state.item_discard[i] += 1
        state.gained[seat] = [keep]
        end_turn(state)
    elif dec is _D_DISCARD:
        emit(state, "farkle.item.discarded", None, seat)
        emit(state, "farkle.item.discarded_own", seat, seat, state.game.items[action.card].id)
        state.items[seat].remove(action.card)
        state.item_discard[action.card] += 1
        check_limits(state)


def draw_item(state: FarkleState, then: AfterDraw) -> None:
    if not any(state.item_deck) and not any(state.item_discard):
        emit(state, "farkle.item.none_left", None)
        if then is _AD_END:
            end_turn(state)
        else:
            ask_continue(state)
        return
    state.after_draw = then
    to_chance(state, _P_DRAW)


# ------------------------------------------------------------------ rolls (D4, D5)
def resolve_roll(state: FarkleState) -> None:
    if state.mode is _M_BATTLE:
        fight.battle_roll(state)
        return
    seat = state.roller
    sp = state.space
    if (state.event is DRAGON and state.mode is _M_RECRUIT and _PW_TABBY not in state.used
            and _PW_TABBY not in state.asked and has(state, seat, _CE_IGNORE_DRAGON)):
        ask_sorted(state, seat, _D_TABBY, (sp.tabby, sp.pass_))
        return
    if (state.mode is _M_SKIRMISH and _PW_HICCUP not in state.used
            and _PW_HICCUP not in state.asked and has(state, state.attacker, _CE_REROLL_ONE)):
        faces = [sp.reroll[f] for f in range(6) if state.roll[f]]
        ask(state, state.attacker, _D_HICCUP, [*faces, sp.pass_])
        return
    info = state._keeps.get(state.roll) or keep_choices(state, state.roll)  # (a hot path)
    keeps = info[0]
    if not keeps:
        if state.event is DRAGON:  # D4.3: the farkle is ignored
            emit(state, "farkle.roll.escape", None, seat)
            ask_continue(state)
            return
        # D8.4: a farkle item works during its owner's turn (not for a defender)
        usable = usable_items(state, seat, _W_FARKLE) if seat == state.player else []
        ask(state, seat, _D_FARKLE, [sp.farkle, *usable])
        return
    if state.event is DRAGON:  # D4.3: the dragon eats every scoring die
        eaten, value = info[2]
        state.hand_dice -= sum(eaten)
        emit(state, "farkle.roll.eaten", None, seat, eaten, value)
        ask_continue(state)
        return
    ask_sorted(state, seat, _D_KEEP, keeps)


def ask_continue(state: FarkleState) -> None:
    sp = state.space
    usable = usable_items(state, state.roller, _W_DECIDE)
    if usable:
        end = sp.bank if state.mode is _M_RECRUIT else sp.stop
        ask(state, state.roller, _D_CONTINUE, [sp.roll, end, *usable])
    else:
        ask_sorted(state, state.roller, _D_CONTINUE,
                   sp.roll_or_bank if state.mode is _M_RECRUIT else sp.roll_or_stop)


def farkle(state: FarkleState) -> None:
    seat = state.roller
    if state.mode is _M_RECRUIT:  # D4.2
        kept = 0
        if has(state, seat, _CE_FARKLE_KEEP_HALF):
            kept = state.pending // 2 // 50 * 50
            move(state, seat, kept)
        state._ev = (("farkle.recruit.farkle", None, seat, state.pending - kept, kept),
                     state._ev)  # inlined emit (a hot path)
        state._nev += 1
        for i in state.gained[seat]:
            state.item_discard[i] += 1
        state.gained[seat] = []
        state.pending = 0
        end_turn(state)
    elif state.mode is _M_SKIRMISH:
        emit(state, "farkle.skirmish.farkle", None, seat)
        fight.finish_side(state, 0)  # D5.1: a farkle makes the value 0
    else:
        emit(state, "farkle.battle.farkle", None, seat)
        end_turn(state)


def bank(state: FarkleState) -> None:
    seat = state.roller
    amount = state.pending
    card = companion_of(state, seat)
    bonus = 0
    if amount and card is not None and card.effect is _CE_BANK_BONUS:
        bonus = card.amount
        amount += bonus
    move(state, seat, amount)
    state._ev = (("farkle.recruit.bank", None, seat, amount, state.armies[seat]),
                 state._ev)  # inlined emit (a hot path)
    state._nev += 1
    if bonus and card is not None:
        emit(state, "farkle.recruit.bank_bonus", None, seat, card.id, bonus)
    if (card is not None and card.effect is _CE_TREASURE
            and state.pending >= card.amount):
        state.draw_for = seat
        draw_item(state, _AD_END)
        return
    end_turn(state)


# ------------------------------------------------------------------ end of turn
def end_turn(state: FarkleState) -> None:
    state.mode = _M_NONE
    state.damage = 0  # D6.4: the dragon heals
    state.pending = 0  # banked or lost: nothing is pending between turns
    gained = state.gained
    for s in range(state.num_players):
        if gained[s]:
            state.items[s] += gained[s]
            gained[s] = []
    check_limits(state)


def check_limits(state: FarkleState) -> None:
    """D8.3: each player keeps at most their limit of items, choosing which."""
    for s in range(state.num_players):
        held = len(state.items[s])
        if held > 1 and held > item_limit(state, s):  # the limit is at least 1
            ask(state, s, _D_DISCARD, [state.space.discard[i] for i in set(state.items[s])])
            return
    max_turns = state.game.max_turns
    if max_turns is not None and state.turn >= max_turns:
        stop_at_limit(state, "farkle.end.turn_limit")
        return
    state.turn += 1
    start_turn(state, (state.player + 1) % state.num_players)


def stop_at_limit(state: FarkleState, reason: str) -> None:
    """End the game now as the turn limit does: the largest army wins, ties shared.
    ``reason``: ``farkle.end.turn_limit`` at the table's own limit; anything else (a
    caller's length bound) ends it as ``farkle.end.stopped``."""
    best = max(state.armies)
    winners = tuple(s for s, a in enumerate(state.armies) if a == best)
    if reason == "farkle.end.turn_limit":
        game_over(state, winners, reason, turns=state.turn, seats=list(winners))
    else:
        game_over(state, winners, "farkle.end.stopped", turn=state.turn,
                  seats=list(winners))


def game_over(state: FarkleState, winners: tuple[int, ...], reason: str, **params: Any) -> None:
    state.phase = _P_OVER
    state.to_move = ()
    state.dec = None
    state.dec_legal = ()
    state.winners = winners
    state.end_reason = reason
    state.end_params = params
    emit(state, reason, None, *params.values())
