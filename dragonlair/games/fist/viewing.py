"""What each seat of a Fist game may know (F8): the view envelope of
:mod:`dragonlair.core.views` with the parts of :mod:`dragonlair.games.fist.views`, and the
whole state for tests and tools."""

from __future__ import annotations

import copy
from bisect import bisect_left
from collections.abc import Sequence
from itertools import chain, compress, repeat
from typing import TYPE_CHECKING, Any, cast

from dragonlair.core.errors import OptionError, shown
from dragonlair.core.game import CHANCE, JSON, check_seat_range
from dragonlair.core.views import envelope
from dragonlair.games.fist import auction
from dragonlair.games.fist.actions import COLOURS, bid_form, silver_form
from dragonlair.games.fist.events import choice_json, event_json
from dragonlair.games.fist.pending import Dec, Decision, Draw, Phase, PowerChance

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState


#: each phase's name in views
_PHASE_NAMES = {phase: phase.name.lower() for phase in Phase}


def sealed(st: FistState) -> bool:
    """Whether bids are being handed in and are not yet revealed (F8): a bid phase."""
    return st.phase is Phase.BID or st.phase is Phase.TIEBID


def in_rainbow(st: FistState) -> bool:
    """Whether the Rainbow Dragon's draw is under way (its colour is then public, F7)."""
    pending = st.pending
    return (isinstance(pending, Draw) and pending.kind == PowerChance.RAINBOW) or (
        isinstance(pending, Decision) and pending.kind == Dec.RAINBOW_MORE)


def decision_name(st: FistState) -> str | None:
    """The pending decision (``"steal"``), or ``None`` when none is asked."""
    pending = st.pending
    return pending.kind.name.lower() if isinstance(pending, Decision) else None


def _seats_public(st: FistState) -> list[JSON]:
    is_sealed = sealed(st)
    bids = st.bids
    holder = st.doppel_holder
    out: list[JSON] = []
    for s, p in enumerate(st.players):
        stones = p.stones
        out.append({"seat": s, "score": p.score,
                    "stones": {"red": stones[0], "blue": stones[1], "yellow": stones[2]},
                    "doppelganger": holder == s,
                    "has_bid": (bids[s] is not None) if is_sealed else None})
    return out


#: how many multisets of cards a game keeps the sorted ids of (:func:`sorted_names`); a
#: full table starts again empty
SORTED_KEPT = 4096


def sorted_names(st: FistState, counts: Sequence[int]) -> list[str]:
    """The ids of a multiset of cards (``counts[k]`` of card ``k``: a pile, the discard),
    sorted, as a fresh list: each id as often as its count, in the order of the game's
    table of the ids in sorted order, kept per multiset (a pile or the discard is viewed
    many times before it changes)."""
    game = st.game
    known = game.sorted_ids
    key = tuple(counts)
    got = known.get(key)
    if got is None:
        ordered = game.in_id_order(key)
        if max(ordered) <= 1:  # each card once at most (most piles): no repeats
            got = tuple(compress(game.ids_sorted, ordered))
        else:
            got = tuple(chain.from_iterable(map(repeat, game.ids_sorted, ordered)))
        if len(known) >= SORTED_KEPT:
            known.clear()
        known[key] = got
    return list(got)


def public(st: FistState) -> JSON:
    """The public part of a view (:class:`dragonlair.games.fist.views.FistPublic`)."""
    game = st.game
    names = game.card_ids
    bank = st.bank
    opts = game.options
    custom = opts["custom"]
    options: JSON = {"players": opts["players"], "max_turns": opts["max_turns"],
                     "custom": copy.deepcopy(custom) if custom else []}
    if opts.get("specials") == "custom":  # the special deck is the custom characters (F9)
        options["specials"] = "custom"
    phase = st.phase
    stones = bank.stones
    drawn = st.drawn
    return {
        "players": st.num_players,
        "options": options,
        "card": names[st.current] if st.current is not None else None,
        "tie_break": list(st.tied) if phase is Phase.TIEBID else [],
        "winner": st.winner,
        "pile": sorted_names(st, st.pile),
        "auctioned": [names[k] for k in st.auctioned],
        "turn_specials": [names[k] for k in st.turn_specials],
        "special_deck_size": sum(st.special_deck),
        "special_discard": sorted_names(st, st.special_discard),
        "doppelganger_holder": st.doppel_holder,
        "bank": {"fairy": bank.fairy, "silver": bank.silver, "common": bank.common,
                 "amulet": bank.amulet, "black": bank.black,
                 "stones": {"red": stones[0], "blue": stones[1], "yellow": stones[2]}},
        "drawn": {"red": drawn[0], "blue": drawn[1], "yellow": drawn[2]},
        "rainbow_colour": COLOURS[st.rainbow_colour] if in_rainbow(st) else None,
        "second_highest": list(st.second) if st.winner is not None else [],
        "seats": _seats_public(st),
        "decision": decision_name(st),
        "history": _public_history(st),
    }


def _public_history(st: FistState) -> list[str]:
    """The record so far; sealed bids not yet revealed show only who has bid (F8)."""
    out = st._log[:]
    if sealed(st):
        history = st._history
        for i in range(st.sealed_from, len(out)):
            out[i] = f"p{history[i][0]}: sealed"
    return out


def private(st: FistState, seat: int) -> JSON:
    """This seat's screen (:class:`dragonlair.games.fist.views.FistPrivate`)."""
    p = st.players[seat]
    bid = st.bids[seat] if sealed(st) else None
    return {"fairy": p.fairy, "fairy_spent": p.fairy_spent, "common": p.common,
            "silver": p.silver, "black": p.black, "amulet": p.amulet,
            "bid": str(bid) if bid is not None else None}


def legal(st: FistState, seat: int) -> JSON | None:
    """This seat's legal actions, compactly (:class:`.views.FistLegal`)."""
    if seat not in st.to_move:
        return None
    p = st.players[seat]
    if st.phase is Phase.BID:
        black, amulet = p.black > 0, p.amulet > 0
        return {"kind": "bid", "bid": {"fairy": p.fairy, "common": p.common,
                                       "black": black, "amulet": amulet},
                "silver": None, "decision": None, "card": auction.card_id(st), "choices": None,
                "form": bid_form(p.fairy, p.common, black, amulet)}
    if st.phase is Phase.TIEBID:
        return {"kind": "silver", "bid": None,
                "silver": {"silver": p.silver, "amulet": p.amulet > 0},
                "decision": None, "card": auction.card_id(st), "choices": None,
                "form": silver_form(p.silver, p.amulet > 0)}
    decision = st.pending
    assert isinstance(decision, Decision)
    ids = st.game.card_ids
    card = ids[decision.card]
    return {"kind": "decision", "bid": None, "silver": None,
            "decision": decision.kind.name.lower(), "card": card,
            "choices": [choice_json(a, card, ids, decision.step) for a in decision.legal],
            "form": None}


def view(st: FistState, seat: int | None, since: int = 0) -> JSON:
    """What ``seat`` may know (F8); ``None`` for a spectator: the envelope of
    :mod:`dragonlair.core.views`, with the events this viewer may see from ``since`` on."""
    if seat is not None:
        check_seat_range(seat, st.num_players)
    if type(since) is not int or since < 0:
        raise OptionError("fist.view.since", value=shown(since))
    seqs, stored, n = st._vcache.events(st._ev, st._nev, seat)
    events = cast("list[dict[str, Any]]",
                  stored[bisect_left(seqs, since, 0, n) if since else 0:n])
    pending = auction.pending_events(st)
    if pending:
        base = st._nev
        events += [event_json(base + i, e) for i, e in enumerate(pending)
                   if (e.to is None or e.to == seat) and base + i >= since]
    outcome = st.outcome()
    return envelope(
        game="fist", game_version=st.game.info.version, seat=seat,
        to_move=[s for s in st.to_move if s != CHANCE],
        chance=st.to_move == (CHANCE,), phase=_PHASE_NAMES[st.phase], turn=st.turn,
        public=public(st),
        private=private(st, seat) if seat is not None else None,
        legal=legal(st, seat) if seat is not None else None,
        events=events, since=since, total=st.event_count,
        result=outcome.to_json() if outcome else None)


def full_state(st: FistState) -> JSON:
    """Everything, secrets included (tests and tools; never a seat's view)."""
    v = public(st)
    outcome = st.outcome()
    v.update(turn=st.turn, phase=_PHASE_NAMES[st.phase],
             to_move=["chance" if s == CHANCE else s for s in st.to_move],
             result=outcome.to_json() if outcome else None)
    v["history"] = st._log[:]
    is_sealed = sealed(st)
    v["players_full"] = [
        {"seat": s, "score": p.score, "stones": dict(zip(COLOURS, p.stones, strict=True)),
         **p.coins_json(), "doppelganger": st.doppel_holder == s,
         "pending_bid": str(st.bids[s]) if is_sealed and st.bids[s] is not None else None}
        for s, p in enumerate(st.players)
    ]
    v["special_deck"] = sorted_names(st, st.special_deck)
    return v
