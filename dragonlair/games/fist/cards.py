"""The character cards of Fist of Dragonstones as one declarative table (F2, F6, F7).

Texts are our own words. Each power is a tuple of primitives from :mod:`powers`.
"""

from __future__ import annotations

from dataclasses import dataclass

from dragonlair.games.fist.powers import (
    BagDraw,
    BuyStones,
    Choice,
    CopyAuctioned,
    Gain,
    GainStoneChoice,
    KeepDoppelganger,
    LoseColour,
    Necromancer,
    PayAllStones,
    PayStones,
    PlayUnauctioned,
    PushYourLuck,
    StealSecond,
    Step,
    TakeAllFrom,
)


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of character card."""

    id: str
    name_en: str
    name_de: str
    count: int
    standard: bool
    text_en: str
    text_de: str
    power: tuple[Step, ...]
    custom: bool = False

    def name(self, lang: str = "en") -> str:
        return self.name_de if lang == "de" else self.name_en

    def text(self, lang: str = "en") -> str:
        return self.text_de if lang == "de" else self.text_en


def _card(id: str, en: str, de: str, count: int, standard: bool, text_en: str, text_de: str,
          *power: Step) -> Card:
    return Card(id, en, de, count, standard, text_en, text_de, tuple(power))


STANDARD: tuple[Card, ...] = (
    _card("witch", "Witch", "Hexe", 1, True,
          "Always auctioned first. Take a Black Magic coin; bid it later this turn to curse a "
          "character. Unused, it goes back at the end of the turn.",
          "Wird immer zuerst versteigert. Nimm eine schwarze Zaubermünze; biete sie später in "
          "dieser Runde, um eine Figur zu verfluchen. Unbenutzt geht sie am Rundenende zurück.",
          Gain(black=1)),
    _card("magician", "Magician", "Magier", 1, True,
          "Pay any 4 stones for 1 point, or take 3 Silver.",
          "Zahle 4 beliebige Steine für 1 Punkt, oder nimm 3 Silber.",
          Choice(PayStones(4, "any", 1), Gain(silver=3))),
    _card("sorcerer", "Sorcerer", "Zauberer", 1, True,
          "Pay 4 stones of one colour for 2 points, or take 1 Common Gold.",
          "Zahle 4 Steine einer Farbe für 2 Punkte, oder nimm 1 Gemeingold.",
          Choice(PayStones(4, "same", 2), Gain(common=1))),
    _card("thief", "Thief", "Dieb", 1, True,
          "Take a stone of your choice from a second-highest bidder. If they have none, take "
          "a Common Gold, failing that a Fairy Gold.",
          "Nimm einem Zweithöchstbietenden einen Stein deiner Wahl. Hat er keinen, nimm ein "
          "Gemeingold, sonst ein Feengold.",
          StealSecond()),
    _card("wizard", "Wizard", "Hexenmeister", 1, True,
          "Pay one stone of each colour for 1 point, or take 3 Silver.",
          "Zahle je einen Stein jeder Farbe für 1 Punkt, oder nimm 3 Silber.",
          Choice(PayStones(3, "each", 1), Gain(silver=3))),
    _card("red-dragon", "Red Dragon", "Roter Drache", 1, True,
          "Take 1 red stone.", "Nimm 1 roten Stein.", Gain(stones=(1, 0, 0))),
    _card("blue-dragon", "Blue Dragon", "Blauer Drache", 1, True,
          "Take 1 blue stone.", "Nimm 1 blauen Stein.", Gain(stones=(0, 1, 0))),
    _card("yellow-dragon", "Yellow Dragon", "Gelber Drache", 1, True,
          "Take 1 yellow stone.", "Nimm 1 gelben Stein.", Gain(stones=(0, 0, 1))),
)

SPECIAL: tuple[Card, ...] = (
    _card("alchemist", "Alchemist", "Alchimist", 1, False,
          "Take 3 Common Gold.", "Nimm 3 Gemeingold.", Gain(common=3)),
    _card("ancient-dragon", "Ancient Dragon", "Alter Drache", 2, False,
          "Take 1 stone of a colour you choose.", "Nimm 1 Stein einer Farbe deiner Wahl.",
          GainStoneChoice(1)),
    _card("brigand", "Brigand", "Wegelagerer", 1, False,
          "Choose another player: they hand you all their unspent Common Gold and Silver, "
          "without showing the others how much.",
          "Wähle einen Mitspieler: Er gibt dir heimlich all sein unverbrauchtes Gemeingold "
          "und Silber.",
          TakeAllFrom()),
    _card("doppelganger", "Doppelganger", "Doppelgänger", 1, False,
          "Keep this card face up. Right after winning a later uncursed auction, play it to "
          "use that power twice in a row (never the Necromancer).",
          "Behalte die Karte offen. Direkt nach einer späteren, nicht verfluchten gewonnenen "
          "Versteigerung kannst du sie spielen und die Fähigkeit zweimal hintereinander nutzen "
          "(nie beim Nekromanten).",
          KeepDoppelganger()),
    _card("dwarf-4", "Dwarf (4 Silver)", "Zwerg (4 Silber)", 1, False,
          "Take 4 Silver.", "Nimm 4 Silber.", Gain(silver=4)),
    _card("dwarf-5", "Dwarf (5 Silver)", "Zwerg (5 Silber)", 1, False,
          "Take 5 Silver.", "Nimm 5 Silber.", Gain(silver=5)),
    _card("enchantress", "Enchantress", "Beschwörerin", 1, False,
          "Pay any 5 stones for 2 points, or take 1 Fairy Gold.",
          "Zahle 5 beliebige Steine für 2 Punkte, oder nimm 1 Feengold.",
          Choice(PayStones(5, "any", 2), Gain(fairy=1))),
    _card("fairy", "Fairy", "Fee", 2, False,
          "Take 1 Fairy Gold; it is yours for the rest of the game.",
          "Nimm 1 Feengold; es gehört dir bis zum Spielende.", Gain(fairy=1)),
    _card("ghost", "Ghost", "Geist", 1, False,
          "Choose a character already auctioned this turn, even cursed or passed, and use "
          "its power.",
          "Wähle eine in dieser Runde schon versteigerte Figur, auch verflucht oder "
          "übergangen, und nutze ihre Fähigkeit.",
          CopyAuctioned()),
    _card("gnome", "Gnome", "Gnom", 1, False,
          "Take 2 Common Gold and 2 Silver.", "Nimm 2 Gemeingold und 2 Silber.",
          Gain(common=2, silver=2)),
    _card("goblin", "Goblin", "Kobold", 1, False,
          "Draw a random card not yet auctioned this turn and use its power; it will not be "
          "auctioned. Passed if it is the last card.",
          "Ziehe zufällig eine noch nicht versteigerte Karte dieser Runde und nutze ihre "
          "Fähigkeit; sie wird nicht mehr versteigert. Als letzte Karte entfällt er.",
          PlayUnauctioned(choose=False)),
    _card("goldsmith", "Goldsmith", "Goldschmied", 1, False,
          "Take a Red Amulet. Add it to a later bid to double that bid; then it goes back.",
          "Nimm ein rotes Amulett. Lege es später einem Gebot bei, um es zu verdoppeln; dann "
          "geht es zurück.",
          Gain(amulet=1)),
    _card("imp", "Imp", "Wichtel", 1, False,
          "Choose a card not yet auctioned this turn and use its power; it will not be "
          "auctioned. Passed if it is the last card.",
          "Wähle eine noch nicht versteigerte Karte dieser Runde und nutze ihre Fähigkeit; "
          "sie wird nicht mehr versteigert. Als letzte Karte entfällt er.",
          PlayUnauctioned(choose=True)),
    _card("merchant", "Merchant", "Händler", 1, False,
          "Buy any stones from the bank, each for 1 Common Gold, 1 Fairy Gold (lost for good) "
          "or 3 Silver.",
          "Kaufe beliebig viele Steine von der Bank, je für 1 Gemeingold, 1 Feengold (für "
          "immer weg) oder 3 Silber.",
          BuyStones()),
    _card("necromancer", "Necromancer", "Nekromant", 1, False,
          "You may pay every coin you bid for this card, Fairy Gold included, for 1 point.",
          "Du darfst alle für diese Karte gebotenen Münzen, auch Feengold, für 1 Punkt "
          "abgeben.",
          Necromancer(1)),
    _card("quack-wizard", "Quack Wizard", "Scharlatan", 2, False,
          "Pay all your stones for 1 point (free if you have none).",
          "Gib alle deine Steine ab und erhalte 1 Punkt (ohne Steine umsonst).",
          PayAllStones(1)),
    _card("rainbow-dragon", "Rainbow Dragon", "Regenbogen-Drache", 1, False,
          "Name a colour the bank has. Draw the bank's stones one by one; stop to keep them, "
          "but drawing the named colour loses them all.",
          "Nenne eine Farbe, die die Bank hat. Ziehe die Steine der Bank einzeln; hör auf und "
          "behalte sie, doch ziehst du die genannte Farbe, verlierst du alle.",
          PushYourLuck()),
    _card("sorcerers-apprentice", "Sorcerer's Apprentice", "Zauberlehrling", 2, False,
          "Pay 2 stones of one colour for 1 point, if you have them.",
          "Zahle 2 Steine einer Farbe für 1 Punkt, wenn du sie hast.",
          PayStones(2, "same", 1)),
    _card("troll", "Troll", "Troll", 1, False,
          "Choose a colour: every player, you too, returns all stones of that colour.",
          "Wähle eine Farbe: Alle Spieler, auch du, geben alle Steine dieser Farbe ab.",
          LoseColour()),
    _card("two-headed-dragon", "Two-headed Dragon", "Zweiköpfiger Drache", 2, False,
          "Put up to 2 stones of each colour from the bank in the bag; draw 2 at random and "
          "keep them.",
          "Lege bis zu 2 Steine jeder Farbe aus der Bank in den Beutel; ziehe 2 zufällig und "
          "behalte sie.",
          BagDraw(2, 2)),
)

BUILTIN: tuple[Card, ...] = STANDARD + SPECIAL
