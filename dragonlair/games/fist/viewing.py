"""What each seat of a Fist game may know (F8): the view envelope of
:mod:`dragonlair.core.views` with the parts of :mod:`dragonlair.games.fist.views`, and the
whole state for tests and tools."""

from __future__ import annotations

import copy
from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import OptionError, shown
from dragonlair.core.game import CHANCE, JSON, check_seat_range
from dragonlair.core.views import envelope
from dragonlair.games.fist import auction
from dragonlair.games.fist.actions import COLOURS, bid_form, silver_form
from dragonlair.games.fist.events import choice_json, event_json
from dragonlair.games.fist.pending import Dec, Decision, Draw, Phase, PowerChance

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState


def _sealed(st: FistState) -> bool:
    return st.phase is Phase.BID or st.phase is Phase.TIEBID


def decision_name(st: FistState) -> str | None:
    """The pending decision (``"steal"``), or ``None`` when none is asked."""
    pending = st.pending
    return pending.kind.name.lower() if isinstance(pending, Decision) else None


def _seats_public(st: FistState) -> list[JSON]:
    sealed = _sealed(st)
    return [{"seat": s, "score": p.score,
             "stones": {"red": p.stones[0], "blue": p.stones[1], "yellow": p.stones[2]},
             "doppelganger": st.doppel_holder == s,
             "has_bid": (st.bids[s] is not None) if sealed else None}
            for s, p in enumerate(st.players)]


def public(st: FistState) -> JSON:
    """The public part of a view (:class:`dragonlair.games.fist.views.FistPublic`)."""
    names = st.game.card_ids
    bank = st.bank
    pending = st.pending
    in_rainbow = (isinstance(pending, Draw) and pending.kind == PowerChance.RAINBOW) or (
        isinstance(pending, Decision) and pending.kind == Dec.RAINBOW_MORE)
    opts = st.game.options
    options: JSON = {"players": opts["players"], "max_turns": opts["max_turns"],
                     "custom": copy.deepcopy(opts["custom"])}
    if opts.get("specials") == "custom":  # the special deck is the custom characters (F9)
        options["specials"] = "custom"
    return {
        "players": st.num_players,
        "options": options,
        "card": names[st.current] if st.current is not None else None,
        "tie_break": list(st.tied) if st.phase is Phase.TIEBID else [],
        "winner": st.winner,
        "pile": sorted(names[k] for k, n in enumerate(st.pile) for _ in range(n)),
        "auctioned": [names[k] for k in st.auctioned],
        "turn_specials": [names[k] for k in st.turn_specials],
        "special_deck_size": sum(st.special_deck),
        "special_discard": sorted(
            names[k] for k, n in enumerate(st.special_discard) for _ in range(n)),
        "doppelganger_holder": st.doppel_holder,
        "bank": {"fairy": bank.fairy, "silver": bank.silver, "common": bank.common,
                 "amulet": bank.amulet, "black": bank.black,
                 "stones": dict(zip(COLOURS, bank.stones, strict=True))},
        "drawn": dict(zip(COLOURS, st.drawn, strict=True)),
        "rainbow_colour": COLOURS[st.rainbow_colour] if in_rainbow else None,
        "second_highest": list(st.second) if st.winner is not None else [],
        "seats": _seats_public(st),
        "decision": decision_name(st),
        "history": _public_history(st),
    }


def _public_history(st: FistState) -> list[str]:
    """The record so far; sealed bids not yet revealed show only who has bid (F8)."""
    out = st._log[:]
    if _sealed(st):
        for i in range(st.sealed_from, len(out)):
            out[i] = f"p{st._history[i][0]}: sealed"
    return out


def private(st: FistState, seat: int) -> JSON:
    """This seat's screen (:class:`dragonlair.games.fist.views.FistPrivate`)."""
    p = st.players[seat]
    bid = st.bids[seat] if _sealed(st) else None
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
            "choices": [choice_json(a, card, ids) for a in decision.legal], "form": None}


def view(st: FistState, seat: int | None, since: int = 0) -> JSON:
    """What ``seat`` may know (F8); ``None`` for a spectator: the envelope of
    :mod:`dragonlair.core.views`, with the events this viewer may see from ``since`` on."""
    if seat is not None:
        check_seat_range(seat, st.num_players)
    if type(since) is not int or since < 0:
        raise OptionError("fist.view.since", value=shown(since))
    seqs, stored = st._vcache.events(st._ev, st._nev, seat)
    start = bisect_left(seqs, since) if since else 0
    events: list[dict[str, Any]] = list(stored[start:])
    pending = auction.pending_events(st)
    if pending:
        base = st._nev
        events += [event_json(base + i, e) for i, e in enumerate(pending)
                   if (e.to is None or e.to == seat) and base + i >= since]
    outcome = st.outcome()
    return envelope(
        game="fist", game_version=st.game.info.version, seat=seat,
        to_move=[s for s in st.to_move if s != CHANCE],
        chance=st.to_move == (CHANCE,), phase=st.phase.name.lower(), turn=st.turn,
        public=public(st),
        private=private(st, seat) if seat is not None else None,
        legal=legal(st, seat) if seat is not None else None,
        events=events, since=since, total=st.event_count,
        result=outcome.to_json() if outcome else None)


def full_state(st: FistState) -> JSON:
    """Everything, secrets included (tests and tools; never a seat's view)."""
    v = public(st)
    outcome = st.outcome()
    v.update(turn=st.turn, phase=st.phase.name.lower(),
             to_move=["chance" if s == CHANCE else s for s in st.to_move],
             result=outcome.to_json() if outcome else None)
    v["history"] = st._log[:]
    sealed = _sealed(st)
    v["players_full"] = [
        {"seat": s, "score": p.score, "stones": dict(zip(COLOURS, p.stones, strict=True)),
         **p.coins_json(), "doppelganger": st.doppel_holder == s,
         "pending_bid": str(st.bids[s]) if sealed and st.bids[s] is not None else None}
        for s, p in enumerate(st.players)
    ]
    v["special_deck"] = sorted(
        st.game.card_ids[k] for k, n in enumerate(st.special_deck) for _ in range(n))
    return v
