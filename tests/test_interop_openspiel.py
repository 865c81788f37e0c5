"""The games as OpenSpiel Python games: OpenSpiel's own checks, its MCTS and ISMCTS bots,
and what the adapter declares (actions, chance ids, utilities, length bounds)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import dragonlair.interop.openspiel as dos  # noqa: E402
from dragonlair.games import make_game  # noqa: E402
from dragonlair.interop import common  # noqa: E402
from tests.sizes import quick_first, size  # noqa: E402

SIM_CASES = [
    ("dragonlair_master", {}, 20),
    ("dragonlair_farkle", {"players": 2, "max_turns": 8}, 4),
    ("dragonlair_farkle", {"players": 4, "max_turns": 4}, 2),
    ("dragonlair_fist", {"players": 3, "max_turns": 3}, 3),
    ("dragonlair_fist", {"players": 6, "max_turns": 2}, 2),
    ("dragonlair_fist_turn_based", {"players": 3, "max_turns": 3}, 3),
    ("dragonlair_fist_turn_based", {"players": 4, "max_turns": 2}, 2),
]


def _id(case: tuple[str, dict[str, Any], int]) -> str:
    return f"{case[0].removeprefix('dragonlair_')}-{case[1].get('players', 2)}p"


@pytest.mark.parametrize(("name", "params", "sims"), SIM_CASES, ids=map(_id, SIM_CASES))
def test_openspiel_random_sim_test(name: str, params: dict[str, Any], sims: int) -> None:
    """OpenSpiel's RandomSimTest: clones, legal actions (every seat's at a joint move),
    chance outcomes, returns within the utility range, game length within
    max_game_length, tensor sizes. (A quarter of the simulations, of games of one turn
    (Farkle two): it checks every state, a second or more for a turn of six Fist players;
    the slow twin plays the tables as they are.)"""
    if "max_turns" in params:
        params = {**params, "max_turns": 2 if name == "dragonlair_farkle" else 1}
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=max(1, sims // 4), serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params", "sims"), SIM_CASES, ids=map(_id, SIM_CASES))
def test_openspiel_random_sim_test_all_sims(name: str, params: dict[str, Any],
                                            sims: int) -> None:
    """CI half the simulations, the release run (scripts/test.sh --long) all of them."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=size(ci=max(1, sims // 2), long=sims),
                            serialize=False, verbose=False)


def test_openspiel_turn_based_wrapper_of_the_simultaneous_fist() -> None:
    """OpenSpiel's own turn-based transformation of dragonlair_fist passes RandomSimTest."""
    game = pyspiel.convert_to_turn_based(dos.load("fist", players=4, max_turns=1))
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(game, num_sims=size(ci=1, long=2), serialize=False, verbose=False)


RL_CASES = [
    ("dragonlair_fist", {"players": 4, "max_turns": 2}),
    ("dragonlair_fist_turn_based", {"players": 3, "max_turns": 2}),
    ("dragonlair_master", {}),
    ("dragonlair_farkle", {"players": 3, "max_turns": 4}),
]


@pytest.mark.parametrize(("name", "params"), RL_CASES, ids=[_id((n, p, 0)) for n, p in RL_CASES])
def test_openspiel_rl_environment_plays_whole_games(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's rl_environment with its RandomAgent (a random pick from the seat's
    legal_actions) plays whole games, its legality check on. It steps a simultaneous game
    with apply_actions at every decision node, so dragonlair_fist's one-seat decisions (a
    power's choices) are joint moves in which the other seats pass."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    env = rl_environment.Environment(name, enable_legality_check=True, **params)
    env.seed(0)
    np.random.seed(0)  # RandomAgent draws from numpy's global generator
    n = env.num_players
    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in range(n)]
    one_seat = 0
    for _ in range(2):
        time_step = env.reset()
        while not time_step.last():
            if env.is_turn_based:
                actions = [agents[time_step.observations["current_player"]]
                           .step(time_step).action]
            else:
                assert time_step.is_simultaneous_move()
                legal = time_step.observations["legal_actions"]
                one_seat += sum(1 for p in range(n) if len(legal[p]) > 1 or
                                legal[p] != [env.game.ctx.pass_id]) == 1
                actions = [agent.step(time_step).action for agent in agents]
            time_step = env.step(actions)
        assert sum(time_step.rewards) == pytest.approx(1.0)
        assert all(0.0 <= r <= 1.0 for r in time_step.rewards)
    assert env.is_turn_based or one_seat > 0


def test_string_to_action_at_joint_chance_and_sequential_nodes() -> None:
    """string_to_action(seat, text) inverts action_to_string for every seat at a joint node
    (bids, tie-break bids, passes, a power's choices), and at chance nodes; at a joint
    node the seat must be given."""
    game = dos.load("fist", players=4, max_turns=2)
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    joint = 0
    while not state.is_terminal():
        if state.is_chance_node():
            for a, _ in state.chance_outcomes()[:3]:
                text = state.action_to_string(pyspiel.PlayerId.CHANCE, a)
                assert state.string_to_action(pyspiel.PlayerId.CHANCE, text) == a
                assert state.string_to_action(text) == a
        else:
            assert state.is_simultaneous_node()
            joint += 1
            for seat in range(4):
                for a in state.legal_actions(seat)[:4]:
                    assert state.string_to_action(seat, state.action_to_string(seat, a)) == a
            with pytest.raises(ValueError, match="give the seat"):
                state.string_to_action("pass")
            with pytest.raises(ValueError, match="no legal action"):
                state.string_to_action(0, "no such move")
        random_step(state, rng)
    assert joint > 10
    farkle = dos.load("farkle", players=2, max_turns=2).new_initial_state()
    while farkle.is_chance_node():
        chance_step(farkle, rng)
    for a in farkle.legal_actions():
        assert farkle.string_to_action(farkle.action_to_string(farkle.current_player(), a)) == a


def test_every_decision_of_the_simultaneous_fist_is_a_joint_move() -> None:
    """OpenSpiel's convention: at a power's decision the other seats submit pass; a single
    action there is refused with a pointer to apply_actions."""
    game = dos.load("fist", players=3, max_turns=2)
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    seen: set[int] = set()
    while not state.is_terminal():
        if not state.is_chance_node():
            assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
            seats = state.engine_state.current_seats()
            seen.add(len(seats))
            for seat in range(3):
                assert (state.legal_actions(seat) == [game.ctx.pass_id]) == (seat not in seats)
            if len(seats) == 1:
                with pytest.raises(ValueError, match="apply_actions"):
                    state.apply_action(state.legal_actions(seats[0])[0])
        random_step(state, rng)
    assert 1 in seen and 3 in seen


def chance_step(state: Any, rng: np.random.RandomState) -> None:
    """Apply a chance outcome drawn by its probability."""
    outcomes = state.chance_outcomes()
    state.apply_action(int(rng.choice([a for a, _ in outcomes], p=[p for _, p in outcomes])))


def random_step(state: Any, rng: np.random.RandomState) -> None:
    """One random move: a chance outcome by its probability, a joint move (every seat's
    legal actions), or the player's move."""
    if state.is_chance_node():
        chance_step(state, rng)
    elif state.is_simultaneous_node():
        state.apply_actions([int(rng.choice(state.legal_actions(seat)))
                             for seat in range(state.num_players())])
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize(("game_id", "params"), [
    ("master", {}), ("fist", {"players": 3, "max_turns": 2}),
    ("fist", {"players": 3, "max_turns": 2, "turn_based": True})])
def test_states_serialize_and_pickle(game_id: str, params: dict[str, Any]) -> None:
    import pickle

    game = dos.load(game_id, **params)
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    for _ in range(60):
        if state.is_terminal():
            break
        random_step(state, rng)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()


@pytest.mark.parametrize(("game_id", "turn_based", "params"), [
    ("master", False, {}), ("farkle", False, {"players": 3}),
    ("fist", False, {"players": 5, "max_turns": 10}),
    ("fist", True, {"players": 3, "max_turns": 10})])
def test_the_declared_game_fits_the_engine(game_id: str, turn_based: bool,
                                           params: dict[str, Any]) -> None:
    game = dos.load(game_id, turn_based=turn_based, **params)
    engine = make_game(game_id, dos.engine_options(game_id, params))
    gtype = game.get_type()
    dynamics = pyspiel.GameType.Dynamics
    simultaneous = game_id == "fist" and not turn_based  # Fist's sealed bids (F5.1)
    assert gtype.dynamics == (dynamics.SIMULTANEOUS if simultaneous else dynamics.SEQUENTIAL)
    assert gtype.short_name == dos.short_name(game_id, turn_based)
    assert pyspiel.load_game(gtype.short_name, params).get_type().dynamics == gtype.dynamics
    assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gtype.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == engine.num_distinct_actions
    assert game.num_players() == engine.num_players
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.max_game_length() == common.decision_bound(engine)
    offset = common.chance_offset(engine)
    assert game.max_chance_outcomes() == engine.num_distinct_actions - offset
    enc = game.ctx.encoder
    assert game.observation_tensor_shape() == [enc.observation_size]
    assert game.information_state_tensor_shape() == [enc.information_state_size]


@pytest.mark.parametrize("game_id", ["master", "farkle", "fist"])
def test_every_tensor_is_the_encoding_of_the_seats_view_now(game_id: str) -> None:
    """``observation_tensor`` and ``information_state_tensor`` at every step of a random game
    (the observation from the position view without the event log, issue 24) are the
    encoder's vectors of the seat's full view of that position, for every seat, and stay so
    after a clone of the state moved on."""
    params = {} if game_id == "master" else {"players": 3, "max_turns": 2}
    game = dos.load(game_id, turn_based=game_id == "fist", **params)
    enc = game.ctx.encoder
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    steps = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            engine = state.engine_state
            for seat in range(game.num_players()):
                view = engine.view(seat)
                assert np.array_equal(state.observation_tensor(seat), enc.observation(view))
                assert np.array_equal(state.information_state_tensor(seat),
                                      enc.information_state(view))
                assert np.array_equal(state.observation_tensor(seat), enc.observation(view))
            before = state.observation_tensor(state.current_player())
            branch = state.clone()
            branch.apply_action(state.legal_actions()[0])
            state.observation_tensor(state.current_player())  # the original, again
            assert np.array_equal(state.observation_tensor(state.current_player()), before)
            steps += 1
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(int(rng.choice([a for a, _ in outcomes],
                                              p=[p for _, p in outcomes])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert steps > 5


def _answer(method: Any, *args: Any) -> Any:
    """What a call gives: its value, or the type of the error it raises."""
    try:
        return method(*args)
    except Exception as exc:  # the error's type is the answer
        return type(exc)


@pytest.mark.parametrize(("game_id", "params"), [
    ("master", {}), ("farkle", {"players": 3, "max_turns": 3}),
    ("fist", {"players": 3, "max_turns": 1}),
    ("fist", {"players": 3, "max_turns": 1, "turn_based": True}), ("hoard", {})])
def test_the_states_python_answers_are_pyspiels(game_id: str, params: dict[str, Any]) -> None:
    """The state answers ``legal_actions``, ``is_chance_node``, ``is_simultaneous_node``,
    ``is_player_node``, ``observation_tensor`` and ``information_state_tensor`` in Python
    (issue 24: pyspiel's C++ methods call back into Python several times, and its
    ``observation_tensor`` encodes a new initial state first to learn the size); at every
    node of a random game each gives what pyspiel's own method gives, for every player,
    with and without a player, and the calls pyspiel refuses (a pseudo-player's tensor, a
    tensor at a chance node without a player) are refused alike."""
    game = dos.load(game_id, **params)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    nodes = 0
    while True:
        for name in ("is_chance_node", "is_simultaneous_node", "is_player_node",
                     "is_terminal", "legal_actions", "observation_tensor",
                     "information_state_tensor"):
            ours, theirs = getattr(state, name), getattr(pyspiel.State, name)
            assert _answer(ours) == _answer(theirs, state), name
            if name.startswith("is_"):
                continue
            for player in (-1, *range(game.num_players()), game.num_players()):
                assert _answer(ours, player) == _answer(theirs, state, player), (name, player)
        nodes += 1
        if state.is_terminal():
            break
        random_step(state, rng)
    assert nodes > 10
    # the tensors are new lists each call, not a buffer the state keeps writing
    first = state.observation_tensor(0)
    assert first is not state.observation_tensor(0) and first == state.observation_tensor(0)


def test_chance_ids_and_action_strings_round_trip() -> None:
    game = dos.load("farkle", players=2, max_turns=3)
    engine = game.engine
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    seen_roll = False
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            seen_roll |= len(outcomes) > 100
            a = int(rng.choice([a for a, _ in outcomes], p=[p for _, p in outcomes]))
            text = state.action_to_string(pyspiel.PlayerId.CHANCE, a)
            assert engine.parse_action(text).index - common.chance_offset(engine) == a
        else:
            player = state.current_player()
            a = int(rng.choice(state.legal_actions()))
            text = state.action_to_string(player, a)
            assert engine.parse_action(text).index == a
        state.apply_action(a)
    assert seen_roll
    assert sum(state.returns()) == pytest.approx(1.0)


def _to_sealed_bid(state: Any) -> None:
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])


def test_fist_sealed_bids_are_one_joint_move() -> None:
    """F5.1: at the Witch's auction every seat bids at once; the joint move gives the
    position that the same bids give in seat order in the turn-based form (F5.3 coins
    paid, the highest bid wins), and a joint move with a bad bid changes nothing."""
    sim = dos.load("fist", players=4, max_turns=2)
    seq = dos.load("fist", turn_based=True, players=4, max_turns=2)
    a, b = sim.new_initial_state(), seq.new_initial_state()
    _to_sealed_bid(a)
    _to_sealed_bid(b)
    assert a.is_simultaneous_node() and a.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert not b.is_simultaneous_node() and b.current_player() == 0
    for seat in range(4):
        assert a.legal_actions(seat) == [x.index for x in a.engine_state.legal_actions(seat)]
    # seat 2 bids the most Fairy Gold and Common Gold it can, without Black coin or Amulet;
    # the others bid nothing
    best = max((x for x in a.engine_state.legal_actions(2) if not x.black and not x.amulet),
               key=lambda x: x.fairy + x.common)
    joint = [best.index if seat == 2 else a.legal_actions(seat)[0] for seat in range(4)]
    assert [a.action_to_string(seat, x) for seat, x in enumerate(joint)].count("bid f0 c0") == 3
    before, moves = str(a), len(a.history())
    with pytest.raises(ValueError, match="p3 cannot play"):
        a.apply_actions([*joint[:3], sim.ctx.pass_id])
    with pytest.raises(ValueError, match="4 actions"):
        a.apply_actions(joint[:3])
    assert str(a) == before and len(a.history()) == moves
    a.apply_actions(joint)
    for seat in range(4):
        b.apply_action(joint[seat])
    assert a.engine_state.full_state() == b.engine_state.full_state()
    strings = [a.action_to_string(seat, x) for seat, x in enumerate(joint)]
    assert a.engine_state.view(None)["public"]["history"][-4:] == [f"p{seat}: {text}" for seat, text
                                                         in enumerate(strings)]  # F5.2
    assert a.is_chance_node()  # the Witch went to p2, its power ran: the next card
    assert a.history()[-4:] == joint


def test_fist_tie_break_passes_for_the_seats_outside_it() -> None:
    """F5.7: only the tied seats bid Silver; at the joint move each other seat has the one
    action 'pass', and a bid from it is refused."""
    game = dos.load("fist", players=5, max_turns=3)
    rng = np.random.RandomState(3)
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            tied = state.engine_state.current_seats()
            if state.is_simultaneous_node() and state.engine_state.view(None)["phase"] == "tiebid":
                assert 2 <= len(tied) < 5
                for seat in range(5):
                    legal = state.legal_actions(seat)
                    if seat in tied:
                        assert all(state.action_to_string(seat, x).startswith("silver")
                                   for x in legal)
                    else:
                        assert legal == [game.ctx.pass_id]
                        assert state.action_to_string(seat, legal[0]) == "pass"
                outsider = next(s for s in range(5) if s not in tied)
                bad = [state.legal_actions(s)[0] for s in range(5)]
                bad[outsider] = state.legal_actions(tied[0])[0]
                with pytest.raises(ValueError, match=f"p{outsider} cannot play"):
                    state.apply_actions(bad)
                return
            random_step(state, rng)
    raise AssertionError("no tie-break in 40 random games")


def test_master_parameters_and_default_parameters() -> None:
    face = pyspiel.load_game("dragonlair_master(four_of_a_kind_face=True)")
    assert face.engine.options["four_of_a_kind"] == "100+face"
    fist = pyspiel.load_game("dragonlair_fist")
    assert fist.num_players() == 4
    assert pyspiel.load_game("dragonlair_fist_turn_based").num_players() == 4
    with pytest.raises(ValueError, match="sequential already"):
        dos.short_name("master", turn_based=True)
    assert fist.engine.options["max_turns"] == common.DEFAULT_MAX_TURNS
    custom = dos.load("fist", players=3, max_turns=2,
                      options='{"custom": []}')
    assert custom.num_players() == 3
    with pytest.raises(Exception, match="match"):
        dos.load("master", options='{"match": true}')
    with pytest.raises(Exception, match="2 players"):
        dos.load("master", players=3)


def test_a_game_longer_than_the_bound_is_stopped_and_scored(monkeypatch: Any) -> None:
    """Past max_game_length decisions the state is terminal; the largest army wins."""
    game = dos.load("farkle", players=3, max_turns=20)
    monkeypatch.setattr(game.ctx, "bound", 12)
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1
    assert decisions == 12 and not state.engine_state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert sum(state.returns()) == pytest.approx(1.0)
    assert "stopped after 12 decisions" in state.outcome_reason()
    armies = [s["army"] for s in state.engine_state.view(None)["public"]["seats"]]
    best = max(armies)
    assert [r > 0 for r in state.returns()] == [a == best for a in armies]


def _play(game: Any, bots: list[Any], seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            player = state.current_player()
            action = bots[player].step(state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
    returns: list[float] = state.returns()
    return returns


BOT_CASES = [("master", {}), ("farkle", {"players": 2, "max_turns": 3}),
             ("fist", {"players": 3, "max_turns": 1, "turn_based": True})]


@pytest.mark.parametrize(("game_id", "params"), BOT_CASES, ids=[c[0] for c in BOT_CASES])
def test_openspiel_mcts_bot_plays_whole_games(game_id: str, params: dict[str, Any]) -> None:
    """MCTS (it searches the real state: a perfect-information baseline)."""
    game = dos.load(game_id, **params)
    rng = np.random.RandomState(0)
    evaluator = dos.EngineRolloutEvaluator(2, seed=0)  # rollouts in the engine
    bots = [mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng)
            for _ in range(game.num_players())]
    returns = _play(game, bots, 0)
    assert sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize(("game_id", "params"), quick_first(1, BOT_CASES),
                         ids=[c[0] for c in BOT_CASES])
def test_openspiel_ismcts_bot_plays_whole_games(game_id: str, params: dict[str, Any]) -> None:
    """ISMCTS searches positions resampled from its information state (it asserts that each
    sample has the same information state string)."""
    game = dos.load(game_id, **params)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=rng)
            for _ in range(game.num_players())]
    returns = _play(game, bots, 1)
    assert sum(returns) == pytest.approx(1.0)


def test_openspiel_mcts_plays_the_simultaneous_fist_turned_based_by_openspiel() -> None:
    game = pyspiel.convert_to_turn_based(dos.load("fist", players=3, max_turns=1))
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng) for _ in range(3)]
    returns = _play(game, bots, 2)
    assert sum(returns) == pytest.approx(1.0)


def test_a_helpful_import_error_without_openspiel() -> None:
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "try:\n    import dragonlair.interop.openspiel\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "pip install 'dragonlair[openspiel]'" in out


def test_engine_rollouts_respect_the_bound_and_sum_to_one(monkeypatch: Any) -> None:
    game = dos.load("fist", turn_based=True, players=3, max_turns=30)
    state = game.new_initial_state()
    evaluator = dos.EngineRolloutEvaluator(3, seed=1)
    values = evaluator.evaluate(state)
    assert values.shape == (3,) and values.sum() == pytest.approx(1.0)
    monkeypatch.setattr(game.ctx, "bound", 5)  # a rollout cut short is scored as truncated
    values = evaluator.evaluate(state)
    assert values.sum() == pytest.approx(1.0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    prior = evaluator.prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1.0)
    sim = dos.load("fist", players=3, max_turns=30).new_initial_state()
    _to_sealed_bid(sim)
    assert evaluator.evaluate(sim).sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="turn_based"):
        evaluator.prior(sim)


@pytest.mark.parametrize(("game_id", "params"), [
    ("master", {}), ("farkle", {"players": 3, "max_turns": 4}),
    ("fist", {"players": 4, "max_turns": 3}),
    ("fist", {"players": 3, "max_turns": 3, "turn_based": True})])
def test_serialize_round_trips_at_random_positions_through_snapshots(
        game_id: str, params: dict[str, Any]) -> None:
    """A serialised state carries the engine's snapshot (not a pickle of the engine, and no
    replay): the restored state has the same history, legal actions, observations and
    future (the same seeded continuation gives the same states)."""
    game = dos.load(game_id, **params)
    rng = np.random.RandomState(7)
    for _ in range(6):
        state = game.new_initial_state()
        for _ in range(int(rng.randint(0, 120))):
            if state.is_terminal():
                break
            random_step(state, rng)
        text = pyspiel.serialize_game_and_state(game, state)
        _, back = pyspiel.deserialize_game_and_state(text)
        assert back.history() == state.history() and str(back) == str(state)
        assert back.is_terminal() == state.is_terminal()
        for seat in range(game.num_players()):
            assert back.legal_actions(seat) == state.legal_actions(seat)
            assert back.information_state_string(seat) == state.information_state_string(seat)
        a, b = np.random.RandomState(3), np.random.RandomState(3)
        for _ in range(40):
            if state.is_terminal():
                break
            random_step(state, a)
            random_step(back, b)
            assert str(back) == str(state)
