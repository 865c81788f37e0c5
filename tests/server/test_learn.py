"""The tutorials over the server (dragonlair/server/learn.py): stateless steps that follow the
same runner as ``dragonlair learn``; a whole tutorial of each game walked to its end through
the API with the expected moves, a wrong move explained and an illegal one refused with the
engine's reason, and progress that does not fit refused. A hint at a tutorial's question is
the strongest bot's choice from the learner's view, in the shape of a table's hint, bounded
as table hints are; the texts the browser gets name no command to type."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dragonlair.core.i18n import languages, render
from dragonlair.games.farkle.bots import OptimalFarkleBot
from dragonlair.games.fist.analysis import ITERATIONS
from dragonlair.games.fist.bots import ISMCTSFistBot
from dragonlair.games.master.bots import ExpertMasterBot
from dragonlair.server import coach, learn
from dragonlair.tutorials import TutorialRunner, available, hint_seed, load_tutorial
from tests.server.helpers import ServerThread
from tests.server.routers import client_for
from tests.sizes import quick_first


@pytest.fixture(scope="module")
def web() -> Iterator[TestClient]:
    with client_for(learn.router) as client:  # one event loop for the module's requests
        yield client


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


# ---------------------------------------------------------------- hints (issue 16)
def at_question(web: TestClient, game: str, n: int) -> dict[str, Any]:
    """The answer showing the tutorial's ``n``-th question (0: the first)."""
    state = post(web, game)
    seen = 0
    while True:
        step = state["step"]
        if step["kind"] == "say":
            state = post(web, game, progress=state["progress"], read=True)
        elif seen < n:
            seen += 1
            state = post(web, game, progress=state["progress"], move=step["expected"][0])
        else:
            return state


def strongest(game: str, seed: str) -> Any:
    """The game's strongest bot, seeded as the hint's analyser is (F8, M6, D9: both read
    the seat's view only)."""
    rng = random.Random(seed)
    if game == "fist":
        return ISMCTSFistBot(rng, iterations=ITERATIONS)
    if game == "master":
        return ExpertMasterBot(rng)
    return OptimalFarkleBot(rng)


@pytest.mark.parametrize(("game", "n"), quick_first(1, [("fist", 1), ("master", 1), ("farkle", 1)]))
def test_a_tutorial_hint_is_the_strongest_bots_choice_from_the_learners_view(
        web: TestClient, game: str, n: int) -> None:
    state = at_question(web, game, n)
    progress, step = state["progress"], state["step"]
    r = web.post(f"/api/tutorials/{game}/hint", json={"progress": progress})
    assert r.status_code == 200, r.text
    body = r.json()
    hint = body["hint"]  # the shape of POST /api/tables/{id}/hint's "hint"
    assert set(hint) == {"unit", "exact", "win_chance", "options"}
    assert body["seq"] == len(progress) and body["seat"] == state["seat"]
    assert {o["action"] for o in hint["options"]} == set(step["legal"])
    best = [o for o in hint["options"] if o["best"]]
    assert len(best) == 1 and best[0] == hint["options"][0]
    runner = TutorialRunner(load_tutorial(game))
    runner.play_scripted()
    for passed in progress:
        assert (runner.acknowledge() if passed is None else runner.accept(passed).kind) \
            in (None, "ok")
    assert runner.state.view(runner.seat) == step["view"]
    # the bot sees the learner's view in the real game (Fist: the lesson's turn limit lifted)
    _, real = runner.real()
    view, legal = real.view(runner.seat), real.legal_actions(runner.seat)
    bot = strongest(game, hint_seed(game, step["step"]))
    assert best[0]["action"] == str(bot.choose(view, legal))
    assert hint == runner.hint().to_json()  # the terminal's hint, the same
    # the same question, the same hint; asking changes nothing
    again = web.post(f"/api/tutorials/{game}/hint", json={"progress": progress}).json()
    assert again["hint"] == hint
    assert post(web, game, progress=progress)["step"] == step


def test_a_tutorial_hint_is_refused_with_a_code_where_it_does_not_fit(web: TestClient) -> None:
    def refused(game: str, body: Any) -> tuple[int, str]:
        r = web.post(f"/api/tutorials/{game}/hint", json=body)
        assert "Traceback" not in r.text
        out = r.json()
        return r.status_code, out.get("code", "") if isinstance(out, dict) else ""

    assert refused("fist", {"progress": []}) == (409, "server.tutorial.no_question")  # a text
    assert refused("fist", {"progress": ["bid f9 c9"]}) == (422, "server.tutorial.bad_progress")
    assert refused("chess", {"progress": []}) == (404, "server.tutorial.none")
    for hostile in ({"progress": [None] * 501}, {"progress": "x"}, {"progress": [3]},
                    {"progress": ["a" * 201]}, {"progress": [None, {"a": 1}]}, []):
        status, _ = refused("fist", hostile)
        assert status == 422, hostile
    r = web.post("/api/tutorials/fist/hint", content=b"\xff\xfe",
                 headers={"content-type": "application/json"})
    assert r.status_code == 422
    # past the end of the tutorial: no question to hint at
    done = post(web, "master")
    while not done["done"]:
        step = done["step"]
        done = post(web, "master", progress=done["progress"],
                    **({"read": True} if step["kind"] == "say" else
                       {"move": step["expected"][0]}))
    assert refused("master", {"progress": done["progress"]}) == \
        (409, "server.tutorial.no_question")


def test_tutorial_hints_share_the_table_hints_bound(web: TestClient) -> None:
    """While the server works out as many hints as it takes at once (table hints or
    tutorial hints: one limiter), a tutorial hint is refused with the table's busy code."""
    progress = at_question(web, "master", 0)["progress"]
    coach._busy.add(10**9)  # somebody's table hint
    try:
        r = web.post("/api/tutorials/master/hint", json={"progress": progress})
        assert r.status_code == 429 and r.json()["code"] == "server.hint.busy"
    finally:
        coach._busy.discard(10**9)
    assert web.post("/api/tutorials/master/hint", json={"progress": progress}).status_code \
        == 200
    assert not coach._busy  # the slot is given back


def test_a_tutorial_hint_over_the_whole_server(server: ServerThread) -> None:
    """The served app (its bot threads, its limit): no account needed, as for the steps; a
    table hint and a tutorial hint share the limit of hints at once (bot_workers)."""
    import httpx

    with httpx.Client(base_url=server.base, timeout=20) as http:
        state: dict[str, Any] = http.post("/api/tutorials/farkle", json={}).json()
        while state["step"]["kind"] == "say":
            state = http.post("/api/tutorials/farkle",
                              json={"progress": state["progress"], "read": True}).json()
        r = http.post("/api/tutorials/farkle/hint", json={"progress": state["progress"]})
        assert r.status_code == 200, r.text
        view, legal = state["step"]["view"], state["step"]["legal"]
        best = next(o["action"] for o in r.json()["hint"]["options"] if o["best"])
        game = load_tutorial("farkle")
        runner = TutorialRunner(game)
        runner.current()
        actions = runner.state.legal_actions(runner.seat)
        assert [str(a) for a in actions] == legal
        assert best == str(OptimalFarkleBot(random.Random(0)).choose(view, actions))
        taken = list(range(10**9, 10**9 + 8))  # every slot taken by somebody's table hint
        coach._busy.update(taken)
        try:
            r = http.post("/api/tutorials/farkle/hint", json={"progress": state["progress"]})
            assert r.status_code == 429 and r.json()["code"] == "server.hint.busy"
        finally:
            coach._busy.difference_update(taken)


#: what tells a learner to type at a keyboard (the terminal's wording)
TERMINAL_WORDS = re.compile(r"(?i)\b(type|typed|tippe|tippst|press enter|drück\w* enter|"
                            r"eingabe)\b")


# the quickest game first (a plain pytest takes only it)
@pytest.mark.parametrize("game", quick_first(1, sorted(available(), key=lambda g: g != "farkle")))
def test_the_browser_gets_no_terminal_wording(web: TestClient, game: str) -> None:
    """Issue 16: the texts the server sends the browser (every step, every explanation and
    hint a move can bring, the introduction) say nothing of typing a command or pressing
    Enter, and name no move in record notation; each has a message in every language."""
    tutorial = load_tutorial(game)
    state = post(web, game)
    sent = {state["intro"]["code"], state["title"]}
    commands: set[str] = set()
    while not state["done"]:
        step, progress = state["step"], state["progress"]
        sent.add(step["text"]["code"])
        if step["kind"] == "say":
            state = post(web, game, progress=progress, read=True)
            continue
        commands |= {m for m in step["legal"] if " " in m}
        for move in ("nonsense 99", *(m for m in step["legal"] if m not in step["expected"])):
            verdict = post(web, game, progress=progress, move=move)["verdict"]
            sent.add(verdict["code"])
        state = post(web, game, progress=progress, move=step["expected"][0])
    # what was sent is the browser wording of the tutorial (the rest, the explanations no
    # legal move here brings, is checked all the same)
    assert sent <= set(tutorial.browser_codes()) | {tutorial.title}
    for lang in languages():
        for code in sent | set(tutorial.browser_codes()):
            text = render(code, None, lang)
            assert text != code, (code, lang)
            assert not TERMINAL_WORDS.search(text), (code, lang, text)
            assert not [m for m in commands if m in text], (code, lang, text)
