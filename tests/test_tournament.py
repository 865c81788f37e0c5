"""``dragonlair tournament``: schedule, scoring, ratings, determinism across backends, CLI."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.cli.main import app, option_owners
from dragonlair.core.errors import OptionError
from dragonlair.core.game import JSON, Action
from dragonlair.core.records import Record, replay
from dragonlair.tournament import (
    RUN_KEYS,
    GameResult,
    TournamentSpec,
    participant_labels,
    run_tournament,
    score,
    seating,
    wilson_interval,
)

runner = CliRunner()


class FirstLegalBot:
    """A custom bot loaded by ``module:attr`` (also inside worker processes)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        return legal[0]


def games_only(report: dict[str, Any]) -> dict[str, Any]:
    """The report without the fields that depend on the machine and backend."""
    return {k: v for k, v in report.items() if k not in RUN_KEYS}


def cli_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["tournament", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_repeated_names_are_separate_participants() -> None:
    assert participant_labels(["random", "greedy", "random", "random"]) == [
        "random", "greedy", "random#2", "random#3"]
    assert participant_labels(["random", "random#2", "random"]) == [
        "random", "random#2", "random#3"]


@pytest.mark.parametrize(("participants", "players"), [(2, 2), (3, 2), (4, 4), (6, 4), (5, 3)])
def test_every_participant_holds_every_seat_equally(participants: int, players: int) -> None:
    rounds = 3
    held = [[0] * players for _ in range(participants)]
    for i in range(rounds * participants):
        seats = seating(i, participants, players)
        assert len(set(seats)) == players  # nobody holds two seats
        for s, p in enumerate(seats):
            held[p][s] += 1
    assert held == [[rounds] * players for _ in range(participants)]


def test_the_games_follow_the_schedule() -> None:
    result = run_tournament("fist", ["greedy", "random", "random", "random", "random"], 10,
                            players=4, seed=3, options={"max_turns": 1})  # short games
    assert [r.index for r in result.results] == list(range(10))
    assert all(list(r.seats) == seating(r.index, 5, 4) for r in result.results)
    assert [p.games for p in result.participants] == [8] * 5  # each sits out 2 of 10
    assert [p.name for p in result.participants] == [
        "greedy", "random", "random#2", "random#3", "random#4"]


def test_a_shared_win_counts_a_fraction() -> None:
    spec = TournamentSpec("fist", {}, ("a", "b", "c"), ("a", "b", "c"), 3, 0)
    results = [
        GameResult(0, (0, 1, 2), (0, 1), (1, 1, 3), 5, "shared"),
        GameResult(1, (1, 2, 0), (), (1, 1, 1), 5, "nobody"),
        GameResult(2, (2, 0, 1), (1,), (2, 1, 3), 5, "b alone"),
    ]
    a, b, c = score(spec, results)
    assert (a.wins, b.wins, c.wins) == (1.5, 0.5, 0)
    assert a.games == b.games == c.games == 3
    assert a.mean_placing == pytest.approx((1 + 1 + 1) / 3)
    assert c.mean_placing == pytest.approx((3 + 1 + 2) / 3)
    assert a.win_rate == pytest.approx(0.5)
    assert a.mu > max(b.mu, c.mu)  # a placed first in all three
    assert score(spec, list(reversed(results)))[0].mu == a.mu  # rated in game order


def test_wilson_interval_matches_hand_computed_values() -> None:
    # p = 8/10, z = 1.96: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=2e-4) and hi == pytest.approx(0.9433, abs=2e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=2e-4)
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=2e-4) and hi == pytest.approx(0.5962, abs=2e-4)
    assert wilson_interval(2.5, 5) == pytest.approx((1 - wilson_interval(2.5, 5)[1],
                                                      1 - wilson_interval(2.5, 5)[0]))
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("game", "strong", "players"),
                         [("fist", "greedy", 4), ("master", "greedy", 2),
                          # Farkle's games are long (a second for six): CI
                          pytest.param("farkle", "cautious", 2, marks=pytest.mark.slow)])
def test_the_stronger_bot_is_rated_higher(game: str, strong: str, players: int) -> None:
    bots = [strong] + ["random"] * players
    # Farkle's games are the long ones: 6 of them tell the cautious bot apart already
    result = run_tournament(game, bots, 6 if game == "farkle" else 12, players=players, seed=2)
    best = result.ranking()[0]
    assert best.name == strong
    assert all(best.ordinal > p.ordinal and best.mu > p.mu
               for p in result.participants[1:])
    assert best.win_rate is not None and best.win_rate > 0.5
    data = result.to_json()
    assert data["participants"][0]["rank"] == 1
    assert data["participants"][0]["rating"]["ordinal"] == pytest.approx(
        best.mu - 3 * best.sigma, abs=1e-5)


@pytest.mark.slow
def test_workers_give_the_same_report_as_one_process() -> None:
    args = ["fist", "--bots", "greedy,random,random,random,random", "--games", "5",
            "--seed", "7"]
    one = cli_json(*args)
    two = cli_json(*args, "--workers", "2")
    assert one["backend"] == {"kind": "serial", "workers": 1}
    assert two["backend"] == {"kind": "processes", "workers": 2}
    assert games_only(one) == games_only(two)
    assert one["games"] == 5 and one["schedule"] == "rotating"
    other = cli_json(*args[:-1], "8")
    assert games_only(other) != games_only(one)


@pytest.mark.slow
def test_custom_bots_work_in_worker_processes() -> None:
    bots = ["random", f"{__name__}:FirstLegalBot"]
    seen: list[int] = []
    two = run_tournament("master", bots, 6, seed=1, workers=2, on_game=seen.append)
    one = run_tournament("master", bots, 6, seed=1)
    assert sorted(seen) == list(range(6))
    assert games_only(one.to_json()) == games_only(two.to_json())
    assert two.participants[1].games == 6


@pytest.mark.long  # the release tier installs the ray extra (scripts/test.sh --long)
def test_ray_on_a_local_instance_gives_the_same_report() -> None:
    """Eight games on a local Ray instance (whose start is most of the time) give the report
    of the same eight games played here."""
    pytest.importorskip("ray")
    bots = ["cautious", "random", "random"]
    games = 8
    local = run_tournament("farkle", bots, games, players=2, seed=4)
    on_ray = run_tournament("farkle", bots, games, players=2, seed=4, ray_address="local",
                            workers=2)
    assert on_ray.backend["kind"] == "ray"
    assert games_only(on_ray.to_json()) == games_only(local.to_json())


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(OptionError, match=r"pip install 'dragonlair\[ray\]'"):
        run_tournament("master", ["greedy", "random"], 2, ray_address="local")
    result = runner.invoke(app, ["tournament", "master", "--bots", "greedy,random",
                                 "--games", "2", "--ray", "local"])
    assert result.exit_code == 2 and "dragonlair[ray]" in result.output


def test_table_names_every_participant() -> None:
    result = runner.invoke(app, ["tournament", "farkle", "--bots", "cautious,random,random",
                                 "--games", "3", "--players", "3", "--seed", "1"])
    assert result.exit_code == 0, result.output
    for word in ("cautious", "random#2", "random ", "win rate", "95% CI", "ordinal",
                 "games/s", "seat win rates"):
        assert word in result.output, word


def test_json_report_shape() -> None:
    data = cli_json("master", "--bots", "greedy,random,random", "--games", "6", "--seed", "2")
    assert data["game"] == "master" and data["players"] == 2 and data["games"] == 6
    assert [p["name"] for p in data["participants"]] == ["greedy", "random", "random#2"]
    assert sum(p["games"] for p in data["participants"]) == 12
    assert sum(p["wins"] for p in data["participants"]) + data["draws"] == pytest.approx(6)
    assert sum(data["seat_wins"]) + data["draws"] == pytest.approx(6)
    for p in data["participants"]:
        lo, hi = p["win_rate_ci95"]
        assert 0 <= lo <= p["win_rate"] <= hi <= 1
        r = p["rating"]
        assert r["ci95"][0] < r["mu"] < r["ci95"][1]
    assert sorted(p["rank"] for p in data["participants"]) == [1, 2, 3]
    assert {"seconds", "games_per_second"} <= RUN_KEYS <= set(data)


@pytest.mark.slow
def test_saved_records_replay(tmp_path: Path) -> None:
    args = ["fist", "--bots", "greedy,random,random", "--players", "3", "--games", "5",
            "--seed", "9"]
    data = cli_json(*args, "--save-dir", str(tmp_path), "--workers", "2")
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [f"fist-9-{i:05d}.json" for i in range(5)]
    rec = Record.load(files[1])
    assert [s["name"] for s in rec.seats] == ["random", "random#2", "greedy"]  # game 1 rotated
    assert rec.meta["game_index"] == 1
    _, state = replay(rec)
    assert state.is_terminal()
    out = runner.invoke(app, ["replay", str(files[4])])
    assert out.exit_code == 0 and "all legal" in out.output
    assert games_only(cli_json(*args)) == games_only(data)  # saving changes nothing


def test_bad_input_gets_a_clear_error() -> None:
    for args, words in [
        (["chess", "--bots", "a,b"], "unknown game"),
        (["fist", "--bots", "greedy,wizard,random"], "unknown bot 'wizard'"),
        (["fist", "--bots", "greedy,random"], "at least as many bots as players"),
        (["master", "--bots", "greedy"], "at least two bots"),
        (["fist", "--bots", "greedy,random,random", "--games", "0"], "--games must be"),
        (["fist", "--bots", "greedy,random,random", "--workers", "0"], "--workers must be"),
        (["fist", "--bots", "greedy,random,random", "--players", "9"], "3 to 6 players"),
        (["master", "--bots", "greedy,random", "--players", "3"], "for 2 players"),
        (["master", "--bots", "greedy,random", "--max-turns", "3"],
         f"of {option_owners('--max-turns')} only"),
        (["farkle", "--bots", "nowhere.mod:Bot,random"], "cannot load bot"),
        # Ray is an extra that CI does not install (scripts/test.sh --long does)
        (["fist", "--bots", "greedy,random,random", "--players", "3", "--ray", "127.0.0.1:1"],
         "cannot reach Ray" if importlib.util.find_spec("ray") else "dragonlair[ray]"),
    ]:
        result = runner.invoke(app, ["tournament", *args])
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output, (args, result.output)
        assert "Traceback" not in result.output
