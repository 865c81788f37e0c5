"""A Fist of Dragonstones evaluation and policy, for the ``heuristic`` and ``ismcts`` bots.

Everything here reads a :class:`FistState` that a seat has rebuilt from its own views
(:mod:`memory`): the public record and the seat's own screen. Other seats' coins are
known exactly as far as a perfect memory of the record knows them; sealed bids not yet
revealed are not in such a state at all.

The unit of value is the point. A seat's *equity* is its score, plus what its stones are
worth as future points (sets for the Magician, Wizard, Sorcerer...), plus its coins, plus
its share of the cards still to come this turn, which its unspent bidding money buys.
Win chances are a softmax over the seats' equities.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import FistAction, Kind
from dragonlair.games.fist.state import WIN_POINTS, Dec, Decision, FistState, Phase

# coin values, in points
FAIRY = 0.07  # bidding money that returns every turn
COMMON = 0.055  # bidding money, spent for good
SILVER = 0.018  # tie-breaks and the Merchant
AMULET = 0.16  # doubles one bid
BLACK = 0.05  # a curse, this turn only
DOPPEL = 0.3  # a doubled power later
STONE_LEFT = 0.12  # a stone not (yet) part of a set
SET_DISCOUNT = 0.5  # a set still needs its character to be won
WIN_VALUE = 4.0  # the point that wins the game
PILE_SHARE = 0.35  # what one card still to come is worth, shared by bidding money
BETA = 2.2  # softness of the win chance
CARD_AVERAGE = 0.45  # a card still to come this turn, on average


@lru_cache(maxsize=4096)
def stone_worth(r: int, b: int, y: int) -> float:
    """What a stone holding is worth in points: the best split into sets the standard
    characters pay for (4 of one colour: 2 points; one of each: 1; any 4: 1), leftovers
    at a flat rate."""
    best = STONE_LEFT * (r + b + y)
    have = (r, b, y)
    for c in range(3):
        if have[c] >= 4:
            rest = list(have)
            rest[c] -= 4
            best = max(best, 2 * SET_DISCOUNT + stone_worth(*rest))
    if r and b and y:
        best = max(best, SET_DISCOUNT + stone_worth(r - 1, b - 1, y - 1))
    if r + b + y >= 4:
        # any 4: pay from the colours held most
        rest = sorted(have, reverse=True)
        left = 4
        for i in range(3):
            take = min(left, rest[i])
            rest[i] -= take
            left -= take
        best = max(best, SET_DISCOUNT + stone_worth(*rest))
    return best


def stones_of(st: FistState, seat: int) -> tuple[int, int, int]:
    s = st.players[seat].stones
    return s[0], s[1], s[2]


def bid_power(st: FistState, seat: int) -> float:
    p = st.players[seat]
    return p.fairy + p.common + (3.0 if p.amulet else 0.0)


def equity(st: FistState, seat: int) -> float:
    """A seat's position in points (see the module docs)."""
    p = st.players[seat]
    e = float(p.score) + stone_worth(p.stones[0], p.stones[1], p.stones[2])
    e += FAIRY * (p.fairy + p.fairy_spent) + COMMON * p.common + SILVER * p.silver
    e += AMULET * p.amulet + BLACK * p.black
    if st.doppel_holder == seat:
        e += DOPPEL
    if st.pile_total:
        total = sum(bid_power(st, s) for s in range(st.num_players))
        if total > 0:
            e += PILE_SHARE * st.pile_total * bid_power(st, seat) / total
    return e


def win_chances(st: FistState) -> list[float]:
    """Each seat's chance to win, estimated from the position (exact once the game is over)."""
    n = st.num_players
    if st.phase == Phase.OVER:
        w = st.winners
        return [1.0 / len(w) if s in w else 0.0 for s in range(n)] if w else [1.0 / n] * n
    eq = [equity(st, s) for s in range(n)]
    top = max(eq)
    ex = [math.exp(BETA * (e - top)) for e in eq]
    z = sum(ex)
    return [x / z for x in ex]


# ---------------------------------------------------------------------- card values
def points_value(score: int, points: int) -> float:
    return WIN_VALUE if score + points >= WIN_POINTS else float(points)


def _best_payment(have: tuple[int, int, int], pay: pw.PayStones
                  ) -> tuple[float, tuple[int, int, int] | None]:
    """The payment that keeps the most stone worth, and the worth lost by it."""
    best: tuple[float, tuple[int, int, int] | None] = (math.inf, None)
    now = stone_worth(*have)
    for x in pw.payments(have, pay):
        left = (have[0] - x[0], have[1] - x[1], have[2] - x[2])
        loss = now - stone_worth(*left)
        if loss < best[0]:
            best = (loss, x)
    return best


def pay_value(have: tuple[int, int, int], score: int, pay: pw.PayStones) -> float:
    loss, x = _best_payment(have, pay)
    if x is None:
        return 0.0
    return points_value(score, pay.points) - loss


def stone_gain(have: tuple[int, int, int], c: int) -> float:
    more = list(have)
    more[c] += 1
    return stone_worth(*more) - stone_worth(*have)


def card_value(st: FistState, seat: int, k: int, depth: int = 0) -> float:
    """What winning card ``k`` now would be worth to ``seat``, in points."""
    return sum(step_value(st, seat, step, k, depth) for step in st.cards[k].power)


def step_value(st: FistState, seat: int, step: pw.Step, k: int, depth: int) -> float:
    """What ``step`` of card ``k``'s power would be worth to ``seat``, in points."""
    return VALUE.of(step)(st, seat, step, k, depth)


#: what each primitive is worth: ``(state, seat, step, card, depth) -> points``
VALUE: pw.Table[Callable[[FistState, int, Any, int, int], float]] = pw.Table("heuristic.VALUE")


@VALUE.on(pw.Gain)
def _gain(st: FistState, seat: int, step: pw.Gain, k: int, depth: int) -> float:
    bank = st.bank
    v = (FAIRY * min(step.fairy, bank.fairy) + COMMON * min(step.common, bank.common)
         + SILVER * min(step.silver, bank.silver) + AMULET * min(step.amulet, bank.amulet)
         + BLACK * step.black)
    if any(step.stones):
        have = stones_of(st, seat)
        more = [have[c] + min(step.stones[c], bank.stones[c]) for c in range(3)]
        v += stone_worth(*more) - stone_worth(*have)
    return v


@VALUE.on(pw.Choice)
def _either(st: FistState, seat: int, step: pw.Choice, k: int, depth: int) -> float:
    return max(pay_value(stones_of(st, seat), st.players[seat].score, step.pay),
               step_value(st, seat, step.alternative, k, depth))


@VALUE.on(pw.PayStones)
def _pay_stones(st: FistState, seat: int, step: pw.PayStones, k: int, depth: int) -> float:
    return max(0.0, pay_value(stones_of(st, seat), st.players[seat].score, step))


@VALUE.on(pw.GainStoneChoice)
def _gain_stone_choice(st: FistState, seat: int, step: pw.GainStoneChoice, k: int, depth: int
                       ) -> float:
    have = stones_of(st, seat)
    gains = [stone_gain(have, c) for c in range(3) if st.bank.stones[c]]
    return step.count * max(gains, default=0.0)


@VALUE.on(pw.StealSecond)
def _steal_from_second(st: FistState, seat: int, step: pw.StealSecond, k: int, depth: int
                       ) -> float:
    return 0.3


@VALUE.on(pw.TakeAllFrom)
def _take_all_from(st: FistState, seat: int, step: pw.TakeAllFrom, k: int, depth: int
                   ) -> float:
    return max((COMMON * q.common + SILVER * q.silver
                for s, q in enumerate(st.players) if s != seat), default=0.0)


@VALUE.on(pw.KeepDoppelganger)
def _keep_doppelganger(st: FistState, seat: int, step: pw.KeepDoppelganger, k: int,
                       depth: int) -> float:
    return DOPPEL if st.doppel_holder is None else 0.0


@VALUE.on(pw.CopyAuctioned)
def _copy_auctioned(st: FistState, seat: int, step: pw.CopyAuctioned, k: int, depth: int
                    ) -> float:
    if depth:
        return 0.0
    seen = {c for c in st.auctioned if c != k}
    return max((card_value(st, seat, c, depth + 1) for c in seen), default=0.0)


@VALUE.on(pw.PlayUnauctioned)
def _play_unauctioned(st: FistState, seat: int, step: pw.PlayUnauctioned, k: int, depth: int
                      ) -> float:
    if depth:
        return 0.0
    vals = [card_value(st, seat, c, depth + 1)
            for c, n in enumerate(st.pile) if n and c != k]
    if not vals:
        return 0.0
    return max(vals) if step.choose else sum(vals) / len(vals)


@VALUE.on(pw.BuyStones)
def _buy_stones(st: FistState, seat: int, step: pw.BuyStones, k: int, depth: int) -> float:
    p = st.players[seat]
    bank = st.bank
    money = p.common // max(step.common, 1) if step.common else 0
    money += p.silver // step.silver if step.silver else 0
    if not money:
        return 0.0
    have = stones_of(st, seat)
    more = list(have)
    for _ in range(min(money, 4)):
        c = max(range(3), key=lambda c: stone_gain(tuple(more), c)  # type: ignore[arg-type]
                if bank.stones[c] else -1.0)
        more[c] += 1
    return max(0.0, stone_worth(*more) - stone_worth(*have) - 0.05 * min(money, 4))


@VALUE.on(pw.Necromancer)
def _necromancer(st: FistState, seat: int, step: pw.Necromancer, k: int, depth: int) -> float:
    return 0.75 * points_value(st.players[seat].score, step.points)


@VALUE.on(pw.PayAllStones)
def _pay_all_stones(st: FistState, seat: int, step: pw.PayAllStones, k: int, depth: int
                    ) -> float:
    return points_value(st.players[seat].score, step.points) - stone_worth(*stones_of(st, seat))


@VALUE.on(pw.PushYourLuck)
def _push_your_luck(st: FistState, seat: int, step: pw.PushYourLuck, k: int, depth: int
                    ) -> float:
    return 0.3 if sum(st.bank.stones) > 4 else 0.1


@VALUE.on(pw.LoseColour)
def _lose_colour(st: FistState, seat: int, step: pw.LoseColour, k: int, depth: int) -> float:
    return max(_troll_value(st, seat, c) for c in range(3))


@VALUE.on(pw.BagDraw)
def _bag_draw(st: FistState, seat: int, step: pw.BagDraw, k: int, depth: int) -> float:
    have = stones_of(st, seat)
    return 2 * max(stone_gain(have, c) for c in range(3)) * 0.8


@VALUE.on(pw.DiscardDoppelganger)
def _discard_doppelganger(st: FistState, seat: int, step: pw.DiscardDoppelganger, k: int,
                          depth: int) -> float:
    return 0.0  # engine-internal: never on a card


VALUE.check()


def _troll_value(st: FistState, seat: int, c: int) -> float:
    """Stone worth the others lose (weighted by how close they are) less our own loss."""
    v = 0.0
    for s in range(st.num_players):
        have = stones_of(st, s)
        left = list(have)
        left[c] = 0
        loss = stone_worth(*have) - stone_worth(*left)
        if s == seat:
            v -= loss
        else:
            v += loss * (0.4 + 0.3 * st.players[s].score) / (st.num_players - 1)
    return v


# ---------------------------------------------------------------------- bidding
def fairy_price(st: FistState, seat: int) -> float:
    """What one Fairy Gold spent now costs ``seat``: its share of the cards left this turn
    that the coin could have helped to buy."""
    fairy = st.players[seat].fairy
    left = CARD_AVERAGE * st.pile_total
    return min(0.25, max(0.03, 1.3 * left / (st.num_players * (fairy + 1))))


class FistHeuristic:
    """The heuristic policy: one decision for one seat of a (rebuilt) state."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # ---------------------------------------------------------------- auctions
    def offers(self, st: FistState, vals: list[float]) -> list[int]:
        """What each seat would offer for the card now, before any noise."""
        n = st.num_players
        out = []
        for s in range(n):
            p = st.players[s]
            threat = max((vals[o] for o in range(n) if o != s), default=0.0)
            worth = vals[s] + 0.3 * threat
            out.append(max(0, min(p.fairy + p.common, int(worth / fairy_price(st, s) * 0.6))))
        return out

    def bids(self, st: FistState, seats: Sequence[int]) -> list[FistAction]:
        """The policy's sealed bid for each of ``seats``, valuing the card once for all."""
        k = st.current
        assert k is not None
        vals = [card_value(st, s, k) for s in range(st.num_players)]
        offers = self.offers(st, vals)
        return [self.bid_options(st, s, 1, vals, offers)[0] for s in seats]

    def bid_options(self, st: FistState, seat: int, count: int,
                    vals: list[float] | None = None, offers: list[int] | None = None
                    ) -> list[FistAction]:
        """Up to ``count`` sensible bids for ``seat``, the policy's own choice first."""
        k = st.current
        assert k is not None
        n = st.num_players
        p = st.players[seat]
        rng = self.rng
        if vals is None:
            vals = [card_value(st, s, k) for s in range(n)]
        mine = vals[seat]
        threat = max((vals[s] for s in range(n) if s != seat), default=0.0)
        if offers is None:
            offers = self.offers(st, vals)
        rival = max((offers[s] for s in range(n) if s != seat), default=0)
        price = fairy_price(st, seat)
        money = p.fairy + p.common
        worth = mine + (0.5 * threat if threat >= 1.0 else 0.25 * threat)
        if threat >= WIN_VALUE:
            worth = max(worth, WIN_VALUE)
        # to win, outbid the strongest rival's likely offer by one or two
        target = rival + 1 + (1 if rng.random() < 0.4 else 0)
        choices: list[tuple[int, int, int, int]] = []
        amulet = 1 if p.amulet and (mine >= 1.0 or threat >= WIN_VALUE) else 0
        if target <= money and target * price <= worth:
            choices.append(self._split(p.fairy, p.common, target, mine, amulet=0))
        elif amulet and (target + 1) // 2 <= money:
            choices.append(self._split(p.fairy, p.common, (target + 1) // 2, mine, amulet=1))
        if threat >= WIN_VALUE and mine < WIN_VALUE and p.black:
            choices.insert(0, (0, 0, 1, 0))  # curse the card that would end the game
        if mine >= 1.0:  # everything, for a card worth a point or the game
            choices.append((p.fairy, p.common, 0, amulet))
        modest = int(worth / price * 0.3 * rng.uniform(0.5, 1.5))
        choices.append((modest, 0, 0, 0))
        choices.append((0, 0, 0, 0))
        choices.append((target + 2, 0, 0, 0))
        choices.append((p.fairy, max(0, target - p.fairy), 0, 0))
        choices.append((max(1, target - 2), 0, 0, 0))
        out: list[FistAction] = []
        seen: set[int] = set()
        bids = st.space.bid
        for f, c, blk, am in choices:
            a = bids[max(0, min(f, p.fairy))][max(0, min(c, p.common))][blk][am]
            if a.index not in seen:
                seen.add(a.index)
                out.append(a)
                if len(out) == count:
                    break
        return out

    @staticmethod
    def _split(fairy: int, common: int, value: int, mine: float, amulet: int
               ) -> tuple[int, int, int, int]:
        """Pay ``value`` with Fairy Gold first; Common Gold (gone for good) only for a card
        worth a point."""
        f = min(fairy, value)
        c = min(common, value - f) if mine >= 0.9 else 0
        return f, c, 0, amulet

    def silver(self, st: FistState, seat: int) -> FistAction:
        """A sealed Silver tie-break bid (F5.7)."""
        k = st.current
        assert k is not None
        p = st.players[seat]
        mine = card_value(st, seat, k)
        rivals = [st.players[s].silver for s in st.tied if s != seat]
        need = max(rivals, default=0) + 1
        worth_silver = int(mine / SILVER * 0.5)
        amulet = 1 if p.amulet and mine >= 1.0 and (need + 1) // 2 <= p.silver else 0
        if amulet:
            want = (need + 1) // 2
        elif need <= p.silver and need <= worth_silver:
            want = need
        else:
            want = min(p.silver, worth_silver, int(self.rng.random() * 3))
        return st.space.silver[max(0, min(want, p.silver))][amulet]

    # ---------------------------------------------------------------- power decisions
    def decide(self, st: FistState, seat: int, legal: tuple[FistAction, ...]) -> FistAction:
        """The winner's decision inside a power: the option with the best one-step value."""
        return max(legal, key=lambda a: self.decision_value(st, seat, a))

    def decision_value(self, st: FistState, seat: int, a: FistAction) -> float:
        p = st.players[seat]
        have = stones_of(st, seat)
        k = a.kind
        bank = st.bank
        decision = st.pending if isinstance(st.pending, Decision) else None
        if k == Kind.PAY:
            paid = a.stones
            left = (have[0] - paid[0], have[1] - paid[1], have[2] - paid[2])
            step = decision.step if decision is not None else None
            choice = pw.step_as(step, pw.Choice)
            pay = choice.pay if choice is not None else pw.step_as(step, pw.PayStones)
            pts = pay.points if pay is not None else 1
            return points_value(p.score, pts) - (stone_worth(*have) - stone_worth(*left))
        if k == Kind.TAKE:
            choice = pw.step_as(decision.step, pw.Choice) if decision is not None else None
            if decision is not None and choice is not None:
                return step_value(st, seat, choice.alternative, decision.card, 0)
            return 0.0
        if k == Kind.COLOUR:
            dec = decision.kind if decision is not None else None
            colour = a.colour
            assert colour is not None
            if dec == Dec.COLOUR_TROLL:
                return _troll_value(st, seat, colour)
            if dec == Dec.COLOUR_RAINBOW:
                return -float(bank.stones[colour])  # name the rarest colour: least risk
            return stone_gain(have, colour)
        if k == Kind.STEAL:
            colour, whom = a.colour, a.seat
            assert whom is not None
            if colour is not None:
                victim = stones_of(st, whom)
                less = list(victim)
                less[colour] -= 1
                return (stone_gain(have, colour)
                        + 0.5 * (stone_worth(*victim) - stone_worth(*less))
                        + 0.05 * st.players[whom].score)
            return 0.1
        if k == Kind.TARGET:
            assert a.seat is not None
            q = st.players[a.seat]
            return COMMON * q.common + SILVER * q.silver
        if k == Kind.PICK:
            assert a.card is not None
            return card_value(st, seat, a.card, 1)
        if k == Kind.BUY:
            assert a.colour is not None and a.currency is not None
            cost = (COMMON, FAIRY * 2.5, SILVER * 3)[a.currency]
            return stone_gain(have, a.colour) - cost - 0.02
        if k in (Kind.DONE, Kind.DECLINE, Kind.STOP, Kind.SINGLE):
            return 0.0
        if k == Kind.ACCEPT:
            fairy_paid = min(st.auction_fairy[seat], p.fairy_spent)
            return points_value(p.score, 1) - FAIRY * 3 * fairy_paid
        if k == Kind.DRAW:
            named = st.rainbow_colour
            total = sum(bank.stones)
            if not total:
                return -1.0
            bust = bank.stones[named] / total
            drawn = st.drawn
            kept = stone_worth(have[0] + drawn[0], have[1] + drawn[1], have[2] + drawn[2])
            gain = max(stone_gain((have[0] + drawn[0], have[1] + drawn[1], have[2] + drawn[2]),
                                  c) for c in range(3))
            return (1 - bust) * gain - bust * (kept - stone_worth(*have))
        if k == Kind.DOUBLE:
            assert decision is not None
            return card_value(st, seat, decision.card) - DOPPEL
        return 0.0

    # ---------------------------------------------------------------- any decision
    def act(self, st: FistState, seat: int) -> FistAction:
        """The policy's action for ``seat`` in ``st`` (a seat to move)."""
        ph = st.phase
        if ph == Phase.BID:
            return self.bid_options(st, seat, 1)[0]
        if ph == Phase.TIEBID:
            return self.silver(st, seat)
        legal = tuple(st.legal_actions(seat))
        if len(legal) == 1:
            return legal[0]
        return self.decide(st, seat, legal)
