"""Hints and analysis over the server (dragonlair/server/coach.py, issue 16): a hint at a
friendly table names the move the strongest bot makes from the same view, never at a rated
table nor for a seat not held or not to move; the analysis of a finished game is the one
``dragonlair analyse`` computes from its record."""

from __future__ import annotations

import random
import time

import pytest

from dragonlair.analysis import analyse_record
from dragonlair.core.records import Record
from dragonlair.games.farkle.bots import OptimalFarkleBot
from tests.server.helpers import JSON, Client, ServerThread, play_to_end


def wait_to_move(server: ServerThread, tid: str, seat: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = server.runtime(tid).state
        if seat in state.current_seats():
            return
        time.sleep(0.01)
    raise AssertionError(f"p{seat} never came to move")


def started(owner: Client, game: str, seats: list[JSON], rated: bool = False,
            **options: object) -> str:
    r = owner.http.post("/api/tables", json={"game": game, "options": options,
                                              "seats": seats, "rated": rated})
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    assert owner.http.post(f"/api/tables/{tid}/start").status_code == 200
    return tid


@pytest.mark.slow
def test_a_hint_names_the_optimal_bots_move_from_the_seats_view(server: ServerThread) -> None:
    ann, eve = Client(server, "Ann"), Client(server, "Eve")
    tid = started(ann, "farkle", [{"kind": "me"}, {"kind": "bot", "bot": "optimal"}],
                  max_turns=2)
    ann.connect(tid)
    wait_to_move(server, tid, 0)
    state = server.runtime(tid).state
    view, legal = state.view(0), state.legal_actions(0)
    r = ann.http.post(f"/api/tables/{tid}/hint")
    assert r.status_code == 200, r.text
    hint = r.json()["hint"]
    best = [o for o in hint["options"] if o["best"]]
    assert len(best) == 1 and best[0]["loss"] in (0, 0.0, None)
    assert best[0]["action"] == str(OptimalFarkleBot(random.Random(0)).choose(view, legal))
    assert {o["action"] for o in hint["options"]} == {str(a) for a in legal}
    # nobody else's hint: Eve holds no seat here
    r = eve.http.post(f"/api/tables/{tid}/hint")
    assert r.status_code == 409 and r.json()["code"] == "server.act.not_seated"
    r = eve.http.post("/api/tables/nosuchtable/hint")
    assert r.status_code == 404


def test_no_hints_at_a_rated_table(server: ServerThread) -> None:
    ann = Client(server, "Ann")
    tid = started(ann, "master", [{"kind": "me"}, {"kind": "bot", "bot": "random"}],
                  rated=True)
    ann.connect(tid)
    wait_to_move(server, tid, 0)
    r = ann.http.post(f"/api/tables/{tid}/hint")
    assert r.status_code == 403 and r.json()["code"] == "server.hint.rated"


@pytest.mark.slow
def test_the_analysis_of_a_finished_game_is_the_records(server: ServerThread) -> None:
    ann, eve = Client(server, "Ann"), Client(server, "Eve")
    tid = started(ann, "farkle", [{"kind": "me"}, {"kind": "bot", "bot": "optimal"}],
                  max_turns=2)
    r = eve.http.get(f"/api/tables/{tid}/analysis", params={"seat": 0})
    assert r.status_code == 409 and r.json()["code"] == "server.table.not_finished"
    ann.connect(tid)
    play_to_end(server, tid, {0: ann}, random.Random(3))
    deadline = time.monotonic() + 30
    while eve.http.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    r = eve.http.get(f"/api/tables/{tid}/analysis", params={"seat": 0})
    assert r.status_code == 200, r.text
    served = r.json()
    record = Record.from_json(ann.http.get(f"/api/tables/{tid}/record").json())
    local = analyse_record(record, 0, seed=0).to_json(top=10)
    assert served["decisions"] == local["decisions"] and served["mistakes"] == local["mistakes"]
    assert served["decisions"], "a random Farkle player has decisions to analyse"
    # the bot's own seat loses nothing by its own measure
    bot = eve.http.get(f"/api/tables/{tid}/analysis", params={"seat": 1}).json()
    assert all((d["loss"] or 0) < 1e-6 for d in bot["decisions"])
    r = eve.http.get(f"/api/tables/{tid}/analysis", params={"seat": 5})
    assert r.status_code == 422 and r.json()["code"] == "cli.analyse_no_seat"


def test_one_analysis_at_a_time(server: ServerThread) -> None:
    """An analysis may take a bot thread for seconds: while one is being worked out, another
    is refused with a code (the answer of a finished one is kept and served at once)."""
    from dragonlair.server import coach

    eve = Client(server, "Eve")
    ann = Client(server, "Ann")
    tid = started(ann, "master", [{"kind": "bot", "bot": "random"},
                                  {"kind": "bot", "bot": "random"}])
    deadline = time.monotonic() + 30
    while eve.http.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    coach._running.add(("someone-else", 0))
    try:
        r = eve.http.get(f"/api/tables/{tid}/analysis", params={"seat": 0})
        assert r.status_code == 429 and r.json()["code"] == "server.analysis.busy"
    finally:
        coach._running.discard(("someone-else", 0))
    assert eve.http.get(f"/api/tables/{tid}/analysis", params={"seat": 0}).status_code == 200
