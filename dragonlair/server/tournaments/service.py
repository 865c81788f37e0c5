"""Tournaments in the database (docs/tournaments.md): create, join, withdraw, show; the finish
hook (a tournament's table finished: its result counted in the same transaction); one step
of the runner for one tournament (start, withdraw the absent, pair, advance, end); claims.

Each function takes an ORM session and commits what it changes (except :func:`record_finish`,
which runs in the caller's transaction). The pairing itself is pure
(:mod:`~dragonlair.server.tournaments.arena`, :mod:`~dragonlair.server.tournaments.swiss`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session as OrmSession

from dragonlair.core.errors import DragonlairError
from dragonlair.server.db import GameTable, Rating, Seat, User
from dragonlair.server.errors import ServerError
from dragonlair.server.tournaments import arena, swiss
from dragonlair.server.tournaments.models import Tournament, TournamentGame, TournamentPlayer
from dragonlair.server.tournaments.scoring import (
    arena_score,
    max_points,
    placing_points,
    wins,
)
from dragonlair.server.tournaments.standings import (
    GameResult,
    Totals,
    ranking,
    recompute,
)

JSON = dict[str, Any]
KINDS = ("arena", "swiss")
ACTIVE = ("scheduled", "running")


@dataclass(slots=True)
class Limits:
    """What a tournament may be (docs/tournaments.md, "Limits"); tests shorten them."""

    arena_min_s: float = 5 * 60.0
    arena_max_s: float = 180 * 60.0
    rounds_min: int = 1
    rounds_max: int = 11
    #: tournaments scheduled or running that one person (not a moderator) may have created
    active_per_user: int = 2
    #: how far ahead a person may schedule one (a moderator: ``schedule_ahead_admin_s``)
    schedule_ahead_s: float = 60 * 60.0
    schedule_ahead_admin_s: float = 30 * 24 * 3600.0
    #: a player neither on the tournament's page nor at one of its tables for this long,
    #: while not playing, is withdrawn
    absent_s: float = 60.0
    #: an arena's leftover players play with bots (where allowed) after waiting this long
    bot_wait_s: float = 10.0
    #: two players who just met are paired again at once only after waiting this long
    rematch_wait_s: float = 10.0
    max_players: int = 500


LIMITS = Limits()


def new_id() -> str:
    from dragonlair.server.lobby_service import new_table_id

    return new_table_id()


def get(s: OrmSession, tournament_id: str) -> Tournament:
    t = s.get(Tournament, tournament_id) if len(tournament_id) <= 32 else None
    if t is None:
        raise ServerError("server.tournament.not_found", 404, tournament=tournament_id[:32])
    return t


# ---------------------------------------------------------------------- create
def create(s: OrmSession, user: User, *, game: str, kind: str, name: str, rated: bool,
           table_size: int | None, bots: bool, options: JSON, clock: JSON | None,
           bot: str | None,
           starts_in_s: float, minutes: float | None, rounds: int | None,
           at: float) -> JSON:
    """A new tournament (registered people; the limits of :data:`LIMITS`)."""
    from dragonlair.games import game_ids, make_game, plugin

    if user.is_guest:
        raise ServerError("server.tournament.registered_only", 403)
    if game not in game_ids():
        raise ServerError("core.game.unknown", 422, game=game, known=game_ids())
    if kind not in KINDS:
        raise ServerError("server.tournament.kind", 422, kind=kind[:16])
    name = " ".join(name.split())
    if not name or len(name) > 80:
        raise ServerError("server.tournament.name", 422, max=80)
    info = plugin(game).info
    size = table_size or info.min_players
    if not info.min_players <= size <= info.max_players:
        raise ServerError("server.tournament.table_size", 422, size=size,
                          min=info.min_players, max=info.max_players)
    admin = bool(user.is_moderator)
    ahead = LIMITS.schedule_ahead_admin_s if admin else LIMITS.schedule_ahead_s
    if not 0 <= starts_in_s <= ahead:
        raise ServerError("server.tournament.starts", 422, max_minutes=int(ahead // 60))
    ends_at: float | None = None
    if kind == "arena":
        seconds = (minutes or 0.0) * 60.0
        if not LIMITS.arena_min_s <= seconds <= LIMITS.arena_max_s:
            raise ServerError("server.tournament.duration", 422,
                              min=LIMITS.arena_min_s / 60, max=LIMITS.arena_max_s / 60)
        ends_at = at + starts_in_s + seconds
        rounds = None
    elif rounds is None or not LIMITS.rounds_min <= rounds <= LIMITS.rounds_max:
        raise ServerError("server.tournament.rounds", 422, min=LIMITS.rounds_min,
                          max=LIMITS.rounds_max)
    from dragonlair.bots import bot_names

    if bot is not None and bot not in bot_names(game):
        raise ServerError("server.table.unknown_bot", 422, bot=bot[:64], known=bot_names(game))
    if clock is not None and clock.get("kind") == "turn":
        raise ServerError("server.tournament.clock", 422)
    table_options = dict(options)
    if any(spec.name == "players" for spec in info.options):
        table_options["players"] = size
    try:
        made = make_game(game, table_options)
    except DragonlairError as exc:
        raise ServerError(exc.code, 422, **exc.params) from None
    if not admin:
        active = s.scalar(select(func.count()).select_from(Tournament).where(
            Tournament.created_by == user.id, Tournament.status.in_(ACTIVE))) or 0
        if active >= LIMITS.active_per_user:
            raise ServerError("server.tournament.too_many", 429,
                              limit=LIMITS.active_per_user)
    t = Tournament(id=new_id(), game=game, kind=kind, name=name, rated=rated,
                   options={"table": made.record_options(), "size": size, "bots": bots,
                            "bot": bot or plugin(game).default_bot, "clock": clock},
                   status="scheduled", starts_at=at + starts_in_s, ends_at=ends_at,
                   rounds=rounds, current_round=0, created_by=user.id, created_at=at,
                   owner="", expires_at=0.0)
    s.add(t)
    s.commit()
    return summary(s, t)


# ------------------------------------------------------------- join, withdraw
def join(s: OrmSession, tournament_id: str, user: User, at: float) -> None:
    t = get(s, tournament_id)
    if t.status == "finished" or (t.kind == "swiss" and t.status != "scheduled"):
        raise ServerError("server.tournament.closed", 409, status=t.status)
    if t.kind == "arena" and t.ends_at is not None and at >= t.ends_at:
        raise ServerError("server.tournament.closed", 409, status="ending")
    row = s.scalar(select(TournamentPlayer).where(
        TournamentPlayer.tournament_id == t.id, TournamentPlayer.user_id == user.id))
    if row is not None:  # joining again after a withdrawal: back in the queue
        if row.withdrawn:
            row.withdrawn = False
            row.waiting_since = None if playing(s, t.id, user.id) else at
        row.seen_at = at
        s.commit()
        return
    count = s.scalar(select(func.count()).select_from(TournamentPlayer).where(
        TournamentPlayer.tournament_id == t.id)) or 0
    if count >= LIMITS.max_players:
        raise ServerError("server.tournament.full", 409, limit=LIMITS.max_players)
    rating = s.scalar(select(Rating.ordinal).where(Rating.game == t.game,
                                                   Rating.user_id == user.id,
                                                   Rating.player == f"u:{user.id}"))
    s.add(TournamentPlayer(tournament_id=t.id, user_id=user.id, joined_at=at,
                           withdrawn=False, score=0.0, streak=0, games=0, wins=0, byes=0,
                           rating=float(rating or 0.0), waiting_since=at, seen_at=at))
    s.commit()


def withdraw(s: OrmSession, tournament_id: str, user_id: int) -> None:
    t = get(s, tournament_id)
    done = s.execute(update(TournamentPlayer).where(
        TournamentPlayer.tournament_id == t.id, TournamentPlayer.user_id == user_id)
        .values(withdrawn=True, waiting_since=None))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise ServerError("server.tournament.not_joined", 409)
    s.commit()


def playing(s: OrmSession, tournament_id: str, user_id: int) -> str | None:
    """The table ``user_id`` plays at in the tournament now, if any."""
    for game in s.scalars(select(TournamentGame).where(
            TournamentGame.tournament_id == tournament_id,
            TournamentGame.finished.is_(False))):
        if user_id in game.seats:
            return game.table_id
    return None


# ------------------------------------------------------------------ the hook
def record_finish(s: OrmSession, table: GameTable, result: JSON, at: float) -> None:
    """``table`` finished with ``result``: if a tournament created it, count the result (in
    the caller's transaction: the one that commits the table's final action, so a result
    is counted exactly once and never lost)."""
    game = s.scalar(select(TournamentGame).where(TournamentGame.table_id == table.id))
    if game is not None:  # (count_game counts nothing if it is counted already)
        count_game(s, game, result, at)


def count_game(s: OrmSession, game: TournamentGame, result: JSON, at: float) -> None:
    """Count ``game``'s ``result`` into its players' rows, once: under the game's row lock
    (PostgreSQL), re-read, so that the hook of the process that ran the table and the
    runner's safety net of the process that holds the tournament never both count it (the
    runner had read the game unfinished before the hook committed, and added its points a
    second time: tests/server_multi/test_tournament_multi.py)."""
    from dragonlair.server.ratings import participants, rating_placings

    fresh = s.scalar(select(TournamentGame).where(TournamentGame.id == game.id)
                     .with_for_update().execution_options(populate_existing=True))
    if fresh is None or fresh.finished:
        return
    game = fresh
    raw = result.get("placings")
    seats: list[int | None] = list(game.seats)
    gone = {p.seat for p in participants(s, game.table_id) if p.left}
    if not isinstance(raw, list) or len(raw) != len(seats):
        placings = [1] * len(seats)  # no placings: everybody tied
    else:
        placings = rating_placings([int(x) for x in raw], [i in gone for i in range(len(raw))])
    leavers = [u for i, u in enumerate(seats) if u is not None and i in gone]
    t = s.get(Tournament, game.tournament_id)
    assert t is not None
    points = placing_points(placings)
    won = wins(placings)
    got: list[int] = []
    for i, user in enumerate(seats):
        if user is None:
            got.append(points[i])
            continue
        row = s.scalar(select(TournamentPlayer).where(
            TournamentPlayer.tournament_id == t.id, TournamentPlayer.user_id == user)
            .with_for_update().execution_options(populate_existing=True))
        if row is None:
            got.append(points[i])
            continue
        if t.kind == "arena":
            scored = arena_score(points[i], won[i], row.streak)
            row.score, row.streak = row.score + scored.points, scored.streak
            got.append(scored.points)
        else:
            row.score += points[i]
            got.append(points[i])
        row.games += 1
        row.wins += int(won[i])
        row.seen_at = max(row.seen_at, at)
        if user in leavers:
            row.withdrawn = True
        row.waiting_since = None if row.withdrawn else at
    game.finished = True
    game.result = {"placings": placings, "points": got, "left": leavers}


# ------------------------------------------------------------------- claims
def sweep_claims(s: OrmSession, owner: str, at: float, ttl: float) -> list[str]:
    """Renew ``owner``'s claims, take free or expired ones of scheduled and running
    tournaments; the ids ``owner`` holds now. Commits."""
    s.execute(update(Tournament).where(Tournament.owner == owner,
                                       Tournament.status.in_(ACTIVE))
              .values(expires_at=at + ttl))
    free = s.scalars(select(Tournament.id).where(
        Tournament.status.in_(ACTIVE), Tournament.owner != owner,
        Tournament.expires_at < at).order_by(Tournament.id).limit(50)
        .with_for_update(skip_locked=True)).all()
    for tid in free:  # conditional: another process may have taken it meanwhile
        s.execute(update(Tournament).where(Tournament.id == tid,
                                           Tournament.expires_at < at)
                  .values(owner=owner, expires_at=at + ttl))
    s.commit()
    return list(s.scalars(select(Tournament.id).where(
        Tournament.owner == owner, Tournament.status.in_(ACTIVE)).order_by(Tournament.id)))


def release_claims(s: OrmSession, owner: str) -> None:
    s.execute(update(Tournament).where(Tournament.owner == owner)
              .values(owner="", expires_at=0.0))
    s.commit()


# ------------------------------------------------------------------ the step
def step(s: OrmSession, tournament_id: str, owner: str, at: float, present: set[int],
         settings: Any) -> list[str]:
    """One round of the runner for one tournament it holds: start it when due, count a
    finished table the hook missed, withdraw the absent, pair, advance, end. Returns the
    tables it started (their runtimes are to be loaded). Commits."""
    # the row locked for the step (PostgreSQL; SQLite has one writer at a time): a step still
    # running in a stopping process's database thread when its claims are released commits
    # before another process's step reads the tournament, never beside it (a pairing after
    # the other process ended the arena: tests/server_multi/test_tournament_multi.py)
    t = s.get(Tournament, tournament_id, with_for_update=True)
    if t is None or t.owner != owner or t.status not in ACTIVE:
        s.rollback()
        return []
    if t.status == "scheduled":
        if at < t.starts_at:
            s.rollback()
            return []
        t.status = "running"
    games = list(s.scalars(select(TournamentGame).where(
        TournamentGame.tournament_id == t.id).order_by(TournamentGame.id)))
    for game in games:  # a safety net: the hook counts every finished table
        if not game.finished:
            table = s.get(GameTable, game.table_id)
            if table is not None and table.status == "finished" and table.result is not None:
                count_game(s, game, table.result, at)
    players = list(s.scalars(select(TournamentPlayer).where(
        TournamentPlayer.tournament_id == t.id)))
    busy = {u for g in games if not g.finished for u in g.seats if u is not None}
    for p in players:
        if p.user_id in present:
            p.seen_at = at
        if not p.withdrawn and p.user_id not in busy and at - p.seen_at > LIMITS.absent_s:
            p.withdrawn, p.waiting_since = True, None
    started: list[str] = []
    if t.kind == "arena":
        assert t.ends_at is not None
        if at < t.ends_at:
            started = _pair_arena(s, t, players, games, busy, at, settings)
        elif not busy:
            _finish(t, players, at)
    elif not busy:
        if t.current_round >= (t.rounds or 0):
            _finish(t, players, at)
        else:
            started = _pair_swiss(s, t, players, games, at, settings)
    s.commit()
    return started


def _finish(t: Tournament, players: list[TournamentPlayer], at: float) -> None:
    t.status, t.finished_at = "finished", at
    t.owner, t.expires_at = "", 0.0
    for p in players:
        p.waiting_since = None


def _seat_stats(games: list[TournamentGame]) -> tuple[dict[int, float], dict[int, int]]:
    sums: dict[int, float] = {}
    counts: dict[int, int] = {}
    for g in games:
        n = len(g.seats)
        for i, u in enumerate(g.seats):
            if u is not None and n > 1:
                sums[u] = sums.get(u, 0.0) + i / (n - 1)
                counts[u] = counts.get(u, 0) + 1
    return sums, counts


def _pair_arena(s: OrmSession, t: Tournament, players: list[TournamentPlayer],
                games: list[TournamentGame], busy: set[int], at: float,
                settings: Any) -> list[str]:
    last: dict[int, frozenset[int]] = {}
    for g in games:  # in creation order: the last one stays
        people = [u for u in g.seats if u is not None]
        for u in people:
            last[u] = frozenset(people) - {u}
    waiting = [arena.Waiting(p.user_id, p.rating, p.waiting_since or at,
                             last.get(p.user_id, frozenset()))
               for p in players if not p.withdrawn and p.user_id not in busy]
    from dragonlair.games import plugin

    groups = arena.pair(waiting, int(t.options.get("size", 2)), at,
                        bots=bool(t.options.get("bots")), bot_wait_s=LIMITS.bot_wait_s,
                        rematch_wait_s=LIMITS.rematch_wait_s,
                        min_players=plugin(t.game).info.min_players)
    sums, counts = _seat_stats(games)
    by_user = {p.user_id: p for p in players}
    out = []
    for group in groups:
        seats: list[int | None] = list(arena.seat_order(group.users, sums, counts))
        seats += [None] * group.bots
        out.append(_start_table(s, t, seats, None, settings))
        for u in group.users:
            by_user[u].waiting_since = None
    return out


def _pair_swiss(s: OrmSession, t: Tournament, players: list[TournamentPlayer],
                games: list[TournamentGame], at: float, settings: Any) -> list[str]:
    from dragonlair.games import plugin

    active = [p for p in players if not p.withdrawn]
    if len(active) < 2:
        _finish(t, players, at)
        return []
    opponents: dict[int, set[int]] = {}
    for g in games:
        people = [u for u in g.seats if u is not None]
        for u in people:
            opponents.setdefault(u, set()).update(set(people) - {u})
    entrants = [swiss.Entrant(p.user_id, p.score, p.rating,
                              frozenset(opponents.get(p.user_id, set())), p.byes)
                for p in active]
    size = int(t.options.get("size", 2))
    if size == 2:
        # the rounds after this one: paired so that they too can go without a repeat
        plan = swiss.pair_two(entrants, later=(t.rounds or 0) - t.current_round - 1)
    else:
        plan = swiss.pair_many(entrants, size, plugin(t.game).info.min_players,
                               bool(t.options.get("bots")))
    t.current_round += 1
    by_user = {p.user_id: p for p in players}
    for u in plan.byes:
        by_user[u].byes += 1
        by_user[u].score += bye_points(t)
    sums, counts = _seat_stats(games)
    out = []
    fill = plan.bots or [0] * len(plan.tables)
    for table_people, bots in zip(plan.tables, fill, strict=True):
        seats: list[int | None] = list(arena.seat_order(table_people, sums, counts))
        seats += [None] * bots
        out.append(_start_table(s, t, seats, t.current_round, settings))
    return out


def bye_points(t: Tournament) -> float:
    """A bye: a win in a two-player game; a middle placing at larger tables."""
    size = int(t.options.get("size", 2))
    return float(max_points(2) if size == 2 else size - 1)


def _start_table(s: OrmSession, t: Tournament, seats: list[int | None], round_: int | None,
                 settings: Any) -> str:
    """A running table for ``seats`` (user ids; ``None``: a bot), rated as the tournament."""
    from dragonlair.games import make_game, plugin
    from dragonlair.server.clocks import ClockSpec
    from dragonlair.server.db import now
    from dragonlair.server.lobby_service import new_table_id
    from dragonlair.server.presence import away_policy

    p = plugin(t.game)
    options = dict(t.options.get("table") or {})
    if any(spec.name == "players" for spec in p.info.options):
        options["players"] = len(seats)
    game = make_game(t.game, options)
    spec = ClockSpec.from_json(t.options.get("clock"))
    table = GameTable(id=new_table_id(), game=t.game, game_version=game.info.version,
                      options=game.record_options(), status="running", rated=t.rated,
                      created_by=t.created_by, clock=spec.to_json(),
                      away=away_policy(None, spec, settings).to_json(),
                      takeover_bot=str(t.options.get("bot") or p.default_bot),
                      created_at=now(), started_at=now())
    s.add(table)
    s.flush()
    bot = str(t.options.get("bot") or p.default_bot)
    for i, user in enumerate(seats):
        s.add(Seat(table_id=table.id, seat=i, kind="human" if user is not None else "bot",
                   user_id=user, bot=None if user is not None else bot))
    s.add(TournamentGame(tournament_id=t.id, table_id=table.id, round=round_,
                         seats=list(seats), created_at=now(), finished=False, result=None))
    return table.id


# ------------------------------------------------------------------- reading
def summary(s: OrmSession, t: Tournament) -> JSON:
    count = s.scalar(select(func.count()).select_from(TournamentPlayer).where(
        TournamentPlayer.tournament_id == t.id, TournamentPlayer.withdrawn.is_(False))) or 0
    return {"id": t.id, "game": t.game, "kind": t.kind, "name": t.name, "rated": t.rated,
            "status": t.status, "starts_at": t.starts_at, "ends_at": t.ends_at,
            "rounds": t.rounds, "current_round": t.current_round,
            "size": int(t.options.get("size", 2)), "bots": bool(t.options.get("bots")),
            "clock": t.options.get("clock"), "players": count, "bot": t.options.get("bot"),
            "created_by": t.created_by, "finished_at": t.finished_at}


def list_all(s: OrmSession, limit: int = 50) -> JSON:
    out: JSON = {}
    for status in ("running", "scheduled", "finished"):
        query = select(Tournament).where(Tournament.status == status)
        query = query.order_by(Tournament.finished_at.desc() if status == "finished"
                               else Tournament.starts_at)
        out[status] = [summary(s, t) for t in s.scalars(query.limit(limit))]
    return out


def totals_of(s: OrmSession, t: Tournament) -> tuple[dict[int, Totals], list[TournamentGame],
                                                    list[TournamentPlayer]]:
    """Every player's totals recomputed from the finished games' results (the truth)."""
    players = list(s.scalars(select(TournamentPlayer).where(
        TournamentPlayer.tournament_id == t.id).order_by(TournamentPlayer.id)))
    games = list(s.scalars(select(TournamentGame).where(
        TournamentGame.tournament_id == t.id).order_by(TournamentGame.id)))
    results = [GameResult(tuple(g.seats), tuple((g.result or {}).get("placings") or ()))
               for g in games if g.finished and g.result]
    totals = recompute(t.kind, [p.user_id for p in players], results,
                       {p.user_id: p.byes for p in players}, bye_points(t))
    return totals, games, players


def names(s: OrmSession, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return {u: n for u, n in s.execute(select(User.id, User.display_name)
                                       .where(User.id.in_(ids)))}


def show(s: OrmSession, tournament_id: str, user_id: int | None, at: float) -> JSON:
    """The tournament's page: standings, running and finished games, the viewer's status
    (a viewer who joined is marked present)."""
    t = get(s, tournament_id)
    totals, games, players = totals_of(s, t)
    who = names(s, {p.user_id for p in players})
    by_user = {p.user_id: p for p in players}
    busy = {u: g.table_id for g in games if not g.finished for u in g.seats if u is not None}
    rows = ranking(t.kind, totals, {p.user_id: p.rating for p in players})
    standings = [{
        "rank": r.rank, "user_id": r.user_id, "name": who.get(r.user_id, "?"),
        "score": r.score, "games": r.games, "wins": r.wins, "streak": r.streak,
        "fire": t.kind == "arena" and r.streak >= 2,
        "buchholz": r.buchholz, "sonneborn_berger": r.sonneborn_berger,
        "withdrawn": by_user[r.user_id].withdrawn, "playing": r.user_id in busy,
        "byes": totals[r.user_id].byes} for r in rows]

    def game_json(g: TournamentGame) -> JSON:
        result = g.result or {}
        placings = result.get("placings") or []
        points = result.get("points") or []
        return {"table_id": g.table_id, "round": g.round, "players": [
            {"user_id": u, "name": who.get(u, "?") if u is not None else None,
             "placing": placings[i] if i < len(placings) else None,
             "points": points[i] if i < len(points) else None}
            for i, u in enumerate(g.seats)]}

    running = [game_json(g) for g in games if not g.finished]
    finished = [game_json(g) for g in reversed(games) if g.finished][:100]
    me: JSON | None = None
    if user_id is not None and user_id in by_user:
        row = by_user[user_id]
        if t.status in ACTIVE and row.seen_at < at:
            row.seen_at = at
            s.commit()
        me = {"joined": True, "withdrawn": row.withdrawn, "table": busy.get(user_id),
              "waiting": row.waiting_since is not None and user_id not in busy}
    elif user_id is not None:
        me = {"joined": False, "withdrawn": False, "table": None, "waiting": False}
    return {**summary(s, t), "now": at, "standings": standings, "running": running,
            "finished": finished, "me": me}

