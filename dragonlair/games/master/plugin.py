"""Dragon Master, declared for the rest of the system (:mod:`dragonlair.core.plugin`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dragonlair.core.game import JSON, Action, Game
from dragonlair.core.players import BotFactory
from dragonlair.core.plugin import BenchReference, Determinizer, GamePlugin, InteropSpec, rules_in
from dragonlair.games.master.game import INFO
from dragonlair.games.master.state import Kind

#: placements in one round (M3: 16 cards on the grid)
PLACEMENTS = 16


def make(options: Mapping[str, Any]) -> Game:
    from dragonlair.games.master.game import MasterGame

    return MasterGame(options)


def bots() -> dict[str, BotFactory]:
    from dragonlair.games.master.bots import ExpertMasterBot, GreedyMasterBot

    return {"greedy": GreedyMasterBot, "expert": ExpertMasterBot}


def is_chance_action(action: Action) -> bool:
    """Deals and the start player are chance outcomes."""
    return int(getattr(action, "kind", -1)) in (Kind.DEAL, Kind.START)


def decision_bound(game: Game) -> int:
    """One round: 16 placements. A match (M5) has no bound (drawn rounds repeat)."""
    if game.options.get("match"):
        raise ValueError("a Dragon Master match has no bound on its length (drawn rounds "
                         "repeat); use single rounds (match=false)")
    return PLACEMENTS


def to_options(params: Mapping[str, Any]) -> dict[str, Any]:
    """``four_of_a_kind_face`` (a bool: "100" reads back as a number in game strings) is the
    ``four_of_a_kind`` option (M4)."""
    out = dict(params)
    if "four_of_a_kind_face" in out:
        out["four_of_a_kind"] = "100+face" if out.pop("four_of_a_kind_face") else "100"
    return out


def encoder(game: Game) -> Any:
    from dragonlair.games.master.encoding import MasterEncoder

    return MasterEncoder(game)


def determinizer() -> Determinizer:
    from dragonlair.games.master.determinize import determinize

    return determinize


def analysis() -> Any:
    from dragonlair.games.master.analysis import analyser

    return analyser()


def view_schema() -> JSON:
    from dragonlair.games.master.views import view_schema as schema

    return schema()


PLUGIN = GamePlugin(
    info=INFO,
    make=make,
    bots=bots,
    default_bot="expert",
    strongest_bot="expert",
    is_chance_action=is_chance_action,
    encoder=encoder,
    determinizer=determinizer,
    interop=InteropSpec(
        parameters={"players": 2, "four_of_a_kind_face": False, "options": ""},
        decision_bound=decision_bound,
        to_options=to_options,
        references=(
            BenchReference("tic_tac_toe", {}, False,
                           "two players placing pieces on a grid, the legal moves being cells "
                           "of the board, as Dragon Master's placements (OpenSpiel has no "
                           "dealt-card placement game; its card games, e.g. leduc_poker, bet "
                           "rather than place)"),
        ),
    ),
    view_schema=view_schema,
    terminal="dragonlair.games.master.terminal.play:play_master",
    terminal_online="dragonlair.cli.online:OnlineMaster",
    tips="dragonlair.games.master.tips",
    tutorial="dragonlair.games.master:tutorial.json",
    terminal_rules="dragonlair.games.master.terminal.screen:render_rules",
    terminal_result="dragonlair.games.master.terminal.screen:result_detail",
    bench_options={},
    rules=rules_in("dragonlair.games.master"),
    analysis=analysis,
    puzzles="dragonlair.games.master.puzzles:RULES",
    terminal_puzzle="dragonlair.games.master.terminal.puzzle:show",
    conformance="dragonlair.games.master.conformance:CONFORMANCE",
)
