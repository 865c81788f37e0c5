"""Dragon Farkle snapshots: a whole state as JSON, restored exactly without replaying.

``state.snapshot()`` writes every field of the engine state (secrets included: a snapshot is
the server's, never a viewer's), the history as record entries and the events;
``game.restore(data)`` checks all of it (types, ranges, the decks and soldiers adding up, the
actions parsing) and raises :class:`RecordError` (``farkle.snapshot.invalid``, with what is
wrong) on anything malformed. A restored state has the same legal actions, views, events and
future as the original (tests/test_farkle_snapshots.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import DragonlairError, RecordError, shown
from dragonlair.core.events import Event
from dragonlair.core.game import CHANCE, JSON, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, snapshot_header
from dragonlair.core.records import entry_text, parse_entry
from dragonlair.games.farkle.actions import EventFace, FarkleAction
from dragonlair.games.farkle.enums import AfterDraw, BattleBonus, Power
from dragonlair.games.farkle.events import PARAMS, compact

if TYPE_CHECKING:
    from dragonlair.games.farkle.game import FarkleGame
    from dragonlair.games.farkle.state import FarkleState

FORMAT, FORMAT_VERSION = SNAPSHOT_FORMAT, SNAPSHOT_VERSION

#: the plain fields of the state: name -> kind (checked on restore)
_INTS = ("supply", "turn", "player", "start_army", "roller", "full_dice", "hand_dice",
         "event", "pending", "last_value", "attacker", "defender", "attack_value", "damage",
         "draw_for", "setup_step")
_SEAT_LISTS = ("armies", "companions")
_BOOL_LISTS = ("in_lair", "needs_companion")
#: the sets of enum members, stored as their sorted values
_STR_SETS: dict[str, type[Power] | type[BattleBonus]] = {
    "used": Power, "asked": Power, "battle_bonus_used": BattleBonus}


def snapshot(state: FarkleState) -> JSON:
    """The whole of ``state`` as JSON (see the module docs)."""
    s: JSON = {name: int(getattr(state, name)) for name in _INTS}  # the event face: its int
    for name in (*_SEAT_LISTS, *_BOOL_LISTS):
        s[name] = list(getattr(state, name))
    for name in _STR_SETS:
        s[name] = sorted(v.value for v in getattr(state, name))
    s.update({
        "items": [list(h) for h in state.items],
        "gained": [list(g) for g in state.gained],
        "item_deck": list(state.item_deck), "item_discard": list(state.item_discard),
        "companion_deck": list(state.companion_deck),
        "companion_discard": list(state.companion_discard),
        "mode": int(state.mode), "phase": int(state.phase),
        "dec": None if state.dec is None else int(state.dec),
        "legal": [a.text for a in state.dec_legal],
        "to_move": list(state.to_move),
        "roll": list(state.roll),
        "after_draw": state.after_draw.value,
        "hidden_for": [[i, seat] for i, seat in sorted(state.hidden_for.items())],
        "winners": list(state.winners),
        "end_reason": state.end_reason,
        "end_params": dict(state.end_params),
    })
    game = state.game
    return {
        **snapshot_header(game),
        "state": s,
        "history": [entry_text(seat, a) for seat, a in state.history],
        "events": [{"code": e.code, "params": dict(e.params), "to": e.to}
                   for e in state.all_events()],
    }


def _bad(why: str, **params: Any) -> RecordError:
    return RecordError("farkle.snapshot.invalid", why=why, **params)


def _int(value: Any, name: str, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise _bad(f"{name} must be a whole number from {lo} to {hi}, not {shown(value)}")
    return value


def _list(value: Any, name: str, size: int | None, check: Callable[[Any, str], Any]) -> list[Any]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        raise _bad(f"{name} must be a list" + (f" of {size}" if size is not None else ""))
    return [check(v, f"{name}[{i}]") for i, v in enumerate(value)]


def restore(game: FarkleGame, data: Any) -> FarkleState:
    """The state of a snapshot of this table (checked; :class:`RecordError` if malformed)."""
    from dragonlair.games.farkle.state import SUPPLY, Dec, FarkleState, Mode, Phase

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad("not a snapshot")
    if data.get("format_version") != FORMAT_VERSION or type(data.get("format_version")) is not int:
        raise _bad(f"format_version must be {FORMAT_VERSION}")
    if data.get("game") != game.info.id or data.get("game_version") != game.info.version:
        raise _bad("a snapshot of another game or version")
    if data.get("options") != game.record_options():
        raise _bad("a snapshot of a table with other options")
    s = data.get("state")
    if not isinstance(s, dict):
        raise _bad("state must be an object")
    n = game.num_players
    big = 10**12
    st = FarkleState(game)
    want = {*_INTS, *_SEAT_LISTS, *_BOOL_LISTS, *_STR_SETS, "items", "gained", "item_deck",
            "item_discard", "companion_deck", "companion_discard", "mode", "phase", "dec",
            "legal", "to_move", "roll", "after_draw", "hidden_for", "winners", "end_reason",
            "end_params"}
    if set(s) != want:
        raise _bad(f"state fields differ: {sorted(set(s) ^ want)}")
    nitems, ncomps = len(game.items), len(game.companions)
    bounds = {"supply": (0, SUPPLY), "turn": (0, big), "player": (0, n - 1),
              "start_army": (0, SUPPLY), "roller": (0, n - 1), "full_dice": (5, 6),
              "hand_dice": (0, 6), "event": (0, 2), "pending": (0, big),
              "last_value": (0, big), "attacker": (-1, n - 1), "defender": (-1, n - 1),
              "attack_value": (0, big), "damage": (0, 100), "draw_for": (-1, n - 1),
              "setup_step": (0, 2 * n)}
    for name in _INTS:
        setattr(st, name, _int(s[name], name, *bounds[name]))
    st.event = EventFace(st.event)
    st.armies = _list(s["armies"], "armies", n, lambda v, k: _int(v, k, 0, SUPPLY))
    st.companions = _list(s["companions"], "companions", n,
                          lambda v, k: _int(v, k, -1, ncomps - 1))
    for name in _BOOL_LISTS:
        setattr(st, name, _list(s[name], name, n, _bool))
    for name, members in _STR_SETS.items():
        setattr(st, name, set(_list(s[name], name, None, _member(members))))
    item = lambda v, k: _int(v, k, 0, nitems - 1)  # noqa: E731
    st.items = _list(s["items"], "items", n, lambda v, k: _list(v, k, None, item))
    st.gained = _list(s["gained"], "gained", n, lambda v, k: _list(v, k, None, item))
    count = lambda v, k: _int(v, k, 0, 10)  # noqa: E731
    st.item_deck = _list(s["item_deck"], "item_deck", nitems, count)
    st.item_discard = _list(s["item_discard"], "item_discard", nitems, count)
    st.companion_deck = _list(s["companion_deck"], "companion_deck", ncomps, count)
    st.companion_discard = _list(s["companion_discard"], "companion_discard", ncomps, count)
    for k, card in enumerate(game.items):
        held = sum(h.count(k) + g.count(k) for h, g in zip(st.items, st.gained, strict=True))
        if st.item_deck[k] + st.item_discard[k] + held != card.count:
            raise _bad(f"the copies of item {card.id} do not add up")
    for k, card in enumerate(game.companions):
        if st.companion_deck[k] + st.companion_discard[k] + st.companions.count(k) \
                != card.count:
            raise _bad(f"the copies of companion {card.id} do not add up")
    if sum(st.armies) + st.supply != SUPPLY:
        raise _bad("the soldiers do not add up (D1)")
    st.mode = Mode(_int(s["mode"], "mode", 0, len(Mode) - 1))
    st.phase = Phase(_int(s["phase"], "phase", 0, len(Phase) - 1))
    st.dec = None if s["dec"] is None else Dec(_int(s["dec"], "dec", 0, len(Dec) - 1))
    st.to_move = tuple(_list(s["to_move"], "to_move", None,
                             lambda v, k: _int(v, k, CHANCE, n - 1)))
    if len(st.to_move) > 1:
        raise _bad("to_move holds one seat at most")
    st.roll = tuple(_list(s["roll"], "roll", 6, lambda v, k: _int(v, k, 0, 6)))
    if sum(st.roll) > 6:
        raise _bad("a roll has six dice at most")
    if not isinstance(s["after_draw"], str) or s["after_draw"] not in set(AfterDraw):
        raise _bad("after_draw must be '', 'end' or 'continue'")
    st.after_draw = AfterDraw(s["after_draw"])
    st.winners = tuple(_list(s["winners"], "winners", None, lambda v, k: _int(v, k, 0, n - 1)))
    if not isinstance(s["end_reason"], str) or not isinstance(s["end_params"], dict):
        raise _bad("end_reason must be text and end_params an object")
    if (st.phase == Phase.OVER) != bool(s["end_reason"]):
        raise _bad("a game is over exactly when it has an end reason")
    st.end_reason, st.end_params = s["end_reason"], dict(s["end_params"])
    st.dec_legal = tuple(sorted((_action(game, t, f"legal[{i}]")
                                 for i, t in enumerate(_list(s["legal"], "legal", None, _word))),
                                key=lambda a: a.index))
    if (st.to_move == () or st.to_move == (CHANCE,)) != (not st.dec_legal):
        raise _bad("legal actions are given exactly when a seat is to move")
    history = data.get("history")
    if not isinstance(history, list):
        raise _bad("history must be a list")
    for i, entry in enumerate(history):
        if not isinstance(entry, str):
            raise _bad(f"history[{i}] must be text")
        try:
            seat, text = parse_entry(entry, n)
        except DragonlairError as exc:
            raise _bad(f"history[{i}]: {exc}") from None
        st._history.append((seat, _action(game, text, f"history[{i}]")))
    hidden = _list(s["hidden_for"], "hidden_for", None,
                   lambda v, k: _list(v, k, 2, lambda x, j: _int(x, j, 0, big)))
    st.hidden_for = {}
    for index, seat in hidden:
        if index >= len(history) or seat >= n or history[index].split(":")[0] != "chance":
            raise _bad("hidden_for names a chance entry of the history and a seat")
        st.hidden_for[index] = seat
    events = data.get("events")
    if not isinstance(events, list):
        raise _bad("events must be a list")
    st._set_events([])
    for i, e in enumerate(events):
        event = _event(e, n, f"events[{i}]")
        st._ev = (compact(event), st._ev)
        st._nev += 1
    return st


def _bool(value: Any, name: str) -> bool:
    if type(value) is not bool:
        raise _bad(f"{name} must be true or false")
    return value


def _member(members: type[Power] | type[BattleBonus]) -> Callable[[Any, str], Any]:
    """A check that a value names one of ``members`` (the member, else :class:`RecordError`)."""
    def check(value: Any, name: str) -> Any:
        if not isinstance(value, str) or value not in set(members):
            raise _bad(f"{name} must be one of {sorted(m.value for m in members)}")
        return members(value)
    return check


def _word(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 60:
        raise _bad(f"{name} must be a short text")
    return value


def _action(game: FarkleGame, text: str, name: str) -> FarkleAction:
    try:
        return game.parse_action(text)
    except DragonlairError:
        raise _bad(f"{name}: {shown(text)} is no Dragon Farkle action") from None


def _event(e: Any, n: int, name: str) -> Event:
    if not isinstance(e, dict) or set(e) != {"code", "params", "to"}:
        raise _bad(f"{name} must hold code, params and to")
    code, params, to = e["code"], e["params"], e["to"]
    if code not in PARAMS or not isinstance(params, dict) or set(params) != set(PARAMS[code]):
        raise _bad(f"{name} is no Dragon Farkle event")
    if to is not None:
        _int(to, f"{name}.to", 0, n - 1)
    for key, value in params.items():
        if not isinstance(value, (int, str, list)) or isinstance(value, bool):
            raise _bad(f"{name}.params.{key} must be a number, a text or a list")
    return Event(code, params, to)
