"""The Dragon Master game declaration: info, options, action space."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dragonlair.core.errors import MalformedActionError, OptionError, shown
from dragonlair.core.game import JSON, Game, GameInfo, OptionSpec, resolve_options
from dragonlair.games.master.actions import ACTIONS, BY_TEXT, MasterAction
from dragonlair.games.master.cards import FOUR_OF_A_KIND, score_table
from dragonlair.games.master.state import MasterState

INFO = GameInfo(
    id="master",
    name="Dragon Master",
    min_players=2,
    max_players=2,
    version=1,
    options=(
        OptionSpec("players", 2, "always 2", kind="int", minimum=2, maximum=2,
                   refuse=lambda v: OptionError("master.option.players", value=shown(v))),
        OptionSpec("four_of_a_kind", "100", "four of a value score '100' or '100+face' (M4)",
                   kind="choice", choices=FOUR_OF_A_KIND,
                   refuse=lambda v: OptionError("master.option.four_of_a_kind", value=shown(v),
                                                choices=list(FOUR_OF_A_KIND))),
        OptionSpec("match", False, "play a match: first to two dragons (M5)", kind="bool",
                   refuse=lambda v: OptionError("master.option.match", value=shown(v))),
    ),
)


class MasterGame(Game):
    """A Dragon Master table."""

    info = INFO

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        opts = resolve_options(INFO, options or {})
        if opts["players"] != 2:
            raise OptionError("master.option.players", value=shown(opts["players"]))
        if not isinstance(opts["match"], bool):
            raise OptionError("master.option.match", value=shown(opts["match"]))
        self.table = score_table(opts["four_of_a_kind"])
        self.options = dict(opts)
        self.num_players = 2
        self.match: bool = opts["match"]
        self.four_of_a_kind: str = opts["four_of_a_kind"]

    def new_initial_state(self) -> MasterState:
        return MasterState(self)

    def restore(self, snapshot: JSON) -> MasterState:
        """A state from :meth:`MasterState.snapshot`, checked (:class:`RecordError` with the
        code ``master.snapshot.invalid`` if it is malformed or does not follow the rules)."""
        from dragonlair.games.master.snapshot import restore

        return restore(self, snapshot)

    def parse_action(self, text: str) -> MasterAction:
        canon = " ".join(text.lower().split())
        got = BY_TEXT.get(canon)
        if got is None:
            raise MalformedActionError("master.action.malformed", text=shown(text))
        return got

    def action_from_index(self, index: int) -> MasterAction:
        if not 0 <= index < len(ACTIONS):
            raise OptionError("master.action.no_index", index=shown(index), n=len(ACTIONS))
        return ACTIONS[index]

    @property
    def num_distinct_actions(self) -> int:
        return len(ACTIONS)
