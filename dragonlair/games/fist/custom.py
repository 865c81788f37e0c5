"""Custom characters (F9): declared as data, composed from the built-in power primitives.

A character file (TOML or JSON) holds a list ``character`` of tables::

    [[character]]
    id = "moneylender"            # lower-case letters, digits and '-'
    count = 1                     # copies shuffled into the special deck
    name = { en = "Moneylender", de = "Geldverleiher" }
    text = { en = "...", de = "..." }
    power = [ { gain = { common = 2 } } ]

Each power step is a table with exactly one key naming a primitive (see
docs/custom-characters.md). The parsed data, not the file's path, is what a table option
and a game record hold, so records replay anywhere.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from dragonlair.core.errors import OptionError, shown
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.cards import BUILTIN, Card

_ID = re.compile(r"^[a-z][a-z0-9-]{0,30}$")
_GAIN_KEYS = {"fairy", "common", "silver", "amulet", "black", "red", "blue", "yellow"}


def example_names() -> list[str]:
    """The custom-character files shipped with the package."""
    folder = resources.files("dragonlair.games.fist") / "examples"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                  if p.name.endswith(".toml"))


def load_file(ref: str) -> list[dict[str, Any]]:
    """Characters from a TOML/JSON file path, or a shipped example by name."""
    if ref in example_names():
        folder = resources.files("dragonlair.games.fist") / "examples"
        text = (folder / f"{ref}.toml").read_text(encoding="utf-8")
        source = f"{ref}.toml"
        path_suffix = ".toml"
    else:
        path = Path(ref)
        if not path.is_file():
            raise OptionError("fist.custom.no_file", rule="F9", file=shown(ref),
                              examples=example_names())
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            raise OptionError("fist.custom.unreadable", rule="F9", file=str(path)) from None
        source = str(path)
        path_suffix = path.suffix.lower()
    try:
        data: Any = json.loads(text) if path_suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise OptionError("fist.custom.does_not_parse", rule="F9", file=source,
                          detail=str(exc)) from None
    except (ValueError, RecursionError):
        raise OptionError("fist.custom.does_not_parse", rule="F9", file=source,
                          detail="") from None
    chars = data.get("character") if isinstance(data, dict) else data
    if not isinstance(chars, list) or not chars:
        raise OptionError("fist.custom.no_characters", rule="F9", file=source)
    for c in chars:
        card_from_data(c)  # validate now
    return [dict(c) for c in chars]


#: Where in a character an error is: its id and the step number (0: the character itself).
At = dict[str, Any]


def _bad(code: str, at: At, **params: Any) -> OptionError:
    return OptionError(f"fist.custom.{code}", rule="F9", **at, **params)


def _int(d: Mapping[str, Any], key: str, at: At, lo: int, hi: int, default: int) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _bad("number", at, key=key, min=lo, max=hi, value=shown(v))
    return v


def _gain(d: Any, at: At) -> pw.Gain:
    if not isinstance(d, dict) or not d or set(d) - _GAIN_KEYS:
        raise _bad("gain_keys", at, keys=sorted(_GAIN_KEYS))
    n = {k: _int(d, k, at, 0, 12, 0) for k in _GAIN_KEYS}
    return pw.Gain(fairy=n["fairy"], common=n["common"], silver=n["silver"], amulet=n["amulet"],
                   black=n["black"], stones=(n["red"], n["blue"], n["yellow"]))


def _pay(d: Any, at: At) -> pw.PayStones:
    if not isinstance(d, dict):
        raise _bad("pay_stones", at)
    count = _int(d, "count", at, 1, 12, 0)
    pattern = d.get("pattern", "any")
    if pattern not in ("any", "same", "each"):
        raise _bad("pattern", at, value=shown(pattern))
    if pattern == "each" and count % 3:
        raise _bad("pattern_each", at, count=count)
    return pw.PayStones(count, pattern, _int(d, "points", at, 1, 3, 1))


def _step(raw: Any, at: At) -> pw.Step:
    if not isinstance(raw, dict) or not raw:
        raise _bad("step_table", at)
    if set(raw) == {"either", "or"}:
        either, orelse = raw["either"], raw["or"]
        if not (isinstance(either, dict) and set(either) == {"pay_stones"}
                and isinstance(orelse, dict) and set(orelse) == {"gain"}):
            raise _bad("either_or", at)
        return pw.Choice(_pay(either["pay_stones"], at), _gain(orelse["gain"], at))
    if len(raw) != 1:
        raise _bad("one_primitive", at, keys=sorted(str(k) for k in raw))
    (key, val), = raw.items()
    match key:
        case "gain":
            return _gain(val, at)
        case "gain_stone_choice":
            return pw.GainStoneChoice(_int(raw, key, at, 1, 6, 1))
        case "pay_stones":
            return _pay(val, at)
        case "steal_from_second":
            return pw.StealSecond()
        case "take_all_from":
            kinds = set(val) if isinstance(val, list) else set()
            if not kinds or kinds - {"common", "silver"}:
                raise _bad("take_all_from", at)
            return pw.TakeAllFrom(common="common" in kinds, silver="silver" in kinds)
        case "copy_auctioned":
            return pw.CopyAuctioned()
        case "play_unauctioned":
            if val not in ("random", "choose"):
                raise _bad("play_unauctioned", at)
            return pw.PlayUnauctioned(choose=val == "choose")
        case "buy_stones":
            prices = val if isinstance(val, dict) else {}
            if set(prices) - {"common", "fairy", "silver"} or not prices:
                raise _bad("buy_stones", at)
            return pw.BuyStones(*(_int(prices, m, at, 0, 9, 0)
                                  for m in ("common", "fairy", "silver")))
        case "necromancer":
            return pw.Necromancer(_int(raw, key, at, 1, 3, 1))
        case "pay_all_stones":
            return pw.PayAllStones(_int(raw, key, at, 1, 3, 1))
        case "push_your_luck":
            return pw.PushYourLuck()
        case "lose_colour":
            return pw.LoseColour()
        case "bag_draw":
            d = val if isinstance(val, dict) else {}
            return pw.BagDraw(_int(d, "per_colour", at, 1, 12, 2),
                              _int(d, "draws", at, 1, 12, 2))
    raise _bad("unknown_primitive", at, primitive=shown(key))


def card_from_data(d: Any) -> Card:
    """A :class:`Card` from one character's data, or an :class:`OptionError` with a code
    (``fist.custom.*``) that names the character and the step."""
    if not isinstance(d, dict):
        raise OptionError("fist.custom.not_a_table", rule="F9")
    cid = d.get("id")
    if not isinstance(cid, str) or not _ID.match(cid):
        raise OptionError("fist.custom.bad_id", rule="F9", value=shown(cid))
    at: At = {"id": cid, "step": 0}
    if cid in {c.id for c in BUILTIN}:
        raise _bad("builtin_id", at)
    name, text = d.get("name"), d.get("text")
    if not (isinstance(name, dict) and isinstance(name.get("en"), str)):
        raise _bad("no_name", at)
    if not (isinstance(text, dict) and isinstance(text.get("en"), str)):
        raise _bad("no_text", at)
    steps = d.get("power")
    if not isinstance(steps, list) or not steps:
        raise _bad("no_power", at)
    power = tuple(_step(s, {"id": cid, "step": i + 1}) for i, s in enumerate(steps))
    count = _int(d, "count", at, 1, 4, 1)
    return Card(cid, name["en"], str(name.get("de", name["en"])), count, False, text["en"],
                str(text.get("de", text["en"])), power, custom=True)
