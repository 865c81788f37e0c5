"""Finished games over a real server: the finished list in bounded pages, and the replay of
a finished Fist game: its record replays, and its steps and view are exactly what the
caller may see (a spectator: public events only; a player: their own secrets too, never
another seat's)."""

from __future__ import annotations

import json
import random
import time

from dragonlair.core.records import Record, replay
from dragonlair.games import make_game
from tests.server.helpers import JSON, Client, ServerThread, new_table, play_to_end


def finished(client: Client, tid: str, timeout: float = 60) -> JSON:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table: JSON = client.http.get(f"/api/tables/{tid}").json()
        if table["status"] == "finished":
            return table
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not finish")


def bots_only(client: Client, game: str) -> str:
    tid: str = new_table(client, game, [{"kind": "bot", "bot": "random"}] * 2)["id"]
    r = client.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 200, r.text
    return tid


def test_finished_tables_come_in_bounded_pages(server: ServerThread) -> None:
    ann = Client(server, "Ann")
    tids = [bots_only(ann, "master") for _ in range(5)]
    for tid in tids:
        finished(ann, tid)
    unfinished = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    pages: list[list[JSON]] = []
    # pages of two until an empty one (the server is shared: other modules finish tables too)
    while not pages or pages[-1]:
        assert len(pages) < 500, "the finished list never ends"
        r = ann.http.get("/api/tables", params={"status": "finished", "game": "master",
                                                "limit": 2, "offset": 2 * len(pages)})
        assert r.status_code == 200, r.text
        pages.append(r.json())
    listed = [t for page in pages for t in page]
    assert all(len(page) <= 2 for page in pages) and pages[-1] == []
    ids = [t["id"] for t in listed]
    assert len(ids) == len(set(ids)) and set(tids) <= set(ids) and unfinished not in ids
    assert all(t["status"] == "finished" and t["result"] is not None for t in listed)
    stamps = [t["created_at"] for t in listed]
    assert stamps == sorted(stamps, reverse=True)  # newest first, pages in order
    r = ann.http.get("/api/tables", params={"status": "finished", "game": "farkle"})
    assert r.status_code == 200 and not set(tids) & {t["id"] for t in r.json()}
    for params in ({"limit": 0}, {"limit": 201}, {"offset": -1}, {"offset": 10**6},
                   {"status": "lost"}, {"game": "x" * 65}):
        r = ann.http.get("/api/tables", params={"status": "finished", **params})
        assert r.status_code == 422 and r.json()["code"] == "server.request.invalid", params


def replay_of(client: Client, tid: str, **params: int | str) -> JSON:
    r = client.http.get(f"/api/tables/{tid}/replay", params=params)
    assert r.status_code == 200, r.text
    out: JSON = r.json()
    return out


def test_the_replay_of_a_finished_fist_game_keeps_every_secret(server: ServerThread) -> None:
    ann, eve, anon = Client(server, "Ann"), Client(server, "Eve"), Client(server, guest=False)
    tid = new_table(ann, "fist", [{"kind": "me"}, {"kind": "bot", "bot": "random"},
                                  {"kind": "bot", "bot": "random"}], max_turns=2)["id"]
    r = ann.http.get(f"/api/tables/{tid}/replay")
    assert r.status_code == 409 and r.json()["code"] == "server.table.not_finished"
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    ann.connect(tid)
    play_to_end(server, tid, {0: ann}, random.Random(7))
    finished(ann, tid)

    # the record inside is the table's record, and it replays
    spectator = replay_of(eve, tid)
    assert spectator["record"] == ann.http.get(f"/api/tables/{tid}/record").json()
    record = Record.from_json(spectator["record"])
    game, end = replay(record)
    assert end.is_terminal()
    assert replay_of(anon, tid) == spectator  # signed in or not: a spectator's replay

    # the oracle: replay the record with the engine, event by event
    state = make_game(record.game, record.options).new_initial_state()
    for n, entry in enumerate(record.actions):
        seat_text = entry.split(": ", 1)
        seat = -1 if seat_text[0] == "chance" else int(seat_text[0][1:])
        state.apply(seat, game.parse_action(seat_text[1]))
        assert spectator["steps"][n]["seq"] == n and spectator["steps"][n]["seat"] == seat
    assert len(spectator["steps"]) == len(record.actions) == spectator["at"]
    everything = state.all_events()
    secret = [(i, e) for i, e in enumerate(everything) if e.to is not None]
    bobs = [(i, e) for i, e in secret if e.to == 1]
    assert bobs, "a Fist game has private events (a sealed bid told to its bidder)"

    def seen(replay_json: JSON) -> list[JSON]:
        return [e for step in replay_json["steps"] for e in step["events"]]

    # a spectator: every public event, nothing else; the view is the engine's spectator view
    assert spectator["perspective"] is None
    public = [e.to_json(i) for i, e in enumerate(everything) if e.to is None]
    assert seen(spectator) == json.loads(json.dumps(public))
    assert spectator["view"] == json.loads(json.dumps(state.view(None)))
    assert spectator["view"]["private"] is None and spectator["view"]["legal"] is None
    assert all("action" not in step for step in spectator["steps"])

    # Ann: her own secrets too, never seat 1's (the planted secret: p1's sealed bids, told to
    # p1 alone while sealed)
    mine = replay_of(ann, tid)
    assert mine["perspective"] == 0
    assert seen(mine) == json.loads(json.dumps(
        [e.to_json(i) for i, e in enumerate(everything) if e.to in (None, 0)]))
    assert any(e.get("to") == 0 for e in seen(mine))
    text = json.dumps({k: v for k, v in mine.items() if k != "record"})
    for i, event in bobs:
        assert json.dumps(event.to_json(i)) not in text
    assert all(e.get("to") in (None, 0) for e in seen(mine))
    assert any(e.code == "fist.bid.own" for _, e in bobs)
    assert mine["view"] == json.loads(json.dumps(state.view(0)))
    assert all(("action" in step) == (step["seat"] == 0) for step in mine["steps"])
    assert mine["seat"] == 0 and spectator["seat"] is None

    # Ann may watch her game as a spectator too: exactly the spectator's replay
    watched = replay_of(ann, tid, **{"as": "spectator"})
    assert watched["perspective"] is None and watched["seat"] == 0
    assert {k: v for k, v in watched.items() if k != "seat"} == \
        {k: v for k, v in spectator.items() if k != "seat"}
    lean = replay_of(ann, tid, record="false")  # what the browser asks for: no record
    assert "record" not in lean and lean["steps"] == mine["steps"]
    r = ann.http.get(f"/api/tables/{tid}/replay", params={"as": "p1"})
    assert r.status_code == 422  # another seat's perspective is no choice

    # a point in the game, and a point that is not there
    early = replay_of(eve, tid, at=10)
    start = make_game(record.game, record.options).new_initial_state()
    for entry in record.actions[:10]:
        who, text_ = entry.split(": ", 1)
        start.apply(-1 if who == "chance" else int(who[1:]), game.parse_action(text_))
    assert early["at"] == 10 and early["view"] == json.loads(json.dumps(start.view(None)))
    r = eve.http.get(f"/api/tables/{tid}/replay", params={"at": len(record.actions) + 1})
    assert r.status_code == 422 and r.json()["code"] == "server.replay.bad_point"
    r = eve.http.get("/api/tables/nosuchtable/replay")
    assert r.status_code == 404 and r.json()["code"] == "server.table.not_found"
