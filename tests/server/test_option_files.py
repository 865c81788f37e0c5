"""A table option from a player's file (dragonlair/server/option_files.py, issue 25): Farkle's
decks (D8.5) and scoring table (D2) uploaded as TOML or JSON and checked before a table is
made, every bad line answered with its number and a catalogue message in English and German;
the built-in presets the lobby form offers instead of data (GET /api/games); hostile bodies
refused, nothing stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from dragonlair.core.i18n import error_message
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.server import lobby, option_files
from dragonlair.server.option_files import json_lines, toml_lines
from tests.server.routers import client_for

JSON = dict[str, Any]
DECKS = "/api/games/farkle/options/decks/file"
TABLE = "/api/games/farkle/options/table/file"
EXAMPLE = resources.files("dragonlair.games.farkle").joinpath("examples/decks.toml").read_text(
    encoding="utf-8")


@pytest.fixture(scope="module")
def web() -> Iterator[TestClient]:
    with client_for(option_files.router) as client:
        yield client


def send(web: TestClient, url: str, filename: str, text: str) -> JSON:
    r: httpx.Response = web.post(url, json={"filename": filename, "text": text})
    assert r.status_code == 200, r.text
    out: JSON = r.json()
    return out


def problems(out: JSON) -> list[tuple[int, str]]:
    """(line, code) of each problem; and each reads as words in English and German."""
    assert out["value"] is None
    for p in out["problems"]:
        en, de = error_message(p, "en"), error_message(p, "de")
        assert en != de and not en.startswith(p["code"]) and not de.startswith(p["code"]), p
    return [(p["line"], p["code"]) for p in out["problems"]]


def test_a_good_deck_file_comes_back_as_the_data_a_table_takes(web: TestClient) -> None:
    out = send(web, DECKS, "decks.toml", EXAMPLE)
    assert out["problems"] == []
    assert [c["id"] for c in out["value"]["companions"]] == ["tabby", "skree"]
    # the same data as JSON, and a game accepts it as its option
    again = send(web, DECKS, "my-decks.JSON", json.dumps(out["value"], indent=2))
    assert again == out
    state = FarkleGame({"players": 2, "decks": out["value"]}).new_initial_state()
    assert not state.is_terminal()


def test_a_good_scoring_table_file(web: TestClient) -> None:
    out = send(web, TABLE, "table.toml", "four = 1000\nthree_pairs = 1500\n")
    assert out == {"value": {"four": 1000, "three_pairs": 1500}, "problems": []}


def test_malformed_toml_is_answered_at_its_line(web: TestClient) -> None:
    text = EXAMPLE.replace('effect = "scare"', 'effect = "scare', 1)
    line = text.splitlines().index('effect = "scare') + 1
    assert problems(send(web, DECKS, "decks.toml", text)) == [
        (line, "server.option_file.not_toml")]


def test_malformed_json_is_answered_at_its_line(web: TestClient) -> None:
    text = '{\n  "companions": [\n    {"id": "tabby",}\n  ]\n}\n'
    assert problems(send(web, DECKS, "decks.json", text)) == [
        (3, "server.option_file.not_json")]


def test_every_wrong_field_and_value_is_named_at_its_own_line(web: TestClient) -> None:
    lines = EXAMPLE.splitlines()
    # a wrong field in the first companion, a wrong value in the second, another in an item
    lines.insert(lines.index('effect = "ignore_dragon"') + 1, 'colour = "red"')
    lines[lines.index('effect = "scare"')] = 'effect = "fly"'
    lines[lines.index("count = 5")] = "count = 99"
    out = send(web, DECKS, "decks.toml", "\n".join(lines))
    assert problems(out) == [
        (lines.index('colour = "red"') + 1, "server.option_file.unknown_field"),
        (lines.index('effect = "fly"') + 1, "farkle.deck.card_effect"),
        (lines.index("count = 99") + 1, "farkle.deck.card_count"),
    ]
    en = [error_message(p, "en") for p in out["problems"]]
    assert "colour" in en[0] and "skree" in en[1] and "lucky-dragon-tooth" in en[2]


def test_wrong_entries_of_a_scoring_table_each_at_their_line(web: TestClient) -> None:
    text = "single_one = 100\nsingle_fiv = 50\ntriple = [1, 2, 3]\nfour = -5\nsix = 3000\n"
    assert problems(send(web, TABLE, "t.toml", text)) == [
        (2, "farkle.table.unknown"), (3, "farkle.table.shape"), (4, "farkle.table.not_whole")]
    text = '{\n  "four": "many",\n  "five": 2000,\n  "straight": true\n}'
    assert problems(send(web, TABLE, "t.json", text)) == [
        (2, "farkle.table.not_whole"), (4, "farkle.table.not_whole")]


def test_the_wrong_shape_of_file(web: TestClient) -> None:
    assert problems(send(web, DECKS, "d.json", "[1, 2]")) == [(1, "farkle.deck.keys")]
    text = 'monsters = 3\ncompanions = "tabby"\n'
    assert problems(send(web, DECKS, "d.toml", text)) == [
        (1, "farkle.deck.keys"), (2, "farkle.deck.not_a_list")]
    dup = EXAMPLE.replace('id = "skree"', 'id = "tabby"')
    line = dup.splitlines().index('id = "tabby"', 10) + 1
    assert problems(send(web, DECKS, "d.toml", dup)) == [(line, "farkle.deck.ids_not_unique")]


def test_an_oversized_file_is_refused_and_a_huge_body_too(web: TestClient) -> None:
    r = web.post(DECKS, json={"filename": "d.toml",
                              "text": "# x\n" * (option_files.MAX_FILE // 4 + 1)})
    assert r.status_code == 413 and r.json()["code"] == "server.option_file.too_large"
    en = error_message(r.json(), "en")
    assert str(option_files.MAX_FILE) in en
    r = web.post(DECKS, json={"filename": "d.toml", "text": "x" * 70_000})
    assert r.status_code == 413


def test_hostile_input_gets_a_clear_answer(web: TestClient) -> None:
    deep = "[" * 5000 + "]" * 5000
    assert problems(send(web, DECKS, "d.json", deep))[0][0] == 1
    big = "amount = " + "9" * 5000 + "\n"
    assert problems(send(web, DECKS, "d.toml", big)) == [(1, "server.option_file.unreadable")]
    assert web.post(DECKS, json={"filename": "", "text": ""}).status_code == 422
    assert web.post(DECKS, json={"text": "x"}).status_code == 422
    r = web.post("/api/games/nope/options/decks/file", json={"filename": "a", "text": ""})
    assert r.status_code == 404 and r.json()["code"] == "server.game.not_found"
    r = web.post("/api/games/farkle/options/players/file", json={"filename": "a", "text": ""})
    assert r.status_code == 404 and r.json()["code"] == "server.option_file.none"
    assert error_message(r.json(), "de") != error_message(r.json(), "en")


def test_the_line_finders() -> None:
    assert toml_lines('a = 1\n[[items]]\nid = "x"\n\n[[items]]\n# c\nid = "y"\n') == {
        ("a",): 1, ("items",): 2, ("items", 0): 2, ("items", 0, "id"): 3,
        ("items", 1): 5, ("items", 1, "id"): 7}
    text = '{"items": [\n {"id": "x",\n  "n": [1, 2]},\n {"id": "y"}\n]}'
    assert json_lines(text) == {
        ("items",): 1, ("items", 0): 2, ("items", 0, "id"): 2, ("items", 0, "n"): 3,
        ("items", 0, "n", 0): 3, ("items", 0, "n", 1): 3, ("items", 1): 4,
        ("items", 1, "id"): 4}


def test_the_lobby_offers_presets_and_uploads_and_each_preset_plays() -> None:
    with client_for(lobby.router) as web:
        games = {g["id"]: g for g in web.get("/api/games").json()}
    farkle = {o["name"]: o for o in games["farkle"]["options"]}
    assert farkle["decks"]["upload"] and farkle["table"]["upload"]
    assert not farkle["players"]["upload"]
    assert [p["id"] for p in farkle["table"]["presets"]] == ["classic"]
    assert [p["id"] for p in farkle["decks"]["presets"]] == ["example"]
    for p in (*farkle["table"]["presets"], *farkle["decks"]["presets"]):
        assert error_message({"code": p["label"], "params": {}}, "de") != error_message(
            {"code": p["label"], "params": {}}, "en")
    import random

    from dragonlair.core.game import CHANCE
    for name in ("table", "decks"):
        for preset in farkle[name]["presets"]:
            rng = random.Random(3)
            st = FarkleGame({"players": 2, name: preset["value"], "max_turns": 8}
                            ).new_initial_state()
            while not st.is_terminal():
                if st.is_chance():
                    st.apply(CHANCE, st.sample_chance(rng))
                    continue
                seat = st.current_seats()[0]
                st.apply(seat, rng.choice(list(st.legal_actions(seat))))
