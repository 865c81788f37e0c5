"""A tournament's tables (docs/tournaments.md): the table says which tournament made it, has
no rematch, a streak shows the flame, and a player at a game or on its end screen counts as
present. The tournament's rows are written here directly (its runner holds no claim on it),
so that the results are chosen, not played."""

from __future__ import annotations

from types import SimpleNamespace

from sqlalchemy import select

from dragonlair.server.tournaments import service
from dragonlair.server.tournaments.models import TournamentPlayer
from dragonlair.server.tournaments.runner import Runner
from tests.server.helpers import Client, ServerThread
from tests.server.tournament_helpers import OWNER, arena_of, game, show


def test_a_streak_shows_the_flame_and_the_table_names_its_tournament(
        server: ServerThread) -> None:
    a, b = Client(server, "Hot"), Client(server, "Cold")
    tid, settings = arena_of(server, [a, b])
    ua, ub = a.user["id"], b.user["id"]
    first = game(server, tid, [ua, ub], [1, 2], settings)
    rows = {r["name"]: r for r in show(a, tid)["standings"]}
    assert rows["Hot"]["streak"] == 1 and rows["Hot"]["fire"] is False
    game(server, tid, [ub, ua], [2, 1], settings)
    rows = {r["name"]: r for r in show(a, tid)["standings"]}
    assert rows["Hot"]["streak"] == 2 and rows["Hot"]["fire"] is True
    assert rows["Cold"]["fire"] is False and rows["Hot"]["score"] == 4
    game(server, tid, [ua, ub], [1, 2], settings)  # on fire: a win counts double
    rows = {r["name"]: r for r in show(a, tid)["standings"]}
    assert rows["Hot"]["score"] == 8 and rows["Hot"]["fire"] is True
    game(server, tid, [ua, ub], [1, 1], settings)  # a draw ends it, counted double
    rows = {r["name"]: r for r in show(a, tid)["standings"]}
    assert rows["Hot"]["score"] == 10 and rows["Hot"]["fire"] is False

    # the table says which tournament made it; another table says none
    info = a.http.get(f"/api/tables/{first}").json()
    assert info["tournament"] == {"id": tid, "name": "Tables", "kind": "arena"}
    r = a.http.post("/api/tables", json={"game": "master"})
    assert r.status_code in (200, 201), r.text
    assert a.http.get(f"/api/tables/{r.json()['id']}").json()["tournament"] is None

    # no rematch of a tournament's table: the tournament pairs its players
    r = a.http.post(f"/api/tables/{first}/rematch")
    assert r.status_code == 409 and r.json()["code"] == "server.tournament.no_rematch"


def test_at_a_table_or_its_end_screen_or_on_the_page_is_present(server: ServerThread) -> None:
    # the runner's presence: sockets on running and finished tables (not on open ones)
    def runtime(status: str, here: dict[int, int],
                elsewhere: dict[str, frozenset[int]]) -> SimpleNamespace:
        return SimpleNamespace(status=status,
                               presence=SimpleNamespace(here=here, elsewhere=elsewhere))

    hub = SimpleNamespace(tables={"r": runtime("running", {1: 1, 2: 0}, {}),
                                  "f": runtime("finished", {3: 2}, {"p2": frozenset({4})}),
                                  "o": runtime("open", {5: 1}, {})})
    assert Runner(hub).present() == {1, 3, 4}  # type: ignore[arg-type]

    # a step withdraws only the absent: not one the runner saw, nor one who read the page
    here, page, away = Client(server, "AtTable"), Client(server, "OnPage"), Client(server, "Gone")
    tid, settings = arena_of(server, [here, page, away])
    ids = {c.user["id"] for c in (here, page, away)}
    with server.app.state.sessions() as s:
        for p in s.scalars(select(TournamentPlayer).where(
                TournamentPlayer.tournament_id == tid)):
            p.seen_at, p.waiting_since = 0.0, None  # long ago
        s.commit()
    later = 10 * service.LIMITS.absent_s
    with server.app.state.sessions() as s:
        service.show(s, tid, page.user["id"], later)  # the page's poll
    with server.app.state.sessions() as s:
        started = service.step(s, tid, OWNER, later + 1.0, {here.user["id"]}, settings)
    info = show(here, tid)
    rows = {r["user_id"]: r["withdrawn"] for r in info["standings"]}
    assert rows == {u: u == away.user["id"] for u in ids}
    # the two present are paired with each other
    assert [g["table_id"] for g in info["running"]] == started and len(started) == 1
    assert {p["user_id"] for p in info["running"][0]["players"]} == {here.user["id"],
                                                                     page.user["id"]}
