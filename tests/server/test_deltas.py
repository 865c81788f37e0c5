"""Updates as deltas (docs/protocol.md, "Deltas"): a client that says ``hello {features:
["delta"]}`` is sent only what changed; merged as the client merges it, every view it holds
equals the full view the server sends a client without the feature, which is the engine's
view for its seat (so a delta never drifts, and never carries what the seat may not know).

The operations themselves (``dragonlair.core.viewdelta``) are checked against whole random
games of the three games first: ``apply(old, diff(old, new)) == new``, ``old`` unchanged.
"""

from __future__ import annotations

import copy
import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from dragonlair.client import Client, TableConnection, legal_texts
from dragonlair.core import viewdelta
from dragonlair.core.game import CHANCE
from dragonlair.core.plugin import make_game
from dragonlair.core.records import Record
from tests.scripts import load_script
from tests.server.helpers import ServerThread, check_no_leaks
from tests.sizes import quick_first

JSON = dict[str, Any]


# ---------------------------------------------------------------- the operations
@pytest.mark.parametrize(("game_id", "options", "seat"), quick_first(2, [
    ("fist", {"players": 3}, None), ("master", {}, 1), ("farkle", {"players": 2}, 0),
    ("fist", {"players": 4}, 0)]))
def test_diff_then_apply_gives_every_next_view_of_random_games(
        game_id: str, options: JSON, seat: int | None) -> None:
    game = make_game(game_id, options)
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        held: Any = None
        seen = 0
        while True:
            view = json.loads(json.dumps(state.view(seat, since=seen)))
            seen = view.get("events_total", 0)
            if held is not None:
                before = copy.deepcopy(held)
                patch = viewdelta.diff(held, view)
                assert viewdelta.apply(held, patch) == view
                assert held == before  # the view held is never changed in place
                # as the server sends it: from the view held, rebased
                patch = viewdelta.diff(viewdelta.rebased(held), view)
                assert "events_since" not in patch or "events_total" not in held
                assert viewdelta.merge_update(held, {"delta": patch}) == view
                assert held == before
                json.dumps(patch)  # plain JSON
            held = view
            if state.is_terminal():
                break
            mover = state.current_seats()[0]
            if mover == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                state.apply(mover, rng.choice(list(state.legal_actions(mover))))


def test_the_patch_entries() -> None:
    old = {"a": [1, 2, 3], "b": {"x/y": 1, "t": 2}, "c": None, "n": 1, "s": [1, 2],
           "d": {"k": 1}}
    new = {"a": [1, 2, 3, 4, 5], "b": {"x/y": 2}, "c": [], "n": True, "s": [1, 3],
           "d": {"k": 1}}
    patch = viewdelta.diff(old, new)
    assert patch == {
        "a": [3, [4, 5]],  # a list that grew: its tail only
        "b": {"t": [], "x/y": [2]},  # a key removed, a value set, one level down
        "c": [[]],  # set to an empty list
        "n": [True],  # 1 and true differ in JSON
        "s": {"1": [3]},  # a list of the same length: item by item
    }
    assert viewdelta.apply(old, patch) == new
    assert viewdelta.diff(new, new) == {}
    assert viewdelta.rebased({"events_since": 3, "events_total": 7}) == \
        {"events_since": 7, "events_total": 7}


@pytest.mark.parametrize("patch", [
    {"a": [9, [1]]},  # a tail past the list held
    {"zz": {"q": [1]}},  # no such key on the way
    {"a": {"7": [1]}},  # no such index
    {"a": {"x": [1]}},  # not an index
    {"zz": []},  # removing what is not there
    {"a": {"0": []}},  # removing from a list
    {"a": [1, 2, 3]},  # not an entry
    {"a": "x"},  # not an entry
    {"a": {"0": {"k": [1]}}},  # a patch of a number
])
def test_a_delta_that_does_not_fit_is_refused(patch: Any) -> None:
    with pytest.raises(viewdelta.DeltaMismatch):
        viewdelta.apply({"a": [1, 2]}, patch)
    with pytest.raises(viewdelta.DeltaMismatch):
        viewdelta.merge_update(None, {"delta": patch})


def test_the_clients_delta_fixture_is_what_the_engine_and_diff_produce_now() -> None:
    """web/src/lib/delta.test.ts rebuilds views from it: stale, it would test old views."""
    module = load_script("web/scripts/delta_fixture.py", "delta_fixture")
    assert module.OUT.read_text("utf-8") == module.fixture(), \
        "stale: .venv/bin/python web/scripts/delta_fixture.py"


# ---------------------------------------------------------------- over the server
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path_factory.mktemp("deltas")).start()
    yield srv
    srv.stop()


class Recorder:
    """Every welcome and update one connection takes in: its size, and the view the client
    holds after it (as the server would send it whole)."""

    def __init__(self) -> None:
        self.messages: list[JSON] = []
        self.views: list[JSON] = []
        self.conn: TableConnection | None = None

    def __call__(self, message: JSON) -> None:
        if message.get("type") in ("welcome", "update") and self.conn is not None:
            assert self.conn.last_view is not None
            self.messages.append(message)
            self.views.append(self.conn.last_view)

    def as_sent(self) -> list[JSON]:
        """The messages with the merged view in place of a delta (for check_no_leaks)."""
        out: list[JSON] = []
        for m, view in zip(self.messages, self.views, strict=True):
            whole = {k: v for k, v in m.items() if k != "delta"}
            if out:  # absent from a delta update: as before
                whole.setdefault("seat", out[-1]["seat"])
            out.append({**whole, "view": view})
        return out


def watch(client: Client, table_id: str, deltas: bool, started: threading.Event) -> Recorder:
    rec = Recorder()
    conn = TableConnection(client, table_id, deltas=deltas, on_message=rec)
    rec.conn = conn
    conn.open()
    started.set()
    conn.wait(lambda c: c.finished, 240)
    conn.close()
    return rec


@pytest.mark.slow
def test_a_fist_game_sent_as_deltas_merges_to_the_full_views(server: ServerThread) -> None:
    """A 4-player Fist game (F1: a person and three bots) watched by the same person over a
    connection without deltas and one with, and by an anonymous spectator with deltas."""
    ann = Client(server.base)
    ann.guest("Ann")
    table = ann.create_table("fist", {"players": 4},
                             [{"kind": "me"}] + [{"kind": "bot", "bot": "heuristic"}] * 3)
    spectator = Client(server.base)
    results: dict[str, Recorder] = {}
    threads = []
    for name, who, deltas in (("full", ann, False), ("delta", ann, True),
                              ("spectator", spectator, True)):
        started = threading.Event()

        def run(name: str = name, who: Client = who, deltas: bool = deltas,
                started: threading.Event = started) -> None:
            results[name] = watch(who, table["id"], deltas, started)

        t = threading.Thread(target=run, daemon=True)
        t.start()
        assert started.wait(30)
        threads.append(t)
    player = ann.connect(table["id"])
    ann.start(table["id"])
    rng = random.Random(7)
    while not player.finished:
        if player.my_turn():
            player.act(rng.choice(legal_texts(player.view)))
        else:
            player.recv(1.0)
    for t in threads:
        t.join(240)
    full, delta, watcher = results["full"], results["delta"], results["spectator"]

    # the same updates, and after each one the same view
    assert [m["seq"] for m in full.messages] == [m["seq"] for m in delta.messages]
    assert full.views == delta.views
    assert all("view" in m for m in full.messages)
    sent = delta.messages[1:]
    assert sent and all("delta" in m and "view" not in m and "seat" not in m for m in sent)
    # the status only when it changed: the start (the watchers came to the open table), the end
    assert [m["status"] for m in sent if "status" in m] == ["running", "finished"]
    assert delta.messages[0]["features"] == ["delta"] and "features" not in full.messages[0]
    size = [sum(len(json.dumps(m)) for m in r.messages) for r in (full, delta)]
    assert size[1] * 3 < size[0]  # the record is not sent again with every update

    # and every view held is the engine's view for the seat, nothing more (no leak)
    record = Record.from_json(ann.record(table["id"]))
    assert check_no_leaks(record, [(0, delta.as_sent()), (None, watcher.as_sent())]) \
        == len(delta.messages) + len(watcher.messages)
    ann.close()
    spectator.close()


def test_resume_and_a_new_connection_send_the_whole_view(server: ServerThread) -> None:
    bea = Client(server.base)
    bea.guest("Bea")
    table = bea.create_table("master", seats=[{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    bea.start(table["id"])
    seen: list[JSON] = []
    conn = TableConnection(bea, table["id"], on_message=seen.append)
    conn.open()
    assert conn.wait(lambda c: c.my_turn(), 30)
    conn.act(legal_texts(conn.view)[0])
    assert any("delta" in m for m in seen if m["type"] == "update")
    seen.clear()
    answer = conn.request({"type": "resume", "since": 0})
    assert answer["type"] == "update" and "view" in answer and "delta" not in answer
    assert conn.last_view == answer["view"]
    conn.close()
    bea.close()


def test_unknown_features_are_ignored_and_old_clients_get_whole_views(
        server: ServerThread) -> None:
    cal = Client(server.base)
    cal.guest("Cal")
    table = cal.create_table("master", seats=[{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    cal.start(table["id"])
    from websockets.sync.client import connect

    headers = {"Cookie": f"dragonlair_session={cal.session}"}
    with connect(cal.ws_url(table["id"]), additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "features": ["teleport"]}))
        welcome = json.loads(ws.recv(10))
        assert welcome["type"] == "welcome" and "features" not in welcome
        ws.send(json.dumps({"type": "hello", "protocol": 1, "features": ["x" * 33]}))
        refused = json.loads(ws.recv(10))
        assert refused["type"] == "error" and refused["code"] == "server.msg.bad_field"
    cal.close()
