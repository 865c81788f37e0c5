"""Dragon Farkle speaks in codes: refusals and events rendered from the catalogues (issue 12).

Every code the engine uses (errors, events, end reasons) and every built-in card has a
message in every language; a refusal names its rule section and renders in English and
German without the interface re-checking the rule (D2, D3, D5.1).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dragonlair.cli.session import InputProblem
from dragonlair.core.errors import IllegalActionError, MalformedActionError, OptionError
from dragonlair.core.game import CHANCE
from dragonlair.core.i18n import has_message, languages, render
from dragonlair.games.farkle.cards import COMPANIONS, ITEMS
from dragonlair.games.farkle.events import PARAMS, PRIVATE
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.state import FarkleState
from dragonlair.games.farkle.terminal.play import choice_from_text

PACKAGE = Path(__file__).parent.parent / "dragonlair" / "games" / "farkle"


def used_codes() -> set[str]:
    """Every ``farkle.*`` code written in the engine's source."""
    codes: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        codes.update(re.findall(r'"(farkle\.[a-z_]+\.[a-z_]+)"', path.read_text("utf-8")))
    return codes


def test_every_code_has_a_message_in_every_language() -> None:
    codes = used_codes() | set(PARAMS)
    assert len(codes) > 60
    for card in (*COMPANIONS, *ITEMS):
        codes |= {f"farkle.card.{card.id}.name", f"farkle.card.{card.id}.text"}
    assert set(languages()) >= {"en", "de"}
    for lang in languages():
        missing = sorted(c for c in codes if not has_message(c, lang))
        assert not missing, (lang, missing)


def test_every_private_event_has_a_public_twin() -> None:
    """D9: a secret goes to its owner only, and the others learn that it happened."""
    for code in PRIVATE:
        twin = code.removesuffix("_own")
        assert twin in PARAMS and "card" not in PARAMS[twin], code


def rolled() -> tuple[FarkleGame, FarkleState]:
    game = FarkleGame()
    state = game.new_initial_state()
    for text in ("companion skree", "companion tabby", "item gold-purse", "item second-wind",
                 "start p0"):
        state.apply(CHANCE, game.parse_action(text))
    state.apply(0, game.parse_action("recruit"))
    state.apply(CHANCE, game.parse_action("dice 123466 blank"))
    return game, state


def test_d2_a_keep_that_does_not_score_is_refused_with_a_code() -> None:
    game, state = rolled()
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, game.parse_action("keep 66"))
    err = info.value
    assert err.code == "farkle.keep.not_scoring" and err.rule == "D2"
    assert err.params["rest"] == "66" and err.params["n"] == 2
    assert "the dice 66 do not score" in str(err) and "(rule D2)" in str(err)
    assert "die Würfel 66 punkten nicht" in err.message("de")
    err16 = state.refusal(0, game.parse_action("keep 16"))
    assert err16 is not None and "the die 6 does not score" in str(err16)
    err5 = state.refusal(0, game.parse_action("keep 5"))
    assert err5 is not None and err5.code == "farkle.keep.not_rolled"
    assert err5.params["roll"] == "123466"


def test_the_terminal_shows_the_engines_refusal() -> None:
    game, state = rolled()
    legal = list(state.legal_actions(0))

    def refuse_de(action: object) -> str | None:
        err = state.refusal(0, action)  # type: ignore[arg-type]
        return None if err is None else err.message("de", ["p0 Ann", "p1 Bob"])

    with pytest.raises(InputProblem, match="die Würfel 66 punkten nicht"):
        choice_from_text(game, "behalte 66", legal, "de", refuse_de)
    assert choice_from_text(game, "keep 1", legal, "de", refuse_de).text == "keep 1"


def test_d3_d5_choice_refusals_name_their_rule() -> None:
    game, state = rolled()
    fresh = game.new_initial_state()
    for text in ("companion skree", "companion tabby", "item gold-purse", "item second-wind",
                 "start p0"):
        fresh.apply(CHANCE, game.parse_action(text))
    battle = fresh.refusal(0, game.parse_action("battle"))
    assert battle is not None and (battle.code, battle.rule) == ("farkle.battle.not_allowed",
                                                                "D3")
    itself = fresh.refusal(0, game.parse_action("skirmish p0"))
    assert itself is not None and itself.code == "farkle.skirmish.target_self"
    nobody = fresh.refusal(0, game.parse_action("skirmish p3"))
    assert nobody is not None and nobody.code == "farkle.skirmish.target_no_seat"
    assert render(nobody.code, nobody.params, "de").startswith(
        "Spieler 1 kann Spieler 4 nicht angreifen")  # a seat named, never the engine's p3
    assert fresh.refusal(0, game.parse_action("recruit")) is None
    late = state.refusal(0, game.parse_action("bank"))
    assert late is not None and late.code == "farkle.action.not_now"


def test_malformed_actions_and_options_carry_codes() -> None:
    game = FarkleGame()
    with pytest.raises(MalformedActionError) as bad:
        game.parse_action("fly away")
    assert bad.value.code == "farkle.action.unknown"
    assert "ist keine Aktion von Dragon Farkle" in bad.value.message("de")
    for opts, code in (({"players": 9}, "farkle.options.players"),
                       ({"dragon": 7}, "farkle.options.dragon"),
                       ({"max_turns": 0}, "farkle.options.max_turns"),
                       ({"table": {"six": "x"}}, "farkle.table.not_whole"),
                       ({"table": {"seven": 1}}, "farkle.table.unknown"),
                       ({"decks": {"monsters": []}}, "farkle.deck.keys")):
        with pytest.raises(OptionError) as info:
            FarkleGame(opts)
        assert info.value.code == code, opts
        assert not info.value.message("de").startswith("farkle.")


def test_outcome_reason_is_a_code_rendered_in_each_language() -> None:
    game = FarkleGame({"players": 2, "max_turns": 2})
    state = game.new_initial_state()
    import random

    rng = random.Random(3)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(seat, state.sample_chance(rng))
        else:
            state.apply(seat, state.legal_actions(seat)[0])
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "farkle.end.turn_limit"
    assert outcome.reason_params["turns"] == 2
    assert "Zuglimit von 2 erreicht" in outcome.message("de")
