"""The Dragon Farkle game declaration: info, options, decks, scoring table, action space."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dragonlair.core.errors import OptionError, shown
from dragonlair.core.game import JSON, Game, GameInfo, OptionSpec, resolve_options
from dragonlair.games.farkle.actions import FarkleAction, action_space
from dragonlair.games.farkle.cards import Window, decks_from_data
from dragonlair.games.farkle.presets import DECK_PRESETS, TABLE_PRESETS
from dragonlair.games.farkle.scoring import ScoringTable, scorer_for
from dragonlair.games.farkle.state import FarkleState

INFO = GameInfo(
    id="farkle",
    name="Dragon Farkle",
    min_players=2,
    max_players=5,
    version=1,
    options=(
        OptionSpec("players", 2, "number of players, 2 to 5", kind="int", minimum=2, maximum=5,
                   refuse=lambda v: OptionError("farkle.options.players", rule="D1",
                                                players=shown(v))),
        OptionSpec("dragon", 3, "the dragon's strength: 3, or the variant 4 or 5 (D6.4)",
                   kind="choice", choices=(3, 4, 5),
                   refuse=lambda v: OptionError("farkle.options.dragon", rule="D6.4",
                                                dragon=shown(v))),
        OptionSpec("table", None, "a scoring table replacing D2 (entries as in ScoringTable)",
                   kind="object", nullable=True, presets=TABLE_PRESETS,
                   refuse=lambda v: OptionError("farkle.table.not_a_mapping", rule="D2")),
        OptionSpec("decks", None, "companion and item decks replacing the built-in ones (D8.5)",
                   kind="object", nullable=True, presets=DECK_PRESETS,
                   refuse=lambda v: OptionError("farkle.deck.keys", rule="D8.5")),
        OptionSpec("max_turns", None, "end after this many player turns; largest army wins",
                   kind="int", minimum=1, nullable=True,
                   refuse=lambda v: OptionError("farkle.options.max_turns",
                                                max_turns=shown(v))),
    ),
)


class FarkleGame(Game):
    """A Dragon Farkle table."""

    info = INFO

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        opts = resolve_options(INFO, options or {})
        players = opts["players"]
        if not isinstance(players, int) or not 2 <= players <= 5:
            raise OptionError("farkle.options.players", rule="D1", players=shown(players))
        if opts["dragon"] not in (3, 4, 5):
            raise OptionError("farkle.options.dragon", rule="D6.4",
                              dragon=shown(opts["dragon"]))
        max_turns = opts["max_turns"]
        if max_turns is not None and (not isinstance(max_turns, int) or max_turns < 1):
            raise OptionError("farkle.options.max_turns", max_turns=shown(max_turns))
        table = opts["table"]
        if table is not None and not isinstance(table, Mapping):
            raise OptionError("farkle.table.not_a_mapping", rule="D2")
        try:
            self.table = ScoringTable.from_json(table) if table else ScoringTable()
        except OverflowError:  # int() of an infinite float (JSON 1e999 or Infinity)
            raise OptionError("farkle.table.not_whole", rule="D2") from None
        self.companions, self.items = decks_from_data(opts["decks"])
        #: by card index, for the engine's hot paths: each companion's and item's effect,
        #: each item's window
        self.companion_effects = tuple(c.effect for c in self.companions)
        self.item_effects = tuple(c.effect for c in self.items)
        self.item_windows = tuple(c.window for c in self.items)
        #: per window, the items of that window (by index)
        self.items_of_window = {w: frozenset(i for i, c in enumerate(self.items)
                                             if c.window is w) for w in Window}
        for deck, kind in ((self.companions, "companion"), (self.items, "item")):
            cards = sum(c.count for c in deck)
            if cards < players:  # D8.1, D8.2: every player starts with one of each
                raise OptionError("farkle.deck.too_small", rule="D8.1", kind=kind, n=cards,
                                  players=players)
        self.options = {**opts, "table": self.table.to_json() if table else None}
        self.num_players = players
        self.dragon: int = opts["dragon"]
        self.max_turns: int | None = max_turns
        self.scorer = scorer_for(self.table)
        self.space = action_space(tuple(c.id for c in self.items),
                                  tuple(c.id for c in self.companions))

    def new_initial_state(self) -> FarkleState:
        return FarkleState(self)

    def restore(self, snapshot: JSON) -> FarkleState:
        """A state from :meth:`FarkleState.snapshot`, checked (:class:`RecordError` if
        malformed), without replaying its history."""
        from dragonlair.games.farkle.snapshot import restore

        return restore(self, snapshot)

    def parse_action(self, text: str) -> FarkleAction:
        return self.space.parse(text)

    def action_from_index(self, index: int) -> FarkleAction:
        if not 0 <= index < len(self.space.actions):
            raise OptionError("farkle.action.no_index", index=shown(index),
                              last=len(self.space.actions) - 1)
        return self.space.actions[index]

    @property
    def num_distinct_actions(self) -> int:
        return len(self.space.actions)
