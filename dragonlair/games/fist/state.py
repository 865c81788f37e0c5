"""The Fist of Dragonstones engine: one authoritative, mutable state (rules F1-F9).

Flow: setup stone draws (chance) -> each turn: draw specials (chance) -> Witch auction ->
reveal a card (chance) -> sealed bids (simultaneous) -> reveal, curse, tie-break -> the
winner's power, run from a stack of primitive steps that may ask the winner to decide
or the dealer to draw -> ... -> end of turn.
"""

from __future__ import annotations

import copy
import random
from bisect import bisect_left
from collections.abc import Sequence
from enum import IntEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import IllegalActionError, OptionError, shown
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
from dragonlair.core.views import envelope
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import COLOURS, CURRENCIES, FistAction, Kind
from dragonlair.games.fist.events import (
    REVEAL,
    REVEAL_SILVER,
    ViewCache,
    choice_json,
    event_json,
    events_since,
    submit_events,
)

if TYPE_CHECKING:
    from dragonlair.games.fist.game import FistGame

WIN_POINTS = 3
TOTALS = {"fairy": 60, "silver": 40, "common": 15, "amulet": 2, "black": 2}
STONES_PER_COLOUR = 12


class Phase(IntEnum):
    SETUP = 0  # chance: the starting stones (F3.1)
    SPECIAL = 1  # chance: the turn's special cards (F4.1)
    REVEAL = 2  # chance: the next card of the turn's pile (F4.2)
    BID = 3  # sealed bids (F5.1)
    TIEBID = 4  # sealed Silver tie-break (F5.7)
    DECIDE = 5  # the winner decides inside a power
    POWER_CHANCE = 6  # chance inside a power (Goblin, Rainbow, Two-headed Dragon)
    OVER = 7
    RUNNING = 8  # transient: power steps are being carried out


class Dec(IntEnum):
    """What the winner is being asked."""

    DOUBLE = 0  # play the Doppelganger? (F7)
    CHOICE = 1  # pay stones or take the alternative
    PAY = 2  # which stones to pay
    COLOUR_GAIN = 3
    COLOUR_TROLL = 4
    COLOUR_RAINBOW = 5
    STEAL = 6
    TARGET = 7
    PICK_GHOST = 8
    PICK_IMP = 9
    BUY = 10
    NECRO = 11
    RAINBOW_MORE = 12


class PowerChance(IntEnum):
    GOBLIN = 0
    RAINBOW = 1
    BAG = 2


# Enum members as module globals, for the hot paths: a global is read several times
# faster than a member (an enum class's attributes miss the interpreter's fast path).
_P_BID = Phase.BID
_P_DECIDE = Phase.DECIDE
_P_OVER = Phase.OVER
_P_POWER_CHANCE = Phase.POWER_CHANCE
_P_REVEAL = Phase.REVEAL
_P_RUNNING = Phase.RUNNING
_P_SETUP = Phase.SETUP
_P_SPECIAL = Phase.SPECIAL
_P_TIEBID = Phase.TIEBID
_PC_BAG = PowerChance.BAG
_PC_GOBLIN = PowerChance.GOBLIN
_PC_RAINBOW = PowerChance.RAINBOW
_D_BUY = Dec.BUY
_D_CHOICE = Dec.CHOICE
_D_COLOUR_GAIN = Dec.COLOUR_GAIN
_D_COLOUR_RAINBOW = Dec.COLOUR_RAINBOW
_D_COLOUR_TROLL = Dec.COLOUR_TROLL
_D_DOUBLE = Dec.DOUBLE
_D_NECRO = Dec.NECRO
_D_PAY = Dec.PAY
_D_PICK_GHOST = Dec.PICK_GHOST
_D_PICK_IMP = Dec.PICK_IMP
_D_RAINBOW_MORE = Dec.RAINBOW_MORE
_D_STEAL = Dec.STEAL
_D_TARGET = Dec.TARGET
_K_ACCEPT = Kind.ACCEPT
_K_BID = Kind.BID
_K_BUY = Kind.BUY
_K_CARD = Kind.CARD
_K_DOUBLE = Kind.DOUBLE
_K_DRAW = Kind.DRAW
_K_SILVER = Kind.SILVER
_K_STONE = Kind.STONE
_K_TAKE = Kind.TAKE


#: sort key: an action's index
_index = attrgetter("index")


def _sample(actions: Sequence[FistAction], counts: list[int], total: int,
            rng: random.Random) -> FistAction:
    """State.sample_chance over ``(actions[k], counts[k] / total)`` for every ``counts[k]``
    that is not 0, in order: the same draw, the same running sums, the same choice."""
    r = rng.random()
    acc = 0.0
    last = -1
    for k, n in enumerate(counts):
        if n:
            acc += n / total
            if r < acc:
                return actions[k]
            last = k
    if last < 0:
        raise IndexError("no chance outcome")
    return actions[last]


class Player:
    """One seat's holdings. Coins are behind the screen; stones and score are public."""

    __slots__ = ("amulet", "black", "common", "fairy", "fairy_spent", "score", "silver", "stones")

    def __init__(self) -> None:
        self.fairy = 0  # unspent Fairy Gold
        self.fairy_spent = 0  # bid this turn, in front of the screen, back at F4.4
        self.common = 0
        self.silver = 0
        self.black = 0
        self.amulet = 0
        self.stones = [0, 0, 0]
        self.score = 0

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.fairy, p.fairy_spent, p.common, p.silver = (
            self.fairy, self.fairy_spent, self.common, self.silver)
        p.black, p.amulet, p.score = self.black, self.amulet, self.score
        p.stones = self.stones[:]
        return p

    def coins_json(self) -> JSON:
        return {"fairy": self.fairy, "fairy_spent": self.fairy_spent, "common": self.common,
                "silver": self.silver, "black": self.black, "amulet": self.amulet}


class Bank:
    """The bank: everything no player holds (F1). Black coins never run short."""

    __slots__ = ("amulet", "black", "common", "fairy", "silver", "stones")

    def __init__(self) -> None:
        self.black = TOTALS["black"]
        self.fairy = TOTALS["fairy"]
        self.silver = TOTALS["silver"]
        self.common = TOTALS["common"]
        self.amulet = TOTALS["amulet"]
        self.stones = [STONES_PER_COLOUR] * 3

    def copy(self) -> Bank:
        b = Bank.__new__(Bank)
        b.fairy, b.silver, b.common, b.amulet = self.fairy, self.silver, self.common, self.amulet
        b.black = self.black
        b.stones = self.stones[:]
        return b


class FistState(State):
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
        self.special_deck = [c.count if not c.standard else 0 for c in self.cards]  # F3.2
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
        # the auction
        self.bids: list[FistAction | None] = [None] * n
        self.values = [0] * n
        self.auction_fairy = [0] * n
        self.tied: tuple[int, ...] = ()
        self.winner: int | None = None
        self.second: tuple[int, ...] = ()
        self.necro_paid = False
        self.sealed_from = 0
        # powers
        self.stack: list[tuple[pw.Step, int]] = []
        self.dec: Dec | None = None
        self.dec_legal: tuple[FistAction, ...] = ()
        self.dec_card = 0
        self.dec_data: Any = None
        self.pchance: PowerChance | None = None
        self.bag = [0, 0, 0]
        self.bag_draws = 0
        self.rainbow_colour = 0
        self.drawn = [0, 0, 0]  # stones out of the bag, not yet kept or returned
        # bookkeeping
        self.phase = Phase.SETUP
        self.to_move: tuple[int, ...] = (CHANCE,)
        self._history: list[tuple[int, FistAction]] = []
        self._log_list: list[str] = []  # _history as record entries, written on demand
        self._all_seats = tuple(range(n))
        self._vcache = ViewCache()  # shared with clones (events.py)
        self.winners: tuple[int, ...] = ()
        self.end_reason = ""
        self.end_params: dict[str, Any] = {}

    # ------------------------------------------------------------------ events
    def _e(self, code: str, to: int | None, *values: Any) -> None:
        """Append an event, compactly (:mod:`dragonlair.games.fist.events`)."""
        self._ev = ((code, to, *values), self._ev)  # type: ignore[assignment]
        self._nev += 1

    def _pending(self) -> list[Event]:
        """The events of the auction under way, stored only at its reveal (one node per
        auction keeps the hot path cheap): the card up for auction, and each sealed bid
        handed in (public: that it was; its owner: the bid)."""
        ph = self.phase
        if ph == _P_BID:
            return [Event("fist.auction.card", {"card": self._card_id()}),
                    *submit_events(self._history[self.sealed_from:])]
        if ph == _P_TIEBID:
            return submit_events(self._history[self.sealed_from:])
        return []

    @property
    def event_count(self) -> int:
        ph = self.phase
        if ph == _P_BID:
            return self._nev + 1 + 2 * (len(self._history) - self.sealed_from)
        if ph == _P_TIEBID:
            return self._nev + 2 * (len(self._history) - self.sealed_from)
        return self._nev

    def all_events(self) -> list[Event]:
        return events_since(self._ev, self._nev) + self._pending()

    def events_for(self, seat: int | None, since: int = 0) -> list[tuple[int, Event]]:
        pending = self._pending()
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
        if seat not in self.to_move or seat == CHANCE or type(seat) is not int:
            check_seat_range(seat, self.num_players, chance=True)  # SeatError if no seat
            return ()
        ph = self.phase
        p = self.players[seat]
        if ph == _P_BID:
            got = self.space.bid_cache.get(p.fairy << 12 | p.common << 2
                                           | (2 if p.black else 0) | (1 if p.amulet else 0))
            if got is not None:
                return got
            return self.space.bids(p.fairy, p.common, 1 if p.black else 0, 1 if p.amulet else 0)
        if ph == _P_TIEBID:
            return self.space.silvers(p.silver, 1 if p.amulet else 0)
        return self.dec_legal

    def chance_outcomes(self) -> list[tuple[FistAction, float]]:
        ph = self.phase
        if ph == _P_REVEAL or (ph == _P_POWER_CHANCE and self.pchance == _PC_GOBLIN):
            return self._card_outcomes(self.pile, self.pile_total)
        if ph == _P_SPECIAL:
            return self._card_outcomes(self.special_deck, sum(self.special_deck))
        if ph == _P_SETUP or (ph == _P_POWER_CHANCE and self.pchance == _PC_RAINBOW):
            return self._stone_outcomes(self.bank.stones)
        if ph == _P_POWER_CHANCE:
            return self._stone_outcomes(self.bag)
        return []

    def _card_outcomes(self, counts: list[int], total: int) -> list[tuple[FistAction, float]]:
        card = self.space.card
        return [(card[k], n / total) for k, n in enumerate(counts) if n]

    def _stone_outcomes(self, counts: list[int]) -> list[tuple[FistAction, float]]:
        total = counts[0] + counts[1] + counts[2]
        stone = self.space.stone
        return [(stone[c], n / total) for c, n in enumerate(counts) if n]

    def sample_chance(self, rng: random.Random) -> FistAction:
        """As :meth:`State.sample_chance` (the same draw from ``rng`` and the same sums),
        without listing the outcomes."""
        ph = self.phase
        if ph == _P_REVEAL or (ph == _P_POWER_CHANCE and self.pchance == _PC_GOBLIN):
            return _sample(self.space.card, self.pile, self.pile_total, rng)
        if ph == _P_SPECIAL:
            return _sample(self.space.card, self.special_deck, sum(self.special_deck), rng)
        if ph == _P_SETUP or (ph == _P_POWER_CHANCE and self.pchance == _PC_RAINBOW):
            counts = self.bank.stones
        elif ph == _P_POWER_CHANCE:
            counts = self.bag
        else:
            action = super().sample_chance(rng)  # no chance event: fails as State's does
            assert isinstance(action, FistAction)
            return action
        return _sample(self.space.stone, counts, counts[0] + counts[1] + counts[2], rng)

    def apply(self, seat: int, action: FistAction) -> None:  # type: ignore[override]
        if seat not in self.to_move or type(seat) is not int:
            self._not_your_move(seat)
        ph = self.phase
        if seat == CHANCE:
            self._check_chance(action)
            self._history.append((seat, action))
            self._on_chance(action)
            return
        if ph == _P_BID:
            self._check_bid(seat, action)
            self._history.append((seat, action))
            self._submit(seat, action)
        elif ph == _P_TIEBID:
            self._check_silver(seat, action)
            self._history.append((seat, action))
            self._submit(seat, action)
        else:
            if action not in self.dec_legal:
                raise self._illegal_decision(action)
            self._history.append((seat, action))
            self._on_decision(action)

    def turn_count(self) -> int:
        return self.turn

    def snapshot(self) -> JSON:
        """Everything, as JSON (:func:`dragonlair.games.fist.snapshot.restore` reads it)."""
        from dragonlair.games.fist.snapshot import snapshot

        return snapshot(self)

    def outcome(self) -> Outcome | None:
        if self.phase != _P_OVER:
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

    # ------------------------------------------------------------------ checks
    def _not_your_move(self, seat: int) -> None:
        check_seat_range(seat, self.num_players, chance=True)
        if 0 <= seat < self.num_players:
            if self.phase == _P_BID:
                raise IllegalActionError("fist.bid.already_bid", rule="F5.1", seat=seat)
            if self.phase == _P_TIEBID:
                if seat in self.tied:
                    raise IllegalActionError("fist.tiebreak.already_bid", rule="F5.7",
                                             seat=seat)
                raise IllegalActionError("fist.tiebreak.not_tied", rule="F5.7", seat=seat,
                                         tied=list(self.tied))
            if self.phase == _P_OVER:
                raise IllegalActionError("fist.turn.game_over", seat=seat)
            if self.to_move == (CHANCE,):
                raise IllegalActionError("fist.turn.chance_to_move", seat=seat)
            raise IllegalActionError("fist.turn.not_your_move", seat=seat,
                                     to_move=list(self.to_move))
        if self.phase == _P_OVER:
            raise IllegalActionError("fist.turn.game_over_chance")
        raise IllegalActionError("fist.turn.no_chance_now", to_move=list(self.to_move))

    def _check_chance(self, action: FistAction) -> None:
        ph = self.phase
        ok = False
        if action.kind == _K_CARD:
            if ph == _P_SPECIAL:
                ok = self.special_deck[action.a] > 0
            elif ph == _P_REVEAL or (ph == _P_POWER_CHANCE and self.pchance == _PC_GOBLIN):
                ok = self.pile[action.a] > 0
        elif action.kind == _K_STONE:
            if ph == _P_SETUP or (ph == _P_POWER_CHANCE and self.pchance == _PC_RAINBOW):
                ok = self.bank.stones[action.a] > 0
            elif ph == _P_POWER_CHANCE and self.pchance == _PC_BAG:
                ok = self.bag[action.a] > 0
        if not ok:
            raise IllegalActionError("fist.chance.impossible", rule="F4.2", action=str(action),
                                     possible=[str(a) for a, _ in self.chance_outcomes()])

    def _check_bid(self, seat: int, action: FistAction) -> None:
        p = self.players[seat]
        if action.kind != _K_BID:
            raise IllegalActionError("fist.bid.not_a_bid", rule="F5.1", seat=seat,
                                     action=str(action))
        if self.bids[seat] is not None:
            raise IllegalActionError("fist.bid.already_bid", rule="F5.1", seat=seat)
        if action.a > p.fairy:
            raise IllegalActionError("fist.bid.exceeds_unspent", rule="F5.1", seat=seat,
                                     coin="fairy", bid=action.a, have=p.fairy)
        if action.b > p.common:
            raise IllegalActionError("fist.bid.exceeds_unspent", rule="F5.1", seat=seat,
                                     coin="common", bid=action.b, have=p.common)
        if action.c and not p.black:
            raise IllegalActionError("fist.bid.no_black", rule="F6", seat=seat)
        if action.d and not p.amulet:
            raise IllegalActionError("fist.bid.no_amulet", rule="F5.1", seat=seat)

    def _check_silver(self, seat: int, action: FistAction) -> None:
        p = self.players[seat]
        if action.kind != _K_SILVER:
            raise IllegalActionError("fist.tiebreak.not_silver", rule="F5.7", seat=seat,
                                     action=str(action))
        if self.bids[seat] is not None:
            raise IllegalActionError("fist.tiebreak.already_bid", rule="F5.7", seat=seat)
        if action.a > p.silver:
            raise IllegalActionError("fist.bid.exceeds_unspent", rule="F5.7", seat=seat,
                                     coin="silver", bid=action.a, have=p.silver)
        if action.b and not p.amulet:
            raise IllegalActionError("fist.bid.no_amulet", rule="F5.7", seat=seat)

    def _illegal_decision(self, action: FistAction) -> IllegalActionError:
        card = self.cards[self.dec_card]
        rule = "F6" if card.standard and self.dec != _D_DOUBLE else "F7"
        return IllegalActionError("fist.power.not_allowed", rule=rule, card=card.id,
                                  action=str(action), options=[str(a) for a in self.dec_legal])

    # ------------------------------------------------------------------ chance
    def _on_chance(self, action: FistAction) -> None:
        ph = self.phase
        if ph == _P_SETUP:
            seat = self.setup_draws // 4
            self.bank.stones[action.a] -= 1
            self.players[seat].stones[action.a] += 1
            self._e("fist.setup.stone", None, seat, COLOURS[action.a])
            self.setup_draws += 1
            if self.setup_draws == 4 * self.num_players:
                self._start_turn()
        elif ph == _P_SPECIAL:
            self.special_deck[action.a] -= 1
            self.turn_specials.append(action.a)
            self._e("fist.turn.special", None, self.cards[action.a].id)
            self.specials_needed -= 1
            self._next_special()
        elif ph == _P_REVEAL:
            self._reveal(action.a)
        else:
            self._on_power_chance(action)

    # ------------------------------------------------------------------ turns (F4)
    def _start_turn(self) -> None:
        self.turn += 1
        self._e("fist.turn.start", None, self.turn)
        self.turn_specials = []
        self.specials_needed = 2
        self._next_special()

    def _next_special(self) -> None:
        if self.specials_needed and not any(self.special_deck) and any(self.special_discard):
            self.special_deck = self.special_discard  # F4.1: reshuffle the discard pile
            self.special_discard = [0] * len(self.cards)
            self._e("fist.turn.reshuffle", None)
        if self.specials_needed and any(self.special_deck):
            self.phase = _P_SPECIAL
            self.to_move = (CHANCE,)
            return
        pile = self.pile
        for k in range(len(pile)):
            pile[k] = 0
        for k, card in enumerate(self.cards):
            if card.standard and k != 0:
                pile[k] = card.count
        for k in self.turn_specials:
            pile[k] += 1
        self.pile_total = sum(pile)
        self.auctioned = [0]
        self._start_auction(0)  # the Witch first (F4.3)

    def _reveal(self, k: int) -> None:
        self.pile[k] -= 1
        self.pile_total -= 1
        self.auctioned.append(k)
        if self.pile_total == 0 and self.game.plays_unauctioned[k]:
            self._e("fist.auction.skipped", None, self.cards[k].id)
            self._end_turn()  # a Goblin or Imp drawn last is not auctioned (F7)
            return
        self._start_auction(k)

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

    # ------------------------------------------------------------------ auctions (F5)
    def _start_auction(self, k: int) -> None:
        self.current = k
        self.phase = _P_BID
        n = self.num_players
        self.bids = [None] * n
        self.winner = None
        self.second = ()
        self.necro_paid = False
        self.tied = ()
        self.sealed_from = len(self._history)
        self.to_move = self._all_seats

    def _submit(self, seat: int, action: FistAction) -> None:
        self.bids[seat] = action
        to_move = self.to_move
        if to_move[0] == seat:
            to_move = to_move[1:]
        else:
            i = to_move.index(seat)
            to_move = to_move[:i] + to_move[i + 1:]
        self.to_move = to_move
        if to_move:
            return
        if self.phase == _P_BID:
            self._reveal_bids()
        else:
            self._reveal_silver()

    def _reveal_bids(self) -> None:
        bank = self.bank
        cursed = False
        values = self.values
        players = self.players
        auction_fairy = self.auction_fairy
        for s, bid in enumerate(self.bids):
            assert bid is not None
            p = players[s]
            f, c = bid.a, bid.b
            p.fairy -= f  # F5.3
            p.fairy_spent += f
            p.common -= c
            bank.common += c
            if bid.c:
                p.black -= 1
                bank.black = min(TOTALS["black"], bank.black + 1)
                cursed = True
            if bid.d:
                p.amulet -= 1
                bank.amulet += 1
                values[s] = 2 * (f + c)
            else:
                values[s] = f + c
            auction_fairy[s] = f
        # the auction's events, from the card to its result, in one node (events.py)
        self._ev = ((REVEAL, self.cards[self.current].id,  # type: ignore
                     self._history[self.sealed_from:]), self._ev)
        self._nev += 3 * len(values) + 2
        self.sealed_from = len(self._history)
        if cursed:  # F5.4
            self._end_auction()
            return
        top = max(values)
        if top == 0:  # F5.5
            self._end_auction()
            return
        if values.count(top) == 1:  # F5.6
            winner = values.index(top)
            rest = max(values[:winner] + values[winner + 1:])  # below top: not the winner's
            self.second = tuple([s for s, v in enumerate(values) if v == rest])
            self._win(winner)
            return
        tied = tuple([s for s, v in enumerate(values) if v == top])
        self.tied = tied  # F5.7
        self.phase = _P_TIEBID
        self.bids = [None] * self.num_players
        self.to_move = tied

    def _reveal_silver(self) -> None:
        bank = self.bank
        vals: dict[int, int] = {}
        for s in self.tied:
            bid = self.bids[s]
            assert bid is not None
            p = self.players[s]
            p.silver -= bid.a
            bank.silver += bid.a
            if bid.b:
                p.amulet -= 1
                bank.amulet += 1
            vals[s] = bid.a * (2 if bid.b else 1)
        self._ev = ((REVEAL_SILVER, self._card_id(), self._history[self.sealed_from:],
                     self.tied), self._ev)  # type: ignore[assignment]
        self._nev += 3 * len(vals) + 1
        self.sealed_from = len(self._history)
        top = max(vals.values())
        best = [s for s, v in vals.items() if v == top]
        if len(best) != 1:
            self._end_auction()
            return
        winner = best[0]
        others = [v for s, v in vals.items() if s != winner]
        second = max(others)
        self.second = tuple(s for s, v in vals.items() if s != winner and v == second)
        self._win(winner)

    def _card_id(self) -> str:
        """The id of the card up for auction."""
        assert self.current is not None
        return self.cards[self.current].id

    def _win(self, winner: int) -> None:
        self.winner = winner
        k = self.current
        assert k is not None
        if self.doppel_holder == winner and not self.game.is_necromancer[k]:
            self._ask(_D_DOUBLE, k, (self.space.double, self.space.single), auto=False)
            return
        self._push_power(k)
        self._run()

    def _end_auction(self) -> None:
        self.winner = None
        self.stack.clear()
        if self.pile_total == 0:
            self._end_turn()
        else:
            self.phase = _P_REVEAL
            self.to_move = (CHANCE,)

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
        self.emit(reason, **params)

    def _add_points(self, seat: int, points: int) -> None:
        p = self.players[seat]
        p.score = min(WIN_POINTS, p.score + points)
        self._e("fist.score.points", None, seat, points, p.score)
        if p.score >= WIN_POINTS:  # F5.9
            self._game_over((seat,), "fist.end.points_reached", seat=seat, points=WIN_POINTS)

    # ------------------------------------------------------------------ powers (F6, F7)
    def _push_power(self, k: int, times: int = 1) -> None:
        steps = self.cards[k].power
        for _ in range(times):
            for step in reversed(steps):
                self.stack.append((step, k))

    def _run(self) -> None:
        """Run queued steps until one asks for a decision or a draw, or all are done."""
        self.phase = _P_RUNNING
        stack = self.stack
        while stack:
            step, k = stack.pop()
            if self._exec(step, k):
                return
            if self.phase == _P_OVER:
                return
        self._end_auction()

    def _ask(self, dec: Dec, k: int, legal: Sequence[FistAction], data: Any = None,
             auto: bool = True) -> bool:
        """Ask the winner to decide; a forced single option is applied at once when
        ``auto``. Returns True if the engine now waits for the winner."""
        assert self.winner is not None
        self.dec = dec
        self.dec_card = k
        self.dec_data = data
        self.dec_legal = tuple(sorted(legal, key=_index))  # stable order: by index
        if auto and len(self.dec_legal) == 1:
            self._resolve(self.dec_legal[0])
            return self.phase != _P_RUNNING
        self.phase = _P_DECIDE
        self.to_move = (self.winner,)
        return True

    def _draw(self, kind: PowerChance) -> bool:
        self.phase = _P_POWER_CHANCE
        self.pchance = kind
        self.to_move = (CHANCE,)
        return True

    def _exec(self, step: pw.Step, k: int) -> bool:
        """Run one step. True if it now waits for a decision or a draw."""
        w = self.winner
        assert w is not None
        p = self.players[w]
        bank = self.bank
        space = self.space
        if isinstance(step, pw.Gain):
            self._gain(w, p, step)
            return False
        if isinstance(step, pw.Choice):
            pays = [space.pay[x] for x in pw.payments(p.stones, step.pay)]
            return self._ask(_D_CHOICE, k, [*pays, space.take], step)
        if isinstance(step, pw.PayStones):
            pays = [space.pay[x] for x in pw.payments(p.stones, step)]
            if not pays:
                return False
            return self._ask(_D_PAY, k, pays, step)
        if isinstance(step, pw.GainStoneChoice):
            self.stack.extend([(pw.GainStoneChoice(1), k)] * (step.count - 1))
            cols = [space.colour[c] for c in range(3) if bank.stones[c]]
            if not cols:
                return False
            return self._ask(_D_COLOUR_GAIN, k, cols)
        if isinstance(step, pw.StealSecond):
            return self._ask(_D_STEAL, k, self._steal_options(w))
        if isinstance(step, pw.TakeAllFrom):
            targets = [space.target[s] for s in range(self.num_players) if s != w]
            return self._ask(_D_TARGET, k, targets, step)
        if isinstance(step, pw.KeepDoppelganger):
            self._keep_doppelganger(w, k)
            return False
        if isinstance(step, pw.CopyAuctioned):
            seen = sorted({c for c in self.auctioned if c != k})
            if not seen:
                return False
            return self._ask(_D_PICK_GHOST, k, [space.pick[c] for c in seen])
        if isinstance(step, pw.PlayUnauctioned):
            if not self.pile_total:
                return False
            if step.choose:
                left = [space.pick[c] for c, n in enumerate(self.pile) if n]
                return self._ask(_D_PICK_IMP, k, left)
            return self._draw(_PC_GOBLIN)
        if isinstance(step, pw.BuyStones):
            return self._ask(_D_BUY, k, self._buy_options(p, step), step, auto=False)
        if isinstance(step, pw.Necromancer):
            if self.necro_paid:
                return False  # the coins of this auction are already paid (docs/rulings.md)
            return self._ask(_D_NECRO, k, (space.accept, space.decline), step, auto=False)
        if isinstance(step, pw.PayAllStones):
            self._e("fist.quack.paid", None, w, *p.stones)
            for c in range(3):
                bank.stones[c] += p.stones[c]
                p.stones[c] = 0
            self._add_points(w, step.points)
            return False
        if isinstance(step, pw.PushYourLuck):
            cols = [space.colour[c] for c in range(3) if bank.stones[c]]
            if not cols:
                return False
            return self._ask(_D_COLOUR_RAINBOW, k, cols)
        if isinstance(step, pw.LoseColour):
            return self._ask(_D_COLOUR_TROLL, k, space.colour)
        if isinstance(step, pw.DiscardDoppelganger):
            dop = self.game.doppelganger
            assert dop is not None and self.doppel_holder == w
            self.doppel_holder = None
            self.special_discard[dop] += 1
            self._e("fist.doppelganger.discarded", None, w)
            return False
        if isinstance(step, pw.BagDraw):
            self.bag = [min(step.per_colour, bank.stones[c]) for c in range(3)]
            self.bag_draws = min(step.draws, sum(self.bag))
            self.dec_card = k
            if not self.bag_draws:
                return False
            return self._draw(_PC_BAG)
        raise AssertionError(f"unknown power step {step!r}")

    def _gain(self, w: int, p: Player, g: pw.Gain) -> None:
        """``w`` (player ``p``) takes ``g`` from the bank, what it has (F1); public (F8)."""
        bank = self.bank
        e = self._e
        if g.fairy:
            n = min(g.fairy, bank.fairy)
            bank.fairy -= n
            p.fairy += n
            e("fist.gain.fairy", None, w, n)
        if g.common:
            n = min(g.common, bank.common)
            bank.common -= n
            p.common += n
            e("fist.gain.common", None, w, n)
        if g.silver:
            n = min(g.silver, bank.silver)
            bank.silver -= n
            p.silver += n
            e("fist.gain.silver", None, w, n)
        if g.amulet:
            n = min(g.amulet, bank.amulet)
            bank.amulet -= n
            p.amulet += n
            e("fist.gain.amulet", None, w, n)
        if g.black:
            p.black += g.black  # never short (F1): a missing coin is improvised
            bank.black = max(0, bank.black - g.black)
            e("fist.gain.black", None, w, g.black)
        for c in range(3):
            if g.stones[c]:
                n = min(g.stones[c], bank.stones[c])
                bank.stones[c] -= n
                p.stones[c] += n
                e("fist.gain.stones", None, w, COLOURS[c], n)

    def _steal_options(self, w: int) -> list[FistAction]:
        space = self.space
        cands = self.second
        with_stones = [s for s in cands if any(self.players[s].stones)]
        if with_stones:  # F6 Thief: one who has a stone when any has
            return [space.steal[s][c] for s in with_stones for c in range(3)
                    if self.players[s].stones[c]]
        return [space.steal[s][3] for s in cands]

    def _buy_options(self, p: Player, step: pw.BuyStones) -> list[FistAction]:
        space = self.space
        prices = (step.common, step.fairy, step.silver)
        have = (p.common, p.fairy, p.silver)
        out = [space.buy[c][m] for c in range(3) if self.bank.stones[c]
               for m in range(3) if prices[m] and have[m] >= prices[m]]
        out.append(space.done)
        return out

    def _keep_doppelganger(self, w: int, k: int) -> None:
        if self.doppel_holder is not None:
            return  # someone holds it: nothing (F7 Ghost)
        dop = self.game.doppelganger
        if dop is None:
            return
        if dop in self.turn_specials:
            self.turn_specials.remove(dop)
        elif self.special_discard[dop]:
            self.special_discard[dop] -= 1
        else:
            return
        self.doppel_holder = w
        self._e("fist.doppelganger.kept", None, w)

    # ------------------------------------------------------------------ decisions
    def _on_decision(self, action: FistAction) -> None:
        self._resolve(action)
        if self.phase == _P_RUNNING:
            self._run()

    def _resolve(self, action: FistAction) -> None:
        """Carry out the winner's decision. Leaves phase RUNNING if the caller should go on
        with the stack; DECIDE or POWER_CHANCE if it waits again; OVER if the game ended."""
        w = self.winner
        assert w is not None
        p = self.players[w]
        bank = self.bank
        dec = self.dec
        k = self.dec_card
        self.dec = None
        self.phase = _P_RUNNING
        kind = action.kind
        if dec == _D_DOUBLE:
            if kind == _K_DOUBLE:
                self._e("fist.doppelganger.played", None, w, self.cards[k].id)
                # twice in a row, *then* the card goes to the discard pile (F7): while the
                # doubled power runs, its holder still holds it (a Ghost cannot take it back)
                self.stack.append((pw.DiscardDoppelganger(), k))
                self._push_power(k, 2)
            else:
                self._push_power(k, 1)
        elif dec in (_D_CHOICE, _D_PAY):
            step = self.dec_data
            if kind == _K_TAKE:
                assert isinstance(step, pw.Choice)
                self._gain(w, p, step.alternative)
            else:
                pay = step.pay if isinstance(step, pw.Choice) else step
                self._e("fist.power.paid_stones", None, w, action.a, action.b, action.c)
                for c, n in enumerate((action.a, action.b, action.c)):
                    p.stones[c] -= n
                    bank.stones[c] += n
                self._add_points(w, pay.points)
        elif dec == _D_COLOUR_GAIN:
            bank.stones[action.a] -= 1
            p.stones[action.a] += 1
            self._e("fist.gain.stones", None, w, COLOURS[action.a], 1)
        elif dec == _D_COLOUR_TROLL:
            c = action.a
            self._e("fist.troll.named", None, w, COLOURS[c])
            for s, q in enumerate(self.players):
                if q.stones[c]:
                    self._e("fist.troll.returned", None, s, COLOURS[c], q.stones[c])
                bank.stones[c] += q.stones[c]
                q.stones[c] = 0
        elif dec == _D_COLOUR_RAINBOW:
            self._e("fist.rainbow.named", None, w, COLOURS[action.a])
            self.rainbow_colour = action.a
            self.drawn = [0, 0, 0]
            self.dec_card = k
            self._draw(_PC_RAINBOW)
        elif dec == _D_RAINBOW_MORE:
            if kind == _K_DRAW:
                self.dec_card = k
                self._draw(_PC_RAINBOW)
            else:
                self._keep_drawn(p)
        elif dec == _D_STEAL:
            self._steal(w, action)
        elif dec == _D_TARGET:
            self._brigand(w, action.a, self.dec_data)
        elif dec in (_D_PICK_GHOST, _D_PICK_IMP):
            if dec == _D_PICK_IMP:
                self._e("fist.imp.played", None, w, self.cards[action.a].id)
                self._play_from_pile(action.a)
            else:
                self._e("fist.ghost.copied", None, w, self.cards[action.a].id)
                self._push_power(action.a)
        elif dec == _D_BUY:
            if kind == _K_BUY:
                m = action.b
                step = self.dec_data
                price = (step.common, step.fairy, step.silver)[m]
                if m == 0:
                    p.common -= price
                    bank.common += price
                elif m == 1:
                    p.fairy -= price
                    bank.fairy += price
                else:
                    p.silver -= price
                    bank.silver += price
                bank.stones[action.a] -= 1
                p.stones[action.a] += 1
                self._e("fist.merchant.bought", None, w, COLOURS[action.a], CURRENCIES[m],
                        price)
                self._ask(_D_BUY, k, self._buy_options(p, step), step, auto=False)
        elif dec == _D_NECRO:
            if kind == _K_ACCEPT:
                paid = min(self.auction_fairy[w], p.fairy_spent)
                p.fairy_spent -= paid
                bank.fairy += paid
                self.necro_paid = True
                self._e("fist.necromancer.paid", None, w, paid)
                self._add_points(w, self.dec_data.points)
            else:
                self._e("fist.necromancer.declined", None, w)

    def _keep_drawn(self, p: Player) -> None:
        self._e("fist.rainbow.kept", None, self.winner, *self.drawn)
        for c in range(3):
            p.stones[c] += self.drawn[c]
        self.drawn = [0, 0, 0]

    def _play_from_pile(self, c: int) -> None:
        self.pile[c] -= 1
        self.pile_total -= 1
        self.auctioned.append(c)
        self._push_power(c)

    def _steal(self, w: int, action: FistAction) -> None:
        victim = self.players[action.a]
        thief = self.players[w]
        v = action.a
        if action.b < 3:
            victim.stones[action.b] -= 1
            thief.stones[action.b] += 1
            self._e("fist.thief.stone", None, w, v, COLOURS[action.b])
            return
        if victim.common:
            victim.common -= 1
            thief.common += 1
            what = "common"
        elif victim.fairy:
            victim.fairy -= 1
            thief.fairy += 1
            what = "fairy"
        elif victim.fairy_spent:
            victim.fairy_spent -= 1
            thief.fairy_spent += 1
            what = "fairy_spent"
        else:
            what = "none"
        # which coin left a screen is private to the two of them (F8)
        self._e("fist.thief.coin", None, w, v)
        self._e("fist.thief.coin_taken", w, w, v, what)
        self._e("fist.thief.coin_taken", v, w, v, what)

    def _brigand(self, w: int, target: int, step: pw.TakeAllFrom) -> None:
        victim = self.players[target]
        me = self.players[w]
        common = victim.common if step.common else 0
        silver = victim.silver if step.silver else 0
        victim.common -= common
        victim.silver -= silver
        me.common += common
        me.silver += silver
        # the amount is private to the two of them (F7 Brigand, F8)
        self._e("fist.brigand.chose", None, w, target)
        self._e("fist.brigand.handed", w, w, target, common, silver)
        self._e("fist.brigand.handed", target, w, target, common, silver)

    def _on_power_chance(self, action: FistAction) -> None:
        w = self.winner
        assert w is not None
        p = self.players[w]
        bank = self.bank
        kind = self.pchance
        self.pchance = None
        self.phase = _P_RUNNING
        if kind == _PC_GOBLIN:
            self._e("fist.goblin.drew", None, w, self.cards[action.a].id)
            self._play_from_pile(action.a)
        elif kind == _PC_BAG:
            c = action.a
            self._e("fist.bag.drawn", None, w, COLOURS[c])
            self.bag[c] -= 1
            bank.stones[c] -= 1
            p.stones[c] += 1
            self.bag_draws -= 1
            if self.bag_draws:
                self._draw(_PC_BAG)
                return
            self.bag = [0, 0, 0]
        else:  # Rainbow Dragon
            c = action.a
            bank.stones[c] -= 1
            self.drawn[c] += 1
            self._e("fist.rainbow.drawn", None, w, COLOURS[c])
            if c == self.rainbow_colour:
                self._e("fist.rainbow.bust", None, w, COLOURS[c])
                for i in range(3):
                    bank.stones[i] += self.drawn[i]
                self.drawn = [0, 0, 0]
            elif any(bank.stones):
                sp = self.space
                self._ask(_D_RAINBOW_MORE, self.dec_card, (sp.draw, sp.stop), auto=False)
                return
            else:
                self._keep_drawn(p)  # the bag is empty: keep what was drawn
        self._run()

    # ------------------------------------------------------------------ views (F8)
    def _seats_public(self) -> list[JSON]:
        sealed = self.phase == _P_BID or self.phase == _P_TIEBID
        return [{"seat": s, "score": p.score,
                 "stones": {"red": p.stones[0], "blue": p.stones[1], "yellow": p.stones[2]},
                 "doppelganger": self.doppel_holder == s,
                 "has_bid": (self.bids[s] is not None) if sealed else None}
                for s, p in enumerate(self.players)]

    def _public(self) -> JSON:
        """The public part of a view (:class:`dragonlair.games.fist.views.FistPublic`)."""
        names = self.game.card_ids
        bank = self.bank
        in_rainbow = self.pchance == PowerChance.RAINBOW or (
            self.phase == Phase.DECIDE and self.dec == Dec.RAINBOW_MORE)
        opts = self.game.options
        return {
            "players": self.num_players,
            "options": {"players": opts["players"], "max_turns": opts["max_turns"],
                        "custom": copy.deepcopy(opts["custom"])},
            "card": names[self.current] if self.current is not None else None,
            "tie_break": list(self.tied) if self.phase == Phase.TIEBID else [],
            "winner": self.winner,
            "pile": sorted(names[k] for k, n in enumerate(self.pile) for _ in range(n)),
            "auctioned": [names[k] for k in self.auctioned],
            "turn_specials": [names[k] for k in self.turn_specials],
            "special_deck_size": sum(self.special_deck),
            "special_discard": sorted(
                names[k] for k, n in enumerate(self.special_discard) for _ in range(n)),
            "doppelganger_holder": self.doppel_holder,
            "bank": {"fairy": bank.fairy, "silver": bank.silver, "common": bank.common,
                     "amulet": bank.amulet, "black": bank.black,
                     "stones": dict(zip(COLOURS, bank.stones, strict=True))},
            "drawn": dict(zip(COLOURS, self.drawn, strict=True)),
            "rainbow_colour": COLOURS[self.rainbow_colour] if in_rainbow else None,
            "second_highest": list(self.second) if self.winner is not None else [],
            "seats": self._seats_public(),
            "decision": (self.dec.name.lower() if self.phase == Phase.DECIDE and self.dec
                         is not None else None),
            "history": self._public_history(),
        }

    def _public_history(self) -> list[str]:
        """The record so far; sealed bids not yet revealed show only who has bid (F8)."""
        out = self._log[:]
        if self.phase in (Phase.BID, Phase.TIEBID):
            for i in range(self.sealed_from, len(out)):
                out[i] = f"p{self._history[i][0]}: sealed"
        return out

    def _private(self, seat: int) -> JSON:
        """This seat's screen (:class:`dragonlair.games.fist.views.FistPrivate`)."""
        p = self.players[seat]
        bid = self.bids[seat] if self.phase in (Phase.BID, Phase.TIEBID) else None
        return {"fairy": p.fairy, "fairy_spent": p.fairy_spent, "common": p.common,
                "silver": p.silver, "black": p.black, "amulet": p.amulet,
                "bid": str(bid) if bid is not None else None}

    def _legal(self, seat: int) -> JSON | None:
        """This seat's legal actions, compactly (:class:`.views.FistLegal`)."""
        if seat not in self.to_move:
            return None
        p = self.players[seat]
        if self.phase == _P_BID:
            return {"kind": "bid", "bid": {"fairy": p.fairy, "common": p.common,
                                           "black": p.black > 0, "amulet": p.amulet > 0},
                    "silver": None, "decision": None, "card": self._card_id(), "choices": None}
        if self.phase == _P_TIEBID:
            return {"kind": "silver", "bid": None,
                    "silver": {"silver": p.silver, "amulet": p.amulet > 0},
                    "decision": None, "card": self._card_id(), "choices": None}
        assert self.dec is not None
        card = self.game.card_ids[self.dec_card]
        return {"kind": "decision", "bid": None, "silver": None,
                "decision": self.dec.name.lower(), "card": card,
                "choices": [choice_json(a, card, self.game.card_ids) for a in self.dec_legal]}

    def view(self, seat: int | None, since: int = 0) -> JSON:
        """What ``seat`` may know (F8); ``None`` for a spectator: the envelope of
        :mod:`dragonlair.core.views`, with the events this viewer may see from ``since`` on."""
        if seat is not None:
            check_seat_range(seat, self.num_players)
        if type(since) is not int:
            raise OptionError("fist.view.since", value=shown(since))
        seqs, stored = self._vcache.events(self._ev, self._nev, seat)
        start = bisect_left(seqs, since) if since > 0 else 0
        events: list[dict[str, Any]] = list(stored[start:])
        pending = self._pending()
        if pending:
            base = self._nev
            events += [event_json(base + i, e) for i, e in enumerate(pending)
                       if (e.to is None or e.to == seat) and base + i >= since]
        outcome = self.outcome()
        return envelope(
            game="fist", game_version=self.game.info.version, seat=seat,
            to_move=[s for s in self.to_move if s != CHANCE],
            chance=self.to_move == (CHANCE,), phase=self.phase.name.lower(), turn=self.turn,
            public=self._public(),
            private=self._private(seat) if seat is not None else None,
            legal=self._legal(seat) if seat is not None else None,
            events=events, since=max(since, 0), total=self.event_count,
            result=outcome.to_json() if outcome else None)

    def full_state(self) -> JSON:
        v = self._public()
        outcome = self.outcome()
        v.update(turn=self.turn, phase=self.phase.name.lower(),
                 to_move=["chance" if s == CHANCE else s for s in self.to_move],
                 result=outcome.to_json() if outcome else None)
        v["history"] = self._log[:]
        v["players_full"] = [
            {"seat": s, "score": p.score, "stones": dict(zip(COLOURS, p.stones, strict=True)),
             **p.coins_json(), "doppelganger": self.doppel_holder == s,
             "pending_bid": str(self.bids[s]) if self.phase in (Phase.BID, Phase.TIEBID)
             and self.bids[s] is not None else None}
            for s, p in enumerate(self.players)
        ]
        v["special_deck"] = sorted(
            self.game.card_ids[k] for k, n in enumerate(self.special_deck) for _ in range(n))
        return v

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
