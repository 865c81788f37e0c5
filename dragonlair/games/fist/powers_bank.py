"""Power primitives that deal with the bank (F1, F6, F7): gains, stones paid for points,
the Merchant's purchases and the Necromancer's price. Each keeps its begin and its resolve
together (:mod:`dragonlair.games.fist.powers_run`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import COLOURS, CURRENCIES, FistAction, Kind
from dragonlair.games.fist.holdings import Player
from dragonlair.games.fist.pending import Dec, Decision
from dragonlair.games.fist.powers_run import ask, asked, begins, resolves

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState


# ---------------------------------------------------------------------------- gains
def gain(st: FistState, w: int, p: Player, g: pw.Gain) -> None:
    """``w`` (player ``p``) takes ``g`` from the bank, what it has (F1); public (F8)."""
    bank = st.bank
    e = st._e
    if g.fairy:
        n = min(g.fairy, bank.fairy)
        bank.fairy -= n
        p.fairy += n
        e("fist.gain.fairy", None, w, n)
    if g.common:
        n = min(g.common, bank.common)
        bank.common -= n
        p.common += n
        e("fist.gain.common", None, w, n)
    if g.silver:
        n = min(g.silver, bank.silver)
        bank.silver -= n
        p.silver += n
        e("fist.gain.silver", None, w, n)
    if g.amulet:
        n = min(g.amulet, bank.amulet)
        bank.amulet -= n
        p.amulet += n
        e("fist.gain.amulet", None, w, n)
    if g.black:
        p.black += g.black  # never short (F1): a missing coin is improvised
        bank.black = max(0, bank.black - g.black)
        e("fist.gain.black", None, w, g.black)
    stones = g.stones
    if stones[0] or stones[1] or stones[2]:
        for c in range(3):
            if stones[c]:
                n = min(stones[c], bank.stones[c])
                bank.stones[c] -= n
                p.stones[c] += n
                e("fist.gain.stones", None, w, COLOURS[c], n)


@begins(pw.Gain)
def begin_gain(st: FistState, step: pw.Gain, k: int) -> bool:
    w = st.winner
    assert w is not None
    gain(st, w, st.players[w], step)
    return False


@begins(pw.GainStoneChoice)
def begin_gain_stone_choice(st: FistState, step: pw.GainStoneChoice, k: int) -> bool:
    """One stone of a colour the bank has, ``count`` times (Ancient Dragon)."""
    st.stack.extend([(pw.GainStoneChoice(1), k)] * (step.count - 1))
    space = st.space
    stones = st.bank.stones
    cols = [space.colour[c] for c in range(3) if stones[c]]
    if not cols:
        return False
    return ask(st, Dec.COLOUR_GAIN, k, cols)


@resolves(Dec.COLOUR_GAIN)
def resolve_gain_stone(st: FistState, decision: Decision, action: FistAction) -> None:
    w = st.winner
    c = action.colour
    assert w is not None and c is not None
    st.bank.stones[c] -= 1
    st.players[w].stones[c] += 1
    st._e("fist.gain.stones", None, w, COLOURS[c], 1)


# ---------------------------------------------------------------------------- paying stones
@begins(pw.Choice)
def begin_choice(st: FistState, step: pw.Choice, k: int) -> bool:
    """Pay stones for points, or take the alternative (Magician, Sorcerer...)."""
    w = st.winner
    assert w is not None
    space = st.space
    pays = [space.pay[x] for x in pw.payments(st.players[w].stones, step.pay)]
    return ask(st, Dec.CHOICE, k, [*pays, space.take], step)


@begins(pw.PayStones)
def begin_pay(st: FistState, step: pw.PayStones, k: int) -> bool:
    """Pay stones for points, if affordable: mandatory (Apprentice)."""
    w = st.winner
    assert w is not None
    space = st.space
    pays = [space.pay[x] for x in pw.payments(st.players[w].stones, step)]
    if not pays:
        return False
    return ask(st, Dec.PAY, k, pays, step)


@resolves(Dec.CHOICE)
def resolve_choice(st: FistState, decision: Decision, action: FistAction) -> None:
    w = st.winner
    assert w is not None
    step = asked(decision, pw.Choice)
    if action.kind == Kind.TAKE:
        gain(st, w, st.players[w], step.alternative)
        return
    pay_stones(st, w, step.pay, action)


@resolves(Dec.PAY)
def resolve_pay(st: FistState, decision: Decision, action: FistAction) -> None:
    w = st.winner
    assert w is not None
    pay_stones(st, w, asked(decision, pw.PayStones), action)


def pay_stones(st: FistState, w: int, pay: pw.PayStones, action: FistAction) -> None:
    """``w`` pays the stones of ``action`` to the bank for ``pay``'s points."""
    p = st.players[w]
    bank = st.bank
    st._e("fist.power.paid_stones", None, w, *action.stones)
    for c, n in enumerate(action.stones):
        p.stones[c] -= n
        bank.stones[c] += n
    st._add_points(w, pay.points)


@begins(pw.PayAllStones)
def begin_pay_all(st: FistState, step: pw.PayAllStones, k: int) -> bool:
    """Every stone back to the bank for points (Quack Wizard)."""
    w = st.winner
    assert w is not None
    p = st.players[w]
    bank = st.bank
    st._e("fist.quack.paid", None, w, *p.stones)
    for c in range(3):
        bank.stones[c] += p.stones[c]
        p.stones[c] = 0
    st._add_points(w, step.points)
    return False


# ---------------------------------------------------------------------------- Merchant
def buy_options(st: FistState, p: Player, step: pw.BuyStones) -> list[FistAction]:
    """Each stone the bank has, with each coin ``p`` can pay its price in; and done."""
    space = st.space
    prices = (step.common, step.fairy, step.silver)
    have = (p.common, p.fairy, p.silver)
    out = [space.buy[c][m] for c in range(3) if st.bank.stones[c]
           for m in range(3) if prices[m] and have[m] >= prices[m]]
    out.append(space.done)
    return out


@begins(pw.BuyStones)
def begin_buy(st: FistState, step: pw.BuyStones, k: int) -> bool:
    w = st.winner
    assert w is not None
    return ask(st, Dec.BUY, k, buy_options(st, st.players[w], step), step, auto=False)


@resolves(Dec.BUY)
def resolve_buy(st: FistState, decision: Decision, action: FistAction) -> None:
    """One stone bought, then asked again; or done."""
    if action.kind != Kind.BUY:
        return
    w = st.winner
    m, c = action.currency, action.colour
    step = asked(decision, pw.BuyStones)
    assert w is not None and m is not None and c is not None
    p = st.players[w]
    bank = st.bank
    price = (step.common, step.fairy, step.silver)[m]
    if m == 0:
        p.common -= price
        bank.common += price
    elif m == 1:
        p.fairy -= price
        bank.fairy += price
    else:
        p.silver -= price
        bank.silver += price
    bank.stones[c] -= 1
    p.stones[c] += 1
    st._e("fist.merchant.bought", None, w, COLOURS[c], CURRENCIES[m], price)
    ask(st, Dec.BUY, decision.card, buy_options(st, p, step), step, auto=False)


# ---------------------------------------------------------------------------- Necromancer
@begins(pw.Necromancer)
def begin_necromancer(st: FistState, step: pw.Necromancer, k: int) -> bool:
    if st.necro_paid:
        return False  # the coins of this auction are already paid (docs/rulings.md)
    space = st.space
    return ask(st, Dec.NECRO, k, (space.accept, space.decline), step, auto=False)


@resolves(Dec.NECRO)
def resolve_necromancer(st: FistState, decision: Decision, action: FistAction) -> None:
    w = st.winner
    assert w is not None
    if action.kind != Kind.ACCEPT:
        st._e("fist.necromancer.declined", None, w)
        return
    step = asked(decision, pw.Necromancer)
    p = st.players[w]
    paid = min(st.auction_fairy[w], p.fairy_spent)
    p.fairy_spent -= paid
    st.bank.fairy += paid
    st.necro_paid = True
    st._e("fist.necromancer.paid", None, w, paid)
    st._add_points(w, step.points)
