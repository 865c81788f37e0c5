"""The forum and its moderation (dragonlair/server/forum; docs/forum.md): threads, posts,
replies, quotes, edits and deletes by the author only; guests read but do not write; every
field bounded (422, nothing stored) and every rate limited (429 with ``retry_after``);
reports, and moderators who hide and restore posts, threads and workshop entries (seen then
by moderators and the author only), every action logged; ``dragonlair admin grant``.

The routes run in a bare FastAPI app over a SQLite file (the tables made by ``create_all``;
the migration itself: tests/server_multi/test_migrations.py), people signed in with session
tokens written straight into the database: no server start, no password hashing."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from typer.testing import CliRunner

from dragonlair.server.accounts import token_hash
from dragonlair.server.db import Base, Session, User, make_engine, make_sessionmaker, now
from dragonlair.server.errors import ServerError
from dragonlair.server.forum import api as forum_api
from dragonlair.server.forum.models import ForumPost, ForumReport, ForumThread, ModerationLog
from dragonlair.server.settings import Limits, Settings
from dragonlair.server.workshop.models import WorkshopEntry, WorkshopVersion

JSON = dict[str, Any]

#: small limits, so that a test reaches each with a few requests
LIMITS = Limits(forum_posts_per_minute=4, forum_threads_per_hour=2, forum_reports_per_hour=3,
                forum_previews_per_minute=3, max_forum_title=40, max_forum_body=300,
                max_forum_reason=50)

_names = itertools.count()


class Forum:
    """The app, its database, and a way to make people."""

    def __init__(self, folder: Path) -> None:
        self.engine = make_engine(f"sqlite:///{folder / 'forum.db'}")
        Base.metadata.create_all(self.engine)
        self.sessions = make_sessionmaker(self.engine)
        app = FastAPI()
        app.state.settings = Settings(data_dir=folder, limits=LIMITS)
        app.state.sessions = self.sessions

        @app.exception_handler(ServerError)
        async def refused(_request: object, exc: ServerError) -> JSONResponse:
            wait = exc.params.get("retry_after") if exc.status == 429 else None
            headers = {"Retry-After": str(wait)} if isinstance(wait, int) else None
            return JSONResponse(exc.to_json(), status_code=exc.status, headers=headers)

        app.include_router(forum_api.router)
        self.client = TestClient(app)

    def person(self, *, guest: bool = False, moderator: bool = False) -> Person:
        n = next(_names)
        token = secrets.token_urlsafe(16)
        with self.sessions() as s:
            user = User(username=f"{'guest-' if guest else ''}u{n}", display_name=f"Person {n}",
                        is_guest=guest, is_moderator=moderator)
            s.add(user)
            s.flush()
            s.add(Session(token_hash=token_hash(token), user_id=user.id,
                          expires_at=now() + 3600))
            s.commit()
            return Person(self.client, user.id, token)

    def entry(self, author: Person, hidden: bool = False) -> int:
        with self.sessions() as s:
            entry = WorkshopEntry(game="fist", kind="characters", author_id=author.id,
                                  hidden=hidden)
            s.add(entry)
            s.flush()
            s.add(WorkshopVersion(entry_id=entry.id, version=1, title="The Banker",
                                  description="", tags=[], tags_text="", lang="en",
                                  content={}))
            s.commit()
            return entry.id

    def count(self, model: Any) -> int:
        with self.sessions() as s:
            return s.scalar(select(func.count()).select_from(model)) or 0


class Person:
    def __init__(self, client: TestClient, user_id: int, token: str | None) -> None:
        self.client, self.id = client, user_id
        self.headers = {"authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **params: Any) -> Any:
        return self.client.get(path, params=params, headers=self.headers)

    def post(self, path: str, body: JSON | None = None) -> Any:
        return self.client.post(path, json=body, headers=self.headers)

    def patch(self, path: str, body: JSON) -> Any:
        return self.client.patch(path, json=body, headers=self.headers)

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.headers)

    def thread(self, title: str = "Openings", body: str = "Which **first** bid?",
               game: str = "fist") -> JSON:
        r = self.post(f"/api/forum/{game}/threads", {"title": title, "body": body})
        assert r.status_code == 200, r.text
        out: JSON = r.json()
        return out

    def reply(self, thread_id: int, body: str, **extra: Any) -> Any:
        return self.post(f"/api/forum/threads/{thread_id}/posts", {"body": body, **extra})


@pytest.fixture(scope="module")
def forum(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forum]:
    f = Forum(tmp_path_factory.mktemp("forum"))
    with f.client:
        yield f
    f.engine.dispose()


def anon(forum: Forum) -> Person:
    return Person(forum.client, 0, None)


def ids(page: JSON) -> list[int]:
    return [p["id"] for p in page["posts"]]


# ------------------------------------------------------------------ posts
def test_threads_posts_replies_quotes_edits_and_deletes(forum: Forum) -> None:
    ann, bob = forum.person(), forum.person()
    made = ann.thread("Openings", "Which **first** bid? <script>alert(1)</script>")
    tid, first = made["thread"]["id"], made["post"]
    assert made["thread"]["game"] == "fist" and made["thread"]["posts"] == 1
    assert "<strong>first</strong>" in first["html"] and "<script" not in first["html"]
    assert "&lt;script&gt;" in first["html"]  # raw HTML is text, never an element

    r = bob.reply(tid, "Two Fairy Gold.", quote_of=first["id"], reply_to=first["id"])
    assert r.status_code == 200, r.text
    second = r.json()["post"]
    assert second["quote"] == {"id": first["id"], "author": first["author"],
                               "html": first["html"], "removed": False}
    assert second["reply_to"] == first["id"] and second["mine"] is True

    board = anon(forum).get("/api/forum/fist/threads").json()
    assert board["threads"][0]["id"] == tid and board["threads"][0]["posts"] == 2
    assert tid not in [t["id"] for t in
                       anon(forum).get("/api/forum/master/threads").json()["threads"]]

    # the author edits; nobody else may edit or delete
    assert bob.patch(f"/api/forum/posts/{first['id']}", {"body": "x"}).status_code == 403
    assert bob.delete(f"/api/forum/posts/{first['id']}").json()["code"] == \
        "server.forum.not_author"
    r = ann.patch(f"/api/forum/posts/{first['id']}", {"body": "Which *first* bid?"})
    assert r.status_code == 200 and r.json()["edited_at"] is not None
    assert "<em>first</em>" in r.json()["html"]

    # a deleted post is a placeholder; a quote of it shows "removed"
    r = ann.delete(f"/api/forum/posts/{first['id']}")
    assert r.status_code == 200 and r.json()["deleted"] is True and r.json()["html"] is None
    page = bob.get(f"/api/forum/threads/{tid}").json()
    assert ids(page) == [first["id"], second["id"]]
    assert page["posts"][0]["body"] is None and page["posts"][0]["deleted"] is True
    assert page["posts"][1]["quote"] == {"id": first["id"], "author": None, "html": None,
                                         "removed": True}
    assert ann.patch(f"/api/forum/posts/{first['id']}", {"body": "back"}).status_code == 409
    # a quote must be of this thread
    other = bob.thread("Other", "elsewhere")
    r = ann.reply(tid, "hm", quote_of=other["post"]["id"])
    assert r.status_code == 422 and r.json()["code"] == "server.forum.bad_ref"


def test_unknown_things_are_404(forum: Forum) -> None:
    ann = forum.person()
    assert ann.get("/api/forum/nogame/threads").json()["code"] == "server.forum.no_game"
    assert ann.get("/api/forum/threads/999999").json()["code"] == "server.forum.no_thread"
    assert ann.patch("/api/forum/posts/999999", {"body": "x"}).status_code == 404
    assert ann.get("/api/forum/entries/999999/thread").json()["code"] == \
        "server.forum.no_entry"


def test_guests_read_but_do_not_write(forum: Forum) -> None:
    ann, guest = forum.person(), forum.person(guest=True)
    tid = ann.thread()["thread"]["id"]
    assert guest.get(f"/api/forum/threads/{tid}").status_code == 200
    assert anon(forum).get(f"/api/forum/threads/{tid}").status_code == 200
    before = forum.count(ForumPost)
    for r in (guest.reply(tid, "hi"), guest.post("/api/forum/fist/threads",
                                                  {"title": "t", "body": "b"}),
              guest.post("/api/forum/reports", {"kind": "thread", "id": tid, "reason": "x"}),
              guest.post("/api/forum/preview", {"body": "x"})):
        assert r.status_code == 403 and r.json()["code"] == "server.forum.guest", r.text
    assert anon(forum).reply(tid, "hi").status_code == 401
    assert forum.count(ForumPost) == before


# ------------------------------------------------------------------ limits
def test_every_field_is_bounded_and_nothing_is_stored(forum: Forum) -> None:
    ann = forum.person()
    tid = ann.thread()["thread"]["id"]
    posts, threads, reports = (forum.count(m) for m in (ForumPost, ForumThread, ForumReport))
    cases = [
        ("/api/forum/fist/threads", {"title": "t" * 41, "body": "b"}, "title"),
        ("/api/forum/fist/threads", {"title": "t", "body": "b" * 301}, "body"),
        (f"/api/forum/threads/{tid}/posts", {"body": "b" * 301}, "body"),
        ("/api/forum/reports", {"kind": "thread", "id": tid, "reason": "r" * 51}, "reason"),
        ("/api/forum/preview", {"body": "b" * 301}, "body"),
    ]
    for path, body, field in cases:
        r = ann.post(path, body)
        assert r.status_code == 422 and r.json()["code"] == "server.forum.too_long", r.text
        assert r.json()["params"]["field"] == field
    pid = ann.get(f"/api/forum/threads/{tid}").json()["posts"][0]["id"]
    r = ann.patch(f"/api/forum/posts/{pid}", {"body": "b" * 301})
    assert r.status_code == 422 and r.json()["params"] == {"field": "body", "max": 300,
                                                           "length": 301}
    for path, body in ((f"/api/forum/threads/{tid}/posts", {"body": "  \n "}),
                       ("/api/forum/fist/threads", {"title": " ", "body": "b"})):
        assert ann.post(path, body).json()["code"] == "server.forum.empty"
    # at the limit exactly: fine
    assert ann.reply(tid, "b" * 300).status_code == 200
    assert (forum.count(ForumPost), forum.count(ForumThread),
            forum.count(ForumReport)) == (posts + 1, threads, reports)
    assert ann.get(f"/api/forum/threads/{tid}").json()["posts"][0]["body"] != "b" * 301


def test_posts_per_minute_threads_per_hour_reports_per_hour_previews(forum: Forum) -> None:
    ann, bob = forum.person(), forum.person()
    tid = bob.thread()["thread"]["id"]
    for i in range(LIMITS.forum_posts_per_minute):
        assert ann.reply(tid, f"post {i}").status_code == 200
    before = forum.count(ForumPost)
    r = ann.reply(tid, "one too many")
    assert r.status_code == 429 and r.json()["code"] == "server.forum.too_many_posts"
    wait = r.json()["params"]["retry_after"]
    assert 1 <= wait <= 60 and r.headers["retry-after"] == str(wait)
    assert r.json()["params"]["limit"] == LIMITS.forum_posts_per_minute
    assert forum.count(ForumPost) == before
    assert bob.reply(tid, "others still may").status_code == 200  # per account

    cat = forum.person()
    for _ in range(LIMITS.forum_threads_per_hour):
        cat.thread()
    r = cat.post("/api/forum/fist/threads", {"title": "3rd", "body": "b"})
    assert r.status_code == 429 and r.json()["code"] == "server.forum.too_many_threads"
    assert 3500 < r.json()["params"]["retry_after"] <= 3600

    dan, eve = forum.person(), forum.person()
    for t in [eve.thread()["thread"]["id"] for _ in range(2)]:
        assert dan.post("/api/forum/reports", {"kind": "thread", "id": t,
                                               "reason": "spam"}).status_code == 200
    first = dan.post("/api/forum/reports", {"kind": "thread", "id": tid, "reason": "spam"})
    # the same report again while open is the same report (it counts once)
    again = dan.post("/api/forum/reports", {"kind": "thread", "id": tid, "reason": "spam!"})
    assert again.json() == first.json()
    pid = ann.get(f"/api/forum/threads/{tid}").json()["posts"][0]["id"]
    r = dan.post("/api/forum/reports", {"kind": "post", "id": pid, "reason": "spam"})
    assert r.status_code == 429 and r.json()["code"] == "server.forum.too_many_reports"

    for _ in range(LIMITS.forum_previews_per_minute):
        r = dan.post("/api/forum/preview", {"body": "[x](javascript:alert(1)) **b**"})
        assert r.status_code == 200 and "<a" not in r.json()["html"]
        assert "<strong>b</strong>" in r.json()["html"]
    r = dan.post("/api/forum/preview", {"body": "x"})
    assert r.status_code == 429 and r.json()["code"] == "server.forum.too_many_previews"


# ------------------------------------------------------------------ moderation
def test_reports_and_hiding_a_post(forum: Forum) -> None:
    ann, bob, mod = forum.person(), forum.person(), forum.person(moderator=True)
    made = ann.thread("Trading", "fair")
    tid = made["thread"]["id"]
    bad = bob.reply(tid, "rude words").json()["post"]
    quoting = ann.reply(tid, "quoting it", quote_of=bad["id"]).json()["post"]
    r = ann.post("/api/forum/reports", {"kind": "post", "id": bad["id"], "reason": "rude"})
    assert r.status_code == 200
    report_id = r.json()["id"]

    # not a moderator: refused, nothing changes
    for path in ("/api/mod/reports", "/api/mod/log"):
        assert ann.get(path).json()["code"] == "server.mod.forbidden"
    assert ann.post(f"/api/mod/post/{bad['id']}/hide").status_code == 403
    assert anon(forum).post(f"/api/mod/post/{bad['id']}/hide").status_code == 401

    queue = mod.get("/api/mod/reports").json()["reports"]
    mine = [q for q in queue if q["id"] == report_id]
    assert mine and mine[0]["target"]["excerpt"] == "rude words"
    assert mine[0]["target"]["author"]["id"] == bob.id and mine[0]["reason"] == "rude"

    r = mod.post(f"/api/mod/post/{bad['id']}/hide", {"note": "insult"})
    assert r.json() == {"kind": "post", "id": bad["id"], "hidden": True}
    # absent for others; seen by its author and moderators, marked hidden
    for who in (ann, anon(forum), forum.person()):
        page = who.get(f"/api/forum/threads/{tid}").json()
        assert bad["id"] not in ids(page)
        quote = next(p for p in page["posts"] if p["id"] == quoting["id"])["quote"]
        assert quote["removed"] is True and quote["html"] is None
        assert who.get(f"/api/forum/threads/{tid}").json()["thread"]["posts"] == 2
    for who in (bob, mod):
        page = who.get(f"/api/forum/threads/{tid}").json()
        assert bad["id"] in ids(page)
        assert next(p for p in page["posts"] if p["id"] == bad["id"])["hidden"] is True
    assert ann.reply(tid, "x", quote_of=bad["id"]).status_code == 422
    # hiding answered the report
    assert report_id not in [q["id"] for q in mod.get("/api/mod/reports").json()["reports"]]
    assert report_id in [q["id"] for q in
                         mod.get("/api/mod/reports", resolved="true").json()["reports"]]

    r = mod.post(f"/api/mod/post/{bad['id']}/restore")
    assert r.json()["hidden"] is False
    assert bad["id"] in ids(ann.get(f"/api/forum/threads/{tid}").json())

    log = mod.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["kind"], e["target_id"], e["note"]) for e in log[:2]] == [
        ("restore", "post", bad["id"], None), ("hide", "post", bad["id"], "insult")]
    assert log[0]["moderator"]["id"] == mod.id
    assert mod.post("/api/mod/post/999999/hide").json()["code"] == "server.mod.not_found"
    assert mod.post("/api/mod/user/1/hide").status_code == 422


def test_a_hidden_thread_and_a_dismissed_report(forum: Forum) -> None:
    ann, bob, mod = forum.person(), forum.person(), forum.person(moderator=True)
    tid = ann.thread("Hidden soon", "hm")["thread"]["id"]
    bob_post = bob.reply(tid, "bob's answer").json()["post"]["id"]
    assert mod.post(f"/api/mod/thread/{tid}/hide").status_code == 200
    for who in (bob, anon(forum)):
        assert who.get(f"/api/forum/threads/{tid}").status_code == 404
        assert tid not in [t["id"] for t in who.get("/api/forum/fist/threads").json()["threads"]]
    assert bob.patch(f"/api/forum/posts/{bob_post}", {"body": "x"}).status_code == 404
    assert bob.reply(tid, "x").status_code == 404
    for who in (ann, mod):
        page = who.get(f"/api/forum/threads/{tid}").json()
        assert page["thread"]["hidden"] is True and len(page["posts"]) == 2
        assert tid in [t["id"] for t in who.get("/api/forum/fist/threads").json()["threads"]]
    assert mod.post(f"/api/mod/thread/{tid}/restore").status_code == 200
    assert bob.get(f"/api/forum/threads/{tid}").status_code == 200

    rid = bob.post("/api/forum/reports", {"kind": "thread", "id": tid,
                                          "reason": "not sure"}).json()["id"]
    assert mod.post(f"/api/mod/reports/{rid}/resolve", {"note": "fine"}).json() == {"id": rid}
    assert mod.post("/api/mod/reports/999999/resolve").json()["code"] == "server.mod.no_report"
    log = mod.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["kind"], e["target_id"]) for e in log[:3]] == [
        ("resolve", "report", rid), ("restore", "thread", tid), ("hide", "thread", tid)]


def test_a_closed_thread_is_read_but_not_answered_and_opens_again(forum: Forum) -> None:
    ann, bob, mod = forum.person(), forum.person(), forum.person(moderator=True)
    tid = ann.thread("Closed soon", "the last word")["thread"]["id"]
    # not a moderator (the author neither): refused, nothing changes
    for who in (ann, bob, anon(forum)):
        assert who.post(f"/api/mod/thread/{tid}/lock").status_code in (401, 403)
    assert bob.get(f"/api/forum/threads/{tid}").json()["thread"]["locked"] is False
    before = forum.count(ModerationLog)
    assert mod.post(f"/api/mod/thread/{tid}/lock", {"note": "settled"}).json() == {
        "id": tid, "locked": True}
    assert mod.post(f"/api/mod/thread/{tid}/lock").json()["locked"] is True  # once logged
    assert forum.count(ModerationLog) == before + 1
    page = bob.get(f"/api/forum/threads/{tid}").json()
    assert page["thread"]["locked"] is True and len(page["posts"]) == 1
    posts = forum.count(ForumPost)
    for who in (ann, bob):
        r = who.reply(tid, "one more thing")
        assert (r.status_code, r.json()["code"]) == (409, "server.forum.locked")
    assert forum.count(ForumPost) == posts
    assert mod.reply(tid, "closed: see the rules, F5.7").status_code == 200
    assert mod.post("/api/mod/thread/999999/lock").json()["code"] == "server.mod.not_found"
    assert mod.post(f"/api/mod/thread/{tid}/unlock").json() == {"id": tid, "locked": False}
    assert bob.reply(tid, "thanks").status_code == 200
    log = mod.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["kind"], e["target_id"], e["note"]) for e in log[:2]] == [
        ("unlock", "thread", tid, None), ("lock", "thread", tid, "settled")]


def test_a_workshop_entrys_thread_and_hiding_the_entry(forum: Forum) -> None:
    author, ann, mod = forum.person(), forum.person(), forum.person(moderator=True)
    entry = forum.entry(author)
    empty = anon(forum).get(f"/api/forum/entries/{entry}/thread").json()
    assert empty == {"entry_id": entry, "game": "fist", "thread": None, "posts": [],
                     "page": 1, "pages": 1, "total": 0}
    r = ann.post(f"/api/forum/entries/{entry}/posts", {"body": "Strong card!"})
    assert r.status_code == 200, r.text
    thread = r.json()["thread"]
    assert thread["entry_id"] == entry and thread["title"] == "The Banker"
    r = author.post(f"/api/forum/entries/{entry}/posts", {"body": "Thanks"})
    assert r.json()["thread"]["id"] == thread["id"]  # one thread per entry
    page = anon(forum).get(f"/api/forum/entries/{entry}/thread").json()
    assert page["total"] == 2 and page["thread"]["id"] == thread["id"]
    # the entry's thread is on the entry's page, not on the board
    assert thread["id"] not in [t["id"] for t in
                                anon(forum).get("/api/forum/fist/threads").json()["threads"]]

    assert ann.post("/api/forum/reports", {"kind": "entry", "id": entry,
                                           "reason": "copied"}).status_code == 200
    assert mod.post(f"/api/mod/entry/{entry}/hide").json()["hidden"] is True
    with forum.sessions() as s:
        assert s.get(WorkshopEntry, entry).hidden is True  # type: ignore[union-attr]
    for who in (ann, anon(forum)):
        assert who.get(f"/api/forum/entries/{entry}/thread").status_code == 404
        assert who.get(f"/api/forum/threads/{thread['id']}").status_code == 404
    assert ann.post(f"/api/forum/entries/{entry}/posts", {"body": "x"}).status_code == 404
    for who in (author, mod):
        assert who.get(f"/api/forum/entries/{entry}/thread").json()["total"] == 2
    assert mod.post(f"/api/mod/entry/{entry}/restore").json()["hidden"] is False
    assert ann.get(f"/api/forum/entries/{entry}/thread").json()["total"] == 2
    log = mod.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["kind"]) for e in log[:2]] == [("restore", "entry"),
                                                           ("hide", "entry")]
    hidden = forum.entry(author, hidden=True)
    assert ann.post(f"/api/forum/entries/{hidden}/posts", {"body": "x"}).status_code == 404


def test_every_moderator_action_is_in_the_log(forum: Forum) -> None:
    ann, mod = forum.person(), forum.person(moderator=True)
    made = ann.thread()
    tid, pid = made["thread"]["id"], made["post"]["id"]
    entry = forum.entry(ann)
    before = forum.count(ModerationLog)
    done = [("post", pid), ("thread", tid), ("entry", entry)]
    for kind, target in done:
        for action in ("hide", "restore"):
            assert mod.post(f"/api/mod/{kind}/{target}/{action}").status_code == 200
    assert forum.count(ModerationLog) == before + 6
    log = mod.get("/api/mod/log").json()
    got = [(e["action"], e["kind"], e["target_id"]) for e in log["entries"][:6]]
    assert got == [(a, k, t) for k, t in reversed(done) for a in ("restore", "hide")]


# ------------------------------------------------------------------ the command line
def test_admin_grant_and_revoke(tmp_path: Path) -> None:
    from dragonlair.cli.main import app
    from dragonlair.server.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'd.db'}"
    engine = make_engine(url)
    upgrade(engine)
    sessions = make_sessionmaker(engine)
    with sessions() as s:
        s.add_all([User(username="ann", display_name="Ann"),
                   User(username="guest-x", display_name="G", is_guest=True)])
        s.commit()
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(app, ["admin", *args, "--db", url])

    r = run("grant", "Ann")
    assert r.exit_code == 0 and "Ann (ann) is now a moderator." in r.output, r.output
    assert "already" in run("grant", "ann").output
    with sessions() as s:
        assert s.scalar(select(User.is_moderator).where(User.username == "ann")) is True
    r = runner.invoke(app, ["admin", "revoke", "ann", "--db", url, "--lang", "de"])
    assert r.exit_code == 0 and "kein Moderator mehr" in r.output
    with sessions() as s:
        assert s.scalar(select(User.is_moderator).where(User.username == "ann")) is False
        log = [(row.action, row.target_kind, row.moderator_id, row.note)
               for row in s.scalars(select(ModerationLog).order_by(ModerationLog.id))]
    assert log == [("grant", "user", None, None), ("revoke", "user", None, None)]
    engine.dispose()

    for args, words in ((("grant", "nobody", "--db", url), "no account with the username"),
                        (("grant", "guest-x", "--db", url), "is a guest"),
                        (("grant", "ann", "--db", f"sqlite:///{tmp_path / 'none.db'}"),
                         "does not exist"),
                        (("grant", "ann", "--db", "nonsense://"), "")):
        r = runner.invoke(app, ["admin", *args])
        assert r.exit_code == 2, (args, r.output)
        assert words in r.output and "Traceback" not in r.output, r.output


def test_ids_out_of_range_are_refused_not_a_crash(forum: Forum) -> None:
    ann = forum.person()
    tid = ann.thread()["thread"]["id"]
    for r in (ann.get(f"/api/forum/threads/{2**40}"), ann.get("/api/forum/threads/0"),
              ann.reply(tid, "x", quote_of=2**63),
              ann.post("/api/forum/reports", {"kind": "post", "id": 2**40, "reason": "x"}),
              forum.person(moderator=True).post(f"/api/mod/reports/{2**80}/resolve")):
        assert r.status_code == 422, r.text
