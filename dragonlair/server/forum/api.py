"""The forum and its moderation over REST (issue 26; docs/forum.md).

- ``/api/forum/...``: a board per game (threads with ``entry_id`` null), a thread per
  workshop entry (made by its first post), posts in Markdown rendered to safe HTML when
  written (:func:`dragonlair.server.markdown.render`), replies, quotes, edits and deletes by
  the author, reports, and a preview of a post's HTML.
- ``/api/mod/...`` (moderators only, ``users.is_moderator``: ``dragonlair admin grant``):
  the open reports, hiding and restoring posts, threads and workshop entries, and the log of
  every moderator action.

Reading needs no account; writing needs a registered one (a guest: ``403
server.forum.guest``). Every field is bounded (``Limits.max_forum_*``: ``422
server.forum.too_long``, nothing stored), and each account may write only so many posts a
minute, threads an hour, reports an hour and previews a minute (``Limits.forum_*``: ``429``
with ``retry_after`` seconds). What a moderator hid is seen by moderators and by its author
(marked ``hidden``), by nobody else: a hidden thread's posts too, and a hidden workshop
entry's thread.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.accounts import DB, CurrentUser, optional_user
from dragonlair.server.db import User, now
from dragonlair.server.errors import ServerError
from dragonlair.server.forum import service
from dragonlair.server.forum.models import ForumPost, ForumReport, ForumThread, ModerationLog
from dragonlair.server.forum.service import is_mod, users_by_id
from dragonlair.server.markdown import render
from dragonlair.server.responses import Out
from dragonlair.server.settings import Limits
from dragonlair.server.workshop.models import WorkshopEntry

router = APIRouter(prefix="/api", tags=["forum"])

Viewer = Annotated[User | None, Depends(optional_user)]
#: the largest id (the columns are 32-bit integers on PostgreSQL)
MAX_ID = 2**31 - 1
#: a row's id in a path
RowId = Annotated[int, Path(ge=1, le=MAX_ID)]
Kind = Literal["post", "thread", "entry"]

#: posts on one page of a thread, threads on one page of a board, rows of the reports and log
POSTS_PER_PAGE = 50
THREADS_PER_PAGE = 30
ROWS_PER_PAGE = 100
#: the characters of a post shown in the reports' queue
EXCERPT_CHARS = 300


# ------------------------------------------------------------------ models
class ThreadIn(BaseModel):
    title: str = Field(description="at most ``Limits.max_forum_title`` characters")
    body: str = Field(description="Markdown, at most ``Limits.max_forum_body`` characters")


class PostIn(BaseModel):
    body: str = Field(description="Markdown, at most ``Limits.max_forum_body`` characters")
    quote_of: int | None = Field(default=None, ge=1, le=MAX_ID,
                                 description="a post of the thread to quote")
    reply_to: int | None = Field(default=None, ge=1, le=MAX_ID,
                                 description="a post of the thread answered")


class EditIn(BaseModel):
    body: str = Field(description="Markdown, at most ``Limits.max_forum_body`` characters")


class PreviewIn(BaseModel):
    body: str = Field(description="Markdown, at most ``Limits.max_forum_body`` characters")


class ReportIn(BaseModel):
    kind: Kind
    id: int = Field(ge=1, le=MAX_ID)
    reason: str = Field(description="at most ``Limits.max_forum_reason`` characters")


class ModIn(BaseModel):
    note: str | None = Field(default=None, description="why (at most 500 characters)")


class UserRef(Out):
    id: int
    name: str
    profile: str


class QuoteOut(Out):
    """The quoted post: its author and safe HTML, or ``removed`` (deleted, or hidden from the
    reader)."""

    id: int
    author: UserRef | None
    html: str | None
    removed: bool


class PostOut(Out):
    id: int
    thread_id: int
    author: UserRef
    body: str | None = Field(description="the Markdown (null: deleted)")
    html: str | None = Field(description="the safe HTML (null: deleted)")
    created_at: float
    edited_at: float | None
    deleted: bool
    hidden: bool = Field(description="hidden by a moderator (seen by moderators and the author)")
    reply_to: int | None
    quote: QuoteOut | None
    mine: bool


class ThreadOut(Out):
    id: int
    game: str
    entry_id: int | None
    title: str
    author: UserRef
    created_at: float
    last_post_at: float
    posts: int
    hidden: bool
    locked: bool
    mine: bool


class ThreadPageOut(Out):
    thread: ThreadOut
    posts: list[PostOut]
    page: int
    pages: int
    total: int


class EntryThreadOut(Out):
    """A workshop entry's thread (null until its first post)."""

    entry_id: int
    game: str
    thread: ThreadOut | None
    posts: list[PostOut]
    page: int
    pages: int
    total: int


class BoardOut(Out):
    game: str
    threads: list[ThreadOut]
    page: int
    pages: int
    total: int


class NewPostOut(Out):
    thread: ThreadOut
    post: PostOut


class PreviewOut(Out):
    html: str


class ReportDoneOut(Out):
    id: int


class TargetOut(Out):
    """What a report or a log line is about, as a moderator sees it."""

    exists: bool
    hidden: bool
    title: str | None
    excerpt: str | None
    thread_id: int | None
    game: str | None
    author: UserRef | None


class ReportOut(Out):
    id: int
    kind: str
    target_id: int
    reason: str
    reporter: UserRef
    created_at: float
    resolved_at: float | None
    target: TargetOut


class ReportsOut(Out):
    reports: list[ReportOut]


class LogOut(Out):
    id: int
    moderator: UserRef | None
    action: str
    kind: str
    target_id: int
    note: str | None
    created_at: float


class LogPageOut(Out):
    entries: list[LogOut]
    next_before: int | None = Field(description="``before`` of the next (older) page")


class ModDoneOut(Out):
    kind: str
    id: int
    hidden: bool


class LockDoneOut(Out):
    id: int
    locked: bool


# ------------------------------------------------------------------ helpers
def limits(request: Request) -> Limits:
    out: Limits = request.app.state.settings.limits
    return out


def writer(user: User) -> User:
    """``user``, if they may write (a registered account): else ``403 server.forum.guest``."""
    if user.is_guest:
        raise ServerError("server.forum.guest", 403)
    return user


def bounded(text: str, field: str, most: int, *, strip: bool = True) -> str:
    """``text`` (blanks around it trimmed), refused when empty or longer than ``most``."""
    if len(text) > most:
        raise ServerError("server.forum.too_long", 422, field=field, max=most,
                          length=len(text))
    out = text.strip() if strip else text
    if not out.strip():
        raise ServerError("server.forum.empty", 422, field=field)
    return out


def title_of(text: str, most: int) -> str:
    """A title: one line, no control characters."""
    clean = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return bounded(clean if len(text) <= most else text, "title", most)


def check_game(game: str) -> str:
    from dragonlair.games import game_ids

    if game not in game_ids():
        raise ServerError("server.forum.no_game", 404, game=game[:64])
    return game


def rate(s: OrmSession, code: str, stamps: Any, owner: Any, user: User, most: int,
         window: float) -> None:
    """``429`` with ``code`` (``server.forum.too_many_posts``, ...) when ``user`` wrote
    ``most`` rows in the last ``window`` seconds (counted in the database: every server
    process agrees); its ``retry_after`` is when the oldest of them leaves the window."""
    rows = service.recent_stamps(s, stamps, owner, user.id, now() - window, most)
    if len(rows) >= most:
        wait = max(1, math.ceil(rows[-1] + window - now()))
        raise ServerError(code, 429, limit=most, retry_after=wait)


class _Previews:
    """Previews a minute per account, in this process's memory (they store nothing)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: dict[int, deque[float]] = {}

    def take(self, user_id: int, most: int) -> None:
        clock = time.monotonic()
        with self.lock:
            if len(self.seen) > 10_000:
                self.seen.clear()
            stamps = self.seen.setdefault(user_id, deque())
            while stamps and stamps[0] <= clock - 60:
                stamps.popleft()
            if len(stamps) >= most:
                wait = max(1, math.ceil(stamps[0] + 60 - clock))
                raise ServerError("server.forum.too_many_previews", 429, limit=most,
                                  retry_after=wait)
            stamps.append(clock)


def previews(request: Request) -> _Previews:
    found: _Previews | None = getattr(request.app.state, "forum_previews", None)
    if found is None:
        found = request.app.state.forum_previews = _Previews()
    return found


def user_ref(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.display_name,
            "profile": f"@{user.id}" if user.is_guest else user.username}


def sees(viewer: User | None, hidden: bool, author_id: int | None) -> bool:
    """Whether ``viewer`` sees something hidden or not (moderators and the author do)."""
    return not hidden or is_mod(viewer) or (viewer is not None and viewer.id == author_id)


def entry_of(s: OrmSession, entry_id: int, viewer: User | None) -> WorkshopEntry:
    """The workshop entry, if ``viewer`` may see it: else ``404 server.forum.no_entry``."""
    entry = s.get(WorkshopEntry, entry_id)
    if entry is None or not sees(viewer, entry.hidden, entry.author_id):
        raise ServerError("server.forum.no_entry", 404, id=entry_id)
    return entry


def thread_of(s: OrmSession, thread_id: int, viewer: User | None) -> ForumThread:
    """The thread, if ``viewer`` may see it (and its workshop entry): else ``404
    server.forum.no_thread``."""
    thread = s.get(ForumThread, thread_id)
    if thread is None or not sees(viewer, thread.hidden, thread.author_id):
        raise ServerError("server.forum.no_thread", 404, id=thread_id)
    if thread.entry_id is not None and not is_mod(viewer):
        entry = s.get(WorkshopEntry, thread.entry_id)
        if entry is None or not sees(viewer, entry.hidden, entry.author_id):
            raise ServerError("server.forum.no_thread", 404, id=thread_id)
    return thread


def post_of(s: OrmSession, post_id: int, viewer: User | None
            ) -> tuple[ForumPost, ForumThread]:
    post = s.get(ForumPost, post_id)
    if post is None or not sees(viewer, post.hidden, post.author_id):
        raise ServerError("server.forum.no_post", 404, id=post_id)
    try:
        thread = thread_of(s, post.thread_id, viewer)
    except ServerError:
        raise ServerError("server.forum.no_post", 404, id=post_id) from None
    return post, thread


def thread_json(t: ForumThread, people: dict[int, User], viewer: User | None) -> dict[str, Any]:
    return {"id": t.id, "game": t.game, "entry_id": t.entry_id, "title": t.title,
            "author": user_ref(people[t.author_id]), "created_at": t.created_at,
            "last_post_at": t.last_post_at, "posts": t.posts, "hidden": t.hidden,
            "locked": t.locked, "mine": viewer is not None and viewer.id == t.author_id}


def posts_json(s: OrmSession, posts: list[ForumPost], viewer: User | None
               ) -> list[dict[str, Any]]:
    """The posts as ``viewer`` reads them, each with the post it quotes."""
    quoted_ids = {p.quote_of for p in posts if p.quote_of is not None}
    quoted = service.posts_by_id(s, quoted_ids)
    people = users_by_id(s, [p.author_id for p in posts] + [q.author_id for q in quoted.values()])
    out = []
    for p in posts:
        quote = None
        if p.quote_of is not None:
            q = quoted.get(p.quote_of)
            gone = q is None or q.deleted or not sees(viewer, q.hidden, q.author_id)
            quote = {"id": p.quote_of,
                     "author": None if q is None or gone else user_ref(people[q.author_id]),
                     "html": None if q is None or gone else q.body_html, "removed": gone}
        out.append({
            "id": p.id, "thread_id": p.thread_id, "author": user_ref(people[p.author_id]),
            "body": None if p.deleted else p.body, "html": None if p.deleted else p.body_html,
            "created_at": p.created_at, "edited_at": p.edited_at, "deleted": p.deleted,
            "hidden": p.hidden, "reply_to": p.reply_to, "quote": quote,
            "mine": viewer is not None and viewer.id == p.author_id})
    return out


def page_of_posts(s: OrmSession, thread: ForumThread, viewer: User | None, page: int
                  ) -> tuple[list[dict[str, Any]], int, int]:
    rows, total = service.thread_posts(s, thread.id, viewer, page, POSTS_PER_PAGE)
    pages = max(1, math.ceil(total / POSTS_PER_PAGE))
    return posts_json(s, rows, viewer), pages, total


def new_post(s: OrmSession, request: Request, thread: ForumThread, user: User, body: PostIn,
             viewer: User) -> ForumPost:
    """A post in ``thread`` (its quote and reply checked), the thread's count and time
    moved on; not yet committed."""
    lim = limits(request)
    text = bounded(body.body, "body", lim.max_forum_body)
    if thread.locked and not is_mod(user):
        raise ServerError("server.forum.locked", 409, id=thread.id)
    for field, ref in (("quote_of", body.quote_of), ("reply_to", body.reply_to)):
        if ref is not None:
            other = s.get(ForumPost, ref)
            if other is None or other.thread_id != thread.id or other.deleted \
                    or not sees(viewer, other.hidden, other.author_id):
                raise ServerError("server.forum.bad_ref", 422, field=field, id=ref)
    rate(s, "server.forum.too_many_posts", ForumPost.created_at, ForumPost.author_id,
         user, lim.forum_posts_per_minute, 60.0)
    post = ForumPost(thread_id=thread.id, author_id=user.id, body=text, body_html=render(text),
                     quote_of=body.quote_of, reply_to=body.reply_to, created_at=now())
    s.add(post)
    thread.posts += 1
    thread.last_post_at = post.created_at
    return post


def posted(s: OrmSession, thread: ForumThread, post: ForumPost, viewer: User
           ) -> dict[str, Any]:
    s.commit()
    people = users_by_id(s, [thread.author_id])
    return {"thread": thread_json(thread, people, viewer),
            "post": posts_json(s, [post], viewer)[0]}


# ------------------------------------------------------------------ reading
@router.get("/forum/{game}/threads", response_model=BoardOut)
def board(game: str, s: DB, viewer: Viewer,
          page: Annotated[int, Query(ge=1, le=100_000)] = 1) -> dict[str, Any]:
    """A game's board: its threads, newest activity first, ``THREADS_PER_PAGE`` a page.
    A workshop entry's thread is on the entry's page, not here."""
    check_game(game)
    rows, total = service.board_threads(s, game, viewer, page, THREADS_PER_PAGE)
    people = users_by_id(s, [t.author_id for t in rows])
    return {"game": game, "threads": [thread_json(t, people, viewer) for t in rows],
            "page": page, "pages": max(1, math.ceil(total / THREADS_PER_PAGE)), "total": total}


@router.get("/forum/threads/{thread_id}", response_model=ThreadPageOut)
def thread(thread_id: RowId, s: DB, viewer: Viewer,
           page: Annotated[int, Query(ge=1, le=100_000)] = 1) -> dict[str, Any]:
    """A thread and one page of its posts (oldest first, ``POSTS_PER_PAGE`` a page)."""
    t = thread_of(s, thread_id, viewer)
    posts, pages, total = page_of_posts(s, t, viewer, page)
    return {"thread": thread_json(t, users_by_id(s, [t.author_id]), viewer), "posts": posts,
            "page": page, "pages": pages, "total": total}


@router.get("/forum/entries/{entry_id}/thread", response_model=EntryThreadOut)
def entry_thread(entry_id: RowId, s: DB, viewer: Viewer,
                 page: Annotated[int, Query(ge=1, le=100_000)] = 1) -> dict[str, Any]:
    """A workshop entry's thread (``thread`` null and no posts until the first post)."""
    entry = entry_of(s, entry_id, viewer)
    t = service.entry_thread(s, entry_id)
    if t is None or not sees(viewer, t.hidden, t.author_id):
        return {"entry_id": entry_id, "game": entry.game, "thread": None, "posts": [],
                "page": 1, "pages": 1, "total": 0}
    posts, pages, total = page_of_posts(s, t, viewer, page)
    return {"entry_id": entry_id, "game": entry.game,
            "thread": thread_json(t, users_by_id(s, [t.author_id]), viewer), "posts": posts,
            "page": page, "pages": pages, "total": total}


# ------------------------------------------------------------------ writing
@router.post("/forum/{game}/threads", response_model=NewPostOut)
def new_thread(game: str, body: ThreadIn, request: Request, s: DB,
               user: CurrentUser) -> dict[str, Any]:
    """A new thread on a game's board, with its first post."""
    writer(user)
    check_game(game)
    lim = limits(request)
    title = title_of(body.title, lim.max_forum_title)
    bounded(body.body, "body", lim.max_forum_body)
    rate(s, "server.forum.too_many_threads", ForumThread.created_at,
         ForumThread.author_id, user, lim.forum_threads_per_hour, 3600.0)
    t = ForumThread(game=game, title=title, author_id=user.id, created_at=now(), posts=0,
                    last_post_at=now())
    s.add(t)
    s.flush()
    post = new_post(s, request, t, user, PostIn(body=body.body), user)
    return posted(s, t, post, user)


@router.post("/forum/threads/{thread_id}/posts", response_model=NewPostOut)
def reply(thread_id: RowId, body: PostIn, request: Request, s: DB,
          user: CurrentUser) -> dict[str, Any]:
    """A post in a thread, perhaps quoting (``quote_of``) or answering (``reply_to``) one of
    its posts."""
    writer(user)
    t = thread_of(s, thread_id, user)
    post = new_post(s, request, t, user, body, user)
    return posted(s, t, post, user)


@router.post("/forum/entries/{entry_id}/posts", response_model=NewPostOut)
def entry_post(entry_id: RowId, body: PostIn, request: Request, s: DB,
               user: CurrentUser) -> dict[str, Any]:
    """A post in a workshop entry's thread; the first one makes the thread (titled as the
    entry)."""
    writer(user)
    entry = entry_of(s, entry_id, user)
    t = service.entry_thread(s, entry_id)
    if t is None:
        bounded(body.body, "body", limits(request).max_forum_body)
        name = service.entry_title(s, entry_id, entry.latest)
        title = (name or f"#{entry_id}")[:limits(request).max_forum_title]
        t = ForumThread(game=entry.game, entry_id=entry_id, title=title, author_id=user.id,
                        created_at=now(), last_post_at=now(), posts=0)
        s.add(t)
        try:
            s.flush()
        except IntegrityError:  # another first post made it meanwhile
            s.rollback()
            t = service.entry_thread(s, entry_id)
            if t is None:
                raise
    elif not sees(user, t.hidden, t.author_id):
        raise ServerError("server.forum.no_thread", 404, id=t.id)
    post = new_post(s, request, t, user, body, user)
    return posted(s, t, post, user)


@router.patch("/forum/posts/{post_id}", response_model=PostOut)
def edit(post_id: RowId, body: EditIn, request: Request, s: DB,
         user: CurrentUser) -> dict[str, Any]:
    """The author's edit of a post (its Markdown rendered again)."""
    writer(user)
    post, _thread = post_of(s, post_id, user)
    if post.author_id != user.id:
        raise ServerError("server.forum.not_author", 403)
    if post.deleted:
        raise ServerError("server.forum.deleted", 409, id=post_id)
    text = bounded(body.body, "body", limits(request).max_forum_body)
    post.body, post.body_html, post.edited_at = text, render(text), now()
    s.commit()
    return posts_json(s, [post], user)[0]


@router.delete("/forum/posts/{post_id}", response_model=PostOut)
def delete(post_id: RowId, s: DB, user: CurrentUser) -> dict[str, Any]:
    """The author's delete: the post stays as a placeholder, its text gone."""
    post, _thread = post_of(s, post_id, user)
    if post.author_id != user.id:
        raise ServerError("server.forum.not_author", 403)
    if not post.deleted:
        post.deleted, post.body, post.body_html, post.edited_at = True, "", "", now()
        s.commit()
    return posts_json(s, [post], user)[0]


@router.post("/forum/preview", response_model=PreviewOut)
def preview(body: PreviewIn, request: Request, user: CurrentUser) -> dict[str, Any]:
    """The safe HTML a post would show (nothing stored)."""
    writer(user)
    lim = limits(request)
    if len(body.body) > lim.max_forum_body:
        raise ServerError("server.forum.too_long", 422, field="body", max=lim.max_forum_body,
                          length=len(body.body))
    previews(request).take(user.id, lim.forum_previews_per_minute)
    return {"html": render(body.body)}


@router.post("/forum/reports", response_model=ReportDoneOut)
def report(body: ReportIn, request: Request, s: DB, user: CurrentUser) -> dict[str, Any]:
    """Report a post, a thread or a workshop entry to the moderators, with a reason (a
    second report of the same by the same account, still open, is the first)."""
    writer(user)
    lim = limits(request)
    reason = bounded(body.reason, "reason", lim.max_forum_reason)
    if body.kind == "post":
        post_of(s, body.id, user)
    elif body.kind == "thread":
        thread_of(s, body.id, user)
    else:
        entry_of(s, body.id, user)
    open_one = service.open_report(s, user.id, body.kind, body.id)
    if open_one is not None:
        return {"id": open_one}
    rate(s, "server.forum.too_many_reports", ForumReport.created_at,
         ForumReport.reporter_id, user, lim.forum_reports_per_hour, 3600.0)
    row = ForumReport(target_kind=body.kind, target_id=body.id, reporter_id=user.id,
                      reason=reason, created_at=now())
    s.add(row)
    s.commit()
    return {"id": row.id}


# ------------------------------------------------------------------ moderation
def moderator(user: CurrentUser) -> User:
    if not user.is_moderator:
        raise ServerError("server.mod.forbidden", 403)
    return user


Moderator = Annotated[User, Depends(moderator)]


def log(s: OrmSession, mod: User | None, action: str, kind: str, target: int,
        note: str | None = None) -> None:
    """One line of the moderators' log (the caller commits)."""
    s.add(ModerationLog(moderator_id=mod.id if mod is not None else None, action=action,
                        target_kind=kind, target_id=target, note=note, created_at=now()))


def target_json(s: OrmSession, kind: str, target: int, people: dict[int, User]
                ) -> dict[str, Any]:
    out: dict[str, Any] = {"exists": False, "hidden": False, "title": None, "excerpt": None,
                           "thread_id": None, "game": None, "author": None}
    author: int | None = None
    if kind == "post":
        post = s.get(ForumPost, target)
        if post is not None:
            t = s.get(ForumThread, post.thread_id)
            out.update(exists=True, hidden=post.hidden, excerpt=post.body[:EXCERPT_CHARS],
                       thread_id=post.thread_id, title=t.title if t else None,
                       game=t.game if t else None)
            author = post.author_id
    elif kind == "thread":
        t = s.get(ForumThread, target)
        if t is not None:
            out.update(exists=True, hidden=t.hidden, title=t.title, thread_id=t.id, game=t.game)
            author = t.author_id
    elif kind == "entry":
        e = s.get(WorkshopEntry, target)
        if e is not None:
            name = service.entry_title(s, e.id, e.latest)
            out.update(exists=True, hidden=e.hidden, title=name, game=e.game)
            author = e.author_id
    if author is not None:
        if author not in people:
            people.update(users_by_id(s, [author]))
        out["author"] = user_ref(people[author])
    return out


@router.get("/mod/reports", response_model=ReportsOut, tags=["moderation"])
def reports(s: DB, _mod: Moderator,
            resolved: bool = False) -> dict[str, Any]:
    """The open reports, oldest first (``resolved=true``: the newest resolved ones)."""
    rows = service.report_rows(s, resolved, ROWS_PER_PAGE)
    people = users_by_id(s, [r.reporter_id for r in rows])
    return {"reports": [{
        "id": r.id, "kind": r.target_kind, "target_id": r.target_id, "reason": r.reason,
        "reporter": user_ref(people[r.reporter_id]), "created_at": r.created_at,
        "resolved_at": r.resolved_at, "target": target_json(s, r.target_kind, r.target_id,
                                                            people)} for r in rows]}


def set_hidden(s: OrmSession, mod: User, kind: Kind, target: int, hidden: bool,
               note: str | None) -> dict[str, Any]:
    row: ForumPost | ForumThread | WorkshopEntry | None
    if kind == "post":
        row = s.get(ForumPost, target)
    elif kind == "thread":
        row = s.get(ForumThread, target)
    else:
        row = s.get(WorkshopEntry, target)
    if row is None:
        raise ServerError("server.mod.not_found", 404, kind=kind, id=target)
    if row.hidden != hidden:
        row.hidden = hidden
        if isinstance(row, ForumPost):
            t = s.get(ForumThread, row.thread_id)
            if t is not None:
                t.posts += -1 if hidden else 1
    if hidden:  # hiding answers the reports of it
        service.resolve_reports(s, mod, kind, target)
    log(s, mod, "hide" if hidden else "restore", kind, target, note)
    s.commit()
    return {"kind": kind, "id": target, "hidden": hidden}


def note_of(body: ModIn | None) -> str | None:
    if body is None or body.note is None or not body.note.strip():
        return None
    return bounded(body.note, "note", 500)


@router.post("/mod/{kind}/{target}/hide", response_model=ModDoneOut, tags=["moderation"])
def hide(kind: Kind, target: RowId, s: DB, mod: Moderator,
         body: ModIn | None = None) -> dict[str, Any]:
    """Hide a post, a thread or a workshop entry from everyone but moderators and its author
    (its open reports resolved); logged."""
    return set_hidden(s, mod, kind, target, True, note_of(body))


@router.post("/mod/{kind}/{target}/restore", response_model=ModDoneOut, tags=["moderation"])
def restore(kind: Kind, target: RowId, s: DB, mod: Moderator,
            body: ModIn | None = None) -> dict[str, Any]:
    """Show again what was hidden; logged."""
    return set_hidden(s, mod, kind, target, False, note_of(body))


def set_locked(s: OrmSession, mod: User, thread_id: int, locked: bool,
               note: str | None) -> dict[str, Any]:
    thread = s.get(ForumThread, thread_id)
    if thread is None:
        raise ServerError("server.mod.not_found", 404, kind="thread", id=thread_id)
    if thread.locked != locked:
        thread.locked = locked
        log(s, mod, "lock" if locked else "unlock", "thread", thread_id, note)
        s.commit()
    return {"id": thread_id, "locked": locked}


@router.post("/mod/thread/{target}/lock", response_model=LockDoneOut, tags=["moderation"])
def lock(target: RowId, s: DB, mod: Moderator, body: ModIn | None = None) -> dict[str, Any]:
    """Close a thread: it stays readable, and only moderators may reply in it; logged."""
    return set_locked(s, mod, target, True, note_of(body))


@router.post("/mod/thread/{target}/unlock", response_model=LockDoneOut, tags=["moderation"])
def unlock(target: RowId, s: DB, mod: Moderator, body: ModIn | None = None) -> dict[str, Any]:
    """Open a closed thread again; logged."""
    return set_locked(s, mod, target, False, note_of(body))


@router.post("/mod/reports/{report_id}/resolve", response_model=ReportDoneOut,
             tags=["moderation"])
def resolve(report_id: RowId, s: DB, mod: Moderator,
            body: ModIn | None = None) -> dict[str, Any]:
    """Close a report without hiding anything (it asked for nothing to be done); logged."""
    row = s.get(ForumReport, report_id)
    if row is None:
        raise ServerError("server.mod.no_report", 404, id=report_id)
    if row.resolved_at is None:
        row.resolved_at, row.resolved_by = now(), mod.id
        log(s, mod, "resolve", "report", report_id, note_of(body))
        s.commit()
    return {"id": report_id}


@router.get("/mod/log", response_model=LogPageOut, tags=["moderation"])
def mod_log(s: DB, _mod: Moderator,
            before: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None) -> dict[str, Any]:
    """Every moderator action, newest first, ``ROWS_PER_PAGE`` a page (``before``: the
    page older than that id)."""
    rows = service.log_rows(s, before, ROWS_PER_PAGE)
    people = users_by_id(s, [r.moderator_id for r in rows])
    return {"entries": [{
        "id": r.id, "action": r.action, "kind": r.target_kind, "target_id": r.target_id,
        "note": r.note, "created_at": r.created_at,
        "moderator": user_ref(people[r.moderator_id]) if r.moderator_id in people else None,
    } for r in rows], "next_before": rows[-1].id if len(rows) == ROWS_PER_PAGE else None}
