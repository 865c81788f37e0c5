"""Dragon Farkle's observation encoder (D9), built from a seat's view only
(:mod:`dragonlair.interop.encoding` describes the vectors).
"""

from __future__ import annotations

from typing import Any

from dragonlair.core.game import CHANCE, JSON, State
from dragonlair.interop.encoding import Encoder, Vector, scalar_writer


class FarkleEncoder(Encoder):
    """Dragon Farkle (D9: everything public but the identity of other players' items).

    Armies, pending soldiers and attack values are divided by 5,000 (the Final Battle army,
    D3), dice counts by 6. The recall block counts, per item card, the copies the record
    shows used (the view's ``items_used``): a perfect memory knows they are out of the hidden pool.
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
        self._fast_tables()

    def _fast_tables(self) -> None:
        """The fast path's tables (:meth:`_observe_state`): the type it reads, each block's
        start, the offsets of the enums' values, and each card's place in the card blocks."""
        from dragonlair.games.farkle.actions import EVENTS, EventFace
        from dragonlair.games.farkle.base import item_limit
        from dragonlair.games.farkle.state import Dec, FarkleState, Mode, Phase

        game: Any = self.game
        at = self.obs.at
        self._state_type = FarkleState
        self._item_limit = item_limit
        self._at = {name: sl.start for name, sl in at.items()}
        self._phase_at = {p: at["phase"].start + self.phases.index(p.name.lower())
                          for p in Phase}
        d = at["decision"].start
        self._dec_at = {dec: d + self.decisions.index(dec.name.lower()) for dec in Dec}
        self._action_at = d + self.decisions.index("action")
        self._choose = Phase.CHOOSE
        self._over = Phase.OVER
        self._mode_at = {m: at["mode"].start + self.modes.index(m.name.lower()) for m in Mode}
        self._no_mode = Mode.NONE
        self._skirmish = Mode.SKIRMISH
        self._event_at = {e: at["event"].start + ("dragon", "alliance", "blank").index(EVENTS[e])
                          for e in EventFace}
        #: a card's place in the card blocks, by its index in the game's cards
        self._companion_of = [self.companions.index(c.id) for c in game.companions]
        self._item_of = [self.items.index(c.id) for c in game.items]
        # the roll block as the view encoding sums it: 1/6 added per die to a float32 of
        # the vector (numpy's rounding, in a float32 scratch array of the layout's)
        acc = self.obs.highs()[:1]
        acc[0] = 0.0
        self._roll_value = [0.0]
        for _ in range(6):
            acc[0] += 1 / 6
            self._roll_value.append(float(acc[0]))

    def _observe(self, envelope: JSON, vec: Vector) -> None:
        at = self.obs.at
        n = self.num_players
        view = envelope["public"]  # the envelope's public part (docs/views.md)
        self._one_hot(vec, at["seat"], envelope.get("seat"))
        vec[at["turn"].start] = envelope["turn"] / 30
        self._one_hot(vec, at["player"], view["player"])
        self._one_hot(vec, at["phase"], self.phases.index(envelope["phase"]))
        if view["decision"] is not None:
            self._one_hot(vec, at["decision"], self.decisions.index(view["decision"]))
        self._to_move(vec, at["to_move"],
                      [*envelope["to_move"], *(["chance"] if envelope["chance"] else [])])
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
        me = envelope.get("private")
        if me:
            for name, key in (("my_items", "items"), ("my_gained", "gained")):
                start = at[name].start
                for item in me[key]:
                    vec[start + self.items.index(item)] += 1.0
            vec[at["item_limit"].start] = me["item_limit"] / 3
        result = envelope.get("result")
        if result:
            self._mask(vec, at["result"], result["winners"])

    def _observe_state(self, state: State, seat: int | None, vec: Vector) -> bool:
        """:meth:`_observe` of ``seat``'s position view, read from the state's public fields
        and the seat's own items only (D9: another seat's items show as counts)."""
        n = self.num_players
        if type(state) is not self._state_type or not (
                seat is None or (type(seat) is int and 0 <= seat < n)):
            return False
        st: Any = state
        at = self._at
        out = scalar_writer(vec)  # a scalar write there costs half a numpy one
        if seat is not None:
            out[seat] = 1.0
        out[at["turn"]] = st.turn / 30
        if st.player >= 0:
            out[at["player"] + st.player] = 1.0
        phase = st.phase
        out[self._phase_at[phase]] = 1.0
        dec = st.dec
        if dec is not None:
            out[self._dec_at[dec]] = 1.0
        elif phase is self._choose:
            out[self._action_at] = 1.0
        to_move = st.to_move
        t = at["to_move"]
        if to_move == (CHANCE,):
            out[t + n] = 1.0
        else:
            for s in to_move:
                if s != CHANCE:
                    out[t + s] = 1.0
        mode = st.mode
        out[self._mode_at[mode]] = 1.0
        if mode is not self._no_mode and st.roller >= 0:
            out[at["roller"] + st.roller] = 1.0
        r = at["roll"]
        values = self._roll_value
        for face, count in enumerate(st.roll):
            if count:
                out[r + face] = values[count]
        out[self._event_at[st.event]] = 1.0
        d = at["dice"]
        out[d] = st.hand_dice / 6
        out[d + 1] = st.pending / 5000
        if mode is self._skirmish:
            k = at["skirmish"]
            out[k + st.attacker] = 1.0
            out[k + n + st.defender] = 1.0
            out[k + 2 * n] = st.attack_value / 5000
        dr = at["dragon"]
        out[dr] = st.game.dragon / 5
        out[dr + 1] = st.damage / 5
        width = 4 + len(self.companions)
        b = at["seats"]
        armies, lair, companions = st.armies, st.in_lair, st.companions
        items, gained = st.items, st.gained  # only counted, but the seat's own (D9)
        companion_of = self._companion_of
        for s in range(n):
            out[b] = armies[s] / 5000
            if lair[s]:
                out[b + 1] = 1.0
            out[b + 2] = len(items[s]) / 3
            out[b + 3] = len(gained[s]) / 3
            if companions[s] >= 0:
                out[b + 4 + companion_of[companions[s]]] = 1.0
            b += width
        out[at["item_deck"]] = sum(st.item_deck) / max(1, self.item_total)
        if seat is not None:
            item_of = self._item_of
            for name, held in (("my_items", items[seat]), ("my_gained", gained[seat])):
                start = at[name]
                for i in held:
                    out[start + item_of[i]] += 1.0
            out[at["item_limit"]] = self._item_limit(st, seat) / 3
        if phase is self._over:
            w = at["result"]
            for s in st.winners:
                out[w + s] = 1.0
        return True

    def _recall(self, envelope: JSON, vec: Vector) -> None:
        game: Any = self.game
        counts = [c.count for c in game.items]
        for item, uses in envelope["public"]["items_used"].items():
            if item in self.items:
                k = self.items.index(item)
                vec[k] += uses / counts[k]
