"""Presence over several processes (issue 22; docs/server.md, "Away players and abandoned
tables"): each process tells the others over Redis which people it has sockets of, so a
person connected to another process than the one running the table's timers is shown
connected everywhere and is not replaced; once they close the tab, the others' processes
show the countdown and the takeover bot takes the seat (reason ``away``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("websockets")

from tests.server_multi.cluster import Cluster, Game, Viewer

JSON = dict[str, Any]


def wait_for(viewer: Viewer, pred: Callable[[JSON], bool], seconds: float = 30.0) -> JSON:
    """The first message (received or still to come) ``viewer`` got that ``pred`` accepts."""
    assert viewer.conn is not None
    deadline = time.monotonic() + seconds
    seen = 0
    while True:
        for m in viewer.messages[seen:]:
            if pred(m):
                return m
        seen = len(viewer.messages)
        if time.monotonic() > deadline:
            raise AssertionError(f"no such message; last: {viewer.messages[-3:]}")
        viewer.conn.recv(0.1)


def presence(message: JSON) -> JSON | None:
    if message.get("type") == "presence":
        return message
    found = message.get("presence") if message.get("type") == "welcome" else None
    return found if isinstance(found, dict) else None


def seat_connected(seat: int, connected: bool) -> Callable[[JSON], bool]:
    def pred(message: JSON) -> bool:
        p = presence(message)
        return p is not None and any(e["seat"] == seat and e["connected"] is connected
                                     for e in p["seats"])
    return pred


@pytest.mark.slow  # seconds of waiting for an away countdown
def test_presence_crosses_processes_and_an_away_player_is_replaced(cluster3: Cluster) -> None:
    """On two processes of the shared cluster (tests/server_multi/conftest.py: short claim
    leases, ``--away-min 1``)."""
    c = cluster3
    # the away time counts from the start, before the sockets connect: 6 s, not less, or a
    # loaded machine (CI's 2 cores, pytest beside the cluster) may replace Bob before his
    # process has told the others he is there
    away = 6
    g = Game(c.nodes[:2], "master", [{"kind": "me", "node": 0}, {"kind": "open", "node": 1}],
             {}, spectators=[0], away={"kind": "bot", "seconds": away})
    try:
        ann, bob, eve = g.viewers
        assert (ann.node, bob.node) == (c.nodes[0], c.nodes[1])
        # Ann's and Eve's process learns that Bob is connected to the other one
        for v in (ann, eve):
            wait_for(v, seat_connected(1, True))
        wait_for(bob, seat_connected(0, True))
        g.leave(1)  # Bob closes the tab
        note = presence(wait_for(eve, seat_connected(1, False)))
        assert note is not None
        entry = next(e for e in note["seats"] if e["seat"] == 1)
        assert entry["takeover_at"] == entry["since"] + away
        takeover = wait_for(eve, lambda m: m.get("type") == "takeover")
        assert (takeover["seat"], takeover["reason"]) == (1, "away")
        # nobody connected was replaced: Ann's seat is still hers
        assert not [m for m in ann.messages
                    if m.get("type") == "takeover" and m["seat"] == 0]
    finally:
        g.close()
