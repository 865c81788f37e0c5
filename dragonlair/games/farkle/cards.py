"""Companions and magic items (D8) as data: each card names one effect from a fixed set.

The seed's five cards are implemented as stated; the rest of both decks are house cards
(marked ``house``; listed in docs/rulings.md). A deck file may replace either deck: the
texts are the owner's, the effects come from :data:`COMPANION_EFFECTS` / :data:`ITEM_EFFECTS`.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from dragonlair.core.errors import OptionError, shown
from dragonlair.core.i18n import term


class CardKind(StrEnum):
    """The two decks (D8)."""

    COMPANION = "companion"
    ITEM = "item"


class CompanionEffect(StrEnum):
    """What a companion does (:data:`COMPANION_EFFECTS` words each one)."""

    IGNORE_DRAGON = "ignore_dragon"
    REROLL_ONE = "reroll_one"
    SCARE = "scare"
    BANK_BONUS = "bank_bonus"
    ATTACK_BONUS = "attack_bonus"
    DEFENCE_BONUS = "defence_bonus"
    BATTLE_DAMAGE = "battle_damage"
    BATTLE_LOSS_HALF = "battle_loss_half"
    FARKLE_KEEP_HALF = "farkle_keep_half"
    TREASURE = "treasure"


class ItemEffect(StrEnum):
    """What a magic item does (:data:`ITEM_EFFECTS` words each one and gives its window)."""

    REROLL_FARKLE = "reroll_farkle"
    KEEP_EXTRA = "keep_extra"
    GAIN = "gain"
    PENDING_BONUS = "pending_bonus"
    HOT_DICE = "hot_dice"
    BATTLE_SHIELD = "battle_shield"
    BATTLE_DAMAGE = "battle_damage"


class Window(StrEnum):
    """When a card may be used: an item's window (``auto``: it acts by itself, ``passive``:
    it works while held), or ``companion`` for every companion."""

    FARKLE = "farkle"
    PASSIVE = "passive"
    START = "start"
    DECIDE = "decide"
    AUTO = "auto"
    COMPANION = "companion"


#: a card's effect: a companion's or an item's
Effect = CompanionEffect | ItemEffect

#: companion effects: what it does, when (during its owner's turn unless said otherwise)
COMPANION_EFFECTS: dict[CompanionEffect, str] = {
    CompanionEffect.IGNORE_DRAGON:
        "once per turn, in a Recruit, treat a dragon on the event die as blank",
    CompanionEffect.REROLL_ONE:
        "once per Skirmish you start, reroll any one die of either side's roll",
    CompanionEffect.SCARE:
        "once per turn, before choosing an action: another player loses AMOUNT soldiers",
    CompanionEffect.BANK_BONUS: "when you bank a Recruit with soldiers pending, AMOUNT more",
    CompanionEffect.ATTACK_BONUS:
        "as attacker in a Skirmish, AMOUNT added to an attack value above 0",
    CompanionEffect.DEFENCE_BONUS:
        "as defender in a Skirmish, AMOUNT added to a defence value above 0",
    CompanionEffect.BATTLE_DAMAGE:
        "in each Final Battle turn, your first damaging roll deals AMOUNT more",
    CompanionEffect.BATTLE_LOSS_HALF:
        "in the Final Battle, you lose half the soldiers (rounded down to 50s)",
    CompanionEffect.FARKLE_KEEP_HALF:
        "a farkle in a Recruit keeps half the pending soldiers (down to 50s)",
    CompanionEffect.TREASURE:
        "when you bank AMOUNT or more soldiers in a Recruit, draw a magic item",
}
#: item effects: window is when it may be used; 'auto' items act by themselves
ITEM_EFFECTS: dict[ItemEffect, tuple[Window, str]] = {
    ItemEffect.REROLL_FARKLE: (Window.FARKLE, "ignore a farkled roll: roll those dice again"),
    ItemEffect.KEEP_EXTRA: (Window.PASSIVE, "while you hold it, keep up to AMOUNT other items"),
    ItemEffect.GAIN: (Window.START, "before choosing your action: AMOUNT soldiers join your "
                      "army"),
    ItemEffect.PENDING_BONUS: (Window.DECIDE, "between rolls in a Recruit or Skirmish: AMOUNT "
                               "more pending"),
    ItemEffect.HOT_DICE: (Window.DECIDE, "between rolls: all your dice come back to be rolled"),
    ItemEffect.BATTLE_SHIELD: (Window.AUTO, "the first loss of soldiers in a Final Battle turn "
                               "is cancelled"),
    ItemEffect.BATTLE_DAMAGE: (Window.AUTO, "the first damaging roll of a Final Battle turn "
                               "deals AMOUNT more"),
}
#: an item effect's window, by the effect's text (a card's ``window``, looked up often)
_WINDOW: dict[str, Window] = {effect: window for effect, (window, _) in ITEM_EFFECTS.items()}
_ITEM, _COMPANION_WINDOW = CardKind.ITEM, Window.COMPANION  # module globals: read faster


@dataclass(frozen=True, slots=True)
class FarkleCard:
    """A companion or magic item. The built-in cards' names and texts are in the message
    catalogues (``farkle.card.<id>.name`` / ``.text``, every language); a deck file's card
    (D8.5) brings its own, by language (``own_names`` / ``own_texts``, English required)."""

    id: str
    kind: CardKind
    count: int
    effect: Effect  # of its kind
    amount: int = 0
    house: bool = True
    own_names: tuple[tuple[str, str], ...] = ()
    own_texts: tuple[tuple[str, str], ...] = ()

    def name(self, lang: str = "en") -> str:
        return _words(self.own_names, f"farkle.card.{self.id}.name", lang, self.id)

    def text(self, lang: str = "en") -> str:
        return _words(self.own_texts, f"farkle.card.{self.id}.text", lang, "")

    @property
    def name_en(self) -> str:
        return self.name("en")

    @property
    def name_de(self) -> str:
        return self.name("de")

    @property
    def window(self) -> Window:
        return _WINDOW[self.effect] if self.kind is _ITEM else _COMPANION_WINDOW

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "count": self.count, "effect": self.effect.value,
                               "amount": self.amount, "house": self.house}
        if self.own_names:
            out["name"] = dict(self.own_names)
            out["text"] = dict(self.own_texts)
        return out


def _words(own: tuple[tuple[str, str], ...], code: str, lang: str, fallback: str) -> str:
    """A deck file's own words in ``lang`` (English where it lacks ``lang``), else the
    catalogue's."""
    if own:
        mine = dict(own)
        return mine.get(lang) or mine.get("en") or fallback
    return term(code, lang, fallback=fallback)


def _c(id: str, effect: CompanionEffect, amount: int = 0, house: bool = True,
       count: int = 1) -> FarkleCard:
    return FarkleCard(id, CardKind.COMPANION, count, effect, amount, house)


def _i(id: str, effect: ItemEffect, amount: int = 0, house: bool = True,
       count: int = 1) -> FarkleCard:
    return FarkleCard(id, CardKind.ITEM, count, effect, amount, house)


#: the built-in decks (names and texts: farkle.po, keyed by id)
COMPANIONS: tuple[FarkleCard, ...] = (
    _c("tabby", CompanionEffect.IGNORE_DRAGON, house=False),
    _c("hiccup", CompanionEffect.REROLL_ONE, house=False),
    _c("skree", CompanionEffect.SCARE, 200, house=False),
    _c("old-sergeant", CompanionEffect.BANK_BONUS, 100),
    _c("scout", CompanionEffect.ATTACK_BONUS, 200),
    _c("shieldmaiden", CompanionEffect.DEFENCE_BONUS, 200),
    _c("battle-mage", CompanionEffect.BATTLE_DAMAGE, 1),
    _c("field-medic", CompanionEffect.BATTLE_LOSS_HALF),
    _c("quartermaster", CompanionEffect.FARKLE_KEEP_HALF),
    _c("treasure-hunter", CompanionEffect.TREASURE, 1000),
)

ITEMS: tuple[FarkleCard, ...] = (
    _i("lucky-dragon-tooth", ItemEffect.REROLL_FARKLE, house=False),
    _i("plunder-sack", ItemEffect.KEEP_EXTRA, 3, house=False),
    _i("gold-purse", ItemEffect.GAIN, 300, count=3),
    _i("recruiting-horn", ItemEffect.PENDING_BONUS, 300, count=3),
    _i("second-wind", ItemEffect.HOT_DICE, count=3),
    _i("lucky-clover", ItemEffect.REROLL_FARKLE, count=3),
    _i("healing-potion", ItemEffect.BATTLE_SHIELD, count=3),
    _i("dragonsbane-arrow", ItemEffect.BATTLE_DAMAGE, 1, count=3),
)


def _words_of(value: Any, field: str, kind: CardKind, card: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict) or not isinstance(value.get("en"), str):
        raise OptionError("farkle.deck.card_needs_en", rule="D8.5", kind=kind.value,
                          card=card, field=field)
    out = [("en", value["en"])]
    for lang, text in value.items():
        if lang != "en":
            if not isinstance(lang, str) or not isinstance(text, str):
                raise OptionError("farkle.deck.card_words", rule="D8.5", kind=kind.value,
                                  card=card, field=field)
            out.append((lang, text))
    return tuple(out)


def _card_from_data(d: Any, kind: CardKind) -> FarkleCard:
    if not isinstance(d, dict) or not isinstance(d.get("id"), str):
        raise OptionError("farkle.deck.card_needs_id", rule="D8.5", kind=kind.value,
                          value=shown(d))
    card = shown(d["id"])
    effects: type[CompanionEffect] | type[ItemEffect] = (
        CompanionEffect if kind is CardKind.COMPANION else ItemEffect)
    effect = d.get("effect")
    if not isinstance(effect, str) or effect not in {e.value for e in effects}:
        raise OptionError("farkle.deck.card_effect", rule="D8.5", kind=kind.value, card=card,
                          effects=sorted(e.value for e in effects))
    names = _words_of(d.get("name", {}), "name", kind, card)
    texts = _words_of(d.get("text", {}), "text", kind, card)
    amount, count = d.get("amount", 0), d.get("count", 1)
    if not isinstance(amount, int) or not 0 <= amount <= 5000:
        raise OptionError("farkle.deck.card_amount", rule="D8.5", kind=kind.value, card=card)
    if not isinstance(count, int) or not 1 <= count <= 10:
        raise OptionError("farkle.deck.card_count", rule="D8.5", kind=kind.value, card=card)
    return FarkleCard(d["id"], kind, count, effects(effect), amount, bool(d.get("house", True)),
                      names, texts)


def decks_from_data(data: Mapping[str, Any] | None) -> tuple[tuple[FarkleCard, ...],
                                                            tuple[FarkleCard, ...]]:
    """The companion and item decks: built-in, or from deck data (D8.5)."""
    if not data:
        return COMPANIONS, ITEMS
    if not isinstance(data, Mapping) or set(data) - {"companions", "items"}:
        raise OptionError("farkle.deck.keys", rule="D8.5")
    for key in ("companions", "items"):
        if not isinstance(data.get(key, []), list):
            raise OptionError("farkle.deck.not_a_list", rule="D8.5", key=key,
                              value=shown(data[key]))
    comps = tuple(_card_from_data(d, CardKind.COMPANION) for d in data.get("companions", [])) \
        or COMPANIONS
    items = tuple(_card_from_data(d, CardKind.ITEM) for d in data.get("items", [])) or ITEMS
    ids = [c.id for c in (*comps, *items)]
    if len(set(ids)) != len(ids):
        raise OptionError("farkle.deck.ids_not_unique", rule="D8.5")
    return comps, items


def load_deck_file(path: str) -> dict[str, Any]:
    """Deck data from a TOML or JSON file (``[[companions]]`` / ``[[items]]`` tables)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        data: Any = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
    except OSError as exc:
        raise OptionError("farkle.deck.unreadable", path=str(path),
                          why=str(exc.strerror or exc)) from None
    except UnicodeDecodeError as exc:
        raise OptionError("farkle.deck.not_utf8", path=str(path), byte=exc.start) from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise OptionError("farkle.deck.not_parsed", path=str(path), why=str(exc)) from None
    except ValueError:  # int(): a number past the interpreter's 4,300 digits
        raise OptionError("farkle.deck.too_many_digits", path=str(path)) from None
    except RecursionError:
        raise OptionError("farkle.deck.too_deep", path=str(path)) from None
    decks_from_data(data)
    return dict(data)
