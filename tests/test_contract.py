"""Cross-game conformance: every game honours the contract in dragonlair/core/game.py.

One module, parametrised by game and table (through the plugin registry,
:mod:`dragonlair.games`), for the checks every game must pass alike:

- the walk: who moves, stable legal orders, chance distributions, a proper outcome;
- records round-trip (play -> Record -> JSON text -> load -> replay gives the same state);
- every action's text and index round-trip, for every action of the action space and every
  legal action met in play;
- an illegal action (or a seat that may not move) is refused with a code and changes nothing;
- views are secret (F8, M6, D9): changing another seat's secrets (hidden coins and sealed
  bids, a hand, items) never changes what a seat or a spectator sees, and no event a viewer
  may see is addressed to somebody else;
- every view validates against the game's models, a sample against the published JSON Schema;
- ``snapshot -> restore -> continue`` equals the original and the replay of the history;
- ``events_for`` and ``view(seat, since)`` filter the events by viewer and sequence number.

A plain ``pytest`` runs short versions (a few dozen games per case); the ``slow`` twins
(``-m slow``, CI) keep the issue's counts: every view of 2,000 random games per game
validates, and snapshot -> restore -> continue equals replay over 1,000 random games per game.
A check that belongs to one game's rules stays in that game's test files.
"""

from __future__ import annotations

import ast
import json
import math
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter

from dragonlair.core.conformance import Conformance, replayed
from dragonlair.core.errors import DragonlairError, IllegalActionError, MalformedActionError
from dragonlair.core.game import CHANCE, Game, State
from dragonlair.core.plugin import load_path
from dragonlair.core.records import Record, finish_record, new_record, replay
from dragonlair.core.streams import SeatViews
from dragonlair.games import GAME_FACTORIES, game_ids, make_game, plugin
from tests import sources
from tests.sizes import size

PACKAGE = Path(__file__).resolve().parent.parent / "dragonlair"
CODE = re.compile(r"^[a-z]+(\.[a-z0-9_]+)+$")


# ---------------------------------------------------------------------------- the tables
def _conformance(game_id: str) -> Conformance:
    """The game's part of the suite, named by its plugin (built-in and installed games alike:
    a game shipped as its own package is tested here as soon as it is installed)."""
    path = plugin(game_id).conformance
    assert path is not None, f"{game_id}'s plugin names no conformance spec"
    spec: Conformance = load_path(path)
    return spec


SPECS: dict[str, Conformance] = {g: _conformance(g) for g in game_ids()}
#: (game, options): the tables every check runs on (a plain run; the slow twins vary more)
TABLES: list[tuple[str, dict[str, Any]]] = [
    (game_id, dict(options)) for game_id, spec in SPECS.items() for options in spec.tables]
#: a plain run checks each game's first table; the other tables (more seats, other options)
#: are marked slow, so CI and the release run check every table (CONTRIBUTING.md, tiers)
CASES = [pytest.param(game_id, options, id=f"{game_id}-{'-'.join(map(str, options.values()))}"
                      if options else game_id,
                      marks=[pytest.mark.slow] if any(g == game_id for g, _ in TABLES[:i]) else [])
         for i, (game_id, options) in enumerate(TABLES)]
GAMES = sorted({game_id for game_id, _ in TABLES})
#: the games with secrets (F8, M6, D9)
SECRET_GAMES = [g for g in GAMES if SPECS[g].secrets_changed is not None]


def test_the_tables_cover_every_game() -> None:
    """Every game of the registry (an installed one too) is in the suite, and the three
    built-in games declare their secrets."""
    assert game_ids() == GAMES
    assert {"fist", "master", "farkle"} <= set(SECRET_GAMES)


@pytest.mark.parametrize("game_id", [g for g in GAMES if g not in SECRET_GAMES])
def test_a_game_without_secrets_shows_every_seat_the_same(game_id: str) -> None:
    """A game that declares no secrets: every seat's public and private parts are the same as
    the others', and no event is addressed to one seat."""
    options = next(o for g, o in TABLES if g == game_id)
    for seed in range(3):
        state = played(game_id, options, seed)
        views = [state.view(s) for s in range(state.num_players)]
        assert all(v["public"] == views[0]["public"] for v in views)
        assert all(v["private"] == views[0]["private"] for v in views)
        assert all(e.to is None for e in state.all_events())


@cache
def _game(game_id: str, options_json: str) -> Game:
    """A configured game, shared (the Farkle scorer memoises per game)."""
    return make_game(game_id, json.loads(options_json))


def game_for(game_id: str, options: dict[str, Any]) -> Game:
    return _game(game_id, json.dumps(options, sort_keys=True))


def step(state: State, rng: random.Random) -> None:
    """One seeded step: chance by its odds, else every seat to move a uniform legal action
    (a sealed simultaneous move: each seat in turn, from the same position)."""
    seats = state.current_seats()
    if seats == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))
        return
    for seat in seats:
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


def positions(game: Game, seed: int, limit: int | None = None) -> Iterator[State]:
    """Every position of one seeded random game (the same object, after each step), or of
    its first ``limit`` steps."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    steps = 0
    while not state.is_terminal() and (limit is None or steps < limit):
        step(state, rng)
        steps += 1
        yield state


@cache
def _history(game_id: str, options_json: str, seed: int) -> tuple[tuple[int, Any], ...]:
    *_, last = positions(_game(game_id, options_json), seed)
    return tuple(last.history)


def played(game_id: str, options: dict[str, Any], seed: int) -> State:
    """A finished seeded random game (its history computed once per session, replayed)."""
    key = json.dumps(options, sort_keys=True)
    state = _game(game_id, key).new_initial_state()
    for seat, action in _history(game_id, key, seed):
        state.apply(seat, action)
    return state


def dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


@cache
def adapter(game_id: str) -> TypeAdapter[Any]:
    return TypeAdapter(SPECS[game_id].model)


@cache
def schema_validator(game_id: str) -> jsonschema.Draft202012Validator:
    """The game's JSON Schema of its views, and the published file (dragonlair/schemas/ for
    the built-in games) the same."""
    schema_fn = plugin(game_id).view_schema
    assert schema_fn is not None, f"{game_id} publishes no view schema"
    schema = json.loads(json.dumps(schema_fn()))
    published = SPECS[game_id].published_schema
    if published is not None:
        on_disk = json.loads(published.read_text(encoding="utf-8"))
        assert on_disk == schema, f"{published} is not the models'"
    return jsonschema.Draft202012Validator(schema)


# ---------------------------------------------------------------------------- the walk
def test_nothing_uses_the_global_random() -> None:
    """Chance comes from a seeded random.Random handed in, never the module-level one."""
    offenders = []
    for path in sources.python_files(PACKAGE):
        if "random" not in sources.text(path):
            continue
        for node in ast.walk(sources.tree(path)):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "random" and node.attr != "Random"):
                offenders.append(f"{path.name}:{node.lineno} random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                offenders.append(f"{path.name}:{node.lineno} from random import ...")
    assert not offenders, offenders


@pytest.mark.parametrize("seeds", [6, pytest.param(30, marks=pytest.mark.slow)])
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_walk_honours_the_contract(game_id: str, options: dict[str, Any], seeds: int) -> None:
    """Who moves, legal actions in a stable order (by index, once each), chance outcomes that
    are a distribution, and an outcome with a reason code, placings and winners."""
    game = game_for(game_id, options)
    info = game.info
    assert info.id == game_id and info.version >= 1
    assert info.min_players <= game.num_players <= info.max_players
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            seats = state.current_seats()
            if seats == (CHANCE,):
                outcomes = state.chance_outcomes()
                assert outcomes and math.isclose(sum(p for _, p in outcomes), 1.0)
                assert all(p > 0 for _, p in outcomes)
                assert state.legal_actions(0) == ()
                action = state.sample_chance(rng)
                assert action in [a for a, _ in outcomes]
                state.apply(CHANCE, action)
                continue
            for seat in range(game.num_players):
                legal = list(state.legal_actions(seat))
                assert bool(legal) == (seat in seats)
                assert [a.index for a in legal] == sorted({a.index for a in legal})
            for seat in seats:
                state.apply(seat, rng.choice(list(state.legal_actions(seat))))
        outcome = state.outcome()
        assert outcome is not None and CODE.match(outcome.reason)
        assert len(outcome.placings) == game.num_players
        assert all(outcome.placings[w] == 1 for w in outcome.winners)
        if not outcome.winners:  # a draw: everybody shares first place
            assert set(outcome.placings) == {1}
        assert state.current_seats() == () and state.legal_actions(0) == ()


@pytest.mark.parametrize("game_id", sorted(GAME_FACTORIES))
def test_malformed_actions_are_not_illegal_ones(game_id: str) -> None:
    game = make_game(game_id)
    for text in ("", "banana", "bid", "bid fx c1", "pay rrq", "place dragon d4", "place ruby z9"):
        with pytest.raises(MalformedActionError) as info:
            game.parse_action(text)
        assert CODE.match(info.value.code)


@pytest.mark.parametrize("game_id", sorted(GAME_FACTORIES))
def test_a_view_since_a_negative_or_odd_number_is_refused(game_id: str) -> None:
    """Every game refuses ``view(seat, since)`` with a ``since`` that is no event number,
    with a code (and the state unchanged): a negative one is not read as 0."""
    state = make_game(game_id).new_initial_state()
    before = dump(state.view(None))
    for since in (-1, -7, 1.5, "3", None):
        with pytest.raises(DragonlairError) as info:
            state.view(0, since)  # type: ignore[arg-type]
        assert CODE.match(info.value.code) and "since" in info.value.code
    assert dump(state.view(None)) == before


# ---------------------------------------------------------------------------- records
def check_records(game_id: str, options: dict[str, Any], seeds: range) -> None:
    game = game_for(game_id, options)
    seats = [{"name": f"r{s}", "player": "bot:random"} for s in range(game.num_players)]
    for seed in seeds:
        state = played(game_id, options, seed)
        record = finish_record(new_record(game, seats), state)
        text = record.dumps()
        again = Record.from_json(json.loads(text))
        assert again.dumps() == text
        _, replayed_state = replay(again)
        assert replayed_state.full_state() == state.full_state()
        assert replayed_state.outcome() == state.outcome()
        for _, action in state.history:
            assert game.parse_action(str(action)) == action
            assert game.action_from_index(action.index) == action


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_records_replay_and_round_trip(game_id: str, options: dict[str, Any]) -> None:
    """A finished game's record round-trips through JSON text and replays to the same full
    state and outcome; every action in it round-trips through its text and index."""
    check_records(game_id, options, range(3))


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_records_replay_and_round_trip_many(game_id: str, options: dict[str, Any]) -> None:
    check_records(game_id, options, range(10_000, 10_000 + size(ci=12, long=300)))


# ---------------------------------------------------------------------------- actions
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_action_text_and_index_round_trips(game_id: str, options: dict[str, Any]) -> None:
    """The whole action space: ``action_from_index(i).index == i``, its text parses back to
    the same (interned) action, and no two actions share a text; on this table and on
    varied ones (custom characters, a deck file's own cards)."""
    varied = SPECS[game_id].varied
    for table in (options, varied(1), varied(2)):
        game = game_for(game_id, table)
        texts = set()
        for i in range(game.num_distinct_actions):
            action = game.action_from_index(i)
            assert action.index == i
            assert game.parse_action(str(action)) is action
            texts.add(str(action))
        assert len(texts) == game.num_distinct_actions


def check_legal_round_trips(game_id: str, options: dict[str, Any], seeds: range,
                            limit: int | None = None) -> None:
    game = game_for(game_id, options)
    for seed in seeds:
        for state in positions(game, seed, limit):
            for seat in state.current_seats():
                pairs = (state.chance_outcomes() if seat == CHANCE
                         else [(a, 1.0) for a in state.legal_actions(seat)])
                for action, _ in pairs:
                    assert game.parse_action(str(action)) == action
                    assert game.action_from_index(action.index) == action


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_legal_action_round_trips(game_id: str, options: dict[str, Any]) -> None:
    """Every legal action and chance outcome met in play (the first 300 steps of two games;
    whole games in the slow run): ``parse_action(str(a)) == a`` and
    ``action_from_index(a.index) == a``."""
    check_legal_round_trips(game_id, options, range(2), limit=150)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_legal_action_round_trips_many(game_id: str, options: dict[str, Any]) -> None:
    check_legal_round_trips(game_id, options, range(2, 2 + size(ci=3, long=18)))


# ---------------------------------------------------------------------------- refusals
def check_illegal(game_id: str, options: dict[str, Any], seeds: range, every: int,
                  limit: int | None = None) -> int:
    game = game_for(game_id, options)
    refused = 0
    for seed in seeds:
        rng = random.Random(seed)
        for n, state in enumerate(positions(game, seed, limit)):
            if n % every or state.is_terminal():
                continue
            before = dump(state.full_state())
            seats = state.current_seats()
            count = state.event_count
            mover = seats[0]
            legal = set(state.legal_actions(mover)) if mover != CHANCE else {
                a for a, _ in state.chance_outcomes()}
            tried = [game.action_from_index(i)
                     for i in rng.sample(range(game.num_distinct_actions),
                                              min(25, game.num_distinct_actions))]
            for action in tried:
                if action in legal:
                    continue
                with pytest.raises(IllegalActionError) as info:
                    state.apply(mover, action)
                assert CODE.match(info.value.code), info.value.code
                assert all(isinstance(k, str) for k in info.value.params)
                json.dumps(info.value.params)
                refused += 1
            outsider = next((s for s in range(game.num_players) if s not in seats), None)
            if outsider is not None and legal:
                with pytest.raises(IllegalActionError) as info:
                    state.apply(outsider, next(iter(legal)))
                assert CODE.match(info.value.code)
            assert dump(state.full_state()) == before
            assert state.event_count == count and state.current_seats() == seats
    return refused


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_illegal_actions_are_refused_with_a_code_and_change_nothing(
        game_id: str, options: dict[str, Any]) -> None:
    """At positions of random games (their first 300 steps; whole games in the slow run),
    actions that are not legal now (and any action of a
    seat that may not move) raise IllegalActionError with a code and JSON params, and leave
    the full state, the events and who moves as they were."""
    assert check_illegal(game_id, options, range(2), every=7, limit=150) > 15


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_illegal_actions_are_refused_with_a_code_and_change_nothing_many(
        game_id: str, options: dict[str, Any]) -> None:
    seeds = size(ci=3, long=18)
    assert check_illegal(game_id, options, range(2, 2 + seeds), every=5) > 15 * seeds


# ---------------------------------------------------------------------------- secrecy
def no_secrets(state: State, seat: int | None, rng: random.Random) -> State:
    """A game that declares no secrets: nothing to change (check_secrecy still checks that
    no event reaches a viewer it is not addressed to)."""
    return state.clone()


def check_secrecy(game_id: str, options: dict[str, Any], seeds: range, stops: int) -> int:
    game = game_for(game_id, options)
    changed = SPECS[game_id].secrets_changed or no_secrets
    compared = 0
    for seed in seeds:
        rng = random.Random(seed)
        whole = played(game_id, options, seed)  # the records' games: played once
        history = whole.history
        cuts = sorted(rng.sample(range(len(history)), min(stops, len(history))))
        state = game.new_initial_state()
        done = 0
        for cut in cuts:
            for seat, action in history[done:cut]:
                state.apply(seat, action)
            done = cut
            for viewer in (*range(game.num_players), None):
                view = dump(state.view(viewer))
                assert dump(changed(state, viewer, rng).view(viewer)) == view, (seed, viewer)
                for _, event in state.events_for(viewer):
                    assert event.to is None or event.to == viewer
                compared += 1
    return compared


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_views_never_depend_on_another_seats_secrets(game_id: str,
                                                     options: dict[str, Any]) -> None:
    """F8, M6, D9: with every secret of the other seats changed (Fist: hidden coins and
    sealed bids; Master: the other hand and the set-aside cards; Farkle: the items), a seat's
    view is the same, and so is the spectator's; every event a viewer may see is public or
    addressed to that viewer."""
    assert check_secrecy(game_id, options, range(2), stops=4) > 2 * 3


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_views_never_depend_on_another_seats_secrets_many(game_id: str,
                                                          options: dict[str, Any]) -> None:
    check_secrecy(game_id, options, range(10_000, 10_000 + size(ci=5, long=300)), stops=8)


@pytest.mark.parametrize("game_id", SECRET_GAMES)
def test_the_secret_changes_do_change_secrets(game_id: str) -> None:
    """The secrecy check is not vacuous: what the changed copy holds differs."""
    changed = SPECS[game_id].secrets_changed
    assert changed is not None
    options = next(o for g, o in TABLES if g == game_id)
    state = played(game_id, options, 0)
    game = game_for(game_id, options)
    history = state.history
    rng = random.Random(1)
    differ = 0
    for cut in range(len(history) // 10, len(history), max(1, len(history) // 10)):
        at = replayed(game, history[:cut])
        if dump(changed(at, 0, rng).full_state()) != dump(at.full_state()):
            differ += 1
    assert differ >= 3


# ---------------------------------------------------------------------------- views
def check_views(game_id: str, count: int, sample: float, varied: bool,
                options: dict[str, Any] | None = None, limit: int | None = None) -> int:
    """Validate every view of ``count`` games (of their first ``limit`` steps) with the
    models (each viewer asking for the events since its last view, as a client does), a
    sample against the published file."""
    spec = SPECS[game_id]
    adapt = adapter(game_id)
    validator = schema_validator(game_id)
    rng = random.Random(0)
    checked = 0
    for seed in range(count):
        game = game_for(game_id, spec.varied(seed) if varied else options or {})
        last: dict[int | None, int] = {}
        for state in positions(game, seed, limit):
            for seat in (None, *range(state.num_players)):
                view = state.view(seat, last.get(seat, 0))
                adapt.validate_python(view)
                last[seat] = view["events_total"]
                checked += 1
                if rng.random() < sample:
                    validator.validate(json.loads(json.dumps(state.view(seat))))
    return checked


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_view_validates(game_id: str, options: dict[str, Any]) -> None:
    """Every view (every seat and the spectator, at every position) validates against the
    game's view models, and a sample against the published JSON Schema."""
    assert check_views(game_id, 2, 0.01, varied=False, options=options, limit=100) > 200


@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_of_varied_tables_validates(game_id: str) -> None:
    """The same over varied tables (seat counts, custom characters or decks, variants): their
    first 150 steps here, whole games in the slow twin."""
    assert check_views(game_id, 2, 0.01, varied=True, limit=150) > 100


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_of_many_random_games_validates(game_id: str) -> None:
    """40 games in CI, 2000 in the release run."""
    games = size(ci=24, long=2000)
    assert check_views(game_id, games, 0.0005, varied=True) > 100 * games


# ---------------------------------------------------------------------------- snapshots
def same(a: State, b: State, views: bool = True) -> None:
    assert a.current_seats() == b.current_seats()
    for seat in range(a.num_players):
        assert list(a.legal_actions(seat)) == list(b.legal_actions(seat))
    if views:
        for seat in (None, *range(a.num_players)):
            assert a.view(seat) == b.view(seat)
        assert a.all_events() == b.all_events()
        assert a.full_state() == b.full_state()
    assert a.event_count == b.event_count
    assert a.outcome() == b.outcome()


def check_snapshots(game_id: str, count: int, views_every: int) -> None:
    """At random positions of random games on varied tables: snapshot -> JSON text ->
    restore equals the original and the replay of its history (legal actions, views,
    events, full state, outcome), its snapshot is the same JSON, and both go on alike with
    the same seeded choices."""
    spec = SPECS[game_id]
    tables = spec.snapshot_tables or spec.varied
    for seed in range(count):
        game = game_for(game_id, tables(seed))
        rng = random.Random(seed)
        cuts = sorted(rng.sample(range(*spec.cut), spec.cuts))
        state = game.new_initial_state()
        for cut in cuts:
            while not state.is_terminal() and len(state.history) < cut:
                step(state, rng)
            data = json.loads(json.dumps(state.snapshot()))
            restored = game.restore(data)
            same(state, restored)
            same(replayed(game, state.history), restored)
            assert restored.snapshot() == data
            a, b = state.clone(), restored
            ra, rb = random.Random(seed * 31 + cut), random.Random(seed * 31 + cut)
            j = 0
            while not a.is_terminal() and (spec.follow is None or j < spec.follow):
                step(a, ra)
                step(b, rb)
                same(a, b, views=j % views_every == views_every - 1)
                j += 1
            same(a, b)
            same(replayed(game, a.history), b)


@pytest.mark.parametrize("game_id", GAMES)
def test_snapshot_restore_continue_equals_replay(game_id: str) -> None:
    """The tables of the first 3 seeds; views compared every 25 steps and at the end
    (the slow run below: 24 games in CI, 1000 in the release run)."""
    check_snapshots(game_id, 3, views_every=25)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_snapshot_restore_continue_over_many_games(game_id: str) -> None:
    """24 games in CI, 1000 in the release run."""
    check_snapshots(game_id, size(ci=12, long=1000), views_every=25)


# ---------------------------------------------------------------------------- events
def check_events(game_id: str, options: dict[str, Any], seeds: range, stops: int) -> None:
    game = game_for(game_id, options)
    for seed in seeds:
        history = played(game_id, options, seed).history
        cuts = sorted(random.Random(seed).sample(range(len(history)), stops - 1))
        for cut in [*cuts, len(history)]:  # the end too
            state = replayed(game, history[:cut])
            every_event = state.all_events()
            total = state.event_count
            assert len(every_event) == total
            for viewer in (None, *range(game.num_players)):
                mine = state.events_for(viewer)
                assert mine == [(q, e) for q, e in enumerate(every_event)
                                if e.to is None or e.to == viewer]
                full = state.view(viewer)
                assert full["events_total"] == total and full["events_since"] == 0
                assert [(e["seq"], e["code"]) for e in full["events"]] == [
                    (q, e.code) for q, e in mine]
                for since in sorted({0, 1, total // 2, max(total - 1, 0), total, total + 5}):
                    assert state.events_for(viewer, since) == [(q, e) for q, e in mine
                                                               if q >= since]
                    part = state.view(viewer, since)
                    assert part["events_since"] == since
                    assert part["events"] == [e for e in full["events"] if e["seq"] >= since]
                    assert {k: v for k, v in part.items() if k not in ("events", "events_since")
                            } == {k: v for k, v in full.items()
                                  if k not in ("events", "events_since")}
            for event in every_event:
                assert CODE.match(event.code), event.code
                json.dumps(dict(event.params))
                assert event.to is None or 0 <= event.to < game.num_players


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_events_for_filters_by_viewer_and_since(game_id: str, options: dict[str, Any]) -> None:
    """``events_for(viewer, since)`` gives ``(seq, event)`` of the events that are public or
    addressed to the viewer with ``seq >= since``, oldest first; ``view(viewer, since)``
    carries exactly those, and the rest of the view does not depend on ``since``; every
    event's code is a catalogue code with JSON params."""
    check_events(game_id, options, range(1), stops=4)


def check_streams(game_id: str, options: dict[str, Any], seeds: range, every: int) -> None:
    """Follow random games with a :class:`SeatViews` per viewer (asked each step, as a driver
    asks for the seats to move): its view equals ``state.view`` every ``every`` steps and at
    the end, and a view the consumer changes does not change the next one."""
    game = game_for(game_id, options)
    viewers: list[int | None] = [None, *range(game.num_players)]
    for seed in seeds:
        history = played(game_id, options, seed).history
        state = game.new_initial_state()
        views = SeatViews()
        for n, (seat, action) in enumerate([*history, (None, None)]):
            for viewer in viewers:
                got = views.view(state, viewer)
                if n % every == 0 or seat is None:
                    assert got == state.view(viewer), (seed, n, viewer)
                got["events"].append({"planted": True})  # the consumer's own list
            if seat is not None:
                state.apply(seat, action)
        assert all(views.view(state, v) == state.view(v) for v in viewers)
        fresh = game.new_initial_state()  # a state with fewer events: views in full again
        assert all(views.view(fresh, v) == fresh.view(v) for v in viewers)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_view_streams_equal_the_full_views(game_id: str, options: dict[str, Any]) -> None:
    """Views as streams (:mod:`dragonlair.core.streams`, issue 24): the view built from the
    events since the last one is the full view, key for key."""
    check_streams(game_id, options, range(1), every=30)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_view_streams_equal_the_full_views_many(game_id: str, options: dict[str, Any]) -> None:
    check_streams(game_id, options, range(20_000, 20_000 + size(ci=2, long=40)),
                  every=size(ci=10, long=1))


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_events_for_filters_by_viewer_and_since_many(game_id: str,
                                                     options: dict[str, Any]) -> None:
    check_events(game_id, options, range(10_000, 10_000 + size(ci=2, long=50)), stops=8)
