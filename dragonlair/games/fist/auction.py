"""Fist auctions (F5): sealed bids, their reveal, the Silver tie-break and who wins.

Functions of a :class:`~dragonlair.games.fist.state.FistState`; the state's ``apply`` hands
them each sealed bid. The events of an auction are stored as one node at its reveal
(:mod:`dragonlair.games.fist.events`); until then :func:`pending_events` derives them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dragonlair.core.errors import IllegalActionError
from dragonlair.core.events import Event
from dragonlair.core.game import CHANCE
from dragonlair.games.fist.actions import FistAction, Kind
from dragonlair.games.fist.events import REVEAL, REVEAL_SILVER, submit_events
from dragonlair.games.fist.holdings import TOTALS
from dragonlair.games.fist.pending import Phase
from dragonlair.games.fist.powers_cards import offer_double
from dragonlair.games.fist.powers_run import push_power
from dragonlair.games.fist.powers_run import run as run_power

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState

_P_BID = Phase.BID
_P_REVEAL = Phase.REVEAL
_P_TIEBID = Phase.TIEBID
_K_BID = Kind.BID
_K_SILVER = Kind.SILVER
_BLACK_MAX = TOTALS["black"]
_CHANCE_ONLY = (CHANCE,)


def card_id(st: FistState) -> str:
    """The id of the card up for auction."""
    assert st.current is not None
    return st.cards[st.current].id


def start(st: FistState, k: int) -> None:
    """Card ``k`` is up for auction: every seat bids, sealed (F5.1)."""
    st.current = k
    st.phase = _P_BID
    st.bids = [None] * st.num_players
    st.winner = None
    st.second = ()
    st.necro_paid = False
    st.tied = ()
    st.sealed_from = len(st._history)
    st.to_move = st._all_seats


def pending_events(st: FistState) -> list[Event]:
    """The events of the auction under way, stored only at its reveal (one node per
    auction keeps the hot path cheap): the card up for auction, and each sealed bid
    handed in (public: that it was; its owner: the bid)."""
    ph = st.phase
    if ph is _P_BID:
        return [Event("fist.auction.card", {"card": card_id(st)}),
                *submit_events(st._history[st.sealed_from:])]
    if ph is _P_TIEBID:
        return submit_events(st._history[st.sealed_from:])
    return []


def pending_count(st: FistState) -> int:
    """How many events :func:`pending_events` gives (without building them)."""
    ph = st.phase
    if ph is _P_BID:
        return 1 + 2 * (len(st._history) - st.sealed_from)
    if ph is _P_TIEBID:
        return 2 * (len(st._history) - st.sealed_from)
    return 0


# ---------------------------------------------------------------------------- refusals
def bid_refusal(st: FistState, seat: int, action: FistAction) -> IllegalActionError | None:
    """Why ``action`` is no sealed bid ``seat`` may hand in now (F5.1, F6), or None if it is
    one: the one check of a sealed bid (the engine's ``apply`` calls it on every bid)."""
    p = st.players[seat]
    if not isinstance(action, FistAction) or action.kind is not _K_BID:
        return IllegalActionError("fist.bid.not_a_bid", rule="F5.1", seat=seat,
                                  action=str(action))
    if action.fairy <= p.fairy and action.common <= p.common and (
            p.black or not action.black) and (p.amulet or not action.amulet) \
            and st.bids[seat] is None:
        return None
    if st.bids[seat] is not None:
        return IllegalActionError("fist.bid.already_bid", rule="F5.1", seat=seat)
    if action.fairy > p.fairy:
        return IllegalActionError("fist.bid.exceeds_unspent", rule="F5.1", seat=seat,
                                  coin="fairy", bid=action.fairy, have=p.fairy)
    if action.common > p.common:
        return IllegalActionError("fist.bid.exceeds_unspent", rule="F5.1", seat=seat,
                                  coin="common", bid=action.common, have=p.common)
    if action.black and not p.black:
        return IllegalActionError("fist.bid.no_black", rule="F6", seat=seat)
    return IllegalActionError("fist.bid.no_amulet", rule="F5.1", seat=seat)


def silver_refusal(st: FistState, seat: int, action: FistAction) -> IllegalActionError | None:
    """Why ``action`` is no tie-break bid ``seat`` may hand in now (F5.7), or None if it is
    one: the one check of a Silver bid."""
    p = st.players[seat]
    if not isinstance(action, FistAction) or action.kind is not _K_SILVER:
        return IllegalActionError("fist.tiebreak.not_silver", rule="F5.7", seat=seat,
                                  action=str(action))
    if action.silver <= p.silver and (p.amulet or not action.amulet) \
            and st.bids[seat] is None:
        return None
    if st.bids[seat] is not None:
        return IllegalActionError("fist.tiebreak.already_bid", rule="F5.7", seat=seat)
    if action.silver > p.silver:
        return IllegalActionError("fist.bid.exceeds_unspent", rule="F5.7", seat=seat,
                                  coin="silver", bid=action.silver, have=p.silver)
    return IllegalActionError("fist.bid.no_amulet", rule="F5.7", seat=seat)


# ---------------------------------------------------------------------------- bids
def submit(st: FistState, seat: int, action: FistAction) -> None:
    """``seat`` hands in its sealed (tie-break) bid, already checked; the last one
    reveals them all."""
    st._history.append((seat, action))
    st.bids[seat] = action
    to_move = st.to_move
    if to_move[0] == seat:
        to_move = to_move[1:]
    else:
        i = to_move.index(seat)
        to_move = to_move[:i] + to_move[i + 1:]
    st.to_move = to_move
    if to_move:
        return
    if st.phase is _P_BID:
        reveal_bids(st)
    else:
        reveal_silver(st)


def reveal_bids(st: FistState) -> None:
    """Every bid is in: pay them (F5.3), then curse, pass, win or tie (F5.4-F5.7)."""
    bank = st.bank
    cursed = False
    values = st.values
    players = st.players
    auction_fairy = st.auction_fairy
    bids: list[FistAction] = st.bids  # type: ignore[assignment]  # all in
    s = 0
    for bid in bids:
        p = players[s]
        f = bid.fairy
        if f:
            p.fairy -= f  # F5.3
            p.fairy_spent += f
        c = bid.common
        if c:
            p.common -= c
            bank.common += c
        if bid.black:
            p.black -= 1
            bank.black = min(_BLACK_MAX, bank.black + 1)
            cursed = True
        if bid.amulet:
            p.amulet -= 1
            bank.amulet += 1
        values[s] = bid.value
        auction_fairy[s] = f
        s += 1
    k = st.current
    assert k is not None
    # the auction's events, from the card to its result, in one node (events.py)
    history = st._history
    end_at = len(history)
    st._ev = ((REVEAL, st.cards[k].id, history, st.sealed_from, end_at),  # type: ignore
              st._ev)
    st._nev += 3 * s + 2
    st.sealed_from = end_at
    if cursed:  # F5.4
        end(st)
        return
    top = max(values)
    if top == 0:  # F5.5
        end(st)
        return
    if values.count(top) == 1:  # F5.6
        winner = values.index(top)
        rest = max(values[:winner] + values[winner + 1:])  # below top: not the winner's
        second = []
        for s, v in enumerate(values):
            if v == rest:
                second.append(s)
        st.second = tuple(second)
        win(st, winner)
        return
    tied = tuple([s for s, v in enumerate(values) if v == top])
    st.tied = tied  # F5.7
    st.phase = _P_TIEBID
    st.bids = [None] * st.num_players
    st.to_move = tied


def reveal_silver(st: FistState) -> None:
    """Every tied seat's Silver is in: pay it; the one highest wins, else nobody (F5.7)."""
    bank = st.bank
    vals: dict[int, int] = {}
    for s in st.tied:
        bid = st.bids[s]
        assert bid is not None
        p = st.players[s]
        p.silver -= bid.silver
        bank.silver += bid.silver
        if bid.amulet:
            p.amulet -= 1
            bank.amulet += 1
        vals[s] = bid.value
    k = st.current
    assert k is not None
    end_at = len(st._history)
    st._ev = ((REVEAL_SILVER, st.cards[k].id, st._history, st.sealed_from, end_at,  # type: ignore
               st.tied), st._ev)
    st._nev += 3 * len(vals) + 1
    st.sealed_from = end_at
    top = max(vals.values())
    best = [s for s, v in vals.items() if v == top]
    if len(best) != 1:
        end(st)
        return
    winner = best[0]
    others = [v for s, v in vals.items() if s != winner]
    second = max(others)
    st.second = tuple(s for s, v in vals.items() if s != winner and v == second)
    win(st, winner)


def win(st: FistState, winner: int) -> None:
    """``winner`` takes the card's power (F5.6), doubled if they play the Doppelganger."""
    st.winner = winner
    k = st.current
    assert k is not None
    if st.doppel_holder == winner and not st.game.is_necromancer[k]:
        offer_double(st, k)
        return
    push_power(st, k)
    if run_power(st):
        end(st)


def end(st: FistState) -> None:
    """The auction is over: the next card, or the end of the turn (F4.2, F4.4)."""
    st.winner = None
    st.stack.clear()
    if st.pile_total == 0:
        st._end_turn()
    else:
        st.phase = _P_REVEAL
        st.to_move = _CHANCE_ONLY
