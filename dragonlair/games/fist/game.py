"""The Fist of Dragonstones game declaration: info, options, cards, action space."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from dragonlair.core.errors import OptionError, shown
from dragonlair.core.game import JSON, Game, GameInfo, OptionSpec, resolve_options
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.actions import ActionSpace, FistAction, action_space
from dragonlair.games.fist.cards import BUILTIN, Card
from dragonlair.games.fist.custom import card_from_data
from dragonlair.games.fist.state import FistState

#: the ``specials`` option: which special characters the special deck holds
SPECIALS = ("all", "custom")

INFO = GameInfo(
    id="fist",
    name="Fist of Dragonstones",
    min_players=3,
    max_players=6,
    version=1,
    options=(
        OptionSpec("players", 4, "number of players, 3 to 6", kind="int", minimum=3, maximum=6,
                   refuse=lambda v: OptionError("fist.option.players", value=shown(v), min=3,
                                                max=6)),
        OptionSpec("max_turns", None, "end the game after this many turns (F5.10); none: no limit",
                   kind="int", minimum=1, nullable=True,
                   refuse=lambda v: OptionError("fist.option.max_turns", value=shown(v))),
        OptionSpec("custom", [], "custom characters shuffled into the special deck (F9), as data",
                   kind="list", nullable=True,
                   refuse=lambda v: OptionError("fist.option.custom_not_list")),
        OptionSpec("specials", "all", "the special deck: every special character ('all'), or "
                   "only the custom ones ('custom', for playtests; F9)", kind="choice",
                   choices=SPECIALS,
                   refuse=lambda v: OptionError("fist.option.specials", value=shown(v),
                                                rule="F9")),
    ),
)


class FistGame(Game):
    """A Fist of Dragonstones table: players, options and the card set."""

    info = INFO

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        opts = resolve_options(INFO, options or {})
        players = opts["players"]
        if not isinstance(players, int) or not 3 <= players <= 6:
            raise OptionError("fist.option.players", value=shown(players), min=3, max=6)
        max_turns = opts["max_turns"]
        if max_turns is not None and (not isinstance(max_turns, int) or max_turns < 1):
            raise OptionError("fist.option.max_turns", value=shown(max_turns))
        custom = opts["custom"] or []
        if not isinstance(custom, list):
            raise OptionError("fist.option.custom_not_list")
        try:
            extra = [card_from_data(d) for d in custom]
        except TypeError:  # a list where custom.py looks a value up (unhashable)
            raise OptionError("fist.option.custom_wrong_kind") from None
        ids = [c.id for c in extra]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise OptionError("fist.option.custom_duplicate_id", id=dup, rule="F9")
        specials = opts["specials"]
        if specials not in SPECIALS:
            raise OptionError("fist.option.specials", value=shown(specials), rule="F9")
        if specials == "custom" and not extra:
            raise OptionError("fist.option.specials_without_custom", rule="F9")
        self.options = {"players": players, "max_turns": max_turns, "custom": list(custom)}
        if specials != "all":  # records of default games stay as they were
            self.options["specials"] = specials
        self.specials: str = specials
        self.num_players = players
        self.max_turns: int | None = max_turns
        self.cards: tuple[Card, ...] = BUILTIN + tuple(extra)
        self.card_ids = tuple(c.id for c in self.cards)
        #: the card ids in sorted order, and a function that gives a count per card (a pile,
        #: the discard) in that order: the sorted names of a multiset of cards, written by
        #: :func:`.viewing.sorted_names` without sorting
        # (more than one card: the built-in ones; an itemgetter of several gives a tuple)
        order = sorted(range(len(self.card_ids)), key=self.card_ids.__getitem__)
        self.ids_sorted = tuple(self.card_ids[k] for k in order)
        self.in_id_order: Callable[[Sequence[int]], tuple[int, ...]] = itemgetter(*order)
        #: those sorted ids per multiset of cards (a count per card), filled as views ask
        self.sorted_ids: dict[tuple[int, ...], tuple[str, ...]] = {}
        #: shared by every game with these cards (built once per process: issue 23)
        self.space: ActionSpace = action_space(self.card_ids)
        used = [{type(s) for s in c.power} for c in self.cards]  # each card's primitives
        self.plays_unauctioned = tuple(pw.PlayUnauctioned in u for u in used)
        self.is_necromancer = tuple(pw.Necromancer in u for u in used)
        dop = [k for k, c in enumerate(self.cards) if c.id == "doppelganger"]
        self.doppelganger: int | None = dop[0] if dop else None
        #: a turn's pile before its specials: every standard card but the Witch (F4.2, F4.3)
        self.standard_pile = tuple(c.count if c.standard and k != 0 else 0
                                   for k, c in enumerate(self.cards))
        #: the special deck at the start (F3.2): every special card, or (``specials``
        #: ``custom``) the custom characters only
        self.special_counts = tuple(
            c.count if not c.standard and (specials == "all" or c.custom) else 0
            for c in self.cards)

    def new_initial_state(self) -> FistState:
        return FistState(self)

    def restore(self, snapshot: JSON) -> FistState:
        """A state from :meth:`FistState.snapshot`, checked (:class:`RecordError` with a
        ``fist.snapshot.*`` code if anything is malformed or inconsistent)."""
        from dragonlair.games.fist.snapshot import restore

        return restore(self, snapshot)

    def parse_action(self, text: str) -> FistAction:
        return self.space.parse(text)

    def action_from_index(self, index: int) -> FistAction:
        if not 0 <= index < len(self.space.actions):
            raise OptionError("fist.action.no_index", index=shown(index),
                              count=len(self.space.actions))
        return self.space.actions[index]

    @property
    def num_distinct_actions(self) -> int:
        return len(self.space.actions)

    def card(self, card_id: str) -> Card:
        return self.cards[self.space.card_index[card_id]]
