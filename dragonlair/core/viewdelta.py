"""View deltas: what changed between two views, as a patch (docs/protocol.md, "Deltas"), and
its application. The server (``dragonlair.server.table``) sends an
``update`` as a delta to a client that asked for the ``delta`` feature in its ``hello``; the
Python client (``dragonlair.client.client``) and the browser's (``web/src/lib/protocol.ts``)
apply it to the view they hold. Applying ``diff(old, new)`` to ``old`` gives ``new``, exactly.

A delta is a JSON object, the *patch* of the view (an object). Each key of a patch names a
key of the object at that place (or, where the place holds a list, an index, in decimal), and
its value says what becomes of it:

- an object: a patch of the object or list held there (the same rules, one level down);
- ``[value]``: it becomes ``value`` (a key of an object may be new);
- ``[]``: the key is removed from its object;
- ``[at, items]``: the list held there keeps its first ``at`` items and ``items`` follow (a
  list that only grew, a game's record, is sent as its new tail).

Before a delta is applied, the view held is :func:`rebased`: its ``events_since`` becomes its
``events_total`` (the events of the next update begin where the last ones ended), so that
the delta names ``events_since`` only when that is not so. A delta that does not fit the view
held (a key or index missing, ``at`` beyond the list) raises :class:`DeltaMismatch`: the
client missed something and asks for the whole view again (``resume``).

Pure standard library: both the server and the client import it.
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

#: the feature a client names in ``hello.features`` to be sent deltas
FEATURE = "delta"


class DeltaMismatch(ValueError):
    """A delta does not fit the view held (a key or index missing, a list too short)."""


def rebased(view: JSON) -> JSON:
    """The view a delta applies to: ``view`` with ``events_since`` = ``events_total`` (when
    it has both; a new object, ``view`` is not changed)."""
    since, total = view.get("events_since"), view.get("events_total")
    if isinstance(since, int) and isinstance(total, int) and since != total:
        return {**view, "events_since": total}
    return view


def diff(old: JSON, new: JSON) -> JSON:
    """The patch that turns the object ``old`` into ``new`` (``{}``: equal). The server
    sends ``diff(rebased(held), view)``."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        raise TypeError("a delta is between two views (JSON objects)")
    return _entry(old, new) or {}


def _same(a: Any, b: Any) -> bool:
    # 1 == True == 1.0 in Python, not in JSON: compare the types too
    return type(a) is type(b) and a == b


def _entry(old: Any, new: Any) -> Any:
    """What a patch says of a value that was ``old`` and is ``new`` (``None``: the same)."""
    if old is new or _same(old, new):
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        patch: JSON = {key: [] for key in old if key not in new}
        for key, value in new.items():
            if key in old:
                entry = _entry(old[key], value)
                if entry is not None:
                    patch[key] = entry
            else:
                patch[key] = [value]
        return patch or None
    if isinstance(old, list) and isinstance(new, list) and old and new:
        if len(old) == len(new):  # the same shape (a value per seat): item by item
            items = {str(i): e for i, (a, b) in enumerate(zip(old, new, strict=True))
                     if (e := _entry(a, b)) is not None}
            return items or None
        keep = 0
        for a, b in zip(old, new, strict=False):
            if not _same(a, b):
                break
            keep += 1
        if keep:
            return [keep, new[keep:]]
    return [new]


def apply(view: JSON, patch: JSON) -> JSON:
    """``view`` with ``patch`` applied (a new value: ``view`` itself is not changed; only the
    containers on the patched paths are copied)."""
    if not isinstance(view, dict) or not isinstance(patch, dict):
        raise DeltaMismatch("a delta is an object")
    out: JSON = _patch(view, patch)
    return out


def _patch(held: Any, patch: JSON) -> Any:
    if isinstance(held, dict):
        out: Any = dict(held)
    elif isinstance(held, list):
        out = list(held)
    else:
        raise DeltaMismatch("a patch of what is not an object or a list")
    for step, entry in patch.items():
        if isinstance(out, dict):
            key: str | int = step
            there = step in out
        else:
            key = int(step) if step.isascii() and step.isdigit() else -1
            there = 0 <= key < len(out)
        if isinstance(entry, dict):
            if not there:
                raise DeltaMismatch(f"no {step!r} in the view held")
            out[key] = _patch(out[key], entry)
        elif isinstance(entry, list) and len(entry) == 1:
            if not there and not isinstance(out, dict):
                raise DeltaMismatch(f"no index {step!r} in the list held")
            out[key] = entry[0]
        elif isinstance(entry, list) and not entry:
            if not there or not isinstance(out, dict):
                raise DeltaMismatch(f"no key {step!r} to remove")
            del out[key]
        elif isinstance(entry, list) and len(entry) == 2:
            at, items = entry
            have = out[key] if there else None
            if not isinstance(have, list) or not isinstance(at, int) or isinstance(at, bool) \
                    or not 0 <= at <= len(have) or not isinstance(items, list):
                raise DeltaMismatch(f"no list to extend at {step!r}")
            out[key] = have[:at] + items
        else:
            raise DeltaMismatch(f"not a patch entry at {step!r}")
    return out


def merge_update(view: Any, message: JSON) -> Any:
    """The view an ``update`` (or ``welcome``) leaves a client holding: its ``view`` when it
    carries one, else ``view`` rebased with its ``delta`` applied."""
    if "view" in message:
        return message["view"]
    patch = message.get("delta")
    if not isinstance(view, dict) or not isinstance(patch, dict):
        raise DeltaMismatch("a delta without a view to apply it to")
    return apply(rebased(view), patch)
