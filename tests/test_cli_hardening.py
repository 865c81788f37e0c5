"""Terminal fixes found by playing as a new user would (issue 11, "Hardening"): the Fist log
at the end of a turn, output paths checked before anything is played, what a human sees
when they can only pass and after the game, the Dragon Master deciding lines, table
headers, suggestions and refusals that name the real reason, and names from records that
are printed safely."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from dragonlair.bots import make_bot
from dragonlair.cli.i18n import printable
from dragonlair.cli.main import app
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.events import Event
from dragonlair.core.game import CHANCE
from dragonlair.core.i18n import render
from dragonlair.core.records import finish_record, new_record
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.terminal.play import choice_from_text as farkle_choice
from dragonlair.games.farkle.terminal.screen import players_table as farkle_players_table
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState
from dragonlair.games.fist.terminal.play import InputProblem, choice_from_text, parse_bid_words
from dragonlair.games.fist.terminal.screen import EventLog, event_line, players_table, render_help
from dragonlair.games.master.cards import CARDS
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import MasterState, Phase
from dragonlair.games.master.terminal.play import placement_from_text
from dragonlair.games.master.terminal.screen import cards_table, deciding_line, round_end_lines
from tests.fist_helpers import bids, new_table, play, quiet_witch, setup
from tests.test_cli_play_farkle import script as farkle_script
from tests.test_cli_play_master import script as master_script
from tests.test_master_rules import DRAWN, new_round, play_grid

runner = CliRunner()
THREE = ["--seat", "human", "--seat", "greedy", "--seat", "greedy"]


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def rendered(renderable: object, width: int = 120) -> str:
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


# ---------------------------------------------------------------- the Fist log (F4.4)
def _goldsmith_last() -> FistState:
    """A staged turn: every card passes, then the Goldsmith comes out last and p0 wins it;
    its power (take a Red Amulet) ends the turn."""
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("goldsmith", "ghost"))
    quiet_witch(state)
    for card in [c for c in state.view(None)["public"]["pile"] if c != "goldsmith"]:
        play(state, f"chance: card {card}")
        bids(state, "f0 c0", "f0 c0", "f0 c0")
    play(state, "chance: card goldsmith")
    bids(state, "f1 c0", "f0 c0", "f0 c0")
    assert state.view(None)["turn"] == 2  # the Goldsmith's power ended turn 1
    return state


def _line(state: FistState, code: str, **params: object) -> str:
    """How the log shows the event ``code`` with ``params`` (rendered from the catalogue)."""
    return event_line(state.game, Event(code, params), "en")


def test_log_tells_the_winners_gain_when_the_power_is_the_last_auction_of_the_turn() -> None:
    """The Goldsmith's Amulet is told before the end of the turn it ends (F4.4)."""
    state = _goldsmith_last()
    lines = EventLog(state.game, "en").feed_state(state)
    won = lines.index(_line(state, "fist.auction.won", seat=0, card="goldsmith"))
    assert lines[won + 1] == _line(state, "fist.gain.amulet", seat=0, n=1)
    assert lines[won + 2] == _line(state, "fist.turn.end", turn=1)
    assert lines[won + 3] == _line(state, "fist.turn.start", turn=2)
    assert "Player 1 takes a Red Amulet" in lines[won + 1]  # no names given: seats from 1
    named = EventLog(state.game, "en", None, ["Ann", "Bo", "Cy"]).feed_state(state)
    assert "Ann takes a Red Amulet" in named[won + 1]
    # a card revealed by chance is nobody's doing: only the one gain is told
    assert sum(" takes " in line for line in lines) == 1


def test_summary_names_how_each_auction_ended() -> None:
    state = _goldsmith_last()
    log = EventLog(state.game, "en")
    log.feed_state(state)
    summary = log.summary()
    assert summary[0] == _line(state, "fist.turn.start", turn=1) == "[bold]— Turn 1 begins —[/]"
    passed = _line(state, "fist.auction.passed", card="witch")
    assert passed in summary
    assert sum("Nobody bid for" in line for line in summary) == 9  # Witch and 8 more
    assert summary[-2:] == [_line(state, "fist.auction.won", seat=0, card="goldsmith"),
                            _line(state, "fist.turn.start", turn=2)]
    assert all("has bid" not in line and " bid 1 " not in line
               for line in summary)  # outcomes, not every bid


# ---------------------------------------------------------------- output paths, checked first
@pytest.mark.parametrize("command", [
    ["simulate", "fist", "--games", "2"],
    ["tournament", "fist", "--bots", "random,random,random", "--players", "3", "--games", "2"],
])
def test_save_dir_onto_a_file_or_below_a_file_is_a_clear_error(tmp_path: Path,
                                                               command: list[str]) -> None:
    file = tmp_path / "records.json"
    file.write_text("{}")
    for target, why in ((file, "it is a file, not a folder"),
                        (file / "sub", "cannot create the folder")):
        code, out = invoke(*command, "--save-dir", str(target))
        assert code == 2, out
        assert why in out and "Traceback" not in out
        assert len(out.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.json"]  # nothing played


@pytest.mark.parametrize(("game", "args"), [
    ("fist", THREE), ("master", ["--seat", "human", "--seat", "random"]),
    ("farkle", ["--seat", "human", "--seat", "random"]),
])
def test_play_save_path_is_checked_before_the_game(tmp_path: Path, game: str,
                                                   args: list[str]) -> None:
    for target, why in ((tmp_path, "it is a folder, not a file"),
                        (tmp_path / "missing" / "game.json", "does not exist")):
        code, out = invoke("play", game, "--seed", "1", *args, "--save", str(target),
                           input="quit\n")
        assert code == 2, out
        assert why in out and "cannot save the game record" in out
        assert "Seed 1" not in out and "Traceback" not in out  # no game was started
    assert not list(tmp_path.iterdir())


def test_balance_plot_path_is_checked_before_the_games(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("games played before the plot path was checked")

    monkeypatch.setattr("dragonlair.balance.balance_report", no_games)
    for target in (tmp_path / "missing" / "plot.png", tmp_path / "plot.svg" / "x.png"):
        code, out = invoke("balance", "fist", "--games", "2", "--plot", str(target))
        assert code == 2, out
        assert "cannot write the plot" in out and "Traceback" not in out
        assert len(out.strip().splitlines()) == 1
    (tmp_path / "dir.png").mkdir()
    code, out = invoke("balance", "fist", "--games", "2", "--plot", str(tmp_path / "dir.png"))
    assert code == 2 and "it is a folder, not a file" in out


def test_simulate_with_more_bots_than_seats_says_so() -> None:
    code, out = invoke("simulate", "fist", "--games", "1", "--players", "3",
                       "--bots", "random,greedy,random,greedy")
    assert code == 2
    assert "--bots names 4 bots but the table has 3 seats" in out
    code, _ = invoke("simulate", "fist", "--games", "1", "--players", "3",
                     "--bots", "random,greedy", "--json")
    assert code == 0  # fewer names still repeat to fill the table



def test_server_only_options_and_a_seed_online_are_refused_before_anything_connects() -> None:
    """``--seed`` cannot stage a server's game (the server draws chance in secret), and
    ``--table`` means nothing without ``--server``: each is a clear error, exit 2, and no
    connection is tried (port 1 would refuse it)."""
    code, out = invoke("play", "fist", "--server", "http://127.0.0.1:1", "--seed", "3")
    assert code == 2 and "--seed does not apply to a game on a server" in out
    code, out = invoke("play", "master", "--table", "abc")
    assert code == 2 and "--table only goes with --server" in out
    code, out = invoke("play", "farkle", "--table", "abc", "--lang", "de")
    assert code == 2 and "--table gibt es nur zusammen mit --server" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--name", "  \t "], "--name needs a name of 1 to 40 printable characters"),
    (["--name", "x" * 41], "--name needs a name of 1 to 40 printable characters"),
    (["--name", "Ann", "--seat", "human", "--seat", "human"],
     "--name names the one human at the table, and this table has 2"),
    (["--name", "Ann", "--seat", "random", "--seat", "random"],
     "--name names the one human at the table, and this table has 0"),
])
def test_a_bad_name_is_refused_before_the_game(args: list[str], message: str) -> None:
    """``--name`` names the one human at an offline table: an empty or overlong name, or a
    table with no human or several, is a clear error (exit 2) and no game starts."""
    code, out = invoke("play", "master", *args)
    assert code == 2 and message in out, out
    assert "Traceback" not in out and "Players:" not in out



def test_serve_with_redis_needs_postgresql_and_a_redis_url() -> None:
    """Many processes share one PostgreSQL database: ``--redis`` with the SQLite default, or
    a URL that is no Redis URL, is a clear error before anything starts."""
    code, out = invoke("serve", "--redis", "redis://127.0.0.1:1/0")
    assert code == 2 and "it needs --db postgresql://" in out
    code, out = invoke("serve", "--redis", "localhost:6379", "--db", "postgresql://x@/y")
    assert code == 2 and "not a Redis URL: localhost:6379" in out


def test_serve_bot_processes_is_a_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bot-processes`` (the workers the searching bots think in) takes a count from 0;
    anything else is a usage error before anything starts, and a count reaches the server's
    settings."""
    code, out = invoke("serve", "--bot-processes", "-1")
    assert code == 2 and "--bot-processes" in out and "Traceback" not in out
    code, out = invoke("serve", "--bot-processes", "two")
    assert code == 2 and "--bot-processes" in out
    pytest.importorskip("fastapi")
    import dragonlair.server.app as server_app

    seen = []
    monkeypatch.setattr(server_app, "serve", lambda settings, *a, **k: seen.append(settings))
    code, out = invoke("serve", "--bot-processes", "0")
    assert code == 0, out
    assert [s.bot_processes for s in seen] == [0]


def test_serve_names_a_database_or_redis_it_cannot_reach_in_one_line() -> None:
    """Nothing listens on port 1: the server does not start, and says which service and why
    in one line (no traceback), hiding a Redis password."""
    pytest.importorskip("psycopg")
    pytest.importorskip("redis")
    code, out = invoke("serve", "--db", "postgresql://x@127.0.0.1:1/y")
    assert code == 2 and "cannot use the database postgresql+psycopg://x@127.0.0.1:1/y" in out
    assert "Traceback" not in out
    code, out = invoke("serve", "--db", "nonsense://")
    assert code == 2 and "cannot use the database nonsense://" in out
    code, out = invoke("serve", "--redis", "redis://:secret@127.0.0.1:1/0",
                       "--db", "postgresql://x@127.0.0.1:1/y")
    assert code == 2 and "cannot use the database" in out  # the database is checked first


# ---------------------------------------------------------------- only passing; after the end
def test_auctions_a_human_could_only_pass_are_summed_up_on_their_next_screen() -> None:
    """p0 bids all their gold (8 Fairy, 2 Common, F3) on the second card: the rest of the
    turn they can only pass, and those auctions are played without their screen. Their next
    screen sums up how each of them ended, not only the last few events."""
    script = "0\nf8 c2\n" + "0\n1\n" * 400
    code, out = invoke("play", "fist", "--seed", "3", *THREE, "--max-turns", "2",
                       input=script)
    assert code == 0, out[-3000:]
    assert "Only one thing was possible" in out
    summary = out[out.index("Auctions since your last screen"):]
    summary = summary[:summary.index("╰")]  # the panel, as many of its newest lines as fit
    assert "— Turn 2 begins —" in summary
    outcomes = ("fist.auction.won", "fist.auction.passed", "fist.tiebreak.no_winner",
                "fist.auction.cursed")
    words = [render(code, {"seat": 0, "card": "witch"}, "en").split("Witch")[0].split("p0")[-1]
             for code in outcomes]  # " wins the ", "Nobody bid for the "... (catalogue)
    assert any(w.strip() and w in summary for w in words), words
    assert "has bid" not in summary and "worth" not in summary  # outcomes only
    # the same forced pass is told once, with how often
    assert re.search(r"Only one thing was possible, so it was done for you: nothing \(the "
                     r"empty fist\) \(×\d+\)", " ".join(out.split()))


def test_after_game_over_log_shows_the_whole_log_and_end_of_input_leaves() -> None:
    """A human who always bids 0 is asked once per auction and never has a decision; the
    lines the game reads are counted on a first run, and a second run types ``log`` at the
    final prompt. End of input there leaves with the game's exit code (no hang)."""
    args = ("play", "fist", "--seed", "5", *THREE, "--max-turns", "1")
    code, first = invoke(*args, input="0\n" * 300)
    assert code == 0, first[-2000:]
    asked = first.count("Your bid>")
    assert "Type log to read the whole game log, or press Enter to leave>" in first
    code, out = invoke(*args, input="0\n" * asked + "log\n")
    assert code == 0, out[-2000:]
    after = out[out.index("press Enter to leave>"):]
    assert "Game log" in after
    assert "— Turn 1 begins —" in after and "Game over:" in after
    assert after.count("press Enter to leave>") == 2  # asked again after the log
    code, out = invoke(*args, input="0\n" * asked)  # no line left for the final prompt
    assert code == 0 and out.rstrip().endswith("press Enter to leave>")


def test_master_and_farkle_offer_the_log_at_the_end_too() -> None:
    text, _ = master_script(3, ["human", "random"])
    code, out = invoke("play", "master", "--seed", "3", "--seat", "human", "--seat", "random",
                       input=text + "log\n")
    assert code == 0, out[-2000:]
    assert "What happened" in out[out.index("press Enter to leave>"):]
    text, _ = farkle_script(4, ["human", "cautious"])  # a short game
    code, out = invoke("play", "farkle", "--seed", "4", "--seat", "human", "--seat",
                       "cautious", input=text + "verlauf\n")
    assert code == 0, out[-2000:]
    assert "Game log" in out[out.index("press Enter to leave>"):]
    code, out = invoke("play", "master", "--seed", "2", "--seat", "random", "--seat", "random")
    assert code == 0 and "press Enter to leave" not in out  # no human: nothing to ask


# ---------------------------------------------------------------- Dragon Master: M4
def _second_lowest_decides() -> MasterState:
    """Lowest lines 6 and 6; then 12 (seat 0) against 15 (seat 1): seat 1 wins (as in the
    M4 test)."""
    return play_grid(new_round(), ["0313", "1123", "2302", "3210"], 0)


def test_engine_names_the_lines_that_decided_the_round() -> None:
    result = _second_lowest_decides().view(None)["public"]["rounds"][0]
    assert result["decided_at"] == 1 and result["winner"] == 1
    lowest = play_grid(new_round(), ["2133", "1030", "3122", "2210"], 1)
    assert lowest.full_state()["rounds"][0]["decided_at"] == 0
    drawn = play_grid(new_round(), DRAWN, 1).view(None)["public"]["rounds"][0]
    assert drawn["winner"] is None and drawn["decided_at"] is None
    assert deciding_line(drawn, ["a", "b"], "en") is None


def test_deciding_line_in_words() -> None:
    result = _second_lowest_decides().view(None)["public"]["rounds"][0]
    names = ["Ann", "[/bold]"]
    assert deciding_line(result, names, "en") == (
        "Decided by the second-lowest lines: Ann 12 against \\[/bold] 15 "
        "(the lower lines are equal: 6 : 6)")
    assert str(deciding_line(result, names, "de")).startswith(
        "Entschieden durch die zweitniedrigsten Reihen: Ann 12 gegen \\[/bold] 15")
    lines = round_end_lines(result, names, "en")
    assert any("(Ann : \\[/bold]): 6 : 6, 12 : 15 — \\[/bold] wins the round" in line
               for line in lines)


def _tied_lowest_seed() -> int:
    """A seed whose random-vs-random round (as the terminal plays it) ties the lowest
    lines."""
    for seed in range(200):
        bots = [make_bot("master", "random", random.Random(seed_for(seed, 0, s + 1)))
                for s in (0, 1)]
        state = play_out(MasterGame().new_initial_state(), bots,
                         random.Random(seed_for(seed, 0)))
        if (state.view(None)["public"]["rounds"][0]["decided_at"] or 0) > 0:
            return seed
    raise AssertionError("no seed found")


def test_play_result_names_the_deciding_lines_not_the_tied_lowest() -> None:
    seed = _tied_lowest_seed()
    code, out = invoke("play", "master", "--seed", str(seed), "--seat", "random",
                       "--seat", "random")
    assert code == 0
    result = " ".join(out[out.index("Game over"):].split())
    assert re.search(r"Decided by the (second-lowest|third-lowest|highest) lines: random #1 "
                     r"\d+ against random #2 \d+ \(the lower lines are equal: ", result)
    assert "Lowest lines:" not in result


def test_replay_names_the_deciding_lines(tmp_path: Path) -> None:
    state = _second_lowest_decides()
    record = finish_record(new_record(state.game, [{"name": "Ann", "player": "human"},
                                                   {"name": "Bo", "player": "human"}]), state)
    path = tmp_path / "round.json"
    record.save(path)
    code, out = invoke("replay", str(path))
    assert code == 0, out
    text = " ".join(out.split())
    assert "Winner: Bo. lowest lines compared: Bo wins. Decided by the second-lowest lines: " \
           "Ann 12 against Bo 15 (the lower lines are equal: 6 : 6)." in text
    assert "Scores:" not in text


# ---------------------------------------------------------------- table headers
def test_fist_help_table_heads_its_columns_for_cards() -> None:
    console = Console(file=io.StringIO(), width=120, record=True, color_system=None)
    render_help(console, FistGame({"players": 3}), "en")
    text = console.export_text()
    header = next(line for line in text.splitlines() if "Character" in line)
    assert "Copies" in header and "Power" in header and "Player" not in header


def test_seat_tables_have_no_empty_header_column() -> None:
    state = new_table(3)
    out = rendered(players_table(state.view(None), ["a", "b", "c"], "en"))
    header = out.splitlines()[0].rstrip()
    assert header.endswith("Points") and "Status" not in header
    setup(state, ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    play(state, "p0: bid f1 c0")  # a sealed bid: a status to show
    out = rendered(players_table(state.view(None), ["a", "b", "c"], "en"))
    assert out.splitlines()[0].rstrip().endswith("Status") and "has bid" in out
    game = FarkleGame()
    out = rendered(farkle_players_table(game, game.new_initial_state().view(None), ["a", "b"],
                                        "en"))
    assert out.splitlines()[0].rstrip().endswith("Items")


def test_master_cards_table_heads_the_typed_forms() -> None:
    out = rendered(cards_table("en"))
    assert "Type it as" in out


# ---------------------------------------------------------------- suggestions and refusals
def _view_without_ruby() -> dict[str, object]:
    state = MasterGame().new_initial_state()
    game = state.game
    for card in ["sapphire"] * 4 + ["egg"] * 4 + ["ruby"] * 5 + ["emerald"] * 3:
        state.apply(CHANCE, game.parse_action(f"deal {card}"))
    state.apply(CHANCE, game.parse_action("start p0"))
    assert state.phase == Phase.PLACE
    view = state.view(0)
    assert view["private"]["hand"]["ruby"] == 0
    return view


def test_master_examples_come_from_the_legal_moves() -> None:
    view = _view_without_ruby()
    with pytest.raises(InputProblem) as problem:
        placement_from_text("banana", view, "en")
    assert "e.g. sapphire d4" in str(problem.value) and "ruby" not in str(problem.value)
    with pytest.raises(InputProblem) as problem:
        placement_from_text("banane", view, "de")
    assert "z. B. saphir d4" in str(problem.value)


def test_master_prompt_never_suggests_a_card_not_in_hand() -> None:
    for seed in range(100):
        state = MasterGame().new_initial_state()
        rng = random.Random(seed_for(seed, 0))
        while state.phase in (Phase.DEAL, Phase.START):
            state.apply(CHANCE, state.sample_chance(rng))
        if state.hands[0][3] == 0 and state.player == 0:
            break
    else:
        raise AssertionError("no seed found")
    code, out = invoke("play", "master", "--seed", str(seed), "--seat", "human", "--seat",
                       "random", input="banana\n")
    assert code == 1  # the input ran out after the refused line
    best = max(v for v in range(4) if state.hands[0][v])  # p0's highest card: not a Ruby
    word = CARDS[best].id  # the English word to type is the card's id
    text = " ".join(out.split())
    assert f"place a card — a card and a cell, e.g. {word} d4, {best} d4 (? help" in text
    assert f"I do not understand 'banana'; type a card and a cell, e.g. {word} d4." in text


@pytest.mark.parametrize("text", ["²", "³ d4", "١"])
def test_unicode_digits_are_refused_not_crashing(text: str) -> None:
    with pytest.raises(InputProblem):
        parse_bid_words(text, "en", tiebreak=False)
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    bids(state, "f0 c0", "f0 c0", "f0 c0")
    play(state, "chance: card magician")
    bids(state, "f2 c0", "f1 c0", "f0 c0")
    with pytest.raises(InputProblem):
        choice_from_text(state.game, text, state.legal_actions(0), "en")
    with pytest.raises(InputProblem):
        placement_from_text(text, _view_without_ruby(), "en")
    game = FarkleGame()
    farkle = game.new_initial_state()
    for entry in ("companion skree", "companion tabby", "item gold-purse", "item second-wind",
                  "start p0"):
        farkle.apply(CHANCE, game.parse_action(entry))
    with pytest.raises(InputProblem):
        farkle_choice(game, text, list(farkle.legal_actions(0)), "en")


def test_numbers_too_long_for_int_are_refused_not_crashing() -> None:
    """``int()`` refuses more than 4,300 digits: such input is a reason, not a traceback."""
    many = "9" * 5000
    for text in (many, f"f{many}", f"{many}c"):
        with pytest.raises(InputProblem):
            parse_bid_words(text, "en", tiebreak=False)
    with pytest.raises(InputProblem):
        placement_from_text(f"sapphire d{many}", _view_without_ruby(), "en")


# ---------------------------------------------------------------- names from a record
def test_printable_escapes_surrogates_and_control_characters() -> None:
    assert printable("Ann") == "Ann"
    assert printable("Eve\ud800") == "Eve\\ud800"
    assert printable("x\x1b[31my\n") == "x\\x1b[31my\\n"
    assert printable(7) == "7"


def test_replay_prints_seat_names_as_text_even_markup_and_surrogates(tmp_path: Path) -> None:
    state = _second_lowest_decides()
    record = finish_record(new_record(state.game, [{"name": "[/bold]", "player": "human"},
                                                   {"name": "Eve\ud800[red]", "player": "x"}]),
                           state)
    path = tmp_path / "names.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")  # "\ud800" escaped
    code, out = invoke("replay", str(path))
    assert code == 0, out
    text = " ".join(out.split())
    assert "Winner: Eve\\ud800[red]." in text
    assert "lines: [/bold] 12 against Eve\\ud800[red] 15" in text
    code, out = invoke("replay", str(path), "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_replay_of_a_fist_record_with_odd_names(tmp_path: Path) -> None:
    game = FistGame({"players": 3, "max_turns": 1})
    bots = [make_bot("fist", "random", random.Random(s)) for s in range(3)]
    state = play_out(game.new_initial_state(), bots, random.Random(1))
    seats = [{"name": name, "player": "human"} for name in ("[bold]a", "b[/]", "\udfff")]
    path = tmp_path / "fist.json"
    path.write_text(json.dumps(finish_record(new_record(game, seats), state).to_json()),
                    encoding="utf-8")
    code, out = invoke("replay", str(path))
    assert code == 0, out
    assert "Traceback" not in out and "Winner: " in out
