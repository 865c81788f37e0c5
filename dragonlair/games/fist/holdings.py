"""What the players and the bank hold (F1, F3.1): coins, stones and points."""

from __future__ import annotations

from dragonlair.core.game import JSON

WIN_POINTS = 3
TOTALS = {"fairy": 60, "silver": 40, "common": 15, "amulet": 2, "black": 2}
STONES_PER_COLOUR = 12


class Player:
    """One seat's holdings. Coins are behind the screen; stones and score are public."""

    __slots__ = ("amulet", "black", "common", "fairy", "fairy_spent", "score", "silver", "stones")

    def __init__(self) -> None:
        self.fairy = 0  # unspent Fairy Gold
        self.fairy_spent = 0  # bid this turn, in front of the screen, back at F4.4
        self.common = 0
        self.silver = 0
        self.black = 0
        self.amulet = 0
        self.stones = [0, 0, 0]
        self.score = 0

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.fairy, p.fairy_spent, p.common, p.silver = (
            self.fairy, self.fairy_spent, self.common, self.silver)
        p.black, p.amulet, p.score = self.black, self.amulet, self.score
        p.stones = self.stones[:]
        return p

    def coins_json(self) -> JSON:
        return {"fairy": self.fairy, "fairy_spent": self.fairy_spent, "common": self.common,
                "silver": self.silver, "black": self.black, "amulet": self.amulet}


class Bank:
    """The bank: everything no player holds (F1). Black coins never run short."""

    __slots__ = ("amulet", "black", "common", "fairy", "silver", "stones")

    def __init__(self) -> None:
        self.black = TOTALS["black"]
        self.fairy = TOTALS["fairy"]
        self.silver = TOTALS["silver"]
        self.common = TOTALS["common"]
        self.amulet = TOTALS["amulet"]
        self.stones = [STONES_PER_COLOUR] * 3

    def copy(self) -> Bank:
        b = Bank.__new__(Bank)
        b.fairy, b.silver, b.common, b.amulet = self.fairy, self.silver, self.common, self.amulet
        b.black = self.black
        b.stones = self.stones[:]
        return b
