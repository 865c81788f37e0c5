"""Tips and strategy pages (dragonlair/tips, ``dragonlair tips``): the committed figures have
the shape a tiny regeneration gives, the regeneration is seeded, and every number on a page
comes from the figures (change a value, the page changes)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.cli.main import app
from dragonlair.games.farkle.policy import recruit_dp
from dragonlair.games.master.cards import line_code, score_table
from dragonlair.tips import games_with_tips, load, regenerate, tips_page
from dragonlair.tips.figures import FORMAT

TINY = {"fist": 3, "master": 1, "farkle": 0}


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
    assert regenerate("fist", 3, seed=5) == tiny["fist"]


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
        if game == "fist" and at[0] == "characters" and 3 <= at[1] < len(
                doc["figures"]["characters"]) - 3:
            continue  # only the three best and three worst characters are named
        if at[-1] == "holders" or (game == "master" and at[-1] == "four" and at[1] < 3):
            continue  # how many bought a card is not shown; the fours shown are the ruby's
        if game == "master" and at[-1] == "three" and at[1] < 3:
            continue
        other = changed(doc, at, value * 2 + 1.0 if isinstance(value, float) else value + 7)
        after = tips_page(game, lang, other)
        assert after.paragraphs != page.paragraphs, f"{game}: {at} is not on the page"
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
