"""Fist speaks in codes: every refusal, event and end reason has a message in every language.

The codes are collected from the engine's source (every ``fist.*`` string literal of the
package) and from the events of random games; each must have a message in English and in
German (and in any language added later), whose fields are params the code has.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dragonlair.core.errors import (
    DragonlairError,
    IllegalActionError,
    MalformedActionError,
    OptionError,
)
from dragonlair.core.game import CHANCE
from dragonlair.core.i18n import catalogue, has_message, languages, render, template_fields
from dragonlair.games.fist import events as fe
from dragonlair.games.fist.game import FistGame
from tests.fist_helpers import new_table, play
from tests.sizes import size

PACKAGE = Path(__file__).resolve().parent.parent / "dragonlair" / "games" / "fist"
#: codes built from a prefix in the source (``f"fist.custom.{code}"``)
BUILT = re.compile(r"_bad\(\s*\"([a-z_]+)\"")


def source_codes() -> set[str]:
    codes: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes.update(re.findall(r"\"(fist\.[a-z_]+\.[a-z0-9_.-]+)\"", text))
        if path.name == "custom.py":
            codes.update(f"fist.custom.{c}" for c in BUILT.findall(text))
    return {c for c in codes if not c.startswith(("fist.card.", "fist.ui."))}


def test_the_source_raises_and_emits_only_codes() -> None:
    """No English sentence is raised: every raise in the package names a code."""
    for path in PACKAGE.glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"(IllegalAction|MalformedAction|Option|Record|Seat|Dragonlair)"
                         r"Error\(\s*f?[\"']", line):
                assert "Error(\"fist." in line or "Error(f\"fist." in line, \
                    f"{path.name}: {line.strip()}"


@pytest.mark.parametrize("lang", languages())
def test_every_code_has_a_message_in_every_language(lang: str) -> None:
    assert {"en", "de"} <= set(languages())
    codes = source_codes() | set(fe.PARAMS)
    assert len(codes) > 80
    missing = sorted(c for c in codes if not has_message(c, lang))
    assert missing == [], f"{lang} lacks messages for {missing}"


@pytest.mark.parametrize("lang", languages())
def test_event_templates_use_only_their_params(lang: str) -> None:
    cat = catalogue(lang)
    for code, names in fe.PARAMS.items():
        text = cat.messages[code]
        for form in (text,) if isinstance(text, str) else text:
            assert template_fields(form) <= set(names), (lang, code, form)


@pytest.mark.parametrize("seeds", [
    pytest.param(range(16), id="16"),
    # CI ten more games, the release run (scripts/test.sh --long) 24 more
    pytest.param(range(16, 16 + size(ci=10, long=24)), id="many", marks=pytest.mark.slow)])
def test_events_of_random_games_render_in_both_languages(seeds: range) -> None:
    seen: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        state = FistGame({"players": 3 + seed % 4}).new_initial_state()
        while not state.is_terminal():
            seats = state.current_seats()
            if seats[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                for s in seats:
                    state.apply(s, rng.choice(state.legal_actions(s)))
        for event in state.all_events():
            assert event.code in fe.PARAMS
            assert set(event.params) == set(fe.PARAMS[event.code])
            if event.code in seen:
                continue
            seen.add(event.code)
            en = render(event.code, event.params, "en")
            de = render(event.code, event.params, "de", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"])
            assert "{" not in en and "{" not in de and en != event.code, event
        outcome = state.outcome()
        assert outcome is not None and outcome.reason.startswith("fist.end.")
        assert "{" not in outcome.message("de")
    assert len(seen) > 25


@pytest.mark.parametrize(("make", "cls", "code"), [
    (lambda: FistGame({"players": 2}), OptionError, "fist.option.players"),
    (lambda: FistGame({"players": 4, "max_turns": 0}), OptionError, "fist.option.max_turns"),
    (lambda: FistGame({"players": 4}).action_from_index(10**6), OptionError,
     "fist.action.no_index"),
    (lambda: FistGame({"players": 4}).parse_action("fly away"), MalformedActionError,
     "fist.action.unknown"),
    (lambda: FistGame({"players": 4}).parse_action("bid f99 c0"), MalformedActionError,
     "fist.action.bid_too_large"),
    (lambda: FistGame({"players": 4}).parse_action("bid f1 f2"), MalformedActionError,
     "fist.action.bid_word_twice"),
    (lambda: FistGame({"players": 4}).parse_action("bid f²"), MalformedActionError,
     "fist.action.bid_digits"),
    (lambda: play(new_table(), "p0: bid f0 c0"), IllegalActionError,
     "fist.turn.chance_to_move"),
    (lambda: play(new_table(), "chance: card thief"), IllegalActionError,
     "fist.chance.impossible"),
])
def test_refusals_carry_codes(make: object, cls: type[DragonlairError], code: str) -> None:
    """Refusals carry a code and JSON-ready params; the German message is the catalogue's."""
    with pytest.raises(cls) as err:
        make()  # type: ignore[operator]
    assert err.value.code == code
    import json
    json.dumps(err.value.to_json())
    assert err.value.message("de") != err.value.code
    assert err.value.message("de") != str(err.value)


def test_action_fields_have_names_that_agree_with_the_text() -> None:
    """Actions name what their fields mean (the text and index are unchanged): a bid's
    coins and value (F5.2), a tie-break bid's Silver (F5.7), a steal's seat and colour."""
    game = FistGame({"players": 4})
    bid = game.parse_action("bid f3 c2 black amulet")
    assert (bid.fairy, bid.common, bid.black, bid.amulet, bid.value) == (3, 2, True, True, 10)
    silver = game.parse_action("silver 4 amulet")
    assert (silver.silver, silver.amulet, silver.value, silver.fairy) == (4, True, 8, 0)
    steal = game.parse_action("steal p2 blue")
    assert (steal.seat, steal.colour) == (2, 1)
    assert game.parse_action("steal p1 coin").colour is None
    assert game.parse_action("pay rrby").stones == (2, 1, 1)
    buy = game.parse_action("buy yellow silver")
    assert (buy.colour, buy.currency) == (2, 2)
    assert game.card_ids[game.parse_action("pick thief").card or 0] == "thief"
