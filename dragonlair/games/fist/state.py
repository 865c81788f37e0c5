"""The Fist of Dragonstones engine: one authoritative, mutable state (rules F1-F9).

Flow: setup stone draws (chance) -> each turn: draw specials (chance) -> Witch auction ->
reveal a card (chance) -> sealed bids (simultaneous) -> reveal, curse, tie-break -> the
winner's power, run from a stack of primitive steps that may ask the winner to decide
or chance to draw -> ... -> end of turn.

This module keeps the state, the contract of :class:`dragonlair.core.game.State` and the
turn flow (F3, F4); the rest lives by concern:

* :mod:`.holdings` -- what the players and the bank hold (F1);
* :mod:`.auction` -- sealed bids, their reveal, the tie-break, who wins (F5);
* :mod:`.pending` -- the phase, and the one pending decision or draw of a power;
* :mod:`.powers_run` and ``powers_*.py`` -- running a power, each primitive's begin and
  resolve together (F6, F7);
* :mod:`.viewing` -- what each seat may know (F8); :mod:`.snapshot` -- the state as JSON.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from itertools import compress
from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import IllegalActionError
from dragonlair.core.events import Event
from dragonlair.core.game import (
    CHANCE,
    JSON,
    Outcome,
    State,
    check_seat_range,
    placings_from_scores,
)
from dragonlair.core.records import entries_up_to
from dragonlair.games.fist import (
    auction,
    powers_bank,
    powers_cards,
    powers_luck,
    powers_rivals,
    powers_run,
    viewing,
)
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import COLOURS, FistAction, Kind
from dragonlair.games.fist.auction import bid_refusal, reveal_bids
from dragonlair.games.fist.auction import start as start_auction
from dragonlair.games.fist.events import ViewCache, events_since
from dragonlair.games.fist.holdings import STONES_PER_COLOUR, TOTALS, WIN_POINTS, Bank, Player
from dragonlair.games.fist.pending import Dec, Decision, Draw, Pending, Phase, PowerChance

if TYPE_CHECKING:
    from dragonlair.games.fist.game import FistGame

__all__ = ["STONES_PER_COLOUR", "TOTALS", "WIN_POINTS", "Bank", "Dec", "Decision", "Draw",
           "FistState", "Pending", "Phase", "Player", "PowerChance"]

# Enum members as module globals, for the hot paths: a global is read several times
# faster than a member (an enum class's attributes miss the interpreter's fast path).
_P_BID = Phase.BID
_P_OVER = Phase.OVER
_P_REVEAL = Phase.REVEAL
_P_SETUP = Phase.SETUP
_P_SPECIAL = Phase.SPECIAL
_P_TIEBID = Phase.TIEBID
_PC_BAG = PowerChance.BAG
_PC_GOBLIN = PowerChance.GOBLIN
_PC_RAINBOW = PowerChance.RAINBOW
_K_CARD = Kind.CARD
_K_STONE = Kind.STONE
_CHANCE_ONLY = (CHANCE,)
#: the power primitives by concern: importing them registers each one's begin and resolve
#: in :mod:`.powers_run`, whose table of begins must then be complete
PRIMITIVES = (powers_bank, powers_cards, powers_luck, powers_rivals)
powers_run.check()


def _sample(actions: Sequence[FistAction], counts: list[int], total: int,
            rng: random.Random) -> FistAction:
    """State.sample_chance over ``(actions[k], counts[k] / total)`` for every ``counts[k]``
    that is not 0, in order: the same draw, the same running sums, the same choice."""
    r = rng.random()
    acc = 0.0
    k = -1
    for k in compress(range(len(counts)), counts):  # the counts that are not 0
        acc += counts[k] / total
        if r < acc:
            return actions[k]
    if k < 0:
        raise IndexError("no chance outcome")
    return actions[k]


def _sample_stone(stones: Sequence[FistAction], counts: list[int],
                  rng: random.Random) -> FistAction:
    """:func:`_sample` of three colours."""
    total = counts[0] + counts[1] + counts[2]
    r = rng.random()
    acc = 0.0
    last = -1
    for c in (0, 1, 2):
        n = counts[c]
        if n:
            acc += n / total
            if r < acc:
                return stones[c]
            last = c
    if last < 0:
        raise IndexError("no chance outcome")
    return stones[last]


class FistState(State[FistAction]):
    """A Fist of Dragonstones position."""

    def __init__(self, game: FistGame) -> None:
        self.game = game
        self.space = game.space
        self.cards = game.cards
        n = game.num_players
        self.num_players = n
        self.players = [Player() for _ in range(n)]
        self.bank = Bank()
        for p in self.players:  # F3.1
            p.fairy, p.common, p.silver = 8, 2, 5
            self.bank.fairy -= 8
            self.bank.common -= 2
            self.bank.silver -= 5
        k = len(self.cards)
        self.special_deck = list(game.special_counts)  # F3.2 (F9: the specials option)
        self.special_discard = [0] * k
        self.doppel_holder: int | None = None
        self.turn = 0
        self.turn_specials: list[int] = []
        self.pile = [0] * k  # cards of this turn not yet auctioned (multiset)
        self.pile_total = 0
        self.auctioned: list[int] = []  # revealed this turn, in order (Ghost's choices)
        self.current: int | None = None  # the card up for auction
        self.specials_needed = 0
        self.setup_draws = 0
        # the auction (auction.py)
        self.bids: list[FistAction | None] = [None] * n
        self.values = [0] * n
        self.auction_fairy = [0] * n
        self.tied: tuple[int, ...] = ()
        self.winner: int | None = None
        self.second: tuple[int, ...] = ()
        self.necro_paid = False
        self.sealed_from = 0
        # powers (powers_run.py): the queued steps, and what a power waits for
        self.stack: list[tuple[pw.Step, int]] = []  # (step, the card whose power it is)
        self.pending: Pending | None = None
        self.bag = [0, 0, 0]  # the Two-headed Dragon's bag
        self.bag_draws = 0
        self.rainbow_colour = 0  # the colour a Rainbow Dragon named
        self.drawn = [0, 0, 0]  # stones out of the bank, not yet kept or returned
        # bookkeeping
        self.phase = _P_SETUP
        self.to_move: tuple[int, ...] = _CHANCE_ONLY
        self._history: list[tuple[int, FistAction]] = []
        self._log_list: list[str] = []  # _history as record entries, written on demand
        self._all_seats = tuple(range(n))
        #: the space's bids by holdings (ActionSpace.bids), shared: read on the hot path
        self._bid_cache = self.space.bid_cache
        self._vcache = ViewCache()  # shared with clones (events.py)
        self.winners: tuple[int, ...] = ()
        self.end_reason = ""
        self.end_params: dict[str, Any] = {}

    # ------------------------------------------------------------------ events
    def _e(self, code: str, to: int | None, *values: Any) -> None:
        """Append an event, compactly (:mod:`dragonlair.games.fist.events`)."""
        self._ev = ((code, to, *values), self._ev)  # type: ignore[assignment]
        self._nev += 1

    @property
    def event_count(self) -> int:
        return self._nev + auction.pending_count(self)

    def all_events(self) -> list[Event]:
        return events_since(self._ev, self._nev) + auction.pending_events(self)

    def events_for(self, seat: int | None, since: int = 0) -> list[tuple[int, Event]]:
        pending = auction.pending_events(self)
        stored = events_since(self._ev, self._nev, since)
        events = stored + pending[max(0, since - self._nev):]
        start = self._nev + len(pending) - len(events)
        return [(start + i, e) for i, e in enumerate(events) if e.to is None or e.to == seat]

    # ------------------------------------------------------------------ contract
    def current_seats(self) -> tuple[int, ...]:
        return self.to_move

    @property
    def history(self) -> Sequence[tuple[int, FistAction]]:
        return self._history

    @property
    def _log(self) -> list[str]:
        """The history as record entries (``p0: bid f3 c1``, ``chance: card witch``)."""
        return entries_up_to(self._log_list, self._history)

    def legal_actions(self, seat: int) -> Sequence[FistAction]:
        ph = self.phase
        if ph is _P_BID and type(seat) is int and seat in self.to_move:  # the hot path
            p = self.players[seat]
            got = self._bid_cache.get(p.fairy << 12 | p.common << 2
                                      | (2 if p.black else 0) | (1 if p.amulet else 0))
            if got is not None:
                return got
            return self.space.bids(p.fairy, p.common, 1 if p.black else 0,
                                   1 if p.amulet else 0)
        if type(seat) is not int or seat not in self.to_move or seat == CHANCE:
            check_seat_range(seat, self.num_players, chance=True)  # SeatError if no seat
            return ()
        p = self.players[seat]
        if ph is _P_TIEBID:
            return self.space.silvers(p.silver, 1 if p.amulet else 0)
        pending = self.pending
        return pending.legal if isinstance(pending, Decision) else ()

    def chance_outcomes(self) -> list[tuple[FistAction, float]]:
        ph = self.phase
        pending = self.pending
        kind = pending.kind if type(pending) is Draw else None
        if ph is _P_REVEAL or kind is _PC_GOBLIN:
            return self._card_outcomes(self.pile, self.pile_total)
        if ph is _P_SPECIAL:
            return self._card_outcomes(self.special_deck, sum(self.special_deck))
        if ph is _P_SETUP or kind is _PC_RAINBOW:
            return self._stone_outcomes(self.bank.stones)
        if kind is _PC_BAG:
            return self._stone_outcomes(self.bag)
        return []

    def _card_outcomes(self, counts: list[int], total: int) -> list[tuple[FistAction, float]]:
        card = self.space.card
        # the counts that are not 0, in order (most of a turn's pile is 0s)
        return [(card[k], counts[k] / total) for k in compress(range(len(counts)), counts)]

    def _stone_outcomes(self, counts: list[int]) -> list[tuple[FistAction, float]]:
        total = counts[0] + counts[1] + counts[2]
        stone = self.space.stone
        return [(stone[c], n / total) for c, n in enumerate(counts) if n]

    def sample_chance(self, rng: random.Random) -> FistAction:
        """As :meth:`State.sample_chance` (the same draw from ``rng`` and the same sums),
        without listing the outcomes."""
        ph = self.phase
        if ph is _P_REVEAL:
            return _sample(self.space.card, self.pile, self.pile_total, rng)
        if ph is _P_SPECIAL:
            return _sample(self.space.card, self.special_deck, sum(self.special_deck), rng)
        pending = self.pending
        kind = pending.kind if type(pending) is Draw else None
        if kind is _PC_GOBLIN:
            return _sample(self.space.card, self.pile, self.pile_total, rng)
        if ph is _P_SETUP or kind is _PC_RAINBOW:
            counts = self.bank.stones
        elif kind is _PC_BAG:
            counts = self.bag
        else:
            return super().sample_chance(rng)  # no chance event: fails as State's does
        return _sample_stone(self.space.stone, counts, rng)

    def apply(self, seat: int, action: FistAction) -> None:
        if type(seat) is not int or seat not in self.to_move:
            self._not_your_move(seat)
        ph = self.phase
        if ph is _P_BID:
            # the hot path: a sealed bid (F5.1), checked and handed in (auction.submit); a
            # seat to move has not bid yet
            problem = bid_refusal(self, seat, action)
            if problem is not None:
                raise problem
            self._history.append((seat, action))
            self.bids[seat] = action
            to_move = self.to_move
            if to_move[0] == seat:
                to_move = to_move[1:]
            else:
                i = to_move.index(seat)
                to_move = to_move[:i] + to_move[i + 1:]
            self.to_move = to_move
            if not to_move:
                reveal_bids(self)
        elif seat == CHANCE:
            k = action.card if action.kind is _K_CARD else None
            if ph is _P_REVEAL and k is not None and self.pile[k]:
                # the hot path: the next card of the turn's pile (F4.2)
                self._history.append((CHANCE, action))
                self.pile[k] -= 1
                self.pile_total -= 1
                self.auctioned.append(k)
                if self.pile_total or not self.game.plays_unauctioned[k]:
                    start_auction(self, k)
                else:
                    self._skip(k)
                return
            self._check_chance(action)
            self._history.append((seat, action))
            self._on_chance(action)
        elif ph is _P_TIEBID:  # a sealed Silver bid (F5.7); a seat to move has not bid yet
            problem = auction.silver_refusal(self, seat, action)
            if problem is not None:
                raise problem
            auction.submit(self, seat, action)
        else:
            pending = self.pending
            if type(pending) is not Decision or action not in pending.legal:
                raise powers_run.refuse_decision(self, action)
            self._history.append((seat, action))
            if powers_run.decide(self, action):
                auction.end(self)

    def turn_count(self) -> int:
        return self.turn

    def snapshot(self) -> JSON:
        """Everything, as JSON (:func:`dragonlair.games.fist.snapshot.restore` reads it)."""
        from dragonlair.games.fist.snapshot import snapshot

        return snapshot(self)

    def outcome(self) -> Outcome | None:
        if self.phase is not _P_OVER:
            return None
        scores = tuple(float(p.score) for p in self.players)
        return Outcome(self.winners, placings_from_scores(scores, self.winners), self.end_reason,
                       scores, dict(self.end_params))

    def clone(self) -> FistState:
        s = copy.copy(self)
        s.players = [p.copy() for p in self.players]
        s.bank = self.bank.copy()
        for name in ("special_deck", "special_discard", "turn_specials", "pile", "auctioned",
                     "bids", "values", "auction_fairy", "stack", "bag", "drawn", "_history",
                     "_log_list"):
            setattr(s, name, getattr(self, name)[:])
        return s

    # ------------------------------------------------------------------ views (viewing.py)
    def view(self, seat: int | None, since: int = 0) -> JSON:
        """What ``seat`` may know (F8); ``None`` for a spectator (:func:`.viewing.view`)."""
        return viewing.view(self, seat, since)

    def full_state(self) -> JSON:
        return viewing.full_state(self)

    def totals(self) -> dict[str, int]:
        """Conservation check (F1): bank + players + spent bids, per resource."""
        b = self.bank
        ps = self.players
        out = {
            "fairy": b.fairy + sum(p.fairy + p.fairy_spent for p in ps),
            "silver": b.silver + sum(p.silver for p in ps),
            "common": b.common + sum(p.common for p in ps),
            "amulet": b.amulet + sum(p.amulet for p in ps),
        }
        for c, name in enumerate(COLOURS):
            out[name] = b.stones[c] + self.drawn[c] + sum(p.stones[c] for p in ps)
        out["cards"] = (sum(self.special_deck) + sum(self.special_discard) + len(self.turn_specials)
                        + (1 if self.doppel_holder is not None else 0))
        return out

    # ------------------------------------------------------------------ checks
    def _not_your_move(self, seat: object) -> None:
        check_seat_range(seat, self.num_players, chance=True)
        assert isinstance(seat, int)
        if 0 <= seat < self.num_players:
            if self.phase is _P_BID:
                raise IllegalActionError("fist.bid.already_bid", rule="F5.1", seat=seat)
            if self.phase is _P_TIEBID:
                if seat in self.tied:
                    raise IllegalActionError("fist.tiebreak.already_bid", rule="F5.7",
                                             seat=seat)
                raise IllegalActionError("fist.tiebreak.not_tied", rule="F5.7", seat=seat,
                                         tied=list(self.tied))
            if self.phase is _P_OVER:
                raise IllegalActionError("fist.turn.game_over", seat=seat)
            if self.to_move == _CHANCE_ONLY:
                raise IllegalActionError("fist.turn.chance_to_move", seat=seat)
            raise IllegalActionError("fist.turn.not_your_move", seat=seat,
                                     to_move=list(self.to_move))
        if self.phase is _P_OVER:
            raise IllegalActionError("fist.turn.game_over_chance")
        raise IllegalActionError("fist.turn.no_chance_now", to_move=list(self.to_move))

    def _check_chance(self, action: FistAction) -> None:
        ph = self.phase
        ok = False
        pending = self.pending
        kind = pending.kind if type(pending) is Draw else None
        card, colour = (action.card, action.colour) if isinstance(action, FistAction) \
            else (None, None)
        if card is not None and action.kind is _K_CARD:
            if ph is _P_SPECIAL:
                ok = self.special_deck[card] > 0
            elif ph is _P_REVEAL or kind is _PC_GOBLIN:
                ok = self.pile[card] > 0
        elif colour is not None and action.kind is _K_STONE:
            if ph is _P_SETUP or kind is _PC_RAINBOW:
                ok = self.bank.stones[colour] > 0
            elif kind is _PC_BAG:
                ok = self.bag[colour] > 0
        if not ok:
            raise IllegalActionError("fist.chance.impossible", rule="F4.2", action=str(action),
                                     possible=[str(a) for a, _ in self.chance_outcomes()])

    # ------------------------------------------------------------------ chance
    def _on_chance(self, action: FistAction) -> None:
        ph = self.phase
        if ph is _P_REVEAL:
            k = action.card
            assert k is not None
            self._reveal(k)
        elif ph is _P_SETUP:
            seat = self.setup_draws // 4
            c = action.colour
            assert c is not None
            self.bank.stones[c] -= 1
            self.players[seat].stones[c] += 1
            self._ev = (("fist.setup.stone", None, seat, COLOURS[c]),  # type: ignore
                        self._ev)
            self._nev += 1
            self.setup_draws += 1
            if self.setup_draws == 4 * self.num_players:
                self._start_turn()
        elif ph is _P_SPECIAL:
            k = action.card
            assert k is not None
            self.special_deck[k] -= 1
            self.turn_specials.append(k)
            self._ev = (("fist.turn.special", None, self.cards[k].id),  # type: ignore
                        self._ev)
            self._nev += 1
            self.specials_needed -= 1
            self._next_special()
        elif powers_run.on_draw(self, action):
            auction.end(self)

    # ------------------------------------------------------------------ turns (F4)
    def _start_turn(self) -> None:
        self.turn += 1
        self._ev = (("fist.turn.start", None, self.turn), self._ev)  # type: ignore[assignment]
        self._nev += 1
        self.turn_specials = []
        self.specials_needed = 2
        self._next_special()

    def _next_special(self) -> None:
        if self.specials_needed:
            if any(self.special_deck):
                self.phase = _P_SPECIAL
                self.to_move = _CHANCE_ONLY
                return
            if any(self.special_discard):
                self.special_deck = self.special_discard  # F4.1: reshuffle the discard pile
                self.special_discard = [0] * len(self.cards)
                self._e("fist.turn.reshuffle", None)
                self.phase = _P_SPECIAL
                self.to_move = _CHANCE_ONLY
                return
        self.pile = pile = list(self.game.standard_pile)
        for k in self.turn_specials:
            pile[k] += 1
        self.pile_total = sum(pile)
        self.auctioned = [0]
        auction.start(self, 0)  # the Witch first (F4.3)

    def _reveal(self, k: int) -> None:
        """Card ``k`` comes out of the turn's pile: up for auction (F4.2); the hot path of
        :meth:`apply` does the same."""
        self.pile[k] -= 1
        self.pile_total -= 1
        self.auctioned.append(k)
        if self.pile_total or not self.game.plays_unauctioned[k]:
            start_auction(self, k)
        else:
            self._skip(k)

    def _skip(self, k: int) -> None:
        """A Goblin or Imp drawn last is not auctioned (F7): the turn ends."""
        self._e("fist.auction.skipped", None, self.cards[k].id)
        self._end_turn()

    def _end_turn(self) -> None:
        bank = self.bank
        for p in self.players:  # F4.4
            p.fairy += p.fairy_spent
            p.fairy_spent = 0
            bank.black = min(TOTALS["black"], bank.black + p.black)
            p.black = 0
        for k in self.turn_specials:
            self.special_discard[k] += 1
        self.turn_specials = []
        self.current = None
        self._e("fist.turn.end", None, self.turn)
        max_turns = self.game.max_turns
        if max_turns is not None and self.turn >= max_turns:  # F5.10
            self.stop_at_limit("fist.end.turn_limit")
            return
        self._start_turn()

    # ------------------------------------------------------------------ the end (F5.9, F5.10)
    def stop_at_limit(self, reason: str) -> None:
        """End the game now as the turn limit does (F5.10): the highest score wins, ties
        shared. ``reason``: ``fist.end.turn_limit`` at the table's own limit; any other
        text (a caller's length bound) ends it as ``fist.end.stopped``."""
        best = max(p.score for p in self.players)
        winners = tuple(s for s, p in enumerate(self.players) if p.score == best)
        if reason == "fist.end.turn_limit":
            self._game_over(winners, reason, turns=self.turn, seats=list(winners))
        else:
            self._game_over(winners, "fist.end.stopped", turn=self.turn, seats=list(winners))

    def _game_over(self, winners: tuple[int, ...], reason: str, **params: Any) -> None:
        self.phase = _P_OVER
        self.to_move = ()
        self.winners = winners
        self.end_reason = reason
        self.end_params = params
        self.stack.clear()
        self.pending = None
        self.emit(reason, **params)

    def _add_points(self, seat: int, points: int) -> None:
        p = self.players[seat]
        p.score = min(WIN_POINTS, p.score + points)
        self._e("fist.score.points", None, seat, points, p.score)
        if p.score >= WIN_POINTS:  # F5.9
            self._game_over((seat,), "fist.end.points_reached", seat=seat, points=WIN_POINTS)
