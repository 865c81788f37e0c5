"""Hints and post-game analysis (issue 16, docs/analysis.md).

A hint names the choice the game's strongest bot makes from the same view (D9, M6, F8: the
analyser reads the seat's view only); Farkle's values are the exact Recruit DP's (D4) on
staged positions; Master's endgame values are the exact solver's, over every opponent hand
(M6), and the bot's choice is their best; ``dragonlair analyse`` on a saved Farkle game
lists the decisions that lost the most expected soldiers, its ``--json`` validates against
``dragonlair/schemas/analysis.v1.json``, German output has no English, and bad input is an
error with exit code 2.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from dragonlair.analysis import analyse_record, hint_for
from dragonlair.analysis.review import AnalysisError
from dragonlair.bots import make_bot
from dragonlair.cli.main import app
from dragonlair.core.game import CHANCE, Game, State
from dragonlair.core.records import Record, parse_entry
from dragonlair.games import make_game
from dragonlair.games.farkle.bots import OptimalFarkleBot
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.policy import recruit_dp
from dragonlair.games.fist.bots import ISMCTSFistBot
from dragonlair.games.master.bots import ExpertMasterBot
from dragonlair.simulate import simulate
from tests.sizes import size

runner = CliRunner()
SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "dragonlair" / "schemas"
                     / "analysis.v1.json").read_text(encoding="utf-8"))


def decisions(game: Game, bots: list[str], seed: int, every: int = 1,
              limit: int = 10_000) -> list[tuple[State, int]]:
    """(state, seat) at each decision (two or more legal actions) of a bot game."""
    rng = random.Random(seed)
    players = [make_bot(game.info.id, b, random.Random(seed * 10 + i))
               for i, b in enumerate(bots)]
    state = game.new_initial_state()
    out: list[tuple[State, int]] = []
    step = 0
    while not state.is_terminal() and step < limit:
        step += 1
        if state.is_chance():
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        for seat in state.current_seats():
            legal = state.legal_actions(seat)
            if len(legal) > 1 and step % every == 0:
                out.append((state.clone(), seat))
            state.apply(seat, players[seat].choose(state.view(seat), legal))
            if state.is_terminal():
                break
    return out


def play(state: State, *entries: str) -> State:
    for entry in entries:
        seat, text = parse_entry(entry, state.num_players)
        state.apply(seat, state.game.parse_action(text))  # type: ignore[attr-defined]
    return state


# ---------------------------------------------------------------------------- Farkle (D4)
def farkle_table() -> State:
    state = FarkleGame({"players": 2}).new_initial_state()
    return play(state, "chance: companion scout", "chance: companion old-sergeant",
                "chance: item healing-potion", "chance: item healing-potion", "chance: start p0")


def test_farkle_hint_values_are_the_recruit_dp_values() -> None:
    """D4: after 2,3,4,4,4,5 the keeps are worth what the exact DP says (p0 holds as many
    items as it may, so an alliance item is worth nothing to it: D8.3, the plain table)."""
    s = play(farkle_table(), "p0: recruit", "chance: dice 234445 blank")
    hint = hint_for(s.game, s.view(0), s.legal_actions(0))  # type: ignore[attr-defined]
    dp = recruit_dp()
    want = {"keep 5": dp.value(5, 50), "keep 444": dp.value(3, 400),
            "keep 4445": dp.value(2, 450)}
    assert hint.unit == "soldiers" and hint.exact
    assert {o.action: o.value for o in hint.options} == pytest.approx(want)
    assert hint.best.action == "keep 4445" == hint.options[0].action
    for o in hint.options:
        assert o.loss == pytest.approx(want["keep 4445"] - want[o.action])
    play(s, "p0: keep 4445")
    hint = hint_for(s.game, s.view(0), s.legal_actions(0))  # type: ignore[attr-defined]
    values = {o.action: o.value for o in hint.options}
    assert values["bank"] == 450  # banking gives the pending soldiers, no more (D4.2)
    assert values["roll"] == pytest.approx(dp.roll_value(2, 450))
    assert (values["roll"] or 0) < 450 and hint.best.action == "bank"
    assert hint.win_chance is not None and 0 < hint.win_chance < 1


@pytest.mark.parametrize("seeds", [
    # one game of 86 decisions (a table whose companions need only the plain Recruit DP:
    # solving it for the Quartermaster or Tabby takes seconds)
    pytest.param(range(5, 6), id="short", marks=pytest.mark.slow),
    # CI three games (the Old Sergeant's table among them), the release run
    # (scripts/test.sh --long) 38 (the Quartermaster's and Tabby's among them)
    pytest.param(range(7, 7 + size(ci=3, long=38)), id="many", marks=pytest.mark.slow)])
def test_farkle_hint_names_the_optimal_bots_choice_on_many_views(seeds: range) -> None:
    game = make_game("farkle", {"players": 2})
    seen = 0
    for seed in seeds:
        for state, seat in decisions(game, ["random", "optimal"], seed):
            view, legal = state.view(seat), state.legal_actions(seat)
            hint = hint_for(game, view, legal, seed=seed)
            bot = OptimalFarkleBot(random.Random(0)).choose(view, legal)
            assert hint.best.action == str(bot)
            valued = [o.value for o in hint.options if o.value is not None]
            # the bot's choice is the best valued option, also after an item was drawn
            if hint.best.value is not None and hint.exact:
                assert hint.best.value >= max(valued) - 1e-6, (str(bot), hint)
            seen += 1
    assert seen > 30


def test_farkle_analysis_loss_is_the_dp_difference() -> None:
    """A staged turn where p0 rolls on with 450 pending and two dice (the DP banks)."""
    s = play(farkle_table(), "p0: recruit", "chance: dice 234445 blank", "p0: keep 4445",
             "p0: roll", "chance: dice 23 blank", "p0: farkle")
    rec = Record("farkle", 1, s.game.record_options(), [{}, {}],  # type: ignore[attr-defined]
                 [f"{'chance' if a == CHANCE else f'p{a}'}: {x}" for a, x in s.history])
    result = analyse_record(rec, 0)
    dp = recruit_dp()
    worst = result.mistakes()[0]
    assert worst.played == "roll" and worst.hint.best.action == "bank"
    assert worst.loss == pytest.approx(450 - dp.roll_value(2, 450))
    jsonschema.validate(result.to_json(), SCHEMA)


# ---------------------------------------------------------------------------- Master (M6)
@pytest.mark.parametrize(("seeds", "every"), [
    pytest.param(range(1), 4, id="short"),
    # CI every third decision of three games, the release run (scripts/test.sh --long)
    # every decision of 14
    pytest.param(range(2, 2 + size(ci=3, long=14)), size(ci=3, long=1), id="many",
                 marks=pytest.mark.slow)])
def test_master_hint_names_the_experts_choice(seeds: range, every: int) -> None:
    """Sampled (more than 8 cards left) and exact: the same seed, the same choice."""
    game = make_game("master", {})
    views = [d for seed in seeds for d in decisions(game, ["greedy", "greedy"], seed)]
    for state, seat in views[::every]:
        view, legal = state.view(seat), state.legal_actions(seat)
        hint = hint_for(game, view, legal, seed=7)
        bot = ExpertMasterBot(random.Random("7")).choose(view, legal)
        assert hint.best.action == str(bot)


def test_master_endgame_hint_is_exact_and_its_best_is_the_optimum() -> None:
    game = make_game("master", {})
    checked = 0
    for seed in range(4):
        for state, seat in decisions(game, ["greedy", "greedy"], seed):
            view = state.view(seat)
            if sum(view["public"]["hand_sizes"]) > 6:  # cards still to place
                continue
            hint = hint_for(game, view, state.legal_actions(seat))
            assert hint.exact and hint.unit == "win_chance"
            values = [o.value for o in hint.options if o.value is not None]
            assert len(values) == len(hint.options)
            assert hint.best.value == pytest.approx(max(values))
            assert all(0 <= v <= 1 for v in values)
            checked += 1
    assert checked > 10


def _engine_value(state: State, seat: int) -> float:
    """Minimax through the engine itself to the end of the round: 1 won, 1/2 drawn, 0 lost
    for ``seat`` (M4), both players knowing both hands."""
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None
        winners = tuple(outcome.winners)
        return 0.5 if not winners else 1.0 if winners == (seat,) else 0.0
    mover = state.current_seats()[0]
    values = []
    for a in state.legal_actions(mover):
        child = state.clone()
        child.apply(mover, a)
        values.append(_engine_value(child, seat))
    return max(values) if mover == seat else min(values)


def _with_opponent_hand(history: list[str], seat: int, view: dict[str, object],
                        opp_hand: dict[str, int]) -> list[str]:
    """The record so far with the deal rewritten so that the opponent holds ``opp_hand``
    now (M2: p0 is dealt eight cards, then p1 eight), every placement unchanged."""
    placed: list[list[str]] = [[], []]
    for entry in history:
        who, _, text = entry.partition(": ")
        if who in ("p0", "p1") and text.startswith("place "):
            placed[int(who[1])].append(text.split()[1])
    hands = [[c for c in placed[0]], [c for c in placed[1]]]
    mine = view["private"]["hand"]  # type: ignore[index]
    hands[seat] += [c for c, n in mine.items() for _ in range(n)]
    hands[1 - seat] += [c for c, n in opp_hand.items() for _ in range(n)]
    deals = [f"chance: deal {c}" for c in hands[0] + hands[1]]
    rest = [e for e in history if not e.startswith("chance: deal ")]
    return deals + rest


@pytest.mark.parametrize("seed", [4, 8, 9, 11])  # games whose placements differ in value
def test_master_endgame_values_match_the_engine_by_brute_force(seed: int) -> None:
    """M4, M6: four cards left to place; each placement's value is, over every hand the
    opponent may hold (weighted by how many ways the unseen cards give it), the result of
    full minimax through the engine's own rules and scoring; the hint gives exactly that."""
    game = make_game("master", {})
    found = [(st, se) for st, se in decisions(game, ["greedy", "greedy"], seed)
             if sum(st.view(se)["public"]["hand_sizes"]) == 4]
    assert found
    state, seat = found[0]
    view = state.view(seat)
    hint = hint_for(game, view, state.legal_actions(seat))
    assert hint.exact
    unseen: dict[str, int] = view["private"]["unseen"]
    size = view["public"]["hand_sizes"][1 - seat]
    ids = [c for c, n in unseen.items() if n]
    hands = [dict(zip(ids, combo, strict=True))
             for combo in itertools.product(*(range(unseen[c] + 1) for c in ids))
             if sum(combo) == size]
    weights = [math.prod(math.comb(unseen[c], h[c]) for c in ids) for h in hands]
    total = sum(weights)
    history = [f"{'chance' if s == CHANCE else f'p{s}'}: {a}" for s, a in state.history]
    want = {str(a): 0.0 for a in state.legal_actions(seat)}
    for hand, w in zip(hands, weights, strict=True):
        staged = play(game.new_initial_state(), *_with_opponent_hand(history, seat, view, hand))
        assert staged.view(seat) == view  # the seat cannot tell the staged deal from the real
        for a in staged.legal_actions(seat):
            child = staged.clone()
            child.apply(seat, a)
            want[str(a)] += w / total * _engine_value(child, seat)
    got = {o.action: o.value for o in hint.options}
    assert len(set(want.values())) > 1  # a position where the choice matters
    assert got == pytest.approx(want)
    assert hint.best.value == pytest.approx(max(want.values()))


# ---------------------------------------------------------------------------- Fist (F8)
@pytest.mark.parametrize(("seeds", "every"), [
    pytest.param(range(1, 2), 10, id="short"),
    # CI every fourth of three games' first 40 decisions, the release run every second of six
    pytest.param(range(2, 2 + size(ci=3, long=6)), size(ci=4, long=2), id="many",
                 marks=pytest.mark.slow)])
def test_fist_hint_names_the_ismcts_choice(seeds: range, every: int) -> None:
    """Bids (decoupled at the sealed bid, F5.1) and power decisions, from the view (F8)."""
    game = make_game("fist", {"players": 3})
    views = [d for seed in seeds
             for d in decisions(game, ["heuristic", "heuristic", "heuristic"], seed,
                                limit=120)]
    for state, seat in views[:40 * len(seeds):every]:
        view, legal = state.view(seat), state.legal_actions(seat)
        hint = hint_for(game, view, legal, seed=3, effort=0.2)
        bot = ISMCTSFistBot(random.Random("3"), iterations=50)
        assert hint.best.action == str(bot.choose(view, legal))
        assert not hint.exact and hint.unit == "win_chance"


def test_schema_is_published_in_docs() -> None:
    root = Path(__file__).resolve().parent.parent
    assert json.loads((root / "docs" / "schemas" / "analysis.v1.json").read_text(
        encoding="utf-8")) == SCHEMA
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


# ---------------------------------------------------------------------------- the command
@pytest.fixture(scope="module")
def farkle_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Farkle game of a random bot (seat 0) against the optimal one, saved."""
    folder = tmp_path_factory.mktemp("farkle")
    simulate("farkle", 1, ["random", "optimal"], seed=5, save_dir=folder)
    return next(folder.glob("*.json"))


def test_cli_lists_the_costliest_decisions(farkle_record: Path) -> None:
    out = runner.invoke(app, ["analyse", str(farkle_record), "--seat", "1", "--top", "5"])
    assert out.exit_code == 0, out.output
    assert "The biggest mistakes" in out.output and "expected soldiers" in out.output
    assert "Win chance over the game" in out.output
    assert "farkle, seat 1:" in out.output  # --seat counts from 1, as the output does
    data = json.loads(runner.invoke(app, ["analyse", str(farkle_record), "--seat", "1",
                                          "--json", "--top", "5"]).output)
    jsonschema.validate(data, SCHEMA)
    assert data["seat"] == 0  # the JSON names the record's seat index (from 0)
    soldiers = [d for d in data["decisions"] if d["unit"] == "soldiers" and d["loss"]]
    worst = max(soldiers, key=lambda d: d["loss"])
    assert worst["loss"] > 0 and worst["played"] != worst["best"]
    assert worst["index"] in data["mistakes"]
    assert f"{round(worst['loss'])} soldiers" in out.output
    for d in data["decisions"]:
        if d["loss"] is not None:
            best = next(o for o in d["options"] if o["best"])
            played = next(o for o in d["options"] if o["action"] == d["played"])
            assert d["loss"] == pytest.approx(best["value"] - played["value"])


def test_cli_optimal_seat_loses_nothing(farkle_record: Path) -> None:
    data = json.loads(runner.invoke(app, ["analyse", str(farkle_record), "--seat", "2",
                                          "--json"]).output)
    assert data["decisions"] and all(not d["loss"] for d in data["decisions"])


ENGLISH = ("The biggest", "mistakes", "Played", "Loss", "expected soldiers", "win chance",
           "Win chance", "decisions analysed", "seat ", "Lost on average", "per decision",
           "estimate", "Turn")


def test_cli_german_has_no_english(farkle_record: Path) -> None:
    out = runner.invoke(app, ["analyse", str(farkle_record), "--seat", "1", "--lang", "de"])
    assert out.exit_code == 0, out.output
    assert "Die größten Fehler" in out.output
    for word in ENGLISH:
        assert word not in out.output, word


@pytest.mark.parametrize(("args", "code_text"), [
    (["--seat", "7"], "no seat 7"),
    (["--seat", "3"], "no seat 3; the game has 2 players: --seat 1 to 2"),
    (["--seat", "0"], "no seat 0; the game has 2 players: --seat 1 to 2"),
    (["--seat", "1", "--top", "-1"], "--top -1"),
    (["--seat", "1", "--budget", "0"], "--budget"),
])
def test_cli_bad_seat_and_numbers(farkle_record: Path, args: list[str], code_text: str) -> None:
    out = runner.invoke(app, ["analyse", str(farkle_record), *args])
    assert out.exit_code == 2 and code_text in out.output and "Traceback" not in out.output


def test_cli_bad_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    out = runner.invoke(app, ["analyse", str(bad), "--seat", "1"])
    assert out.exit_code == 2 and "cannot be analysed" in out.output
    out = runner.invoke(app, ["analyse", str(tmp_path / "missing.json"), "--seat", "1",
                              "--lang", "de"])
    assert out.exit_code == 2 and "nicht analysieren" in out.output


def test_no_decisions_is_an_error() -> None:
    """A record cut before seat 1 ever chose: AnalysisError with its code."""
    s = play(farkle_table(), "p0: recruit", "chance: dice 234445 blank")
    rec = Record("farkle", 1, s.game.record_options(), [{}, {}],  # type: ignore[attr-defined]
                 [f"{'chance' if a == CHANCE else f'p{a}'}: {x}" for a, x in s.history])
    with pytest.raises(AnalysisError) as info:
        analyse_record(rec, 1)
    assert info.value.code == "cli.analyse_no_decisions"
    out = runner.invoke(app, ["analyse", "-", "--seat", "2"])
    assert out.exit_code == 2


def test_budget_leaves_decisions_out(farkle_record: Path) -> None:
    result = analyse_record(Record.load(farkle_record), 0, budget=1e-9)
    assert not result.complete and len(result.decisions) < result.total
    jsonschema.validate(result.to_json(), SCHEMA)


def test_the_work_is_iterations_and_progress_is_told(tmp_path: Path) -> None:
    """The analysis is counted in search iterations, not time: the same record and seed give
    the same analysis twice (a Fist game: sampled hints); ``progress(done, total)`` is told
    after each decision, up to (total, total); the wall-clock budget is only a safety net."""
    simulate("fist", 1, ["random"], seed=2, options={"max_turns": 2}, save_dir=tmp_path)
    record = Record.load(next(tmp_path.glob("*.json")))
    told: list[tuple[int, int]] = []
    first = analyse_record(record, 0, seed=3, effort=0.05,
                           progress=lambda done, total: told.append((done, total)))
    again = analyse_record(record, 0, seed=3, effort=0.05, budget=900.0)
    assert first.complete and again.complete
    assert [d.to_json() for d in first.decisions] == [d.to_json() for d in again.decisions]
    assert told == [(k, first.total) for k in range(1, first.total + 1)]
