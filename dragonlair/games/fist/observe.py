"""Fist's fast observation (issue 24): a seat's observation vector written straight from
the engine state, value for value what :meth:`.encoding.FistEncoder._observe` writes from the
seat's position view (:mod:`dragonlair.interop.encoding`, "The fast path").

It reads only what :func:`.viewing.view` shows that seat (F8): the public fields, the seat's
own coins and its own sealed bid; of every other seat's sealed bid only whether there is one.

Speed (a few microseconds; the view and its encoding take a hundred): the vector is written
through a ``memoryview`` of it (a fraction of numpy's cost per item), only where a value is
not zero (the caller zeroes it); the card blocks (``pile`` .. ``doppelganger``: 4 counts per
card, the special deck, the Doppelganger), which change only when a card moves, are copied
from the last ones written while the card lists are the same (the lists are compared), and
moved by one card when the next card of the turn has come out; anything else writes them anew.
"""

from __future__ import annotations

from array import array
from itertools import compress
from typing import TYPE_CHECKING, Any

from dragonlair.core.game import CHANCE, check_seat_range
from dragonlair.games.fist.actions import COLOURS, Kind
from dragonlair.games.fist.pending import Dec, Decision, Phase
from dragonlair.games.fist.viewing import in_rainbow, sealed

if TYPE_CHECKING:
    from dragonlair.games.fist.encoding import FistEncoder
    from dragonlair.games.fist.state import FistState
    from dragonlair.interop.encoding import Vector

_TIEBID = Phase.TIEBID
_OVER = Phase.OVER
_CHANCE_ONLY = (CHANCE,)
_K_BID = Kind.BID


class FistObserver:
    """The fast observations of one encoder: its offsets and tables, and the card blocks it
    has written."""

    def __init__(self, enc: FistEncoder) -> None:
        at = enc.obs.at
        game: Any = enc.game
        cards = enc.cards
        # where each card (its index at the table) counts in a card block: the view names
        # cards by id and the encoder looks the id up
        self.slot = [cards.index(cid) for cid in game.card_ids]
        n = enc.num_players
        self.n = n
        self.size = enc.obs.size
        self.seat = at["seat"].start
        self.turn = at["turn"].start
        phase = at["phase"].start
        self.phase = {p: phase + enc.phases.index(p.name.lower()) for p in Phase}
        self.to_move = at["to_move"].start
        self.chance = self.to_move + n
        card = at["card"].start
        self.card = [card + s for s in self.slot]
        self.tie = at["tie_break"].start
        self.winner = at["winner"].start
        self.second = at["second"].start
        decision = at["decision"].start
        self.decision = {d: decision + enc.decisions.index(d.name.lower()) for d in Dec}
        # the card blocks, the special deck and the Doppelganger: consecutive
        self.cards_from = at["pile"].start
        self.cards_to = at["doppelganger"].stop
        assert [at[name].start for name in ("auctioned", "turn_specials", "special_discard",
                                             "special_deck", "doppelganger")] == [
            at[name].stop for name in ("pile", "auctioned", "turn_specials", "special_discard",
                                       "special_deck")]
        self.ks = range(len(cards))
        self.pile_at = [at["pile"].start + s for s in self.slot]
        self.auctioned_at = [at["auctioned"].start + s for s in self.slot]
        self.specials_at = [at["turn_specials"].start + s for s in self.slot]
        self.discard_at = [at["special_discard"].start + s for s in self.slot]
        self.deck = at["special_deck"].start
        self.doppel = at["doppelganger"].start
        self.bank = at["bank"].start
        self.drawn = at["drawn"].start
        rainbow = at["rainbow_colour"].start
        self.rainbow = [rainbow + COLOURS.index(c) for c in COLOURS]
        self.seats = at["seats"].start
        self.me = at["me"].start
        self.bid = at["my_bid"].start
        self.result = at["result"].start
        # the last card block: the lists it was made from, and the block
        self.last: tuple[list[int], list[int], list[int], list[int], list[int], int | None,
                         memoryview[float]] | None = None

    # ------------------------------------------------------------------ card blocks
    def _cards(self, st: FistState, mv: memoryview[float]) -> None:
        """Write ``pile`` .. ``doppelganger``: as last time (the same cards), else written
        and kept for next time."""
        pile, auctioned, specials = st.pile, st.auctioned, st.turn_specials
        discard, deck, holder = st.special_discard, st.special_deck, st.doppel_holder
        last = self.last
        if last is not None:
            lpile, lauctioned, lspecials, ldiscard, ldeck, lholder, block = last
            if (lspecials == specials and ldiscard == discard and ldeck == deck
                    and lholder == holder):
                if lauctioned == auctioned and lpile == pile:
                    mv[self.cards_from:self.cards_to] = block
                    return
                # the same turn, one card more out of the pile (revealed, or played by a
                # Goblin or Imp): the last block with that card moved
                n = len(lauctioned)
                if len(auctioned) == n + 1 and auctioned[:n] == lauctioned:
                    c = auctioned[n]
                    lpile[c] -= 1
                    if lpile == pile:
                        mv[self.cards_from:self.cards_to] = block
                        mv[self.pile_at[c]] -= 1.0
                        mv[self.auctioned_at[c]] += 1.0
                        lauctioned.append(c)
                        self.last = (lpile, lauctioned, lspecials, ldiscard, ldeck, lholder,
                                     self._keep(mv))
                        return
                    lpile[c] += 1
        self._write_cards(mv, pile, auctioned, specials, discard, deck, holder)
        self.last = (pile[:], auctioned[:], specials[:], discard[:], deck[:], holder,
                     self._keep(mv))

    def _keep(self, mv: memoryview[float]) -> memoryview[float]:
        """A copy of the card blocks written in ``mv``."""
        return memoryview(mv[self.cards_from:self.cards_to].tobytes()).cast("f")

    def _write_cards(self, mv: memoryview[float], pile: list[int], auctioned: list[int],
                     specials: list[int], discard: list[int], deck: list[int],
                     holder: int | None) -> None:
        """Write ``pile`` .. ``doppelganger`` (zeros on entry) as the view encoding counts
        the cards (one per id, in float32)."""
        at = self.pile_at
        for k in compress(self.ks, pile):
            mv[at[k]] += pile[k]
        at = self.auctioned_at
        for k in auctioned:
            mv[at[k]] += 1.0
        at = self.specials_at
        for k in specials:
            mv[at[k]] += 1.0
        at = self.discard_at
        for k in compress(self.ks, discard):
            mv[at[k]] += discard[k]
        size = sum(deck)
        if size:
            mv[self.deck] = size / 20
        if holder is not None and holder >= 0:
            mv[self.doppel + holder] = 1.0

    # ------------------------------------------------------------------ the vector
    def observe(self, st: FistState, seat: int | None, vec: Vector) -> None:
        """Write ``seat``'s observation of ``st`` into ``vec`` (zeros on entry); a seat that
        is none of the table's is refused as the view refuses it."""
        if seat is not None:
            check_seat_range(seat, self.n)
        buffer: Any = vec  # a numpy vector: a buffer of its float32 values
        out: Any = memoryview(buffer)
        if out.format == "f" and out.c_contiguous and out.ndim == 1:
            self._write(st, seat, out)
        else:  # not a contiguous float32 vector: through one
            scratch = array("f", bytes(4 * self.size))
            self._write(st, seat, memoryview(scratch))
            vec[:] = scratch

    def _write(self, st: FistState, seat: int | None, mv: memoryview[float]) -> None:
        if seat is not None:
            mv[self.seat + seat] = 1.0
        turn = st.turn
        if turn:
            mv[self.turn] = turn / 30
        phase = st.phase
        mv[self.phase[phase]] = 1.0
        to_move = st.to_move
        if to_move == _CHANCE_ONLY:
            mv[self.chance] = 1.0
        else:
            base = self.to_move
            for s in to_move:
                if s != CHANCE:
                    mv[base + s] = 1.0
        current = st.current
        if current is not None:
            mv[self.card[current]] = 1.0
        if phase is _TIEBID:
            base = self.tie
            for s in st.tied:
                mv[base + s] = 1.0
        winner = st.winner
        if winner is not None:
            if winner >= 0:
                mv[self.winner + winner] = 1.0
            base = self.second
            for s in st.second:
                mv[base + s] = 1.0
        pending = st.pending
        if isinstance(pending, Decision):
            mv[self.decision[pending.kind]] = 1.0
        self._cards(st, mv)
        bank = st.bank
        b = self.bank
        stones = bank.stones
        mv[b] = bank.fairy / 60
        mv[b + 1] = bank.silver / 40
        mv[b + 2] = bank.common / 15
        mv[b + 3] = bank.amulet / 2
        mv[b + 4] = bank.black / 2
        mv[b + 5] = stones[0] / 12
        mv[b + 6] = stones[1] / 12
        mv[b + 7] = stones[2] / 12
        drawn = st.drawn
        if drawn[0] or drawn[1] or drawn[2]:
            b = self.drawn
            mv[b] = drawn[0] / 12
            mv[b + 1] = drawn[1] / 12
            mv[b + 2] = drawn[2] / 12
        if in_rainbow(st):  # the view's own rule
            mv[self.rainbow[st.rainbow_colour]] = 1.0
        is_sealed = sealed(st)  # the view's own rule: bids handed in, not yet revealed (F8)
        bids = st.bids
        b = self.seats
        for s, p in enumerate(st.players):
            score = p.score
            if score:
                mv[b] = score / 3
            stones = p.stones
            if stones[0]:
                mv[b + 1] = stones[0] / 12
            if stones[1]:
                mv[b + 2] = stones[1] / 12
            if stones[2]:
                mv[b + 3] = stones[2] / 12
            if is_sealed and bids[s] is not None:
                mv[b + 4] = 1.0
            b += 5
        if seat is not None:  # the seat's own screen (F8)
            p = st.players[seat]
            b = self.me
            mv[b] = p.fairy / 60
            mv[b + 1] = p.fairy_spent / 60
            mv[b + 2] = p.common / 15
            mv[b + 3] = p.silver / 40
            mv[b + 4] = float(p.black)
            mv[b + 5] = p.amulet / 2
            bid = bids[seat] if is_sealed else None
            if bid is not None:  # its own sealed bid, not yet revealed
                b = self.bid
                mv[b] = 1.0
                if bid.kind is _K_BID:  # ``bid f3 c1 ...``, else ``silver 2 ...``
                    mv[b + 1] = bid.fairy / 60
                    mv[b + 2] = bid.common / 15
                else:
                    mv[b + 5] = bid.silver / 40
                if bid.black:
                    mv[b + 3] = 1.0
                if bid.amulet:
                    mv[b + 4] = 1.0
        if phase is _OVER:
            base = self.result
            for s in st.winners:
                mv[base + s] = 1.0
