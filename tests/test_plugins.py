"""One plugin per game (docs/architecture.md, Plugins): shared layers never branch on a game
id, ``core`` imports no game and no bot, and every plugin is complete: its bots construct, its
encoder encodes a view, its determinizer gives a history whose replay shows the same view,
its options are typed."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest

from dragonlair.bots import bot_names, make_bot
from dragonlair.core.errors import OptionError
from dragonlair.core.game import CHANCE, OPTION_KINDS, GameInfo, OptionSpec, State, resolve_options
from dragonlair.core.plugin import GamePlugin, load_path
from dragonlair.games import BUILTIN, GAME_FACTORIES, game_ids, make_game, plugin
from tests import sources

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dragonlair"
GAMES = game_ids()


def _py_files(under: Path) -> tuple[Path, ...]:
    return sources.python_files(under)


def _literal_ids(node: ast.expr) -> set[str]:
    """Game ids among the string constants of ``node`` (a constant, tuple, list or set)."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return {i.value for i in items
            if isinstance(i, ast.Constant) and isinstance(i.value, str) and i.value in GAMES}


def test_no_shared_layer_compares_a_game_id_with_a_literal() -> None:
    found = []
    for path in _py_files(PACKAGE):
        if (PACKAGE / "games") in path.parents:
            continue  # a game's own package may name itself (and the registry its games)
        for node in ast.walk(sources.tree(path)):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_literal_ids(side) for side in sides):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_core_imports_no_game_and_no_bot() -> None:
    found = []
    for path in _py_files(PACKAGE / "core"):
        for node in ast.walk(sources.tree(path)):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.startswith(("dragonlair.games", "dragonlair.bots")):
                    found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)} {name}")
    assert found == []


def test_registry_lists_the_built_in_games_and_refuses_others() -> None:
    """The three built-in games, and any installed as its own package (CI installs
    examples/hoard: docs/new-game.md)."""
    assert sorted(BUILTIN) == ["farkle", "fist", "master"]
    assert set(BUILTIN) <= set(GAMES) and sorted(GAMES) == GAMES
    assert sorted(GAME_FACTORIES) == GAMES
    with pytest.raises(OptionError) as err:
        make_game("chess")
    assert err.value.code == "core.game.unknown"
    assert err.value.params["known"] == GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_plugin_declares_its_game(game_id: str) -> None:
    spec = plugin(game_id)
    assert isinstance(spec, GamePlugin) and spec.info.id == game_id
    game = spec.make({})
    assert game.info == spec.info
    names = bot_names(game_id)
    assert "random" in names and spec.default_bot in names and spec.strongest_bot in names
    for name in names:
        bot = make_bot(game_id, name, random.Random(0))
        assert callable(bot.choose)
    for entry in (spec.terminal, spec.terminal_rules, spec.terminal_result):
        if entry is not None:
            assert callable(load_path(entry))
    assert spec.rules is not None and spec.rules("en").strip() and spec.rules("de").strip()
    for option, path in spec.option_files.items():
        assert option in {o.name for o in spec.info.options} and callable(load_path(path))


@pytest.mark.parametrize("game_id", GAMES)
def test_options_are_typed_and_defaults_pass_their_own_check(game_id: str) -> None:
    info = plugin(game_id).info
    assert info.options
    for spec in info.options:
        assert spec.kind in OPTION_KINDS and spec.help
        assert spec.problem(spec.default) is None, spec.name
        if spec.kind == "choice":
            assert spec.default in spec.choices
        json.dumps(spec.to_json())  # a lobby form field is JSON
    players = next(s for s in info.options if s.name == "players")
    assert (players.minimum, players.maximum) == (info.min_players, info.max_players)
    # a player count past the table is refused with the game's own code, before any setup
    with pytest.raises(OptionError) as err:
        make_game(game_id, {"players": info.max_players + 1})
    assert err.value.code.startswith(f"{game_id}.")


def test_resolve_options_checks_types_ranges_and_choices_generically() -> None:
    info = GameInfo("demo", "Demo", 2, 4, 1, (
        OptionSpec("players", 2, "seats", kind="int", minimum=2, maximum=4),
        OptionSpec("mode", "a", "mode", kind="choice", choices=("a", "b")),
        OptionSpec("fast", False, "fast", kind="bool"),
        OptionSpec("limit", None, "limit", kind="int", minimum=1, nullable=True),
    ))
    assert resolve_options(info, {"players": 3}) == {"players": 3, "mode": "a", "fast": False,
                                                     "limit": None}
    cases: list[tuple[dict[str, Any], str]] = [
             ({"colour": 1}, "core.option.unknown"), ({"players": "3"}, "core.option.wrong_type"),
             ({"players": True}, "core.option.wrong_type"),
             ({"players": 5}, "core.option.out_of_range"),
             ({"mode": "c"}, "core.option.not_a_choice"), ({"fast": 1}, "core.option.wrong_type"),
             ({"limit": 0}, "core.option.out_of_range"), ({"fast": None}, "core.option.wrong_type")]
    for given, code in cases:
        with pytest.raises(OptionError) as err:
            resolve_options(info, given)
        assert err.value.code == code, given
        assert err.value.message("de") and "core." not in str(err.value)


def _random_position(game_id: str, seed: int, steps: int) -> State:
    game = make_game(game_id, {"max_turns": 4} if game_id != "master" else {})
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_encoder_and_determinizer_work_from_a_view(game_id: str) -> None:
    pytest.importorskip("numpy")
    from dragonlair.interop.resample import sample_history

    spec = plugin(game_id)
    assert spec.encoder is not None and spec.determinizer is not None
    for seed in range(4):
        state = _random_position(game_id, seed, 30 + 15 * seed)
        game = make_game(game_id, {"max_turns": 4} if game_id != "master" else {})
        encoder = spec.encoder(game)
        for seat in range(game.num_players):
            view = state.view(seat)
            vec = encoder.information_state(view)
            assert vec.shape == (encoder.information_state_size,)
            history = sample_history(game, view, seat, random.Random(seed))
            replay = game.new_initial_state()
            for who, action in history:
                replay.apply(who, action)
            assert json.dumps(replay.view(seat), sort_keys=True) == json.dumps(
                view, sort_keys=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_actions_are_one_block_at_the_end(game_id: str) -> None:
    spec = plugin(game_id)
    game = make_game(game_id)
    flags = [spec.is_chance_action(game.action_from_index(i))
             for i in range(game.num_distinct_actions)]
    first = flags.index(True)
    assert not any(flags[:first]) and all(flags[first:])
