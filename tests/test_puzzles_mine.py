"""Mining puzzles (issue 27; docs/puzzles.md): every Master puzzle's answer confirmed by an
independent brute force (tests/puzzles_brute.py: every opponent hand, plain minimax, M3/M4),
every Farkle puzzle's margin recomputed from the policy's DP tables, a planted secret of
another seat never in a puzzle, the same records giving the same puzzles, one puzzle per
position."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from dragonlair.core.driver import play_out
from dragonlair.core.game import CHANCE
from dragonlair.core.records import Record, finish_record, new_record, parse_entry, replay
from dragonlair.games import make_game, plugin
from dragonlair.puzzles.mine import MineSettings, Tally, difficulty, mine_record, mine_records
from dragonlair.puzzles.model import Option, Puzzle
from tests import puzzles_brute
from tests.sizes import size


def simulate(game_id: str, seed: int, bots: tuple[str, ...], **options: Any) -> Record:
    game = make_game(game_id, options)
    factories = plugin(game_id).bots()
    players = [factories[b](random.Random(seed * 10 + s + 1)) for s, b in enumerate(bots)]
    state = play_out(game.new_initial_state(), players, random.Random(seed))
    return finish_record(new_record(game, [{"name": b} for b in bots]), state)


@cache
def master_record(seed: int) -> Record:
    return simulate("master", seed, ("greedy", "greedy"))


@cache
def farkle_record(seed: int) -> Record:
    return simulate("farkle", seed, ("optimal", "optimal"), players=2)


def check_master(puzzles: list[Puzzle], settings: MineSettings) -> None:
    for p in puzzles:
        values = puzzles_brute.values(p.view)
        assert set(values) == set(p.legal)  # every legal placement valued
        for o in p.options:
            assert values[o.action] == pytest.approx(o.value, abs=1e-6), (p.id, o.action)
        ranked = sorted(values.items(), key=lambda kv: -kv[1])
        assert p.solution == (ranked[0][0],)  # the unique best
        assert ranked[0][1] - ranked[1][1] >= settings.master_margin - 1e-9
        assert p.margin == pytest.approx(ranked[0][1] - ranked[1][1], abs=1e-6)


def test_master_puzzles_against_a_brute_force() -> None:
    settings = MineSettings(master_left=6)
    puzzles = [p for seed in range(6) for p in mine_record(master_record(seed),
                                                            settings=settings)]
    assert len(puzzles) >= 3
    check_master(puzzles, settings)
    assert all(p.unit == "win_chance" and p.question == "puzzle.question.place"
               for p in puzzles)


@pytest.mark.long
def test_master_puzzles_against_a_brute_force_at_full_depth() -> None:
    settings = MineSettings()
    puzzles = [p for seed in range(size(ci=4, long=12))
               for p in mine_record(master_record(seed), settings=settings)]
    assert puzzles
    check_master(puzzles, settings)


# ---------------------------------------------------------------- Farkle: the DP's values
def farkle_values(view: dict[str, Any], legal: tuple[str, ...]) -> dict[str, float]:
    """Each option's value straight from the policy's tables (dragonlair/games/farkle/policy.py),
    as docs/analysis.md defines the units."""
    from dragonlair.games.farkle.bots import OptimalFarkleBot, Pos
    from dragonlair.games.farkle.policy import defence_dp
    from dragonlair.games.farkle.scoring import Counts, counts_of

    pos = Pos(view)
    bot = OptimalFarkleBot(random.Random(0))
    n, p = pos.n, pos.pending
    keeps = dict(pos.scorer.selections(pos.roll))
    out: dict[str, float] = {}
    if pos.mode == "recruit":
        dp, g, t = bot._recruit_dp(pos)
        for a in legal:
            kind, _, rest = a.partition(" ")
            if kind == "keep":
                kept = counts_of(rest)
                v = keeps[kept]
                if pos.event == "alliance":
                    val = dp.value(n - sum(kept), p + 2 * v, g, t)
                    if dp.params.item_worth:
                        val = max(val, dp.value(n - sum(kept), p + v, 1, t))
                    out[a] = val
                else:
                    out[a] = dp.value(n - sum(kept), p + v, g, t)
            elif kind == "roll":
                out[a] = dp.roll_value(n, p, g, t)
            elif kind == "bank":
                out[a] = (dp.after_item.bank_value(p + dp.worth * dp.step)
                          if g and dp.after_item is not None else dp.bank_value(p))
            elif kind in ("double", "item"):
                last = pos.last_keep()
                v = keeps.get(last, 0) if last else 0
                out[a] = dp.value(n, p + 2 * v, g, t) if kind == "double" else dp.value(
                    n, p + v, 1, t)
            else:
                raise AssertionError(f"a Recruit puzzle with the option {a!r}")
        return out
    sk = pos.skirmish
    assert pos.mode == "skirmish" and sk is not None
    mult = 2 if pos.event == "alliance" else 1
    if sk["attacker"] == pos.seat:
        adp = bot._attack_dp(pos)
        for a in legal:
            kind, _, rest = a.partition(" ")
            sel: Counts | None = counts_of(rest) if kind == "keep" else None
            out[a] = (adp.value(n - sum(sel), p + mult * keeps[sel]) if sel is not None
                      else adp.roll_value(n, p) if kind == "roll" else adp.stop_value(p))
        return out
    ddp = defence_dp(pos.table)
    from dragonlair.games.farkle.cards import CompanionEffect

    target, bonus = sk["attack_value"], pos.effect(pos.seat, CompanionEffect.DEFENCE_BONUS) or 0
    for a in legal:
        kind, _, rest = a.partition(" ")
        dsel: Counts | None = counts_of(rest) if kind == "keep" else None
        out[a] = (ddp.chance(n - sum(dsel), p + mult * keeps[dsel], target, bonus)
                  if dsel is not None else ddp.roll_chance(n, p, target, bonus)
                  if kind == "roll" else ddp.stop_chance(p, target, bonus))
    return out


def test_farkle_margins_from_the_policy() -> None:
    settings = MineSettings()
    tally = Tally()
    puzzles = [p for seed in (1, 2) for p in mine_record(farkle_record(seed), tally=tally)]
    assert len(puzzles) >= 10 and tally.kept == len(puzzles) < tally.decisions
    for p in puzzles:
        values = farkle_values(p.view, p.legal)
        assert set(values) == set(p.legal)
        for o in p.options:
            assert values[o.action] == pytest.approx(o.value, abs=1e-6), (p.id, o.action)
        ranked = sorted(values.values(), reverse=True)
        need = settings.farkle_soldiers if p.unit == "soldiers" else settings.farkle_chance
        assert values[p.solution[0]] == ranked[0]
        assert ranked[0] - ranked[1] >= need - 1e-9
        assert p.margin == pytest.approx(ranked[0] - ranked[1], abs=1e-6)


# ---------------------------------------------------------------- secrets, order, dedupe
def _farkle_with_secret(seeds: range = range(5, 40)) -> tuple[Record, str]:
    """A record where seat 1 holds an item that seat 0 never sees (the planted secret: the
    first seed from 5 on whose game has one; seed 5 does, dragonsbane-arrow)."""
    for seed in seeds:
        record = farkle_record(seed)
        game, _ = replay(record, check_result=False)
        state = game.new_initial_state()
        seen0: set[str] = set()
        secret: str | None = None
        for entry in record.actions:
            who, text = parse_entry(entry, 2)
            seen0.add(json.dumps(state.view(0, state.event_count)))
            items = state.view(1, state.event_count)["private"]["items"]
            if secret is None and items:
                secret = items[0]
            state.apply(who, game.parse_action(text))
        if secret is not None and not any(f'"{secret}"' in v for v in seen0):
            return record, secret
    raise AssertionError("no seed plants a secret")


def test_a_secret_of_another_seat_never_reaches_a_puzzle() -> None:
    record, secret = _farkle_with_secret()
    puzzles = mine_record(record)
    mine0 = [p for p in puzzles if p.seat == 0]
    assert mine0
    for p in mine0:
        assert secret not in json.dumps(p.to_json())
    # and Master: a puzzle's view is exactly the seat's view at that point (its own hand and
    # the counts it has not seen), never the other hand or the cards set aside
    from dragonlair.puzzles.mine import rules_for

    record = master_record(0)
    game, _ = replay(record, check_result=False)
    found = mine_record(record, settings=MineSettings(master_left=6))
    assert found
    for p in found:
        state = game.new_initial_state()
        for entry in record.actions[:p.source["index"]]:
            who, text = parse_entry(entry, 2)
            state.apply(who, game.parse_action(text))
        seen = rules_for("master").position(state.view(p.seat, state.event_count))
        assert p.view == seen
        assert set(p.view["private"]) == {"hand", "unseen", "lines"}


def test_same_records_same_puzzles_and_one_per_position() -> None:
    record = farkle_record(3)  # cached: the records are never changed
    first = [p.to_json() for p in mine_record(record)]
    again = [p.to_json() for p in mine_record(Record.from_json(record.to_json()))]
    assert first and first == again
    both = mine_records([record, Record.from_json(record.to_json())])
    assert [p.to_json() for p in both] == first  # the same positions: one puzzle each
    assert len({p.id for p in both}) == len(both)
    back = [Puzzle.from_json(json.loads(json.dumps(p))) for p in first]
    assert [p.to_json() for p in back] == first


def test_fist_declines_and_chance_entries_are_not_decisions() -> None:
    record = simulate("fist", 1, ("heuristic",) * 3, players=3)
    tally = Tally()
    assert mine_record(record, tally=tally) == []
    assert tally.decisions > 0 and tally.analysed == 0
    n = sum(1 for e in record.actions if parse_entry(e, 3)[0] != CHANCE)
    assert tally.decisions <= n


def test_the_id_ignores_what_differs_between_games_only() -> None:
    from dragonlair.puzzles.mine import rules_for
    from dragonlair.puzzles.model import position_id

    found = mine_record(master_record(0), settings=MineSettings(master_left=6))
    p = found[0]
    rules = rules_for("master")
    other = json.loads(json.dumps(p.view))
    other["public"]["placements"] = list(reversed(other["public"]["placements"]))
    other["turn"] = 99
    assert position_id("master", 1, p.seat, rules.identity(other)) == p.id
    other["private"]["hand"] = {**other["private"]["hand"], "egg": 7}
    assert position_id("master", 1, p.seat, rules.identity(other)) != p.id


@pytest.mark.long
def test_the_shipped_master_puzzles_against_the_brute_force() -> None:
    from dragonlair.cli.puzzles_cmd import data_dir

    shipped = [Puzzle.from_json(json.loads(f.read_text()))
               for f in sorted(data_dir("master").glob("*.json"))]
    assert shipped
    check_master(shipped, MineSettings())


def test_the_difficulty_estimate_rises_with_choice_closeness_and_a_miss() -> None:
    """docs/puzzles.md, "Difficulty": more options, a closer call and a source player who
    missed the answer each make the estimate higher; it stays within 800..2400."""
    def options(values: list[float]) -> list[Option]:
        return [Option(f"a{i}", v, i == 0) for i, v in enumerate(values)]

    two = options([1.0, 0.0])
    assert difficulty(two, 1.0, None) == 1350.0  # plain: the second best is the worst
    assert difficulty(two, 1.0, "a0") == 1250.0 and difficulty(two, 1.0, "a1") == 1550.0
    eight = options([1.0, 0.8, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0])
    assert difficulty(eight, 0.2, None) > difficulty(options([1.0, 0.8]), 0.2, None)
    assert difficulty(eight, 0.2, None) > difficulty(eight, 0.9, None)
    assert 800.0 <= difficulty(options([1.0] + [0.999] * 500), 0.001, "a3") <= 2400.0
