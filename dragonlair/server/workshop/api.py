"""The workshop's routes, under ``/api/workshop`` (docs/workshop.md).

- ``GET /entries``: browse and search (``game``, ``kind``, ``tag``, ``q``, ``sort`` newest,
  played or rated, ``offset``, ``limit``);
- ``POST /entries``: publish (registered accounts only, never guests);
- ``GET /entries/{id}``: the newest version (or ``?version=n``), its versions, balance report,
  votes, plays and wins;
- ``POST /entries/{id}/versions``: an edit publishes a new version (the author only);
- ``PUT /entries/{id}/vote``: 1 to 5 stars, one vote per account (a second replaces it);
- ``POST /entries/{id}/play``: a new table with the entry's content, answered as
  ``POST /api/tables`` answers.

A hidden entry (a moderator's decision) is, for everyone but its author and the moderators,
as if it did not exist: absent from lists and searches, 404 on its page and to play.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server import invites
from dragonlair.server import lobby_service as lobby
from dragonlair.server.accounts import DB, CurrentUser, optional_user
from dragonlair.server.db import GameTable, User, now
from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals
from dragonlair.server.lobby import SeatIn, hub_of
from dragonlair.server.markdown import render
from dragonlair.server.responses import NewTableOut, Out
from dragonlair.server.workshop import balance, content, search, service
from dragonlair.server.workshop.models import WorkshopEntry, WorkshopVersion, WorkshopVote

JSON = dict[str, Any]
router = APIRouter(prefix="/api/workshop", tags=["workshop"])

# --------------------------------------------------------------------------- limits
#: a title's length (characters, after trimming blanks)
MIN_TITLE, MAX_TITLE = 3, 80
#: a description's length (Markdown characters)
MAX_DESCRIPTION = 8000
#: tags per version, and a tag's length (lower-case letters, digits and ``-``)
MAX_TAGS, MAX_TAG = 8, 24
TAG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
#: a search query's length
MAX_QUERY = 200
#: new entries, and versions (new entries included), one account may publish in 24 hours
ENTRIES_PER_DAY = 10
VERSIONS_PER_DAY = 30
DAY = 24 * 3600.0
LANGS = ("en", "de", "both")
Kind = Literal["characters", "deck", "scoring", "variant"]


class VersionIn(BaseModel):
    """A version's text and content (the sizes are checked by the route, each with its own
    code: ``server.workshop.too_long`` and others)."""

    title: str
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    lang: Literal["en", "de", "both"] = "en"
    #: the option values the entry sets (docs/workshop.md, "Kinds")
    content: dict[str, Any]


class EntryIn(VersionIn):
    game: str = Field(min_length=1, max_length=64)
    kind: Kind


class VoteIn(BaseModel):
    stars: int = Field(ge=1, le=5)


class PlayIn(BaseModel):
    """A table with the entry: its version (default: the newest), its seats (as
    ``POST /api/tables`` takes them; none: the creator and open seats), and other options."""

    version: int | None = Field(default=None, ge=1)
    seats: list[SeatIn] | None = Field(default=None, min_length=1, max_length=16)
    #: other options of the table (``max_turns``...); the entry's own options win
    options: dict[str, Any] = Field(default_factory=dict, max_length=16)


class AuthorOut(Out):
    id: int
    name: str


class EntryCardOut(Out):
    """An entry as a list shows it: its newest version's title and tags."""

    id: int
    game: str
    kind: str
    author: AuthorOut
    title: str
    tags: list[str]
    lang: str
    version: int
    created_at: float
    updated_at: float
    plays: int
    wins: int
    votes: int
    rating: float | None = Field(description="the mean of the stars (1-5), null without votes")
    hidden: bool


class EntryListOut(Out):
    entries: list[EntryCardOut]
    offset: int
    limit: int


class VersionInfoOut(Out):
    version: int
    title: str
    created_at: float


class EntryOut(EntryCardOut):
    """An entry with one version in full (``version``; ``latest`` the newest)."""

    latest: int
    description: str = Field(description="the Markdown as written")
    description_html: str = Field(description="the Markdown as sanitised HTML")
    content: dict[str, Any]
    balance: dict[str, Any] | None
    balance_status: str
    versions: list[VersionInfoOut]
    my_vote: int | None
    mine: bool


# --------------------------------------------------------------------------- checks
def _registered(user: User) -> None:
    if user.is_guest:
        raise ServerError("server.workshop.guest", 403)


def _text(title: str, description: str, tags: list[str]) -> tuple[str, str, list[str]]:
    """The title, description and tags checked and tidied (tags lower-case, unique)."""
    title = " ".join(title.split())
    if len(title) > MAX_TITLE:
        raise ServerError("server.workshop.too_long", 422, field="title", max=MAX_TITLE)
    if len(title) < MIN_TITLE:
        raise ServerError("server.workshop.too_short", 422, field="title", min=MIN_TITLE)
    if len(description) > MAX_DESCRIPTION:
        raise ServerError("server.workshop.too_long", 422, field="description",
                          max=MAX_DESCRIPTION)
    if len(tags) > MAX_TAGS:
        raise ServerError("server.workshop.too_many_tags", 422, max=MAX_TAGS)
    out: list[str] = []
    for tag in tags:
        if len(tag) > MAX_TAG:
            raise ServerError("server.workshop.too_long", 422, field="tags", max=MAX_TAG)
        tag = tag.strip().lower()
        if not TAG.match(tag):
            raise ServerError("server.workshop.bad_tag", 422, max=MAX_TAG)
        if tag not in out:
            out.append(tag)
    return title, description, out


def _daily(s: OrmSession, user: User, new_entry: bool) -> None:
    """Refuse an account that published its day's share (429 ``server.workshop.daily_*``)."""
    since = now() - DAY
    if new_entry:
        made = s.scalar(select(func.count()).select_from(WorkshopEntry).where(
            WorkshopEntry.author_id == user.id, WorkshopEntry.created_at > since)) or 0
        if made >= ENTRIES_PER_DAY:
            raise ServerError("server.workshop.daily_entries", 429, limit=ENTRIES_PER_DAY)
    versions = s.scalar(select(func.count()).select_from(WorkshopVersion).join(
        WorkshopEntry, WorkshopEntry.id == WorkshopVersion.entry_id).where(
        WorkshopEntry.author_id == user.id, WorkshopVersion.created_at > since)) or 0
    if versions >= VERSIONS_PER_DAY:
        raise ServerError("server.workshop.daily_versions", 429, limit=VERSIONS_PER_DAY)


def _may_see(entry: WorkshopEntry, user: User | None) -> bool:
    return not entry.hidden or (user is not None and (user.is_moderator
                                                       or user.id == entry.author_id))


def _entry(s: OrmSession, entry_id: int, user: User | None) -> WorkshopEntry:
    entry = s.get(WorkshopEntry, entry_id)
    if entry is None or not _may_see(entry, user):
        raise ServerError("server.workshop.not_found", 404, entry=entry_id)
    return entry


def _version(s: OrmSession, entry: WorkshopEntry, number: int | None) -> WorkshopVersion:
    row = s.scalar(select(WorkshopVersion).where(
        WorkshopVersion.entry_id == entry.id,
        WorkshopVersion.version == (entry.latest if number is None else number)))
    if row is None:
        raise ServerError("server.workshop.version_not_found", 404, entry=entry.id,
                          version=number)
    return row


# --------------------------------------------------------------------------- answers
def _card(entry: WorkshopEntry, version: WorkshopVersion, author: str) -> JSON:
    return {"id": entry.id, "game": entry.game, "kind": entry.kind,
            "author": {"id": entry.author_id, "name": author}, "title": version.title,
            "tags": list(version.tags), "lang": version.lang, "version": version.version,
            "created_at": entry.created_at, "updated_at": entry.updated_at,
            "plays": entry.plays, "wins": entry.wins, "votes": entry.votes,
            "rating": round(entry.vote_sum / entry.votes, 2) if entry.votes else None,
            "hidden": entry.hidden}


def _author(s: OrmSession, user_id: int) -> str:
    return s.scalar(select(User.display_name).where(User.id == user_id)) or "?"


def entry_json(s: OrmSession, entry: WorkshopEntry, version: WorkshopVersion,
               user: User | None) -> JSON:
    versions = s.execute(select(WorkshopVersion.version, WorkshopVersion.title,
                                WorkshopVersion.created_at)
                         .where(WorkshopVersion.entry_id == entry.id)
                         .order_by(WorkshopVersion.version)).all()
    mine = s.scalar(select(WorkshopVote.stars).where(
        WorkshopVote.entry_id == entry.id,
        WorkshopVote.user_id == user.id)) if user is not None else None
    return {**_card(entry, version, _author(s, entry.author_id)),
            "latest": entry.latest, "description": version.description,
            "description_html": render(version.description), "content": version.content,
            "balance": version.balance, "balance_status": version.balance_status,
            "versions": [{"version": v, "title": t, "created_at": c} for v, t, c in versions],
            "my_vote": mine, "mine": user is not None and user.id == entry.author_id}


# --------------------------------------------------------------------------- routes
@router.get("/entries", response_model=EntryListOut)
def list_entries(
        request: Request, s: DB,
        game: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
        kind: Annotated[Kind | None, Query()] = None,
        tag: Annotated[str | None, Query(min_length=1, max_length=MAX_TAG)] = None,
        q: Annotated[str | None, Query(max_length=MAX_QUERY)] = None,
        sort: Annotated[Literal["newest", "played", "rated"], Query()] = "newest",
        offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
        limit: Annotated[int, Query(ge=1, le=100)] = 24) -> JSON:
    """Entries by their newest version, a page of ``limit`` from ``offset``: of one
    ``game``, ``kind`` or ``tag``, matching the words of ``q`` (title, description, tags),
    newest first, most played, or best rated (the mean of the stars, as if every entry had two
    more votes of 3 stars, so that one 5-star vote does not lead)."""
    user = optional_user(request, s)
    rows = service.list_entries(s, user, game, kind, tag, q, sort, offset, limit)
    return {"entries": [_card(e, v, name) for e, v, name in rows], "offset": offset,
            "limit": limit}


@router.post("/entries", status_code=201, response_model=EntryOut,
             responses=refusals(403, 422, 429))
def publish(body: EntryIn, request: Request, user: CurrentUser, s: DB) -> JSON:
    """Publish a new entry: its first version (registered accounts only; each field's size
    and the entries of a day are bounded: docs/workshop.md, "Limits")."""
    _registered(user)
    title, description, tags = _text(body.title, body.description, body.tags)
    checked = content.check(body.game, body.kind, body.content)
    _daily(s, user, new_entry=True)
    at = now()
    entry = WorkshopEntry(game=body.game, kind=body.kind, author_id=user.id, created_at=at,
                          updated_at=at, latest=1, hidden=False, plays=0, wins=0, votes=0,
                          vote_sum=0)
    s.add(entry)
    s.flush()
    version = _add_version(s, entry, 1, title, description, tags, body.lang, checked, at)
    s.commit()
    _schedule(request, entry, version)
    return entry_json(s, entry, version, user)


@router.get("/entries/{entry_id}", response_model=EntryOut, responses=refusals(404))
def show(entry_id: Annotated[int, Path(ge=1, le=2**31 - 1)], request: Request, s: DB,
         version: Annotated[int | None, Query(ge=1, le=100_000)] = None) -> JSON:
    """An entry with its newest version (or ``version``) in full."""
    user = optional_user(request, s)
    entry = _entry(s, entry_id, user)
    return entry_json(s, entry, _version(s, entry, version), user)


@router.post("/entries/{entry_id}/versions", status_code=201, response_model=EntryOut,
             responses=refusals(403, 404, 422, 429))
def new_version(entry_id: Annotated[int, Path(ge=1, le=2**31 - 1)], body: VersionIn,
                request: Request, user: CurrentUser, s: DB) -> JSON:
    """An edit: a new version of one's own entry (the old ones stay as they were)."""
    _registered(user)
    entry = _entry(s, entry_id, user)
    if entry.author_id != user.id:
        raise ServerError("server.workshop.not_author", 403)
    title, description, tags = _text(body.title, body.description, body.tags)
    checked = content.check(entry.game, entry.kind, body.content)
    _daily(s, user, new_entry=False)
    at = now()
    entry.latest += 1
    entry.updated_at = at
    version = _add_version(s, entry, entry.latest, title, description, tags, body.lang,
                           checked, at)
    s.commit()
    _schedule(request, entry, version)
    return entry_json(s, entry, version, user)


@router.put("/entries/{entry_id}/vote", response_model=EntryOut,
            responses=refusals(403, 404))
def vote(entry_id: Annotated[int, Path(ge=1, le=2**31 - 1)], body: VoteIn, request: Request,
         user: CurrentUser, s: DB) -> JSON:
    """One's stars for an entry (1-5): one vote per account, a second replaces the first;
    not for one's own entries, not as a guest."""
    _registered(user)
    entry = _entry(s, entry_id, user)
    if entry.author_id == user.id:
        raise ServerError("server.workshop.own_entry", 403)
    row = service.vote_of(s, entry.id, user.id)
    if row is None:
        s.add(WorkshopVote(entry_id=entry.id, user_id=user.id, stars=body.stars))
    else:
        row.stars, row.created_at = body.stars, now()
    s.flush()
    entry.votes, entry.vote_sum = service.vote_totals(s, entry.id)
    s.commit()
    return entry_json(s, entry, _version(s, entry, None), user)


@router.post("/entries/{entry_id}/play", status_code=201, response_model=NewTableOut,
             response_model_exclude_unset=True, responses=refusals(404, 422, 429))
def play(entry_id: Annotated[int, Path(ge=1, le=2**31 - 1)], body: PlayIn, request: Request,
         user: CurrentUser, s: DB) -> JSON:
    """A new table with the entry's content (its ``version``, default the newest) as its
    options, for everyone at it to see (the table's ``workshop``)."""
    entry = _entry(s, entry_id, user)
    version = _version(s, entry, body.version)
    seats = None if body.seats is None else [(seat.kind, seat.bot) for seat in body.seats]
    ref = {"entry": entry.id, "version": version.version, "title": version.title,
           "kind": entry.kind}
    out, tokens = lobby.create_table(
        s, user.id, entry.game, {**body.options, **version.content}, seats, False, None, None,
        None,
        request.app.state.settings, hub_of(request).clock, workshop=ref)
    out["invites"] = [invites.invite_json(request, out["id"], i, t) for i, t in tokens]
    return out


class PreviewIn(BaseModel):
    description: str


class PreviewOut(Out):
    html: str


@router.post("/preview", response_model=PreviewOut, responses=refusals(422))
def preview(body: PreviewIn) -> JSON:
    """A description's Markdown as the entry's page will show it (sanitised HTML), for the
    publishing form's preview; nothing is stored."""
    if len(body.description) > MAX_DESCRIPTION:
        raise ServerError("server.workshop.too_long", 422, field="description",
                          max=MAX_DESCRIPTION)
    return {"html": render(body.description)}


# --------------------------------------------------------------------------- helpers
def _add_version(s: OrmSession, entry: WorkshopEntry, number: int, title: str,
                 description: str, tags: list[str], lang: str, checked: JSON,
                 at: float) -> WorkshopVersion:
    tags_text = "".join(f" {t} " for t in tags) or " "
    version = WorkshopVersion(entry_id=entry.id, version=number, title=title,
                              description=description, tags=tags, tags_text=tags_text,
                              lang=lang, content=checked, balance=None,
                              balance_status="pending", created_at=at)
    s.add(version)
    s.flush()
    search.index_entry(s, entry.id, title, description, tags_text)
    return version


def _schedule(request: Request, entry: WorkshopEntry, version: WorkshopVersion) -> None:
    balance.schedule(request.app.state.sessions, version.id, entry.game, entry.kind,
                     dict(version.content))


def finished(s: OrmSession, table: GameTable, result: JSON) -> None:
    """A table made from an entry finished (in the caller's transaction): the entry was
    played once more, and won by a person when a person's seat placed first."""
    ref = table.workshop
    if not isinstance(ref, dict) or not isinstance(ref.get("entry"), int):
        return
    entry = s.get(WorkshopEntry, ref["entry"])
    if entry is None:
        return
    entry.plays += 1
    placings = result.get("placings")
    if isinstance(placings, list):
        from dragonlair.server.db import Seat

        people = set(s.scalars(select(Seat.seat).where(Seat.table_id == table.id,
                                                       Seat.kind == "human")))
        if any(placings[i] == 1 for i in people if i < len(placings)):
            entry.wins += 1

