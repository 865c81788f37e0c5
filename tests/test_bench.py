"""`dragonlair bench --vs-openspiel`, `--simulate` and `--adapters`, and the invariants the
engines' speed work relies on.

Timings are never asserted on: only that the rates are measured, positive and reported.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from dragonlair import bench
from dragonlair.bench import (
    DEFAULT_ROUNDS,
    REFERENCES,
    Reference,
    adapter_table,
    openspiel_playout,
    sample_outcome,
    simulate_game,
)
from dragonlair.cli import main as cli_main
from dragonlair.cli.main import app
from dragonlair.core.game import CHANCE, State
from dragonlair.games import game_ids, make_game, plugin
from dragonlair.games.farkle.actions import ALLIANCE, BLANK, DICE_CODE, DRAGON, FarkleAction
from dragonlair.games.farkle.state import FarkleState
from dragonlair.games.master import state as master_state
from dragonlair.simulate import simulate
from tests.scripts import load_script

runner = CliRunner()
GAMES = {"fist", "master", "farkle"}
REFERENCE_NAMES = {"goofspiel", "first_sealed_auction", "tic_tac_toe", "pig"}


def _check_side(entry: dict[str, Any], rounds: int) -> None:
    """One side's figures: its rounds (actions per CPU second each), their median, range
    and sums."""
    assert entry["games"] >= rounds and entry["actions"] >= entry["games"]
    assert entry["seconds"] > 0
    assert len(entry["rounds"]) == rounds and all(r > 0 for r in entry["rounds"])
    assert entry["actions_per_s_min"] == min(entry["rounds"])
    assert entry["actions_per_s_max"] == max(entry["rounds"])
    assert entry["actions_per_s_min"] <= entry["actions_per_s"] <= entry["actions_per_s_max"]


@pytest.mark.slow
def test_vs_openspiel_json_has_every_game_and_ratio() -> None:
    pytest.importorskip("pyspiel")
    result = runner.invoke(app, ["bench", "--vs-openspiel", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rounds"] == DEFAULT_ROUNDS == 15 and data["seconds"] == 0.2
    assert data["round_seconds"] == pytest.approx(0.2 / 15)
    assert data["warm_up_seconds"] == pytest.approx(0.02)  # a tenth, at most 0.3 s
    assert data["clock"].startswith("process_time")
    assert "chance outcomes" in data["loop"]
    assert set(data["games"]) == GAMES
    assert data["games"]["fist"]["options"] == {"players": 4}
    assert data["games"]["farkle"]["options"] == {"players": 2}
    assert set(data["references"]) == REFERENCE_NAMES
    _check_side(data["games"]["fist"], 2 * DEFAULT_ROUNDS)  # against both its references
    for game in ("master", "farkle"):
        _check_side(data["games"][game], DEFAULT_ROUNDS)
    for entry in data["references"].values():
        _check_side(entry, DEFAULT_ROUNDS)
    assert {(r["game"], r["reference"]) for r in data["rows"]} == {
        (ref.game, ref.name) for ref in REFERENCES}
    for row in data["rows"]:
        assert row["ours_actions_per_s"] > 0 and row["theirs_actions_per_s"] > 0
        _check_side(row["ours"], DEFAULT_ROUNDS)
        _check_side(row["theirs"], DEFAULT_ROUNDS)
        assert row["ours"]["actions_per_s"] == row["ours_actions_per_s"]
        assert row["theirs"] == {k: v for k, v in data["references"][row["reference"]].items()
                                 if k in row["theirs"]}
        # the ratio: the median of the ratios of each round of ours and the round of theirs
        # next to it; the rounds' rates are whole numbers (each off by up to 0.5), the ratio
        # has 4 significant digits and comes from the unrounded rates
        rounds = list(zip(row["ours"]["rounds"], row["theirs"]["rounds"], strict=True))
        low = statistics.median([(a - 0.5) / (b + 0.5) for a, b in rounds])
        high = statistics.median([(a + 0.5) / (b - 0.5) for a, b in rounds])
        assert low * (1 - 1e-3) <= row["ratio"] <= high * (1 + 1e-3), row
        # the range: the lowest and highest of those ratios
        pairs = [a / b for a, b in rounds]
        assert row["ratio_min"] == pytest.approx(min(pairs), rel=2e-2)
        assert row["ratio_max"] == pytest.approx(max(pairs), rel=2e-2)
        assert row["ratio_min"] <= row["ratio_max"]
        # and of the fastest rounds, the least disturbed
        assert row["ratio_best"] == pytest.approx(
            max(row["ours"]["rounds"]) / max(row["theirs"]["rounds"]), rel=2e-2)
        assert data["ratios"][f"{row['game']}/{row['reference']}"] == row["ratio"]
    assert data["references"]["goofspiel"]["turn_based"] is True
    assert data["machine"]["python"]


def test_vs_openspiel_rounds_option() -> None:
    pytest.importorskip("pyspiel")
    result = runner.invoke(app, ["bench", "master", "--vs-openspiel", "--seconds", "0.07",
                                 "--rounds", "7", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rounds"] == 7 and set(data["games"]) == {"master"}
    (row,) = data["rows"]
    _check_side(row["ours"], 7)
    _check_side(row["theirs"], 7)
    too_few = runner.invoke(app, ["bench", "--vs-openspiel", "--rounds", "4"])
    assert too_few.exit_code == 2


def test_vs_openspiel_table_for_one_game() -> None:
    pytest.importorskip("pyspiel")
    result = runner.invoke(app, ["bench", "farkle", "--vs-openspiel", "--rounds", "5",
                                 "--seconds", "0.05"], terminal_width=120)
    assert result.exit_code == 0, result.output
    assert "pig" in result.stdout and "ratio" in result.stdout
    words = " ".join(result.stdout.split())  # the caption, unwrapped
    assert "5 alternating rounds" in words and "median (min-max)" in words
    assert "goofspiel" not in result.stdout and "tic_tac_toe" not in result.stdout


def test_vs_openspiel_without_pyspiel_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` now fails
    result = runner.invoke(app, ["bench", "--vs-openspiel", "--seconds", "0.05"])
    assert result.exit_code == 2
    assert "pip install 'dragonlair[openspiel]'" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_plain_bench_is_unchanged() -> None:
    result = runner.invoke(app, ["bench", "master", "--seconds", "0.05", "--json"])
    assert result.exit_code == 0
    (row,) = json.loads(result.stdout)
    assert row["game"] == "master" and row["actions_per_s"] > 0


# ---------------------------------------------------------------------- --simulate, --adapters


@pytest.fixture
def short_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bench tables of one turn where a game has a turn limit (Fist's and Farkle's random
    games are long): every game's rounds then stay short."""
    real = bench.bench_table

    def short(game_id: str) -> dict[str, Any]:
        spec = plugin(game_id).interop
        limit = {"max_turns": 1} if spec is not None and "max_turns" in spec.parameters else {}
        return {**real(game_id), **limit}

    monkeypatch.setattr(bench, "bench_table", short)


def _check_ratio(loop: dict[str, Any], engine: dict[str, Any]) -> None:
    """The ratio is the median of the ratios of each round of the loop and the engine's round
    of the same turn (4 significant digits, from the unrounded rates; the rounds are whole
    numbers), its range the lowest and highest of them."""
    # each round's rate is shown rounded to a whole number: a slow round (a few hundred steps
    # a second) moves its ratio by more than the 4 digits, so the bounds allow for it
    rounds = list(zip(loop["rounds"], engine["rounds"], strict=True))
    low = [(a - 0.5) / (b + 0.5) for a, b in rounds]
    high = [(a + 0.5) / (b - 0.5) for a, b in rounds]
    assert (statistics.median(low) * (1 - 1e-3) <= loop["ratio"]
            <= statistics.median(high) * (1 + 1e-3))
    assert min(low) * (1 - 1e-3) <= loop["ratio_min"] <= min(high) * (1 + 1e-3)
    assert max(low) * (1 - 1e-3) <= loop["ratio_max"] <= max(high) * (1 + 1e-3)
    best = (max(loop["rounds"]), max(engine["rounds"]))
    assert ((best[0] - 0.5) / (best[1] + 0.5) * (1 - 1e-3) <= loop["ratio_best"]
            <= (best[0] + 0.5) / (best[1] - 0.5) * (1 + 1e-3))


@pytest.mark.slow  # CI: bench games of every game; test_simulate_table_for_one_game is quick
@pytest.mark.usefixtures("short_tables")
def test_simulate_json_has_every_game_and_ratio() -> None:
    result = runner.invoke(app, ["bench", "--simulate", "--rounds", "5", "--seconds", "0.03",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "simulate" and data["rounds"] == 5 and data["seconds"] == 0.03
    assert data["clock"].startswith("process_time") and "simulate()" in data["loop"]
    assert set(data["games"]) == set(game_ids())
    for game, entry in data["games"].items():
        assert entry["options"] == bench.bench_table(game)
        _check_side(entry["engine"], 5)
        _check_side(entry["simulate"], 5)
        _check_ratio(entry["simulate"], entry["engine"])
        assert data["ratios"][f"{game}/simulate"] == entry["simulate"]["ratio"]


def test_simulate_loop_plays_the_games_of_simulate() -> None:
    """The measured loop plays simulate()'s games: the same seeds, the same outcomes."""
    for game_id, options in (("hoard", {"players": 3}), ("fist", {"players": 4, "max_turns": 2})):
        run = simulate(game_id, 3, ["random"], seed=7, options=options)
        game = make_game(game_id, options)
        names = ["random"] * game.num_players
        states = [simulate_game(game, names, 7, i) for i in range(3)]
        wins = [0] * game.num_players
        for state in states:
            outcome = state.outcome()
            assert outcome is not None
            for w in outcome.winners:
                wins[w] += 1
        assert wins == run.wins
        assert sum(s.turn_count() for s in states) / 3 == run.mean_turns


@pytest.mark.slow  # CI: every adapter of every game; the quick run keeps the one-line rows
@pytest.mark.usefixtures("short_tables")
def test_adapters_json_has_every_game_adapter_and_ratio() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from dragonlair.interop.openspiel import engine_options

    result = runner.invoke(app, ["bench", "--adapters", "--rounds", "5", "--seconds", "0.02",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "adapters" and data["rounds"] == 5
    assert "observation_tensor" in data["loop"] and "agent_iter" in data["loop"]
    assert set(data["games"]) == set(game_ids())
    for game, entry in data["games"].items():
        params, table = adapter_table(game)
        assert entry["options"] == table == engine_options(game, params)
        assert table.get("max_turns", 1) == 1  # the short tables' turn limit
        _check_side(entry["engine"], 5)
        for loop in ("openspiel", "openspiel-bare", "pettingzoo", "gymnasium"):
            side = entry[loop]
            _check_side(side, 5)
            _check_ratio(side, entry["engine"])
            assert data["ratios"][f"{game}/{loop}"] == side["ratio"]
            # each round's steps per CPU second; a round's rate may round to 0 here: a test
            # worker's CPU time counts its other threads too (a server fixture's), which the
            # few milliseconds of a round cannot outweigh; the steps themselves are counted
            assert len(side["steps_rounds"]) == 5 and all(r >= 0 for r in side["steps_rounds"])
            assert side["steps"] >= side["games"]
            assert side["steps_per_s_min"] <= side["steps_per_s"] <= side["steps_per_s_max"]
        # OpenSpiel applies one action a step, chance included
        for loop in ("openspiel", "openspiel-bare"):
            assert entry[loop]["steps"] == entry[loop]["actions"]


def test_adapters_without_a_dependency_say_so_per_row(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gymnasium")
    monkeypatch.setattr(cli_main, "console", Console(width=200))  # the rows unwrapped
    for name in ("pyspiel", "dragonlair.interop.openspiel", "pettingzoo",
                 "dragonlair.interop.pettingzoo"):
        monkeypatch.setitem(sys.modules, name, None)  # importing it now fails
    result = runner.invoke(app, ["bench", "master", "--adapters", "--rounds", "5",
                                 "--seconds", "0.02", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    entry = data["games"]["master"]
    for loop in ("openspiel", "openspiel-bare"):
        assert entry[loop] == {
            "missing": "not measured: OpenSpiel (pyspiel) is not installed "
                       "(pip install 'dragonlair[openspiel]')"}
    assert "pip install 'dragonlair[pettingzoo]'" in entry["pettingzoo"]["missing"]
    _check_side(entry["gymnasium"], 5)
    assert set(data["ratios"]) == {"master/gymnasium"}
    table = runner.invoke(app, ["bench", "master", "--adapters", "--rounds", "5",
                                "--seconds", "0.02"])
    assert table.exit_code == 0, table.output
    assert "pip install 'dragonlair[openspiel]'" in table.stdout
    assert "gymnasium" in table.stdout


def test_simulate_table_for_one_game() -> None:
    result = runner.invoke(app, ["bench", "hoard", "--simulate", "--rounds", "5",
                                 "--seconds", "0.02"], terminal_width=120)
    assert result.exit_code == 0, result.output
    assert "simulate" in result.stdout and "engine" in result.stdout
    words = " ".join(result.stdout.split())  # the caption, unwrapped
    assert "5 alternating rounds" in words and "median (min-max)" in words
    assert "fist" not in result.stdout


@pytest.mark.parametrize("args,says", [
    (["--simulate", "--server"], "--simulate, --server: these do not go together"),
    (["--adapters", "--vs-openspiel"], "--vs-openspiel, --adapters: these do not go together"),
    (["--simulate", "--adapters"], "--simulate, --adapters: these do not go together"),
    (["--adapters", "--traffic"], "--adapters, --traffic: these do not go together"),
    (["--simulate", "--db", "sqlite://", "--processes", "2"], "--processes, --db: only with"),
    (["--adapters", "--rounds", "4"], "--rounds"),
])
def test_bad_combinations_are_one_clear_line(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["bench", *args, "--seconds", "0.05"])
    assert result.exit_code == 2
    assert says in " ".join(result.output.split())
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if "--rounds" not in args:  # typer's own box for an option out of range
        assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("ref", REFERENCES, ids=lambda r: r.name)
def test_openspiel_loop_counts_every_applied_action(ref: Reference) -> None:
    spiel = pytest.importorskip("pyspiel")
    load = spiel.load_game_as_turn_based if ref.turn_based else spiel.load_game
    game = load(ref.name, dict(ref.params))
    for seed in range(5):
        state = game.new_initial_state()
        n = openspiel_playout(state, random.Random(seed))
        assert state.is_terminal() and n == len(state.history())


def test_sample_outcome_is_state_sample_chance() -> None:
    outcomes = [(7, 0.125), (8, 0.5), (9, 0.375)]
    a, b = random.Random(3), random.Random(3)
    for _ in range(200):
        r = b.random()
        expected = 7 if r < 0.125 else 8 if r < 0.625 else 9
        assert sample_outcome(outcomes, a) == expected


# ---------------------------------------------------------------------- the engines' speed work


RngState = tuple[Any, ...]


def _playthrough(game_id: str, options: dict[str, object], seed: int,
                 check: Callable[[State, RngState], None]) -> None:
    """A uniform random game; ``check(state, rng state)`` at every chance node."""
    state = make_game(game_id, options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        seats = state.current_seats()
        if seats[0] == CHANCE:
            check(state, rng.getstate())
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        for seat in seats:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game_id,options", [
    ("fist", {"players": 3}),
    pytest.param("fist", {"players": 6}, marks=pytest.mark.slow),  # CI: seconds, as 3 seats
    ("master", {}), ("master", {"match": True}), ("farkle", {"players": 3}),
])
def test_sample_chance_draws_as_the_contract_does(game_id: str,
                                                  options: dict[str, object]) -> None:
    """The engines' own sample_chance (cached running sums, no outcome list) picks what
    State.sample_chance picks from chance_outcomes(), with the same draws; farkle's rolls
    (drawn die by die) are checked in the next test."""

    def check(state: State, rng_state: RngState) -> None:
        if isinstance(state, FarkleState) and state.phase.name == "ROLL":
            return
        fast, slow = random.Random(), random.Random()
        fast.setstate(rng_state)
        slow.setstate(rng_state)
        assert state.sample_chance(fast) is State.sample_chance(state, slow)
        assert fast.getstate() == slow.getstate()

    for seed in range(6):
        _playthrough(game_id, options, seed, check)


class _OtherRandom(random.Random):
    """A Random subclass: farkle's dice take the plain ``randrange`` path for it."""


def test_farkle_dice_fast_path_draws_what_randrange_draws() -> None:
    def reference(state: FarkleState, rng: random.Random) -> FarkleAction:
        c = [0, 0, 0, 0, 0, 0]
        for _ in range(state.hand_dice):
            c[rng.randrange(6)] += 1
        e = rng.randrange(6)
        event = DRAGON if e == 0 else ALLIANCE if e == 1 else BLANK
        return state.space.dice[DICE_CODE[(c[0], c[1], c[2], c[3], c[4], c[5])]][event]

    rolls = 0

    def check(state: State, rng_state: RngState) -> None:
        nonlocal rolls
        if not isinstance(state, FarkleState) or state.phase.name != "ROLL":
            return
        rngs = [random.Random(), _OtherRandom(), random.Random()]
        for r in rngs:
            r.setstate(rng_state)
        expected = reference(state, rngs[2])
        assert state.sample_chance(rngs[0]) is expected
        assert state.sample_chance(rngs[1]) is expected
        assert rngs[0].getstate() == rngs[1].getstate() == rngs[2].getstate()
        rolls += 1

    for seed in range(8):
        _playthrough("farkle", {"players": 2}, seed, check)
    assert rolls > 100


def test_master_legal_actions_survive_cache_generations(monkeypatch: pytest.MonkeyPatch) -> None:
    """Legal placements are cached across states in two bounded generations: with tiny
    caches (flipped all the time) they stay the M3 cells for every value in hand, by value
    then cell."""
    monkeypatch.setattr(master_state, "_CACHE_MAX", 3)
    monkeypatch.setattr(master_state, "_LEGAL", {})
    monkeypatch.setattr(master_state, "_LEGAL_OLD", {})
    monkeypatch.setattr(master_state, "_ALL_VALUES", {})
    monkeypatch.setattr(master_state, "_ALL_VALUES_OLD", {})
    game = make_game("master", {"match": True})
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_initial_state()
        assert isinstance(state, master_state.MasterState)
        while not state.is_terminal():
            seats = state.current_seats()
            if seats[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            seat = seats[0]
            occupied = {c for c, v in enumerate(state.grid) if v >= 0}
            cells = [c for c in range(master_state.CELLS)
                     if master_state.placement_problem(occupied, c) is None]
            expected = [master_state.PLACE[v][c] for v in range(4) if state.hands[seat][v]
                        for c in cells]
            legal = state.legal_actions(seat)
            assert list(legal) == expected
            assert state.legal_actions(1 - seat) == ()
            state.apply(seat, legal[rng.randrange(len(legal))])
        assert len(master_state._LEGAL) <= 3 and len(master_state._ALL_VALUES) <= 3


def _baselines() -> Any:
    """bench/baselines.py, loaded as a module (it is a script, not a package module)."""
    return load_script("bench/baselines.py", "bench_baselines")


def test_the_bot_baselines_table_has_every_bot_of_the_game(capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """``bench/baselines.py``: one row per bot of the game, the random bot last as the
    reference; win rates with their intervals; a bad option is refused in one line."""
    baselines = _baselines()
    baselines.main(["--games", "1", "--workers", "1", "master"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| master |")]
    assert [row.split("|")[2].strip() for row in rows] == ["expert", "greedy", "random"]
    assert all("% (" in row for row in rows)
    for bad in (["nosuchgame"], ["--games", "0", "master"]):
        with pytest.raises(SystemExit) as info:
            baselines.main(bad)
        assert info.value.code == 2
