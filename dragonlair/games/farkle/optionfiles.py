"""Farkle's data options read from a player's file (a scoring table, D2; decks, D8.5), checked
entry by entry so that every bad entry is named, not just the first: each problem is the path
of the entry in the data (``("items", 2, "effect")``) and the game's refusal of it. The
server (:mod:`dragonlair.server.option_files`) turns a path into the file's line.

The checks are the game's own (:meth:`ScoringTable.from_json`, :func:`decks_from_data`) run on
each entry, plus the fields a card or a table may hold (a misspelt one would be dropped
silently otherwise)."""

from __future__ import annotations

from typing import Any

from dragonlair.core.errors import OptionError, shown
from dragonlair.games.farkle.cards import CardKind, _card_from_data, decks_from_data
from dragonlair.games.farkle.scoring import ScoringTable

Path = tuple[str | int, ...]
Problems = list[tuple[Path, OptionError]]

#: the fields of a card in a deck file (cards.py ``_card_from_data``)
CARD_FIELDS = ("id", "name", "text", "effect", "amount", "house", "count")
#: the field a refusal of a card is about, by code
_FIELD_OF = {"farkle.deck.card_needs_id": "id", "farkle.deck.card_effect": "effect",
             "farkle.deck.card_amount": "amount", "farkle.deck.card_count": "count"}


def _whole(v: Any) -> bool:
    return type(v) is int and v >= 0


def check_table(data: Any) -> Problems:
    """Each entry of a scoring table (D2): a known name, a whole number not below 0 (``triple``:
    six of them)."""
    if not isinstance(data, dict):
        return [((), OptionError("farkle.table.not_a_mapping", rule="D2"))]
    base = ScoringTable().to_json()
    out: Problems = []
    for key, value in data.items():
        if key not in base:
            out.append(((key,), OptionError("farkle.table.unknown", rule="D2",
                                            entries=[shown(key)])))
        elif key == "triple":
            if not (isinstance(value, list) and len(value) == 6 and all(map(_whole, value))):
                out.append(((key,), OptionError("farkle.table.shape", rule="D2")))
        elif not _whole(value):
            out.append(((key,), OptionError("farkle.table.not_whole", rule="D2")))
    if not out:
        try:
            ScoringTable.from_json(data)
        except OptionError as exc:
            out.append(((), exc))
    return out


def check_decks(data: Any) -> Problems:
    """Each card of a deck file (D8.5): its fields known, each checked as a table checks it,
    the ids unique."""
    if not isinstance(data, dict):
        return [((), OptionError("farkle.deck.keys", rule="D8.5"))]
    out: Problems = []
    for key in data:
        if key not in ("companions", "items"):
            out.append(((key,), OptionError("farkle.deck.keys", rule="D8.5")))
    seen: set[str] = set()
    for key, kind in (("companions", CardKind.COMPANION), ("items", CardKind.ITEM)):
        cards = data.get(key, [])
        if not isinstance(cards, list):
            out.append(((key,), OptionError("farkle.deck.not_a_list", rule="D8.5", key=key,
                                            value=shown(cards))))
            continue
        for i, card in enumerate(cards):
            if isinstance(card, dict):
                for name in card:
                    if name not in CARD_FIELDS:
                        out.append(((key, i, name), OptionError(
                            "server.option_file.unknown_field", rule="D8.5",
                            field=shown(name), fields=list(CARD_FIELDS))))
            try:
                _card_from_data(card, kind)
            except OptionError as exc:
                field = exc.params.get("field") or _FIELD_OF.get(exc.code)
                out.append(((key, i, field) if isinstance(field, str) else (key, i), exc))
                continue
            if card["id"] in seen:
                out.append(((key, i, "id"), OptionError("farkle.deck.ids_not_unique",
                                                        rule="D8.5")))
            seen.add(card["id"])
    if not out:
        try:
            decks_from_data(data)
        except OptionError as exc:
            out.append(((), exc))
    return out
