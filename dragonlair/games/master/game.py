"""The Dragon Master game declaration: info, options, action space."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dragonlair.core.errors import MalformedActionError, OptionError, shown
from dragonlair.core.game import Game, GameInfo, OptionSpec, resolve_options
from dragonlair.games.master.cards import score_table
from dragonlair.games.master.state import ACTIONS, BY_TEXT, MasterAction, MasterState

INFO = GameInfo(
    id="master",
    name="Dragon Master",
    min_players=2,
    max_players=2,
    version=1,
    options=(
        OptionSpec("players", 2, "always 2"),
        OptionSpec("four_of_a_kind", "100", "four of a value score '100' or '100+face' (M4)"),
        OptionSpec("match", False, "play a match: first to two dragons (M5)"),
    ),
)


class MasterGame(Game):
    """A Dragon Master table."""

    info = INFO

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        opts = resolve_options(INFO, options or {})
        if opts["players"] != 2:
            raise OptionError(f"Dragon Master is for 2 players, not {opts['players']!r}")
        if not isinstance(opts["match"], bool):
            raise OptionError(f"match must be true or false, not {opts['match']!r}")
        self.table = score_table(opts["four_of_a_kind"])
        self.options = dict(opts)
        self.num_players = 2
        self.match: bool = opts["match"]
        self.four_of_a_kind: str = opts["four_of_a_kind"]

    def new_initial_state(self) -> MasterState:
        return MasterState(self)

    def parse_action(self, text: str) -> MasterAction:
        canon = " ".join(text.lower().split())
        got = BY_TEXT.get(canon)
        if got is None:
            raise MalformedActionError(
                f"{shown(text)} is not a Dragon Master action; write 'place CARD CELL' with CARD "
                "egg, emerald, sapphire or ruby and CELL a1..g7 (e.g. 'place ruby d4'), or "
                "chance 'deal CARD' / 'start p0'")
        return got

    def action_from_index(self, index: int) -> MasterAction:
        if not 0 <= index < len(ACTIONS):
            raise OptionError(f"no Dragon Master action has index {index}")
        return ACTIONS[index]

    @property
    def num_distinct_actions(self) -> int:
        return len(ACTIONS)
