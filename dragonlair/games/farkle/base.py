"""The fields of a Dragon Farkle position and the helpers every part of the engine uses.

:class:`FarkleBase` holds the table (armies, supply, companions, items and their piles), the
turn, the roll and the decision waited for; the engine's parts add to it: the turn flow
(:mod:`.turns`), the Skirmish and the Final Battle (:mod:`.fight`) and the views
(:mod:`.viewing`); :class:`~dragonlair.games.farkle.state.FarkleState` joins them.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from dragonlair.core.events import Event
from dragonlair.core.game import CHANCE, State
from dragonlair.core.records import entries_up_to
from dragonlair.games.farkle.actions import BLANK, DICE_CODE, EventFace, FarkleAction
from dragonlair.games.farkle.cards import CompanionEffect, FarkleCard, ItemEffect, Window
from dragonlair.games.farkle.enums import AfterDraw, BattleBonus, Dec, Mode, Phase, Power
from dragonlair.games.farkle.events import CompactChain, events_since
from dragonlair.games.farkle.scoring import Counts

if TYPE_CHECKING:
    from dragonlair.games.farkle.game import FarkleGame
    from dragonlair.games.farkle.viewing import RecordScan

BATTLE_ARMY = 5000  # D3: soldiers needed to start a Final Battle
SKIRMISH_BONUS = 500  # D5.3
SUPPLY = 10**9  # the supply is unlimited (D1); counted so that soldiers are conserved
#: ``to_move`` at a chance node
AT_CHANCE = (CHANCE,)

# Enum members as module globals, for the hot paths: a global is read several times
# faster than a member (an enum class's attributes miss the interpreter's fast path).
_P_DECIDE = Phase.DECIDE
_P_ROLL = Phase.ROLL
_P_SETUP = Phase.SETUP
_M_NONE = Mode.NONE
_AD_NOTHING = AfterDraw.NOTHING
_KEEP_EXTRA = ItemEffect.KEEP_EXTRA

#: a roll's keep actions (index order), their values by dice code, its scoring dice and value
_RollInfo = tuple[tuple[FarkleAction, ...], dict[int, int], tuple[Counts, int]]

#: sort key: an action's index
_index = attrgetter("index")

#: per game: by roll, FarkleBase._keep_choices (shared by the game's states)
_KEEPS: weakref.WeakKeyDictionary[FarkleGame, dict[Counts, _RollInfo]] = (
    weakref.WeakKeyDictionary())


class FarkleBase(State[FarkleAction]):
    """A Dragon Farkle position's fields and shared helpers (see the module docs)."""

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
        self._keeps = keeps  # by roll: _keep_choices (shared by the game's states)
        self.hidden_for: dict[int, int] = {}  # history index -> the only seat that sees it
        self.winners: tuple[int, ...] = ()
        self.end_reason = ""
        self.end_params: dict[str, Any] = {}
        self._vscan: RecordScan | None = None  # the views' reading of the record (_scan)

    # ------------------------------------------------------------------ events
    def _e(self, code: str, to: int | None, *values: Any) -> None:
        """Append an event, compactly (:mod:`dragonlair.games.farkle.events`)."""
        self._ev = ((code, to, *values), self._ev)
        self._nev += 1

    def all_events(self) -> list[Event]:
        return events_since(self._ev, self._nev)

    def events_for(self, seat: int | None, since: int = 0) -> list[tuple[int, Event]]:
        events = events_since(self._ev, self._nev, since)
        start = self._nev - len(events)
        return [(start + i, e) for i, e in enumerate(events) if e.to is None or e.to == seat]

    @property
    def _log(self) -> list[str]:
        """The history as record entries (``p0: keep 4445``, ``chance: dice 123456 blank``);
        entries may be rewritten in place (the D9 tests do, in clones)."""
        return entries_up_to(self._log_list, self._history)

    # ------------------------------------------------------------------ helpers
    def _card(self, seat: int) -> FarkleCard | None:
        k = self.companions[seat]
        return self.game.companions[k] if k >= 0 else None

    def _has(self, seat: int, effect: CompanionEffect) -> bool:
        """Whether ``seat``'s companion has ``effect``."""
        k = self.companions[seat]
        return k >= 0 and self.game.companion_effects[k] is effect

    def _item_pile(self) -> list[int]:
        if not any(self.item_deck) and any(self.item_discard):
            return self.item_discard  # D8.2: an empty pile is the shuffled discards
        return self.item_deck

    def _companion_pile(self) -> list[int]:
        if not any(self.companion_deck) and any(self.companion_discard):
            return self.companion_discard
        return self.companion_deck

    def _take_item(self, k: int) -> None:
        """Item ``k`` leaves the pile (D8.2: the discards shuffled when it is empty)."""
        if not any(self.item_deck):
            self.item_deck, self.item_discard = self.item_discard, [0] * len(self.item_deck)
        self.item_deck[k] -= 1

    def _take_companion(self, k: int) -> None:
        """Companion ``k`` leaves the pile (the discards shuffled when it is empty)."""
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

    def _ask_sorted(self, seat: int, dec: Dec | None, legal: tuple[FarkleAction, ...],
                    phase: Phase = _P_DECIDE) -> None:
        """:meth:`_ask` for a decision whose ``legal`` is already in index order."""
        self.phase = phase
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

    def _begin(self, mode: Mode, roller: int, dice: int) -> None:
        self.mode = mode
        self.roller = roller
        self.full_dice = dice
        self.hand_dice = dice
        self.pending = 0
        self._chance(_P_ROLL)

    def _chance(self, phase: Phase) -> None:
        self.phase = phase
        self.dec = None
        self.dec_legal = ()
        self.to_move = AT_CHANCE

    def item_limit(self, seat: int) -> int:
        """D8.3: one item; a Plunder Sack held lets its holder keep that many others too."""
        game = self.game
        effects = game.item_effects
        extra: int | None = None  # the largest Plunder Sack held
        for i in self.items[seat]:
            if effects[i] is _KEEP_EXTRA:
                amount = game.items[i].amount
                if extra is None or amount > extra:
                    extra = amount
        return 1 if extra is None or extra < 0 else 1 + extra

    def _usable(self, seat: int, window: Window) -> list[FarkleAction]:
        """The ``use`` actions of ``seat``'s items of this window (one per card)."""
        held = self.items[seat]
        if self.game.items_of_window[window].isdisjoint(held):  # the most frequent answer
            return []
        windows = self.game.item_windows
        out: list[FarkleAction] = []
        for i in held:
            if windows[i] is window:
                use = self.space.use[i]
                for u in out:  # two copies of a card: one action (by identity: interned)
                    if u is use:
                        break
                else:
                    out.append(use)
        return out

    def _use_item(self, seat: int, i: int) -> None:
        self.items[seat].remove(i)
        self.item_discard[i] += 1

    if TYPE_CHECKING:  # the parts call each other (:mod:`.turns`, :mod:`.fight`)
        def _end_turn(self) -> None: ...

        def _game_over(self, winners: tuple[int, ...], reason: str, **params: Any) -> None: ...

        def _battle_roll(self) -> None: ...

        def _finish_side(self, value: int) -> None: ...

        def _wipe_out(self, seat: int) -> None: ...
