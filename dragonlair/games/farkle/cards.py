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
from pathlib import Path
from typing import Any

from dragonlair.core.errors import OptionError, shown

#: companion effects: what it does, when (during its owner's turn unless said otherwise)
COMPANION_EFFECTS = {
    "ignore_dragon": "once per turn, in a Recruit, treat a dragon on the event die as blank",
    "reroll_one": "once per Skirmish you start, reroll any one die of either side's roll",
    "scare": "once per turn, before choosing an action: another player loses AMOUNT soldiers",
    "bank_bonus": "when you bank a Recruit with soldiers pending, AMOUNT more",
    "attack_bonus": "as attacker in a Skirmish, AMOUNT added to an attack value above 0",
    "defence_bonus": "as defender in a Skirmish, AMOUNT added to a defence value above 0",
    "battle_damage": "in each Final Battle turn, your first damaging roll deals AMOUNT more",
    "battle_loss_half": "in the Final Battle, you lose half the soldiers (rounded down to 50s)",
    "farkle_keep_half": "a farkle in a Recruit keeps half the pending soldiers (down to 50s)",
    "treasure": "when you bank AMOUNT or more soldiers in a Recruit, draw a magic item",
}
#: item effects: window is when it may be used; 'auto' items act by themselves
ITEM_EFFECTS = {
    "reroll_farkle": ("farkle", "ignore a farkled roll: roll those dice again"),
    "keep_extra": ("passive", "while you hold it, keep up to AMOUNT other items"),
    "gain": ("start", "before choosing your action: AMOUNT soldiers join your army"),
    "pending_bonus": ("decide", "between rolls in a Recruit or Skirmish: AMOUNT more pending"),
    "hot_dice": ("decide", "between rolls: all your dice come back to be rolled"),
    "battle_shield": ("auto", "the first loss of soldiers in a Final Battle turn is cancelled"),
    "battle_damage": ("auto", "the first damaging roll of a Final Battle turn deals AMOUNT more"),
}


@dataclass(frozen=True, slots=True)
class FarkleCard:
    id: str
    kind: str  # "companion" or "item"
    count: int
    name_en: str
    name_de: str
    text_en: str
    text_de: str
    effect: str
    amount: int = 0
    house: bool = True

    def name(self, lang: str = "en") -> str:
        return self.name_de if lang == "de" else self.name_en

    def text(self, lang: str = "en") -> str:
        return self.text_de if lang == "de" else self.text_en

    @property
    def window(self) -> str:
        return ITEM_EFFECTS[self.effect][0] if self.kind == "item" else "companion"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "count": self.count, "name": {"en": self.name_en,
                "de": self.name_de}, "text": {"en": self.text_en, "de": self.text_de},
                "effect": self.effect, "amount": self.amount, "house": self.house}


def _c(id: str, en: str, de: str, text_en: str, text_de: str, effect: str, amount: int = 0,
       house: bool = True, count: int = 1) -> FarkleCard:
    return FarkleCard(id, "companion", count, en, de, text_en, text_de, effect, amount, house)


def _i(id: str, en: str, de: str, text_en: str, text_de: str, effect: str, amount: int = 0,
       house: bool = True, count: int = 1) -> FarkleCard:
    return FarkleCard(id, "item", count, en, de, text_en, text_de, effect, amount, house)


COMPANIONS: tuple[FarkleCard, ...] = (
    _c("tabby", "Tabby, the three-legged cat", "Tabby, die dreibeinige Katze",
       "Once per turn in a Recruit, ignore one dragon on the event die.",
       "Einmal pro Zug bei einer Rekrutierung: Ignoriere ein Drachensymbol.",
       "ignore_dragon", house=False),
    _c("hiccup", "Hiccup, the half-dwarf", "Hiccup, der Halbzwerg",
       "Once per Skirmish you start, reroll any one die, yours or the defender's.",
       "Einmal pro Scharmützel, das du beginnst: Würfle einen beliebigen Würfel neu, "
       "deinen oder den des Verteidigers.", "reroll_one", house=False),
    _c("skree", "Skree", "Skree",
       "Once per turn, before your action: another player's army loses 200 soldiers, "
       "in the Lair or not.",
       "Einmal pro Zug vor deiner Aktion: Ein anderer Spieler verliert 200 Soldaten, ob in "
       "der Drachenhöhle oder nicht.", "scare", 200, house=False),
    _c("old-sergeant", "Old Sergeant", "Alter Feldwebel",
       "When you bank a Recruit, 100 more soldiers join.",
       "Beendest du eine Rekrutierung mit Soldaten, kommen 100 weitere hinzu.",
       "bank_bonus", 100),
    _c("scout", "Scout", "Späherin",
       "Attacking in a Skirmish: +200 to an attack value above 0.",
       "Als Angreifer im Scharmützel: +200 auf einen Angriffswert über 0.",
       "attack_bonus", 200),
    _c("shieldmaiden", "Shieldmaiden", "Schildmaid",
       "Defending in a Skirmish: +200 to a defence value above 0.",
       "Als Verteidiger im Scharmützel: +200 auf einen Verteidigungswert über 0.",
       "defence_bonus", 200),
    _c("battle-mage", "Battle Mage", "Kampfmagier",
       "In each Final Battle turn, your first damaging roll deals 1 more damage.",
       "In jedem Endkampf-Zug macht dein erster Schadenswurf 1 Schaden mehr.",
       "battle_damage", 1),
    _c("field-medic", "Field Medic", "Feldscher",
       "In the Final Battle you lose only half the soldiers (rounded down to 50s).",
       "Im Endkampf verlierst du nur die Hälfte der Soldaten (auf 50er abgerundet).",
       "battle_loss_half"),
    _c("quartermaster", "Quartermaster", "Quartiermeister",
       "A farkle in a Recruit keeps half your pending soldiers (rounded down to 50s).",
       "Ein Farkle bei einer Rekrutierung lässt dir die Hälfte der gesammelten Soldaten "
       "(auf 50er abgerundet).", "farkle_keep_half"),
    _c("treasure-hunter", "Treasure Hunter", "Schatzsucherin",
       "When you bank 1,000 or more soldiers in a Recruit, draw a magic item.",
       "Rekrutierst du 1.000 Soldaten oder mehr, ziehe einen magischen Gegenstand.",
       "treasure", 1000),
)

ITEMS: tuple[FarkleCard, ...] = (
    _i("lucky-dragon-tooth", "Lucky Dragon Tooth", "Glücksdrachenzahn",
       "During your turn, ignore one farkled roll: roll those dice again.",
       "Ignoriere in deinem Zug einen gefarkelten Wurf: Würfle diese Würfel erneut.",
       "reroll_farkle", house=False),
    _i("plunder-sack", "Plunder Sack", "Beutesack",
       "While you hold it, you may keep up to three other magic items.",
       "Solange du ihn hast, darfst du bis zu drei weitere magische Gegenstände behalten.",
       "keep_extra", 3, house=False),
    _i("gold-purse", "Gold Purse", "Goldbeutel",
       "Before choosing your action: 300 soldiers join your army.",
       "Vor der Wahl deiner Aktion: 300 Soldaten verstärken deine Armee.",
       "gain", 300, count=3),
    _i("recruiting-horn", "Recruiting Horn", "Werbehorn",
       "Between rolls of a Recruit or Skirmish: 300 more pending soldiers (or attack).",
       "Zwischen zwei Würfen einer Rekrutierung oder eines Scharmützels: 300 mehr.",
       "pending_bonus", 300, count=3),
    _i("second-wind", "Second Wind", "Zweiter Atem",
       "Between rolls: all your dice come back to be rolled.",
       "Zwischen zwei Würfen: Alle deine Würfel kommen zurück ins Spiel.",
       "hot_dice", count=3),
    _i("lucky-clover", "Lucky Clover", "Glücksklee",
       "During your turn, ignore one farkled roll: roll those dice again.",
       "Ignoriere in deinem Zug einen gefarkelten Wurf: Würfle diese Würfel erneut.",
       "reroll_farkle", count=3),
    _i("healing-potion", "Healing Potion", "Heiltrank",
       "Used by itself: the first loss of soldiers in a Final Battle turn is cancelled.",
       "Wirkt von selbst: Der erste Soldatenverlust eines Endkampf-Zugs entfällt.",
       "battle_shield", count=3),
    _i("dragonsbane-arrow", "Dragonsbane Arrow", "Drachentöterpfeil",
       "Used by itself: the first damaging roll of a Final Battle turn deals 1 more damage.",
       "Wirkt von selbst: Der erste Schadenswurf eines Endkampf-Zugs macht 1 Schaden mehr.",
       "battle_damage", 1, count=3),
)


def _card_from_data(d: Any, kind: str) -> FarkleCard:
    if not isinstance(d, dict) or not isinstance(d.get("id"), str):
        raise OptionError(f"deck file: each {kind} needs an 'id' (not {shown(d)})")
    where = f"{kind} card {shown(d['id'])}"
    effects = COMPANION_EFFECTS if kind == "companion" else ITEM_EFFECTS
    effect = d.get("effect")
    if not isinstance(effect, str) or effect not in effects:
        raise OptionError(f"{where}: effect must be one of {', '.join(sorted(effects))}")
    name, text = d.get("name", {}), d.get("text", {})
    if not isinstance(name, dict) or not isinstance(name.get("en"), str):
        raise OptionError(f"{where}: needs name.en")
    if not isinstance(text, dict) or not isinstance(text.get("en"), str):
        raise OptionError(f"{where}: needs text.en")
    amount, count = d.get("amount", 0), d.get("count", 1)
    if not isinstance(amount, int) or not 0 <= amount <= 5000:
        raise OptionError(f"{where}: amount must be a whole number from 0 to 5000")
    if not isinstance(count, int) or not 1 <= count <= 10:
        raise OptionError(f"{where}: count must be from 1 to 10")
    return FarkleCard(d["id"], kind, count, name["en"], str(name.get("de", name["en"])),
                      text["en"], str(text.get("de", text["en"])), effect, amount,
                      bool(d.get("house", True)))


def decks_from_data(data: Mapping[str, Any] | None) -> tuple[tuple[FarkleCard, ...],
                                                            tuple[FarkleCard, ...]]:
    """The companion and item decks: built-in, or from deck data (D8.5)."""
    if not data:
        return COMPANIONS, ITEMS
    if not isinstance(data, Mapping) or set(data) - {"companions", "items"}:
        raise OptionError("deck data holds 'companions' and/or 'items' lists")
    for key in ("companions", "items"):
        if not isinstance(data.get(key, []), list):
            raise OptionError(f"deck data: '{key}' must be a list of cards, not "
                              f"{shown(data[key])}")
    comps = tuple(_card_from_data(d, "companion") for d in data.get("companions", [])) \
        or COMPANIONS
    items = tuple(_card_from_data(d, "item") for d in data.get("items", [])) or ITEMS
    ids = [c.id for c in (*comps, *items)]
    if len(set(ids)) != len(ids):
        raise OptionError("deck data: card ids must be unique")
    return comps, items


def load_deck_file(path: str) -> dict[str, Any]:
    """Deck data from a TOML or JSON file (``[[companions]]`` / ``[[items]]`` tables)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        data: Any = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
    except OSError as exc:
        raise OptionError(f"cannot read deck file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise OptionError(f"deck file {path} is not UTF-8 text (byte {exc.start})") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise OptionError(f"deck file {path} does not parse: {exc}") from None
    except ValueError:  # int(): a number past the interpreter's 4,300 digits
        raise OptionError(f"deck file {path} holds a number with too many digits") from None
    except RecursionError:
        raise OptionError(f"deck file {path} nests too deeply to read") from None
    decks_from_data(data)
    return dict(data)
