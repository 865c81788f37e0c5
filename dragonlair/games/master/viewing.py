"""What a Dragon Master seat may know (M6): the events, written from the history when
someone reads them, and the view envelope's parts built from a state (their models:
:mod:`dragonlair.games.master.views`), and the full state for tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dragonlair.core.errors import IllegalActionError, shown
from dragonlair.core.events import Event
from dragonlair.core.game import CHANCE, JSON, check_seat_range
from dragonlair.core.views import envelope
from dragonlair.games.master.actions import CELL_NAMES, COLS, Kind, cell_name, place_form
from dragonlair.games.master.cards import CARDS, COPIES, HAND, IDS
from dragonlair.games.master.rounds import Phase, line_scores

if TYPE_CHECKING:
    from dragonlair.games.master.state import MasterState

_K_PLACE, _K_DEAL, _K_START = Kind.PLACE, Kind.DEAL, Kind.START


# ------------------------------------------------------------------ events (M6)
def sync_events(state: MasterState) -> None:
    """Write the events of the history entries not told yet.

    Events follow from the actions (and the rounds they finished), so they are written
    when someone reads them, not on every action: play and search pay nothing for them.
    What they tell follows M6: each seat learns its own hand (``master.deal.hand``, to
    that seat only), everyone that the deal is done; placements, round results, the set
    aside cards (revealed when the round ends) and the end are public."""
    history = state._history
    at = state._ev_at
    if at == len(history):
        return
    rnd, start = state._ev_round
    ev, nev = state._ev, state._nev

    def add(code: str, to: int | None = None, **params: object) -> None:
        nonlocal ev, nev
        ev = (Event(code, params, to), ev)
        nev += 1

    deals = 2 * HAND
    while at < len(history):
        seat, action = history[at]
        step = at - start
        if step == 0:
            add("master.round.begin", round=rnd + 1)
        if action.kind == _K_DEAL and step == deals - 1:
            dealt = [a.value for _, a in history[start:start + deals]]
            for owner in (0, 1):
                cards = sorted(dealt[owner * HAND:(owner + 1) * HAND])
                add("master.deal.hand", to=owner, seat=owner,
                    cards=[CARDS[v].id for v in cards])
            add("master.deal.done", n=HAND, aside=len(CARDS) * COPIES - deals)
            if rnd:  # M5: who starts a later round of a match follows from the last one
                last = state.rounds[rnd - 1]
                if last.winner is not None:
                    add("master.start.loser", seat=1 - last.winner)
                else:
                    add("master.start.after_draw", seat=1 - last.starter)
        elif action.kind == _K_START:
            add("master.start.lot", seat=action.value)
        elif action.kind == _K_PLACE:
            add("master.move.placed", seat=seat, card=CARDS[action.value].id,
                cell=cell_name(action.cell))
            if step == 2 * deals - (0 if rnd else -1) - 1:  # the 16th card: scored (M4)
                _round_events(state, rnd, add)
                rnd += 1
                start = at + 1
        at += 1
    state._ev, state._nev = ev, nev
    state._ev_at = at
    state._ev_round = (rnd, start)


def _round_events(state: MasterState, rnd: int, add: Callable[..., None]) -> None:
    r = state.rounds[rnd]
    if r.winner is None or r.decided_at is None:
        add("master.round.drawn", round=rnd + 1, columns=r.columns, rows=r.rows)
    else:
        at = r.decided_at
        add("master.round.won", round=rnd + 1, seat=r.winner, at=at,
            a=sorted(r.columns)[at], b=sorted(r.rows)[at], columns=r.columns, rows=r.rows)
    add("master.round.set_aside", cards=sorted(CARDS[v].id for v in r.set_aside))
    if state.game.match and r.winner is not None:
        won = sum(1 for x in state.rounds[:rnd + 1] if x.winner == r.winner)
        add("master.match.dragon", seat=r.winner, n=won)
    if rnd == len(state.rounds) - 1 and state.phase == Phase.OVER:
        add(state.end_reason, **state.end_params)


# ------------------------------------------------------------------ views (M6)
#: each phase's name in views
_PHASE_NAMES = {phase: phase.name.lower() for phase in Phase}


def _placements(state: MasterState, start: int, end: int | None = None) -> list[JSON]:
    """The placements of the round held by the history entries ``start`` to ``end`` (to
    the last entry: None), in order."""
    return [{"seat": seat, "card": IDS[a.value], "cell": CELL_NAMES[a.cell]}
            for seat, a in state._history[start:end] if seat != CHANCE]


def _rounds_json(state: MasterState) -> list[JSON]:
    """The finished rounds, each with its placements (its history entries end where the
    next round, or the one in play, begins)."""
    rounds = state.rounds
    out = []
    for i, r in enumerate(rounds):
        if i + 1 < len(rounds):
            end: int | None = rounds[i + 1].start
        else:
            end = state.round_start if state.round_start > r.start else None
        j = r.to_json()
        j["placements"] = _placements(state, r.start, end)
        out.append(j)
    return out


#: the legal cells now and their names (:meth:`MasterState.legal_cells_named`)
Named = tuple[tuple[int, ...], tuple[str, ...]]


def public(state: MasterState, named: Named | None = None) -> JSON:
    """What everyone may see (M6): the grid, the turn, each hand's size, past rounds.
    ``named``: the legal cells named, if the caller has them."""
    cols, rows = line_scores(state)
    phase = state.phase
    over = phase == Phase.OVER
    game = state.game
    legal = list((named or state.legal_cells_named())[1]) if phase == Phase.PLACE else []
    return {
        "round": len(state.rounds) + (0 if over else 1),
        "grid": {name: IDS[v] for name, v in zip(CELL_NAMES, state.grid, strict=True)
                 if v >= 0},
        "box": _box_json(state),
        "legal_cells": legal,
        "hand_sizes": [sum(h) for h in state.hands],
        "line_scores": {"columns": cols, "rows": rows},
        "starter": state.starter if state.starter >= 0 else None,
        "match": game.match,
        "four_of_a_kind": game.four_of_a_kind,
        "dragons": state.dragons[:],
        "placements": _placements(state, state.round_start),
        "rounds": _rounds_json(state),
    }


def _box_json(state: MasterState) -> JSON | None:
    if not state.placed:
        return None
    x0, x1, y0, y1 = state.box
    return {"columns": COLS[x0:x1 + 1], "rows": list(range(y0 + 1, y1 + 2))}


def unseen(state: MasterState, seat: int) -> list[int]:
    """Counts per value that ``seat`` has not seen: 20 - own hand - grid (M6)."""
    grid = state.grid
    hand = state.hands[seat]
    return [COPIES - grid.count(v) - hand[v] for v in range(4)]


def _legal_json(state: MasterState, seat: int, named: Named | None = None) -> JSON | None:
    """Compactly, what ``seat`` may do now (M3: any card of its hand on any legal cell).
    ``named``: the legal cells named, if the caller has them."""
    if seat != state.player or state.phase != Phase.PLACE:
        return None
    hand = state.hands[seat]
    values = [v for v in range(4) if hand[v]]
    cells, names = named or state.legal_cells_named()
    return {"action": "place", "cards": [IDS[v] for v in values],
            "cells": list(names), "form": place_form(values, cells)}


def view(state: MasterState, seat: int | None, since: int = 0) -> JSON:
    """What ``seat`` may know (M6); ``None`` for a spectator: the envelope of
    :mod:`dragonlair.core.views`, with the events this viewer may see from ``since`` on."""
    if seat is not None:
        check_seat_range(seat, 2)
    if type(since) is not int or since < 0:
        raise IllegalActionError("master.view.bad_since", since=shown(since))
    phase = state.phase
    named = state.legal_cells_named() if phase == Phase.PLACE else None
    private = None
    legal = None
    if seat is not None:
        private = {
            "hand": dict(zip(IDS, state.hands[seat], strict=True)),
            "unseen": dict(zip(IDS, unseen(state, seat), strict=True)),
            "lines": "columns" if seat == 0 else "rows",
        }
        legal = _legal_json(state, seat, named)
    outcome = state.outcome()
    events = [e.to_json(seq) for seq, e in state.events_for(seat, since)]
    return envelope(
        game="master", game_version=state.game.info.version, seat=seat,
        to_move=[s for s in state.to_move if s != CHANCE],
        chance=state.to_move == (CHANCE,), phase=_PHASE_NAMES[phase],
        turn=state.turn_count(), public=public(state, named), private=private,
        legal=legal, events=events, since=since, total=state._nev,
        result=outcome.to_json() if outcome else None)


def full_state(state: MasterState) -> JSON:
    """Everything, secrets included, flat (tests, debugging, the determinizer)."""
    v = public(state)
    v["game"] = "master"
    v["phase"] = _PHASE_NAMES[state.phase]
    v["to_move"] = ["chance" if s == CHANCE else s for s in state.to_move]
    outcome = state.outcome()
    v["result"] = outcome.to_json() if outcome else None
    v["history"] = state._log[:]
    v["hands"] = [dict(zip(IDS, h, strict=True)) for h in state.hands]
    v["set_aside"] = dict(zip(IDS, state.deck, strict=True))
    return v
