"""Tips and strategy pages (dragonlair/tips, ``dragonlair tips``): the committed figures have
the shape a tiny regeneration gives, the regeneration is seeded, every number on a page
comes from the figures (change a value, the page changes), the figures are what they claim
to be (Fist's intervals are Wilson's, Master's deciding lines are the winner's line where the
sorted lists first differ, M4), and (``long``: the release run) the committed figures are
exactly what their stored command measures again."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.balance import wilson_interval
from dragonlair.cli.main import app
from dragonlair.games.farkle.policy import recruit_dp
from dragonlair.games.fist.tips import verdict
from dragonlair.games.master.cards import line_code, score_table
from dragonlair.games.master.tips import KINDS, line_kind, lines_of
from dragonlair.tips import TipsPage, games_with_tips, load, regenerate, tips_page
from dragonlair.tips.figures import FORMAT
from tests.sizes import size

#: the games of the tiny regenerations whose shape the committed figures must have: Master's
#: figures have their shape without a game (an expert game takes seconds; the slow deciding-
#: line test below plays one), Farkle's are exact (no games)
TINY = {"fist": 1, "master": 0, "farkle": 0}


def shape(x: Any) -> Any:
    """The structure of a JSON value: keys and types, lists by their first item."""
    if isinstance(x, dict):
        return {k: shape(v) for k, v in x.items()}
    if isinstance(x, list):
        return [shape(x[0])] if x else []
    return "number" if isinstance(x, (int, float)) and not isinstance(x, bool) else type(x).__name__


@pytest.fixture(scope="module")
def tiny() -> dict[str, dict[str, Any]]:
    return {g: regenerate(g, TINY[g], seed=5) for g in games_with_tips()}


@pytest.mark.parametrize("game", games_with_tips())
def test_the_committed_figures_have_the_shape_of_a_regeneration(
        tiny: dict[str, dict[str, Any]], game: str) -> None:
    committed = load(game)
    assert committed["format"] == FORMAT and committed["game"] == game
    assert committed["command"].startswith(f"dragonlair tips {game} --regenerate")
    assert f"--seed {committed['seed']}" in committed["command"]
    assert shape(committed) == shape(tiny[game])
    assert tiny[game]["command"] == (f"dragonlair tips {game} --regenerate "
                                     f"--games {TINY[game]} --seed 5")


def test_a_regeneration_is_seeded(tiny: dict[str, dict[str, Any]]) -> None:
    assert regenerate("fist", TINY["fist"], seed=5) == tiny["fist"]


def test_the_farkle_figures_are_the_optimal_policys() -> None:
    """D4: the thresholds are RecruitDP.threshold for 1 to 6 dice in hand."""
    figures = load("farkle")["figures"]
    dp = recruit_dp()
    assert [t["bank_from"] for t in figures["thresholds"]] == [dp.threshold(n)
                                                                for n in range(1, 7)]
    assert 0 < figures["farkle_chance"] < 1 and figures["expected_soldiers"] > 0


def test_the_master_line_scores_are_the_scoring_tables() -> None:
    """M4: a pair scores ten times the value, three and four of a kind 100."""
    table = score_table("100")
    for value, line in enumerate(load("master")["figures"]["lines"]):
        assert line["pair"] == table[line_code([value, value])] == 10 * value
        assert line["three"] == line["four"] == 100


def test_the_fist_characters_are_ranked_by_their_buyers_win_rate() -> None:
    figures = load("fist")["figures"]
    rates = [c["win_rate"] for c in figures["characters"]]
    assert rates == sorted(rates, reverse=True) and len(rates) >= 6


def test_the_fist_intervals_are_wilsons_and_name_the_verdicts() -> None:
    """Each character's 95% interval is the Wilson interval of its buyers' wins; the page
    calls it clearly above / below the base rate only when the whole interval is."""
    figures = load("fist")["figures"]
    base, chars = figures["base_rate"], figures["characters"]
    for c in chars:
        lo, hi = wilson_interval(c["wins"], c["holders"])
        assert c["ci95"] == [round(lo, 4), round(hi, 4)]
        assert c["win_rate"] == round(c["wins"] / c["holders"], 4)
        assert c["ci95"][0] <= c["win_rate"] <= c["ci95"][1]
    assert figures["buyer_rate"] == round(sum(c["wins"] for c in chars)
                                          / sum(c["holders"] for c in chars), 4)
    table = tips_page("fist", "en").tables[0]
    assert [row[4] for row in table.rows] == [
        f"{c['ci95'][0] * 100:.0f}–{c['ci95'][1] * 100:.0f}%" for c in chars]
    words = {"above": "clearly above", "below": "clearly below", "noise": "within noise"}
    assert [row[5] for row in table.rows] == [words[verdict(c, base)] for c in chars]
    assert [row[6] for row in table.rows] == [words[verdict(c, figures["buyer_rate"])]
                                              for c in chars]
    assert verdict({"ci95": [0.26, 0.3]}, 0.25) == "above"
    assert verdict({"ci95": [0.2, 0.24]}, 0.25) == "below"
    assert verdict({"ci95": [0.2, 0.3]}, 0.25) == "noise"


@pytest.mark.parametrize(("line", "kind"), [
    ([3, 3, 3, 3], "four"), ([0, 0, 0, 2], "three"), ([1, 1, 3, 3], "two_pairs"),
    ([0, 0, 1, 1], "two_pairs"), ([2, 1, 2, 0], "pair"), ([0, 3, 1, 0], "egg_pair"),
    ([3, 0, 2, 1], "no_group")])
def test_a_line_has_the_kind_of_its_groups(line: list[int], kind: str) -> None:
    """M4's groups: four, three, two pairs, a pair (a pair of eggs scores nothing)."""
    assert line_kind(line) == kind


@pytest.mark.slow
def test_the_master_deciding_line_is_the_winners_line_where_the_lists_differ(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """M4: the lists, lowest first, are compared element by element; the first difference
    decides. Run a small seeded regeneration, keep each game it plays (its seeded chance and
    expert bots checked) and check each tally from the final grid (expert games, seconds
    each: CI one, ``scripts/test.sh --long`` eight)."""
    n, seed = size(ci=1, long=8), 11
    import dragonlair.core.driver as driver
    from dragonlair.core.driver import seed_for
    from dragonlair.games.master.bots import ExpertMasterBot
    from dragonlair.games.master.state import SIZE

    played: list[tuple[Any, Any]] = []  # (the chance generator's state at the start, the end)
    real_play_out = driver.play_out

    def play_out(state: Any, bots: Any, rng: random.Random, **kw: Any) -> Any:
        i = len(played)
        assert all(isinstance(b, ExpertMasterBot) for b in bots)
        assert [b.rng.getstate() for b in bots] == [
            random.Random(seed_for(seed, i, s + 1)).getstate() for s in range(2)]
        start = rng.getstate()
        played.append((start, real_play_out(state, bots, rng, **kw)))
        return played[-1][1]

    monkeypatch.setattr(driver, "play_out", play_out)
    figures = regenerate("master", n, seed=seed)["figures"]
    assert [start for start, _ in played] == [random.Random(seed_for(seed, i)).getstate()
                                              for i in range(n)]
    table = score_table("100")
    won = dict.fromkeys(KINDS, 0)
    at = [0, 0, 0, 0]
    decided = 0
    for _, state in played:
        cols, rows = lines_of(state.grid, SIZE)
        scores = [sorted(table[line_code(v)] for v in side) for side in (cols, rows)]
        first = next((k for k in range(4) if scores[0][k] != scores[1][k]), None)
        if first is None:
            continue
        decided += 1
        at[first] += 1
        winner = 0 if scores[0][first] > scores[1][first] else 1
        assert state.outcome().winners == (winner,)
        # the winner's lines lowest first; of lines that score the same, the weaker kind first
        ranked = sorted((table[line_code(v)], -KINDS.index(line_kind(v)))
                        for v in (cols, rows)[winner])
        won[KINDS[-ranked[first][1]]] += 1
    assert decided > 0 and figures["decided"] == decided
    assert figures["decided_at"] == [round(k / decided, 4) if decided else 0.0 for k in at]
    assert [k["won"] for k in figures["kinds"]] == [
        round(won[k] / decided, 4) if decided else 0.0 for k in KINDS]


def test_the_master_figures_add_up() -> None:
    f = load("master")["figures"]
    games = load("master")["games"]
    assert f["decided"] == round(games * (1 - f["draw_rate"]))
    assert abs(sum(f["decided_at"]) - 1) < 1e-3
    assert abs(sum(k["won"] for k in f["kinds"]) - 1) < 1e-3
    assert abs(sum(k["lost"] for k in f["kinds"]) - 1) < 1e-3
    assert [k["kind"] for k in f["kinds"]] == list(KINDS)
    assert all(0 <= k["edge_games"] <= games for k in f["kinds"])


def test_the_farkle_figures_are_what_the_command_computes() -> None:
    """Farkle's figures are exact (no games): the committed file is the regeneration."""
    assert load("farkle") == regenerate("farkle")


@pytest.mark.long
@pytest.mark.parametrize("game", ["fist", "master"])
def test_the_committed_figures_are_what_their_command_measures(game: str) -> None:
    """Run the stored command again (its games and seed): the same figures, to the digit.
    Fist's takes about half a minute, Master's minutes, and no smaller run gives the same
    figures, so only ``scripts/test.sh --long`` runs it; CI and a plain run check that the
    committed figures have the shape of a tiny seeded regeneration (above)."""
    committed = load(game)
    assert regenerate(game, committed["games"], seed=committed["seed"]) == committed


def shown_text(page: TipsPage) -> list[Any]:
    """Everything a page shows: the paragraphs and every table's caption, heads and cells."""
    return [page.paragraphs, [(t.caption, t.columns, t.rows) for t in page.tables]]


def numbers(doc: dict[str, Any]) -> list[tuple[list[Any], float]]:
    """Every number in the figures, with where it is."""
    out: list[tuple[list[Any], float]] = []

    def walk(x: Any, at: list[Any]) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, [*at, k])
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, [*at, i])
        elif isinstance(x, (int, float)) and not isinstance(x, bool):
            out.append((at, x))

    walk(doc["figures"], [])
    return out


def changed(doc: dict[str, Any], at: list[Any], value: float) -> dict[str, Any]:
    new = copy.deepcopy(doc)
    target = new["figures"]
    for key in at[:-1]:
        target = target[key]
    target[at[-1]] = value
    return new


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", games_with_tips())
def test_every_number_on_the_page_comes_from_the_figures(game: str, lang: str) -> None:
    doc = load(game)
    page = tips_page(game, lang, doc)
    shown = set()
    for at, value in numbers(doc):
        if game == "master" and at[-1] in ("three", "four") and at[1] < 3:
            continue  # the threes and fours shown are the ruby's (all score the same, M4)
        if (game == "master" and at[-1] == "edge_win_rate"
                and not doc["figures"]["kinds"][at[1]]["edge_games"]):
            continue  # a rate of no rounds is shown as a dash
        other = changed(doc, at, value * 2 + 1.0 if isinstance(value, float) else value + 7)
        after = tips_page(game, lang, other)
        assert shown_text(after) != shown_text(page), f"{game}: {at} is not on the page"
        shown.add(tuple(at))
    assert shown
    assert tips_page(game, lang, {**doc, "command": "x"}).source != page.source
    if doc["games"]:
        assert tips_page(game, lang, {**doc, "seed": 99}).source != page.source
        assert tips_page(game, lang, {**doc, "games": 7}).source != page.source


def test_the_page_reads_in_german() -> None:
    en, de = tips_page("master", "en"), tips_page("master", "de")
    assert de.title == "Dragon Master: Tipps und Strategie"
    assert all(a != b for a, b in zip(en.paragraphs, de.paragraphs, strict=True))


def test_the_command_prints_and_regenerates(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["tips", "farkle", "--lang", "de"])
    assert r.exit_code == 0 and "Tipps und Strategie" in r.output
    out = tmp_path / "fist.json"
    r = runner.invoke(app, ["tips", "fist", "--regenerate", "--games", "2", "--seed", "3",
                            "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text()) == regenerate("fist", 2, seed=3)


def test_bad_input_is_refused() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["tips", "chess"])
    assert r.exit_code != 0 and "chess" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["tips", "fist", "--regenerate", "--games", "0"])
    assert r.exit_code != 0 and "--games" in r.output
    r = runner.invoke(app, ["tips", "fist", "--lang", "xx"])
    assert r.exit_code != 0
