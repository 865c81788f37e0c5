"""A table's rating changes (GET /api/tables/{id}/ratings): what the end of game screen shows
as each seat's "before -> after". Before is the player's previous point (a fresh openskill
rating for a first game), after is the point the table wrote; a friendly table lists none."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from tests.server.clock_helpers import finished_record, table_with
from tests.server.helpers import Client, ServerThread, play_to_end

JSON = dict[str, object]


def changes_of(client: Client, tid: str) -> JSON:
    r = client.http.get(f"/api/tables/{tid}/ratings")
    assert r.status_code == 200, r.text
    out: JSON = r.json()
    return out


def test_each_seat_shows_its_rating_before_and_after_a_rated_table(
        server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    model = PlackettLuce()
    fresh = model.rating()
    start = fresh.mu - 3 * fresh.sigma
    afters: dict[str, float] = {}
    for n, seed in enumerate((21, 22)):
        tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}], rated=True)
        play_to_end(server, tid, {0: ann, 1: bob}, random.Random(seed))
        record = finished_record(ann, tid)
        assert record.result is not None
        got = changes_of(bob, tid)
        assert got["table_id"] == tid and got["rated"] is True
        assert got["players"] == [{"kind": "user", "name": c.user["username"],
                                   "display_name": c.user["display_name"],
                                   "profile": c.user["profile"]} for c in (ann, bob)]
        changes = got["changes"]
        assert isinstance(changes, list)
        assert [c["seat"] for c in changes] == [0, 1]
        for c, client in zip(changes, (ann, bob), strict=True):
            name = client.user["username"]
            assert c["player"] == {"kind": "user", "name": name,
                                   "display_name": client.user["display_name"],
                                   "profile": client.user["profile"]}
            assert c["placing"] == record.result["placings"][c["seat"]]
            # the first game starts from a fresh rating; the second from the first's after
            assert c["before"] == pytest.approx(start if n == 0 else afters[name], abs=1e-9)
            rating = ann.http.get(f"/api/users/{name}").json()["ratings"][0]
            assert rating["history"][-1]["table_id"] == tid
            assert c["after"] == pytest.approx(rating["history"][-1]["ordinal"], abs=1e-9)
            assert c["after"] != pytest.approx(c["before"])
            afters[name] = c["after"]


def test_a_friendly_table_lists_no_change_and_an_unknown_one_is_refused(
        server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}], rated=False)
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(23))
    finished_record(ann, tid)
    got = changes_of(ann, tid)
    assert got["rated"] is False and got["changes"] == []
    players = got["players"]
    assert isinstance(players, list)
    assert [p["name"] for p in players] == [ann.user["username"], bob.user["username"]]
    r = ann.http.get("/api/tables/no-such-table/ratings")
    assert r.status_code == 404 and r.json()["code"] == "server.table.not_found"
