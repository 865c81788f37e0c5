"""Accounts in the browser and names everywhere (issue 22): a guest gets a friendly generated
name in the reader's language, unique among the accounts; anyone renames; a registered
account changes its password; a guest who signs up keeps their games and ratings (the same
account becomes the registered one); seats, chat, ratings and profiles carry display names,
never the internal ``guest-<hex>`` handle."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
import pytest

from dragonlair.server import names
from dragonlair.server.db import User
from tests.server.clock_helpers import finished_record, table_with
from tests.server.helpers import Client, ServerThread, play_to_end

JSON = dict[str, object]


def guest(server: ServerThread, headers: dict[str, str] | None = None,
          **body: object) -> tuple[httpx.Client, JSON]:
    http = httpx.Client(base_url=server.base, timeout=20, headers=headers or {})
    r = http.post("/api/auth/guest", json=body)
    assert r.status_code == 200, r.text
    out: JSON = r.json()
    return http, out


def register(http: httpx.Client, username: str, password: str = "s3cret-pass",
             **extra: object) -> httpx.Response:
    return http.post("/api/auth/register",
                     json={"username": username, "password": password, **extra})


# ---------------------------------------------------------------- friendly guest names
def test_a_guest_gets_a_friendly_name_in_the_readers_language(server: ServerThread) -> None:
    _, en = guest(server)
    assert en["display_name"] in names.all_pairs("en")
    assert not str(en["display_name"]).startswith("guest")
    _, de = guest(server, {"Accept-Language": "fr-FR, de-DE;q=0.9, en;q=0.5"})
    assert de["display_name"] in names.all_pairs("de")
    _, asked = guest(server, {"Accept-Language": "de"}, lang="en")
    assert asked["display_name"] in names.all_pairs("en")
    _, chosen = guest(server, display_name="  Ann\u200b ")
    assert chosen["display_name"] == "Ann"


def test_accept_language_is_read_by_its_weights() -> None:
    assert names.language(None, "de;q=0.2, en;q=0.8") == "en"
    assert names.language(None, "fr, de-AT") == "de"
    assert names.language(None, "fr, es") == "en"
    assert names.language(None, None) == "en"
    assert names.language("de-CH", "en") == "de"
    assert names.language(None, "de;q=0, en;q=bad") == "en"


def test_german_adjectives_agree_with_the_creature() -> None:
    pairs = set(names.all_pairs("de"))
    assert {"Kühner Drache", "Kühne Eule", "Kühnes Einhorn"} <= pairs
    assert "Kühner Eule" not in pairs


def test_generated_names_are_unique_a_number_is_added_when_pairs_run_out() -> None:
    everyone = set(names.all_pairs("en"))
    name = names.unique_name("en", lambda n: n in everyone, random.Random(3))
    stem, _, number = name.rpartition(" ")
    assert stem in everyone and number.isdigit() and int(number) >= 2
    free = names.unique_name("en", lambda n: n != "Brave Griffin" and n in everyone,
                             random.Random(1))
    assert free == "Brave Griffin" or free not in everyone


def test_guests_never_share_a_name(server: ServerThread) -> None:
    got = [guest(server, lang="de")[1]["display_name"] for _ in range(25)]
    assert len(set(got)) == len(got)


# ---------------------------------------------------------------- rename
def test_rename_shows_on_the_seat_and_bad_names_change_nothing(server: ServerThread) -> None:
    ann, bob = Client(server), Client(server)
    r = ann.http.patch("/api/me", json={"display_name": " Annika\u202e "})
    assert r.status_code == 200, r.text
    assert r.json()["display_name"] == "Annika"
    assert ann.http.get("/api/me").json()["display_name"] == "Annika"
    tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}])
    seats = ann.http.get(f"/api/tables/{tid}").json()["seats"]
    assert seats[0]["name"] == "Annika"
    # during play: the seat's name follows at the table's next message
    assert bob.http.patch("/api/me", json={"display_name": "Bobby"}).status_code == 200
    assert ann.http.get(f"/api/tables/{tid}").json()["seats"][1]["name"] == "Bobby"
    for bad in ("\u200b\u200b", "   "):
        r = ann.http.patch("/api/me", json={"display_name": bad})
        assert r.status_code == 422 and r.json()["code"] == "server.auth.bad_display_name"
    r = ann.http.patch("/api/me", json={"display_name": "x" * 41})
    assert r.status_code == 422 and r.json()["code"] == "server.request.invalid"
    assert ann.http.get("/api/me").json()["display_name"] == "Annika"
    r = httpx.Client(base_url=server.base).patch("/api/me", json={"display_name": "Eve"})
    assert r.status_code == 401 and r.json()["code"] == "server.auth.required"


# ---------------------------------------------------------------- password
def test_password_change_needs_the_current_one_and_ends_other_sessions(
        server: ServerThread) -> None:
    http = httpx.Client(base_url=server.base, timeout=20)
    assert register(http, "carol", "first-pass").status_code == 200
    other = httpx.Client(base_url=server.base, timeout=20)
    assert other.post("/api/auth/login", json={"username": "carol",
                                               "password": "first-pass"}).status_code == 200
    r = http.post("/api/me/password", json={"current": "wrong-pass", "new": "second-pass"})
    assert r.status_code == 403 and r.json()["code"] == "server.auth.wrong_password"
    r = http.post("/api/me/password", json={"current": "first-pass", "new": "short"})
    assert r.status_code == 422 and r.json()["code"] == "server.auth.weak_password"
    assert r.json()["params"] == {"min": 8}
    assert other.get("/api/me").status_code == 200  # nothing changed so far
    r = http.post("/api/me/password", json={"current": "first-pass", "new": "second-pass"})
    assert r.status_code == 200, r.text
    assert http.get("/api/me").json()["username"] == "carol"  # this session stays
    assert other.get("/api/me").status_code == 401  # the other one ended
    fresh = httpx.Client(base_url=server.base, timeout=20)
    r = fresh.post("/api/auth/login", json={"username": "carol", "password": "first-pass"})
    assert r.status_code == 401
    r = fresh.post("/api/auth/login", json={"username": "carol", "password": "second-pass"})
    assert r.status_code == 200


def test_a_guest_has_no_password_to_change(server: ServerThread) -> None:
    http, _ = guest(server)
    r = http.post("/api/me/password", json={"current": "x", "new": "long-enough"})
    assert r.status_code == 403 and r.json()["code"] == "server.auth.guest_no_password"
    r = register(httpx.Client(base_url=server.base), "dave", "short")
    assert r.status_code == 422 and r.json()["code"] == "server.auth.weak_password"


# ---------------------------------------------------------------- a guest signs up
def test_a_guest_who_signs_up_keeps_games_ratings_and_name(server: ServerThread) -> None:
    ann, bob = Client(server), Client(server)
    guest_id, guest_name = ann.user["id"], ann.user["display_name"]
    old_token = ann.token
    tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}], rated=True)
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(5))
    finished_record(ann, tid)
    # a taken username: refused, the guest stays a guest with the same session
    assert register(httpx.Client(base_url=server.base), "erin").status_code == 200
    r = register(ann.http, "erin")
    assert r.status_code == 409 and r.json()["code"] == "server.auth.username_taken"
    assert ann.http.get("/api/me").json()["guest"] is True
    r = register(ann.http, "annie")
    assert r.status_code == 200, r.text
    me = r.json()
    assert me == {"id": guest_id, "username": "annie", "display_name": guest_name,
                  "guest": False, "bot": False, "moderator": False, "profile": "annie"}
    assert ann.token != old_token  # a new session token ...
    stale = httpx.Client(base_url=server.base, cookies={"dragonlair_session": old_token or ""})
    assert stale.get("/api/me").status_code == 401  # ... and the guest's one is gone
    profile = ann.http.get("/api/users/annie").json()
    assert profile["guest"] is False and profile["display_name"] == guest_name
    assert [g["table_id"] for g in profile["recent"]] == [tid]
    assert [r["game"] for r in profile["ratings"]] == ["master"]
    assert profile["ratings"][0]["history"][0]["table_id"] == tid
    seat = ann.http.get(f"/api/tables/{tid}").json()["seats"][0]
    assert seat["user_id"] == guest_id and seat["name"] == guest_name
    r = ann.http.post("/api/auth/login", json={"username": "annie", "password": "s3cret-pass"})
    assert r.status_code == 200 and r.json()["id"] == guest_id


def test_a_guest_with_games_cannot_sign_up_as_a_bot(server: ServerThread) -> None:
    ann, bob = Client(server), Client(server)
    table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}])
    r = register(ann.http, "annbot", bot=True)
    assert r.status_code == 409 and r.json()["code"] == "server.auth.bot_has_games"
    assert ann.http.get("/api/me").json()["guest"] is True


def test_signing_up_signed_in_as_a_registered_account_makes_a_new_one(
        server: ServerThread) -> None:
    http = httpx.Client(base_url=server.base, timeout=20)
    first = register(http, "frank").json()
    second = register(http, "frankie", display_name="Frankie").json()
    assert second["id"] != first["id"] and second["display_name"] == "Frankie"


# ---------------------------------------------------------------- names everywhere
def test_no_internal_handle_reaches_a_screen(server: ServerThread) -> None:
    """Seats, chat, frames, ratings and profiles of two guests carry their friendly names,
    never the ``guest-<hex>`` handle."""
    ann, bob = Client(server), Client(server)
    tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}], rated=True)
    said = ann.request({"type": "chat", "text": "gl hf"})
    assert said["type"] == "chat" and said["message"]["name"] == ann.user["display_name"]
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(8))
    finished_record(ann, tid)
    handles = [str(c.user["username"]) for c in (ann, bob)]
    assert all(h.startswith("guest-") for h in handles)
    shown = [c.user["display_name"] for c in (ann, bob)]
    answers = [
        ann.http.get(f"/api/tables/{tid}").json(),
        ann.http.get(f"/api/tables/{tid}/ratings").json(),
        ann.http.get(f"/api/tables/{tid}/replay", params={"as": "seat"}).json(),
        ann.http.get("/api/leaderboard/master", params={"limit": 200}).json()["players"],
    ]
    frames = ann.received + bob.received
    text = json.dumps(answers) + json.dumps(frames)
    welcome = next(m for m in ann.received if m.get("type") == "welcome")
    assert [s["name"] for s in welcome["table"]["seats"]] == shown
    ratings = answers[1]
    assert [p["display_name"] for p in ratings["players"]] == shown
    assert [c["player"]["display_name"] for c in ratings["changes"]] == shown
    # a guest's profile is addressed by ``@<id>``, not by the handle
    for client, player in zip((ann, bob), ratings["players"], strict=True):
        assert player["profile"] == f"@{client.user['id']}" == client.user["profile"]
        got = ann.http.get(f"/api/users/{player['profile']}").json()
        assert got["display_name"] == client.user["display_name"]
        assert got["profile"] == player["profile"] and got["recent"][0]["table_id"] == tid
    r = ann.http.get("/api/users/@999999999")
    assert r.status_code == 404 and r.json()["code"] == "server.user.not_found"
    # the handle appears only where it is a key (a profile's address), never as a name
    for handle in handles:
        for answer in (answers[0], answers[2], frames):
            assert handle not in json.dumps(answer)
    assert all(name in text for name in shown)


def test_the_terminal_renames_its_account_for_a_new_name(
        server: ServerThread, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``dragonlair play --server ... --name``: the session kept from last time stays the same
    player under the new name (its seats stay its own); no name: a friendly guest name in
    the terminal's language (``--lang``)."""
    from dragonlair.cli.online import sign_in

    monkeypatch.setenv("DRAGONLAIR_DATA", str(tmp_path))
    first = sign_in(server.base, None, "de")
    assert first.user is not None and first.user["display_name"] in names.all_pairs("de")
    again = sign_in(server.base, "Tess")
    assert again.user is not None
    assert again.user["id"] == first.user["id"] and again.user["display_name"] == "Tess"
    assert again.me()["display_name"] == "Tess"


def test_a_guest_from_before_friendly_names_gets_one(server: ServerThread) -> None:
    http, user = guest(server, display_name="placeholder")
    with server.app.state.sessions() as s:  # as the server stored guests until now
        row = s.get(User, user["id"])
        row.display_name = row.username
        s.commit()
    me = http.get("/api/me", headers={"Accept-Language": "de"}).json()
    assert me["display_name"] in names.all_pairs("de")
    assert http.get("/api/me").json()["display_name"] == me["display_name"]


def test_guessing_the_current_password_is_throttled_as_logins_are(server: ServerThread) -> None:
    http = httpx.Client(base_url=server.base, timeout=20)
    assert register(http, "gina", "first-pass").status_code == 200
    codes = []
    for _ in range(12):
        r = http.post("/api/me/password", json={"current": "guess-pass", "new": "second-pass"})
        codes.append(r.json()["code"])
        if r.status_code == 429:
            break
    assert codes[0] == "server.auth.wrong_password" and codes[-1] == "server.auth.throttled"
    r = http.post("/api/me/password", json={"current": "first-pass", "new": "second-pass"})
    assert r.status_code == 429  # the right one too, until the delay is over: nothing changed
    fresh = httpx.Client(base_url=server.base, timeout=20)
    assert fresh.post("/api/auth/login", json={"username": "gina",
                                                "password": "first-pass"}).status_code == 429


def test_refusals_about_a_seat_count_it_from_1(server: ServerThread) -> None:
    from dragonlair.core.i18n import render

    ann = Client(server)
    r = ann.http.post("/api/tables", json={"game": "master", "options": {},
                                           "seats": [{"kind": "me"}, {"kind": "open"}]})
    tid = r.json()["id"]
    r = ann.http.put(f"/api/tables/{tid}/seats/0", json={"kind": "bot"})
    body = r.json()
    assert r.status_code == 409 and body["code"] == "server.seat.taken"
    assert body["params"]["seat"] == 0 and body["params"]["number"] == 1
    assert render(body["code"], body["params"], "en") == "seat 1 is taken by a player"
    assert render(body["code"], body["params"], "de") == "Platz 1 ist von einem Spieler besetzt"
