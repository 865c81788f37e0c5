"""F8, M6, D9 through the research interfaces: changing another seat's hidden data never
changes a seat's observation (tensors and strings, OpenSpiel and PettingZoo), and a
resampled position keeps the seat's information state exactly."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

import dragonlair.interop.openspiel as dos  # noqa: E402
from dragonlair.core.game import CHANCE, State  # noqa: E402
from dragonlair.games.farkle.actions import Kind as FarkleKind  # noqa: E402
from dragonlair.games.farkle.state import FarkleState  # noqa: E402
from dragonlair.games.fist.state import FistState  # noqa: E402
from dragonlair.games.master.cards import CARDS as MASTER_CARDS  # noqa: E402
from dragonlair.games.master.state import HAND, MasterState, Phase  # noqa: E402
from dragonlair.interop.pettingzoo import raw_env  # noqa: E402
from tests.sizes import quick_first, size  # noqa: E402
from tests.test_interop_openspiel import random_step  # noqa: E402


# ---------------------------------------------------------------------- perturbations
def _fist(state: State, seat: int | None, rng: random.Random) -> State:
    """Another seat's coins behind the screen, private notes and sealed bid changed (as in
    tests/test_fist_properties.py); its sealed bid's record entry rewritten too."""
    assert isinstance(state, FistState)
    other = state.clone()
    space = other.space
    for s, p in enumerate(other.players):
        if s == seat:
            continue
        p.fairy += rng.randint(1, 5)
        p.common += rng.randint(1, 3)
        p.silver += rng.randint(1, 4)
        p.amulet += 1
        p.black += 1
        p.fairy_spent += 1
        bid = other.bids[s]
        if bid is not None:
            new = (space.bid[bid.fairy + 1][bid.common][bid.black][bid.amulet] if bid.kind == 0
                   else space.silver[bid.silver + 1][bid.amulet])
            other.bids[s] = new
            for i in range(other.sealed_from, len(other._history)):
                if other._history[i][0] == s:
                    other._history[i] = (s, new)
                    other._log[i] = f"p{s}: {new}"
    return other


def _master(state: State, seat: int | None, rng: random.Random) -> State:
    """The other hand (M6): one card swapped with a set-aside card of another value, and the
    other seat's deal entries of this round rewritten while the round goes on."""
    assert isinstance(state, MasterState)
    other = state.clone()
    for s in range(2):
        if s == seat:
            continue
        hand = other.hands[s]
        pairs = [(v, w) for v in range(4) for w in range(4)
                 if v != w and hand[v] and other.deck[w]]
        if pairs:
            v, w = rng.choice(pairs)
            hand[v] -= 1
            hand[w] += 1
            other.deck[w] -= 1
            other.deck[v] += 1
        start = other.round_start
        if other.phase == Phase.OVER:
            continue  # the deal is in the open record once the round is over (M6)
        for i in range(start, min(len(other._log), start + 2 * HAND)):
            owner = 0 if i - start < HAND else 1
            if owner == s:
                other._log[i] = f"chance: deal {rng.choice(MASTER_CARDS).id}"
    return other


def _farkle(state: State, seat: int | None, rng: random.Random) -> State:
    """Other seats' items (held and gained) replaced, same counts; their hidden record entries
    rewritten (as in tests/test_farkle_properties.py)."""
    assert isinstance(state, FarkleState)
    other = state.clone()
    items = state.game.items
    n = len(items)
    for s in range(state.num_players):
        if s != seat:
            other.items[s] = [rng.randrange(n) for _ in other.items[s]]
            other.gained[s] = [rng.randrange(n) for _ in other.gained[s]]
    for i, owner in other.hidden_for.items():
        if owner != seat:
            other._log[i] = f"chance: item {items[rng.randrange(n)].id}"
    for i, (s, a) in enumerate(other.history):
        if s != seat and a.kind in (FarkleKind.DISCARD, FarkleKind.KEEP_ITEM):
            other._log[i] = f"p{s}: discard {items[rng.randrange(n)].id}"
    return other


CASES: list[tuple[str, dict[str, Any], Callable[[State, int | None, random.Random], State]]] = [
    ("fist", {"players": 3, "max_turns": 3}, _fist),
    ("fist", {"players": 5, "max_turns": 2}, _fist),
    ("fist", {"players": 4, "max_turns": 2, "turn_based": True}, _fist),
    ("master", {}, _master),
    ("farkle", {"players": 3, "max_turns": 8}, _farkle),
]


def _positions(game: Any, seed: int, every: int) -> list[Any]:
    """OpenSpiel states along a random game, one every ``every`` moves (chance included)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    out = []
    k = 0
    while not state.is_terminal():
        if k % every == 0 and not state.is_chance_node():
            out.append(state.clone())
        random_step(state, rng)
        k += 1
    out.append(state)
    return out


def _case_id(case: tuple[str, dict[str, Any], Any]) -> str:
    turn_based = "-turn-based" if case[1].get("turn_based") else ""
    return f"{case[0]}-{case[1].get('players', 2)}{turn_based}"


def _with_engine(state: Any, engine_state: State) -> Any:
    twin = state.clone()
    twin._core.state = engine_state
    return twin


def _openspiel_observations(state: Any, seat: int) -> tuple[Any, ...]:
    return (state.observation_string(seat), state.information_state_string(seat),
            tuple(state.observation_tensor(seat)), tuple(state.information_state_tensor(seat)))


@pytest.mark.parametrize(("game_id", "options", "perturb"), CASES,
                         ids=[_case_id(c) for c in CASES])
def test_openspiel_observations_ignore_another_seats_secrets(game_id, options, perturb) -> None:  # type: ignore[no-untyped-def]
    """F8 / M6 / D9: perturbing other seats' hidden data in the engine state changes no
    observation or information state (tensor or string) of a seat, nor the public one."""
    game = dos.load(game_id, **options)
    spectator = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                           private_info=pyspiel.PrivateInfoType.NONE)
    public = game.make_py_observer(spectator)
    rng = random.Random(7)
    checked = 0
    for seed in range(2):
        for state in _positions(game, seed, every=9):
            for seat in range(game.num_players()):
                before = _openspiel_observations(state, seat)
                twin = _with_engine(state, perturb(state.engine_state, seat, rng))
                assert _openspiel_observations(twin, seat) == before
                checked += 1
            public.set_from(state, 0)
            tensor, text = public.tensor.copy(), public.string_from(state, 0)
            twin = _with_engine(state, perturb(state.engine_state, None, rng))
            public.set_from(twin, 0)
            assert np.array_equal(public.tensor, tensor) and public.string_from(twin, 0) == text
    assert checked >= 10


@pytest.mark.parametrize(("game_id", "options", "perturb"), CASES,
                         ids=[_case_id(c) for c in CASES])
def test_pettingzoo_observations_ignore_another_seats_secrets(game_id, options, perturb) -> None:  # type: ignore[no-untyped-def]
    options = {k: v for k, v in options.items() if k != "turn_based"}  # AEC: in seat order
    env = raw_env(game_id, **options)
    rng = random.Random(3)
    for seed in range(2):
        env.reset(seed=seed)
        steps = 0
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if steps % 5 == 0:
                true_state = env.engine_state
                for s, a in enumerate(env.possible_agents):
                    before = env.observe(a)
                    env.table.state = perturb(true_state, s, rng)
                    after = env.observe(a)
                    env.table.state = true_state
                    assert np.array_equal(before["observation"], after["observation"])
                    assert np.array_equal(before["action_mask"], after["action_mask"])
            steps += 1
            if term or trunc:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_the_perturbations_do_change_hidden_data() -> None:
    """The checks above are not vacuous: each perturbation changes the full state."""
    for game_id, options, perturb in CASES:
        game = dos.load(game_id, **options)
        rng = random.Random(1)
        changed = 0
        for state in _positions(game, 0, every=5):
            s = state.engine_state
            if s.is_terminal():
                continue
            for seat in range(game.num_players()):
                if perturb(s, seat, rng).full_state() != s.full_state():
                    changed += 1
        assert changed, game_id


@pytest.mark.parametrize(("game_id", "options", "hidden"), quick_first(3, [
    ("fist", {"players": 4, "max_turns": 3, "turn_based": True}, True), ("master", {}, True),
    ("farkle", {"players": 3, "max_turns": 8}, True),
    ("fist", {"players": 3, "max_turns": 3}, False)]))
def test_resampled_states_keep_the_information_state(game_id: str, options: dict[str, Any],
                                                     hidden: bool) -> None:
    """resample_from_infostate: same information state for the player (ISMCTS asserts it),
    same number of moves, and the hidden part does vary between samples. At a joint move
    (the simultaneous Fist) every seat is asked. In the simultaneous Fist nothing is hidden
    at a decision: bids are revealed together and the record gives every coin (F8), so
    every sample is the position itself; in the turn-based form the earlier sealed bids
    vary."""
    game = dos.load(game_id, **options)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    varied = 0
    for state in _positions(game, 4, every=11):
        if state.is_terminal():
            continue
        current = state.current_player()
        players = range(game.num_players()) if current < 0 else [current]
        for player in players:
            key = state.information_state_string(player)
            fulls = set()
            for _ in range(4):
                sample = state.resample_from_infostate(player, sampler)
                assert sample.information_state_string(player) == key
                assert sample.observation_tensor(player) == state.observation_tensor(player)
                assert len(sample.history()) == len(state.history())
                assert sample.current_player() == current
                assert sample.legal_actions(player) == state.legal_actions(player)
                fulls.add(str(sample))
            varied += len(fulls) > 1
            if not hidden:
                assert fulls == {str(state)}
    assert bool(varied) == hidden


def test_the_spectator_and_sealed_bids_in_fist() -> None:
    """In the turn-based form of a sealed bid, a later bidder's observation does not
    depend on what the earlier bidders bid (F8)."""
    game = dos.load("fist", turn_based=True, players=4, max_turns=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.engine_state.current_seats() == (0, 1, 2, 3)  # the Witch's auction
    low, high = state.clone(), state.clone()
    low.apply_action(state.legal_actions()[0])
    high.apply_action(state.legal_actions()[-1])
    assert low.current_player() == high.current_player() == 1
    for seat in (1, 2, 3):
        assert _openspiel_observations(low, seat) == _openspiel_observations(high, seat)
    assert low.information_state_string(0) != high.information_state_string(0)
    assert CHANCE not in low.engine_state.current_seats()


@pytest.mark.parametrize(("game_id", "options"), quick_first(3, [
    ("fist", {"players": 4, "max_turns": 4}), ("master", {"match": True}),
    ("farkle", {"players": 3, "max_turns": 15}), ("farkle", {"players": 5, "max_turns": 12})]))
def test_every_view_can_be_resampled(game_id: str, options: dict[str, Any]) -> None:
    """sample_history finds a fitting position for every seat along random games (it checks
    the replayed view itself), and replaying it gives the seat's view again. (Two games,
    three in the release run: scripts/test.sh --long.)"""
    from dragonlair.games import make_game
    from dragonlair.interop.resample import sample_history

    game = make_game(game_id, options)
    rng = random.Random(5)
    done = 0
    for _ in range(size(ci=2, long=3)):
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            seats = state.current_seats()
            if seats == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            if step % 9 == 0:
                for seat in range(game.num_players):
                    view = state.view(seat)
                    replay = game.new_initial_state()
                    for s, a in sample_history(game, view, seat, rng):
                        replay.apply(s, a)
                    assert replay.view(seat) == view
                    done += 1
            for s in seats:
                state.apply(s, rng.choice(list(state.legal_actions(s))))
            step += 1
    assert done > 20
