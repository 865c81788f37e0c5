"""Power primitives that move cards (F7): the Doppelganger (kept, played twice, discarded),
the Ghost's copy of an auctioned card, and the Goblin's and the Imp's card of the pile.
Each keeps its begin and its resolve together (:mod:`dragonlair.games.fist.powers_run`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import FistAction, Kind
from dragonlair.games.fist.pending import Dec, Decision, Draw, PowerChance
from dragonlair.games.fist.powers_run import ask, begins, draw, drawn, push_power, resolves

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState


# ---------------------------------------------------------------------------- Doppelganger
def offer_double(st: FistState, k: int) -> None:
    """The winner holds the Doppelganger: play it on card ``k``'s power? (F7)"""
    space = st.space
    ask(st, Dec.DOUBLE, k, (space.double, space.single), auto=False)


@resolves(Dec.DOUBLE)
def resolve_double(st: FistState, decision: Decision, action: FistAction) -> None:
    k = decision.card
    if action.kind != Kind.DOUBLE:
        push_power(st, k, 1)
        return
    st._e("fist.doppelganger.played", None, st.winner, st.cards[k].id)
    # twice in a row, *then* the card goes to the discard pile (F7): while the doubled
    # power runs, its holder still holds it (a Ghost cannot take it back)
    st.stack.append((pw.DiscardDoppelganger(), k))
    push_power(st, k, 2)


@begins(pw.DiscardDoppelganger)
def begin_discard_doppelganger(st: FistState, step: pw.DiscardDoppelganger, k: int) -> bool:
    w = st.winner
    dop = st.game.doppelganger
    assert dop is not None and st.doppel_holder == w
    st.doppel_holder = None
    st.special_discard[dop] += 1
    st._e("fist.doppelganger.discarded", None, w)
    return False


@begins(pw.KeepDoppelganger)
def begin_keep_doppelganger(st: FistState, step: pw.KeepDoppelganger, k: int) -> bool:
    if st.doppel_holder is not None:
        return False  # someone holds it: nothing (F7 Ghost)
    dop = st.game.doppelganger
    if dop is None:
        return False
    if dop in st.turn_specials:
        st.turn_specials.remove(dop)
    elif st.special_discard[dop]:
        st.special_discard[dop] -= 1
    else:
        return False
    st.doppel_holder = st.winner
    st._e("fist.doppelganger.kept", None, st.winner)
    return False


# ---------------------------------------------------------------------------- Ghost
@begins(pw.CopyAuctioned)
def begin_copy(st: FistState, step: pw.CopyAuctioned, k: int) -> bool:
    seen = sorted({c for c in st.auctioned if c != k})
    if not seen:
        return False
    pick = st.space.pick
    return ask(st, Dec.PICK_GHOST, k, [pick[c] for c in seen])


@resolves(Dec.PICK_GHOST)
def resolve_copy(st: FistState, decision: Decision, action: FistAction) -> None:
    c = action.card
    assert c is not None
    st._e("fist.ghost.copied", None, st.winner, st.cards[c].id)
    push_power(st, c)


# ---------------------------------------------------------------------------- Goblin, Imp
def play_from_pile(st: FistState, c: int) -> None:
    """Card ``c`` leaves the turn's pile, unauctioned, and its power runs (F7)."""
    st.pile[c] -= 1
    st.pile_total -= 1
    st.auctioned.append(c)
    push_power(st, c)


@begins(pw.PlayUnauctioned)
def begin_play_unauctioned(st: FistState, step: pw.PlayUnauctioned, k: int) -> bool:
    if not st.pile_total:
        return False
    if step.choose:
        pick = st.space.pick
        return ask(st, Dec.PICK_IMP, k, [pick[c] for c, n in enumerate(st.pile) if n])
    return draw(st, PowerChance.GOBLIN, k)


@resolves(Dec.PICK_IMP)
def resolve_play_unauctioned(st: FistState, decision: Decision, action: FistAction) -> None:
    c = action.card
    assert c is not None
    st._e("fist.imp.played", None, st.winner, st.cards[c].id)
    play_from_pile(st, c)


@drawn(PowerChance.GOBLIN)
def drawn_unauctioned(st: FistState, pending: Draw, action: FistAction) -> None:
    c = action.card
    assert c is not None
    st._e("fist.goblin.drew", None, st.winner, st.cards[c].id)
    play_from_pile(st, c)
