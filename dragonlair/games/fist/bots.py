"""Fist of Dragonstones bots. They see only their seat's view (F8) and the legal actions.

``greedy``: values the card up for auction from its power primitives and the position
(points are worth most, a point that wins is worth everything; what an opponent would
win with it counts too). It shares its Fairy Gold over the turn's remaining cards in
proportion to their worth, adds Common Gold and the Amulet only for cards worth a point,
curses a card that would hand an opponent the game, and takes each power decision by the
same valuation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from dragonlair.core.game import JSON, Action
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import COLOURS, FistAction, Kind
from dragonlair.games.fist.cards import BUILTIN

CARDS = {c.id: c for c in BUILTIN}
POINT = 7.0  # a point, in coins
WIN = 60.0  # the point that wins the game
STONE = 1.4
UNKNOWN_CARD = 2.5  # a custom card the bot does not know


def _stones(seat: JSON) -> list[int]:
    st = seat["stones"]
    return [st["red"], st["blue"], st["yellow"]]


class _Position:
    """What the bot reads from its view."""

    def __init__(self, view: JSON) -> None:
        #: the public part of the view (docs/views.md)
        self.view: JSON = view["public"]
        self.seat: int = view["seat"]
        self.me: JSON = view["private"]
        self.seats: list[JSON] = self.view["seats"]
        self.stones = _stones(self.seats[self.seat])
        self.score: int = self.seats[self.seat]["score"]
        self.bank_stones: list[int] = [self.view["bank"]["stones"][c] for c in COLOURS]

    def points_value(self, score: int, points: int) -> float:
        return WIN if score + points >= 3 else POINT * points

    def pay_value(self, stones: list[int], score: int, pay: pw.PayStones) -> float:
        if not pw.payments(stones, pay):
            return 0.0
        return self.points_value(score, pay.points) - STONE * pay.count * 0.5

    def step_value(self, step: pw.Step, stones: list[int], score: int, depth: int = 0) -> float:
        return VALUE.of(step)(self, step, stones, score, depth)

    def card_value(self, card_id: str, stones: list[int], score: int, depth: int = 0) -> float:
        card = CARDS.get(card_id)
        if card is None:
            return UNKNOWN_CARD
        return sum(self.step_value(s, stones, score, depth) for s in card.power)

    def threat(self, card_id: str) -> float:
        """How much an opponent would gain from this card: the best of them."""
        best = 0.0
        for s in self.seats:
            if s["seat"] != self.seat:
                best = max(best, self.card_value(card_id, _stones(s), s["score"]))
        return best


#: what each primitive is worth to the greedy bot: ``(position, step, stones, score, depth)``
VALUE: pw.Table[Callable[[_Position, Any, list[int], int, int], float]] = pw.Table("bots.VALUE")


@VALUE.on(pw.Gain)
def _gain(pos: _Position, step: pw.Gain, stones: list[int], score: int, depth: int) -> float:
    bank = pos.view["bank"]
    stone_gain = sum(min(n, b) for n, b in zip(step.stones, pos.bank_stones, strict=True))
    coins: float = (1.6 * min(step.fairy, bank["fairy"])
                    + min(step.common, bank["common"])
                    + 0.5 * min(step.silver, bank["silver"])
                    + 2.5 * min(step.amulet, bank["amulet"]))
    return coins + 1.0 * step.black + STONE * stone_gain


@VALUE.on(pw.Choice)
def _either(pos: _Position, step: pw.Choice, stones: list[int], score: int, depth: int
            ) -> float:
    return max(pos.pay_value(stones, score, step.pay),
               pos.step_value(step.alternative, stones, score))


@VALUE.on(pw.PayStones)
def _pay_stones(pos: _Position, step: pw.PayStones, stones: list[int], score: int, depth: int
                ) -> float:
    return pos.pay_value(stones, score, step)


@VALUE.on(pw.GainStoneChoice)
def _gain_stone_choice(pos: _Position, step: pw.GainStoneChoice, stones: list[int],
                       score: int, depth: int) -> float:
    return STONE * 1.2 * step.count if any(pos.bank_stones) else 0.0


@VALUE.on(pw.StealSecond)
def _steal_from_second(pos: _Position, step: pw.StealSecond, stones: list[int], score: int,
                       depth: int) -> float:
    return STONE * 1.3


@VALUE.on(pw.TakeAllFrom)
def _take_all_from(pos: _Position, step: pw.TakeAllFrom, stones: list[int], score: int,
                   depth: int) -> float:
    return 3.0


@VALUE.on(pw.KeepDoppelganger)
def _keep_doppelganger(pos: _Position, step: pw.KeepDoppelganger, stones: list[int],
                       score: int, depth: int) -> float:
    return 0.0 if pos.view["doppelganger_holder"] is not None else 3.0


@VALUE.on(pw.CopyAuctioned)
def _copy_auctioned(pos: _Position, step: pw.CopyAuctioned, stones: list[int], score: int,
                    depth: int) -> float:
    if depth:
        return 0.0
    seen = [c for c in pos.view["auctioned"] if c != "ghost"]
    return max((pos.card_value(c, stones, score, depth + 1) for c in seen), default=0)


@VALUE.on(pw.PlayUnauctioned)
def _play_unauctioned(pos: _Position, step: pw.PlayUnauctioned, stones: list[int],
                      score: int, depth: int) -> float:
    if depth or not pos.view["pile"]:
        return 0.0
    vals = [pos.card_value(c, stones, score, depth + 1) for c in pos.view["pile"]
            if c != pos.view["card"]]
    if not vals:
        return 0.0
    return max(vals) if step.choose else sum(vals) / len(vals)


@VALUE.on(pw.BuyStones)
def _buy_stones(pos: _Position, step: pw.BuyStones, stones: list[int], score: int,
                depth: int) -> float:
    return 1.5 if pos.me["silver"] >= 3 or pos.me["common"] else 0.3


@VALUE.on(pw.Necromancer)
def _necromancer(pos: _Position, step: pw.Necromancer, stones: list[int], score: int,
                 depth: int) -> float:
    return pos.points_value(score, step.points) * 0.8


@VALUE.on(pw.PayAllStones)
def _pay_all_stones(pos: _Position, step: pw.PayAllStones, stones: list[int], score: int,
                    depth: int) -> float:
    return pos.points_value(score, step.points) - STONE * 0.8 * sum(stones)


@VALUE.on(pw.PushYourLuck)
def _push_your_luck(pos: _Position, step: pw.PushYourLuck, stones: list[int], score: int,
                    depth: int) -> float:
    return 2.0 if sum(pos.bank_stones) > 3 else 0.5


@VALUE.on(pw.LoseColour)
def _lose_colour(pos: _Position, step: pw.LoseColour, stones: list[int], score: int,
                 depth: int) -> float:
    return 1.5


@VALUE.on(pw.BagDraw)
def _bag_draw(pos: _Position, step: pw.BagDraw, stones: list[int], score: int, depth: int
              ) -> float:
    return STONE * min(step.draws, sum(pos.bank_stones))


@VALUE.on(pw.DiscardDoppelganger)
def _discard_doppelganger(pos: _Position, step: pw.DiscardDoppelganger, stones: list[int],
                          score: int, depth: int) -> float:
    return 1.0  # engine-internal: never on a card


VALUE.check()


class GreedyFistBot:
    """Bids by the card's value to it and to its opponents; decides powers greedily."""

    #: it reads the position, not the event log (:class:`dragonlair.core.players.Bot`)
    reads_events = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        actions: list[FistAction] = [a for a in legal if isinstance(a, FistAction)]
        if len(actions) != len(legal):
            return legal[0]
        pos = _Position(view)
        kind = actions[0].kind
        if kind == Kind.BID:
            return self._bid(pos, actions)
        if kind == Kind.SILVER:
            return self._silver(pos, actions)
        return max(actions, key=lambda a: self._decision_value(pos, a))

    # ------------------------------------------------------------------ bidding
    def _bid(self, pos: _Position, legal: list[FistAction]) -> FistAction:
        card = pos.view["card"]
        mine = pos.card_value(card, pos.stones, pos.score)
        threat = pos.threat(card)
        fairy, common = pos.me["fairy"], pos.me["common"]
        # Fairy Gold comes back at the end of the turn: share it out over this card and the
        # cards still to come (the pile is public), in proportion to their worth to us.
        rest = sum(pos.card_value(c, pos.stones, pos.score) for c in pos.view["pile"])
        share = mine / (mine + 0.7 * rest) if mine > 0 else 0.0
        want = fairy * share * 1.3 + (0.2 * threat if threat >= POINT else 0.0)
        want *= self.rng.uniform(0.8, 1.2)
        whole = int(want)
        target = whole + (1 if self.rng.random() < want - whole else 0)  # no constant ties
        f = min(fairy, target)
        c = min(common, target - f) if mine >= POINT else 0  # Common Gold is gone for good
        black = 0
        if threat >= WIN and mine < WIN and any(a.black for a in legal):
            black = 1  # curse the card that would hand an opponent the game
        amulet = 1 if mine >= WIN and any(a.amulet for a in legal) else 0
        for a in legal:
            if (a.fairy, a.common, a.black, a.amulet) == (f, c, black, amulet):
                return a
        return legal[0]

    def _silver(self, pos: _Position, legal: list[FistAction]) -> FistAction:
        mine = pos.card_value(pos.view["card"], pos.stones, pos.score)
        silver = pos.me["silver"]
        want = min(silver, round(mine * 0.6 * self.rng.uniform(0.8, 1.2)))
        amulet = 1 if mine >= WIN and any(a.amulet for a in legal) else 0
        for a in legal:
            if (a.silver, a.amulet) == (want, amulet):
                return a
        return legal[0]

    # ------------------------------------------------------------------ decisions
    def _decision_value(self, pos: _Position, a: FistAction) -> float:
        v = pos.view
        stones = pos.stones
        k = a.kind
        if k == Kind.DOUBLE:
            return pos.card_value(v["card"], stones, pos.score) - 2.5
        if k in (Kind.SINGLE, Kind.DONE, Kind.DECLINE, Kind.STOP):
            return 0.0
        if k == Kind.PAY:
            # paying is only offered for points; keep the colours we have least of
            paid = a.stones
            left = [s - p for s, p in zip(stones, paid, strict=True)]
            return 10.0 + min(left) * 0.1 - max(left) * 0.01
        if k == Kind.TAKE:
            return 5.0 if pos.score < 2 else 1.0
        if k == Kind.COLOUR:
            assert a.colour is not None
            return self._colour_value(pos, a.colour)
        if k == Kind.STEAL:
            assert a.seat is not None
            victim = pos.seats[a.seat]
            return float(victim["score"]) * 2 + (1.0 / (1 + stones[a.colour])
                                                 if a.colour is not None else 0.5)
        if k == Kind.TARGET:
            assert a.seat is not None
            return float(pos.seats[a.seat]["score"]) + self.rng.random()
        if k == Kind.PICK:
            return pos.card_value(a.text.removeprefix("pick "), stones, pos.score, depth=1)
        if k == Kind.BUY:
            if sum(stones) >= 5:
                return -1.0
            assert a.colour is not None and a.currency is not None
            cost = (1.0, 1.6, 1.5)[a.currency]
            return STONE * 1.2 - cost + 1.0 / (1 + stones[a.colour]) * 0.3
        if k == Kind.ACCEPT:
            spent = self._my_last_fairy_bid(pos)
            return pos.points_value(pos.score, 1) - 1.2 * spent
        if k == Kind.DRAW:
            drawn: int = sum(v["drawn"].values())
            named = v["rainbow_colour"]
            bag = v["bank"]["stones"]
            total = sum(bag.values())
            bust = float(bag[named] / total) if total and named else 1.0
            return (1 - bust) * STONE - bust * STONE * drawn
        return 0.0

    def _colour_value(self, pos: _Position, colour: int) -> float:
        v = pos.view
        decision = v.get("decision")
        if decision == "colour_troll":
            theirs = sum(_stones(s)[colour] * (1 + s["score"]) for s in pos.seats
                         if s["seat"] != pos.seat)
            return float(theirs) - 2.0 * pos.stones[colour]
        if decision == "colour_rainbow":
            return -float(v["bank"]["stones"][COLOURS[colour]])
        return 1.0 / (1 + pos.stones[colour]) + 0.01 * float(v["bank"]["stones"][COLOURS[colour]])

    @staticmethod
    def _my_last_fairy_bid(pos: _Position) -> int:
        prefix = f"p{pos.seat}: bid f"
        for entry in reversed(pos.view["history"]):
            if entry.startswith(prefix):
                return int(entry[len(prefix):].split()[0])
        return 0



class HeuristicFistBot:
    """``heuristic``: rebuilds the position from the public record it has seen (a perfect
    memory, :mod:`memory`), values cards in points for every seat from their stones, score
    and coins, and bids to outbid the likeliest rival when the card is worth the Fairy Gold
    it costs; curses a card that would end the game for another, and uses the Amulet on
    cards worth a point (:mod:`heuristic`)."""

    #: it reads the position, not the event log (:class:`dragonlair.core.players.Bot`)
    reads_events = False

    def __init__(self, rng: random.Random) -> None:
        from dragonlair.games.fist.heuristic import FistHeuristic
        from dragonlair.games.fist.memory import FistMemory

        self.memory = FistMemory()
        self.policy = FistHeuristic(rng)

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        state = self.memory.update(view)
        action = self.policy.act(state, view["seat"])
        return action if action in legal else legal[0]


class ISMCTSFistBot:
    """``ismcts``: Information-Set MCTS over positions consistent with its view, decoupled
    UCT at sealed bids, heuristic rollouts (:mod:`search`). ``iterations`` sets the
    strength; ``seconds`` caps the time of one decision as well."""

    #: it reads the position, not the event log (:class:`dragonlair.core.players.Bot`)
    reads_events = False

    def __init__(self, rng: random.Random, iterations: int = 250,
                 seconds: float | None = None) -> None:
        from dragonlair.bots.ismcts import ISMCTS, Budget
        from dragonlair.games.fist.search import FistSearchModel

        self.model = FistSearchModel(rng)
        self.search = ISMCTS(self.model, rng, Budget(iterations, seconds))

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.search.search(view, view["seat"], legal).action
