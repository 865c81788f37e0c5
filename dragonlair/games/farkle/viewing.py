"""What a Dragon Farkle seat may know (D9): the view envelope's parts built from a state
(their models: :mod:`dragonlair.games.farkle.views`), and the full state for tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dragonlair.core.errors import IllegalActionError, shown
from dragonlair.core.game import CHANCE, JSON, check_seat_range
from dragonlair.core.views import envelope
from dragonlair.games.farkle.actions import DICE_COUNT, DICE_SETS, EVENTS, FarkleAction, Kind
from dragonlair.games.farkle.base import item_limit, keep_choices
from dragonlair.games.farkle.enums import Dec, Mode, Phase
from dragonlair.games.farkle.scoring import Scorer, ScoringTable, dice_text

if TYPE_CHECKING:
    from dragonlair.games.farkle.state import FarkleState

# Enum members as module globals, for the hot paths (as in .base)
_P_OVER = Phase.OVER
_D_KEEP = Dec.KEEP
_K_BANK = Kind.BANK
_K_BATTLE = Kind.BATTLE
_K_DOUBLE = Kind.DOUBLE
_K_KEEP = Kind.KEEP
_K_RECRUIT = Kind.RECRUIT
_K_REROLL = Kind.REROLL
_K_ROLL = Kind.ROLL
_K_SCARE = Kind.SCARE
_K_SKIRMISH = Kind.SKIRMISH
_K_TABBY = Kind.TABBY
_K_USE = Kind.USE
_K_DISCARD = Kind.DISCARD
_K_FARKLE = Kind.FARKLE
_K_ITEM = Kind.ITEM
_K_KEEP_ITEM = Kind.KEEP_ITEM
_K_PASS = Kind.PASS
_K_STOP = Kind.STOP
_M_NONE = Mode.NONE
_M_SKIRMISH = Mode.SKIRMISH
_P_CHOOSE = Phase.CHOOSE
_P_ROLL = Phase.ROLL
_P_DRAW = Phase.DRAW
_D_ALLIANCE = Dec.ALLIANCE
_D_CONTINUE = Dec.CONTINUE
#: a legal action's ``kind`` in a view's ``moves`` (:class:`.views.Move`)
_MOVE_KIND = {k: k.name.lower() for k in Kind}


# ------------------------------------------------------------------ the next roll
_RISKS: dict[ScoringTable, tuple[float, ...]] = {}


def farkle_risks(scorer: Scorer) -> tuple[float, ...]:
    """Per number of soldier dice k (0-6): the chance that a roll of k dice shows nothing the
    scorer's table scores (a farkle, D4.2), by the engine's scorer over every roll of k dice
    (:func:`.state.roll_outcomes`); rounded to 4 places (0.0772: 7.7 %). Worked out once per
    table."""
    got = _RISKS.get(scorer.table)
    if got is None:
        from dragonlair.games.farkle.state import roll_outcomes

        got = _RISKS[scorer.table] = (0.0, *(
            round(sum(p for code, _, p in roll_outcomes(k)
                      if not scorer.selections(DICE_SETS[code])), 4) for k in range(1, 7)))
    return got


def dice_after(state: FarkleState, left: int) -> int:
    """How many dice the roller's next roll takes with ``left`` dice in hand: those, or
    after hot dice all the roller's dice again (``full_dice``: 6, a Skirmish defender 5;
    D4.1, D5.2, D6.3), as the engine's ``roll`` does (:mod:`.turns`)."""
    return left or state.full_dice


def next_roll(state: FarkleState) -> JSON | None:
    """The roller's next roll, if one is coming or may be chosen now: ``{"dice", "risk"}``
    (a roll under way, an item drawn mid-turn, an alliance's choice, roll on or stop);
    ``None`` between actions and while dice lie on the table to be set aside (each
    selection says what follows it: ``legal.keeps``)."""
    if state.mode is _M_NONE or state.phase is _P_OVER:
        return None
    if state.phase is _P_ROLL:
        dice = state.hand_dice  # the dice being rolled (hot dice were refilled already)
    elif state.phase is _P_DRAW or state.dec is _D_CONTINUE or state.dec is _D_ALLIANCE:
        dice = dice_after(state, state.hand_dice)
    else:
        return None
    return {"dice": dice, "risk": farkle_risks(state.scorer)[dice]}


# ------------------------------------------------------------------ views (D9)
def public_part(state: FarkleState, seat: int | None) -> JSON:
    """The public part of a view (:class:`~dragonlair.games.farkle.views.FarklePublic`):
    the record as ``seat`` may read it (D9)."""
    game = state.game
    log = state._log[:]
    for i, owner in state.hidden_for.items():
        if owner != seat:
            log[i] = f"chance: item for p{owner}"
    scan = record_scan(state)
    for i in scan.hidden:
        s, a = state._history[i]
        if s != seat:
            log[i] = f"p{s}: {'discard' if a.kind is _K_DISCARD else 'keep-item'} (hidden)"
    keeper, code = scan.last_keep
    items_used = dict(scan.items_used)
    keep_json = None if keeper < 0 else {  # last_value: the last keep's value
        "seat": keeper, "dice": dice_text(DICE_SETS[code]), "soldiers": state.last_value}
    return {
        "players": state.num_players,
        "max_turns": game.max_turns,
        "player": state.player,
        "decision": state.dec.name.lower() if state.dec is not None else (
            "action" if state.phase is _P_CHOOSE else None),
        "mode": state.mode.name.lower(),
        "roller": state.roller if state.mode is not _M_NONE else None,
        "roll": dice_text(state.roll),
        "event": EVENTS[state.event],
        "dice_in_hand": state.hand_dice,
        "next_roll": next_roll(state),
        "pending": state.pending,
        "skirmish": ({"attacker": state.attacker, "defender": state.defender,
                      "attack_value": state.attack_value}
                     if state.mode is _M_SKIRMISH else None),
        "dragon": {"strength": game.dragon, "damage": state.damage},
        "table": game.table.to_json(),  # the scoring table in use (D2), for bots
        "seats": [
            {"seat": s, "army": state.armies[s], "in_lair": state.in_lair[s],
             "companion": (game.companions[state.companions[s]].id
                           if state.companions[s] >= 0 else None),
             "items": len(state.items[s]), "items_gained": len(state.gained[s])}
            for s in range(state.num_players)
        ],
        "item_deck_size": sum(state.item_deck),
        "last_keep": keep_json,
        "powers_used": sorted(p.value for p in state.used),
        "items_used": items_used,
        "history": log,
    }


def record_scan(state: FarkleState) -> RecordScan:
    """What the views derive from the record, read incrementally: the last keep, the
    item uses, and where the hidden choices are (D9). Kept per history list, so a clone
    (a list of its own) starts afresh."""
    scan = state._vscan
    history = state._history
    if scan is None or scan.history is not history:
        scan = state._vscan = RecordScan(history)
    if scan.upto < len(history):
        item_ids = state.game.space.item_ids
        uses = scan.items_used
        for i in range(scan.upto, len(history)):
            s, a = history[i]
            k = a.kind
            if s < 0:
                continue
            if k is _K_KEEP:
                scan.last_keep = s, a.dice
            elif k is _K_USE:
                name = item_ids[a.card]
                uses[name] = uses.get(name, 0) + 1
            elif k is _K_DISCARD or k is _K_KEEP_ITEM:
                scan.hidden.append(i)
        scan.upto = len(history)
    return scan


def private_part(state: FarkleState, seat: int) -> JSON:
    items = state.game.items
    return {"items": sorted(items[i].id for i in state.items[seat]),
            "gained": sorted(items[i].id for i in state.gained[seat]),
            "item_limit": item_limit(state, seat)}


def legal_part(state: FarkleState, seat: int) -> JSON | None:
    """What ``seat`` may do now, compactly
    (:class:`~dragonlair.games.farkle.views.FarkleLegal`); ``None`` if it may not act."""
    if seat not in state.to_move or state.phase is _P_OVER:
        return None
    legal = state.dec_legal
    if not legal:
        return None
    items = state.game.items
    out: JSON = {
        "decision": state.dec.name.lower() if state.dec is not None else "action",
        "actions": [a.text for a in legal], "moves": [],
        "recruit": False, "skirmish": [], "battle": False, "scare": [], "use": [],
        "keeps": [], "alliance": [], "roll": False, "end": None, "farkle": False,
        "tabby": False, "reroll": [], "pass": False, "items": [],
    }
    values = keep_choices(state, state.roll)[1] if state.dec is _D_KEEP else {}
    risks = farkle_risks(state.scorer)
    moves = out["moves"]
    for a in legal:
        k = a.kind
        move: JSON = {"action": a.text, "kind": _MOVE_KIND[k]}
        moves.append(move)
        if k is _K_KEEP:
            n = DICE_COUNT[a.dice]
            dice = move["dice"] = dice_text(DICE_SETS[a.dice])
            nxt = dice_after(state, state.hand_dice - n)
            out["keeps"].append({"action": a.text, "dice": dice,
                                 "soldiers": values.get(a.dice, 0),
                                 "dice_left": state.hand_dice - n,
                                 "next_dice": nxt, "risk": risks[nxt]})
        elif k is _K_RECRUIT:
            out["recruit"] = True
        elif k is _K_SKIRMISH:
            out["skirmish"].append(a.seat)
            move["seat"] = a.seat
        elif k is _K_BATTLE:
            out["battle"] = True
        elif k is _K_SCARE:
            out["scare"].append(a.seat)
            move["seat"] = a.seat
        elif k is _K_USE:
            out["use"].append(items[a.card].id)
            move["card"] = items[a.card].id
        elif k is _K_DOUBLE:
            out["alliance"].append("double")
        elif k is _K_ITEM:
            out["alliance"].append("item")
        elif k is _K_ROLL:
            out["roll"] = True
        elif k is _K_BANK:
            out["end"] = "bank"
        elif k is _K_STOP:
            out["end"] = "stop"
        elif k is _K_FARKLE:
            out["farkle"] = True
        elif k is _K_TABBY:
            out["tabby"] = True
        elif k is _K_REROLL:
            out["reroll"].append(a.face)
            move["face"] = a.face
        elif k is _K_PASS:
            out["pass"] = True
        elif k is _K_DISCARD or k is _K_KEEP_ITEM:
            out["items"].append(items[a.card].id)
            move["card"] = items[a.card].id
    return out


def view(state: FarkleState, seat: int | None, since: int = 0) -> JSON:
    """What ``seat`` may know (D9); ``None`` for a spectator: the envelope of
    :mod:`dragonlair.core.views`, with the events this viewer may see from ``since`` on."""
    if seat is not None:
        check_seat_range(seat, state.num_players)
    if type(since) is not int or since < 0:
        raise IllegalActionError("farkle.view.bad_since", since=shown(since))
    outcome = state.outcome()
    return envelope(
        game="farkle", game_version=state.game.info.version, seat=seat,
        to_move=[s for s in state.to_move if s != CHANCE],
        chance=state.to_move == (CHANCE,), phase=state.phase.name.lower(), turn=state.turn,
        public=public_part(state, seat),
        private=private_part(state, seat) if seat is not None else None,
        legal=legal_part(state, seat) if seat is not None else None,
        events=[e.to_json(seq) for seq, e in state.events_for(seat, since)],
        since=since, total=state._nev,
        result=outcome.to_json() if outcome else None)


def full_state(state: FarkleState) -> JSON:
    """Everything, secrets included, flat (tests, debugging, the determinizer)."""
    v = public_part(state, None)
    outcome = state.outcome()
    items = state.game.items
    v.update(game="farkle", turn=state.turn, phase=state.phase.name.lower(),
             to_move=["chance" if s == CHANCE else s for s in state.to_move],
             result=outcome.to_json() if outcome else None)
    v["history"] = state._log[:]
    v["events"] = [e.to_json(seq) for seq, e in enumerate(state.all_events())]
    v["items"] = [sorted(items[i].id for i in h) for h in state.items]
    v["gained"] = [sorted(items[i].id for i in g) for g in state.gained]
    v["supply"] = state.supply
    v["item_deck"] = {items[i].id: n for i, n in enumerate(state.item_deck) if n}
    v["item_discard"] = {items[i].id: n for i, n in enumerate(state.item_discard) if n}
    return v


class RecordScan:
    """:func:`record_scan`'s running results for one history list."""

    __slots__ = ("hidden", "history", "items_used", "last_keep", "upto")

    def __init__(self, history: list[tuple[int, FarkleAction]]) -> None:
        self.history = history
        self.upto = 0
        self.last_keep = (-1, 0)  # (seat, dice code) of the last keep; seat -1: none yet
        self.items_used: dict[str, int] = {}
        self.hidden: list[int] = []  # history indices of discard and keep-item choices
