"""The tutorials over the server (dragonlair/server/learn.py): stateless steps that follow the
same runner as ``dragonlair learn``; a whole tutorial of each game walked to its end through
the API with the expected moves, a wrong move explained and an illegal one refused with the
engine's reason, and progress that does not fit refused."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from dragonlair.server import learn
from dragonlair.tutorials import available
from tests.server.routers import client_for


@pytest.fixture(scope="module")
def web() -> TestClient:
    return client_for(learn.router)


def post(web: TestClient, game: str, **body: Any) -> dict[str, Any]:
    r = web.post(f"/api/tutorials/{game}", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.mark.parametrize("game", available())
def test_each_tutorial_walks_to_its_end_through_the_api(web: TestClient, game: str) -> None:
    assert game in {t["game"] for t in web.get("/api/tutorials").json()}
    state = post(web, game)
    wrong_seen = illegal_seen = False
    for _ in range(200):
        if state["done"]:
            break
        step, progress = state["step"], state["progress"]
        if step["kind"] == "say":
            state = post(web, game, progress=progress, read=True)
            continue
        assert step["legal"] and step["view"]["private"] is not None
        if not illegal_seen:  # the engine's refusal and the step's hint; nothing changes
            bad = post(web, game, progress=progress, move="nonsense 99")
            assert bad["verdict"]["kind"] == "illegal" and bad["verdict"]["error"]["code"]
            assert bad["progress"] == progress and bad["step"] == step
            illegal_seen = True
        others = [m for m in step["legal"] if m not in step["expected"]]
        if others and not wrong_seen:  # legal, not what the step teaches: explained
            wrong = post(web, game, progress=progress, move=others[0])
            assert wrong["verdict"]["kind"] == "wrong" and wrong["verdict"]["code"]
            assert wrong["progress"] == progress
            wrong_seen = True
        state = post(web, game, progress=progress, move=step["expected"][0])
        assert state["verdict"]["kind"] == "ok"
        assert state["progress"] == [*progress, step["expected"][0]]
    assert state["done"] and illegal_seen


def test_progress_that_does_not_fit_and_unknown_games_are_refused(web: TestClient) -> None:
    r = web.post("/api/tutorials/fist", json={"progress": ["bid f9 c9"]})
    assert r.status_code == 422 and r.json()["code"] == "server.tutorial.bad_progress"
    r = web.post("/api/tutorials/chess", json={})
    assert r.status_code == 404 and r.json()["code"] == "server.tutorial.none"
    r = web.post("/api/tutorials/fist", json={"progress": [None] * 501})
    assert r.status_code == 422
