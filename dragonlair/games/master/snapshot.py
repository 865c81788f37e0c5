"""Dragon Master snapshots: a state as JSON, and back, without replaying the whole history.

A snapshot holds the options, the record entries so far, the finished rounds, the position
of the round being played (grid, hands, the undealt deck, whose turn) and the events::

    {"format": "dragonlair-snapshot", "format_version": 1, "game": "master",
     "game_version": 1, "options": {...},
     "state": {"history": ["chance: deal egg", ...], "rounds": [...], "dragons": [0, 1],
               "phase": "place", "player": 1, "starter": 0, "grid": {"d4": "ruby"},
               "hands": [{"egg": 2, ...}, {...}], "deck": {"egg": 1, ...},
               "winners": [], "end_reason": "", "end_params": {}},
     "events": [{"code": "...", "params": {...}, "to": 0}, ...]}

:func:`restore` trusts none of it. The finished rounds are taken as given once their entries
have the shape of a round (16 deals, the start, 16 placements by alternating seats) and their
line scores, winner and set-aside cards follow from those entries (M4); the round being played
(at most 33 entries) is applied through the rules, so an illegal move is refused; then the
restored state must write exactly the snapshot it came from, events included. Anything else
raises :class:`RecordError` with the code ``master.snapshot.invalid``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import DragonlairError, RecordError, shown
from dragonlair.core.game import JSON, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, snapshot_header
from dragonlair.core.records import entry_text, parse_entry
from dragonlair.games.master.actions import SIZE, Kind, MasterAction, cell_name
from dragonlair.games.master.cards import BY_ID, CARDS, COPIES, HAND, compare
from dragonlair.games.master.rounds import RoundResult, new_round

if TYPE_CHECKING:
    from dragonlair.games.master.game import MasterGame
    from dragonlair.games.master.state import MasterState

FORMAT, FORMAT_VERSION = SNAPSHOT_FORMAT, SNAPSHOT_VERSION


def snapshot(state: MasterState) -> JSON:
    game = state.game
    ids = [c.id for c in CARDS]
    return {
        **snapshot_header(game),
        "state": {
            "history": state._log[:],
            "rounds": [{**r.to_json(), "set_aside": sorted(ids[v] for v in r.set_aside),
                        "start": r.start} for r in state.rounds],
            "dragons": state.dragons[:],
            "phase": state.phase.name.lower(),
            "player": state.player,
            "starter": state.starter,
            "grid": {cell_name(c): ids[v] for c, v in enumerate(state.grid) if v >= 0},
            "hands": [dict(zip(ids, h, strict=True)) for h in state.hands],
            "deck": dict(zip(ids, state.deck, strict=True)),
            "winners": list(state.winners),
            "end_reason": state.end_reason,
            "end_params": dict(state.end_params),
        },
        "events": [{"code": e.code, "params": dict(e.params), "to": e.to}
                   for e in state.all_events()],
    }


def _bad(part: str, **params: Any) -> RecordError:
    """``master.snapshot.invalid``: which ``part`` of the snapshot is wrong (its message is
    ``master.snapshot_part.<part>``), with what locates it."""
    return RecordError("master.snapshot.invalid", part=part, **params)


def _round_length(k: int) -> int:
    """History entries of round ``k``: 16 deals, the start (the first round only), 16 cards."""
    return 4 * HAND + (1 if k == 0 else 0)


def _round_start(k: int) -> int:
    return sum(_round_length(i) for i in range(k))


def _check_past_round(k: int, data: Any, entries: list[tuple[int, MasterAction]],
                      table: list[int]) -> None:
    """A finished round's shape, and its result as M4 gives it from its entries."""
    if not isinstance(data, dict):
        raise _bad("round_shape", round=k)
    deals = [a for s, a in entries[:2 * HAND]]
    if len(entries) != _round_length(k) or any(a.kind != Kind.DEAL for a in deals):
        raise _bad("round_shape", round=k)
    counts = [0] * 4
    for a in deals:
        counts[a.value] += 1
    if max(counts) > COPIES:
        raise _bad("round_shape", round=k)
    rest = entries[2 * HAND:]
    if k == 0:
        if rest[0][1].kind != Kind.START:
            raise _bad("round_shape", round=k)
        starter = rest[0][1].value
        rest = rest[1:]
    else:
        starter = rest[0][0]
    cols, rows = [0] * SIZE, [0] * SIZE
    hands = [sorted(a.value for a in deals[:HAND]), sorted(a.value for a in deals[HAND:])]
    placed: list[list[int]] = [[], []]
    for i, (seat, a) in enumerate(rest):
        if a.kind != Kind.PLACE or seat != (starter + i) % 2:
            raise _bad("round_shape", round=k)
        placed[seat].append(a.value)
        cols[a.cell % SIZE] += 5 ** a.value
        rows[a.cell // SIZE] += 5 ** a.value
    if sorted(placed[0]) != hands[0] or sorted(placed[1]) != hands[1]:
        raise _bad("round_shape", round=k)
    used_cols = [table[c] for c in cols if c]
    used_rows = [table[c] for c in rows if c]
    if len(used_cols) != 4 or len(used_rows) != 4:
        raise _bad("round_shape", round=k)
    set_aside = sorted(CARDS[v].id for v in range(4) for _ in range(COPIES - counts[v]))
    result = compare(used_cols, used_rows)
    winner = 0 if result > 0 else 1 if result < 0 else None
    pairs = list(zip(sorted(used_cols), sorted(used_rows), strict=True))
    decided = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
    expected = {"columns": used_cols, "rows": used_rows, "winner": winner, "starter": starter,
                "set_aside": set_aside, "decided_at": decided, "start": _round_start(k)}
    if data != expected:
        raise _bad("round_result", round=k)


def restore(game: MasterGame, data: Any) -> MasterState:
    """The state a snapshot was written from (see the module docs)."""
    if not isinstance(data, dict):
        raise _bad("object")
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        raise _bad("format")
    if data.get("game") != game.info.id or data.get("game_version") != game.info.version:
        raise _bad("game", game=shown(data.get("game")),
                   version=shown(data.get("game_version")))
    if data.get("options") != game.record_options():
        raise _bad("options")
    body = data.get("state")
    if not isinstance(body, dict):
        raise _bad("state")
    entries = body.get("history")
    rounds = body.get("rounds")
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise _bad("history")
    if not isinstance(rounds, list):
        raise _bad("rounds")
    parsed: list[tuple[int, MasterAction]] = []
    for i, entry in enumerate(entries):
        try:
            seat, text = parse_entry(entry, 2)
            action = game.parse_action(text)
        except (ValueError, DragonlairError):
            raise _bad("entry", index=i) from None
        parsed.append((seat, action))
    over = body.get("phase") == "over"
    finished = len(rounds) - 1 if over else len(rounds)
    if finished < 0 or (not game.match and len(rounds) > 1):
        raise _bad("rounds")
    start = _round_start(finished)
    if len(parsed) < start or len(parsed) - start > _round_length(finished):
        raise _bad("history")
    state = game.new_initial_state()
    for k in range(finished):
        begin = _round_start(k)
        _check_past_round(k, rounds[k], parsed[begin:begin + _round_length(k)], game.table)
        r = rounds[k]
        state.rounds.append(RoundResult(
            list(r["columns"]), list(r["rows"]), r["winner"], r["starter"],
            sorted(BY_ID[c].value for c in r["set_aside"]), r["decided_at"], r["start"]))
        if r["winner"] is not None:
            state.dragons[r["winner"]] += 1
            if state.dragons[r["winner"]] >= 2:
                raise _bad("rounds")
    state._history = parsed[:start]
    state._log_list = [entry_text(s, a) for s, a in parsed[:start]]
    new_round(state)
    try:
        for seat, action in parsed[start:]:
            if state.is_terminal():
                raise _bad("history")
            state.apply(seat, action)
    except DragonlairError as exc:
        if isinstance(exc, RecordError):
            raise
        raise _bad("round_in_play", rule=exc.rule, refused=exc.code) from None
    got = snapshot(state)
    if got["state"] != body:
        wrong = sorted(k for k in set(body) | set(got["state"])
                       if body.get(k) != got["state"].get(k))
        raise _bad("position", fields=wrong)
    events = data.get("events")
    if events is not None and events != got["events"]:
        raise _bad("events")
    return state

