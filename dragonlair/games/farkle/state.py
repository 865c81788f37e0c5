"""The Dragon Farkle engine (rules D1-D9).

Setup: each seat draws a companion (public) and a magic item (hidden), then the start player
is drawn. A turn: the player may use start-of-turn powers, then chooses Recruit, Skirmish or
the Final Battle. Every roll is one chance event (``dice 234445 blank``: the soldier dice in
hand and the event die). After a roll the roller sets dice aside (``keep 4445``), answers the
alliance (``double`` / ``item``), and rolls on or banks/stops; the Final Battle runs by itself
until the dragon falls, a farkle, or the army is gone.

This module keeps the state's fields and the contract of :class:`dragonlair.core.game.State`
(seats to move, legal actions, chance, ``apply`` dispatching to the rules, refusals, the
outcome, clones); the rules live by concern, as functions over the state:

* :mod:`.base` -- the helpers the rules share: events, piles, soldiers, asking, keep choices;
* :mod:`.turns` -- the setup, turns, rolls, keeps, the alliance, banking, farkles, item
  draws and the end of a turn (D3, D4, D8);
* :mod:`.fight` -- the end of a Skirmish (D5), the Final Battle (D6), the Lair (D7);
* :mod:`.viewing` -- what each seat may know (D9); :mod:`.snapshot` -- the state as JSON.
"""


from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from functools import cache, lru_cache
from math import factorial
from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import IllegalActionError
from dragonlair.core.events import Event
from dragonlair.core.game import (
    CHANCE,
    JSON,
    ChanceTable,
    Outcome,
    State,
    check_seat_range,
    placings_from_scores,
)
from dragonlair.core.records import entries_up_to
from dragonlair.games.farkle import turns, viewing
from dragonlair.games.farkle.actions import (
    ALLIANCE,
    BLANK,
    DICE_COUNT,
    DICE_SETS,
    DRAGON,
    ActionSpace,
    EventFace,
    FarkleAction,
    Kind,
)
from dragonlair.games.farkle.base import (
    AT_CHANCE,
    BATTLE_ARMY,
    KEEPS,
    SKIRMISH_BONUS,
    SUPPLY,
    RollInfo,
    companion_pile,
    item_pile,
)
from dragonlair.games.farkle.enums import AfterDraw, BattleBonus, Dec, Mode, Phase, Power
from dragonlair.games.farkle.events import CompactChain, events_since
from dragonlair.games.farkle.scoring import Counts, dice_text
from dragonlair.games.farkle.turns import on_chance, on_decision

if TYPE_CHECKING:
    from dragonlair.games.farkle.game import FarkleGame
    from dragonlair.games.farkle.viewing import RecordScan

__all__ = ["BATTLE_ARMY", "SKIRMISH_BONUS", "SUPPLY", "Dec", "FarkleState", "Mode", "Phase",
           "roll_outcomes"]

# Enum members as module globals, for the hot paths (see .base)
_M_NONE = Mode.NONE
_AD_NOTHING = AfterDraw.NOTHING
#: base.KEEPS under a name bound here (Python 3.11 calls ``.get`` of an imported name through
#: a bound method made each time)
_KEEPS = KEEPS
_P_CHOOSE = Phase.CHOOSE
_P_COMPANION = Phase.COMPANION
_P_DIE = Phase.DIE
_P_DRAW = Phase.DRAW
_P_OVER = Phase.OVER
_P_ROLL = Phase.ROLL
_P_SETUP = Phase.SETUP
_D_ALLIANCE = Dec.ALLIANCE
_D_CONTINUE = Dec.CONTINUE
_D_DISCARD = Dec.DISCARD
_D_FARKLE = Dec.FARKLE
_D_HICCUP = Dec.HICCUP
_D_KEEP = Dec.KEEP
_D_KEEP_ITEM = Dec.KEEP_ITEM
_D_TABBY = Dec.TABBY
_K_BATTLE = Kind.BATTLE
_K_DICE = Kind.DICE
_K_KEEP = Kind.KEEP
_K_SKIRMISH = Kind.SKIRMISH

#: a roll's dice code (DICE_SETS) by ``sum(7 ** face for each die)`` (faces 0-5)
_ROLL_CODE = {sum(n * 7**f for f, n in enumerate(c)): code for code, c in enumerate(DICE_SETS)}
_POW7 = (1, 7, 49, 343, 2401, 16807)
#: the event of the event die's face (0-5): one dragon, one alliance, four blanks (D4); as
#: plain ints (an index of ``ActionSpace.dice[code]``: a list reads an exact int faster)
_EVENT_OF = (int(DRAGON), int(ALLIANCE), int(BLANK), int(BLANK), int(BLANK), int(BLANK))


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


@lru_cache(maxsize=128)
def _roll_actions(space: ActionSpace, k: int) -> ChanceTable[FarkleAction]:
    """:func:`roll_outcomes` as the table's actions, listed once per action space (a roll of
    six dice has 1,386 outcomes)."""
    return ChanceTable((space.dice[code][ev], p) for code, ev, p in roll_outcomes(k))


@lru_cache(maxsize=128)
def _die_actions(space: ActionSpace) -> ChanceTable[FarkleAction]:
    """A rerolled die (D8.4): each face, 1/6, listed once per action space."""
    return ChanceTable((space.die[f], 1 / 6) for f in range(6))


class FarkleState(State[FarkleAction]):
    """A Dragon Farkle position: the fields and the game contract (a
    :class:`~dragonlair.core.game.State` of
    :class:`~dragonlair.games.farkle.actions.FarkleAction`); the rules are functions over it
    (see the module docs)."""

    #: the events, newest first, as compact nodes ``((code, to, *values), rest)``
    #: (:mod:`dragonlair.games.farkle.events`), not :class:`Event` values
    _ev: CompactChain  # type: ignore[assignment]

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
        self.mode = _M_NONE
        self.start_army = 0
        self.used: set[Power] = set()  # once-per-turn powers used this turn (D8.4)
        # the roll
        self.roller = 0
        self.full_dice = 6
        self.hand_dice = 6
        self.roll: Counts = (0, 0, 0, 0, 0, 0)
        self.event: EventFace = BLANK
        self.pending = 0
        self.last_value = 0
        self.asked: set[Power] = set()  # powers already offered on this roll
        # skirmish
        self.attacker = -1
        self.defender = -1
        self.attack_value = 0
        # battle
        self.damage = 0
        self.battle_bonus_used: set[BattleBonus] = set()  # once per Final Battle turn
        # decisions
        self.phase = _P_SETUP
        self.to_move: tuple[int, ...] = AT_CHANCE
        self.dec: Dec | None = None
        self.dec_legal: tuple[FarkleAction, ...] = ()
        self.draw_for = -1
        self.after_draw = _AD_NOTHING
        self.setup_step = 0
        self._history: list[tuple[int, FarkleAction]] = []
        self._log_list: list[str] = []  # _history as record entries, written on demand
        keeps = _KEEPS.get(game)
        if keeps is None:
            keeps = _KEEPS[game] = {}
        #: by roll: base.keep_choices (shared by the game's states)
        self._keeps: dict[Counts, RollInfo] = keeps
        self.hidden_for: dict[int, int] = {}  # history index -> the only seat that sees it
        self.winners: tuple[int, ...] = ()
        self.end_reason = ""
        self.end_params: dict[str, Any] = {}
        self._vscan: RecordScan | None = None  # the views' reading of the record

    # ------------------------------------------------------------------ contract
    def current_seats(self) -> tuple[int, ...]:
        return self.to_move

    @property
    def history(self) -> Sequence[tuple[int, FarkleAction]]:
        return self._history


    def turn_count(self) -> int:
        return self.turn

    @property
    def _log(self) -> list[str]:
        """The history as record entries (``p0: keep 4445``, ``chance: dice 123456 blank``);
        entries may be rewritten in place (the D9 tests do, in clones)."""
        return entries_up_to(self._log_list, self._history)

    def all_events(self) -> list[Event]:
        return events_since(self._ev, self._nev)

    def events_for(self, seat: int | None, since: int = 0) -> list[tuple[int, Event]]:
        events = events_since(self._ev, self._nev, since)
        start = self._nev - len(events)
        return [(start + i, e) for i, e in enumerate(events) if e.to is None or e.to == seat]

    def legal_actions(self, seat: int) -> Sequence[FarkleAction]:
        if seat == CHANCE or seat not in self.to_move or type(seat) is not int:
            check_seat_range(seat, self.num_players, chance=True)  # SeatError if no seat
            return ()
        return self.dec_legal

    def chance_outcomes(self) -> Sequence[tuple[FarkleAction, float]]:
        sp = self.space
        ph = self.phase
        if ph is _P_ROLL:  # a table listed once (immutable: the same one every time)
            return _roll_actions(sp, self.hand_dice)
        if ph is _P_DIE:
            return _die_actions(sp)
        if ph is _P_DRAW:
            deck = item_pile(self)
            total = sum(deck)
            return [(sp.draw_item[i], n / total) for i, n in enumerate(deck) if n]
        if ph is _P_COMPANION or (ph is _P_SETUP and self.setup_step < self.num_players):
            deck = companion_pile(self)
            total = sum(deck)
            return [(sp.draw_companion[i], n / total) for i, n in enumerate(deck) if n]
        if ph is _P_SETUP and self.setup_step < 2 * self.num_players:
            deck = item_pile(self)
            total = sum(deck)
            return [(sp.draw_item[i], n / total) for i, n in enumerate(deck) if n]
        if ph is _P_SETUP:
            return [(sp.start[s], 1 / self.num_players) for s in range(self.num_players)]
        return []

    def sample_chance(self, rng: random.Random) -> FarkleAction:
        if self.phase is _P_ROLL:  # same distribution, without listing 1,386 outcomes
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
        return super().sample_chance(rng)

    def apply(self, seat: int, action: FarkleAction) -> None:
        history = self._history
        if seat == CHANCE and type(seat) is int:
            if self.to_move != AT_CHANCE:
                self.check_seat(seat)  # raises: not a chance node
            if self.phase is _P_ROLL:
                possible = action.kind is _K_DICE and DICE_COUNT[action.dice] == self.hand_dice
            else:
                possible = any(a is action for a, _ in self.chance_outcomes())
            if not possible:
                raise IllegalActionError("farkle.chance.impossible", rule="D3",
                                         action=action.text)
            history.append((seat, action))
            on_chance(self, action, len(history) - 1)  # .turns
            return
        if seat not in self.to_move or type(seat) is not int:
            self.check_seat(seat)
        for a in self.dec_legal:  # the interned action itself, before comparing values
            if a is action:
                break
        else:
            if action not in self.dec_legal:
                raise self._illegal(seat, action)
        history.append((seat, action))
        on_decision(self, seat, action)  # .turns

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
        if action.kind is _K_KEEP and self.dec is _D_KEEP:
            kept = DICE_SETS[action.dice]
            if any(k > r for k, r in zip(kept, self.roll, strict=True)):
                return IllegalActionError("farkle.keep.not_rolled", rule="D2", seat=seat,
                                          dice=dice_text(kept), roll=dice_text(self.roll))
            scoring = self.scorer.scoring_dice(kept)[0]
            rest = tuple(k - s for k, s in zip(kept, scoring, strict=True))
            return IllegalActionError("farkle.keep.not_scoring", rule="D2", seat=seat,
                                      dice=dice_text(kept), roll=dice_text(self.roll),
                                      rest=dice_text(rest),
                                      n=sum(rest), legal=options)
        if action.kind is _K_BATTLE and self.phase is _P_CHOOSE:
            return IllegalActionError("farkle.battle.not_allowed", rule="D3", seat=seat,
                                      army=BATTLE_ARMY)
        if action.kind is _K_SKIRMISH and self.phase is _P_CHOOSE:
            target = action.seat
            code = ("farkle.skirmish.target_self" if target == seat
                    else "farkle.skirmish.target_no_seat" if target >= self.num_players
                    else "farkle.skirmish.target_in_lair")
            return IllegalActionError(code, rule="D5.1", seat=seat, target=target)
        return IllegalActionError("farkle.action.not_now", rule=rule, seat=seat,
                                  action=action.text, legal=options)

    def outcome(self) -> Outcome | None:
        if self.phase is not _P_OVER:
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

    def stop_at_limit(self, reason: str) -> None:
        """End the game now as the turn limit does (:func:`.turns.stop_at_limit`)."""
        turns.stop_at_limit(self, reason)

    # ------------------------------------------------------------------ views (viewing.py)
    def view(self, seat: int | None, since: int = 0) -> JSON:
        """What ``seat`` may know (D9); ``None`` for a spectator (:func:`.viewing.view`)."""
        return viewing.view(self, seat, since)

    def full_state(self) -> JSON:
        """Everything, secrets included, flat (:func:`.viewing.full_state`)."""
        return viewing.full_state(self)

    def snapshot(self) -> JSON:
        """The whole state as JSON (:mod:`dragonlair.games.farkle.snapshot`)."""
        from dragonlair.games.farkle.snapshot import snapshot

        return snapshot(self)

    def soldiers(self) -> int:
        """Armies plus supply: constant (soldiers are conserved, D1)."""
        return sum(self.armies) + self.supply

