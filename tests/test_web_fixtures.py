"""The client's unit tests read real engine views (web/src/games/{fist,farkle}/fixtures/,
written by web/scripts/game_fixtures.py): they must be what the engine produces now, so a
change of the engine's views or decisions shows up in the client's tests (F6, F7, D6, D7)."""

from __future__ import annotations

import functools
from types import ModuleType

import pytest

from tests.scripts import load_script


def _generator() -> ModuleType:
    return load_script("web/scripts/game_fixtures.py", "game_fixtures")


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    """The generator, each kind of fixture played for once (the three tests read the same
    games, a second or two of them)."""
    module = _generator()
    for name in ("fist_fixtures", "fist_bid_fixtures", "farkle_fixtures", "farkle_log_fixtures",
                 "master_fixtures", "gallery_fixtures"):
        setattr(module, name, functools.cache(getattr(module, name)))
    return module


def test_committed_fixtures_are_what_the_engine_produces(gen: ModuleType) -> None:
    assert gen.stale() == []


def test_every_fist_decision_kind_and_farkle_stage_has_a_fixture(gen: ModuleType) -> None:
    from dragonlair.games.fist.pending import Dec

    assert set(gen.fist_fixtures()) == {d.name.lower() for d in Dec}
    farkle = gen.farkle_fixtures()
    assert set(farkle) == {"battle", "damage", "lair", "defender_hot", "defender_keep_all"}
    assert farkle["battle"]["view"]["public"]["mode"] == "battle"
    assert farkle["damage"]["view"]["public"]["dragon"]["damage"] > 0
    lair = farkle["lair"]
    assert lair["view"]["public"]["seats"][lair["seat"]]["in_lair"]
    # a Skirmish's defender: hot dice are 5 dice again (D5.2), as the view says (issue 25)
    for stage in ("defender_hot", "defender_keep_all"):
        fx = farkle[stage]
        pub = fx["view"]["public"]
        assert pub["skirmish"]["defender"] == pub["roller"] == fx["seat"]
    assert farkle["defender_hot"]["view"]["public"]["next_roll"]["dice"] == 5
    keeps = farkle["defender_keep_all"]["view"]["legal"]["keeps"]
    assert any(k["dice_left"] == 0 and k["next_dice"] == 5 for k in keeps)


def test_a_fixture_holds_only_what_its_seat_may_see(gen: ModuleType) -> None:
    for fx in [*gen.fist_fixtures().values(), *gen.farkle_fixtures().values()]:
        assert fx["view"]["seat"] == fx["seat"]
        assert fx["view"]["legal"] is not None


def test_the_gallery_states_are_what_they_say(gen: ModuleType) -> None:
    """The gallery's pictures (web/gallery.html, e2e/visual.spec.ts) show each game's start, a
    decision, the reveal and the end, each as a seat saw it (issue 25)."""
    gallery = gen.gallery_fixtures()
    assert set(gallery) == {"fist", "master", "farkle"}
    for game, states in gallery.items():
        assert set(states) == {"start", "decision", "reveal", "end"}, game
        for state, fx in states.items():
            view = fx["view"]
            assert view["seat"] == fx["seat"] and view["game"] == game
            assert fx["status"] == ("finished" if state == "end" else "running")
            assert (view["result"] is not None) == (state == "end")
            if state in ("start", "decision"):
                assert view["legal"] is not None, (game, state)

    def codes(game: str, state: str) -> list[str]:
        return [e["code"] for e in gallery[game][state]["events"]]

    assert "fist.bid.revealed" not in codes("fist", "start")
    assert "fist.bid.revealed" in codes("fist", "reveal")  # the fists opened on a card won
    assert codes("fist", "reveal").count("fist.auction.won") >= 1
    assert gallery["fist"]["decision"]["view"]["legal"]["kind"] == "decision"
    assert gallery["master"]["start"]["view"]["public"]["placements"] == []
    reveal = gallery["master"]["reveal"]
    assert reveal["view"]["public"]["placements"][-1]["seat"] == reveal["seat"]  # just placed
    assert gallery["farkle"]["decision"]["view"]["legal"]["decision"] == "continue"
    assert gallery["farkle"]["reveal"]["view"]["legal"]["decision"] == "keep"  # a roll
