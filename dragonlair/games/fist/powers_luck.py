"""Power primitives that draw stones at random (F7): the Rainbow Dragon's push-your-luck and
the Two-headed Dragon's bag. Each keeps its begin, its resolve and its draws together
(:mod:`dragonlair.games.fist.powers_run`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import COLOURS, FistAction, Kind
from dragonlair.games.fist.pending import Dec, Decision, Draw, PowerChance
from dragonlair.games.fist.powers_run import ask, begins, draw, drawn, resolves

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState


# ---------------------------------------------------------------------------- Rainbow Dragon
@begins(pw.PushYourLuck)
def begin_rainbow(st: FistState, step: pw.PushYourLuck, k: int) -> bool:
    """Name a colour the bank has; then draw (:func:`resolve_rainbow_colour`)."""
    space = st.space
    stones = st.bank.stones
    cols = [space.colour[c] for c in range(3) if stones[c]]
    if not cols:
        return False
    return ask(st, Dec.COLOUR_RAINBOW, k, cols)


@resolves(Dec.COLOUR_RAINBOW)
def resolve_rainbow_colour(st: FistState, decision: Decision, action: FistAction) -> None:
    c = action.colour
    assert c is not None
    st._e("fist.rainbow.named", None, st.winner, COLOURS[c])
    st.rainbow_colour = c
    st.drawn = [0, 0, 0]
    draw(st, PowerChance.RAINBOW, decision.card)


@drawn(PowerChance.RAINBOW)
def drawn_rainbow(st: FistState, pending: Draw, action: FistAction) -> None:
    """A stone out of the bank: the named colour busts; else draw again or stop."""
    w = st.winner
    c = action.colour
    assert c is not None
    bank = st.bank
    bank.stones[c] -= 1
    st.drawn[c] += 1
    st._e("fist.rainbow.drawn", None, w, COLOURS[c])
    if c == st.rainbow_colour:
        st._e("fist.rainbow.bust", None, w, COLOURS[c])
        for i in range(3):
            bank.stones[i] += st.drawn[i]
        st.drawn = [0, 0, 0]
    elif any(bank.stones):
        space = st.space
        ask(st, Dec.RAINBOW_MORE, pending.card, (space.draw, space.stop), auto=False)
    else:
        keep_drawn(st)  # the bank is empty: keep what was drawn


@resolves(Dec.RAINBOW_MORE)
def resolve_rainbow_more(st: FistState, decision: Decision, action: FistAction) -> None:
    if action.kind == Kind.DRAW:
        draw(st, PowerChance.RAINBOW, decision.card)
    else:
        keep_drawn(st)


def keep_drawn(st: FistState) -> None:
    """The winner keeps the stones drawn."""
    w = st.winner
    assert w is not None
    drawn_stones = st.drawn
    st._e("fist.rainbow.kept", None, w, *drawn_stones)
    p = st.players[w]
    for c in range(3):
        p.stones[c] += drawn_stones[c]
    st.drawn = [0, 0, 0]


# ---------------------------------------------------------------------------- the bag
@begins(pw.BagDraw)
def begin_bag(st: FistState, step: pw.BagDraw, k: int) -> bool:
    """Stones into the bag, then ``draws`` of them drawn (:func:`drawn_bag`)."""
    stones = st.bank.stones
    st.bag = [min(step.per_colour, stones[c]) for c in range(3)]
    st.bag_draws = min(step.draws, sum(st.bag))
    if not st.bag_draws:
        return False
    return draw(st, PowerChance.BAG, k)


@drawn(PowerChance.BAG)
def drawn_bag(st: FistState, pending: Draw, action: FistAction) -> None:
    w = st.winner
    c = action.colour
    assert w is not None and c is not None
    st._e("fist.bag.drawn", None, w, COLOURS[c])
    st.bag[c] -= 1
    st.bank.stones[c] -= 1
    st.players[w].stones[c] += 1
    st.bag_draws -= 1
    if st.bag_draws:
        draw(st, PowerChance.BAG, pending.card)
        return
    st.bag = [0, 0, 0]
