"""Ratings: openskill Plackett-Luce per game, updated with a rated game's final action
(exactly as calling openskill directly), friendly games change nothing, server bots are
rated on the same scale; leaderboards and profiles over REST."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from dragonlair.server.ratings import rating_placings
from tests.server.clock_helpers import finished_record, rating_points, table_with
from tests.server.helpers import Client, ServerThread, play_to_end


def test_leavers_are_placed_below_everyone_who_stayed_and_ties_stay_ties() -> None:
    assert rating_placings([1, 2, 3], [False, False, False]) == [1, 2, 3]
    assert rating_placings([1, 2, 2, 4], [False, False, False, False]) == [1, 2, 2, 3]
    assert rating_placings([1, 2, 3], [True, False, False]) == [3, 1, 2]
    assert rating_placings([2, 1, 1, 4], [False, True, False, True]) == [2, 3, 1, 3]


def profile(client: Client, username: str) -> dict[str, object]:
    r = client.http.get(f"/api/users/{username}")
    assert r.status_code == 200, r.text
    out: dict[str, object] = r.json()
    return out


def test_a_rated_game_moves_ratings_as_openskill_says(server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}], rated=True)
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(11))
    record = finished_record(ann, tid)
    assert record.result is not None
    placings = record.result["placings"]
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]],
                          ranks=[float(p) for p in placings])
    for seat, client in ((0, ann), (1, bob)):
        got = profile(ann, client.user["username"])
        ratings = got["ratings"]
        assert isinstance(ratings, list) and len(ratings) == 1
        rating = ratings[0]
        assert rating["game"] == "master" and rating["games"] == 1
        assert rating["mu"] == pytest.approx(expected[seat][0].mu, abs=1e-9)
        assert rating["sigma"] == pytest.approx(expected[seat][0].sigma, abs=1e-9)
        assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
        assert rating["history"] == [{
            "table_id": tid, "at": rating["history"][0]["at"], "placing": placings[seat],
            "mu": rating["mu"], "sigma": rating["sigma"], "ordinal": rating["ordinal"]}]
        recent = got["recent"]
        assert isinstance(recent, list)
        assert recent[0]["table_id"] == tid and recent[0]["rated"] is True
        assert recent[0]["placing"] == placings[seat]
    board = ann.http.get("/api/leaderboard/master", params={"limit": 200}).json()
    names = [p["player"]["name"] for p in board["players"]]
    assert ann.user["username"] in names and bob.user["username"] in names
    ordinals = [p["ordinal"] for p in board["players"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [p["rank"] for p in board["players"]] == list(range(1, len(names) + 1))


def test_a_friendly_game_changes_no_rating(server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}], rated=False)
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(12))
    finished_record(ann, tid)
    assert rating_points(server, tid) == []
    for c in (ann, bob):
        got = profile(ann, c.user["username"])
        assert got["ratings"] == []
        recent = got["recent"]
        assert isinstance(recent, list) and recent[0]["rated"] is False


def test_server_bots_are_rated_on_the_same_scale(server: ServerThread) -> None:
    ann = Client(server, "Ann")
    tid = table_with(ann, [], "master", [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}],
                     rated=True)
    before = {p["player"]["name"]: p for p in ann.http.get(
        "/api/leaderboard/master", params={"limit": 200}).json()["players"]}
    play_to_end(server, tid, {0: ann}, random.Random(13))
    record = finished_record(ann, tid)
    assert record.result is not None
    board = ann.http.get("/api/leaderboard/master", params={"limit": 200}).json()["players"]
    bots = [p for p in board if p["player"]["kind"] == "bot"]
    assert [b["player"]["name"] for b in bots] == ["greedy"]
    bot = bots[0]
    assert bot["games"] == before.get("greedy", {"games": 0})["games"] + 1
    model = PlackettLuce()
    prior = before.get("greedy")
    bot_prior = (model.rating(mu=prior["mu"], sigma=prior["sigma"]) if prior
                 else model.rating())
    expected = model.rate([[model.rating()], [bot_prior]],
                          ranks=[float(p) for p in record.result["placings"]])
    assert bot["mu"] == pytest.approx(expected[1][0].mu, abs=1e-9)
    me = profile(ann, ann.user["username"])["ratings"]
    assert isinstance(me, list) and me[0]["mu"] == pytest.approx(expected[0][0].mu, abs=1e-9)


def test_leaderboards_and_profiles_refuse_what_does_not_exist(server: ServerThread) -> None:
    ann = Client(server, "Ann")
    r = ann.http.get("/api/leaderboard/chess")
    assert r.status_code == 404 and r.json()["code"] == "server.game.not_found"
    r = ann.http.get("/api/users/nobody-at-all")
    assert r.status_code == 404 and r.json()["code"] == "server.user.not_found"
    assert ann.http.get("/api/leaderboard/master", params={"limit": 0}).status_code == 422
    spec = ann.http.get("/openapi.json").json()
    for path in ("/api/leaderboard/{game}", "/api/users/{name}"):
        ok = spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
        assert "$ref" in ok["schema"]
