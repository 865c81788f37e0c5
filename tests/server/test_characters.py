"""Custom Fist characters over the server (dragonlair/server/characters.py; rule F9): the
examples and primitives for an editor, checking, importing and exporting characters, a
balance run (one at a time), hostile bodies refused with a code, and a character made
through the API playing a whole game at a table."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from dragonlair.core.i18n import error_message
from dragonlair.core.records import Record, replay
from dragonlair.games.fist.actions import Kind
from dragonlair.games.fist.custom import MAX_STEPS, example_names, load_file, normalize
from dragonlair.server import characters
from tests.server.helpers import Client, ServerThread, check_no_leaks, new_table
from tests.server.routers import client_for

JSON = dict[str, Any]
BASE = "/api/games/fist/characters"

#: a new character as an editor would send it: no texts, no German name
BANKER: JSON = {"id": "banker", "count": 1, "name": {"en": "Banker"},
                "power": [{"gain": {"common": 2, "silver": 1}},
                          {"pay_stones": {"count": 2, "pattern": "any", "points": 1}}]}


@pytest.fixture(scope="module")
def web() -> Iterator[TestClient]:
    with client_for(characters.router) as client:  # one event loop for the module's requests
        yield client


def ok(r: httpx.Response) -> JSON:
    assert r.status_code == 200, r.text
    out: JSON = r.json()
    return out


def refused(r: httpx.Response, code: str, status: int = 422) -> JSON:
    """A refusal: the status, exactly the error shape, the code, and a message in English
    and German from the catalogues (not the code itself)."""
    assert r.status_code == status, r.text
    body: JSON = r.json()
    assert set(body) == {"code", "params", "rule"} and body["code"] == code, body
    en, de = error_message(body, "en"), error_message(body, "de")
    assert en != de and not en.startswith(code) and not de.startswith(code), (en, de)
    return body


# ---------------------------------------------------------------------------- examples
def test_examples_list_the_shipped_characters_the_primitives_and_the_limits(
        web: TestClient) -> None:
    out = ok(web.get(f"{BASE}/examples"))
    chars = out["characters"]
    assert {c["example"] for c in chars} == {f"{n}.toml" for n in example_names()}
    assert {c["id"] for c in chars} >= {"moneylender", "stormcaller", "highwayman"}
    for c in chars:  # normalized: both languages, and it checks again unchanged
        assert set(c) == {"id", "count", "name", "text", "power", "example"}
        assert c["name"]["de"] and c["text"]["de"]
        assert normalize(c) == {k: v for k, v in c.items() if k != "example"}
    prims = {p["name"]: p for p in out["primitives"]}
    assert prims["pay_stones"]["fields"] == [
        {"name": "count", "kind": "int", "min": 1, "max": 12, "default": 2},
        {"name": "pattern", "kind": "choice", "choices": ["any", "same", "each"],
         "default": "any"},
        {"name": "points", "kind": "int", "min": 1, "max": 3, "default": 1}]
    assert set(prims["either"]["groups"]) == {"pay_stones", "gain"}
    assert prims["steal_from_second"]["fields"] == []
    assert prims["take_all_from"]["fields"][0]["kind"] == "multi"
    assert prims["play_unauctioned"]["fields"][0]["choices"] == ["random", "choose"]
    for name in ("gain_stone_choice", "necromancer", "pay_all_stones"):
        assert [f["name"] for f in prims[name]["fields"]] == ["value"]
    assert out["limits"]["count"] == [1, 4] and out["limits"]["steps"] == MAX_STEPS
    assert out["limits"]["id_pattern"] == "^[a-z][a-z0-9-]{0,30}$"


# ---------------------------------------------------------------------------- check
def test_check_normalizes_and_describes_a_new_character(web: TestClient) -> None:
    """F9: a character without texts gets the described texts, the English name serves in
    German, and the card is shown as a table shows it."""
    out = ok(web.post(f"{BASE}/check", json={"character": BANKER}))
    en = ("Take 2 Common Gold and 1 Silver. Then pay 2 stones of any colours for 1 point, "
          "if you can.")
    de = ("Nimm 2 Gemeingold und 1 Silber. Dann zahle 2 beliebige Steine für 1 Punkt, "
          "wenn du kannst.")
    assert out["described"] == {"en": en, "de": de}
    assert out["character"] == {**BANKER, "name": {"en": "Banker", "de": "Banker"},
                                "text": {"en": en, "de": de}}
    assert out["cards"] == {"en": {"name": "Banker", "text": en, "count": 1},
                            "de": {"name": "Banker", "text": de, "count": 1}}
    own = {**BANKER, "text": {"en": "My words.", "de": ""}}  # an empty text counts as none
    out = ok(web.post(f"{BASE}/check", json={"character": own}))
    assert out["character"]["text"] == {"en": "My words.", "de": de}
    assert ok(web.post(f"{BASE}/check", json={"character": out["character"]})) == out


@pytest.mark.parametrize(("character", "code", "params"), [
    ({**BANKER, "id": "Bad Id"}, "fist.custom.bad_id", {}),
    ({**BANKER, "id": "thief"}, "fist.custom.builtin_id", {"id": "thief"}),
    ({**BANKER, "power": [{"teleport": True}]}, "fist.custom.unknown_primitive",
     {"id": "banker", "step": 1}),
    ({**BANKER, "power": [{"gain": {"silver": 1}}] * (MAX_STEPS + 1)},
     "fist.custom.too_many_steps", {"id": "banker", "max": MAX_STEPS}),
    ({**BANKER, "power": [{"gain": {"silver": 1}}, {"pay_stones": {"count": "2"}}]},
     "fist.custom.number", {"id": "banker", "step": 2, "key": "count"}),
    ({**BANKER, "name": {"en": "B" * 500}}, "fist.custom.too_long", {"key": "name.en"}),
    ({**BANKER, "count": 9}, "fist.custom.number", {"key": "count"}),
    ({**BANKER, "name": "Banker"}, "fist.custom.no_name", {}),
    ({**BANKER, "power": [{"gain": {"silver": [1] * 5}}]}, "fist.custom.number", {}),
])
def test_check_refuses_invalid_characters_with_the_engines_code(
        web: TestClient, character: JSON, code: str, params: JSON) -> None:
    body = refused(web.post(f"{BASE}/check", json={"character": character}), code)
    assert params.items() <= body["params"].items()
    assert body["rule"] == "F9"


@pytest.mark.parametrize(("body", "code"), [
    ({"character": "banker"}, "server.request.invalid"),
    ({"character": [BANKER]}, "server.request.invalid"),
    ({}, "server.request.invalid"),
    ({"character": {**BANKER, "name": {"en": "B" * 5000}}}, "server.characters.too_long"),
    ({"character": {**BANKER, "x" * 2000: 1}}, "server.characters.too_long"),
    ({"character": {**BANKER, "extra": json.loads("[" * 40 + "]" * 40)}},
     "server.characters.too_deep"),
])
def test_check_refuses_hostile_bodies(web: TestClient, body: JSON, code: str) -> None:
    r = web.post(f"{BASE}/check", json=body)
    if code == "server.request.invalid":  # the bare router answers pydantic's own 422
        assert r.status_code == 422
    else:
        refused(r, code)


# ---------------------------------------------------------------------------- import/export
def test_import_reads_toml_and_json_files(web: TestClient) -> None:
    toml = (Path(__file__).parents[2] / "dragonlair/games/fist/examples/stormcaller.toml"
            ).read_text(encoding="utf-8")
    out = ok(web.post(f"{BASE}/import", json={"filename": "stormcaller.toml", "text": toml}))
    assert out["characters"] == [normalize(c) for c in load_file("stormcaller")]  # own texts
    text = json.dumps([BANKER])
    out = ok(web.post(f"{BASE}/import", json={"filename": "C:\\x\\Banker.JSON", "text": text}))
    assert out["characters"] == [{k: v for k, v in normalize(BANKER).items() if k != "text"}]


def test_import_leaves_out_texts_that_only_describe_the_power(web: TestClient) -> None:
    """An exported file holds every text; read back, a text that is just the power described
    is no own text, so that the editor keeps describing the power as it changes (F9)."""
    mixed = {**BANKER, "text": {"de": "Der Bankier gibt und nimmt."}}
    exported = ok(web.post(f"{BASE}/export", json={"characters": [mixed], "format": "toml"}))
    assert "Take 2 Common Gold" in exported["text"]  # the file is complete for the terminal
    out = ok(web.post(f"{BASE}/import", json={"filename": "b.toml", "text": exported["text"]}))
    assert out["characters"][0]["text"] == {"de": "Der Bankier gibt und nimmt."}
    assert out["characters"][0]["power"] == normalize(BANKER)["power"]


@pytest.mark.parametrize(("body", "code", "params"), [
    ({"filename": "chars.yaml", "text": "x"}, "fist.custom.bad_suffix",
     {"file": "chars.yaml"}),
    ({"filename": "../../etc/x.txt", "text": "x"}, "fist.custom.bad_suffix", {"file": "x.txt"}),
    ({"filename": "c.toml", "text": "[[character]\n"}, "fist.custom.does_not_parse",
     {"file": "c.toml"}),
    ({"filename": "c.json", "text": "[" * 5000}, "fist.custom.does_not_parse", {}),
    ({"filename": "c.json", "text": "{}"}, "fist.custom.no_characters", {}),
    ({"filename": "c.json", "text": json.dumps([{**BANKER, "power": []}])},
     "fist.custom.no_power", {"id": "banker"}),
    ({"filename": "c.json", "text": json.dumps([BANKER, BANKER])},
     "fist.option.custom_duplicate_id", {"id": "banker"}),
    ({"filename": "c.json", "text": json.dumps(
        [{**BANKER, "id": f"b{i}"} for i in range(21)])}, "server.characters.too_many",
     {"max": 20}),
])
def test_import_refuses_bad_files(web: TestClient, body: JSON, code: str,
                                  params: JSON) -> None:
    out = refused(web.post(f"{BASE}/import", json=body), code)
    assert params.items() <= out["params"].items()


def test_import_refuses_wrong_types_and_huge_texts(web: TestClient) -> None:
    for body in ({"filename": 3, "text": "x"}, {"filename": "a.toml"},
                 {"filename": "a.toml", "text": "x" * 70_000}, {"filename": "", "text": ""}):
        r = web.post(f"{BASE}/import", json=body)
        assert r.status_code in (413, 422), r.text  # pydantic's bounds, or the body's size


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_export_round_trips_through_the_terminals_loader(web: TestClient, tmp_path: Path,
                                                         fmt: str) -> None:
    """What the editor exports, ``dragonlair play fist --custom FILE`` loads back equal:
    the new character alone (named after it) and all shipped examples together."""
    shipped = [c for n in example_names() for c in load_file(n)]
    for chars in ([BANKER], shipped):
        out = ok(web.post(f"{BASE}/export", json={"characters": chars, "format": fmt}))
        assert out["filename"] == ("banker" if chars == [BANKER] else "characters") + "." + fmt
        if fmt == "toml":
            assert out["text"].startswith("# ")
            assert "dragonlair play fist --custom FILE" in out["text"]
        path = tmp_path / out["filename"]
        path.write_text(out["text"], encoding="utf-8")
        assert load_file(str(path)) == [normalize(c) for c in chars]


@pytest.mark.parametrize(("body", "code"), [
    ({"characters": []}, "server.request.invalid"),
    ({"characters": [BANKER], "format": "yaml"}, "server.request.invalid"),
    ({"characters": [BANKER] * 21}, "server.request.invalid"),
    ({"characters": [{**BANKER, "power": [{"fly": 1}]}]}, "fist.custom.unknown_primitive"),
    ({"characters": [BANKER, BANKER]}, "fist.option.custom_duplicate_id"),
])
def test_export_refuses_bad_bodies(web: TestClient, body: JSON, code: str) -> None:
    r = web.post(f"{BASE}/export", json=body)
    if code == "server.request.invalid":
        assert r.status_code == 422
    else:
        refused(r, code)


# ---------------------------------------------------------------------------- balance
@pytest.mark.slow
def test_balance_ranks_the_custom_character_among_all_cards(web: TestClient) -> None:
    out = ok(web.post(f"{BASE}/balance", json={"characters": [BANKER], "games": 10,
                                                "players": 3, "seed": 7}))
    assert (out["games"], out["players"], out["seed"]) == (10, 3, 7)
    assert out["bots"] == ["greedy"] * 3
    cards = {c["id"]: c for c in out["cards"]}
    assert cards["banker"]["custom"] is True and cards["banker"]["auctioned"] > 0
    assert not any(c["custom"] for i, c in cards.items() if i != "banker")
    assert {"thief", "troll", "doppelganger@end"} <= set(cards)
    again = ok(web.post(f"{BASE}/balance", json={"characters": [BANKER], "games": 10,
                                                  "players": 3, "seed": 7}))
    assert [c | {"seconds": 0} for c in again["cards"]] == [c | {"seconds": 0}
                                                             for c in out["cards"]]
    assert not characters.BALANCE_LOCK.locked()


def test_balance_runs_one_at_a_time(web: TestClient) -> None:
    """A second balance run while one is under way is refused (429), and nothing is left
    held afterwards."""
    assert characters.BALANCE_LOCK.acquire(blocking=False)  # a run under way
    try:
        refused(web.post(f"{BASE}/balance", json={"characters": [BANKER], "games": 10}),
                "server.characters.busy", 429)
    finally:
        characters.BALANCE_LOCK.release()
    ok(web.post(f"{BASE}/balance", json={"characters": [BANKER], "games": 10, "players": 3}))


@pytest.mark.parametrize(("body", "code"), [
    ({"characters": [BANKER], "games": 5}, "server.request.invalid"),
    ({"characters": [BANKER], "games": 401}, "server.request.invalid"),
    ({"characters": [BANKER], "players": 7}, "server.request.invalid"),
    ({"characters": [BANKER], "seed": -1}, "server.request.invalid"),
    ({"characters": [BANKER], "games": "many"}, "server.request.invalid"),
    ({"characters": [{**BANKER, "id": 5}]}, "fist.custom.bad_id"),
    ({"characters": [BANKER, BANKER]}, "fist.option.custom_duplicate_id"),
])
def test_balance_refuses_bad_bodies_before_running(web: TestClient, body: JSON,
                                                   code: str) -> None:
    r = web.post(f"{BASE}/balance", json=body)
    if code == "server.request.invalid":
        assert r.status_code == 422
    else:
        refused(r, code)
    assert not characters.BALANCE_LOCK.locked()


# ---------------------------------------------------------------------------- over the server
def test_the_whole_server_bounds_the_bodies(server: ServerThread) -> None:
    """Over the real app: a body over 64 KiB is refused before it is read (413), one
    nested too deep for the JSON parser as a body it cannot read (400), and an invalid
    character keeps the engine's code, all in the standard refusal shape."""
    http = httpx.Client(base_url=server.base, timeout=20)
    big = {"character": {**BANKER, "text": {"en": "x" * 70_000}}}
    refused(http.post(f"{BASE}/check", json=big), "server.request.too_large", 413)
    deep = '{"character": ' + "[" * 10_000 + "]" * 10_000 + "}"
    r = http.post(f"{BASE}/check", content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "server.request.bad_body"
    refused(http.post(f"{BASE}/check", json={"character": {**BANKER, "id": "X"}}),
            "fist.custom.bad_id")
    assert ok(http.get(f"{BASE}/examples"))["characters"]


def _play_human(server: ServerThread, tid: str, ann: Client, custom_index: int,
                rng: random.Random) -> None:
    """Seat 0 plays to the end: the highest bid without the Black Magic coin on the custom
    character, a random legal move otherwise (the server's state is the test's oracle)."""
    runtime = server.runtime(tid)
    for _ in range(5000):
        state = runtime.state
        n = len(state.history)
        if state.is_terminal():
            ann.catch_up(n)
            return
        if 0 not in state.current_seats():
            time.sleep(0.002)
            continue
        ann.catch_up(n)
        legal = list(state.legal_actions(0))
        bids = [a for a in legal if a.kind in (Kind.BID, Kind.SILVER) and not a.black]
        if bids and state.current == custom_index:  # the sealed bid, or Silver at a tie
            action = max(bids, key=lambda a: a.value)
        else:
            action = rng.choice(legal)
        answer = ann.act(str(action), seq=n)
        assert answer["type"] == "ack", (answer, str(action))
    raise AssertionError("the game did not end")


def test_f9_a_character_made_through_the_api_plays_a_whole_game(server: ServerThread) -> None:
    """Issue 16: a character made in the editor (checked through the API) plays a whole
    game at a table with ``specials: custom``: the turn's special is the custom card every
    turn (F4.1, F9), its power is used, the table lists it, and no message to a seat or a
    spectator holds another seat's secrets. Chance is the server's, so a game may end with
    nobody having won the card (every auction of it cursed or tied: F5.4, F5.7); then another
    game is played, up to five."""
    made = ok(httpx.post(f"{server.base}{BASE}/check", json={"character": BANKER}))
    character = made["character"]
    for attempt in range(5):
        if _f9_game(server, character, random.Random(16 + attempt)):
            return
    raise AssertionError("nobody won the custom character in five games")


def _f9_game(server: ServerThread, character: JSON, rng: random.Random) -> bool:
    """One game of the F9 test; whether somebody won the custom character (and used it)."""
    ann = Client(server, "Ann")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    table = new_table(ann, "fist", seats, custom=[character], specials="custom", max_turns=4)
    tid = table["id"]
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    shown = ann.http.get(f"/api/tables/{tid}").json()
    assert shown["options"]["custom"] == [character]
    assert shown["options"]["specials"] == "custom"
    welcome = ann.connect(tid)
    assert welcome is not None
    assert welcome["view"]["public"]["options"]["custom"][0]["id"] == "banker"
    spectator = Client(server, "Eve")
    spectator.connect(tid)
    game = server.runtime(tid).game
    _play_human(server, tid, ann, game.card_ids.index("banker"), rng)
    spectator.catch_up(len(server.runtime(tid).state.history))
    r = ann.http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200, r.text
    record = Record.from_json(r.json())
    assert record.options["specials"] == "custom"
    _, state = replay(record)
    assert state.is_terminal()
    events = [(e.code, e.params) for e in state.all_events() if e.to is None]
    turns = sum(code == "fist.turn.start" for code, _ in events)
    # four turns (F5.10), unless a player reached 3 points first (F5.9)
    ended = [code for code, _ in events if code.startswith("fist.end.")]
    assert (turns, ended) == (4, ["fist.end.turn_limit"]) or \
        (1 <= turns <= 4 and ended == ["fist.end.points_reached"]), (turns, ended)
    assert [p["card"] for c, p in events if c == "fist.turn.special"] == ["banker"] * turns
    # the custom card comes up once a turn, except in a last turn that a player's third
    # point ended before its reveal (F4.2: the pile's order is random; F5.9)
    auctioned = [p["card"] for c, p in events if c == "fist.auction.card"
                 if p["card"] == "banker"]
    allowed = {turns, turns - 1} if ended == ["fist.end.points_reached"] else {turns}
    assert len(auctioned) in allowed, (auctioned, turns, ended)
    assert check_no_leaks(record, [(0, ann.received), (None, spectator.received)]) > 5
    ann.close()
    spectator.close()
    won = [i for i, (c, p) in enumerate(events)
           if c == "fist.auction.won" and p["card"] == "banker"]
    used = [events[i + 1] for i in won]  # its first step: the winner takes 2 Common Gold
    assert not won or any(c == "fist.gain.common" and p["n"] == 2 for c, p in used), used
    return bool(won)
