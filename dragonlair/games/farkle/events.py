"""The events of Dragon Farkle: codes, their params, and who may see them (D9).

The engine appends events on its hot path as compact tuples, ``(code, to, *values)``, to the
persistent chain of :class:`dragonlair.core.game.State`; they become
:class:`~dragonlair.core.events.Event` values (params by name) only when read
(:func:`expand`). :data:`PARAMS` names each code's params in order. Values are stored raw
where that is cheaper: a ``dice`` param may be stored as a dice code (an index of
:data:`~dragonlair.games.farkle.actions.DICE_SETS`) or as counts, an ``event`` param as the
event die's number; :func:`expand` turns them into their text (``"1155"``, ``"dragon"``).

Visibility (D9): everything is public but the identity of a magic item, which goes to its
owner only (``*_own``), each with a public twin that names the seat and not the item,
emitted just before it (``CODE`` at seq n, ``CODE_own`` at n + 1, the same ``seat``): a
reader shows its owner one line for it, the secret, and skips the twin (the browser's
lib/events.ts); every other viewer gets the twin only.
"""

from __future__ import annotations

from typing import Any

from dragonlair.core.events import Event
from dragonlair.games.farkle.actions import DICE_TEXT, EVENTS
from dragonlair.games.farkle.scoring import dice_text

#: every event code and the names of its params, in the order the engine gives them
PARAMS: dict[str, tuple[str, ...]] = {
    # setup and turns (D3, D8.1, D8.2)
    "farkle.setup.companion": ("seat", "card"),
    "farkle.setup.item": ("seat",),
    "farkle.setup.item_own": ("seat", "card"),
    "farkle.setup.start": ("seat",),
    "farkle.turn.start": ("turn", "seat", "army"),
    "farkle.companion.new": ("seat", "card"),
    "farkle.choose.recruit": ("seat",),
    "farkle.choose.skirmish": ("seat", "target"),
    "farkle.choose.battle": ("seat", "strength"),
    # rolls (D4)
    "farkle.roll.rolled": ("seat", "dice", "event"),
    "farkle.roll.die": ("seat", "face"),
    "farkle.roll.hot": ("seat", "n"),
    "farkle.roll.escape": ("seat",),
    "farkle.roll.eaten": ("seat", "dice", "n"),
    "farkle.keep.soldiers": ("seat", "dice", "n"),
    "farkle.keep.attack": ("seat", "dice", "n"),
    "farkle.keep.defence": ("seat", "dice", "n"),
    "farkle.alliance.double": ("seat", "n", "pending"),
    "farkle.alliance.item": ("seat",),
    "farkle.recruit.bank": ("seat", "n", "army"),
    "farkle.recruit.bank_bonus": ("seat", "card", "n"),
    "farkle.recruit.farkle": ("seat", "n", "kept"),
    # skirmish (D5)
    "farkle.skirmish.stop": ("seat", "n"),
    "farkle.skirmish.farkle": ("seat",),
    "farkle.skirmish.defends": ("seat", "n"),
    "farkle.skirmish.values": ("attacker", "attack", "defender", "defence"),
    "farkle.skirmish.won": ("seat", "loser", "n", "bonus"),
    "farkle.skirmish.tie": (),
    # the Final Battle and the Lair (D6, D7)
    "farkle.battle.farkle": ("seat",),
    "farkle.battle.arrow": ("seat", "card"),
    "farkle.battle.damage": ("seat", "n", "total"),
    "farkle.battle.shield": ("seat", "card", "n"),
    "farkle.battle.loses": ("seat", "n"),
    "farkle.battle.heals": (),
    "farkle.lair.army_gone": ("seat",),
    # companions and items (D8)
    "farkle.power.scare": ("seat", "card", "target", "n"),
    "farkle.power.tabby": ("seat",),
    "farkle.power.reroll": ("seat", "face"),
    "farkle.power.pass": ("seat",),
    "farkle.item.used": ("seat", "card"),
    "farkle.item.gain": ("seat", "n", "army"),
    "farkle.item.ignore_farkle": ("seat", "card"),
    "farkle.item.drawn": ("seat",),
    "farkle.item.drawn_own": ("seat", "card"),
    "farkle.item.none_left": (),
    "farkle.item.discarded": ("seat",),
    "farkle.item.discarded_own": ("seat", "card"),
    "farkle.item.kept": ("seat",),
    "farkle.item.kept_own": ("seat", "card"),
    # the end (D6.4, the turn limit)
    "farkle.end.dragon_slain": ("seat",),
    "farkle.end.turn_limit": ("turns", "seats"),
    "farkle.end.stopped": ("turn", "seats"),
}

#: codes of events that go to one seat only (a secret, D9); each has a public twin
PRIVATE = frozenset({"farkle.setup.item_own", "farkle.item.drawn_own",
                     "farkle.item.discarded_own", "farkle.item.kept_own"})

#: the public twin of each private event: emitted just before it, with the same ``seat``
TWINS = frozenset(code.removesuffix("_own") for code in PRIVATE)

#: the end reasons (an outcome's ``reason``), a subset of the events
END_REASONS = frozenset({"farkle.end.dragon_slain", "farkle.end.turn_limit",
                         "farkle.end.stopped"})

#: A stored node: ``(code, to, *values)``.
Compact = tuple[Any, ...]
#: The stored events, newest first: ``(node, rest)``, ``None`` when there are none.
CompactChain = tuple[Compact, "CompactChain"] | None


def _value(name: str, value: Any) -> Any:
    if name == "dice":
        if type(value) is int:
            return DICE_TEXT[value]
        if isinstance(value, tuple):
            return dice_text(value)
    elif name == "event" and isinstance(value, int):
        return EVENTS[value]
    elif name == "seats" and isinstance(value, tuple):
        return list(value)
    return value


def expand(node: Compact) -> Event:
    """The event of a stored node."""
    code = node[0]
    names = PARAMS[code]
    return Event(code, {k: _value(k, v) for k, v in zip(names, node[2:], strict=True)},
                 node[1])


def compact(event: Event) -> Compact:
    """The stored node of an event (a snapshot's events, restored)."""
    names = PARAMS[event.code]
    return (event.code, event.to, *(event.params[k] for k in names))


def events_since(chain: Any, total: int, since: int = 0) -> list[Event]:
    """The events with ``seq >= since`` of a chain of stored nodes holding ``total`` events,
    oldest first."""
    nodes: list[Compact] = []
    for _ in range(max(total - max(since, 0), 0)):
        node, chain = chain
        nodes.append(node)
    nodes.reverse()
    return [expand(n) for n in nodes]
