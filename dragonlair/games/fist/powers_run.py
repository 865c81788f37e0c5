"""Running a power (F6, F7): a stack of primitive steps, carried out for the auction's winner.

A step either acts at once or stops the engine with one :data:`~.pending.Pending` value: a
:class:`~.pending.Decision` for the winner (:func:`ask`) or a :class:`~.pending.Draw` for
chance (:func:`draw`). Each primitive keeps both its halves together, in the module of its
concern, and registers them here:

* :func:`begins` -- what a step does when its turn on the stack comes (``powers_*.py``): the
  engine's :class:`~.powers.Table` :data:`BEGIN`, one begin per primitive, checked against
  :data:`~.powers.PRIMITIVES` once the ``powers_*`` modules are all imported (:func:`check`);
* :func:`resolves` -- what the winner's answer to a :class:`~.pending.Decision` does;
* :func:`drawn` -- what the outcome of a :class:`~.pending.Draw` does.

``powers_bank`` (coins and stones from the bank, payments for points, the Merchant and the
Necromancer), ``powers_rivals`` (the Thief, the Brigand, the Troll), ``powers_cards`` (the
Doppelganger, the Ghost, the Goblin and the Imp) and ``powers_luck`` (the Rainbow Dragon,
the Two-headed Dragon's bag).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

from dragonlair.core.errors import IllegalActionError
from dragonlair.core.game import CHANCE
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import FistAction
from dragonlair.games.fist.pending import Dec, Decision, Draw, Phase, PowerChance

if TYPE_CHECKING:
    from dragonlair.games.fist.state import FistState

#: a step's begin: ``(state, step, card) -> waits`` (True: a decision or a draw is pending)
Begin = Callable[["FistState", Any, int], bool]
#: a decision's resolve: ``(state, decision, the winner's action)``
Resolve = Callable[["FistState", Decision, FistAction], None]
#: a draw's outcome: ``(state, draw, the chance action)``
Drawn = Callable[["FistState", Draw, FistAction], None]

#: the engine's table: each primitive's begin
BEGIN: pw.Table[Begin] = pw.Table("powers_run.BEGIN")
RESOLVE: dict[Dec, Resolve] = {}
DRAWN: dict[PowerChance, Drawn] = {}

F = TypeVar("F", bound=Callable[..., Any])
S = TypeVar("S")

_P_DECIDE = Phase.DECIDE
_P_OVER = Phase.OVER
_P_POWER_CHANCE = Phase.POWER_CHANCE
_P_RUNNING = Phase.RUNNING
#: sort key: an action's index
_index = attrgetter("index")


#: register the decorated function as the begin of these primitives
begins = BEGIN.on


def check() -> None:
    """Every primitive has its begin (:meth:`~.powers.Table.check`): called by :mod:`.state`
    once it has imported the ``powers_*`` modules."""
    BEGIN.check()


def asked(decision: Decision, cls: type[S]) -> S:
    """The step ``decision`` asks about: a ``cls``, as the decision's kind says."""
    step = pw.step_as(decision.step, cls)
    assert step is not None
    return step


def resolves(*kinds: Dec) -> Callable[[F], F]:
    """Register the decorated function as the resolve of these decisions."""
    def register(fn: F) -> F:
        for kind in kinds:
            RESOLVE[kind] = fn
        return fn
    return register


def drawn(*kinds: PowerChance) -> Callable[[F], F]:
    """Register the decorated function as what these draws' outcomes do."""
    def register(fn: F) -> F:
        for kind in kinds:
            DRAWN[kind] = fn
        return fn
    return register


# ---------------------------------------------------------------------------- the stack
def push_power(st: FistState, k: int, times: int = 1) -> None:
    """Queue the power of card ``k`` (``times`` over: the Doppelganger's two, F7)."""
    steps = st.cards[k].power
    stack = st.stack
    for _ in range(times):
        for step in reversed(steps):
            stack.append((step, k))


def run(st: FistState) -> bool:
    """Run queued steps until one asks for a decision or a draw, or all are done. True
    when the power is done (the auction ends); False when it waits or the game is over."""
    st.phase = _P_RUNNING
    stack = st.stack
    begin = BEGIN.by_type
    while stack:
        step, k = stack.pop()
        if begin[type(step)](st, step, k):
            return False
        if st.phase is _P_OVER:
            return False
    return True


def ask(st: FistState, kind: Dec, k: int, legal: Sequence[FistAction],
        step: Any = None, auto: bool = True) -> bool:
    """Ask the winner ``kind`` inside the power of card ``k``; a forced single option is
    applied at once when ``auto``. True if the engine now waits (a decision, a draw, the
    game's end); False if the power goes on."""
    w = st.winner
    assert w is not None
    decision = Decision(kind, k, tuple(sorted(legal, key=_index)), step)  # index order
    if auto and len(decision.legal) == 1:
        resolve(st, decision, decision.legal[0])
        return st.phase is not _P_RUNNING
    st.pending = decision
    st.phase = _P_DECIDE
    st.to_move = (w,)
    return True


def draw(st: FistState, kind: PowerChance, k: int) -> bool:
    """The power of card ``k`` draws ``kind`` at random: a chance node. True (it waits)."""
    st.pending = Draw(kind, k)
    st.phase = _P_POWER_CHANCE
    st.to_move = (CHANCE,)
    return True


# ---------------------------------------------------------------------------- answers
def resolve(st: FistState, decision: Decision, action: FistAction) -> None:
    """Carry out the winner's answer. Leaves the phase RUNNING if the power goes on; DECIDE
    or POWER_CHANCE if it waits again; OVER if the game ended."""
    st.pending = None
    st.phase = _P_RUNNING
    RESOLVE[decision.kind](st, decision, action)


def decide(st: FistState, action: FistAction) -> bool:
    """The winner answers the pending decision with ``action`` (legal); the power goes on.
    True when the power is done (the auction ends)."""
    decision = st.pending
    assert isinstance(decision, Decision)
    st.pending = None
    st.phase = _P_RUNNING
    RESOLVE[decision.kind](st, decision, action)  # as resolve() does
    return st.phase is _P_RUNNING and run(st)


def on_draw(st: FistState, action: FistAction) -> bool:
    """Chance answers the pending draw with ``action`` (possible); the power goes on.
    True when the power is done (the auction ends)."""
    pending = st.pending
    assert isinstance(pending, Draw)
    st.pending = None
    st.phase = _P_RUNNING
    DRAWN[pending.kind](st, pending, action)
    return st.phase is _P_RUNNING and run(st)


def refuse_decision(st: FistState, action: object) -> IllegalActionError:
    """Why ``action`` is no answer to the pending decision (F6, F7)."""
    decision = st.pending
    assert isinstance(decision, Decision)
    card = st.cards[decision.card]
    rule = "F6" if card.standard and decision.kind != Dec.DOUBLE else "F7"
    return IllegalActionError("fist.power.not_allowed", rule=rule, card=card.id,
                              action=str(action), options=[str(a) for a in decision.legal])
