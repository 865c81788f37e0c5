"""Seats before the start, over a real server: invite links (work once, for that seat only,
revocable, re-issued), taking a chosen seat and giving it up, the creator setting seats to
bots or open, a start refused while seats are open or reserved, the spectator count. Every
refusal has its code and changes nothing."""

from __future__ import annotations

import sqlite3
from typing import Any

import httpx

from tests.server.helpers import JSON, Client, ServerThread, new_table


def seats(client: Client, tid: str) -> list[JSON]:
    r = client.http.get(f"/api/tables/{tid}")
    assert r.status_code == 200, r.text
    out: list[JSON] = r.json()["seats"]
    return out


def refused(r: httpx.Response, http_status: int, code: str, **params: Any) -> JSON:
    assert r.status_code == http_status, r.text
    body: JSON = r.json()
    assert body["code"] == code, body
    for k, v in params.items():
        assert body["params"][k] == v, body
    return body


def invite_hashes(server: ServerThread, tid: str) -> list[str]:
    with sqlite3.connect(server.settings.data_dir / "dragonlair.db") as conn:
        return [str(r[0]) for r in conn.execute(
            "SELECT token_hash FROM invites WHERE table_id=?", (tid,))]


def test_an_invite_link_seats_its_holder_once(server: ServerThread) -> None:
    ann, bob, carl = Client(server, "Ann"), Client(server, "Bob"), Client(server, "Carl")
    table = new_table(ann, "master", [{"kind": "me"}, {"kind": "invite"}])
    tid = table["id"]
    assert table["seats"][1]["kind"] == "invite" and table["seats"][1]["user_id"] is None
    [invite] = table["invites"]
    token = invite["token"]
    assert invite["seat"] == 1 and len(token) >= 32
    assert invite["url"].endswith(f"/tables/{tid}#invite={token}")
    # stored hashed, never listed
    assert token not in invite_hashes(server, tid) and len(invite_hashes(server, tid)) == 1
    assert token not in ann.http.get(f"/api/tables/{tid}").text
    assert token not in ann.http.get("/api/tables").text
    # a reserved seat is not open: no start, no joining it without the token
    refused(ann.http.post(f"/api/tables/{tid}/start"), 409, "server.table.seats_open",
            seats=[1])
    refused(carl.http.post(f"/api/tables/{tid}/join", json={}), 409,
            "server.table.no_open_seat")
    refused(carl.http.post(f"/api/tables/{tid}/join", json={"seat": 1}), 409,
            "server.table.no_open_seat")
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    refused(carl.http.post(f"/api/tables/{tid}/join", json={"invite": wrong}), 403,
            "server.invite.invalid")
    refused(carl.http.post(f"/api/tables/{tid}/join", json={"invite": "short"}), 422,
            "server.request.invalid")
    refused(carl.http.post(f"/api/tables/{tid}/join", json={"invite": token, "seat": 0}),
            403, "server.invite.invalid")
    assert seats(ann, tid)[1]["kind"] == "invite"
    # the holder takes the seat; the token is spent
    r = bob.http.post(f"/api/tables/{tid}/join", json={"invite": token})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1] == {**r.json()["seats"][1], "kind": "human",
                                    "user_id": bob.user["id"]}
    assert invite_hashes(server, tid) == []
    refused(carl.http.post(f"/api/tables/{tid}/join", json={"invite": token}), 403,
            "server.invite.invalid")
    # a token is good at its own table only
    other = new_table(ann, "master", [{"kind": "me"}, {"kind": "invite"}])
    refused(carl.http.post(f"/api/tables/{tid}/join",
                           json={"invite": other["invites"][0]["token"]}),
            403, "server.invite.invalid")
    r = ann.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 200 and r.json()["status"] == "running"


def test_the_creator_reissues_and_revokes_invites(server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = new_table(ann, "fist", [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])["id"]
    r = ann.http.put(f"/api/tables/{tid}/seats/2", json={"kind": "invite"})
    assert r.status_code == 200, r.text
    first = r.json()["invite"]["token"]
    assert r.json()["seats"][2]["kind"] == "invite"
    r = ann.http.put(f"/api/tables/{tid}/seats/2", json={"kind": "invite"})
    second = r.json()["invite"]["token"]
    assert second != first and len(invite_hashes(server, tid)) == 1
    refused(bob.http.post(f"/api/tables/{tid}/join", json={"invite": first}), 403,
            "server.invite.invalid")
    # only the creator
    refused(bob.http.put(f"/api/tables/{tid}/seats/2", json={"kind": "open"}), 403,
            "server.seat.creator_only")
    refused(bob.http.delete(f"/api/tables/{tid}/invites/2"), 403, "server.seat.creator_only")
    assert seats(ann, tid)[2]["kind"] == "invite"
    # revoke: the seat opens and the token is dead
    refused(ann.http.delete(f"/api/tables/{tid}/invites/1"), 409, "server.invite.none",
            seat=1)
    r = ann.http.delete(f"/api/tables/{tid}/invites/2")
    assert r.status_code == 200 and r.json()["seats"][2]["kind"] == "open"
    assert invite_hashes(server, tid) == []
    refused(bob.http.post(f"/api/tables/{tid}/join", json={"invite": second}), 403,
            "server.invite.invalid")
    # setting an invite seat to a bot also kills its token
    third = ann.http.put(f"/api/tables/{tid}/seats/1",
                         json={"kind": "invite"}).json()["invite"]["token"]
    assert ann.http.put(f"/api/tables/{tid}/seats/1",
                        json={"kind": "bot", "bot": "greedy"}).status_code == 200
    refused(bob.http.post(f"/api/tables/{tid}/join", json={"invite": third}), 403,
            "server.invite.invalid")
    assert invite_hashes(server, tid) == []


def test_take_a_chosen_seat_give_it_up_bots_and_open_seats(server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = new_table(ann, "fist", [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])["id"]
    r = bob.http.post(f"/api/tables/{tid}/join", json={"seat": 2})
    assert r.status_code == 200 and r.json()["seats"][2]["user_id"] == bob.user["id"]
    assert r.json()["seats"][1]["kind"] == "open"
    # the creator cannot take a seat from a player, nor change a seat that is not there
    refused(ann.http.put(f"/api/tables/{tid}/seats/2", json={"kind": "bot"}), 409,
            "server.seat.taken", seat=2)
    refused(ann.http.put(f"/api/tables/{tid}/seats/0", json={"kind": "open"}), 409,
            "server.seat.taken", seat=0)
    refused(ann.http.put(f"/api/tables/{tid}/seats/5", json={"kind": "open"}), 404,
            "server.seat.not_found", seat=5)
    refused(ann.http.put(f"/api/tables/{tid}/seats/99", json={"kind": "open"}), 422,
            "server.request.invalid")
    refused(ann.http.put(f"/api/tables/{tid}/seats/1", json={"kind": "bot", "bot": "nobody"}),
            422, "server.table.unknown_bot", bot="nobody")
    refused(ann.http.put(f"/api/tables/{tid}/seats/1", json={"kind": "human"}), 422,
            "server.request.invalid")
    refused(ann.http.put(f"/api/tables/{tid}/seats/1", json={"kind": "bot", "bot": "x" * 65}),
            422, "server.request.invalid")
    assert [s["kind"] for s in seats(ann, tid)] == ["human", "open", "human"]
    # give up a seat: it opens
    assert bob.http.post(f"/api/tables/{tid}/leave").status_code == 200
    assert seats(ann, tid)[2]["kind"] == "open"
    refused(ann.http.post(f"/api/tables/{tid}/start"), 409, "server.table.seats_open",
            seats=[1, 2])
    # a bot of a chosen strength, the default bot, and back to open
    r = ann.http.put(f"/api/tables/{tid}/seats/1", json={"kind": "bot", "bot": "heuristic"})
    assert r.status_code == 200 and r.json()["seats"][1]["bot"] == "heuristic"
    r = ann.http.put(f"/api/tables/{tid}/seats/2", json={"kind": "bot"})
    default = next(g for g in ann.http.get("/api/games").json() if g["id"] == "fist")
    assert r.json()["seats"][2] == {**r.json()["seats"][2], "kind": "bot",
                                    "bot": default["default_bot"]}
    r = ann.http.put(f"/api/tables/{tid}/seats/2", json={"kind": "open"})
    assert r.json()["seats"][2]["kind"] == "open" and r.json()["seats"][2]["bot"] is None
    refused(ann.http.post(f"/api/tables/{tid}/start"), 409, "server.table.seats_open",
            seats=[2])
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    r = ann.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 200 and r.json()["status"] == "running"
    # once running, seats are the game's
    refused(ann.http.put(f"/api/tables/{tid}/seats/1", json={"kind": "open"}), 409,
            "server.table.not_open", status="running")
    refused(ann.http.delete(f"/api/tables/{tid}/invites/1"), 409, "server.table.not_open")


def test_seat_changes_need_a_session_and_a_table(server: ServerThread) -> None:
    anon = Client(server, guest=False)
    ann = Client(server, "Ann")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    refused(anon.http.put(f"/api/tables/{tid}/seats/1", json={"kind": "bot"}), 401,
            "server.auth.required")
    refused(ann.http.put("/api/tables/nosuchtable/seats/1", json={"kind": "bot"}), 404,
            "server.table.not_found")
    assert seats(ann, tid)[1]["kind"] == "open"


def test_the_table_counts_its_spectators(server: ServerThread) -> None:
    ann = Client(server, "Ann")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    assert ann.http.get(f"/api/tables/{tid}").json()["spectators"] == 0
    ann.connect(tid)
    eve, anon = Client(server, "Eve"), Client(server, guest=False)
    eve.connect(tid)
    anon.connect(tid)
    assert ann.http.get(f"/api/tables/{tid}").json()["spectators"] == 2
    eve.close()
    for _ in range(200):
        if ann.http.get(f"/api/tables/{tid}").json()["spectators"] == 1:
            break
        ann.recv(0.02)
    assert ann.http.get(f"/api/tables/{tid}").json()["spectators"] == 1
