"""Dragon's Hoard: its rules (rules/en.md, H1-H5), its refusals and messages, its bot.

The cross-game contract (records, snapshots, views, secrecy, action texts) is checked by
Dragonlair's own conformance suite, which finds this game through its plugin once the package
is installed (``pytest tests/test_contract.py -k hoard`` in Dragonlair's checkout)."""

from __future__ import annotations

import random

import pytest
from dragonlair_hoard.game import HoardGame, HoardState

from dragonlair.bots import make_bot
from dragonlair.core.errors import (
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
)
from dragonlair.core.game import CHANCE
from dragonlair.core.i18n import render
from dragonlair.games import game_ids, make_game, plugin
from dragonlair.simulate import simulate


def play(state: HoardState, *moves: str) -> HoardState:
    """Apply ``moves``: ``roll``/``bank`` by the seat to move, ``die N`` by chance."""
    for text in moves:
        seat = CHANCE if text.startswith("die") else state.current_seats()[0]
        state.apply(seat, state.game.parse_action(text))
    return state


def test_the_game_is_found_through_its_entry_point() -> None:
    assert "hoard" in game_ids()
    assert plugin("hoard").info.name == "Dragon's Hoard"
    assert isinstance(make_game("hoard", {"players": 3}), HoardGame)


def test_h1_players_and_options_are_checked() -> None:
    with pytest.raises(OptionError) as info:
        make_game("hoard", {"players": 5})
    assert info.value.code == "hoard.option.players"
    assert info.value.message("de") == "Drachenhort ist für 2 bis 4 Spieler, nicht für 5"
    with pytest.raises(OptionError):
        make_game("hoard", {"target": 10})


def test_h2_each_face_from_2_adds_its_gold_to_the_turn() -> None:
    state = play(HoardGame().new_initial_state(), "roll", "die 4", "roll", "die 6")
    assert state.turn_gold == 10 and state.roller == 0 and state.hoards == [0, 0]


def test_h3_a_one_loses_the_pile_and_ends_the_turn() -> None:
    state = play(HoardGame().new_initial_state(), "roll", "die 5", "roll", "die 1")
    assert state.turn_gold == 0 and state.roller == 1 and state.hoards == [0, 0]
    assert state.all_events()[-2].code == "hoard.turn.dragon"
    assert state.all_events()[-2].params["lost"] == 5


def test_h4_banking_needs_a_roll_first_and_ends_the_turn() -> None:
    state = HoardGame().new_initial_state()
    with pytest.raises(IllegalActionError) as info:
        play(state, "bank")
    assert (info.value.code, info.value.rule) == ("hoard.bank.nothing", "H4")
    play(state, "roll", "die 3", "bank")
    assert state.hoards == [3, 0] and state.roller == 1 and state.turn_gold == 0


def test_h5_reaching_the_target_wins_at_once() -> None:
    state = HoardGame({"target": 20}).new_initial_state()
    play(state, "roll", "die 6", "roll", "die 6", "roll", "die 6")
    assert not state.is_terminal()  # 18 on the table, not banked
    play(state, "roll", "die 2", "bank")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.reason == "hoard.end.target_reached" and state.current_seats() == ()


def test_h5_at_the_round_limit_the_richest_hoards_share_the_win() -> None:
    state = HoardGame({"max_turns": 1, "players": 3}).new_initial_state()
    play(state, "roll", "die 4", "bank", "roll", "die 4", "bank", "roll", "die 1")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)
    assert outcome.reason == "hoard.end.turn_limit" and outcome.placings == (1, 1, 3)


def test_moves_out_of_turn_and_malformed_ones_are_refused_and_change_nothing() -> None:
    state = play(HoardGame().new_initial_state(), "roll")
    before = state.snapshot()
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, state.game.parse_action("bank"))  # the die is rolling
    assert info.value.code == "core.turn.not_your_move"
    with pytest.raises(MalformedActionError):
        state.game.parse_action("fly away")
    assert state.snapshot() == before


def test_snapshots_restore_and_refuse_what_was_tampered_with() -> None:
    game = HoardGame()
    state = play(game.new_initial_state(), "roll", "die 3", "bank", "roll", "die 2")
    again = game.restore(state.snapshot())
    assert again.snapshot() == state.snapshot()
    forged = state.snapshot()
    forged["state"]["hoards"] = [40, 0]
    with pytest.raises(RecordError) as info:
        game.restore(forged)
    assert info.value.code == "hoard.snapshot.invalid"


def test_its_messages_come_in_both_languages_with_the_players_names() -> None:
    params = {"seat": 1, "face": 1, "lost": 9}
    assert render("hoard.turn.dragon", params, "en", ["Ann", "Ben"]) == (
        "Ben rolls a 1: the dragon wakes, and 9 gold is lost.")
    assert render("hoard.turn.dragon", params, "de", ["Ann", "Ben"]) == (
        "Ben würfelt eine 1: Der Drache erwacht, 9 Gold sind verloren.")
    refusal = IllegalActionError("hoard.bank.nothing", rule="H4", seat=0)
    assert refusal.message("de").startswith("Spieler 1 hat noch kein Gold")


def test_the_view_words_the_position_and_the_choices_for_generic_screens() -> None:
    state = play(HoardGame().new_initial_state(), "roll", "die 5")
    view = state.view(0)
    assert [c["action"] for c in view["legal"]["choices"]] == ["roll", "bank"]
    bank = view["legal"]["choices"][1]
    assert render(bank["code"], bank["params"], "en") == "Bank 5 gold (hoard: 5)"
    assert state.view(1)["legal"] is None and state.view(None)["private"] is None


def test_the_cautious_bot_beats_random_play() -> None:
    bot = make_bot("hoard", "cautious", random.Random(0))
    state = play(HoardGame().new_initial_state(), "roll", "die 6", "roll", "die 6")
    assert str(bot.choose(state.view(0), state.legal_actions(0))) == "roll"  # 12 < 20
    play(state, "roll", "die 6", "roll", "die 6")
    assert str(bot.choose(state.view(0), state.legal_actions(0))) == "bank"  # 24 >= 20
    result = simulate("hoard", 200, ["cautious", "random"], seed=3)
    assert result.wins[0] > 0.7 * result.games


def test_it_is_played_in_the_terminal_from_its_views_in_its_own_words() -> None:
    from typer.testing import CliRunner

    from dragonlair.cli.main import app

    result = CliRunner().invoke(app, ["play", "hoard", "--seed", "1", "--name", "Ann",
                                      "--lang", "de"], input="1\n2\n" * 200)
    out = result.output
    assert result.exit_code == 0, out
    assert "Am Tisch: Ann, Vorsichtiger Bot" in out
    assert "Hort von Ann: 0 von 50 Gold" in out and "Den Drachenwürfel werfen" in out
    assert "hoard." not in out  # every code rendered
