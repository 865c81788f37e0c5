"""The Dragon Farkle engine (rules D1-D9).

Setup: each seat draws a companion (public) and a magic item (hidden), then the start player
is drawn. A turn: the player may use start-of-turn powers, then chooses Recruit, Skirmish or
the Final Battle. Every roll is one chance event (``dice 234445 blank``: the soldier dice in
hand and the event die). After a roll the roller sets dice aside (``keep 4445``), answers the
alliance (``double`` / ``item``), and rolls on or banks/stops; the Final Battle runs by itself
until the dragon falls, a farkle, or the army is gone.
"""

from __future__ import annotations

import copy
import random
import weakref
from collections.abc import Sequence
from enum import IntEnum
from functools import cache
from math import factorial
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import IllegalActionError, shown
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
from dragonlair.games.farkle.actions import (
    ALLIANCE,
    BLANK,
    DICE_CODE,
    DICE_SETS,
    DRAGON,
    EVENTS,
    FarkleAction,
    Kind,
)
from dragonlair.games.farkle.cards import FarkleCard
from dragonlair.games.farkle.events import events_since
from dragonlair.games.farkle.scoring import Counts, dice_text

if TYPE_CHECKING:
    from dragonlair.games.farkle.game import FarkleGame

BATTLE_ARMY = 5000  # D3: soldiers needed to start a Final Battle
SKIRMISH_BONUS = 500  # D5.3
SUPPLY = 10**9  # the supply is unlimited (D1); counted so that soldiers are conserved


class Phase(IntEnum):
    SETUP = 0  # chance: companions, items, start player
    COMPANION = 1  # chance: a new companion for a player wiped out in the Lair (D7)
    CHOOSE = 2  # the player's action (and start-of-turn powers)
    ROLL = 3  # chance: a roll
    DIE = 4  # chance: one die rerolled (companion)
    DRAW = 5  # chance: a magic item drawn
    DECIDE = 6
    OVER = 7


class Mode(IntEnum):
    NONE = 0
    RECRUIT = 1
    SKIRMISH = 2
    BATTLE = 3


class Dec(IntEnum):
    TABBY = 0  # ignore the dragon on this roll?
    HICCUP = 1  # the attacker may reroll one die of this roll
    KEEP = 2  # which dice to set aside
    ALLIANCE = 3  # double or item
    CONTINUE = 4  # roll again or bank / stop
    FARKLE = 5  # accept the farkle (or use an item against it)
    KEEP_ITEM = 6  # Skirmish winner keeps one gained item
    DISCARD = 7  # end of turn: over the item limit


# Enum members as module globals, for the hot paths: a global is read several times
# faster than a member (an enum class's attributes miss the interpreter's fast path).
_P_CHOOSE = Phase.CHOOSE
_P_COMPANION = Phase.COMPANION
_P_DECIDE = Phase.DECIDE
_P_DIE = Phase.DIE
_P_DRAW = Phase.DRAW
_P_OVER = Phase.OVER
_P_ROLL = Phase.ROLL
_P_SETUP = Phase.SETUP
_M_BATTLE = Mode.BATTLE
_M_NONE = Mode.NONE
_M_RECRUIT = Mode.RECRUIT
_M_SKIRMISH = Mode.SKIRMISH
_D_ALLIANCE = Dec.ALLIANCE
_D_CONTINUE = Dec.CONTINUE
_D_DISCARD = Dec.DISCARD
_D_FARKLE = Dec.FARKLE
_D_HICCUP = Dec.HICCUP
_D_KEEP = Dec.KEEP
_D_KEEP_ITEM = Dec.KEEP_ITEM
_D_TABBY = Dec.TABBY
_K_BANK = Kind.BANK
_K_BATTLE = Kind.BATTLE
_K_DICE = Kind.DICE
_K_DIE = Kind.DIE
_K_DOUBLE = Kind.DOUBLE
_K_DRAW_COMPANION = Kind.DRAW_COMPANION
_K_DRAW_ITEM = Kind.DRAW_ITEM
_K_KEEP = Kind.KEEP
_K_RECRUIT = Kind.RECRUIT
_K_REROLL = Kind.REROLL
_K_ROLL = Kind.ROLL
_K_SCARE = Kind.SCARE
_K_SKIRMISH = Kind.SKIRMISH
_K_TABBY = Kind.TABBY
_K_USE = Kind.USE


#: a roll's dice code (DICE_SETS) by ``sum(7 ** face for each die)`` (faces 0-5)
_ROLL_CODE = {sum(n * 7**f for f, n in enumerate(c)): code for code, c in enumerate(DICE_SETS)}
_POW7 = (1, 7, 49, 343, 2401, 16807)
#: the event of the event die's face (0-5): one dragon, one alliance, four blanks (D4)
_EVENT_OF = (DRAGON, ALLIANCE, BLANK, BLANK, BLANK, BLANK)
#: the number of dice of each dice code
_DICE_COUNT = tuple(sum(c) for c in DICE_SETS)


def _fast_randbelow_matches() -> bool:
    """Whether ``getrandbits(3)`` drawn until below 6 is exactly ``random.Random.randrange(6)``
    on this Python (CPython's randrange draws so): the same numbers from the same stream."""
    a, b = random.Random(12345), random.Random(12345)
    for _ in range(200):
        r = b.getrandbits(3)
        while r >= 6:
            r = b.getrandbits(3)
        if a.randrange(6) != r:
            return False
    return a.random() == b.random()


_FAST_DICE = _fast_randbelow_matches()


#: a roll's keep actions (index order), their values by dice code, its scoring dice and value
_RollInfo = tuple[tuple[FarkleAction, ...], dict[int, int], tuple[Counts, int]]


@cache
def roll_outcomes(k: int) -> tuple[tuple[int, int, float], ...]:
    """All rolls of k soldier dice and the event die: (dice code, event, probability)."""
    out = []
    for code, counts in enumerate(DICE_SETS):
        if sum(counts) != k:
            continue
        ways = factorial(k)
        for n in counts:
            ways //= factorial(n)
        p = ways / 6**k
        out.append((code, DRAGON, p / 6))
        out.append((code, ALLIANCE, p / 6))
        out.append((code, BLANK, p * 4 / 6))
    return tuple(out)


class FarkleState(State):
    """A Dragon Farkle position."""

    def __init__(self, game: FarkleGame) -> None:
        self.game = game
        self.space = game.space
        self.scorer = game.scorer
        n = game.num_players
        self.num_players = n
        self.armies = [0] * n
        self.supply = SUPPLY
        self.companions = [-1] * n
        self.items: list[list[int]] = [[] for _ in range(n)]  # held, hidden (D9)
        self.gained: list[list[int]] = [[] for _ in range(n)]  # set aside this turn (D4.4)
        self.in_lair = [False] * n
        self.needs_companion = [False] * n
        self.item_deck = [c.count for c in game.items]
        self.item_discard = [0] * len(game.items)
        self.companion_deck = [c.count for c in game.companions]
        self.companion_discard = [0] * len(game.companions)
        self.turn = 0
        self.player = 0
        self.mode = Mode.NONE
        self.start_army = 0
        self.used: set[str] = set()  # once-per-turn powers used ("tabby", "skree", ...)
        # the roll
        self.roller = 0
        self.full_dice = 6
        self.hand_dice = 6
        self.roll: Counts = (0, 0, 0, 0, 0, 0)
        self.event = BLANK
        self.pending = 0
        self.last_value = 0
        self.asked: set[str] = set()  # powers already offered on this roll
        # skirmish
        self.attacker = -1
        self.defender = -1
        self.attack_value = 0
        # battle
        self.damage = 0
        self.battle_bonus_used: set[str] = set()
        # decisions
        self.phase = Phase.SETUP
        self.to_move: tuple[int, ...] = (CHANCE,)
        self.dec: Dec | None = None
        self.dec_legal: tuple[FarkleAction, ...] = ()
        self.draw_for = -1
        self.after_draw = ""
        self.setup_step = 0
        self._history: list[tuple[int, FarkleAction]] = []
        self._log_list: list[str] = []  # _history as record entries, written on demand
        keeps = _KEEPS.get(game)
        if keeps is None:
            keeps = _KEEPS[game] = {}
        self._keeps = keeps  # by roll: _keep_choices (shared by the game's states)
        self.hidden_for: dict[int, int] = {}  # history index -> the only seat that sees it
        self.winners: tuple[int, ...] = ()
        self.end_reason = ""
        self.end_params: dict[str, Any] = {}
        self._vscan: _Scan | None = None  # the views' reading of the record (_scan)

    # ------------------------------------------------------------------ events
    def _e(self, code: str, to: int | None, *values: Any) -> None:
        """Append an event, compactly (:mod:`dragonlair.games.farkle.events`)."""
        self._ev = ((code, to, *values), self._ev)  # type: ignore[assignment]
        self._nev += 1

    def all_events(self) -> list[Event]:
        return events_since(self._ev, self._nev)

    def events_for(self, seat: int | None, since: int = 0) -> list[tuple[int, Event]]:
        events = events_since(self._ev, self._nev, since)
        start = self._nev - len(events)
        return [(start + i, e) for i, e in enumerate(events) if e.to is None or e.to == seat]

    # ------------------------------------------------------------------ contract
    def current_seats(self) -> tuple[int, ...]:
        return self.to_move

    @property
    def history(self) -> Sequence[tuple[int, FarkleAction]]:
        return self._history

    @property
    def _log(self) -> list[str]:
        """The history as record entries (``p0: keep 4445``, ``chance: dice 123456 blank``);
        entries may be rewritten in place (the D9 tests do, in clones)."""
        return entries_up_to(self._log_list, self._history)

    def turn_count(self) -> int:
        return self.turn

    def legal_actions(self, seat: int) -> Sequence[FarkleAction]:
        if seat == CHANCE or seat not in self.to_move or type(seat) is not int:
            check_seat_range(seat, self.num_players, chance=True)  # SeatError if no seat
            return ()
        return self.dec_legal

    def chance_outcomes(self) -> list[tuple[FarkleAction, float]]:
        sp = self.space
        ph = self.phase
        if ph == _P_ROLL:
            return [(sp.dice[code][ev], p) for code, ev, p in roll_outcomes(self.hand_dice)]
        if ph == _P_DIE:
            return [(sp.die[f], 1 / 6) for f in range(6)]
        if ph == _P_DRAW:
            deck = self._item_pile()
            total = sum(deck)
            return [(sp.draw_item[i], n / total) for i, n in enumerate(deck) if n]
        if ph == _P_COMPANION or (ph == _P_SETUP and self.setup_step < self.num_players):
            deck = self._companion_pile()
            total = sum(deck)
            return [(sp.draw_companion[i], n / total) for i, n in enumerate(deck) if n]
        if ph == _P_SETUP and self.setup_step < 2 * self.num_players:
            deck = self._item_pile()
            total = sum(deck)
            return [(sp.draw_item[i], n / total) for i, n in enumerate(deck) if n]
        if ph == _P_SETUP:
            return [(sp.start[s], 1 / self.num_players) for s in range(self.num_players)]
        return []

    def sample_chance(self, rng: random.Random) -> FarkleAction:
        if self.phase == _P_ROLL:  # same distribution, without listing 1,386 outcomes
            key = 0
            if _FAST_DICE and type(rng) is random.Random:
                # rng.randrange(6), inlined: the same draws from the same stream
                bits = rng.getrandbits
                for _ in range(self.hand_dice):
                    r = bits(3)
                    while r >= 6:
                        r = bits(3)
                    key += _POW7[r]
                e = bits(3)
                while e >= 6:
                    e = bits(3)
            else:
                for _ in range(self.hand_dice):
                    key += _POW7[rng.randrange(6)]
                e = rng.randrange(6)
            return self.space.dice[_ROLL_CODE[key]][_EVENT_OF[e]]
        action = super().sample_chance(rng)
        assert isinstance(action, FarkleAction)
        return action

    def apply(self, seat: int, action: FarkleAction) -> None:  # type: ignore[override]
        if seat not in self.to_move or type(seat) is not int:
            self.check_seat(seat)
        if seat == CHANCE:
            if self.phase == _P_ROLL:
                possible = action.kind == _K_DICE and _DICE_COUNT[action.a] == self.hand_dice
            else:
                possible = any(a is action for a, _ in self.chance_outcomes())
            if not possible:
                raise IllegalActionError("farkle.chance.impossible", rule="D3",
                                         action=action.text)
        else:
            for a in self.dec_legal:  # the interned action itself, before comparing values
                if a is action:
                    break
            else:
                if action not in self.dec_legal:
                    raise self._illegal(seat, action)
        index = len(self._history)
        self._history.append((seat, action))
        if seat == CHANCE:
            self._on_chance(action, index)
        else:
            self._on_decision(seat, action)

    def refusal(self, seat: int, action: FarkleAction) -> IllegalActionError | None:
        """Why ``seat`` may not take ``action`` now (the error :meth:`apply` would raise), or
        ``None`` if it may: an interface words a refusal from this, never from its own
        reading of the rules."""
        try:
            self.clone().apply(seat, action)
        except IllegalActionError as exc:
            return exc
        return None

    def _illegal(self, seat: int, action: FarkleAction) -> IllegalActionError:
        options = [a.text for a in self.dec_legal]
        rule = {_D_KEEP: "D4.1", _D_ALLIANCE: "D4.4", _D_CONTINUE: "D4.1", _D_FARKLE: "D4.2",
                _D_KEEP_ITEM: "D5.3", _D_DISCARD: "D8.3", _D_TABBY: "D8.4",
                _D_HICCUP: "D8.4"}.get(self.dec, "D3") if self.dec is not None else "D3"
        if action.kind == _K_KEEP and self.dec == _D_KEEP:
            kept = DICE_SETS[action.a]
            if any(k > r for k, r in zip(kept, self.roll, strict=True)):
                return IllegalActionError("farkle.keep.not_rolled", rule="D2", seat=seat,
                                          dice=dice_text(kept), roll=dice_text(self.roll))
            scoring = self.scorer.scoring_dice(kept)[0]
            rest = tuple(k - s for k, s in zip(kept, scoring, strict=True))
            return IllegalActionError("farkle.keep.not_scoring", rule="D2", seat=seat,
                                      dice=dice_text(kept), roll=dice_text(self.roll),
                                      rest=dice_text(rest),
                                      n=sum(rest), legal=options)
        if action.kind == _K_BATTLE and self.phase == _P_CHOOSE:
            return IllegalActionError("farkle.battle.not_allowed", rule="D3", seat=seat,
                                      army=BATTLE_ARMY)
        if action.kind == _K_SKIRMISH and self.phase == _P_CHOOSE:
            target = action.a
            code = ("farkle.skirmish.target_self" if target == seat
                    else "farkle.skirmish.target_no_seat" if target >= self.num_players
                    else "farkle.skirmish.target_in_lair")
            return IllegalActionError(code, rule="D5.1", seat=seat, target=target)
        return IllegalActionError("farkle.action.not_now", rule=rule, seat=seat,
                                  action=action.text, legal=options)

    def outcome(self) -> Outcome | None:
        if self.phase != _P_OVER:
            return None
        scores = tuple(float(a) for a in self.armies)
        return Outcome(self.winners, placings_from_scores(scores, self.winners),
                       self.end_reason, scores, self.end_params)

    def clone(self) -> FarkleState:
        s = copy.copy(self)
        s.armies = self.armies[:]
        s.companions = self.companions[:]
        s.items = [i[:] for i in self.items]
        s.gained = [g[:] for g in self.gained]
        s.in_lair = self.in_lair[:]
        s.needs_companion = self.needs_companion[:]
        s.item_deck = self.item_deck[:]
        s.item_discard = self.item_discard[:]
        s.companion_deck = self.companion_deck[:]
        s.companion_discard = self.companion_discard[:]
        s.used = set(self.used)
        s.asked = set(self.asked)
        s.battle_bonus_used = set(self.battle_bonus_used)
        s._history = self._history[:]
        s._log_list = self._log_list[:]
        s.hidden_for = dict(self.hidden_for)
        return s

    # ------------------------------------------------------------------ helpers
    def _card(self, seat: int) -> FarkleCard | None:
        k = self.companions[seat]
        return self.game.companions[k] if k >= 0 else None

    def _has(self, seat: int, effect: str) -> bool:
        c = self._card(seat)
        return c is not None and c.effect == effect

    def _item_pile(self) -> list[int]:
        if not any(self.item_deck) and any(self.item_discard):
            return self.item_discard  # D8.2: an empty pile is the shuffled discards
        return self.item_deck

    def _companion_pile(self) -> list[int]:
        if not any(self.companion_deck) and any(self.companion_discard):
            return self.companion_discard
        return self.companion_deck

    def _take_from(self, pile_kind: str, k: int) -> None:
        if pile_kind == "item":
            if not any(self.item_deck):
                self.item_deck, self.item_discard = self.item_discard, [0] * len(self.item_deck)
            self.item_deck[k] -= 1
        else:
            if not any(self.companion_deck):
                self.companion_deck, self.companion_discard = (
                    self.companion_discard, [0] * len(self.companion_deck))
            self.companion_deck[k] -= 1

    def _move(self, seat: int, delta: int) -> int:
        """Soldiers between an army and the supply; an army never goes below 0."""
        if delta < 0:
            delta = -min(-delta, self.armies[seat])
        self.armies[seat] += delta
        self.supply -= delta
        return delta

    def _ask(self, seat: int, dec: Dec | None, legal: Sequence[FarkleAction],
             phase: Phase = _P_DECIDE) -> None:
        """Wait for ``seat`` to choose among ``legal`` (the action choice has no ``dec``)."""
        self.phase = phase
        self.dec = dec
        self.dec_legal = tuple(sorted(legal, key=_index))
        self.to_move = (seat,)

    def _ask_sorted(self, seat: int, dec: Dec, legal: tuple[FarkleAction, ...]) -> None:
        """:meth:`_ask` for a decision whose ``legal`` is already in index order."""
        self.phase = _P_DECIDE
        self.dec = dec
        self.dec_legal = legal
        self.to_move = (seat,)

    def _keep_choices(self, roll: Counts) -> _RollInfo:
        """The keep actions of a roll, in index order (none: a farkle), each one's value by
        its dice code, and the roll's scoring dice (``Scorer.scoring_dice``); cached per
        game."""
        got = self._keeps.get(roll)
        if got is None:
            keep = self.space.keep
            sels = self.scorer.selections(roll)
            got = (tuple(sorted((keep[DICE_CODE[c]] for c, _ in sels), key=_index)),
                   {DICE_CODE[c]: v for c, v in sels}, self.scorer.scoring_dice(roll))
            self._keeps[roll] = got
        return got

    def _chance(self, phase: Phase) -> None:
        self.phase = phase
        self.dec = None
        self.dec_legal = ()
        self.to_move = (CHANCE,)

    def item_limit(self, seat: int) -> int:
        """D8.3: one item; a Plunder Sack held lets its holder keep that many others too."""
        items = self.game.items
        extra: int | None = None  # the largest Plunder Sack held
        for i in self.items[seat]:
            card = items[i]
            if card.effect == "keep_extra" and (extra is None or card.amount > extra):
                extra = card.amount
        return 1 if extra is None or extra < 0 else 1 + extra

    def _usable(self, seat: int, window: str) -> list[FarkleAction]:
        items = self.game.items
        seen: set[int] = set()
        out = []
        for i in self.items[seat]:
            if i not in seen and items[i].window == window:
                seen.add(i)
                out.append(self.space.use[i])
        return out

    def _use_item(self, seat: int, i: int) -> None:
        self.items[seat].remove(i)
        self.item_discard[i] += 1

    # ------------------------------------------------------------------ chance
    def _on_chance(self, action: FarkleAction, index: int) -> None:
        k = action.kind
        if k == _K_DICE:  # a roll (the most frequent event; never one in the setup)
            self.roll = DICE_SETS[action.a]
            self.event = action.b
            self._ev = (("farkle.roll.rolled", None, self.roller, action.a, action.b),
                        self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
            self._nev += 1
            self.asked = set()
            self._resolve_roll()
        elif self.phase == _P_SETUP:
            n = self.num_players
            if self.setup_step < n:
                self._take_from("companion", action.a)
                self.companions[self.setup_step] = action.a
                self._e("farkle.setup.companion", None, self.setup_step,
                        self.game.companions[action.a].id)
            elif self.setup_step < 2 * n:
                seat = self.setup_step - n
                self._take_from("item", action.a)
                self.items[seat].append(action.a)
                self.hidden_for[index] = seat
                self._e("farkle.setup.item", None, seat)
                self._e("farkle.setup.item_own", seat, seat, self.game.items[action.a].id)
            else:
                self.turn = 1
                self._e("farkle.setup.start", None, action.a)
                self._start_turn(action.a)
                return
            self.setup_step += 1
            self._chance(_P_SETUP)
        elif k == _K_DRAW_COMPANION:
            self._take_from("companion", action.a)
            self.companions[self.player] = action.a
            self.needs_companion[self.player] = False
            self._e("farkle.companion.new", None, self.player, self.game.companions[action.a].id)
            self._choose()
        elif k == _K_DRAW_ITEM:
            self._take_from("item", action.a)
            self.gained[self.draw_for].append(action.a)
            self.hidden_for[index] = self.draw_for
            self._e("farkle.item.drawn", None, self.draw_for)
            self._e("farkle.item.drawn_own", self.draw_for, self.draw_for,
                    self.game.items[action.a].id)
            then, self.after_draw = self.after_draw, ""
            if then == "end":
                self._end_turn()
            else:
                self._continue()
        elif k == _K_DIE:
            self._e("farkle.roll.die", None, self.roller, action.a)
            c = list(self.roll)
            c[action.a - 1] += 1
            self.roll = (c[0], c[1], c[2], c[3], c[4], c[5])
            self._resolve_roll()

    # ------------------------------------------------------------------ turns (D3)
    def _start_turn(self, seat: int) -> None:
        self.player = seat
        self.mode = _M_NONE
        self.used = set()
        self.damage = 0
        self.start_army = self.armies[seat]
        self._ev = (("farkle.turn.start", None, self.turn, seat, self.start_army),
                    self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
        self._nev += 1
        if self.needs_companion[seat]:  # D7: a new companion at the start of the turn
            self._chance(_P_COMPANION)
            return
        self._choose()

    def _choose(self) -> None:
        seat = self.player
        sp = self.space
        legal = [sp.recruit]
        legal += [sp.skirmish[s] for s in range(self.num_players)
                  if s != seat and not self.in_lair[s]]
        if self.start_army >= BATTLE_ARMY or self.in_lair[seat]:
            legal.append(sp.battle)
        if self._has(seat, "scare") and "scare" not in self.used:
            legal += [sp.scare[s] for s in range(self.num_players) if s != seat]
        legal += self._usable(seat, "start")
        self._ask(seat, None, legal, _P_CHOOSE)

    def _on_decision(self, seat: int, action: FarkleAction) -> None:
        k = action.kind
        sp = self.space
        if self.phase == _P_CHOOSE:
            if k == _K_SCARE:
                self.used.add("scare")
                card = self._card(seat)
                assert card is not None
                lost = -self._move(action.a, -card.amount)
                self._e("farkle.power.scare", None, seat, card.id, action.a, lost)
                if self.in_lair[action.a] and self.armies[action.a] == 0:
                    self._wipe_out(action.a)  # D7: an army reduced to 0 in the Lair
                self._choose()
            elif k == _K_USE:
                card = self.game.items[action.a]
                self._use_item(seat, action.a)
                self._e("farkle.item.used", None, seat, card.id)
                gain = self._move(seat, card.amount)
                self._e("farkle.item.gain", None, seat, gain, self.armies[seat])
                self._choose()
            elif k == _K_RECRUIT:
                self.in_lair[seat] = False  # D7
                self._ev = (("farkle.choose.recruit", None, seat),
                            self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
                self._nev += 1
                self._begin(_M_RECRUIT, seat, 6)
            elif k == _K_SKIRMISH:
                self.in_lair[seat] = False
                self.attacker, self.defender = seat, action.a
                self.attack_value = 0
                self._ev = (("farkle.choose.skirmish", None, seat, action.a),
                            self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
                self._nev += 1
                self._begin(_M_SKIRMISH, seat, 6)
            else:
                self.in_lair[seat] = True  # D7: whoever fights is in the Lair
                self.damage = 0
                self.battle_bonus_used = set()
                self._e("farkle.choose.battle", None, seat, self.game.dragon)
                self._begin(_M_BATTLE, seat, 6)
            return
        dec = self.dec
        # the decisions exclude each other: the most frequent first
        if dec == _D_KEEP:
            value = self._keep_choices(self.roll)[1][action.a]
            self.hand_dice -= _DICE_COUNT[action.a]
            self.last_value = value
            code = ("farkle.keep.soldiers" if self.mode != _M_SKIRMISH else
                    "farkle.keep.defence" if seat == self.defender else "farkle.keep.attack")
            self._ev = ((code, None, seat, action.a, value),
                        self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
            self._nev += 1
            if self.event == ALLIANCE:
                self._ask(self.roller, _D_ALLIANCE, (sp.double, sp.item))
                return
            self.pending += value
            self._continue()
        elif dec == _D_CONTINUE:
            if k == _K_USE:
                card = self.game.items[action.a]
                self._use_item(seat, action.a)
                self._e("farkle.item.used", None, seat, card.id)
                if card.effect == "pending_bonus":
                    self.pending += card.amount
                else:  # hot_dice
                    self.hand_dice = 0
                self._continue()
            elif k == _K_ROLL:
                if self.hand_dice == 0:
                    self.hand_dice = self.full_dice  # hot dice
                    self._e("farkle.roll.hot", None, seat, self.full_dice)
                self._chance(_P_ROLL)
            elif k == _K_BANK:
                self._bank()
            else:
                self._ev = (("farkle.skirmish.stop", None, seat, self.pending),
                            self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
                self._nev += 1
                self._finish_side(self.pending)
        elif dec == _D_ALLIANCE:
            if k == _K_DOUBLE:
                self.pending += 2 * self.last_value
                self._e("farkle.alliance.double", None, seat, 2 * self.last_value,
                        self.pending)
                self._continue()
            else:
                self.pending += self.last_value
                self._e("farkle.alliance.item", None, seat)
                self.draw_for = self.roller
                self._draw_item("continue")
        elif dec == _D_FARKLE:
            if k == _K_USE:
                self._use_item(seat, action.a)
                self._e("farkle.item.ignore_farkle", None, seat, self.game.items[action.a].id)
                self.roll = (0, 0, 0, 0, 0, 0)
                self._chance(_P_ROLL)  # the same dice again
            else:
                self._farkle()
        elif dec == _D_TABBY:
            self.asked.add("tabby")
            if k == _K_TABBY:
                self.used.add("tabby")
                self.event = BLANK
                self._e("farkle.power.tabby", None, seat)
            else:
                self._e("farkle.power.pass", None, seat)
            self._resolve_roll()
        elif dec == _D_HICCUP:
            self.asked.add("hiccup")
            if k == _K_REROLL:
                self.used.add("hiccup")
                self._e("farkle.power.reroll", None, seat, action.a)
                c = list(self.roll)
                c[action.a - 1] -= 1
                self.roll = (c[0], c[1], c[2], c[3], c[4], c[5])
                self._chance(_P_DIE)
                return
            self._e("farkle.power.pass", None, seat)
            self._resolve_roll()
        elif dec == _D_KEEP_ITEM:
            keep = action.a
            self._e("farkle.item.kept", None, seat)
            self._e("farkle.item.kept_own", seat, seat, self.game.items[keep].id)
            self.gained[seat].remove(keep)  # one copy kept; any other (alike too) discarded
            for i in self.gained[seat]:
                self.item_discard[i] += 1
            self.gained[seat] = [keep]
            self._end_turn()
        elif dec == _D_DISCARD:
            self._e("farkle.item.discarded", None, seat)
            self._e("farkle.item.discarded_own", seat, seat, self.game.items[action.a].id)
            self.items[seat].remove(action.a)
            self.item_discard[action.a] += 1
            self._check_limits()

    def _begin(self, mode: Mode, roller: int, dice: int) -> None:
        self.mode = mode
        self.roller = roller
        self.full_dice = dice
        self.hand_dice = dice
        self.pending = 0
        self._chance(_P_ROLL)

    def _draw_item(self, then: str) -> None:
        if not any(self.item_deck) and not any(self.item_discard):
            self._e("farkle.item.none_left", None)
            if then == "end":
                self._end_turn()
            else:
                self._continue()
            return
        self.after_draw = then
        self._chance(_P_DRAW)

    # ------------------------------------------------------------------ rolls (D4, D5)
    def _resolve_roll(self) -> None:
        if self.mode == _M_BATTLE:
            self._battle_roll()
            return
        seat = self.roller
        sp = self.space
        if (self.event == DRAGON and self.mode == _M_RECRUIT and "tabby" not in self.used
                and "tabby" not in self.asked and self._has(seat, "ignore_dragon")):
            self._ask(seat, _D_TABBY, (sp.tabby, sp.pass_))
            return
        if (self.mode == _M_SKIRMISH and "hiccup" not in self.used
                and "hiccup" not in self.asked and self._has(self.attacker, "reroll_one")):
            faces = [sp.reroll[f] for f in range(6) if self.roll[f]]
            self._ask(self.attacker, _D_HICCUP, [*faces, sp.pass_])
            return
        keeps = self._keep_choices(self.roll)[0]
        if not keeps:
            if self.event == DRAGON:  # D4.3: the farkle is ignored
                self._e("farkle.roll.escape", None, seat)
                self._continue()
                return
            # D8.4: a farkle item works during its owner's turn (not for a defender)
            usable = self._usable(seat, "farkle") if seat == self.player else []
            self._ask(seat, _D_FARKLE, [sp.farkle, *usable])
            return
        if self.event == DRAGON:  # D4.3: the dragon eats every scoring die
            eaten, value = self._keep_choices(self.roll)[2]
            self.hand_dice -= sum(eaten)
            self._e("farkle.roll.eaten", None, seat, eaten, value)
            self._continue()
            return
        self._ask_sorted(seat, _D_KEEP, keeps)

    def _continue(self) -> None:
        sp = self.space
        end = sp.bank if self.mode == _M_RECRUIT else sp.stop
        usable = self._usable(self.roller, "decide")
        if usable:
            self._ask(self.roller, _D_CONTINUE, [sp.roll, end, *usable])
        else:
            roll = sp.roll
            self._ask_sorted(self.roller, _D_CONTINUE,
                             (roll, end) if roll.index < end.index else (end, roll))

    def _farkle(self) -> None:
        seat = self.roller
        if self.mode == _M_RECRUIT:  # D4.2
            kept = 0
            if self._has(seat, "farkle_keep_half"):
                kept = self.pending // 2 // 50 * 50
                self._move(seat, kept)
            self._ev = (("farkle.recruit.farkle", None, seat, self.pending - kept, kept),
                        self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
            self._nev += 1
            for i in self.gained[seat]:
                self.item_discard[i] += 1
            self.gained[seat] = []
            self.pending = 0
            self._end_turn()
        elif self.mode == _M_SKIRMISH:
            self._e("farkle.skirmish.farkle", None, seat)
            self._finish_side(0)  # D5.1: a farkle makes the value 0
        else:
            self._e("farkle.battle.farkle", None, seat)
            self._end_turn()

    def _bank(self) -> None:
        seat = self.roller
        amount = self.pending
        card = self._card(seat)
        bonus = 0
        if amount and card is not None and card.effect == "bank_bonus":
            bonus = card.amount
            amount += bonus
        self._move(seat, amount)
        self._ev = (("farkle.recruit.bank", None, seat, amount, self.armies[seat]),
                    self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
        self._nev += 1
        if bonus and card is not None:
            self._e("farkle.recruit.bank_bonus", None, seat, card.id, bonus)
        if card is not None and card.effect == "treasure" and self.pending >= card.amount:
            self.draw_for = seat
            self._draw_item("end")
            return
        self._end_turn()

    def _finish_side(self, value: int) -> None:
        """The attacker's or the defender's rolling is over (D5)."""
        if self.roller == self.attacker:
            if value and self._has(self.attacker, "attack_bonus"):
                value += self._card(self.attacker).amount  # type: ignore[union-attr]
            self.attack_value = value
            self._ev = (("farkle.skirmish.defends", None, self.defender, value),
                        self._ev)  # type: ignore[assignment]  # inlined _e (a hot path)
            self._nev += 1
            self._begin(_M_SKIRMISH, self.defender, 5)  # D5.2
            return
        defence = value
        if defence and self._has(self.defender, "defence_bonus"):
            defence += self._card(self.defender).amount  # type: ignore[union-attr]
        a, d = self.attacker, self.defender
        attack = self.attack_value
        self._e("farkle.skirmish.values", None, a, attack, d, defence)
        if attack == defence:
            self._e("farkle.skirmish.tie", None)  # D5.3: nothing moves, gained items are discarded
            for s in (a, d):
                for i in self.gained[s]:
                    self.item_discard[i] += 1
                self.gained[s] = []
            self._end_turn()
            return
        winner, loser = (a, d) if attack > defence else (d, a)
        taken = -self._move(loser, -abs(attack - defence))  # all of it if the loser has less
        self._move(winner, taken + SKIRMISH_BONUS)
        self._e("farkle.skirmish.won", None, winner, loser, taken, SKIRMISH_BONUS)
        for i in self.gained[loser]:
            self.item_discard[i] += 1
        self.gained[loser] = []
        mine = self.gained[winner]
        if len(mine) > 1:  # asked even for two alike, so nobody learns they were (D9)
            self._ask(winner, _D_KEEP_ITEM, [self.space.keep_item[i] for i in set(mine)])
            return
        for i in mine[1:]:
            self.item_discard[i] += 1
        self.gained[winner] = mine[:1]
        self._end_turn()

    # ------------------------------------------------------------------ the Final Battle (D6)
    def _battle_roll(self) -> None:
        seat = self.roller
        items = self.game.items
        scoring, loss = self._keep_choices(self.roll)[2]
        damage = 2 if self.event == ALLIANCE else 1 if self.event == DRAGON else 0
        if not damage and not any(scoring):
            self._ask(seat, _D_FARKLE, [self.space.farkle, *self._usable(seat, "farkle")])
            return
        if damage:
            card = self._card(seat)
            if card is not None and card.effect == "battle_damage" \
                    and "companion" not in self.battle_bonus_used:
                self.battle_bonus_used.add("companion")
                damage += card.amount
            arrow = next((i for i in self.items[seat] if items[i].effect == "battle_damage"),
                         None)
            if arrow is not None and "arrow" not in self.battle_bonus_used:
                self.battle_bonus_used.add("arrow")
                self._use_item(seat, arrow)
                damage += items[arrow].amount
                self._e("farkle.battle.arrow", None, seat, items[arrow].id)
            self.damage += damage
            self._e("farkle.battle.damage", None, seat, damage, self.damage)
            if self.damage >= self.game.dragon:  # D6.4
                self._game_over((seat,), "farkle.end.dragon_slain", seat=seat)
                return
        if any(scoring):
            shield = next((i for i in self.items[seat] if items[i].effect == "battle_shield"),
                          None)
            if shield is not None and "shield" not in self.battle_bonus_used:
                self.battle_bonus_used.add("shield")
                self._use_item(seat, shield)
                self._e("farkle.battle.shield", None, seat, items[shield].id, loss)
                loss = 0
            if self._has(seat, "battle_loss_half"):
                loss = loss // 2 // 50 * 50
            lost = -self._move(seat, -loss)
            if lost:
                self._e("farkle.battle.loses", None, seat, lost)
            self.hand_dice -= sum(scoring)
            if self.hand_dice == 0:
                self.hand_dice = 6  # hot dice (D6.3)
            if self.armies[seat] == 0:  # D7: wiped out in the Lair
                self._wipe_out(seat)
                self._e("farkle.battle.heals", None)
                self._end_turn()
                return
        self._chance(_P_ROLL)

    def _wipe_out(self, seat: int) -> None:
        """D7: an army reduced to 0 in the Lair leaves it; the companion is discarded and a
        new one drawn at the start of the player's next turn; items are kept."""
        self.in_lair[seat] = False
        k = self.companions[seat]
        self.companion_discard[k] += 1
        self.companions[seat] = -1
        self.needs_companion[seat] = True
        self._e("farkle.lair.army_gone", None, seat)

    # ------------------------------------------------------------------ end of turn
    def _end_turn(self) -> None:
        self.mode = _M_NONE
        self.damage = 0  # D6.4: the dragon heals
        self.pending = 0  # banked or lost: nothing is pending between turns
        for s in range(self.num_players):
            self.items[s] += self.gained[s]
            self.gained[s] = []
        self._check_limits()

    def _check_limits(self) -> None:
        """D8.3: each player keeps at most their limit of items, choosing which."""
        for s in range(self.num_players):
            held = len(self.items[s])
            if held > 1 and held > self.item_limit(s):  # the limit is at least 1
                self._ask(s, _D_DISCARD, [self.space.discard[i] for i in set(self.items[s])])
                return
        max_turns = self.game.max_turns
        if max_turns is not None and self.turn >= max_turns:
            self.stop_at_limit("farkle.end.turn_limit")
            return
        self.turn += 1
        self._start_turn((self.player + 1) % self.num_players)

    def stop_at_limit(self, reason: str) -> None:
        """End the game now as the turn limit does: the largest army wins, ties shared.
        ``reason``: ``farkle.end.turn_limit`` at the table's own limit; anything else (a
        caller's length bound) ends it as ``farkle.end.stopped``."""
        best = max(self.armies)
        winners = tuple(s for s, a in enumerate(self.armies) if a == best)
        if reason == "farkle.end.turn_limit":
            self._game_over(winners, reason, turns=self.turn, seats=list(winners))
        else:
            self._game_over(winners, "farkle.end.stopped", turn=self.turn,
                            seats=list(winners))

    def _game_over(self, winners: tuple[int, ...], reason: str, **params: Any) -> None:
        self.phase = _P_OVER
        self.to_move = ()
        self.dec = None
        self.dec_legal = ()
        self.winners = winners
        self.end_reason = reason
        self.end_params = params
        self._e(reason, None, *params.values())

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
                log[i] = f"p{s}: {'discard' if a.kind == Kind.DISCARD else 'keep-item'} (hidden)"
        keeper, code = scan.last_keep
        items_used = dict(scan.items_used)
        keep_json = None if keeper < 0 else {  # last_value: the last keep's value
            "seat": keeper, "dice": dice_text(DICE_SETS[code]), "soldiers": self.last_value}
        return {
            "players": self.num_players,
            "max_turns": game.max_turns,
            "player": self.player,
            "decision": self.dec.name.lower() if self.dec is not None else (
                "action" if self.phase == Phase.CHOOSE else None),
            "mode": self.mode.name.lower(),
            "roller": self.roller if self.mode != Mode.NONE else None,
            "roll": dice_text(self.roll),
            "event": EVENTS[self.event],
            "dice_in_hand": self.hand_dice,
            "pending": self.pending,
            "skirmish": ({"attacker": self.attacker, "defender": self.defender,
                          "attack_value": self.attack_value}
                         if self.mode == Mode.SKIRMISH else None),
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
            "powers_used": sorted(self.used),
            "items_used": items_used,
            "history": log,
        }

    def _scan(self) -> _Scan:
        """What the views derive from the record, read incrementally: the last keep, the
        item uses, and where the hidden choices are (D9). Kept per history list, so a clone
        (a list of its own) starts afresh."""
        scan = self._vscan
        history = self._history
        if scan is None or scan.history is not history:
            scan = self._vscan = _Scan(history)
        if scan.upto < len(history):
            item_ids = self.game.space.item_ids
            uses = scan.items_used
            for i in range(scan.upto, len(history)):
                s, a = history[i]
                k = a.kind
                if s < 0:
                    continue
                if k == _K_KEEP:
                    scan.last_keep = s, a.a
                elif k == _K_USE:
                    name = item_ids[a.a]
                    uses[name] = uses.get(name, 0) + 1
                elif k == Kind.DISCARD or k == Kind.KEEP_ITEM:
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
        if seat not in self.to_move or self.phase == _P_OVER:
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
        values = self._keep_choices(self.roll)[1] if self.dec == _D_KEEP else {}
        for a in legal:
            k = a.kind
            if k == _K_KEEP:
                n = _DICE_COUNT[a.a]
                out["keeps"].append({"action": a.text, "dice": dice_text(DICE_SETS[a.a]),
                                     "soldiers": values.get(a.a, 0),
                                     "dice_left": self.hand_dice - n})
            elif k == _K_RECRUIT:
                out["recruit"] = True
            elif k == _K_SKIRMISH:
                out["skirmish"].append(a.a)
            elif k == _K_BATTLE:
                out["battle"] = True
            elif k == _K_SCARE:
                out["scare"].append(a.a)
            elif k == _K_USE:
                out["use"].append(items[a.a].id)
            elif k == _K_DOUBLE:
                out["alliance"].append("double")
            elif k == Kind.ITEM:
                out["alliance"].append("item")
            elif k == _K_ROLL:
                out["roll"] = True
            elif k == _K_BANK:
                out["end"] = "bank"
            elif k == Kind.STOP:
                out["end"] = "stop"
            elif k == Kind.FARKLE:
                out["farkle"] = True
            elif k == _K_TABBY:
                out["tabby"] = True
            elif k == _K_REROLL:
                out["reroll"].append(a.a)
            elif k == Kind.PASS:
                out["pass"] = True
            elif k == Kind.DISCARD or k == Kind.KEEP_ITEM:
                out["items"].append(items[a.a].id)
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

    def snapshot(self) -> JSON:
        """The whole state as JSON (:mod:`dragonlair.games.farkle.snapshot`)."""
        from dragonlair.games.farkle.snapshot import snapshot

        return snapshot(self)

    def soldiers(self) -> int:
        """Armies plus supply: constant (soldiers are conserved, D1)."""
        return sum(self.armies) + self.supply


class _Scan:
    """:meth:`FarkleState._scan`'s running results for one history list."""

    __slots__ = ("hidden", "history", "items_used", "last_keep", "upto")

    def __init__(self, history: list[tuple[int, FarkleAction]]) -> None:
        self.history = history
        self.upto = 0
        self.last_keep = (-1, 0)  # (seat, dice code) of the last keep; seat -1: none yet
        self.items_used: dict[str, int] = {}
        self.hidden: list[int] = []  # history indices of discard and keep-item choices


#: sort key: an action's index
_index = attrgetter("index")


#: per game: by roll, FarkleState._keep_choices
_KEEPS: weakref.WeakKeyDictionary[FarkleGame, dict[Counts, _RollInfo]] = (
    weakref.WeakKeyDictionary())
