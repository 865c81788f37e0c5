"""Observations for learning code, built from a seat's view only (F8, M6, D9).

Every encoder turns ``state.view(seat)`` (the JSON a seat is handed) into

- an **observation vector**: ``float32``, one fixed length per configured game (it depends
  on options such as the player count or the card set, never on the position). It describes
  the position as the seat sees it now;
- an **information-state vector**: the observation vector followed by a *recall block*: what
  a perfect memory of the seat's record adds (see each encoder);
- an **observation string**: canonical JSON of the view (sorted keys) without its record
  (``history``, Farkle's ``events``, Fist's private ``notes``);
- an **information-state string**: canonical JSON of the whole view. A view's record holds
  every public action and the seat's own actions and secrets (its bids, its deals, its item
  draws), so this string is perfect recall for the seat.

Nothing here reads an engine state: an encoder is given a view (a dict) and the configured
:class:`~dragonlair.core.game.Game` (for option-dependent sizes such as the card list), so a
change to another seat's hidden data cannot reach an observation unless the view leaks it.

Scalars are scaled to roughly [0, 1] by fixed constants (documented per field); one-hot
blocks are 0/1; counts are divided by the most there can be. ``encoder.layout()`` lists
``(field, slice, description)``; ``docs/research.md`` prints it for each game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dragonlair.core.game import JSON, Game, State

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("dragonlair.interop needs numpy: pip install 'dragonlair[openspiel]' "
                      "or 'dragonlair[pettingzoo]'") from exc

Vector = npt.NDArray[np.float32]

#: Names the view uses for the record: left out of observation strings.
RECALL_KEYS = ("history", "events")


def canonical(data: Any) -> str:
    """Canonical JSON: sorted keys, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def observation_string(view: JSON) -> str:
    """The view without its record (``history``, ``events``, private ``notes``)."""
    v = {k: val for k, val in view.items() if k not in RECALL_KEYS}
    me = v.get("me")
    if isinstance(me, dict) and "notes" in me:
        v["me"] = {k: val for k, val in me.items() if k != "notes"}
    return canonical(v)


def information_state_string(view: JSON) -> str:
    """The whole view: the seat's record of public actions and its own actions and secrets."""
    return canonical(view)


@dataclass(frozen=True, slots=True)
class Field:
    """One block of a vector."""

    name: str
    start: int
    size: int
    doc: str
    high: float = 1.0

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


class _Layout:
    """Named consecutive blocks."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.size = 0
        self.at: dict[str, slice] = {}

    def add(self, name: str, size: int, doc: str, high: float = 1.0) -> None:
        """A block of ``size`` values in [0, ``high``] (encoders clip at ``high``)."""
        f = Field(name, self.size, size, doc, high)
        self.fields.append(f)
        self.at[name] = f.slice
        self.size += size

    def highs(self) -> Vector:
        out = np.zeros(self.size, np.float32)
        for f in self.fields:
            out[f.slice] = f.high
        return out


class Encoder:
    """Base class: a game's observation and information-state vectors."""

    game_id = ""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.num_players = game.num_players
        self.obs = _Layout()
        self.recall = _Layout()
        self._build()
        self.observation_high: Vector = self.obs.highs()
        self.information_state_high: Vector = np.concatenate(
            [self.observation_high, self.recall.highs()])

    def _build(self) -> None:
        raise NotImplementedError

    @property
    def observation_size(self) -> int:
        return self.obs.size

    @property
    def information_state_size(self) -> int:
        return self.obs.size + self.recall.size

    def layout(self, information_state: bool = False) -> list[tuple[str, slice, str]]:
        """``(field, slice, description)`` for every block, in order."""
        return [(f.name, sl, f.doc) for f, sl in self._fields(information_state)]

    def _fields(self, information_state: bool) -> list[tuple[Field, slice]]:
        out = [(f, f.slice) for f in self.obs.fields]
        if information_state:
            off = self.obs.size
            out += [(f, slice(f.start + off, f.start + off + f.size)) for f in self.recall.fields]
        return out

    def describe(self, information_state: bool = False) -> str:
        """The layout as a Markdown table (docs/research.md prints these)."""
        rows = ["| field | slice | size | range | contents |", "|---|---|---|---|---|"]
        for f, sl in self._fields(information_state):
            rows.append(f"| `{f.name}` | {sl.start}:{sl.stop} | {f.size} | 0-{f.high:g} "
                        f"| {f.doc} |")
        return "\n".join(rows)

    def observation(self, view: JSON, out: Vector | None = None) -> Vector:
        """The observation vector of ``view`` (written into ``out`` when given)."""
        vec = np.zeros(self.obs.size, np.float32) if out is None else out
        vec[:] = 0.0
        self._observe(view, vec)
        np.minimum(vec, self.observation_high, out=vec)
        return vec

    def information_state(self, view: JSON, out: Vector | None = None) -> Vector:
        """The observation vector followed by the recall block."""
        vec = np.zeros(self.information_state_size, np.float32) if out is None else out
        vec[:] = 0.0
        self._observe(view, vec[:self.obs.size])
        self._recall(view, vec[self.obs.size:])
        np.minimum(vec, self.information_state_high, out=vec)
        return vec

    def _observe(self, view: JSON, vec: Vector) -> None:
        raise NotImplementedError

    def _recall(self, view: JSON, vec: Vector) -> None:
        raise NotImplementedError

    # helpers
    def _seat_block(self, name: str, doc: str, chance: bool = False) -> None:
        self.obs.add(name, self.num_players + (1 if chance else 0), doc)

    @staticmethod
    def _one_hot(vec: Vector, sl: slice, index: int | None) -> None:
        if index is not None and index >= 0:
            vec[sl.start + index] = 1.0

    @staticmethod
    def _mask(vec: Vector, sl: slice, indices: Iterable[int]) -> None:
        for i in indices:
            vec[sl.start + i] = 1.0

    def _to_move(self, vec: Vector, sl: slice, to_move: Sequence[Any]) -> None:
        for s in to_move:
            vec[sl.start + (self.num_players if s == "chance" else int(s))] = 1.0


# ---------------------------------------------------------------------- Dragon Master
class MasterEncoder(Encoder):
    """Dragon Master (M6: public grid and hand sizes, one's own hand).

    Cells are numbered ``row * 7 + column`` (a1 = 0, b1 = 1, ..., g7 = 48); card values are
    egg, emerald, sapphire, ruby (0-3). The recall block is the current round's placements in
    order: with the seat's own hand it is the seat's whole record of the round.
    """

    game_id = "master"

    def _build(self) -> None:
        from dragonlair.games.master.state import CELLS, Phase

        self.phases = [p.name.lower() for p in Phase]
        o = self.obs
        o.add("seat", 2, "one-hot: the observing seat (0 owns the columns, 1 the rows)")
        o.add("phase", len(self.phases), "one-hot: deal, start, place, over")
        o.add("to_move", 3, "p0, p1, chance")
        o.add("grid", CELLS * 4, "cell x value one-hot (49 x 4): the placed cards")
        o.add("legal_cells", CELLS, "cells a card may go on now (M3)")
        o.add("hand_sizes", 2, "cards in each hand / 8")
        o.add("line_scores", 8, "seat 0's four column scores, then seat 1's four row scores, "
              "/ 100", high=2.0)
        o.add("starter", 2, "one-hot: who started the round")
        o.add("match", 3, "match play flag, then each seat's dragons / 2")
        o.add("hand", 4, "own hand: count per value / 8 (zeros for a spectator)")
        o.add("unseen", 4, "cards the seat has not seen, per value / 5 (M6)")
        o.add("result", 2, "winners once the game is over")
        self.slots = 16
        self.recall.add("placements", self.slots * (2 + 4 + CELLS),
                        "16 slots in placement order: placer one-hot (2), value one-hot (4), "
                        "cell one-hot (49)")

    def _observe(self, view: JSON, vec: Vector) -> None:
        from dragonlair.games.master.cards import BY_ID, CARDS
        from dragonlair.games.master.state import cell_index

        at = self.obs.at
        self._one_hot(vec, at["seat"], view.get("seat"))
        self._one_hot(vec, at["phase"], self.phases.index(view["phase"]))
        self._to_move(vec, at["to_move"], view["to_move"])
        g = at["grid"].start
        for name, card in view["grid"].items():
            cell = cell_index(name)
            assert cell is not None
            vec[g + cell * 4 + BY_ID[card].value] = 1.0
        self._mask(vec, at["legal_cells"], (cell_index(c) or 0 for c in view["legal_cells"]))
        sl = at["hand_sizes"]
        vec[sl] = [n / 8 for n in view["hand_sizes"]]
        scores = view["line_scores"]
        lines = list(scores["columns"]) + list(scores["rows"])
        vec[at["line_scores"]] = [x / 100 for x in lines]
        self._one_hot(vec, at["starter"], view["starter"])
        m = at["match"].start
        vec[m] = 1.0 if view["match"] else 0.0
        vec[m + 1] = view["dragons"][0] / 2
        vec[m + 2] = view["dragons"][1] / 2
        if "hand" in view:
            vec[at["hand"]] = [view["hand"][c.id] / 8 for c in CARDS]
            vec[at["unseen"]] = [view["unseen"][c.id] / 5 for c in CARDS]
        result = view.get("result")
        if result:
            self._mask(vec, at["result"], result["winners"])

    def _recall(self, view: JSON, vec: Vector) -> None:
        from dragonlair.games.master.cards import BY_ID
        from dragonlair.games.master.state import CELLS, cell_index

        placed = len(view["grid"])
        entries = [e for e in view["history"] if ": place " in e]
        width = 2 + 4 + CELLS
        for slot, entry in enumerate(entries[len(entries) - placed:] if placed else []):
            who, _, text = entry.partition(": place ")
            card, cell = text.split()
            base = slot * width
            vec[base + int(who[1:])] = 1.0
            vec[base + 2 + BY_ID[card].value] = 1.0
            c = cell_index(cell)
            assert c is not None
            vec[base + 6 + c] = 1.0


# ---------------------------------------------------------------------- Dragon Farkle
class FarkleEncoder(Encoder):
    """Dragon Farkle (D9: everything public but the identity of other players' items).

    Armies, pending soldiers and attack values are divided by 5,000 (the Final Battle army,
    D3), dice counts by 6. The recall block counts, per item card, the copies the record
    shows used ("pN: use X"): a perfect memory knows they are out of the hidden pool.
    """

    game_id = "farkle"

    def _build(self) -> None:
        from dragonlair.games.farkle.state import Dec, Mode, Phase

        game: Any = self.game
        self.items = [c.id for c in game.items]
        self.companions = [c.id for c in game.companions]
        self.phases = [p.name.lower() for p in Phase]
        self.decisions = ["action", *(d.name.lower() for d in Dec)]
        self.modes = [m.name.lower() for m in Mode]
        self.item_total = sum(c.count for c in game.items)
        n, i, c = self.num_players, len(self.items), len(self.companions)
        o = self.obs
        self._seat_block("seat", "one-hot: the observing seat")
        o.add("turn", 1, "turn number / 30 (clipped at 10)", high=10.0)
        self._seat_block("player", "one-hot: whose turn it is")
        o.add("phase", len(self.phases), "one-hot: " + ", ".join(self.phases))
        o.add("decision", len(self.decisions), "one-hot: " + ", ".join(self.decisions))
        self._seat_block("to_move", "seats to move, then chance", chance=True)
        o.add("mode", len(self.modes), "one-hot: " + ", ".join(self.modes))
        self._seat_block("roller", "one-hot: who is rolling")
        o.add("roll", 6, "the last roll: count of each face 1-6 / 6")
        o.add("event", 3, "one-hot: the event die (dragon, alliance, blank)")
        o.add("dice", 2, "dice in hand / 6, pending soldiers / 5000", high=10.0)
        o.add("skirmish", 2 * n + 1, "attacker one-hot, defender one-hot, attack value / 5000",
              high=10.0)
        o.add("dragon", 2, "the dragon's strength / 5, its damage / 5", high=2.0)
        o.add("seats", n * (4 + c), f"per seat: army / 5000, in the Lair, items held / 3, "
              f"items gained this turn / 3, companion one-hot ({c}: "
              + ", ".join(self.companions) + ")", high=10.0)
        o.add("item_deck", 1, "cards in the item pile / all item cards")
        o.add("my_items", i, "own items held: count per card (" + ", ".join(self.items) + ")",
              high=10.0)
        o.add("my_gained", i, "own items gained this turn: count per card", high=10.0)
        o.add("item_limit", 1, "own item limit / 3 (D8.3)", high=10.0)
        self._seat_block("result", "winners once the game is over")
        self.recall.add("used_items", i, "uses of each item card the record shows / its count "
                        "in the deck (above 1 once used cards come back from the discards)",
                        high=10.0)

    def _observe(self, view: JSON, vec: Vector) -> None:
        at = self.obs.at
        n = self.num_players
        self._one_hot(vec, at["seat"], view.get("seat"))
        vec[at["turn"].start] = view["turn"] / 30
        self._one_hot(vec, at["player"], view["player"])
        self._one_hot(vec, at["phase"], self.phases.index(view["phase"]))
        if view["decision"] is not None:
            self._one_hot(vec, at["decision"], self.decisions.index(view["decision"]))
        self._to_move(vec, at["to_move"], view["to_move"])
        self._one_hot(vec, at["mode"], self.modes.index(view["mode"]))
        self._one_hot(vec, at["roller"], view["roller"])
        r = at["roll"].start
        for ch in view["roll"]:
            vec[r + int(ch) - 1] += 1 / 6
        self._one_hot(vec, at["event"], ("dragon", "alliance", "blank").index(view["event"]))
        d = at["dice"].start
        vec[d] = view["dice_in_hand"] / 6
        vec[d + 1] = view["pending"] / 5000
        sk = view["skirmish"]
        if sk:
            s = at["skirmish"].start
            vec[s + sk["attacker"]] = 1.0
            vec[s + n + sk["defender"]] = 1.0
            vec[s + 2 * n] = sk["attack_value"] / 5000
        dr = at["dragon"].start
        vec[dr] = view["dragon"]["strength"] / 5
        vec[dr + 1] = view["dragon"]["damage"] / 5
        width = 4 + len(self.companions)
        base = at["seats"].start
        for entry in view["seats"]:
            b = base + entry["seat"] * width
            vec[b] = entry["army"] / 5000
            vec[b + 1] = 1.0 if entry["in_lair"] else 0.0
            vec[b + 2] = entry["items"] / 3
            vec[b + 3] = entry["items_gained"] / 3
            if entry["companion"] is not None:
                vec[b + 4 + self.companions.index(entry["companion"])] = 1.0
        vec[at["item_deck"].start] = view["item_deck_size"] / max(1, self.item_total)
        me = view.get("me")
        if me:
            for name, key in (("my_items", "items"), ("my_gained", "gained")):
                start = at[name].start
                for item in me[key]:
                    vec[start + self.items.index(item)] += 1.0
            vec[at["item_limit"].start] = me["item_limit"] / 3
        result = view.get("result")
        if result:
            self._mask(vec, at["result"], result["winners"])

    def _recall(self, view: JSON, vec: Vector) -> None:
        game: Any = self.game
        counts = [c.count for c in game.items]
        for entry in view["history"]:
            _, sep, item = entry.partition(": use ")
            if sep and item in self.items:
                k = self.items.index(item)
                vec[k] += 1.0 / counts[k]


# ---------------------------------------------------------------------- Fist of Dragonstones
class FistEncoder(Encoder):
    """Fist of Dragonstones (F8: stones, scores, the bank and every revealed bid are public;
    coins behind a screen and sealed bids are not).

    Cards are in the table's order (built-in, then custom characters); Fairy Gold is divided
    by 60, Silver by 40, Common Gold by 15, stones by 12, scores by 3, the turn by 30. The
    recall block holds every seat's coins as a perfect memory of the record rebuilds them
    (as :class:`~dragonlair.games.fist.memory.FistMemory` does: F8 says the record explains
    every coin; only sealed bids stay unknown until revealed).
    """

    game_id = "fist"

    def _build(self) -> None:
        from dragonlair.games.fist.state import Dec, Phase

        game: Any = self.game
        self.cards = list(game.card_ids)
        self.phases = [p.name.lower() for p in Phase]
        self.decisions = [d.name.lower() for d in Dec]
        self._memories: dict[Any, Any] = {}
        n, k = self.num_players, len(self.cards)
        o = self.obs
        self._seat_block("seat", "one-hot: the observing seat")
        o.add("turn", 1, "turn number / 30 (clipped at 10)", high=10.0)
        o.add("phase", len(self.phases), "one-hot: " + ", ".join(self.phases))
        self._seat_block("to_move", "seats to move (all bidders at a sealed bid), then chance",
                         chance=True)
        o.add("card", k, "one-hot: the character up for auction")
        self._seat_block("tie_break", "seats in the Silver tie-break (F5.7)")
        self._seat_block("winner", "one-hot: the auction's winner")
        self._seat_block("second", "second-highest bidders (F6 Thief)")
        o.add("decision", len(self.decisions), "one-hot: what the winner decides: "
              + ", ".join(self.decisions))
        o.add("pile", k, "cards of this turn not yet auctioned: count per card", high=10.0)
        o.add("auctioned", k, "cards auctioned this turn: count per card", high=10.0)
        o.add("turn_specials", k, "the turn's special cards: count per card", high=10.0)
        o.add("special_discard", k, "special discard pile: count per card", high=10.0)
        o.add("special_deck", 1, "special deck size / 20", high=10.0)
        self._seat_block("doppelganger", "one-hot: who holds the Doppelganger")
        o.add("bank", 8, "bank: Fairy / 60, Silver / 40, Common / 15, amulets / 2, black / 2, "
              "red, blue, yellow stones / 12")
        o.add("drawn", 3, "stones drawn by a Rainbow Dragon, not yet kept, / 12")
        o.add("rainbow_colour", 3, "one-hot: the colour a Rainbow Dragon named")
        o.add("seats", n * 5, "per seat: score / 3, red, blue, yellow stones / 12, has bid "
              "(sealed bids only show that a seat has bid)")
        o.add("me", 6, "own coins: Fairy / 60, Fairy spent this turn / 60, Common / 15, "
              "Silver / 40, black, amulets / 2", high=10.0)
        o.add("my_bid", 6, "own sealed bid: submitted, Fairy / 60, Common / 15, black, amulet, "
              "Silver / 40")
        self._seat_block("result", "winners once the game is over")
        self.recall.add("coins", n * 6, "per seat, as a perfect memory rebuilds them: Fairy / 60, "
                        "Fairy spent / 60, Common / 15, Silver / 40, black, amulets / 2",
                        high=10.0)

    def _counts(self, vec: Vector, sl: slice, ids: Iterable[str]) -> None:
        for cid in ids:
            vec[sl.start + self.cards.index(cid)] += 1.0

    def _observe(self, view: JSON, vec: Vector) -> None:
        from dragonlair.games.fist.actions import COLOURS

        at = self.obs.at
        self._one_hot(vec, at["seat"], view.get("seat"))
        vec[at["turn"].start] = view["turn"] / 30
        self._one_hot(vec, at["phase"], self.phases.index(view["phase"]))
        self._to_move(vec, at["to_move"], view["to_move"])
        if view["card"] is not None:
            self._one_hot(vec, at["card"], self.cards.index(view["card"]))
        self._mask(vec, at["tie_break"], view["tie_break"])
        self._one_hot(vec, at["winner"], view["winner"])
        self._mask(vec, at["second"], view["second_highest"])
        if view["decision"] is not None:
            self._one_hot(vec, at["decision"], self.decisions.index(view["decision"]))
        for name in ("pile", "auctioned", "turn_specials", "special_discard"):
            self._counts(vec, at[name], view[name])
        vec[at["special_deck"].start] = view["special_deck_size"] / 20
        self._one_hot(vec, at["doppelganger"], view["doppelganger_holder"])
        bank = view["bank"]
        vec[at["bank"]] = [bank["fairy"] / 60, bank["silver"] / 40, bank["common"] / 15,
                           bank["amulet"] / 2, bank["black"] / 2,
                           *(bank["stones"][c] / 12 for c in COLOURS)]
        vec[at["drawn"]] = [view["drawn"][c] / 12 for c in COLOURS]
        if view["rainbow_colour"] is not None:
            self._one_hot(vec, at["rainbow_colour"], COLOURS.index(view["rainbow_colour"]))
        base = at["seats"].start
        for entry in view["seats"]:
            b = base + entry["seat"] * 5
            vec[b] = entry["score"] / 3
            for c, colour in enumerate(COLOURS):
                vec[b + 1 + c] = entry["stones"][colour] / 12
            vec[b + 4] = 1.0 if entry.get("has_bid") else 0.0
        me = view.get("me")
        if me:
            vec[at["me"]] = _coins(me)
            bid = me.get("bid")
            if bid:
                vec[at["my_bid"]] = _bid_vector(bid)
        result = view.get("result")
        if result:
            self._mask(vec, at["result"], result["winners"])

    def _recall(self, view: JSON, vec: Vector) -> None:
        key = view.get("seat")
        memory = self._memories.get(key)
        if memory is None:
            memory = self._memories[key] = _Replay(self.game)
        state: Any = memory.update(view["history"])
        for s, p in enumerate(state.players):
            vec[s * 6:(s + 1) * 6] = _coins(p.coins_json())


class _Replay:
    """A perfect memory of a record (as :class:`~dragonlair.games.fist.memory.FistMemory`),
    replayed incrementally: it stops at the first sealed bid, and starts again whenever the
    record is not a continuation of the one it has replayed (observers see many states)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state = game.new_initial_state()
        self.applied: list[str] = []

    def update(self, history: Sequence[str]) -> State:
        from dragonlair.core.records import parse_entry

        done = len(self.applied)
        if len(history) < done or list(history[:done]) != self.applied:
            self.state = self.game.new_initial_state()
            self.applied = []
        n = self.game.num_players
        for entry in history[len(self.applied):]:
            seat, text = parse_entry(entry, n)
            if text == "sealed":
                break
            self.state.apply(seat, self.game.parse_action(text))
            self.applied.append(entry)
        return self.state


def _coins(c: JSON) -> list[float]:
    return [c["fairy"] / 60, c["fairy_spent"] / 60, c["common"] / 15, c["silver"] / 40,
            float(c["black"]), c["amulet"] / 2]


def _bid_vector(text: str) -> list[float]:
    """``bid f3 c1 black amulet`` or ``silver 2 amulet`` as the ``my_bid`` block."""
    words = text.split()
    out = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    if words[0] == "bid":
        for w in words[1:]:
            if w.startswith("f"):
                out[1] = int(w[1:]) / 60
            elif w.startswith("c"):
                out[2] = int(w[1:]) / 15
    else:
        out[5] = int(words[1]) / 40
    out[3] = 1.0 if "black" in words else 0.0
    out[4] = 1.0 if "amulet" in words else 0.0
    return out


ENCODERS: dict[str, type[Encoder]] = {
    "master": MasterEncoder,
    "farkle": FarkleEncoder,
    "fist": FistEncoder,
}


def encoder_for(game: Game) -> Encoder:
    """The encoder of a configured game."""
    return ENCODERS[game.info.id](game)
