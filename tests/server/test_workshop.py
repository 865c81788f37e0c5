"""The workshop (dragonlair/server/workshop; docs/workshop.md): publish, a new version, a
table made from the old one replaying with it after the new one exists, search (SQLite FTS5
here; PostgreSQL in tests/server_multi/test_workshop_pg.py), one vote per account, every
limit refused with its code and nothing stored, hidden entries, sanitised descriptions."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update

from dragonlair.core.i18n import error_message
from dragonlair.core.records import Record, replay
from dragonlair.server.db import User
from dragonlair.server.workshop import api, balance
from dragonlair.server.workshop.models import WorkshopEntry, WorkshopVersion
from tests.server.helpers import Client, ServerThread

JSON = dict[str, Any]
BASE = "/api/workshop/entries"

BANKER: JSON = {"id": "banker", "count": 1, "name": {"en": "Banker"},
                "power": [{"gain": {"common": 2, "silver": 1}},
                          {"pay_stones": {"count": 2, "pattern": "any", "points": 1}}]}
MISER: JSON = {"id": "miser", "count": 1, "name": {"en": "Miser"},
               "power": [{"gain": {"common": 1}}]}


@pytest.fixture(scope="module", autouse=True)
def small_reports() -> Iterator[None]:
    """Balance reports of one game (the default run's CPU budget)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(balance, "LIMITS", balance.BalanceLimits(games=1, seconds=5.0))
        yield


_names = iter(range(10**6))


def person(server: ServerThread, name: str = "ann") -> Client:
    """A registered account (a guest who signed up)."""
    c = Client(server, name.title())
    r = c.http.post("/api/auth/register", json={
        "username": f"ws{name}{next(_names)}{time.time_ns() % 10**6}",
        "password": "s3cret-pass"})
    assert r.status_code == 200, r.text
    c.user = r.json()
    return c


def entry_body(**extra: Any) -> JSON:
    body: JSON = {"game": "fist", "kind": "characters", "title": "The Banker",
                  "description": "Pays **well**.", "tags": ["economy"], "lang": "en",
                  "content": {"custom": [BANKER]}}
    body.update(extra)
    return body


def ok(r: httpx.Response, status: int = 200) -> JSON:
    assert r.status_code == status, r.text
    out: JSON = r.json()
    return out


def refused(r: httpx.Response, code: str, status: int = 422) -> JSON:
    assert r.status_code == status, r.text
    body: JSON = r.json()
    assert body["code"] == code, body
    en, de = error_message(body, "en"), error_message(body, "de")
    assert en != de and not en.startswith(code) and not de.startswith(code), (en, de)
    return body


def publish(c: Client, **extra: Any) -> JSON:
    return ok(c.http.post(BASE, json=entry_body(**extra)), 201)


def sessions(server: ServerThread) -> Any:
    return server.app.state.sessions


def entry_count(server: ServerThread) -> int:
    with sessions(server)() as s:
        return int(s.scalar(select(func.count()).select_from(WorkshopVersion)) or 0)


def wait_report(c: Client, entry_id: int, version: int) -> JSON:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        out = ok(c.http.get(f"{BASE}/{entry_id}", params={"version": version}))
        if out["balance_status"] != "pending":
            return out
        time.sleep(0.05)
    raise AssertionError("the balance report never came")


# --------------------------------------------------------------------------- versions
def test_publish_edit_and_a_table_of_version_1_replays_with_it(server: ServerThread) -> None:
    ann = person(server)
    v1 = publish(ann)
    eid = v1["id"]
    assert (v1["version"], v1["latest"], v1["kind"], v1["mine"]) == (1, 1, "characters", True)
    assert v1["content"]["custom"][0]["id"] == "banker"
    assert v1["content"]["custom"][0]["name"]["de"]  # normalized by the game's workshop
    assert v1["description_html"] == "<p>Pays <strong>well</strong>.</p>\n"
    done = wait_report(ann, eid, 1)
    assert done["balance_status"] == "done", done["balance"]
    assert done["balance"]["games"] == 1
    assert next(c for c in done["balance"]["cards"] if c["custom"])["id"] == "banker"

    # a table of version 1, all bots, played to the end
    table = ok(ann.http.post(f"{BASE}/{eid}/play", json={"seats": [
        {"kind": "bot", "bot": "greedy"}] * 3, "options": {"max_turns": 2, "custom": []}}), 201)
    assert table["workshop"] == {"entry": eid, "version": 1, "title": "The Banker",
                                 "kind": "characters"}
    assert table["options"]["custom"] == v1["content"]["custom"]  # the entry's options win
    assert table["options"]["max_turns"] == 2
    tid = table["id"]
    ok(ann.http.post(f"/api/tables/{tid}/start"))

    # version 2 replaces the character
    v2 = ok(ann.http.post(f"{BASE}/{eid}/versions", json={
        "title": "The Miser", "description": "Now stingy.", "tags": ["economy", "cheap"],
        "lang": "both", "content": {"custom": [MISER]}}), 201)
    assert (v2["version"], v2["latest"]) == (2, 2)
    assert [v["version"] for v in v2["versions"]] == [1, 2]
    old = ok(ann.http.get(f"{BASE}/{eid}", params={"version": 1}))
    assert old["title"] == "The Banker" and old["content"] == v1["content"]
    refused(ann.http.get(f"{BASE}/{eid}", params={"version": 3}),
            "server.workshop.version_not_found", 404)

    deadline = time.monotonic() + 30
    while ann.http.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots never finished"
        time.sleep(0.05)
    record = ok(ann.http.get(f"/api/tables/{tid}/record"))
    assert record["meta"]["workshop"]["version"] == 1
    assert record["options"]["custom"][0]["id"] == "banker"
    game, state = replay(Record.from_json(record))
    assert state.is_terminal()
    assert "banker" in game.card_ids and "miser" not in game.card_ids  # type: ignore[attr-defined]
    shown = ok(ann.http.get(f"/api/tables/{tid}/replay", params={"record": "false"}))
    assert shown["table"]["workshop"]["version"] == 1  # the replay names the version too
    counted = ok(ann.http.get(f"{BASE}/{eid}"))
    assert (counted["plays"], counted["wins"]) == (1, 0)  # bots only: no person won


def test_only_the_author_publishes_versions(server: ServerThread) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    eid = publish(ann)["id"]
    refused(bob.http.post(f"{BASE}/{eid}/versions", json={
        "title": "Mine now", "content": {"custom": [MISER]}}), "server.workshop.not_author", 403)
    assert ok(bob.http.get(f"{BASE}/{eid}"))["latest"] == 1


# ----------------------------------------------------------------------- variants, decks
def test_variants_decks_and_scoring_are_checked_by_the_game(server: ServerThread) -> None:
    ann = person(server)
    v = publish(ann, game="farkle", kind="variant", title="Four-point dragon",
                content={"dragon": 4}, tags=["dragon"])
    assert v["content"] == {"dragon": 4}
    master = publish(ann, game="master", kind="variant", title="Face fours",
                     content={"four_of_a_kind": "100+face"})
    assert master["content"] == {"four_of_a_kind": "100+face"}
    refused(ann.http.post(BASE, json=entry_body(game="farkle", kind="variant",
                                                content={"dragon": 7})),
            "farkle.options.dragon")
    refused(ann.http.post(BASE, json=entry_body(game="farkle", kind="variant",
                                                content={"players": 3})),
            "server.workshop.unknown_option")
    refused(ann.http.post(BASE, json=entry_body(game="master", kind="deck",
                                                content={"decks": {}})),
            "server.workshop.kind_not_for_game")
    from dragonlair.games.farkle.presets import DECK_PRESETS, TABLE_PRESETS

    scoring = publish(ann, game="farkle", kind="scoring", title="Classic scoring",
                      content={"table": TABLE_PRESETS[0].value})
    assert scoring["content"] == {"table": TABLE_PRESETS[0].value}
    deck = publish(ann, game="farkle", kind="deck", title="Example decks",
                   content={"decks": DECK_PRESETS[0].value})
    assert deck["kind"] == "deck"
    report = wait_report(ann, v["id"], 1)
    assert report["balance"]["kind"] == "seats" and len(report["balance"]["seats"]) == 2
    for seat in report["balance"]["seats"]:
        assert 0 <= seat["ci95"][0] <= seat["ci95"][1] <= 1
    table = ok(ann.http.post(f"{BASE}/{v['id']}/play", json={}), 201)
    assert table["options"]["dragon"] == 4 and table["workshop"]["entry"] == v["id"]
    shown = ok(ann.http.get(f"/api/tables/{table['id']}"))
    assert shown["workshop"]["title"] == "Four-point dragon"


# --------------------------------------------------------------------------- search
def test_browse_search_and_filters_on_sqlite(server: ServerThread) -> None:
    ann = person(server)
    word = f"zorblax{time.time_ns() % 10**6}"
    a = publish(ann, title=f"Dragon {word} hoarder", tags=["greedy-x"])
    b = publish(ann, game="farkle", kind="variant", title="Slow dragon",
                description=f"A variant for the {word}s among us.", content={"dragon": 5})
    found = ok(ann.http.get(BASE, params={"q": word}))["entries"]
    assert {e["id"] for e in found} == {a["id"], b["id"]}
    assert [e["id"] for e in ok(ann.http.get(BASE, params={"q": word, "game": "farkle"}))[
        "entries"]] == [b["id"]]
    assert [e["id"] for e in ok(ann.http.get(BASE, params={"tag": "greedy-x"}))[
        "entries"]][:1] == [a["id"]]
    # a prefix finds it too; FTS5 syntax in a query is only words
    assert a["id"] in {e["id"] for e in ok(ann.http.get(BASE, params={
        "q": word[:-2]}))["entries"]}
    assert ok(ann.http.get(BASE, params={"q": '" OR * NEAR('}))["entries"] is not None
    # the newest version is what is searched
    ok(ann.http.post(f"{BASE}/{a['id']}/versions", json={
        "title": "Renamed", "content": {"custom": [BANKER]}}), 201)
    assert a["id"] not in {e["id"] for e in ok(ann.http.get(BASE, params={"q": word}))[
        "entries"]}
    newest = ok(ann.http.get(BASE, params={"sort": "newest", "limit": 1}))["entries"]
    assert newest[0]["id"] == a["id"]


def test_one_vote_per_account_and_best_rated(server: ServerThread) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    eid = publish(ann)["id"]
    assert ok(bob.http.put(f"{BASE}/{eid}/vote", json={"stars": 5}))["votes"] == 1
    again = ok(bob.http.put(f"{BASE}/{eid}/vote", json={"stars": 2}))
    assert (again["votes"], again["rating"], again["my_vote"]) == (1, 2.0, 2)
    refused(ann.http.put(f"{BASE}/{eid}/vote", json={"stars": 5}),
            "server.workshop.own_entry", 403)
    assert bob.http.put(f"{BASE}/{eid}/vote", json={"stars": 6}).status_code == 422
    rated = ok(bob.http.get(BASE, params={"sort": "rated", "limit": 100}))["entries"]
    assert any(e["id"] == eid and e["rating"] == 2.0 for e in rated)


# --------------------------------------------------------------------------- limits
def test_guests_read_but_neither_publish_nor_vote(server: ServerThread) -> None:
    ann = person(server)
    eid = publish(ann)["id"]
    guest = Client(server, "Gus")
    assert ok(guest.http.get(f"{BASE}/{eid}"))["id"] == eid
    assert ok(httpx.get(f"{server.base}{BASE}/{eid}"))["id"] == eid  # signed out too
    before = entry_count(server)
    refused(guest.http.post(BASE, json=entry_body()), "server.workshop.guest", 403)
    refused(guest.http.put(f"{BASE}/{eid}/vote", json={"stars": 4}),
            "server.workshop.guest", 403)
    assert httpx.post(f"{server.base}{BASE}", json=entry_body()).status_code == 401
    assert entry_count(server) == before


@pytest.mark.parametrize(("change", "code", "params"), [
    ({"title": "x" * (api.MAX_TITLE + 1)}, "server.workshop.too_long", {"field": "title"}),
    ({"title": "ab"}, "server.workshop.too_short", {"field": "title"}),
    ({"description": "d" * (api.MAX_DESCRIPTION + 1)}, "server.workshop.too_long",
     {"field": "description"}),
    ({"tags": [f"t{i}" for i in range(api.MAX_TAGS + 1)]}, "server.workshop.too_many_tags", {}),
    ({"tags": ["x" * (api.MAX_TAG + 1)]}, "server.workshop.too_long", {"field": "tags"}),
    ({"tags": ["<b>"]}, "server.workshop.bad_tag", {}),
    ({"content": {"custom": [{**BANKER, "id": f"c{i}"} for i in range(21)]}},
     "server.characters.too_many", {}),
    ({"content": {"custom": [{**BANKER, "name": {"en": "n" * 2000}}]}},
     "server.characters.too_long", {}),
    ({"game": "farkle", "kind": "variant", "content": {"dragon": 4, "x": "y" * 33_000}},
     "server.workshop.too_long", {"field": "content"}),
    ({"content": {}}, "server.workshop.no_content", {}),
])
def test_every_field_is_bounded(server: ServerThread, change: JSON, code: str,
                                params: JSON) -> None:
    ann = person(server)
    before = entry_count(server)
    body = refused(ann.http.post(BASE, json=entry_body(**change)), code)
    assert params.items() <= body["params"].items()
    assert entry_count(server) == before


def test_entries_per_day(server: ServerThread) -> None:
    ann = person(server)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(api, "ENTRIES_PER_DAY", 2)
        publish(ann, game="master", kind="variant", content={"match": True})
        publish(ann, game="master", kind="variant", content={"match": True})
        before = entry_count(server)
        body = refused(ann.http.post(BASE, json=entry_body()), "server.workshop.daily_entries",
                       429)
        assert body["params"] == {"limit": 2}
        assert entry_count(server) == before
        patch.setattr(api, "VERSIONS_PER_DAY", 2)
        eid = ok(ann.http.get(BASE, params={"limit": 1})).get("entries")
        assert eid is not None
        mine = [e for e in ok(ann.http.get(BASE, params={"limit": 100}))["entries"]
                if e["author"]["id"] == ann.user["id"]]
        refused(ann.http.post(f"{BASE}/{mine[0]['id']}/versions", json={
            "title": "Again", "content": {"match": False}}), "server.workshop.daily_versions",
            429)


# --------------------------------------------------------------------------- moderation
def test_hidden_entries_are_seen_only_by_author_and_moderators(server: ServerThread) -> None:
    ann, bob, mod = person(server, "ann"), person(server, "bob"), person(server, "mod")
    word = f"hushword{time.time_ns() % 10**6}"
    eid = publish(ann, title=f"Secret {word}")["id"]
    with sessions(server)() as s:
        s.execute(update(WorkshopEntry).where(WorkshopEntry.id == eid).values(hidden=True))
        s.execute(update(User).where(User.id == mod.user["id"]).values(is_moderator=True))
        s.commit()
    guest = Client(server, "Gus")
    for other in (bob, guest):
        refused(other.http.get(f"{BASE}/{eid}"), "server.workshop.not_found", 404)
        assert eid not in {e["id"] for e in ok(other.http.get(BASE, params={"q": word}))[
            "entries"]}
        assert eid not in {e["id"] for e in ok(other.http.get(BASE, params={"limit": 100}))[
            "entries"]}
    refused(bob.http.post(f"{BASE}/{eid}/play", json={}), "server.workshop.not_found", 404)
    refused(bob.http.put(f"{BASE}/{eid}/vote", json={"stars": 1}),
            "server.workshop.not_found", 404)
    for allowed in (ann, mod):
        assert ok(allowed.http.get(f"{BASE}/{eid}"))["hidden"] is True
        found = ok(allowed.http.get(BASE, params={"q": word}))["entries"]
        assert [(e["id"], e["hidden"]) for e in found] == [(eid, True)]
    ok(ann.http.post(f"{BASE}/{eid}/play", json={}), 201)


def test_a_script_in_a_description_is_never_a_tag(server: ServerThread) -> None:
    ann = person(server)
    out = publish(ann, description="<script>alert(1)</script> [x](javascript:alert(1)) "
                                   "<img src=x onerror=alert(1)>")
    html = out["description_html"]
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html
    assert "&lt;script&gt;" in html
