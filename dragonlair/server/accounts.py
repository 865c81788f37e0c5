"""Accounts: guests in one step, registered users (argon2), sessions as opaque tokens.

The session cookie holds a random token (HttpOnly, SameSite=Lax, Secure behind TLS); the
database stores only its SHA-256, so a leaked database opens no session. Passwords are hashed
with argon2id and never logged: request bodies are not logged, and validation errors are
answered without the values that failed (:func:`dragonlair.server.app.create_app`).

Bot accounts (after lichess's bot API): ``register`` with ``"bot": true`` (or
``POST /api/bot/account/upgrade`` before any game) makes an account a bot's; a registered
account makes personal API tokens (``POST /api/auth/tokens``, shown once, stored as SHA-256)
and sends one as ``Authorization: Bearer <token>`` on the lobby and on the WebSocket upgrade,
where a browser would send its session cookie (docs/remote-bots.md).
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from collections.abc import AsyncGenerator
from typing import Annotated, Any

import anyio
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field
from sqlalchemy import Select, bindparam, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server import names, throttle
from dragonlair.server.db import ApiToken, Seat, Session, User, now
from dragonlair.server.errors import ServerError
from dragonlair.server.responses import AccountOut, ApiTokenOut, NewApiTokenOut, OkOut

COOKIE = "dragonlair_session"
#: the prefix of a personal API token (a session token never has it)
API_TOKEN_PREFIX = "dlb_"
#: API tokens one account may hold
MAX_API_TOKENS = 20
USERNAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


@functools.cache
def _hasher_of(cost: tuple[int, int, int] | None) -> PasswordHasher:
    """The argon2id hasher of a cost (``Settings.argon2_cost``; ``None``: the defaults)."""
    if cost is None:
        return PasswordHasher()
    passes, memory_kib, lanes = cost
    return PasswordHasher(time_cost=passes, memory_cost=memory_kib, parallelism=lanes)


@functools.cache
def _dummy_hash(hasher: PasswordHasher) -> str:
    """Verified against when a username is unknown, so that a login takes as long either
    way (made at the server's first login, whoever it is for: not at import, where it
    cost every process that imports the server a hash)."""
    return hasher.hash("not a password of anyone")


def hasher(request: Request) -> PasswordHasher:
    """The server's password hasher (argon2-cffi's defaults unless the settings say)."""
    return _hasher_of(request.app.state.settings.argon2_cost)


router = APIRouter(prefix="/api", tags=["accounts"])


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


async def db(request: Request) -> AsyncGenerator[OrmSession, None]:
    """A database session for one request, closed after it. An ``async`` dependency: opening
    a session does no I/O (it connects at its first statement, in the thread that runs the
    statement), so neither end needs a hop to FastAPI's thread pool, each of which cost an
    authenticated request about 0.2 ms of CPU (bench/README.md, "The sixth day"). Closing
    ends its transaction: on SQLite a local call, made here; a PostgreSQL session's close
    (a ROLLBACK round trip) runs in the thread pool, off the event loop, shielded from the
    request's cancellation (a client gone) so that the connection goes back to the pool."""
    sessions = request.app.state.sessions
    session: OrmSession = sessions()
    try:
        yield session
    finally:
        if session.in_transaction() and not _local(sessions):
            with anyio.CancelScope(shield=True):
                await run_in_threadpool(session.close)
        else:
            session.close()


def _local(sessions: Any) -> bool:
    """Whether the sessions' database is SQLite (in this process: no round trip)."""
    bind = sessions.kw.get("bind")
    return bind is None or bind.dialect.name == "sqlite"


DB = Annotated[OrmSession, Depends(db)]


def _token_queries(what: Any) -> tuple[Select[Any], Select[Any]]:
    """The queries of ``what`` (the user, or columns of it) by a personal API token's hash
    (``h``), and by a session token's hash and the time now (``h``, ``now``): built once,
    as statements built per request cost each request their construction and cache key."""
    by_api = select(what).join(ApiToken, ApiToken.user_id == User.id).where(
        ApiToken.token_hash == bindparam("h"))
    by_session = select(what).join(Session, Session.user_id == User.id).where(
        Session.token_hash == bindparam("h"), Session.expires_at >= bindparam("now"))
    return by_api, by_session


_USER_BY_TOKEN = _token_queries(User)
_ID_BY_TOKEN = _token_queries(User.id)


def _by_token(session: OrmSession, queries: tuple[Select[Any], Select[Any]],
              token: str | None) -> Any:
    """What ``queries`` (:func:`_token_queries`) select of the user a session token or a
    personal API token (``dlb_...``) belongs to, one statement; ``None``: no token, unknown
    or expired."""
    if not token or len(token) > 128:
        return None
    if token.startswith(API_TOKEN_PREFIX):
        return session.scalar(queries[0], {"h": token_hash(token)})
    return session.scalar(queries[1], {"h": token_hash(token), "now": now()})


def user_from_token(session: OrmSession, token: str | None) -> User | None:
    """The user a session token or a personal API token (``dlb_...``) belongs to (``None``:
    no token, unknown or expired)."""
    user: User | None = _by_token(session, _USER_BY_TOKEN, token)
    return user


def user_id_from_token(session: OrmSession, token: str | None) -> int | None:
    """:func:`user_from_token`'s user's id, without loading the user (a WebSocket's
    greeting asks only this)."""
    user_id: int | None = _by_token(session, _ID_BY_TOKEN, token)
    return user_id


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, else ``None``."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def request_token(cookies: Any, headers: Any) -> str | None:
    """The credential a request (or a WebSocket upgrade) carries: the session cookie, else
    a bearer token (a remote bot's API token)."""
    token: str | None = cookies.get(COOKIE)
    return token or bearer(headers.get("authorization"))


def current_user(request: Request, session: DB) -> User:
    user = user_from_token(session, request_token(request.cookies, request.headers))
    if user is None:
        raise ServerError("server.auth.required", 401)
    return user


def optional_user(request: Request, session: DB) -> User | None:
    return user_from_token(session, request_token(request.cookies, request.headers))


CurrentUser = Annotated[User, Depends(current_user)]


def start_session(request: Request, response: Response, session: OrmSession,
                  user: User) -> None:
    settings = request.app.state.settings
    token = secrets.token_urlsafe(32)
    max_age = settings.session_days * 86400
    session.add(Session(token_hash=token_hash(token), user_id=user.id,
                        expires_at=now() + max_age))
    session.commit()
    response.set_cookie(COOKIE, token, max_age=max_age, httponly=True, samesite="lax",
                        secure=settings.cookie_secure or request.url.scheme == "https",
                        path="/")


def user_json(user: User) -> dict[str, Any]:
    """The account as ``/api/me`` tells it; ``profile`` is where its profile is
    (``/api/users/{profile}``: the username, or ``@<id>`` for a guest, whose username is an
    internal handle that no screen shows)."""
    return {"id": user.id, "username": user.username, "display_name": user.display_name,
            "guest": user.is_guest, "bot": bool(user.is_bot),
            "moderator": bool(user.is_moderator),
            "profile": f"@{user.id}" if user.is_guest else user.username}


class GuestIn(BaseModel):
    display_name: str | None = Field(default=None, min_length=1, max_length=40)
    #: the language of a generated name (else the request's ``Accept-Language``)
    lang: str | None = Field(default=None, max_length=16)


class RegisterIn(BaseModel):
    username: str = Field(min_length=3, max_length=32)
    #: at least :data:`MIN_PASSWORD` characters (else ``server.auth.weak_password``)
    password: str = Field(min_length=1, max_length=256)
    display_name: str | None = Field(default=None, min_length=1, max_length=40)
    #: a bot account: it plays through the WebSocket protocol (docs/remote-bots.md)
    bot: bool = False


class LoginIn(BaseModel):
    username: str = Field(min_length=1, max_length=32)
    password: str = Field(min_length=1, max_length=256)


def clean_name(text: str) -> str:
    """A display name without control characters or surrounding blanks."""
    name = "".join(ch for ch in text if ch.isprintable()).strip()
    if not name:
        raise ServerError("server.auth.bad_display_name", 422)
    return name


def name_count(name: str) -> Select[int]:
    """How many accounts have this display name, letter case aside (by the index
    ``ix_users_display_name_lower``, migration 0013)."""
    return (select(func.count()).select_from(User)
            .where(func.lower(User.display_name) == name.lower()))


def name_taken(session: OrmSession, name: str) -> bool:
    """Whether an account has this display name (letter case aside)."""
    return session.scalar(name_count(name)) != 0


@router.post("/auth/guest", response_model=AccountOut)
def guest(body: GuestIn, request: Request, response: Response, session: DB) -> dict[str, Any]:
    """Play as a guest: one step, a session cookie, no password. Without a ``display_name``
    the guest gets a friendly one nobody has (an adjective and a creature, in ``lang`` or the
    ``Accept-Language`` of the request: dragonlair/server/names.py); the username stays an
    internal handle that no screen shows."""
    throttle.of_request(request).new_guest(throttle.client_address(request))
    handle = f"guest-{secrets.token_hex(5)}"
    if body.display_name is not None:
        display = clean_name(body.display_name)
    else:
        lang = names.language(body.lang, request.headers.get("accept-language"))
        display = names.unique_name(lang, lambda name: name_taken(session, name))
    user = User(username=handle, display_name=display, password_hash=None, is_guest=True)
    session.add(user)
    session.flush()  # its id for the session; one commit for both
    start_session(request, response, session, user)
    return user_json(user)


@router.post("/auth/register", response_model=AccountOut)
def register(body: RegisterIn, request: Request, response: Response,
             session: DB) -> dict[str, Any]:
    """A new account (argon2id hash of the password) and a session. Signed in as a guest,
    the guest's own account becomes the registered one (its games, seats and ratings stay
    with it; it keeps its display name unless ``display_name`` is given), and the session
    token is replaced."""
    throttle.of_request(request).new_registration(throttle.client_address(request))
    if not USERNAME.match(body.username) or body.username.lower().startswith("guest-"):
        raise ServerError("server.auth.bad_username", 422)
    check_password(body.password)
    display = clean_name(body.display_name) if body.display_name is not None else None
    current = optional_user(request, session)
    if current is not None and current.is_guest:
        user = current
        if body.bot and (session.scalar(select(func.count()).select_from(Seat)
                                        .where(Seat.user_id == user.id)) or 0):
            raise ServerError("server.auth.bot_has_games", 409)
        user.username = body.username
        user.password_hash = hasher(request).hash(body.password)
        user.is_guest = False
        user.is_bot = body.bot
        if display is not None:
            user.display_name = display
    else:
        user = User(username=body.username, display_name=display or body.username,
                    password_hash=hasher(request).hash(body.password), is_guest=False,
                    is_bot=body.bot)
        session.add(user)
    try:
        if user is current:
            end_session(request, session)  # the guest's token: a new one follows
        session.commit()
    except IntegrityError:
        session.rollback()
        raise ServerError("server.auth.username_taken", 409) from None
    start_session(request, response, session, user)
    return user_json(user)


@router.post("/auth/login", response_model=AccountOut)
def login(body: LoginIn, request: Request, response: Response, session: DB) -> dict[str, Any]:
    """A session for a registered account. After repeated failures, per account and per
    client address, ``429 server.auth.throttled`` before the password is looked at
    (dragonlair/server/throttle.py)."""
    limiter, address = throttle.of_request(request), throttle.client_address(request)
    limiter.check_login(body.username, address)
    user = session.scalar(select(User).where(User.username == body.username))
    stored = user.password_hash if user is not None else None
    argon2 = hasher(request)
    dummy = _dummy_hash(argon2)  # made before the lookup's result matters: no timing tell
    try:
        argon2.verify(stored or dummy, body.password)
        ok = stored is not None
    except (VerificationError, InvalidHashError):
        ok = False
    if not ok or user is None:
        limiter.login_failed(body.username, address)
        raise ServerError("server.auth.bad_credentials", 401)
    limiter.login_succeeded(body.username)
    if stored is not None and argon2.check_needs_rehash(stored):
        user.password_hash = argon2.hash(body.password)
    start_session(request, response, session, user)
    return user_json(user)


def end_session(request: Request, session: OrmSession) -> None:
    """Forget the request's session token, a cookie's or a bearer one (not committed
    here; an API token stays: it is revoked by its own route)."""
    token = request_token(request.cookies, request.headers)
    if token and len(token) <= 128:
        session.execute(delete(Session).where(Session.token_hash == token_hash(token)))


@router.post("/auth/logout", response_model=OkOut)
def logout(request: Request, response: Response, session: DB) -> dict[str, Any]:
    end_session(request, session)
    session.commit()
    response.delete_cookie(COOKIE, path="/")
    return {"ok": True}


@router.get("/me", response_model=AccountOut)
def me(user: CurrentUser, request: Request, session: DB) -> dict[str, Any]:
    """The signed-in account. A guest made before guests had friendly names (its display
    name is its handle) gets one now, in the request's language."""
    if user.is_guest and user.display_name == user.username:
        lang = names.language(None, request.headers.get("accept-language"))
        user.display_name = names.unique_name(lang, lambda name: name_taken(session, name))
        session.commit()
    return user_json(user)


class MeIn(BaseModel):
    display_name: str = Field(min_length=1, max_length=40)


class PasswordIn(BaseModel):
    current: str = Field(min_length=1, max_length=256)
    new: str = Field(min_length=1, max_length=256)


#: the shortest password an account may have
MIN_PASSWORD = 8


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise ServerError("server.auth.weak_password", 422, min=MIN_PASSWORD)


@router.patch("/me", response_model=AccountOut)
def rename(body: MeIn, request: Request, user: CurrentUser, session: DB) -> dict[str, Any]:
    """Change the account's display name (guests too). The seats of tables this process
    holds take it at once (their next welcome carries it); others read it when loaded."""
    user.display_name = clean_name(body.display_name)
    session.commit()
    hub = getattr(request.app.state, "hub", None)
    for runtime in list(getattr(hub, "tables", {}).values()):
        for seat in getattr(runtime, "seats", []):
            if seat.user_id == user.id and seat.kind == "human":
                seat.name = user.display_name
    return user_json(user)


@router.post("/me/password", response_model=OkOut)
def change_password(body: PasswordIn, request: Request, user: CurrentUser,
                    session: DB) -> dict[str, Any]:
    """Change a registered account's password: the current one must be given; every other
    session of the account ends (this one stays signed in)."""
    if user.is_guest or user.password_hash is None:
        raise ServerError("server.auth.guest_no_password", 403)
    # a wrong current password counts as a failed login (the same throttle, checked before
    # argon2 runs): a stolen session cannot guess the password at full speed
    limiter, address = throttle.of_request(request), throttle.client_address(request)
    limiter.check_login(user.username, address)
    try:
        hasher(request).verify(user.password_hash, body.current)
    except (VerificationError, InvalidHashError):
        limiter.login_failed(user.username, address)
        raise ServerError("server.auth.wrong_password", 403) from None
    check_password(body.new)
    user.password_hash = hasher(request).hash(body.new)
    keep = request_token(request.cookies, request.headers)
    session.execute(delete(Session).where(Session.user_id == user.id,
                                          Session.token_hash != token_hash(keep or "")))
    session.commit()
    return {"ok": True}


# ---------------------------------------------------------------- bot accounts, API tokens
class TokenIn(BaseModel):
    name: str = Field(default="api", min_length=1, max_length=40)


def token_json(row: ApiToken) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "created_at": row.created_at}


@router.post("/auth/tokens", status_code=201, tags=["bots"],
             response_model=NewApiTokenOut)
def create_token(body: TokenIn, user: CurrentUser, session: DB) -> dict[str, Any]:
    """A personal API token for ``Authorization: Bearer``: shown in this answer only (the
    database keeps its SHA-256). Registered accounts only; at most 20 each."""
    if user.is_guest:
        raise ServerError("server.auth.guest_no_token", 403)
    held = session.scalar(select(func.count()).select_from(ApiToken)
                          .where(ApiToken.user_id == user.id)) or 0
    if held >= MAX_API_TOKENS:
        raise ServerError("server.auth.too_many_tokens", 409, limit=MAX_API_TOKENS)
    token = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(token_hash=token_hash(token), user_id=user.id, name=clean_name(body.name))
    session.add(row)
    session.commit()
    return {**token_json(row), "token": token}


@router.get("/auth/tokens", tags=["bots"], response_model=list[ApiTokenOut])
def list_tokens(user: CurrentUser, session: DB) -> list[dict[str, Any]]:
    """The account's API tokens (never the tokens themselves)."""
    rows = session.scalars(select(ApiToken).where(ApiToken.user_id == user.id)
                           .order_by(ApiToken.id)).all()
    return [token_json(row) for row in rows]


@router.delete("/auth/tokens/{token_id}", tags=["bots"], response_model=OkOut)
def revoke_token(token_id: Annotated[int, Path(ge=1, le=2**62)], user: CurrentUser,
                 session: DB) -> dict[str, Any]:
    """Revoke one of the account's API tokens."""
    done = session.execute(delete(ApiToken).where(ApiToken.id == token_id,
                                                  ApiToken.user_id == user.id))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise ServerError("server.auth.token_not_found", 404, token=token_id)
    session.commit()
    return {"ok": True}


@router.post("/bot/account/upgrade", tags=["bots"], response_model=AccountOut)
def upgrade_to_bot(user: CurrentUser, session: DB) -> dict[str, Any]:
    """Make a registered account a bot account (as lichess does: only before it has sat at
    any table; a bot account stays one)."""
    if user.is_guest:
        raise ServerError("server.auth.guest_no_token", 403)
    if not user.is_bot:
        seated = session.scalar(select(func.count()).select_from(Seat)
                                .where(Seat.user_id == user.id)) or 0
        if seated:
            raise ServerError("server.auth.bot_has_games", 409)
        user.is_bot = True
        session.commit()
    return user_json(user)
