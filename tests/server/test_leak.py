"""No seat's secret ever reaches another client: random games of all three games over a real
server (uvicorn on 127.0.0.1), people playing random legal moves through the WebSocket, bots,
and spectators (seated users' friends and anonymous ones); every message each client received
is kept and scanned.

The engine is the oracle. For each seat and each point of the log, the seat's *secrets* are
the tokens of what its own view holds (its ``private`` part, the events addressed to it)
that no other seat's view and no spectator's view holds at that point: Fist coins behind the
screen and a sealed bid before the reveal, Master hands, Farkle items (planted with
distinctive card ids through a deck option). A secret stays forbidden to the others until
one of their views shows it (a bid once revealed, an item once used). Every message a client
received (welcome, update, ack, error...) is tokenised the same way and must hold none of
another seat's forbidden tokens. On top of that, every view received must be exactly the
engine's view for the client's seat (:func:`check_no_leaks`).

Default run: one game of each; ``-m slow`` (CI): 14, every game at every number of seats
twice; ``scripts/test.sh --long``: 300 (tests/sizes.py; bounded in time).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from dragonlair.core.game import State
from dragonlair.core.records import Record, replay
from dragonlair.server.settings import Limits
from tests.server.helpers import (
    Client,
    ServerThread,
    check_no_leaks,
    new_table,
    play_to_end,
    states_at,
)
from tests.sizes import quick_first, seconds, size

JSON = dict[str, Any]

#: Farkle items with ids no other text of the game contains (D8.5 deck data): a leak of an
#: item's identity would show as one of these strings in a message
PLANTED_ITEMS = [
    {"id": f"zq-secret-{effect.replace('_', '-')}-{n}", "name": {"en": f"Secret {n}"},
     "text": {"en": "planted"}, "effect": effect, "amount": amount, "count": 2}
    for n, (effect, amount) in enumerate([("gain", 300), ("pending_bonus", 300),
                                          ("hot_dice", 0), ("reroll_farkle", 0),
                                          ("battle_shield", 0), ("battle_damage", 1),
                                          ("gain", 500), ("keep_extra", 3)])
]


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def tokens(value: Any) -> set[str]:
    """The pieces of a JSON value a leak would carry: every ``"key":value`` pair, every
    string of four characters or more, and every list or object whose text has six or more
    (so a hand, a bid, an item list or an event is a token; a lone ``0`` is not). A
    value's text is its :func:`compact` text, built once from its parts' (the scan reads
    every message and view: serializing each part again at each level of nesting was most
    of its time)."""
    out: set[str] = set()
    add = out.add

    def text(v: Any) -> str:
        if isinstance(v, dict):
            parts = []
            for k in sorted(v):
                pair = f"{quote(k)}:{text(v[k])}"
                add(pair)
                parts.append(pair)
            whole = "{" + ",".join(parts) + "}"
        elif isinstance(v, list):
            whole = "[" + ",".join([text(x) for x in v]) + "]"
        elif isinstance(v, str):
            whole = quote(v)
            if len(v) >= 4:
                add(whole)
            return whole
        elif v is None or isinstance(v, bool):
            return "null" if v is None else "true" if v else "false"
        elif isinstance(v, int):
            return int.__repr__(v)
        else:
            return compact(v)  # a float
        if len(whole) >= 6:
            add(whole)
        return whole

    text(json.loads(json.dumps(value)))  # JSON's own types: string keys, lists
    return out


#: a string's JSON text, as :func:`compact` writes it (ASCII, escaped)
quote = json.encoder.encode_basestring_ascii


def own_event_tokens(event: JSON) -> set[str]:
    """The tokens of an event addressed to one seat: the event whole, and the lists and
    strings of its params (their ``"key":value`` pairs, like ``"seat":1``, are the public
    twin's too)."""
    out = {compact(event)}
    for x in (event.get("params") or {}).values():
        out |= {t for t in tokens(x) if not t.startswith('"') or ":" not in t}
    return out


class Secrets:
    """For each seat, the tokens forbidden to every other client at each point of the log."""

    def __init__(self, record: Record, seqs: list[int]) -> None:
        self.num_players = len(record.seats)
        wanted = sorted(set(seqs))
        self.states: dict[int, State] = states_at(record, wanted)
        self.forbidden: dict[int, dict[int, set[str]]] = {}  # seq -> seat -> tokens
        ever: dict[int, set[str]] = {s: set() for s in range(self.num_players)}
        viewers: list[int | None] = [None, *range(self.num_players)]
        # events only ever get appended: each viewer's are read once (``since``) and their
        # tokens kept, so a view's tokens are those of its body plus every event so far
        since: dict[int | None, int] = dict.fromkeys(viewers, 0)
        heard: dict[int | None, set[str]] = {s: set() for s in viewers}
        own: dict[int | None, set[str]] = {s: set() for s in viewers}
        for n in wanted:
            state = self.states[n]
            seen: dict[int | None, set[str]] = {}
            mine: dict[int | None, set[str]] = {}
            for s in viewers:
                view = state.view(s, since=since[s])
                for event in view.get("events") or []:
                    heard[s] |= tokens(event)
                    if s is not None and event.get("to") == s:
                        own[s] |= own_event_tokens(event)
                if isinstance(view.get("events_total"), int):
                    since[s] = view["events_total"]
                body = {k: x for k, x in view.items()
                        if k not in ("events", "events_since", "events_total")}
                seen[s] = tokens(body) | heard[s]
                mine[s] = tokens(view.get("private")) | own[s]
            self.forbidden[n] = {}
            for s in range(self.num_players):
                others = set().union(*(seen[u] for u in viewers if u != s))
                ever[s] |= mine[s] - others  # a secret now...
                self.forbidden[n][s] = ever[s] - others  # ...until another view shows it

    def leaks(self, viewer_seat: int | None, seq: int, message: JSON) -> list[tuple[int, str]]:
        got = tokens(message)
        return [(s, t) for s, bad in self.forbidden[seq].items() if s != viewer_seat
                for t in sorted(got & bad)]


def scan(record: Record, clients: list[tuple[int | None, list[JSON]]]) -> tuple[int, int]:
    """Scan every message of every client; returns (messages scanned, secrets tracked)."""
    seqs = [0] + [m["seq"] for _, msgs in clients for m in msgs if "seq" in m]
    seqs = [min(n, len(record.actions)) for n in seqs] + [len(record.actions)]
    secrets = Secrets(record, seqs)
    scanned = 0
    for seat, msgs in clients:
        at = 0  # the newest log position this client had heard of
        for m in msgs:
            if m.get("type") in ("welcome", "update"):
                at = m["seq"]
            elif isinstance(m.get("seq"), int):  # an ack: the log position it names
                at = max(at, min(m["seq"], len(record.actions)))
            found = secrets.leaks(seat, at, m)
            assert not found, (f"seat {seat} received a secret of another seat at seq "
                               f"{at}: {found[:5]} in {compact(m)[:400]}")
            scanned += 1
    tracked = sum(len(v) for by_seat in secrets.forbidden.values() for v in by_seat.values())
    return scanned, tracked


#: every game at every number of seats the leak test plays
SHAPES = [("master", 2), ("fist", 3), ("fist", 4), ("fist", 5), ("farkle", 2), ("farkle", 3),
          ("farkle", 4)]


def setup(rng: random.Random, game: str, players: int | None = None
          ) -> tuple[list[JSON], JSON]:
    """Seats (``me``/``open``/``bot``) and options of a random short game (of ``players``
    seats, or a random number)."""
    if game == "master":
        seats = [{"kind": "me"}, rng.choice([{"kind": "open"}, {"kind": "open"},
                                             {"kind": "bot", "bot": "greedy"}])]
        return seats, {}
    if game == "fist":
        n = rng.randint(3, 5) if players is None else players
        seats = [{"kind": "me"}] + [rng.choice([{"kind": "open"},
                                                 {"kind": "bot", "bot": "random"}])
                                    for _ in range(n - 1)]
        return seats, {"max_turns": rng.randint(1, 2)}
    n = rng.randint(2, 4) if players is None else players
    seats = [{"kind": "me"}] + [rng.choice([{"kind": "open"}, {"kind": "bot", "bot": "random"}])
                                for _ in range(n - 1)]
    options = {"max_turns": rng.randint(4, 10),
               "decks": {"items": PLANTED_ITEMS}}
    return seats, options


def one_game(server: ServerThread, seed: int, game: str,
             players: int | None = None) -> tuple[int, int, int]:
    """Play one random game to the end and check every message; (views, messages, secrets)."""
    rng = random.Random(seed)
    seats, options = setup(rng, game, players)
    owner = Client(server, f"s{seed}-0")
    tid = new_table(owner, game, seats, **options)["id"]
    humans = {0: owner}
    for i, seat in enumerate(seats):
        if seat["kind"] == "open":
            c = Client(server, f"s{seed}-{i}")
            assert c.http.post(f"/api/tables/{tid}/join", json={"seat": i}).status_code == 200
            humans[i] = c
    assert owner.http.post(f"/api/tables/{tid}/start").status_code == 200
    watchers = [Client(server, f"s{seed}-eve")]
    if rng.random() < 0.5:
        watchers.append(Client(server, guest=False))  # no account at all
    clients = list(humans.values()) + watchers
    # the players connect in a random order; a spectator may come in mid-game (a welcome
    # with the whole view so far)
    late = [c for c in watchers if rng.random() < 0.3]
    for c in rng.sample(clients, len(clients)):
        if c not in late:
            c.connect(tid)
    if late:
        play_to_end(server, tid, humans, rng, stop_after=rng.randint(1, 4))
        for c in late:
            c.connect(tid)
    play_to_end(server, tid, humans, rng)
    final = len(server.runtime(tid).state.history)
    for c in watchers:
        c.catch_up(final)
    r = owner.http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200, r.text
    record = Record.from_json(r.json())
    _, state = replay(record)
    assert state.is_terminal()
    received = [(c.seat, c.received) for c in clients]
    views = check_no_leaks(record, received)
    messages, tracked = scan(record, received)
    for c in clients:
        c.close()
        c.http.close()
    return views, messages, tracked


GAMES = ("master", "fist", "farkle")


@pytest.fixture(scope="module")
def leak_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    # scripted clients act as fast as the server answers: more than a person's 20 messages
    # a second (the rate limit is tested in test_play.py, not here)
    limits = Limits(messages_per_second=2000.0, message_burst=2000)
    srv = ServerThread(tmp_path_factory.mktemp("leak"), limits=limits).start()
    yield srv
    srv.stop()


def test_the_scanner_finds_a_planted_leak(leak_server: ServerThread) -> None:
    """The scanner itself: another seat's private part, or an item's identity, in a message
    is found (so a silent pass means something)."""
    rng = random.Random(5)
    _, options = setup(rng, "farkle")
    options["max_turns"] = 3
    game_seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    owner = Client(leak_server, "scanner")
    tid = new_table(owner, "farkle", game_seats, **options)["id"]
    assert owner.http.post(f"/api/tables/{tid}/start").status_code == 200
    owner.connect(tid)
    play_to_end(leak_server, tid, {0: owner}, rng)
    r = owner.http.get(f"/api/tables/{tid}/record")
    record = Record.from_json(r.json())
    items = [a for a in record.actions if a.startswith("chance: item zq-")]
    assert items  # the planted deck was dealt
    n = record.actions.index(items[1]) + 1  # seat 1's first item is dealt
    state = states_at(record, [n])[n]
    forged = {"type": "update", "seq": n, "seat": 0, "view": state.view(1)}
    with pytest.raises(AssertionError, match="secret of another seat"):
        scan(record, [(0, [forged])])
    honest = {"type": "update", "seq": n, "seat": 0, "view": state.view(0)}
    assert scan(record, [(0, [honest])])[0] == 1


@pytest.mark.parametrize("game", quick_first(1, GAMES))
def test_a_few_random_games_leak_nothing(leak_server: ServerThread, game: str) -> None:
    totals = [0, 0, 0]
    for seed in range(1):  # one game each (the slow run below: many)
        for i, x in enumerate(one_game(leak_server, 1000 * GAMES.index(game) + seed, game)):
            totals[i] += x
    views, messages, tracked = totals
    assert views > 20 and messages > views and tracked > 0


@pytest.mark.slow
def test_many_random_games_leak_nothing(leak_server: ServerThread) -> None:
    """Many games, a new random seed each run (``DRAGONLAIR_LEAK_SEED`` repeats one; it is
    printed), each game at each number of seats in turn (:data:`SHAPES`): CI 8 (every
    shape once, and one more), ``scripts/test.sh --long`` 300 (tests/sizes.py),
    ``DRAGONLAIR_LEAK_GAMES`` any number. It stops early once every shape and a third of the
    games are done and ``DRAGONLAIR_LEAK_SECONDS`` (CI 60, --long 240) have passed, so the
    run stays bounded."""
    wanted = int(os.environ.get("DRAGONLAIR_LEAK_GAMES") or size(ci=8, long=300))
    budget = float(os.environ.get("DRAGONLAIR_LEAK_SECONDS") or seconds(ci=60, long=240))
    seed0 = int(os.environ.get("DRAGONLAIR_LEAK_SEED", str(random.randrange(10**6))))
    print(f"leak test: seed {seed0}")
    t0 = time.monotonic()
    played = {g: 0 for g in GAMES}
    views = messages = 0
    least = min(wanted, max(len(SHAPES), wanted // 3))
    for i in range(wanted):
        if i >= least and time.monotonic() - t0 > budget:
            break
        game, players = SHAPES[i % len(SHAPES)]
        v, m, _ = one_game(leak_server, seed0 + i, game, players)
        views, messages = views + v, messages + m
        played[game] += 1
    print(f"leak test: {sum(played.values())} games {played}, {views} views and "
          f"{messages} messages checked in {time.monotonic() - t0:.0f}s")
    assert sum(played.values()) >= least
