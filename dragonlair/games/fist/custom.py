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

from dragonlair.core.errors import OptionError
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
        source = f"example {ref}"
        path_suffix = ".toml"
    else:
        path = Path(ref)
        if not path.is_file():
            known = ", ".join(example_names())
            raise OptionError(f"custom characters: no file {ref!r} (shipped examples: {known})")
        text = path.read_text(encoding="utf-8")
        source = str(path)
        path_suffix = path.suffix.lower()
    try:
        data: Any = json.loads(text) if path_suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise OptionError(f"custom characters: {source} does not parse: {exc}") from None
    chars = data.get("character") if isinstance(data, dict) else data
    if not isinstance(chars, list) or not chars:
        raise OptionError(f"custom characters: {source} has no [[character]] entries")
    for c in chars:
        card_from_data(c)  # validate now, with the file named in the error
    return [dict(c) for c in chars]


def _int(d: Mapping[str, Any], key: str, where: str, lo: int, hi: int, default: int) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise OptionError(f"{where}: {key} must be a whole number from {lo} to {hi}, not {v!r}")
    return v


def _gain(d: Any, where: str) -> pw.Gain:
    if not isinstance(d, dict) or not d or set(d) - _GAIN_KEYS:
        raise OptionError(f"{where}: gain takes some of {', '.join(sorted(_GAIN_KEYS))}")
    n = {k: _int(d, k, where, 0, 12, 0) for k in _GAIN_KEYS}
    return pw.Gain(fairy=n["fairy"], common=n["common"], silver=n["silver"], amulet=n["amulet"],
                   black=n["black"], stones=(n["red"], n["blue"], n["yellow"]))


def _pay(d: Any, where: str) -> pw.PayStones:
    if not isinstance(d, dict):
        raise OptionError(f"{where}: pay_stones needs count, pattern and points")
    count = _int(d, "count", where, 1, 12, 0)
    pattern = d.get("pattern", "any")
    if pattern not in ("any", "same", "each"):
        raise OptionError(f"{where}: pattern must be 'any', 'same' or 'each', not {pattern!r}")
    if pattern == "each" and count % 3:
        raise OptionError(f"{where}: pattern 'each' needs a count divisible by 3")
    return pw.PayStones(count, pattern, _int(d, "points", where, 1, 3, 1))


def _step(raw: Any, where: str) -> pw.Step:
    if not isinstance(raw, dict) or not raw:
        raise OptionError(f"{where}: a power step is a table with one primitive")
    if set(raw) == {"either", "or"}:
        either, orelse = raw["either"], raw["or"]
        if not (isinstance(either, dict) and set(either) == {"pay_stones"}
                and isinstance(orelse, dict) and set(orelse) == {"gain"}):
            raise OptionError(f"{where}: 'either' must be a pay_stones and 'or' a gain")
        return pw.Choice(_pay(either["pay_stones"], where), _gain(orelse["gain"], where))
    if len(raw) != 1:
        raise OptionError(f"{where}: one primitive per step, got {', '.join(sorted(raw))}")
    (key, val), = raw.items()
    match key:
        case "gain":
            return _gain(val, where)
        case "gain_stone_choice":
            return pw.GainStoneChoice(_int(raw, key, where, 1, 6, 1))
        case "pay_stones":
            return _pay(val, where)
        case "steal_from_second":
            return pw.StealSecond()
        case "take_all_from":
            kinds = set(val) if isinstance(val, list) else set()
            if not kinds or kinds - {"common", "silver"}:
                raise OptionError(f"{where}: take_all_from lists 'common' and/or 'silver'")
            return pw.TakeAllFrom(common="common" in kinds, silver="silver" in kinds)
        case "copy_auctioned":
            return pw.CopyAuctioned()
        case "play_unauctioned":
            if val not in ("random", "choose"):
                raise OptionError(f"{where}: play_unauctioned is 'random' or 'choose'")
            return pw.PlayUnauctioned(choose=val == "choose")
        case "buy_stones":
            prices = val if isinstance(val, dict) else {}
            if set(prices) - {"common", "fairy", "silver"} or not prices:
                raise OptionError(f"{where}: buy_stones prices are common, fairy, silver")
            return pw.BuyStones(*(_int(prices, m, where, 0, 9, 0)
                                  for m in ("common", "fairy", "silver")))
        case "necromancer":
            return pw.Necromancer(_int(raw, key, where, 1, 3, 1))
        case "pay_all_stones":
            return pw.PayAllStones(_int(raw, key, where, 1, 3, 1))
        case "push_your_luck":
            return pw.PushYourLuck()
        case "lose_colour":
            return pw.LoseColour()
        case "bag_draw":
            d = val if isinstance(val, dict) else {}
            return pw.BagDraw(_int(d, "per_colour", where, 1, 12, 2),
                              _int(d, "draws", where, 1, 12, 2))
    raise OptionError(f"{where}: unknown primitive {key!r} (see docs/custom-characters.md)")


def card_from_data(d: Any) -> Card:
    """A :class:`Card` from one character's data, or a clear :class:`OptionError`."""
    if not isinstance(d, dict):
        raise OptionError("custom character: each entry must be a table")
    cid = d.get("id")
    if not isinstance(cid, str) or not _ID.match(cid):
        raise OptionError(f"custom character: id must be lower-case letters, digits and '-', "
                          f"not {cid!r}")
    where = f"custom character {cid!r}"
    if cid in {c.id for c in BUILTIN}:
        raise OptionError(f"{where}: that id belongs to a built-in card")
    name, text = d.get("name"), d.get("text")
    if not (isinstance(name, dict) and isinstance(name.get("en"), str)):
        raise OptionError(f"{where}: name needs at least an English name (name.en)")
    if not (isinstance(text, dict) and isinstance(text.get("en"), str)):
        raise OptionError(f"{where}: text needs at least an English text (text.en)")
    steps = d.get("power")
    if not isinstance(steps, list) or not steps:
        raise OptionError(f"{where}: power must be a list of one or more steps")
    power = tuple(_step(s, f"{where}, step {i + 1}") for i, s in enumerate(steps))
    count = _int(d, "count", where, 1, 4, 1)
    return Card(cid, name["en"], str(name.get("de", name["en"])), count, False, text["en"],
                str(text.get("de", text["en"])), power, custom=True)
