"""The balance report: its tallies agree with the games, by the engine's own account, and the
``balance`` command prints, plots and fails as a user would expect."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.balance import BalanceReport, balance_games, balance_report, check_plot_path
from dragonlair.balance import wilson_interval as wilson
from dragonlair.bots import make_bot
from dragonlair.cli.main import app
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.errors import OptionError
from dragonlair.core.game import State
from dragonlair.games import make_game
from dragonlair.games.farkle.state import Phase as FarklePhase
from dragonlair.games.fist.balance import DOPPEL_END
from dragonlair.games.fist.custom import load_file
from dragonlair.games.fist.state import FistState
from dragonlair.simulate import seat_bots, simulate

runner = CliRunner()
Holders = dict[str, set[int]]


def play_games(game_id: str, games: int, bots: list[str], seed: int, options: dict[str, Any],
               watch: Callable[[State, Holders], None] | None = None,
               end: Callable[[State, Holders], None] | None = None,
               ) -> list[tuple[Holders, set[int]]]:
    """The report's games, played again here exactly as ``simulate`` seeds them: per game,
    the card holders found by ``watch``/``end`` and the winners."""
    game = make_game(game_id, options)
    names = seat_bots(bots, game.num_players)
    out = []
    for i in range(games):
        held: Holders = {}
        seats = [make_bot(game_id, n, random.Random(seed_for(seed, i, s + 1)))
                 for s, n in enumerate(names)]
        on_action = None
        if watch is not None:
            def on_action(st: State, _seat: int, _a: Any, held: Holders = held) -> None:
                assert watch is not None
                watch(st, held)
        state = play_out(game.new_initial_state(), seats, random.Random(seed_for(seed, i)),
                         on_action=on_action)
        if end:
            end(state, held)
        outcome = state.outcome()
        assert outcome is not None
        out.append((held, set(outcome.winners)))
    return out


def assert_matches(report: BalanceReport, per_game: list[tuple[Holders, set[int]]]) -> None:
    """Every card's holders, wins and games equal the hand count."""
    for card in report.cards:
        pairs = [(seats, winners) for held, winners in per_game
                 if (seats := held.get(card.id))]
        assert card.holders == sum(len(seats) for seats, _ in pairs), card.id
        assert card.holder_wins == sum(len(seats & w) for seats, w in pairs), card.id
        assert card.games == len(pairs), card.id


def assert_sane(report: BalanceReport) -> None:
    for c in report.cards:
        assert 0 <= c.holder_wins <= c.holders <= report.games * report.players, c.id
        assert c.games <= report.games and c.games <= c.holders <= c.acquisitions, c.id
        rate, ci = c.win_rate, c.interval
        if c.holders:
            assert rate is not None and ci is not None
            assert 0.0 <= ci[0] <= rate <= ci[1] <= 1.0
        else:
            assert rate is None and ci is None


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)


def test_fist_counts_agree_with_the_engines_auction_winners(
        monkeypatch: pytest.MonkeyPatch) -> None:
    options = {"players": 4, "custom": load_file("moneylender")}
    bots, seed, n = ["greedy", "random"], 5, 6
    report = balance_report("fist", n, bots, seed=seed, options=options)
    assert_sane(report)
    ids = [c.id for c in report.cards]
    assert "moneylender" in ids and ids[-1] == DOPPEL_END and "witch" in ids
    # the Witch is auctioned first in every turn (F4.3): once per turn played
    assert report.card("witch").counts["auctioned"] == report.turns
    for c in report.cards[:-1]:
        k = c.counts
        assert k["auctioned"] == k["won"] + k["cursed"] + k["passed"], c.id
        assert c.acquisitions == k["won"] + k["played"], c.id
    total = {key: sum(c.counts.get(key, 0) for c in report.cards)
             for key in ("cursed", "passed", "played")}
    assert all(total.values()), total  # the run exercises curses, passes and Goblin/Imp plays

    # the engine's own account: who it made the winner, and what the Goblin / Imp played
    won: list[tuple[int, int]] = []
    played: list[tuple[int, int]] = []
    from dragonlair.games.fist import auction, powers_cards
    orig_win, orig_play = auction.win, powers_cards.play_from_pile

    def spy_win(self: FistState, winner: int) -> None:
        assert self.current is not None
        won.append((self.current, winner))
        orig_win(self, winner)

    def spy_play(self: FistState, c: int) -> None:
        assert self.winner is not None
        played.append((c, self.winner))
        orig_play(self, c)

    monkeypatch.setattr(auction, "win", spy_win)
    monkeypatch.setattr(powers_cards, "play_from_pile", spy_play)
    card_ids = make_game("fist", options).card_ids  # type: ignore[attr-defined]

    def end(state: State, held: Holders) -> None:
        assert isinstance(state, FistState)
        for k, s in [*won, *played]:
            held.setdefault(card_ids[k], set()).add(s)
        if state.doppel_holder is not None:
            held[DOPPEL_END] = {state.doppel_holder}
        for c in report.cards[:-1]:
            k = card_ids.index(c.id)
            c.counts["_won"] = c.counts.get("_won", 0) + sum(1 for x, _ in won if x == k)
            c.counts["_played"] = c.counts.get("_played", 0) + sum(1 for x, _ in played
                                                                   if x == k)
        won.clear()
        played.clear()

    assert_matches(report, play_games("fist", n, bots, seed, options, end=end))
    for c in report.cards[:-1]:
        assert c.counts["won"] == c.counts["_won"] and c.counts["played"] == c.counts["_played"]


def test_farkle_counts_agree_with_holdings_seen_at_each_turns_start() -> None:
    options = {"players": 3}
    bots, seed, n = ["cautious", "random"], 2, 4
    report = balance_report("farkle", n, bots, seed=seed, options=options)
    assert_sane(report)
    game = make_game("farkle", options)
    companions = [c.id for c in game.companions]  # type: ignore[attr-defined]
    items = [c.id for c in game.items]  # type: ignore[attr-defined]
    assert [c.id for c in report.cards] == companions + items
    assert all(c.acquisitions <= n * 3 for c in report.cards if c.kind == "companion")
    # every seat starts with one companion and one item (D8.1, D8.2)
    for kind in ("companion", "item"):
        assert sum(c.acquisitions for c in report.cards if c.kind == kind) >= n * 3

    def watch(state: State, held: Holders) -> None:
        # a companion whenever one is in a seat; items only when a turn starts, the one
        # moment when every hand is within the limit and nothing was used yet
        for s, k in enumerate(state.companions):  # type: ignore[attr-defined]
            if k >= 0:
                held.setdefault(companions[k], set()).add(s)
        if state.phase == FarklePhase.CHOOSE:  # type: ignore[attr-defined]
            for s, hand in enumerate(state.items):  # type: ignore[attr-defined]
                for i in hand:
                    held.setdefault(items[i], set()).add(s)

    assert_matches(report, play_games("farkle", n, bots, seed, options, watch=watch))


def test_same_seed_same_games_as_simulate() -> None:
    report = balance_report("fist", 3, None, seed=4)
    assert report.bots == ["greedy"] * 4
    sim = simulate("fist", 3, ["greedy"], seed=4)
    assert report.turns == round(sim.mean_turns * 3)
    assert report.base_rate == pytest.approx(0.25)
    again = balance_report("fist", 3, None, seed=4)
    assert again.to_json()["cards"] == report.to_json()["cards"]


def test_report_rejects_games_without_cards() -> None:
    # the games with a balance observer in their plugin, and no other
    assert balance_games() == ("farkle", "fist")
    with pytest.raises(OptionError, match="Dragon Master has no cards to report on"):
        balance_report("master", 5)
    with pytest.raises(OptionError, match="at least 1"):
        balance_report("fist", 0)


def test_cli_table_and_json() -> None:
    out = runner.invoke(app, ["balance", "fist", "--games", "4", "--seed", "1"])
    assert out.exit_code == 0, out.output
    for word in ("Witch", "Sorcerer's Apprentice", "Doppelganger at game end", "lift",
                 "95% CI", "base rate 25.0%", "bots greedy ×4"):
        assert word in out.output, word
    assert max(len(line) for line in out.output.splitlines()) <= 80
    out = runner.invoke(app, ["balance", "farkle", "--games", "4", "--players", "3",
                              "--bots", "cautious", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["players"] == 3 and data["bots"] == ["cautious"] * 3
    assert data["base_rate"] == pytest.approx(1 / 3, abs=1e-4)
    assert {c["kind"] for c in data["cards"]} == {"companion", "item"}
    rates = [c["win_rate"] for c in data["cards"] if c["win_rate"] is not None]
    assert rates == sorted(rates, reverse=True)
    assert all(0 <= r <= 1 for r in rates)


@pytest.mark.slow
def test_cli_plot_png_and_svg(tmp_path: Path) -> None:
    png, svg = tmp_path / "out.png", tmp_path / "out.svg"
    out = runner.invoke(app, ["balance", "fist", "--games", "1", "--plot", str(png)])
    assert out.exit_code == 0, out.output
    assert "plot written to" in out.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = runner.invoke(app, ["balance", "farkle", "--games", "1", "--plot", str(svg),
                              "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["plot"] == str(svg)
    assert "<svg" in svg.read_text(encoding="utf-8")


@pytest.mark.parametrize(("args", "message"), [
    (["master"], "Dragon Master has no cards to report on"),
    (["chess"], "unknown game 'chess'"),
    (["fist", "--plot", "{tmp}/out.pdf"], "must end in .png or .svg"),
    (["fist", "--games", "0"], "at least 1"),
    (["fist", "--players", "9"], "3 to 6 players"),
    (["fist", "--bots", "nobody"], "unknown bot 'nobody'"),
    (["farkle", "--custom", "moneylender"], "--custom is an option of fist only"),
    (["fist", "--decks", "x.toml"], "--decks is an option of farkle only"),
])
def test_cli_errors_are_one_clear_line(tmp_path: Path, args: list[str], message: str) -> None:
    out = runner.invoke(app, ["balance", *(a.format(tmp=tmp_path) for a in args)])
    assert out.exit_code == 2, out.output
    assert message in out.output and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())  # no games played, nothing written


def test_plot_without_matplotlib_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    with pytest.raises(OptionError, match=r"pip install 'dragonlair\[plot\]'"):
        check_plot_path("out.png")
    out = runner.invoke(app, ["balance", "fist", "--games", "1", "--plot", "out.png"])
    assert out.exit_code == 2 and "the plot needs matplotlib" in out.output
