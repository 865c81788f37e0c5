"""Puzzles on the server (dragonlair/server/puzzles; docs/puzzles.md, "On the server"): the
miner on finished Master tables (each table mined once, the same position from two games one
puzzle, a second process takes nothing twice); a puzzle never shows its answer before it is
answered; right and wrong answers show every option's value; Glicko-2 for the solver and the
puzzle, one rated attempt per account and puzzle, guests unrated; the daily puzzle; themes;
the limits."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from dragonlair.core.i18n import error_message
from dragonlair.core.records import Record
from dragonlair.server.db import ActionRow, GameTable, Seat
from dragonlair.server.puzzles import miner, service
from dragonlair.server.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from dragonlair.simulate import simulate
from tests.server.helpers import TEST_LIMITS, Client, ServerThread, serving

JSON = dict[str, Any]

#: a Master game of random bots whose record holds a few puzzles (mined in under 0.5 s)
SEED, GAME = 3, 3


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server of its own (it counts puzzles), its miner off (the tests run it), answers
    limited to 6 a minute."""
    limits = dataclasses.replace(TEST_LIMITS, puzzle_answers_per_minute=6)
    yield from serving(tmp_path_factory, puzzle_miner=False, puzzle_shipped=True, limits=limits)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Record:
    out = tmp_path_factory.mktemp("records")
    simulate("master", GAME + 1, ["random"], seed=SEED, save_dir=out)
    return Record.load(out / f"master-{SEED}-{GAME:05d}.json")


def finished_table(srv: ServerThread, rec: Record, tid: str, finished_at: float) -> None:
    """A finished table of two bots as the server stores one, its actions those of ``rec``."""
    with srv.app.state.sessions() as s:
        s.add(GameTable(id=tid, game=rec.game, game_version=rec.game_version,
                        options=dict(rec.options), status="finished", rated=False,
                        created_at=finished_at - 60, started_at=finished_at - 50,
                        finished_at=finished_at, result=rec.result))
        s.flush()
        for seat in range(2):
            s.add(Seat(table_id=tid, seat=seat, kind="bot", bot="random"))
        for seq, text in enumerate(rec.actions):
            who, _, action = text.partition(":")
            s.add(ActionRow(table_id=tid, seq=seq,
                            seat=-1 if who == "chance" else int(who[1:]),
                            action=action.strip(), created_at=finished_at))
        s.commit()


def count(srv: ServerThread) -> int:
    with srv.app.state.sessions() as s:
        return int(s.scalar(select(func.count()).select_from(Puzzle)) or 0)


@pytest.fixture(scope="module")
def mined(srv: ServerThread, record: Record) -> JSON:
    """The miner's rounds on two finished tables of the same game: what each one did."""
    deadline = time.monotonic() + 20
    while not srv.app.state.puzzles.loaded:  # the shipped puzzles first (in the background)
        assert time.monotonic() < deadline, "the shipped puzzles never loaded"
        time.sleep(0.02)
    out: JSON = {"before": count(srv)}
    t0 = 1_700_000_000.0
    finished_table(srv, record, "pz-one", t0)
    lim = srv.settings.puzzle_miner_max_actions
    with srv.app.state.sessions() as s:
        out["first"] = miner.run_once(s, t0 + 100, 5, lim)
        out["again"] = miner.run_once(s, t0 + 100, 5, lim)
    out["after_first"] = count(srv)
    finished_table(srv, record, "pz-two", t0 + 1)  # the same positions, another table
    # two processes: the first claims the batch, the second finds the marker moved
    with srv.app.state.sessions() as a, srv.app.state.sessions() as b:
        since = miner.marker(b)
        out["claimed"] = miner.claim_batch(a, t0 + 100, 5)
        out["second"] = miner.claim_batch(b, t0 + 100, 5)
        out["marker_read_before"] = since
        out["second_table"] = miner.mine_tables(a, out["claimed"], lim)
    out["after_second"] = count(srv)
    with srv.app.state.sessions() as s:
        rows = s.scalars(select(Puzzle).where(Puzzle.table_id == "pz-one")).all()
        out["ids"] = [r.id for r in rows]
        out["data"] = {r.id: r.data for r in rows}
    return out


def ok(r: httpx.Response, status: int = 200) -> JSON:
    assert r.status_code == status, r.text
    body: JSON = r.json()
    return body


def refused(r: httpx.Response, code: str, status: int) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code, body
    en, de = error_message(body, "en"), error_message(body, "de")
    assert en != de and not en.startswith(code) and not de.startswith(code), (en, de)


_n = iter(range(10**6))


def registered(srv: ServerThread) -> Client:
    c = Client(srv, "Solver")
    c.user = ok(c.http.post("/api/auth/register", json={
        "username": f"pz{next(_n)}{time.time_ns() % 10**6}", "password": "s3cret-pass"}))
    return c


def test_the_miner_mines_each_table_once_and_each_position_once(mined: JSON) -> None:
    assert mined["first"] > 0 and mined["after_first"] == mined["before"] + mined["first"]
    assert mined["again"] == 0  # nothing left to claim
    assert mined["claimed"] == ["pz-two"] and mined["second"] == []
    assert mined["second_table"] == 0 and mined["after_second"] == mined["after_first"]
    for data in mined["data"].values():
        assert data["game"] == "master" and data["solution"]
        assert "hand" in json.dumps(data["view"]) or data["view"]


def test_a_puzzle_never_shows_its_answer_before_it_is_answered(srv: ServerThread,
                                                               mined: JSON) -> None:
    c = Client(srv, "Guest")
    shown = [ok(c.http.get("/api/puzzles", params={"game": "master"})),
             ok(c.http.get("/api/puzzles/daily")),
             *(ok(c.http.get(f"/api/puzzles/{pid}")) for pid in mined["ids"])]
    for pid in mined["ids"]:
        data = mined["data"][pid]
        for got in shown:
            text = json.dumps(got)
            for key in ("solution", "options", "explanation", "themes", "margin", "best",
                        "source"):
                assert f'"{key}"' not in text, key
            for option in data["options"]:
                value = json.dumps(option["value"])
                if len(value) > 4:
                    assert value not in text, value
        assert got["legal"] and got["view"]


def test_answers_right_and_wrong_show_every_value_and_rate_once(srv: ServerThread,
                                                                mined: JSON) -> None:
    pid = mined["ids"][0]
    data = mined["data"][pid]
    right = data["solution"][0]
    wrong = next(a for a in data["legal"] if a not in data["solution"])
    solver = registered(srv)
    first = ok(solver.http.post(f"/api/puzzles/{pid}/answer", json={"action": wrong}))
    assert first["correct"] is False and first["solution"] == data["solution"]
    assert [o["action"] for o in first["options"]] == [o["action"] for o in data["options"]]
    assert first["themes"] == data["themes"] and first["explanation"] == data["explanation"]
    assert first["rated"] is True
    change = first["rating"]
    assert change["after"] < change["before"] == 1500
    assert change["puzzle_after"] > change["puzzle_before"]
    again = ok(solver.http.post(f"/api/puzzles/{pid}/answer", json={"action": right}))
    assert again["correct"] is True and again["rated"] is False and again["rating"] is None
    with srv.app.state.sessions() as s:
        attempt = s.scalar(select(PuzzleAttempt).where(PuzzleAttempt.puzzle_id == pid,
                                                       PuzzleAttempt.rated))
        assert attempt is not None and attempt.tries == 2 and not attempt.correct
        mine = s.get(PuzzleRating, attempt.user_id)
        assert mine is not None and mine.attempts == 1 and mine.solved == 0
        assert round(mine.rating) == change["after"] and mine.rd < 350
        row = s.get(Puzzle, pid)
        assert row is not None and row.plays == 1 and round(row.rating) == change["puzzle_after"]
    # a right first answer raises the solver, and lowers the puzzle
    other = mined["ids"][1]
    solved = ok(solver.http.post(f"/api/puzzles/{other}/answer",
                                 json={"action": mined["data"][other]["solution"][0]}))
    assert solved["correct"] and solved["rating"]["after"] > solved["rating"]["before"]
    assert solved["rating"]["puzzle_after"] < solved["rating"]["puzzle_before"]
    profile = ok(solver.http.get(f"/api/users/{solver.user['profile']}"))
    assert profile["puzzles"]["attempts"] == 2 and profile["puzzles"]["solved"] == 1
    # the next puzzle is one not tried yet
    nxt = ok(solver.http.get("/api/puzzles", params={"game": "master"}))
    assert nxt["id"] not in (pid, other)


def test_guests_solve_unrated(srv: ServerThread, mined: JSON) -> None:
    pid = mined["ids"][-1]
    guest = Client(srv, "Guest")
    out = ok(guest.http.post(f"/api/puzzles/{pid}/answer",
                             json={"action": mined["data"][pid]["solution"][0]}))
    assert out["correct"] and out["rated"] is False and out["rating"] is None
    assert ok(guest.http.get("/api/puzzles/themes"))["me"] is None


def test_the_daily_puzzle_is_one_all_day() -> None:
    at = 1_750_000_000.0
    assert service.day_of(at) == service.day_of(at + 3600)


def test_daily_and_themes(srv: ServerThread, mined: JSON) -> None:
    c = Client(srv, "Guest")
    one = ok(c.http.get("/api/puzzles/daily"))
    assert ok(c.http.get("/api/puzzles/daily"))["id"] == one["id"] and one["day"]
    with srv.app.state.sessions() as s:  # later in the day: the same one
        later = service.daily(s, time.time() + 1)
    assert later["id"] == one["id"] or service.day_of(time.time() + 1) != one["day"]
    games = ok(c.http.get("/api/puzzles/themes"))["games"]
    master = next(g for g in games if g["game"] == "master")
    assert master["count"] >= len(mined["ids"])
    themed = [t for d in mined["data"].values() for t in d["themes"]]
    if themed:
        theme = themed[0]
        assert any(t["theme"] == theme for t in master["themes"])
        got = ok(c.http.get("/api/puzzles", params={"game": "master", "theme": theme}))
        assert theme in mined["data"].get(got["id"], {"themes": [theme]})["themes"] or \
            got["id"] not in mined["data"]


def test_refusals_change_nothing(srv: ServerThread, mined: JSON) -> None:
    c = registered(srv)
    pid = mined["ids"][0]
    refused(c.http.get("/api/puzzles/nosuchpuzzle"), "server.puzzles.not_found", 404)
    refused(c.http.get("/api/puzzles", params={"game": "chess"}),
            "server.puzzles.unknown_game", 404)
    refused(c.http.get("/api/puzzles", params={"game": "master", "theme": "no.such"}),
            "server.puzzles.none", 404)
    refused(c.http.post(f"/api/puzzles/{pid}/answer", json={"action": "place nothing z9"}),
            "server.puzzles.illegal", 422)
    assert c.http.post(f"/api/puzzles/{pid}/answer", json={"action": "x" * 201}
                       ).status_code == 422
    with srv.app.state.sessions() as s:
        uid = c.user["id"]
        assert s.scalar(select(PuzzleAttempt).where(PuzzleAttempt.user_id == uid)) is None
    stranger = httpx.Client(base_url=srv.base)
    assert stranger.post(f"/api/puzzles/{pid}/answer",
                         json={"action": "x"}).status_code == 401
    # six answers a minute here: the seventh is refused
    legal = mined["data"][pid]["legal"][0]
    codes = [c.http.post(f"/api/puzzles/{pid}/answer", json={"action": legal}).status_code
             for _ in range(7)]
    assert codes[-1] == 429 and 429 not in codes[:5]


def test_shipped_puzzles_load_into_an_empty_server_only(tmp_path: Path, srv: ServerThread,
                                                        mined: JSON) -> None:
    pid = mined["ids"][0]
    folder = tmp_path / "master"
    folder.mkdir()
    (folder / f"{pid}.json").write_text(json.dumps(mined["data"][pid]))
    (folder / "broken.json").write_text("{}")
    assert [p.id for p in service.shipped(tmp_path)] == [pid]
    with srv.app.state.sessions() as s:
        assert service.load_shipped(s, tmp_path) == 0  # not empty: nothing loaded
