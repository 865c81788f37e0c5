"""The events of Fist of Dragonstones: codes, their params, and who may see them (F8).

The engine appends events on its hot path as compact tuples, ``(code, to, *values)``, to the
persistent chain of :class:`dragonlair.core.game.State`; they become
:class:`~dragonlair.core.events.Event` values (params by name) only when read
(:func:`expand`). ``PARAMS`` names each code's params in order; docs/events-fist.md is the
table of codes, params, visibility and when each is emitted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dragonlair.core.events import Event

#: every event code and the names of its params, in the order the engine gives them
PARAMS: dict[str, tuple[str, ...]] = {
    # setup and turns (F3, F4)
    "fist.setup.stone": ("seat", "colour"),
    "fist.turn.start": ("turn",),
    "fist.turn.special": ("card",),
    "fist.turn.reshuffle": (),
    "fist.turn.end": ("turn",),
    # auctions (F5)
    "fist.auction.card": ("card",),
    "fist.auction.skipped": ("card",),
    "fist.bid.sealed": ("seat",),
    "fist.bid.own": ("seat", "fairy", "common", "black", "amulet"),
    "fist.bid.revealed": ("seat", "fairy", "common", "black", "amulet", "value"),
    "fist.auction.cursed": ("card",),
    "fist.auction.passed": ("card",),
    "fist.auction.tie": ("seats", "value"),
    "fist.tiebreak.sealed": ("seat",),
    "fist.tiebreak.own": ("seat", "silver", "amulet"),
    "fist.tiebreak.revealed": ("seat", "silver", "amulet", "value"),
    "fist.tiebreak.no_winner": ("card",),
    "fist.auction.won": ("seat", "card"),
    "fist.score.points": ("seat", "points", "score"),
    # powers (F6, F7)
    "fist.gain.fairy": ("seat", "n"),
    "fist.gain.common": ("seat", "n"),
    "fist.gain.silver": ("seat", "n"),
    "fist.gain.amulet": ("seat", "n"),
    "fist.gain.black": ("seat", "n"),
    "fist.gain.stones": ("seat", "colour", "n"),
    "fist.power.paid_stones": ("seat", "red", "blue", "yellow"),
    "fist.doppelganger.played": ("seat", "card"),
    "fist.doppelganger.kept": ("seat",),
    "fist.doppelganger.discarded": ("seat",),
    "fist.thief.stone": ("seat", "victim", "colour"),
    "fist.thief.coin": ("seat", "victim"),
    "fist.thief.coin_taken": ("seat", "victim", "coin"),
    "fist.brigand.chose": ("seat", "victim"),
    "fist.brigand.handed": ("seat", "victim", "common", "silver"),
    "fist.ghost.copied": ("seat", "card"),
    "fist.imp.played": ("seat", "card"),
    "fist.goblin.drew": ("seat", "card"),
    "fist.merchant.bought": ("seat", "colour", "coin", "price"),
    "fist.necromancer.paid": ("seat", "fairy"),
    "fist.necromancer.declined": ("seat",),
    "fist.quack.paid": ("seat", "red", "blue", "yellow"),
    "fist.troll.named": ("seat", "colour"),
    "fist.troll.returned": ("seat", "colour", "n"),
    "fist.rainbow.named": ("seat", "colour"),
    "fist.rainbow.drawn": ("seat", "colour"),
    "fist.rainbow.bust": ("seat", "colour"),
    "fist.rainbow.kept": ("seat", "red", "blue", "yellow"),
    "fist.bag.drawn": ("seat", "colour"),
    # the end (F5.9, F5.10)
    "fist.end.points_reached": ("seat", "points"),
    "fist.end.turn_limit": ("turns", "seats"),
    "fist.end.stopped": ("turn", "seats"),
}

#: codes of events that go to one seat only (a secret, F8); each has a public twin
PRIVATE = frozenset({"fist.bid.own", "fist.tiebreak.own", "fist.thief.coin_taken",
                     "fist.brigand.handed"})

#: A stored node as the engine appends it: ``(code, to, *values)`` for one event, or, for
#: the sealed bids (the hot path), one node per auction and one per tie-break, stored at the
#: reveal: ``(REVEAL, card, history, start, end)`` and ``(REVEAL_SILVER, card, history, start,
#: end, tied)``, where ``history[start:end]`` are the submits, the ``(seat, bid)`` in the
#: order they were handed in (``history``: the game's record, which only ever grows, so the
#: node need not copy them). An auction's node
#: holds, in order: the card up for auction; for each submit the public "sealed" event and
#: the seat's own bid (to that seat only); one "revealed" event per seat; the result
#: (cursed, passed, tie or won, F5.4-F5.6). A tie-break's: the submits, the revealed Silver
#: bids of the tied seats, and won or no_winner (F5.7). Until the reveal, the state derives
#: these events from its history.
Compact = tuple[Any, ...]
REVEAL = 1
REVEAL_SILVER = 2


def count(node: Event | Compact) -> int:
    """How many events a stored node holds."""
    if isinstance(node, Event) or type(node[0]) is str:
        return 1
    submits: int = node[4] - node[3]
    return 3 * submits + (2 if node[0] == REVEAL else 1)


def submit_events(submits: Sequence[tuple[int, Any]]) -> list[Event]:
    """The events of sealed bids handed in: "p2 has bid" to all, the bid to p2 (F8)."""
    out: list[Event] = []
    for seat, bid in submits:
        if bid.kind == 0:  # Kind.BID
            out.append(Event("fist.bid.sealed", {"seat": seat}))
            out.append(Event("fist.bid.own", {"seat": seat, "fairy": bid.fairy,
                                              "common": bid.common, "black": int(bid.black),
                                              "amulet": int(bid.amulet)}, seat))
        else:
            out.append(Event("fist.tiebreak.sealed", {"seat": seat}))
            out.append(Event("fist.tiebreak.own", {"seat": seat, "silver": bid.silver,
                                                   "amulet": int(bid.amulet)}, seat))
    return out


def _auction(card: str, submits: Sequence[tuple[int, Any]]) -> list[Event]:
    out = [Event("fist.auction.card", {"card": card}), *submit_events(submits)]
    bids = sorted(submits, key=lambda sb: sb[0])
    values = [b.value for _, b in bids]  # F5.2
    out.extend(Event("fist.bid.revealed", {"seat": s, "fairy": b.fairy, "common": b.common,
                                           "black": int(b.black), "amulet": int(b.amulet),
                                           "value": v})
               for (s, b), v in zip(bids, values, strict=True))
    top = max(values)
    if any(b.black for _, b in bids):  # F5.4
        out.append(Event("fist.auction.cursed", {"card": card}))
    elif top == 0:  # F5.5
        out.append(Event("fist.auction.passed", {"card": card}))
    elif values.count(top) == 1:  # F5.6
        out.append(Event("fist.auction.won", {"seat": values.index(top), "card": card}))
    else:  # F5.7
        out.append(Event("fist.auction.tie", {"seats": [s for s, v in enumerate(values)
                                                        if v == top], "value": top}))
    return out


def _tiebreak(card: str, submits: Sequence[tuple[int, Any]], tied: Sequence[int]) -> list[Event]:
    out = submit_events(submits)
    bids = dict(submits)
    values = [bids[s].value for s in tied]
    out.extend(Event("fist.tiebreak.revealed", {"seat": s, "silver": bids[s].silver,
                                                "amulet": int(bids[s].amulet), "value": v})
               for s, v in zip(tied, values, strict=True))
    top = max(values)
    if values.count(top) == 1:
        out.append(Event("fist.auction.won", {"seat": tied[values.index(top)], "card": card}))
    else:
        out.append(Event("fist.tiebreak.no_winner", {"card": card}))
    return out


def expand(node: Event | Compact) -> list[Event]:
    """The events of a stored node, oldest first."""
    if isinstance(node, Event):
        return [node]
    tag = node[0]
    if type(tag) is str:
        return [Event(tag, dict(zip(PARAMS[tag], node[2:], strict=True)), node[1])]
    if tag == REVEAL:
        return _auction(node[1], node[2][node[3]:node[4]])
    return _tiebreak(node[1], node[2][node[3]:node[4]], node[5])


def events_since(chain: Any, total: int, since: int = 0) -> list[Event]:
    """The events with ``seq >= since`` of a chain of stored nodes holding ``total`` events,
    oldest first."""
    want = total - max(since, 0)
    if want <= 0:
        return []
    nodes = []
    got = 0
    while got < want:
        node, chain = chain
        nodes.append(node)
        got += count(node)
    out: list[Event] = []
    for node in reversed(nodes):
        out.extend(expand(node))
    return out[got - want:]


# ---------------------------------------------------------------------------- views
class FrozenDict(dict[str, Any]):
    """A dict that refuses changes: the events of views are shared between views (built once,
    handed out many times), so a reader scribbling on one cannot change another's. It is a
    ``dict`` for ``json``, pydantic and ``==``; ``copy``/``deepcopy`` give plain dicts."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("the events of a view are read-only (copy them to change them)")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _refuse
    __ior__ = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        import copy

        return {k: copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self) -> Any:
        return (dict, (dict(self),))


class FrozenList(list[Any]):
    """A list that refuses changes (see :class:`FrozenDict`)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("the events of a view are read-only (copy them to change them)")

    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = _refuse
    sort = reverse = __iadd__ = __imul__ = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        import copy

        return [copy.deepcopy(v, memo) for v in self]

    def __reduce__(self) -> Any:
        return (list, (list(self),))


def _frozen(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return FrozenList(_frozen(v) for v in value)
    if isinstance(value, dict):
        return FrozenDict({k: _frozen(v) for k, v in value.items()})
    return value


_NESTED = (list, tuple, dict)


def event_json(seq: int, event: Event) -> FrozenDict:
    """An event as a view holds it: ``{"seq", "code", "params"[, "to"]}``, read-only."""
    params = event.params
    for v in params.values():
        if isinstance(v, _NESTED):
            params = _frozen(params)
            break
    else:
        params = FrozenDict(params)
    to = event.to
    if to is None:
        return FrozenDict(seq=seq, code=event.code, params=params)
    return FrozenDict(seq=seq, code=event.code, params=params, to=to)


class _Run:
    """Events as JSON up to a chain head: ``items[:total]`` hold them (seq = place)."""

    __slots__ = ("head", "items", "total")

    def __init__(self, head: Any, total: int, items: list[tuple[int | None, FrozenDict]]) -> None:
        self.head, self.total, self.items = head, total, items


class ViewCache:
    """The stored events of a game as read-only JSON, built once per event and extended
    incrementally: a view costs the events new since the last view, not the whole game.
    Shared by a state and its clones: each run remembers the chain head it was built for,
    so a clone that went another way rebuilds (and never changes what another run holds)."""

    __slots__ = ("by_seat", "run")

    def __init__(self) -> None:
        self.run: _Run | None = None
        #: seat -> (chain head, event count, seqs, events, how many of them) of what that
        #: seat may see; the lists are extended in place by the next run of that seat (as
        #: _Run's items are), so only the first ``how many`` belong to this entry
        self.by_seat: dict[int | None,
                           tuple[Any, int, list[int], list[FrozenDict], int]] = {}

    def _all(self, chain: Any, total: int) -> list[tuple[int | None, FrozenDict]]:
        run = self.run
        if run is not None and run.head is chain:
            return run.items
        nodes = []
        link = chain
        known = run.head if run is not None else None
        while link is not None and link is not known:
            nodes.append(link[0])
            link = link[1]
        if run is None or (link is None and known is not None):
            items: list[tuple[int | None, FrozenDict]] = []
        elif len(run.items) == run.total:
            items = run.items  # extend in place: nobody has gone further on this list
        else:
            items = run.items[:run.total]
        seq = len(items)
        for node in reversed(nodes):
            for event in expand(node):
                items.append((event.to, event_json(seq, event)))
                seq += 1
        assert seq == total
        self.run = _Run(chain, total, items)
        return items

    def events(self, chain: Any, total: int, seat: int | None) -> tuple[list[int],
                                                                       list[FrozenDict], int]:
        """What ``seat`` may see of the events up to ``chain`` (``total`` of them): their
        seqs and the events, valid up to the count returned (the lists are extended in place
        by later calls: read them at once, up to that count, and never hand them out)."""
        got = self.by_seat.get(seat)
        if got is not None and got[0] is chain:
            return got[2], got[3], got[4]
        items = self._all(chain, total)
        if got is not None and got[1] <= total and self._extends(chain, got[0]):
            start, seqs, out = got[1], got[2], got[3]
            if len(seqs) != got[4]:  # another run went further on these lists: branch off
                seqs, out = seqs[:got[4]], out[:got[4]]
        else:
            start, seqs, out = 0, [], []
        for seq in range(start, total):
            to, event = items[seq]
            if to is None or to == seat:
                seqs.append(seq)
                out.append(event)
        n = len(seqs)
        self.by_seat[seat] = (chain, total, seqs, out, n)
        return seqs, out, n

    @staticmethod
    def _extends(chain: Any, older: Any) -> bool:
        link = chain
        while link is not None:
            if link is older:
                return True
            link = link[1]
        return older is None


#: the choice code of each decision action kind (:class:`dragonlair.games.fist.actions.Kind`)
_CHOICE_CODES = {2: "fist.choice.pay", 3: "fist.choice.take", 4: "fist.choice.colour",
                 6: "fist.choice.target", 7: "fist.choice.pick", 8: "fist.choice.buy",
                 9: "fist.choice.done", 10: "fist.choice.accept", 11: "fist.choice.decline",
                 12: "fist.choice.draw", 13: "fist.choice.stop", 14: "fist.choice.double",
                 15: "fist.choice.single"}
_COLOURS = ("red", "blue", "yellow")
_CURRENCIES = ("common", "fairy", "silver")


#: the things a gain gives, in the order they are named (a reward's ``gain`` param)
_GAIN_FIELDS = ("fairy", "common", "silver", "amulet", "black")


def gain_json(gain: Any) -> dict[str, int]:
    """What a :class:`~dragonlair.games.fist.powers.Gain` gives, its non-zero amounts by
    name (``{"silver": 3}``; stones as ``red``, ``blue``, ``yellow``), for words on screen."""
    out = {k: int(getattr(gain, k)) for k in _GAIN_FIELDS if getattr(gain, k)}
    out.update((c, int(n)) for c, n in zip(_COLOURS, gain.stones, strict=True) if n)
    return out


def choice_json(action: Any, card: str, card_ids: Sequence[str],
                step: Any = None) -> dict[str, Any]:
    """One option of a power decision for a user interface: its action text and index,
    and a code with params to show it (``fist.choice.*``). ``step``: the power step asked
    about (a Choice: its ``take`` option names the reward, ``gain``: ``{"silver": 3}``)."""
    kind = int(action.kind)
    params: dict[str, Any]
    if kind == 5:  # steal
        if action.colour is not None:
            code, params = "fist.choice.steal_stone", {"victim": action.seat,
                                                       "colour": _COLOURS[action.colour]}
        else:
            code, params = "fist.choice.steal_coin", {"victim": action.seat}
    else:
        code = _CHOICE_CODES[kind]
        if kind == 2:
            red, blue, yellow = action.stones
            params = {"red": red, "blue": blue, "yellow": yellow}
        elif kind == 3:
            params = {"card": card}
            alternative = getattr(step, "alternative", None)
            if alternative is not None:  # the other reward, named (issue 25)
                params["gain"] = gain_json(alternative)
        elif kind == 4:
            params = {"colour": _COLOURS[action.colour]}
        elif kind == 6:
            params = {"victim": action.seat}
        elif kind == 7:
            params = {"card": card_ids[action.card]}
        elif kind == 8:
            params = {"colour": _COLOURS[action.colour], "coin": _CURRENCIES[action.currency]}
        elif kind == 14:
            params = {"card": card}
        else:
            params = {}
    return {"action": str(action), "index": action.index, "code": code, "params": params}
