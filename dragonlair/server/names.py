"""Friendly names for guests: an adjective and a creature, in the reader's language
("Brave Griffin", "Kühner Greif"), unique among the accounts (docs/server.md, "Accounts and
names").

The word lists are the project's own. German adjectives agree with the creature's gender
(strong declension, no article: ``kühner Greif``, ``kühne Eule``, ``kühnes Einhorn``), so a
German adjective is kept as its stem and each creature carries its gender. The internal
username of a guest stays a handle (``guest-<hex>``) that nobody is shown.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence

#: languages with word lists; any other reader gets English
LANGUAGES = ("en", "de")

EN_ADJECTIVES = (
    "Brave", "Bold", "Bright", "Calm", "Clever", "Daring", "Eager", "Fierce", "Gentle",
    "Golden", "Happy", "Hidden", "Jolly", "Keen", "Kind", "Lucky", "Merry", "Mighty", "Nimble",
    "Noble", "Patient", "Proud", "Quick", "Quiet", "Shy", "Silver", "Sleepy", "Sly", "Steady",
    "Swift", "Wise", "Witty", "Young", "Cheerful", "Curious", "Dusky", "Misty", "Rusty",
    "Sunny", "Stormy",
)
EN_CREATURES = (
    "Dragon", "Griffin", "Phoenix", "Unicorn", "Wyvern", "Basilisk", "Sphinx", "Pegasus",
    "Kraken", "Hydra", "Chimera", "Salamander", "Owl", "Fox", "Badger", "Raven", "Otter",
    "Lynx", "Falcon", "Hare", "Wolf", "Bear", "Stag", "Heron", "Dormouse", "Hedgehog",
    "Troll", "Goblin", "Dwarf", "Pixie", "Wyrm", "Drake", "Golem", "Mermaid", "Centaur",
    "Minotaur", "Yeti", "Imp", "Kobold", "Tortoise",
)

#: German adjective stems (the ending follows the creature's gender)
DE_ADJECTIVES = (
    "kühn", "tapfer", "mutig", "flink", "klug", "sanft", "wild", "froh", "schlau", "stolz",
    "munter", "heiter", "still", "wach", "listig", "golden", "silbern", "neugierig", "ruhig",
    "fröhlich", "geduldig", "lustig", "mächtig", "schnell", "treu", "weise", "wendig", "zäh",
    "frech", "glücklich", "emsig", "forsch", "verträumt", "wacker", "würdig", "freundlich",
    "furchtlos", "sonnig", "stürmisch", "neblig",
)
#: German creatures and their genders (m, f, n)
DE_CREATURES = (
    ("Drache", "m"), ("Greif", "m"), ("Phönix", "m"), ("Basilisk", "m"), ("Kobold", "m"),
    ("Troll", "m"), ("Zwerg", "m"), ("Fuchs", "m"), ("Dachs", "m"), ("Rabe", "m"),
    ("Luchs", "m"), ("Falke", "m"), ("Wolf", "m"), ("Bär", "m"), ("Hirsch", "m"),
    ("Reiher", "m"), ("Igel", "m"), ("Golem", "m"), ("Zentaur", "m"), ("Lindwurm", "m"),
    ("Eule", "f"), ("Sphinx", "f"), ("Hydra", "f"), ("Chimäre", "f"), ("Nixe", "f"),
    ("Fee", "f"), ("Elster", "f"), ("Schildkröte", "f"), ("Meerjungfrau", "f"),
    ("Wildkatze", "f"), ("Einhorn", "n"), ("Flügelpferd", "n"), ("Eichhörnchen", "n"),
    ("Wiesel", "n"), ("Murmeltier", "n"), ("Irrlicht", "n"), ("Seeungeheuer", "n"),
    ("Nashorn", "n"), ("Trollkind", "n"), ("Reh", "n"),
)
_DE_ENDING = {"m": "er", "f": "e", "n": "es"}

#: how many fresh pairs to try before a number is added
TRIES = 8


def language(wanted: str | None, accept_language: str | None) -> str:
    """The language of the words: ``wanted`` if it has a word list, else the first language
    of an ``Accept-Language`` header (by its q-values) that has one, else English."""
    if wanted and wanted.lower().split("-")[0] in LANGUAGES:
        return wanted.lower().split("-")[0]
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "")[:512].split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        base = tag.strip().lower().split("-")[0]
        if base in LANGUAGES and q > 0:
            ranked.append((-q, i, base))
    return min(ranked)[2] if ranked else "en"


def friendly_name(lang: str, rng: random.Random) -> str:
    """One adjective and one creature in ``lang`` ("Brave Griffin", "Kühner Greif")."""
    if lang == "de":
        stem = rng.choice(DE_ADJECTIVES)
        creature, gender = rng.choice(DE_CREATURES)
        return f"{stem[:1].upper()}{stem[1:]}{_DE_ENDING[gender]} {creature}"
    return f"{rng.choice(EN_ADJECTIVES)} {rng.choice(EN_CREATURES)}"


def unique_name(lang: str, taken: Callable[[str], bool],
                rng: random.Random | None = None) -> str:
    """A friendly name nobody has (``taken`` says whether one is in use): a fresh pair up to
    :data:`TRIES` times, then a pair with a number (``Brave Griffin 17``)."""
    rng = rng or secrets.SystemRandom()
    for _ in range(TRIES):
        name = friendly_name(lang, rng)
        if not taken(name):
            return name
    digits = 2
    while True:
        name = f"{friendly_name(lang, rng)} {rng.randrange(2, 10 ** digits)}"
        if not taken(name):
            return name
        digits = min(digits + 1, 9)


def all_pairs(lang: str) -> Sequence[str]:
    """Every name of ``lang`` without a number (for tests)."""
    if lang == "de":
        return [f"{a[:1].upper()}{a[1:]}{_DE_ENDING[g]} {c}"
                for a in DE_ADJECTIVES for c, g in DE_CREATURES]
    return [f"{a} {c}" for a in EN_ADJECTIVES for c in EN_CREATURES]
