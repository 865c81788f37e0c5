"""Custom characters (F9): declared as data, composed from the built-in power primitives.

A character file (TOML or JSON) holds a list ``character`` of tables::

    [[character]]
    id = "moneylender"            # lower-case letters, digits and '-'
    count = 1                     # copies shuffled into the special deck
    name = { en = "Moneylender", de = "Geldverleiher" }
    text = { en = "...", de = "..." }   # optional: described from the power when absent
    power = [ { gain = { common = 2 } } ]

Each power step is a table with exactly one key naming a primitive (see
docs/custom-characters.md). The parsed data, not the file's path, is what a table option
and a game record hold, so records replay anywhere.

A missing or empty ``text`` (or ``text.de``) is the power described in words
(:mod:`dragonlair.games.fist.describe`); a missing ``name.de`` is the English name.
:func:`normalize` writes a character with all of these filled in, and :func:`primitives`
lists what an editor may offer, from the same limits the checks here use.
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

#: what a character's id must match
ID_PATTERN = r"^[a-z][a-z0-9-]{0,30}$"
_ID = re.compile(ID_PATTERN)
#: the order of a gain's keys (coins, then the stones by colour)
GAIN_KEYS = ("fairy", "common", "silver", "amulet", "black", "red", "blue", "yellow")
_GAIN_KEYS = set(GAIN_KEYS)
#: the bounds of every number a character holds: (least, most, default)
COUNT = (1, 4, 1)            # copies in the special deck
GAIN = (0, 12, 0)            # each kind a gain gives
STONE_CHOICE = (1, 6, 1)     # gain_stone_choice
PAY_COUNT = (1, 12, 2)       # pay_stones count (the default is the editor's)
POINTS = (1, 3, 1)           # points of pay_stones, necromancer, pay_all_stones
PRICE = (0, 9, 0)            # a buy_stones price (0: not accepted)
BAG = (1, 12, 2)             # bag_draw per_colour and draws
PATTERNS = ("any", "same", "each")
TAKE_KINDS = ("common", "silver")
PLAY_HOW = ("random", "choose")
#: the most steps a power may have; the longest name and text (characters)
MAX_STEPS = 12
MAX_NAME = 200
MAX_TEXT = 1000


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
        return load_text(text, ".toml", f"{ref}.toml")
    path = Path(ref)
    if not path.is_file():
        raise OptionError("fist.custom.no_file", rule="F9", file=shown(ref),
                          examples=example_names())
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise OptionError("fist.custom.unreadable", rule="F9", file=str(path)) from None
    return load_text(text, path.suffix.lower(), str(path))


def load_text(text: str, suffix: str, source: str) -> list[dict[str, Any]]:
    """Characters from the text of a file: JSON when ``suffix`` is ``.json``, else TOML;
    ``source`` names the file in errors. Each character is checked (:func:`card_from_data`)
    and returned as it was written."""
    try:
        data: Any = json.loads(text) if suffix == ".json" else tomllib.loads(text)
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
    n = {k: _int(d, k, at, *GAIN) for k in GAIN_KEYS}
    if not any(n.values()):
        raise _bad("gain_nothing", at)
    return pw.Gain(fairy=n["fairy"], common=n["common"], silver=n["silver"], amulet=n["amulet"],
                   black=n["black"], stones=(n["red"], n["blue"], n["yellow"]))


def _pay(d: Any, at: At) -> pw.PayStones:
    if not isinstance(d, dict):
        raise _bad("pay_stones", at)
    count = _int(d, "count", at, PAY_COUNT[0], PAY_COUNT[1], 0)
    pattern = d.get("pattern", "any")
    if pattern not in PATTERNS:
        raise _bad("pattern", at, value=shown(pattern))
    if pattern == "each" and count % 3:
        raise _bad("pattern_each", at, count=count)
    return pw.PayStones(count, pattern, _int(d, "points", at, *POINTS))


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
            return pw.GainStoneChoice(_int(raw, key, at, *STONE_CHOICE))
        case "pay_stones":
            return _pay(val, at)
        case "steal_from_second":
            return pw.StealSecond()
        case "take_all_from":
            if not isinstance(val, list) or not val or any(k not in TAKE_KINDS for k in val):
                raise _bad("take_all_from", at)
            return pw.TakeAllFrom(common="common" in val, silver="silver" in val)
        case "copy_auctioned":
            return pw.CopyAuctioned()
        case "play_unauctioned":
            if val not in PLAY_HOW:
                raise _bad("play_unauctioned", at)
            return pw.PlayUnauctioned(choose=val == "choose")
        case "buy_stones":
            prices = val if isinstance(val, dict) else {}
            if set(prices) - {"common", "fairy", "silver"} or not prices:
                raise _bad("buy_stones", at)
            return pw.BuyStones(*(_int(prices, m, at, *PRICE)
                                  for m in ("common", "fairy", "silver")))
        case "necromancer":
            return pw.Necromancer(_int(raw, key, at, *POINTS))
        case "pay_all_stones":
            return pw.PayAllStones(_int(raw, key, at, *POINTS))
        case "push_your_luck":
            return pw.PushYourLuck()
        case "lose_colour":
            return pw.LoseColour()
        case "bag_draw":
            d = val if isinstance(val, dict) else {}
            return pw.BagDraw(_int(d, "per_colour", at, *BAG), _int(d, "draws", at, *BAG))
    raise _bad("unknown_primitive", at, primitive=shown(key))


def _words(d: dict[str, Any], key: str, at: At, most: int) -> tuple[str, str] | None:
    """The English and German of ``name``/``text`` (``None``: absent), each checked: a table
    of strings, none longer than ``most``; an empty string counts as absent."""
    value = d.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _bad(f"no_{key}", at)
    out: list[str] = []
    for lang in ("en", "de"):
        s = value.get(lang)
        if s is None:
            s = ""
        if not isinstance(s, str):
            raise _bad(f"no_{key}", at)
        if len(s) > most:
            raise _bad("too_long", at, key=f"{key}.{lang}", max=most)
        out.append(s.strip())
    return out[0], out[1]


def _power(d: dict[str, Any], at: At) -> tuple[pw.Step, ...]:
    steps = d.get("power")
    if not isinstance(steps, list) or not steps:
        raise _bad("no_power", at)
    if len(steps) > MAX_STEPS:
        raise _bad("too_many_steps", at, max=MAX_STEPS, value=len(steps))
    return tuple(_step(s, {**at, "step": i + 1}) for i, s in enumerate(steps))


def check_power(steps: Any, cid: str = "power") -> tuple[pw.Step, ...]:
    """The steps of a power's data, checked as :func:`card_from_data` checks them (the same
    ``fist.custom.*`` codes, naming ``cid``)."""
    return _power({"power": steps}, {"id": cid, "step": 0})


def card_from_data(d: Any) -> Card:
    """A :class:`Card` from one character's data, or an :class:`OptionError` with a code
    (``fist.custom.*``) that names the character and the step. A missing or empty text is
    the power described (:func:`dragonlair.games.fist.describe.describe_steps`), a missing
    German name the English one."""
    from dragonlair.games.fist.describe import describe_steps

    if not isinstance(d, dict):
        raise OptionError("fist.custom.not_a_table", rule="F9")
    cid = d.get("id")
    if not isinstance(cid, str) or not _ID.match(cid):
        raise OptionError("fist.custom.bad_id", rule="F9", value=shown(cid))
    at: At = {"id": cid, "step": 0}
    if cid in {c.id for c in BUILTIN}:
        raise _bad("builtin_id", at)
    name = _words(d, "name", at, MAX_NAME)
    if name is None or not name[0]:
        raise _bad("no_name", at)
    text = _words(d, "text", at, MAX_TEXT) or ("", "")
    power = _power(d, at)
    count = _int(d, "count", at, *COUNT)
    text_en = text[0] or describe_steps(power, "en")
    text_de = text[1] or describe_steps(power, "de")
    return Card(cid, name[0], name[1] or name[0], count, False, text_en, text_de, power,
                custom=True)


def normalize(d: Any) -> dict[str, Any]:
    """One character's data checked (:func:`card_from_data`) and written out in full:
    ``id``, ``count``, ``name`` and ``text`` in English and German (filled in as the card
    has them), and the power's steps as :func:`~dragonlair.games.fist.snapshot.step_data`
    writes them. Normalizing a normalized character changes nothing."""
    from dragonlair.games.fist.snapshot import step_data

    card = card_from_data(d)
    return {"id": card.id, "count": card.count,
            "name": {"en": card.name_en, "de": card.name_de},
            "text": {"en": card.text_en, "de": card.text_de},
            "power": [step_data(s) for s in card.power]}


def _number(name: str, bounds: tuple[int, int, int]) -> dict[str, Any]:
    return {"name": name, "kind": "int", "min": bounds[0], "max": bounds[1],
            "default": bounds[2]}


def primitives() -> list[dict[str, Any]]:
    """The power primitives an editor may offer, each with the fields it asks for (the
    bounds are the ones :func:`card_from_data` checks). A field is ``{"name", "kind": "int",
    "min", "max", "default"}``, ``{"name", "kind": "choice", "choices", "default"}`` or
    ``{"name", "kind": "multi", "choices", "default"}`` (a subset, at least one).

    From the fields to a power step (docs/custom-characters.md):

    - no fields (``steal_from_second``, ``copy_auctioned``, ``push_your_luck``,
      ``lose_colour``): ``{name: true}``;
    - one field ``value`` (``gain_stone_choice``, ``necromancer``, ``pay_all_stones``):
      ``{name: value}``;
    - ``take_all_from`` (field ``kinds``): ``{"take_all_from": kinds}``;
      ``play_unauctioned`` (field ``how``): ``{"play_unauctioned": how}``;
    - ``either`` (``groups``: the fields of ``pay_stones`` and of ``gain``):
      ``{"either": {"pay_stones": {...}}, "or": {"gain": {...}}}``;
    - any other (``gain``, ``pay_stones``, ``buy_stones``, ``bag_draw``): ``{name: {field:
      value, ...}}``; a gain leaves out its zeros and gives at least one thing, and a
      ``pay_stones`` with pattern ``each`` needs a count divisible by 3.
    """
    gain = [_number(k, GAIN) for k in GAIN_KEYS]
    pay = [_number("count", PAY_COUNT),
           {"name": "pattern", "kind": "choice", "choices": list(PATTERNS), "default": "any"},
           _number("points", POINTS)]
    return [
        {"name": "gain", "fields": gain},
        {"name": "gain_stone_choice", "fields": [_number("value", STONE_CHOICE)]},
        {"name": "pay_stones", "fields": pay},
        {"name": "either", "groups": {"pay_stones": pay, "gain": gain}},
        {"name": "steal_from_second", "fields": []},
        {"name": "take_all_from", "fields": [{"name": "kinds", "kind": "multi",
                                              "choices": list(TAKE_KINDS),
                                              "default": list(TAKE_KINDS)}]},
        {"name": "copy_auctioned", "fields": []},
        {"name": "play_unauctioned", "fields": [{"name": "how", "kind": "choice",
                                                 "choices": list(PLAY_HOW),
                                                 "default": PLAY_HOW[0]}]},
        {"name": "buy_stones", "fields": [_number("common", (PRICE[0], PRICE[1], 1)),
                                          _number("fairy", (PRICE[0], PRICE[1], 1)),
                                          _number("silver", (PRICE[0], PRICE[1], 3))]},
        {"name": "necromancer", "fields": [_number("value", POINTS)]},
        {"name": "pay_all_stones", "fields": [_number("value", POINTS)]},
        {"name": "push_your_luck", "fields": []},
        {"name": "lose_colour", "fields": []},
        {"name": "bag_draw", "fields": [_number("per_colour", BAG), _number("draws", BAG)]},
    ]


def limits() -> dict[str, Any]:
    """The limits of a character an editor shows: copies, steps, the id's pattern."""
    return {"count": [COUNT[0], COUNT[1]], "steps": MAX_STEPS, "id_pattern": ID_PATTERN,
            "name": MAX_NAME, "text": MAX_TEXT}
