"""Fist of Dragonstones snapshots: a state as JSON, and back, without replaying the history.

A snapshot holds the options, the record entries so far, the whole position (every seat's
holdings, the bank, decks and piles by card id, the auction and the power under way, with
its queued steps written as the power primitives of docs/custom-characters.md, and what it
waits for: ``pending``) and the events stored so far::

    {"format": "dragonlair-snapshot", "format_version": 1, "game": "fist",
     "game_version": 1, "options": {...},
     "state": {"history": ["chance: stone red", ...], "phase": "bid", "to_move": [0, 1, 2],
               "players": [{"fairy": 8, ...}, ...], "bank": {...}, ...,
               "pending": {"decision": "steal", "card": "thief", "legal": ["steal p1 red"],
                           "step": null}},
     "events": [{"code": "...", "params": {...}, "to": 0}, ...]}

:func:`restore` trusts none of it: every field is checked for its type and range, card ids
and actions must exist at the table, coins, stones and cards must add up to the totals of F1,
the phase must agree with who is to move, and the restored state must write exactly the
snapshot it came from. Anything else raises :class:`RecordError` with a ``fist.snapshot.*``
code.

``pending`` is ``null``, a decision (``{"decision", "card", "legal", "step"}``: what the
winner is asked inside the power of ``card``, the options, the power step asked about or
``null``) or a draw (``{"draw": "goblin" | "rainbow" | "bag", "card"}``). Snapshots written
before it (format version 1 too) held the same as the fields ``decision``,
``decision_legal``, ``decision_card``, ``decision_step`` and ``power_chance``; :func:`restore`
still reads them (:func:`upgrade`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import DragonlairError, RecordError, shown
from dragonlair.core.events import Event, chain_from_list
from dragonlair.core.game import CHANCE, JSON, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, snapshot_header
from dragonlair.core.records import parse_entry
from dragonlair.games.fist import auction
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import COLOURS, FistAction
from dragonlair.games.fist.pending import Dec, Decision, Draw, Pending, PowerChance

if TYPE_CHECKING:
    from dragonlair.games.fist.game import FistGame
    from dragonlair.games.fist.state import FistState

FORMAT, FORMAT_VERSION = SNAPSHOT_FORMAT, SNAPSHOT_VERSION
#: the most events or history entries a snapshot may hold (a game is far shorter)
MAX_ENTRIES = 1_000_000


# ---------------------------------------------------------------------------- power steps
def step_data(step: pw.Step) -> JSON:
    """A power step as the data of docs/custom-characters.md (``{"gain": {...}}``)."""
    return DATA.of(step)(step)


#: each primitive as data: ``step -> {kind: ...}``
DATA: pw.Table[Callable[[Any], JSON]] = pw.Table("snapshot.DATA")


@DATA.on(pw.Gain)
def _gain(step: pw.Gain) -> JSON:
    d = {"fairy": step.fairy, "common": step.common, "silver": step.silver,
         "amulet": step.amulet, "black": step.black,
         **dict(zip(COLOURS, step.stones, strict=True))}
    return {"gain": {k: v for k, v in d.items() if v}}


@DATA.on(pw.GainStoneChoice)
def _gain_stone_choice(step: pw.GainStoneChoice) -> JSON:
    return {"gain_stone_choice": step.count}


@DATA.on(pw.PayStones)
def _pay_stones(step: pw.PayStones) -> JSON:
    return {"pay_stones": {"count": step.count, "pattern": step.pattern, "points": step.points}}


@DATA.on(pw.Choice)
def _either(step: pw.Choice) -> JSON:
    return {"either": _pay_stones(step.pay), "or": _gain(step.alternative)}


@DATA.on(pw.TakeAllFrom)
def _take_all_from(step: pw.TakeAllFrom) -> JSON:
    return {"take_all_from": [k for k, on in (("common", step.common),
                                              ("silver", step.silver)) if on]}


@DATA.on(pw.PlayUnauctioned)
def _play_unauctioned(step: pw.PlayUnauctioned) -> JSON:
    return {"play_unauctioned": "choose" if step.choose else "random"}


@DATA.on(pw.BuyStones)
def _buy_stones(step: pw.BuyStones) -> JSON:
    return {"buy_stones": {"common": step.common, "fairy": step.fairy, "silver": step.silver}}


@DATA.on(pw.Necromancer, pw.PayAllStones)
def _points(step: pw.Necromancer | pw.PayAllStones) -> JSON:
    return {step.kind: step.points}


@DATA.on(pw.BagDraw)
def _bag_draw(step: pw.BagDraw) -> JSON:
    return {"bag_draw": {"per_colour": step.per_colour, "draws": step.draws}}


@DATA.on(pw.StealSecond, pw.KeepDoppelganger, pw.CopyAuctioned, pw.PushYourLuck,
         pw.LoseColour, pw.DiscardDoppelganger)
def _flag(step: pw.Step) -> JSON:
    """A primitive without fields: ``{kind: true}``."""
    return {step.kind: True}


DATA.check()


def _step_from(data: Any) -> pw.Step:
    from dragonlair.games.fist.custom import _step

    if data == {"keep_doppelganger": True}:
        return pw.KeepDoppelganger()
    if data == {"discard_doppelganger": True}:
        return pw.DiscardDoppelganger()
    try:
        return _step(data, {"id": "snapshot", "step": 1})
    except (DragonlairError, TypeError, AttributeError):
        raise _bad("step", value=shown(data)) from None


# ---------------------------------------------------------------------------- writing
def _counts(ids: tuple[str, ...], counts: list[int]) -> dict[str, int]:
    return {ids[k]: n for k, n in enumerate(counts) if n}


def snapshot(state: FistState) -> JSON:
    """Everything of ``state`` as JSON (see the module docs)."""
    game = state.game
    ids = game.card_ids
    stored = state.all_events()
    stored = stored[:len(stored) - auction.pending_count(state)]  # the rest follow from it
    return {
        **snapshot_header(game),
        "state": {
            "history": state._log[:],
            "phase": state.phase.name.lower(),
            "to_move": list(state.to_move),
            "turn": state.turn,
            "setup_draws": state.setup_draws,
            "specials_needed": state.specials_needed,
            "players": [{"fairy": p.fairy, "fairy_spent": p.fairy_spent, "common": p.common,
                         "silver": p.silver, "black": p.black, "amulet": p.amulet,
                         "stones": p.stones[:], "score": p.score} for p in state.players],
            "bank": {"fairy": state.bank.fairy, "common": state.bank.common,
                     "silver": state.bank.silver, "amulet": state.bank.amulet,
                     "black": state.bank.black, "stones": state.bank.stones[:]},
            "special_deck": _counts(ids, state.special_deck),
            "special_discard": _counts(ids, state.special_discard),
            "doppelganger_holder": state.doppel_holder,
            "turn_specials": [ids[k] for k in state.turn_specials],
            "pile": _counts(ids, state.pile),
            "auctioned": [ids[k] for k in state.auctioned],
            "current": ids[state.current] if state.current is not None else None,
            "bids": [str(b) if b is not None else None for b in state.bids],
            "values": state.values[:],
            "auction_fairy": state.auction_fairy[:],
            "tied": list(state.tied),
            "winner": state.winner,
            "second": list(state.second),
            "necro_paid": state.necro_paid,
            "sealed_from": state.sealed_from,
            "stack": [[ids[k], step_data(step)] for step, k in state.stack],
            "pending": pending_data(state.pending, ids),
            "bag": state.bag[:],
            "bag_draws": state.bag_draws,
            "rainbow_colour": COLOURS[state.rainbow_colour],
            "drawn": state.drawn[:],
            "winners": list(state.winners),
            "end_reason": state.end_reason,
            "end_params": dict(state.end_params),
        },
        "events": [{"code": e.code, "params": dict(e.params),
                    **({"to": e.to} if e.to is not None else {})} for e in stored],
    }


def pending_data(pending: Pending | None, ids: tuple[str, ...]) -> JSON | None:
    """What a power waits for, as JSON (see the module docs)."""
    if pending is None:
        return None
    if isinstance(pending, Decision):
        return {"decision": pending.kind.name.lower(), "card": ids[pending.card],
                "legal": [str(a) for a in pending.legal],
                "step": step_data(pending.step) if pending.step is not None else None}
    return {"draw": pending.kind.name.lower(), "card": ids[pending.card]}


# ---------------------------------------------------------------------------- reading
#: the fields that held ``pending`` before it was one value
OLD_PENDING = ("decision", "decision_legal", "decision_card", "decision_step", "power_chance")


def upgrade(data: Any) -> Any:
    """A snapshot written before ``pending`` (its five fields, :data:`OLD_PENDING`) in
    today's layout; anything else as it is. Those fields kept their last values after a
    decision or a draw was over: only the phase that waits on one (``decide``,
    ``power_chance``) keeps it."""
    st = data.get("state") if isinstance(data, dict) else None
    if not isinstance(st, dict) or "pending" in st or not all(k in st for k in OLD_PENDING):
        return data
    new = {k: v for k, v in st.items() if k not in OLD_PENDING}
    pending: JSON | None = None
    if st.get("phase") == "decide":
        pending = {"decision": st["decision"], "card": st["decision_card"],
                   "legal": st["decision_legal"], "step": st["decision_step"]}
    elif st.get("phase") == "power_chance":
        pending = {"draw": st["power_chance"], "card": st["decision_card"]}
    new["pending"] = pending
    return {**data, "state": new}


def _pending(game: FistGame, raw: Any) -> Pending | None:
    if raw is None:
        return None
    index = game.space.card_index
    if isinstance(raw, dict) and set(raw) == {"decision", "card", "legal", "step"}:
        step = raw["step"]
        return Decision(_enum(Dec, raw["decision"], "pending"),
                        _card(index, raw["card"], "pending"),
                        tuple(_action(game, a, "pending")
                              for a in _list(raw, "legal", 10_000)),
                        None if step is None else _step_from(step))
    if isinstance(raw, dict) and set(raw) == {"draw", "card"}:
        return Draw(_enum(PowerChance, raw["draw"], "pending"),
                    _card(index, raw["card"], "pending"))
    raise _bad("pending", value=shown(raw))


def _bad(what: str, value: Any = "", index: int | None = None) -> RecordError:
    """``fist.snapshot.invalid``: the field ``what`` (entry ``index`` of it) is wrong."""
    return RecordError("fist.snapshot.invalid", index=index, what=what, value=value)


def _int(d: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = d.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise _bad(key, value=shown(v))
    return v


def _opt_int(d: dict[str, Any], key: str, lo: int, hi: int) -> int | None:
    return None if d.get(key) is None else _int(d, key, lo, hi)


def _ints(d: dict[str, Any], key: str, n: int, lo: int, hi: int) -> list[int]:
    v = d.get(key)
    if not isinstance(v, list) or len(v) != n or any(type(x) is not int or not lo <= x <= hi
                                                     for x in v):
        raise _bad(key, value=shown(v))
    return list(v)


def _obj(d: Any, key: str) -> dict[str, Any]:
    v = d.get(key) if isinstance(d, dict) else None
    if not isinstance(v, dict):
        raise _bad(key, value=shown(v))
    return v


def _list(d: dict[str, Any], key: str, limit: int = MAX_ENTRIES) -> list[Any]:
    v = d.get(key)
    if not isinstance(v, list) or len(v) > limit:
        raise _bad(key, value=shown(v))
    return v


def _card(index: dict[str, int], v: Any, key: str) -> int:
    if not isinstance(v, str) or v not in index:
        raise _bad(key, value=shown(v))
    return index[v]


def _card_counts(index: dict[str, int], d: dict[str, Any], key: str) -> list[int]:
    raw = _obj(d, key)
    out = [0] * len(index)
    for cid, n in raw.items():
        if type(n) is not int or not 1 <= n <= 100:
            raise _bad(key, value=shown(raw))
        out[_card(index, cid, key)] = n
    return out


def _action(game: FistGame, text: Any, key: str) -> FistAction:
    if not isinstance(text, str):
        raise _bad(key, value=shown(text))
    try:
        return game.parse_action(text)
    except DragonlairError:
        raise _bad(key, value=shown(text)) from None


def _enum(enum: Any, v: Any, key: str, optional: bool = False) -> Any:
    if v is None and optional:
        return None
    names = {m.name.lower(): m for m in enum}
    if not isinstance(v, str) or v not in names:
        raise _bad(key, value=shown(v))
    return names[v]


def _event(e: Any, n: int) -> Event:
    from dragonlair.games.fist.events import PARAMS

    if not isinstance(e, dict) or set(e) - {"code", "params", "to"}:
        raise _bad("events", value=shown(e))
    code, params, to = e.get("code"), e.get("params"), e.get("to")
    if not isinstance(code, str) or code not in PARAMS or not isinstance(params, dict) \
            or set(params) != set(PARAMS[code]):
        raise _bad("events", value=shown(e))
    if to is not None and (type(to) is not int or not 0 <= to < n):
        raise _bad("events", value=shown(e))
    return Event(code, dict(params), to)


def restore(game: FistGame, data: Any) -> FistState:
    """The state ``data`` (a :func:`snapshot`) describes, checked (see the module docs)."""
    from dragonlair.games.fist.state import FistState, Phase, Player

    data = upgrade(data)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("fist.snapshot.format", expected=FORMAT)
    if data.get("format_version") != FORMAT_VERSION or data.get("game") != game.info.id \
            or data.get("game_version") != game.info.version:
        raise RecordError("fist.snapshot.version", game=shown(data.get("game")),
                          version=shown(data.get("game_version")),
                          expected=game.info.version)
    if data.get("options") != game.record_options():
        raise _bad("options", value=shown(data.get("options")))
    st = _obj(data, "state")
    n = game.num_players
    ids = game.card_ids
    index = game.space.card_index
    state = FistState(game)
    # history
    history: list[tuple[int, FistAction]] = []
    for i, entry in enumerate(_list(st, "history")):
        if not isinstance(entry, str):
            raise _bad("history", index=i, value=shown(entry))
        try:
            seat, text = parse_entry(entry, n)
        except (ValueError, DragonlairError):
            raise _bad("history", index=i, value=shown(entry)) from None
        history.append((seat, _action(game, text, "history")))
    state._history = history
    state._log_list = []
    # position
    state.phase = _enum(Phase, st.get("phase"), "phase")
    to_move = _list(st, "to_move", 6)
    if any(type(s) is not int or not CHANCE <= s < n for s in to_move) \
            or len(set(to_move)) != len(to_move):
        raise _bad("to_move", value=shown(to_move))
    state.to_move = tuple(to_move)
    state.turn = _int(st, "turn", 0, 10**6)
    state.setup_draws = _int(st, "setup_draws", 0, 4 * n)
    state.specials_needed = _int(st, "specials_needed", 0, 2)
    players = _list(st, "players", 6)
    if len(players) != n:
        raise _bad("players", value=shown(len(players)))
    state.players = []
    for raw in players:
        if not isinstance(raw, dict):
            raise _bad("players", value=shown(raw))
        p = Player()
        p.fairy, p.fairy_spent = _int(raw, "fairy", 0, 60), _int(raw, "fairy_spent", 0, 60)
        p.common, p.silver = _int(raw, "common", 0, 15), _int(raw, "silver", 0, 40)
        p.black, p.amulet = _int(raw, "black", 0, 10**3), _int(raw, "amulet", 0, 2)
        p.stones = _ints(raw, "stones", 3, 0, 12)
        p.score = _int(raw, "score", 0, 3)
        state.players.append(p)
    bank = _obj(st, "bank")
    b = state.bank
    b.fairy, b.common, b.silver = _int(bank, "fairy", 0, 60), _int(bank, "common", 0, 15), \
        _int(bank, "silver", 0, 40)
    b.amulet, b.black = _int(bank, "amulet", 0, 2), _int(bank, "black", 0, 2)
    b.stones = _ints(bank, "stones", 3, 0, 12)
    state.special_deck = _card_counts(index, st, "special_deck")
    state.special_discard = _card_counts(index, st, "special_discard")
    state.doppel_holder = _opt_int(st, "doppelganger_holder", 0, n - 1)
    state.turn_specials = [_card(index, c, "turn_specials")
                           for c in _list(st, "turn_specials", 2)]
    state.pile = _card_counts(index, st, "pile")
    state.pile_total = sum(state.pile)
    state.auctioned = [_card(index, c, "auctioned") for c in _list(st, "auctioned", 64)]
    cur = st.get("current")
    state.current = None if cur is None else _card(index, cur, "current")
    bids = _list(st, "bids", 6)
    if len(bids) != n:
        raise _bad("bids", value=shown(bids))
    state.bids = [None if x is None else _action(game, x, "bids") for x in bids]
    state.values = _ints(st, "values", n, 0, 200)
    state.auction_fairy = _ints(st, "auction_fairy", n, 0, 60)
    tied = _list(st, "tied", 6)
    second = _list(st, "second", 6)
    for key, seats in (("tied", tied), ("second", second)):
        if any(type(s) is not int or not 0 <= s < n for s in seats):
            raise _bad(key, value=shown(seats))
    state.tied, state.second = tuple(tied), tuple(second)
    state.winner = _opt_int(st, "winner", 0, n - 1)
    necro = st.get("necro_paid")
    if not isinstance(necro, bool):
        raise _bad("necro_paid", value=shown(necro))
    state.necro_paid = necro
    state.sealed_from = _int(st, "sealed_from", 0, len(history))
    stack = []
    for item in _list(st, "stack", 1000):
        if not isinstance(item, list) or len(item) != 2:
            raise _bad("stack", value=shown(item))
        stack.append((_step_from(item[1]), _card(index, item[0], "stack")))
    state.stack = stack
    state.pending = _pending(game, st.get("pending"))
    state.bag = _ints(st, "bag", 3, 0, 12)
    state.bag_draws = _int(st, "bag_draws", 0, 36)
    colour = st.get("rainbow_colour")
    if colour not in COLOURS:
        raise _bad("rainbow_colour", value=shown(colour))
    state.rainbow_colour = COLOURS.index(colour)
    state.drawn = _ints(st, "drawn", 3, 0, 12)
    winners = _list(st, "winners", 6)
    if any(type(s) is not int or not 0 <= s < n for s in winners):
        raise _bad("winners", value=shown(winners))
    state.winners = tuple(winners)
    reason = st.get("end_reason")
    end_params = st.get("end_params")
    if not isinstance(reason, str) or not isinstance(end_params, dict):
        raise _bad("end_reason", value=shown(reason))
    state.end_reason, state.end_params = reason, dict(end_params)
    events = [_event(e, n) for e in _list(data, "events")]
    state._ev = chain_from_list(events)
    state._nev = len(events)
    _check(state, ids)
    if sum(e.code == "fist.turn.start" for e in events) != state.turn:
        raise _bad("turn", value=state.turn)
    if snapshot(state) != data:
        raise _bad("inconsistent")
    return state


def _check(state: FistState, ids: tuple[str, ...]) -> None:
    """What must hold of any position: F1 totals, the phase and who moves agree."""
    from dragonlair.games.fist.state import TOTALS, Phase

    totals = state.totals()
    expected = {k: v for k, v in TOTALS.items() if k != "black"}
    specials = sum(state.game.special_counts)
    if any(totals[k] != v for k, v in expected.items()) \
            or any(totals[c] != 12 for c in COLOURS) or totals["cards"] != specials:
        raise _bad("totals", value=shown(totals))
    ph, n = state.phase, state.num_players
    chance = (CHANCE,)
    ok = {
        Phase.SETUP: state.to_move == chance,
        Phase.SPECIAL: state.to_move == chance,
        Phase.REVEAL: state.to_move == chance and state.pile_total > 0,
        Phase.POWER_CHANCE: state.to_move == chance and isinstance(state.pending, Draw)
        and state.winner is not None,
        Phase.BID: CHANCE not in state.to_move and state.current is not None
        and all((state.bids[s] is None) == (s in state.to_move) for s in range(n)),
        Phase.TIEBID: CHANCE not in state.to_move and len(state.tied) >= 2
        and set(state.to_move) <= set(state.tied) and state.current is not None,
        Phase.DECIDE: len(state.to_move) == 1 and state.to_move[0] == state.winner
        and isinstance(state.pending, Decision) and bool(state.pending.legal),
        Phase.OVER: state.to_move == () and bool(state.end_reason),
        Phase.RUNNING: False,
    }[ph]
    if not ok:
        raise _bad("phase", value=ph.name.lower())
    if state.pending is not None and ph not in (Phase.DECIDE, Phase.POWER_CHANCE):
        raise _bad("pending", value=ph.name.lower())
    if ph in (Phase.BID, Phase.TIEBID):
        want = "bid" if ph == Phase.BID else "silver"
        for a in state.bids:
            if a is not None and not str(a).startswith(want):
                raise _bad("bids", value=str(a))
        for seat, a in state._history[state.sealed_from:]:
            if seat == CHANCE or state.bids[seat] is not a:
                raise _bad("sealed_from", value=state.sealed_from)
    for k in state.turn_specials:
        if state.cards[k].standard:
            raise _bad("turn_specials", value=ids[k])
