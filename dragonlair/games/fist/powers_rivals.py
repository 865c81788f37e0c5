"""Power primitives aimed at the other players (F6, F7, F8): the Thief, the Brigand and the
Troll. Each keeps its begin and its resolve together
(:mod:`dragonlair.games.fist.powers_run`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import COLOURS, FistAction
from dragonlair.games.fist.pending import Dec, Decision
from dragonlair.games.fist.powers_run import ask, asked, begins, resolves

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState


# ---------------------------------------------------------------------------- Thief
def steal_options(st: FistState) -> list[FistAction]:
    """A stone of a second-highest bidder who has one, else a coin of one (F6 Thief)."""
    space = st.space
    players = st.players
    cands = st.second
    with_stones = [s for s in cands if any(players[s].stones)]
    if with_stones:  # F6 Thief: one who has a stone when any has
        return [space.steal[s][c] for s in with_stones for c in range(3)
                if players[s].stones[c]]
    return [space.steal[s][3] for s in cands]


@begins(pw.StealSecond)
def begin_steal(st: FistState, step: pw.StealSecond, k: int) -> bool:
    return ask(st, Dec.STEAL, k, steal_options(st))


@resolves(Dec.STEAL)
def resolve_steal(st: FistState, decision: Decision, action: FistAction) -> None:
    w = st.winner
    v = action.seat
    assert w is not None and v is not None
    victim = st.players[v]
    thief = st.players[w]
    c = action.colour
    if c is not None:
        victim.stones[c] -= 1
        thief.stones[c] += 1
        st._e("fist.thief.stone", None, w, v, COLOURS[c])
        return
    if victim.common:
        victim.common -= 1
        thief.common += 1
        what = "common"
    elif victim.fairy:
        victim.fairy -= 1
        thief.fairy += 1
        what = "fairy"
    elif victim.fairy_spent:
        victim.fairy_spent -= 1
        thief.fairy_spent += 1
        what = "fairy_spent"
    else:
        what = "none"
    # which coin left a screen is private to the two of them (F8)
    st._e("fist.thief.coin", None, w, v)
    st._e("fist.thief.coin_taken", w, w, v, what)
    st._e("fist.thief.coin_taken", v, w, v, what)


# ---------------------------------------------------------------------------- Brigand
@begins(pw.TakeAllFrom)
def begin_take_all(st: FistState, step: pw.TakeAllFrom, k: int) -> bool:
    w = st.winner
    targets = [st.space.target[s] for s in range(st.num_players) if s != w]
    return ask(st, Dec.TARGET, k, targets, step)


@resolves(Dec.TARGET)
def resolve_take_all(st: FistState, decision: Decision, action: FistAction) -> None:
    w = st.winner
    target = action.seat
    step = asked(decision, pw.TakeAllFrom)
    assert w is not None and target is not None
    victim = st.players[target]
    me = st.players[w]
    common = victim.common if step.common else 0
    silver = victim.silver if step.silver else 0
    victim.common -= common
    victim.silver -= silver
    me.common += common
    me.silver += silver
    # the amount is private to the two of them (F7 Brigand, F8)
    st._e("fist.brigand.chose", None, w, target)
    st._e("fist.brigand.handed", w, w, target, common, silver)
    st._e("fist.brigand.handed", target, w, target, common, silver)


# ---------------------------------------------------------------------------- Troll
@begins(pw.LoseColour)
def begin_lose_colour(st: FistState, step: pw.LoseColour, k: int) -> bool:
    return ask(st, Dec.COLOUR_TROLL, k, st.space.colour)


@resolves(Dec.COLOUR_TROLL)
def resolve_lose_colour(st: FistState, decision: Decision, action: FistAction) -> None:
    w = st.winner
    c = action.colour
    assert c is not None
    bank = st.bank
    st._e("fist.troll.named", None, w, COLOURS[c])
    for s, q in enumerate(st.players):
        if q.stones[c]:
            st._e("fist.troll.returned", None, s, COLOURS[c], q.stones[c])
        bank.stones[c] += q.stones[c]
        q.stones[c] = 0
