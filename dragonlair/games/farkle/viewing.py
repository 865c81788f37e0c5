"""What a Dragon Farkle seat may know (D9): the view envelope's parts built from a state
(their models: :mod:`dragonlair.games.farkle.views`), and the full state for tests."""

from __future__ import annotations

from dragonlair.core.errors import IllegalActionError, shown
from dragonlair.core.game import CHANCE, JSON, check_seat_range
from dragonlair.core.views import envelope
from dragonlair.games.farkle.actions import DICE_COUNT, DICE_SETS, EVENTS, FarkleAction, Kind
from dragonlair.games.farkle.base import FarkleBase
from dragonlair.games.farkle.enums import Dec, Mode, Phase
from dragonlair.games.farkle.scoring import dice_text

# Enum members as module globals, for the hot paths (as in .turns)
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


class Viewing(FarkleBase):
    """Views and the full state (see the module docs)."""

    # ------------------------------------------------------------------ views (D9)
    def _public(self, seat: int | None) -> JSON:
        """The public part of a view (:class:`~dragonlair.games.farkle.views.FarklePublic`):
        the record as ``seat`` may read it (D9)."""
        game = self.game
        log = self._log[:]
        for i, owner in self.hidden_for.items():
            if owner != seat:
                log[i] = f"chance: item for p{owner}"
        scan = self._scan()
        for i in scan.hidden:
            s, a = self._history[i]
            if s != seat:
                log[i] = f"p{s}: {'discard' if a.kind is _K_DISCARD else 'keep-item'} (hidden)"
        keeper, code = scan.last_keep
        items_used = dict(scan.items_used)
        keep_json = None if keeper < 0 else {  # last_value: the last keep's value
            "seat": keeper, "dice": dice_text(DICE_SETS[code]), "soldiers": self.last_value}
        return {
            "players": self.num_players,
            "max_turns": game.max_turns,
            "player": self.player,
            "decision": self.dec.name.lower() if self.dec is not None else (
                "action" if self.phase is _P_CHOOSE else None),
            "mode": self.mode.name.lower(),
            "roller": self.roller if self.mode is not _M_NONE else None,
            "roll": dice_text(self.roll),
            "event": EVENTS[self.event],
            "dice_in_hand": self.hand_dice,
            "pending": self.pending,
            "skirmish": ({"attacker": self.attacker, "defender": self.defender,
                          "attack_value": self.attack_value}
                         if self.mode is _M_SKIRMISH else None),
            "dragon": {"strength": game.dragon, "damage": self.damage},
            "table": game.table.to_json(),  # the scoring table in use (D2), for bots
            "seats": [
                {"seat": s, "army": self.armies[s], "in_lair": self.in_lair[s],
                 "companion": (game.companions[self.companions[s]].id
                               if self.companions[s] >= 0 else None),
                 "items": len(self.items[s]), "items_gained": len(self.gained[s])}
                for s in range(self.num_players)
            ],
            "item_deck_size": sum(self.item_deck),
            "last_keep": keep_json,
            "powers_used": sorted(p.value for p in self.used),
            "items_used": items_used,
            "history": log,
        }

    def _scan(self) -> RecordScan:
        """What the views derive from the record, read incrementally: the last keep, the
        item uses, and where the hidden choices are (D9). Kept per history list, so a clone
        (a list of its own) starts afresh."""
        scan = self._vscan
        history = self._history
        if scan is None or scan.history is not history:
            scan = self._vscan = RecordScan(history)
        if scan.upto < len(history):
            item_ids = self.game.space.item_ids
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

    def _private(self, seat: int) -> JSON:
        items = self.game.items
        return {"items": sorted(items[i].id for i in self.items[seat]),
                "gained": sorted(items[i].id for i in self.gained[seat]),
                "item_limit": self.item_limit(seat)}

    def _legal(self, seat: int) -> JSON | None:
        """What ``seat`` may do now, compactly
        (:class:`~dragonlair.games.farkle.views.FarkleLegal`); ``None`` if it may not act."""
        if seat not in self.to_move or self.phase is _P_OVER:
            return None
        legal = self.dec_legal
        if not legal:
            return None
        items = self.game.items
        out: JSON = {
            "decision": self.dec.name.lower() if self.dec is not None else "action",
            "actions": [a.text for a in legal],
            "recruit": False, "skirmish": [], "battle": False, "scare": [], "use": [],
            "keeps": [], "alliance": [], "roll": False, "end": None, "farkle": False,
            "tabby": False, "reroll": [], "pass": False, "items": [],
        }
        values = self._keep_choices(self.roll)[1] if self.dec is _D_KEEP else {}
        for a in legal:
            k = a.kind
            if k is _K_KEEP:
                n = DICE_COUNT[a.dice]
                out["keeps"].append({"action": a.text, "dice": dice_text(DICE_SETS[a.dice]),
                                     "soldiers": values.get(a.dice, 0),
                                     "dice_left": self.hand_dice - n})
            elif k is _K_RECRUIT:
                out["recruit"] = True
            elif k is _K_SKIRMISH:
                out["skirmish"].append(a.seat)
            elif k is _K_BATTLE:
                out["battle"] = True
            elif k is _K_SCARE:
                out["scare"].append(a.seat)
            elif k is _K_USE:
                out["use"].append(items[a.card].id)
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
            elif k is _K_PASS:
                out["pass"] = True
            elif k is _K_DISCARD or k is _K_KEEP_ITEM:
                out["items"].append(items[a.card].id)
        return out

    def view(self, seat: int | None, since: int = 0) -> JSON:
        """What ``seat`` may know (D9); ``None`` for a spectator: the envelope of
        :mod:`dragonlair.core.views`, with the events this viewer may see from ``since`` on."""
        if seat is not None:
            check_seat_range(seat, self.num_players)
        if type(since) is not int or since < 0:
            raise IllegalActionError("farkle.view.bad_since", since=shown(since))
        outcome = self.outcome()
        return envelope(
            game="farkle", game_version=self.game.info.version, seat=seat,
            to_move=[s for s in self.to_move if s != CHANCE],
            chance=self.to_move == (CHANCE,), phase=self.phase.name.lower(), turn=self.turn,
            public=self._public(seat),
            private=self._private(seat) if seat is not None else None,
            legal=self._legal(seat) if seat is not None else None,
            events=[e.to_json(seq) for seq, e in self.events_for(seat, since)],
            since=since, total=self._nev,
            result=outcome.to_json() if outcome else None)

    def full_state(self) -> JSON:
        """Everything, secrets included, flat (tests, debugging, the determinizer)."""
        v = self._public(None)
        outcome = self.outcome()
        items = self.game.items
        v.update(game="farkle", turn=self.turn, phase=self.phase.name.lower(),
                 to_move=["chance" if s == CHANCE else s for s in self.to_move],
                 result=outcome.to_json() if outcome else None)
        v["history"] = self._log[:]
        v["events"] = [e.to_json(seq) for seq, e in enumerate(self.all_events())]
        v["items"] = [sorted(items[i].id for i in h) for h in self.items]
        v["gained"] = [sorted(items[i].id for i in g) for g in self.gained]
        v["supply"] = self.supply
        v["item_deck"] = {items[i].id: n for i, n in enumerate(self.item_deck) if n}
        v["item_discard"] = {items[i].id: n for i, n in enumerate(self.item_discard) if n}
        return v



class RecordScan:
    """:meth:`FarkleState._scan`'s running results for one history list."""

    __slots__ = ("hidden", "history", "items_used", "last_keep", "upto")

    def __init__(self, history: list[tuple[int, FarkleAction]]) -> None:
        self.history = history
        self.upto = 0
        self.last_keep = (-1, 0)  # (seat, dice code) of the last keep; seat -1: none yet
        self.items_used: dict[str, int] = {}
        self.hidden: list[int] = []  # history indices of discard and keep-item choices
