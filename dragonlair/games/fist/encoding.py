"""Fist of Dragonstones' observation encoder (F8), built from a seat's view only
(:mod:`dragonlair.interop.encoding` describes the vectors).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from dragonlair.core.game import JSON, Game, State
from dragonlair.interop.encoding import Encoder, Vector

if TYPE_CHECKING:
    from dragonlair.games.fist.observe import FistObserver


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
        self._observer: FistObserver | None = None
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
        envelope = view
        view = envelope["public"]  # the envelope's public part (docs/views.md)
        self._one_hot(vec, at["seat"], envelope.get("seat"))
        vec[at["turn"].start] = envelope["turn"] / 30
        self._one_hot(vec, at["phase"], self.phases.index(envelope["phase"]))
        self._to_move(vec, at["to_move"],
                      [*envelope["to_move"], *(["chance"] if envelope["chance"] else [])])
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
        me = envelope.get("private")
        if me:
            vec[at["me"]] = _coins(me)
            bid = me.get("bid")
            if bid:
                vec[at["my_bid"]] = _bid_vector(bid)
        result = envelope.get("result")
        if result:
            self._mask(vec, at["result"], result["winners"])

    def _observe_state(self, state: State, seat: int | None, vec: Vector) -> bool:
        """The fast path: :mod:`dragonlair.games.fist.observe` writes the same vector from
        the engine's seat-visible fields."""
        observer = self._observer
        if observer is None:
            from dragonlair.games.fist.observe import FistObserver

            observer = self._observer = FistObserver(self)
        fist: Any = state
        observer.observe(fist, seat, vec)
        return True

    def _recall(self, view: JSON, vec: Vector) -> None:
        key = view.get("seat")
        memory = self._memories.get(key)
        if memory is None:
            memory = self._memories[key] = _Replay(self.game)
        state: Any = memory.update(view["public"]["history"])
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
