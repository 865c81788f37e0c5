"""Random-playout throughput per game, through the public API (legal actions included);
side by side with OpenSpiel's C++ games driven by the same Python loop; and the loops of
``dragonlair simulate`` and of the research adapters against the bare engine."""

from __future__ import annotations

import contextlib
import gc
import importlib
import itertools
import json
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from dragonlair.core.driver import play_out, random_playout, seed_for
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import CHANCE, Game, State, weighted_pick
from dragonlair.core.i18n import render
from dragonlair.games import game_ids, make_game, plugin


def bench_table(game_id: str) -> dict[str, Any]:
    """The table (options) a game is benchmarked at: its plugin's ``bench_options``."""
    return dict(plugin(game_id).bench_options)


@dataclass(slots=True)
class BenchResult:
    game: str
    options: dict[str, Any]
    games: int
    actions: int
    seconds: float
    #: CPU milliseconds to construct one more table (``make_game``), median of 5
    new_game_ms: float = 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "games": self.games,
                "actions": self.actions, "seconds": round(self.seconds, 3),
                "games_per_s": round(self.games_per_s, 1),
                "actions_per_s": round(self.actions_per_s),
                "new_game_ms": round(self.new_game_ms, 3)}


def bench_game(game_id: str, seconds: float = 3.0, seed: int = 0) -> BenchResult:
    """Play uniform random games of ``game_id`` for about ``seconds`` on one core."""
    rate = ours_rate(game_id, seconds, seed)
    return BenchResult(game_id, bench_table(game_id), rate.games, rate.actions,
                       rate.seconds, new_game_ms(game_id))


def new_game_ms(game_id: str, times: int = 5) -> float:
    """CPU milliseconds to construct a table of ``game_id`` at its bench options once one
    has been made in this process (imports done; Fist's action space cached): the median
    of ``times``."""
    options = bench_table(game_id)
    make_game(game_id, options)
    took = []
    for _ in range(times):
        start = time.process_time()
        make_game(game_id, options)
        took.append(time.process_time() - start)
    return sorted(took)[times // 2] * 1000


# ---------------------------------------------------------------------- vs OpenSpiel

OPENSPIEL_HINT = "pip install 'dragonlair[openspiel]'"


class OpenSpielMissing(DragonlairError):
    """``bench --vs-openspiel`` needs OpenSpiel's ``pyspiel``, which is not installed."""


@dataclass(frozen=True, slots=True)
class Reference:
    """An OpenSpiel game measured next to one of ours, and why it was chosen."""

    game: str  # ours
    name: str  # OpenSpiel's
    params: dict[str, Any]
    turn_based: bool  # loaded with load_game_as_turn_based: one action per seat's move
    why: str


def _references() -> tuple[Reference, ...]:
    """Every game's OpenSpiel references (its plugin's ``interop.references``)."""
    out = []
    for gid in game_ids():
        spec = plugin(gid).interop
        for ref in spec.references if spec is not None else ():
            out.append(Reference(gid, ref.name, dict(ref.params), ref.turn_based, ref.why))
    return tuple(out)


REFERENCES: tuple[Reference, ...] = _references()


def load_openspiel() -> ModuleType:
    """``pyspiel``, or :class:`OpenSpielMissing` with the install hint."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise OpenSpielMissing("core.bench.no_openspiel", hint=OPENSPIEL_HINT) from None


#: an OpenSpiel chance outcome drawn with ``rng`` from ``state.chance_outcomes()``, by the
#: loop of our ``State.sample_chance``
sample_outcome = weighted_pick


def openspiel_playout(state: Any, rng: random.Random) -> int:
    """Uniform random playout of an OpenSpiel state; returns the number of actions applied,
    chance outcomes included. At a chance node an outcome is drawn from
    ``chance_outcomes()``, else the player to move picks uniformly among ``legal_actions()``
    with ``rng.randrange``: the loop of :func:`engine_playout`."""
    n = 0
    while True:
        if state.is_terminal():
            return n
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            n += 1
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        n += 1


def engine_playout(state: State, rng: random.Random) -> int:
    """Uniform random playout of one of our states doing the work of
    :func:`openspiel_playout`: at a chance node it lists ``chance_outcomes()`` and draws from
    them with the same loop (not ``sample_chance``, which draws a Farkle roll die by die
    without listing its up to 1,386 outcomes); else every seat to move lists its
    ``legal_actions`` and picks with ``rng.randrange``. Returns the actions applied."""
    n = 0
    while True:
        seats = state.current_seats()
        if not seats:
            return n
        if seats[0] == CHANCE:
            state.apply(CHANCE, sample_outcome(state.chance_outcomes(), rng))
            n += 1
            continue
        for seat in seats:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            n += 1


@dataclass(slots=True)
class Rate:
    """Actions applied in random playouts over a measured time."""

    games: int
    actions: int
    seconds: float

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "actions": self.actions, "seconds": round(self.seconds, 3),
                "actions_per_s": round(self.actions_per_s)}


def timed(playout: Callable[[random.Random], int], seconds: float, seed: int = 0) -> Rate:
    """Run ``playout`` (one whole game, returns its actions) with one seeded ``rng`` until
    ``seconds`` have passed (whole games: at least one)."""
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        actions += playout(rng)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return Rate(games, actions, now - start)


def ours_rate(game_id: str, seconds: float, seed: int = 0) -> Rate:
    """Our game through ``random_playout`` (the loop of ``dragonlair bench``)."""
    game = make_game(game_id, bench_table(game_id))
    return timed(lambda rng: random_playout(game.new_initial_state(), rng), seconds, seed)


def cpu_round(playout: Callable[[random.Random], int], seconds: float,
              rng: random.Random) -> Rate:
    """One measurement round: whole games of ``playout`` (at least one) until ``seconds``
    of this process's CPU time (``time.process_time``) have passed."""
    games = actions = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        actions += playout(rng)
        games += 1
        now = clock()
        if now >= deadline:
            return Rate(games, actions, now - start)


@dataclass(slots=True)
class Rounds:
    """One side's measurement rounds (each a :class:`Rate` in CPU time)."""

    rounds: list[Rate] = field(default_factory=list)

    @property
    def rates(self) -> list[float]:
        """Actions per CPU second, round by round."""
        return [r.actions_per_s for r in self.rounds]

    @property
    def actions_per_s(self) -> float:
        """The median round's actions per CPU second."""
        return statistics.median(self.rates)

    @property
    def best(self) -> float:
        """The fastest round's actions per CPU second: the round least disturbed by the
        rest of the machine (timeit's reading; a virtual machine's CPU time counts time
        its host took away, more in some rounds than in others)."""
        return max(self.rates)

    def to_json(self) -> dict[str, Any]:
        rates = self.rates
        return {"games": sum(r.games for r in self.rounds),
                "actions": sum(r.actions for r in self.rounds),
                "seconds": round(sum(r.seconds for r in self.rounds), 3),
                "actions_per_s": round(self.actions_per_s),
                "actions_per_s_min": round(min(rates)),
                "actions_per_s_max": round(max(rates)),
                "rounds": [round(x) for x in rates]}


@dataclass(slots=True)
class Pair:
    """One row: our game and one OpenSpiel reference, measured in alternating rounds."""

    ref: Reference
    ours: Rounds
    theirs: Rounds

    @property
    def ratio(self) -> float:
        """The median of :attr:`round_ratios`: each round of ours against the round of
        theirs next to it in time, so that a change of the machine's speed between rounds
        falls on both sides of a ratio (two runs agreed within 8 % where the ratio of the
        median rounds moved by 18 %: bench/README.md, "The fifth day")."""
        return statistics.median(self.round_ratios)

    @property
    def ratio_best(self) -> float:
        """ours / theirs, of the fastest rounds (:attr:`Rounds.best`)."""
        return self.ours.best / self.theirs.best

    @property
    def round_ratios(self) -> list[float]:
        """ours / theirs of each round and the round of theirs next to it in time."""
        return [a / b for a, b in zip(self.ours.rates, self.theirs.rates, strict=True)]


def measure_pair(spiel: ModuleType, ref: Reference, seconds: float, rounds: int,
                 seed: int = 0, on_round: Callable[[int], None] | None = None) -> Pair:
    """``rounds`` rounds of ours and as many of theirs, alternating (ours first in even
    rounds, theirs first in odd ones: ABBA, so that a drift in the machine's speed falls on
    both), each ``seconds / rounds`` of CPU time (:func:`measure_sides`)."""
    game = make_game(ref.game, bench_table(ref.game))
    load = spiel.load_game_as_turn_based if ref.turn_based else spiel.load_game
    their_game = load(ref.name, dict(ref.params))
    if their_game.get_type().dynamics != spiel.GameType.Dynamics.SEQUENTIAL:
        raise AssertionError(f"{ref.name}: the loop plays sequential games only")

    def ours(rng: random.Random) -> int:
        return engine_playout(game.new_initial_state(), rng)

    def theirs(rng: random.Random) -> int:
        return openspiel_playout(their_game.new_initial_state(), rng)

    mine, other = measure_sides((ours, theirs), seconds, rounds, seed, on_round)
    return Pair(ref, mine, other)


def measure_sides(playouts: Sequence[Callable[[random.Random], int]], seconds: float,
                  rounds: int, seed: int = 0,
                  on_round: Callable[[int], None] | None = None,
                  warmed: Callable[[], None] | None = None) -> list[Rounds]:
    """``rounds`` rounds of each of ``playouts`` (whole games; each returns its actions),
    alternating: in the given order in even rounds, in the reverse order in odd ones (ABBA,
    so that a drift in the machine's speed falls on every side), each round ``seconds /
    rounds`` of CPU time (:func:`cpu_round`), each side with its own ``random.Random(seed)``;
    :func:`warm_up_s` of untimed play of each first, and the garbage collected before each
    round (``warmed`` is called after the warm-up). Returns each side's rounds, in the given
    order."""
    sides = [(playout, random.Random(seed), Rounds()) for playout in playouts]
    for playout, _, _ in sides:  # warm-up: first-call costs stay out of the rounds
        cpu_round(playout, warm_up_s(seconds), random.Random(seed - 1))
    if warmed:
        warmed()
    each = seconds / rounds
    # what lives now is frozen out of the collector for the rounds: the collection before
    # each round then costs only the rounds' own garbage (a test worker's heap made every
    # full collection a third of a second, 40 s over a run of --vs-openspiel)
    gc.collect()
    gc.freeze()
    try:
        for i in range(rounds):
            if on_round:
                on_round(i)
            for playout, rng, out in (sides if i % 2 == 0 else sides[::-1]):
                gc.collect()  # each round starts from a collected heap, not the other side's
                out.rounds.append(cpu_round(playout, each, rng))
    finally:
        gc.unfreeze()
    return [out for _, _, out in sides]


#: the rounds per side by default: 15 short rounds agree between runs far better than 5
#: long ones (bench/README.md, "The fifth day")
DEFAULT_ROUNDS = 15
#: the most CPU seconds of untimed play of each side before its rounds
WARM_UP_S = 0.3


def warm_up_s(seconds: float) -> float:
    """The untimed play of each side before a measurement of ``seconds`` per side: a tenth
    of it, at most :data:`WARM_UP_S` (and whole games, at least one). One game was too
    little: the first round of Farkle ran 20 % slower than the rest while the engine's
    tables of rolls filled."""
    return min(WARM_UP_S, seconds / 10)


#: what is measured, for the report
LOOP = ("uniform random playouts, one core, seeded random.Random; both sides list the legal "
        "actions and, at a chance node, the chance outcomes (drawn with one loop), then apply; "
        "every applied action counts, chance included; one action per seat's sealed bid")


@dataclass(slots=True)
class VersusResult:
    """``bench --vs-openspiel``: our games and OpenSpiel's, in alternating rounds of CPU
    time, the ratios (ours / theirs)."""

    seconds: float  # CPU seconds per side and row, over all rounds
    rounds: int
    pairs: list[Pair]
    machine: dict[str, str] = field(default_factory=dict)

    def ours(self, game_id: str) -> Rounds:
        """Every round of ours of ``game_id``, over its rows."""
        return Rounds([r for p in self.pairs if p.ref.game == game_id for r in p.ours.rounds])

    def to_json(self) -> dict[str, Any]:
        rows = []
        for p in self.pairs:
            ratios = p.round_ratios
            rows.append({
                "game": p.ref.game, "reference": p.ref.name,
                "ours_actions_per_s": round(p.ours.actions_per_s),
                "theirs_actions_per_s": round(p.theirs.actions_per_s),
                "ratio": float(f"{p.ratio:.4g}"),  # 4 significant digits
                "ratio_min": float(f"{min(ratios):.4g}"),
                "ratio_max": float(f"{max(ratios):.4g}"),
                "ratio_best": float(f"{p.ratio_best:.4g}"),
                "ours": p.ours.to_json(), "theirs": p.theirs.to_json()})
        games = dict.fromkeys(p.ref.game for p in self.pairs)
        return {
            "seconds": self.seconds,
            "rounds": self.rounds,
            "round_seconds": self.seconds / self.rounds,
            "warm_up_seconds": warm_up_s(self.seconds),
            "clock": "process_time (CPU seconds of this process)",
            "machine": self.machine,
            "loop": LOOP,
            "statistic": "actions_per_s: the median round; ratio, ratio_min, ratio_max: the "
                         "median, lowest and highest of the ratios of each round of ours and "
                         "the round of theirs next to it; ratio_best: ours / theirs of the "
                         "fastest rounds (the least disturbed)",
            "games": {g: {"options": bench_table(g), **self.ours(g).to_json()} for g in games},
            "references": {p.ref.name: {"game": p.ref.game, "params": p.ref.params,
                                        "turn_based": p.ref.turn_based, "why": p.ref.why,
                                        **p.theirs.to_json()}
                           for p in self.pairs},
            "rows": rows,
            "ratios": {f"{r['game']}/{r['reference']}": r["ratio"] for r in rows},
        }


def machine_info() -> dict[str, str]:
    info = {"python": f"{platform.python_implementation()} {platform.python_version()}",
            "platform": platform.platform(), "machine": platform.machine()}
    with contextlib.suppress(PackageNotFoundError):  # a version is nice to have, not needed
        info["open_spiel"] = version("open_spiel")
    return info


#: the fewest rounds per side (a median and a range need a few)
MIN_ROUNDS = 5


def bench_vs_openspiel(seconds: float = 3.0, seed: int = 0, games: Sequence[str] = (),
                       on_step: Callable[[str], None] | None = None,
                       rounds: int = DEFAULT_ROUNDS) -> VersusResult:
    """Each of our benchmark games (``games``, or all) against each of its OpenSpiel
    references: ``rounds`` alternating rounds per side, ``seconds`` of CPU time per side in
    all."""
    if rounds < MIN_ROUNDS:
        raise ValueError(f"rounds must be at least {MIN_ROUNDS}, not {rounds}")
    spiel = load_openspiel()
    result = VersusResult(seconds, rounds, [], machine=machine_info())
    for ref in REFERENCES:
        if games and ref.game not in games:
            continue

        def step(i: int, ref: Reference = ref) -> None:
            if on_step:
                on_step(f"{ref.game} / {ref.name}, round {i + 1} of {rounds}")

        result.pairs.append(measure_pair(spiel, ref, seconds, rounds, seed, step))
    return result


def versus_table(result: VersusResult) -> Table:
    """The rich table of ``bench --vs-openspiel``."""
    machine = result.machine
    table = Table(title="uniform random playouts, one core, the same Python loop: "
                        "ours against OpenSpiel (C++)",
                  caption=f"{machine.get('python', '')}, {machine.get('platform', '')}; "
                          f"{result.rounds} alternating rounds of "
                          f"{result.seconds / result.rounds:.3g} CPU s per side; median "
                          "(min-max) actions per CPU second; both sides list legal actions "
                          "and chance outcomes; every applied action counts, chance included; "
                          "ratio: of each round of ours and the round of theirs next to it; "
                          "best: the ratio of the fastest rounds (the least disturbed)")
    for col in ("game", "reference"):
        table.add_column(col, no_wrap=True)
    for col in ("actions/s ours", "actions/s theirs", "ratio (ours/theirs)"):
        table.add_column(col, justify="right")
    for p in result.pairs:
        ratios = p.round_ratios
        table.add_row(p.ref.game, p.ref.name, _spread(p.ours), _spread(p.theirs),
                      f"{p.ratio:.2f} ({min(ratios):.2f}-{max(ratios):.2f}), "
                      f"best {p.ratio_best:.2f}")
    return table


def _spread(side: Rounds) -> str:
    """``median (min-max)`` in thousands of actions per second."""
    rates = side.rates
    return f"{side.actions_per_s / 1e3:,.0f}k ({min(rates) / 1e3:,.0f}k-{max(rates) / 1e3:,.0f}k)"


# ------------------------------------------------------- simulate and the adapters vs the engine

PETTINGZOO_HINT = "pip install 'dragonlair[pettingzoo]'"

#: the loops of ``bench --adapters``, in the order of the rows, with the install hint of each
#: one's optional dependencies (Gymnasium comes with the PettingZoo extra)
ADAPTERS: dict[str, str] = {"openspiel": OPENSPIEL_HINT, "openspiel-bare": OPENSPIEL_HINT,
                            "pettingzoo": PETTINGZOO_HINT, "gymnasium": PETTINGZOO_HINT}

#: what ``bench --simulate`` measures, for the report
SIMULATE_LOOP = (
    "engine: random_playout (dragonlair/core/driver.py: sample_chance at a chance node, else "
    "each seat to move picks among legal_actions with rng.randrange); simulate: one game of "
    "simulate() (dragonlair/simulate.py) with the default random bot in every seat, the bots "
    "made and seeded per game as simulate() does, play_out with each bot asked through "
    "ask_bot with its seat's view (SeatViews); both at the bench table; actions: every "
    "applied action, chance included")

#: what ``bench --adapters`` measures, for the report
ADAPTERS_LOOP = (
    "engine: random_playout of the table the adapters load (the OpenSpiel parameters' "
    "defaults, players as in the bench table); openspiel: the adapter's game (the turn-based "
    "form of a game with sealed bids), each step chance_outcomes() and a draw, or "
    "observation_tensor(player to move), legal_actions() and rng.randrange, then "
    "apply_action; openspiel-bare: the same without observation_tensor; pettingzoo: the "
    "AEC env (order-enforcing wrapper), reset(seed), then for each agent of agent_iter() "
    "last() and, unless done, a uniform pick among the mask's "
    "legal actions, step(); gymnasium: SingleSeatEnv, seat 0 against the random bot, "
    "reset(seed), then a uniform pick from the mask and step() until terminated; steps: "
    "the adapter's step calls (apply_action, step()); actions: every action the game "
    "applied, chance and the bots' included (len(history))")

STATISTIC = ("actions_per_s, steps_per_s: the median round, with the slowest and fastest "
             "round; ratio, ratio_min, ratio_max: the median, lowest and highest of the ratios "
             "of each round of the loop (actions per CPU second) and the engine's round of the "
             "same turn (the same games, the same unit: how much of the engine's speed is "
             "left); ratio_best: of the fastest rounds (the least disturbed)")


@dataclass(slots=True)
class LoopRow:
    """One row of ``bench --simulate`` or ``bench --adapters``: a loop over one game (the
    ``simulate`` loop, or an adapter's) measured against the bare engine's random playouts of
    the same table, in alternating rounds. ``missing``: why it was not measured (an optional
    dependency is not installed: the message with the install hint)."""

    game: str
    loop: str
    engine: Rounds | None
    side: Rounds | None = None
    #: the adapter's step calls of each round (None: a loop whose steps are its actions)
    steps: list[int] | None = None
    missing: str = ""

    @property
    def ratio(self) -> float:
        """loop / engine: the median of :attr:`round_ratios` (as :attr:`Pair.ratio`)."""
        return statistics.median(self.round_ratios)

    @property
    def ratio_best(self) -> float:
        """loop / engine, of the fastest rounds (:attr:`Rounds.best`)."""
        assert self.side is not None and self.engine is not None
        return self.side.best / self.engine.best

    @property
    def round_ratios(self) -> list[float]:
        """loop / engine of each round and the engine's round of the same turn."""
        assert self.side is not None and self.engine is not None
        return [a / b for a, b in zip(self.side.rates, self.engine.rates, strict=True)]

    @property
    def step_rates(self) -> list[float]:
        """The adapter's steps per CPU second, round by round."""
        assert self.side is not None and self.steps is not None
        return [n / r.seconds for n, r in zip(self.steps, self.side.rounds, strict=True)]

    def to_json(self) -> dict[str, Any]:
        if self.side is None:
            return {"missing": self.missing}
        ratios = self.round_ratios
        out = {**self.side.to_json(),
               "ratio": float(f"{self.ratio:.4g}"),  # 4 significant digits
               "ratio_min": float(f"{min(ratios):.4g}"),
               "ratio_max": float(f"{max(ratios):.4g}"),
               "ratio_best": float(f"{self.ratio_best:.4g}")}
        if self.steps is not None:
            steps = self.step_rates
            out.update(steps=sum(self.steps), steps_per_s=round(statistics.median(steps)),
                       steps_per_s_min=round(min(steps)), steps_per_s_max=round(max(steps)),
                       steps_rounds=[round(x) for x in steps])
        return out


@dataclass(slots=True)
class LoopsResult:
    """``bench --simulate`` (``mode`` "simulate") or ``bench --adapters`` ("adapters"): per
    game, each loop against the bare engine, in alternating rounds of CPU time."""

    mode: str
    seconds: float  # CPU seconds per side and game, over all rounds
    rounds: int
    #: each game's table (the options both sides play)
    tables: dict[str, dict[str, Any]]
    rows: list[LoopRow]
    machine: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        games: dict[str, dict[str, Any]] = {}
        for gid, table in self.tables.items():
            rows = [r for r in self.rows if r.game == gid]
            engine = rows[0].engine if rows else None
            games[gid] = {"options": table,
                          "engine": engine.to_json() if engine is not None else None,
                          **{r.loop: r.to_json() for r in rows}}
        return {
            "mode": self.mode,
            "seconds": self.seconds,
            "rounds": self.rounds,
            "round_seconds": self.seconds / self.rounds,
            "warm_up_seconds": warm_up_s(self.seconds),
            "clock": "process_time (CPU seconds of this process)",
            "machine": self.machine,
            "loop": SIMULATE_LOOP if self.mode == "simulate" else ADAPTERS_LOOP,
            "statistic": STATISTIC,
            "games": games,
            "ratios": {f"{r.game}/{r.loop}": float(f"{r.ratio:.4g}")
                       for r in self.rows if r.side is not None},
        }


def engine_loop(game_id: str, options: dict[str, Any]) -> Callable[[random.Random], int]:
    """The bare engine: :func:`random_playout` of a new state of the table per game."""
    game = make_game(game_id, options)
    return lambda rng: random_playout(game.new_initial_state(), rng)


def simulate_game(game: Game, names: Sequence[str], seed: int, index: int) -> State:
    """Game ``index`` of ``simulate(game, ..., names, seed)`` (dragonlair/simulate.py), played
    as it plays it: each seat's bot made and seeded for the game, :func:`play_out` with the
    game's chance seed. Returns the finished state."""
    from dragonlair.bots import make_bot

    gid = game.info.id
    seats = [make_bot(gid, name, random.Random(seed_for(seed, index, s + 1)))
             for s, name in enumerate(names)]
    return play_out(game.new_initial_state(), seats, random.Random(seed_for(seed, index)))


def simulate_loop(game_id: str, options: dict[str, Any], bots: Sequence[str] = ("random",),
                  seed: int = 0) -> Callable[[random.Random], int]:
    """``dragonlair simulate``'s games one by one (the table made once, as ``simulate()``
    does): each call plays the next game (:func:`simulate_game`) and returns its actions,
    chance included. Its ``rng`` is not used: the games are seeded as ``simulate()`` seeds
    them."""
    from dragonlair.simulate import seat_bots

    game = make_game(game_id, options)
    names = seat_bots(bots, game.num_players)
    games = itertools.count()

    def playout(rng: random.Random) -> int:
        state = simulate_game(game, names, seed, next(games))
        state.outcome()  # simulate() reads the outcome of every game
        return len(state.history)

    return playout


def adapter_table(game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The OpenSpiel parameters ``bench --adapters`` loads a game with (the bench table's
    players, and its other options as the ``options`` parameter), and the engine options
    they make (as the adapter's ``engine_options`` makes them: the parameters' defaults, a
    turn limit for Fist and Farkle included)."""
    spec = plugin(game_id).interop
    if spec is None:
        raise ValueError(f"{game_id} is not presented to the research adapters")
    table = bench_table(game_id)
    params = {k: v for k, v in table.items() if k in spec.parameters and k != "options"}
    extra = {k: v for k, v in table.items() if k not in params}
    if extra:
        params["options"] = json.dumps(extra, sort_keys=True)
    merged = {**spec.parameters, **params}
    merged.pop("options", None)
    return params, {**extra, **spec.to_options(merged)}


def _module(name: str) -> Any:
    """The module ``name`` (ImportError where it or an optional dependency is missing)."""
    return importlib.import_module(name)


def openspiel_adapter_loop(game_id: str, params: dict[str, Any], steps: list[int],
                           observe: bool = True) -> Callable[[random.Random], int]:
    """The OpenSpiel adapter's game (its turn-based form where the game has sealed bids)
    played by the loop of :data:`ADAPTERS_LOOP` (without ``observation_tensor`` unless
    ``observe``); each game's step count is appended to ``steps``, its actions returned."""
    adapter = _module("dragonlair.interop.openspiel")
    game = adapter.load(game_id, turn_based=adapter.is_simultaneous(game_id), **params)

    def playout(rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        steps.append(n)
        return len(state.engine_state.history)

    return playout


def openspiel_bare_loop(game_id: str, params: dict[str, Any],
                        steps: list[int]) -> Callable[[random.Random], int]:
    """:func:`openspiel_adapter_loop` without observation tensors: chance outcomes, legal
    actions and ``apply_action`` only (what a search such as MCTS asks of a state)."""
    return openspiel_adapter_loop(game_id, params, steps, observe=False)


def pettingzoo_adapter_loop(game_id: str, options: dict[str, Any],
                            steps: list[int]) -> Callable[[random.Random], int]:
    """The PettingZoo AEC environment (in its order-enforcing wrapper) played by the masked
    random loop: ``reset(seed)``; for each agent of ``agent_iter()``, ``last()`` and, unless
    the agent is done, a uniform pick among the mask's legal actions; ``step()``."""
    adapter = _module("dragonlair.interop.pettingzoo")
    flatnonzero = _module("numpy").flatnonzero
    env = adapter.env(game_id, **options)

    def playout(rng: random.Random) -> int:
        env.reset(seed=rng.getrandbits(32))
        n = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            n += 1
        steps.append(n)
        return len(env.unwrapped.engine_state.history)

    return playout


def gymnasium_adapter_loop(game_id: str, options: dict[str, Any],
                           steps: list[int]) -> Callable[[random.Random], int]:
    """The Gymnasium environment (:class:`SingleSeatEnv`: seat 0, the random bot in the
    other seats): ``reset(seed)``, then a uniform pick from the mask and ``step()`` until the
    episode ends."""
    adapter = _module("dragonlair.interop.gym")
    flatnonzero = _module("numpy").flatnonzero
    env = adapter.SingleSeatEnv(game_id, seat=0, opponents=("random",), options=options)

    def playout(rng: random.Random) -> int:
        obs, _ = env.reset(seed=rng.getrandbits(32))
        done = env.state.is_terminal()
        n = 0
        while not done:
            legal = flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
            n += 1
        steps.append(n)
        return len(env.state.history)

    return playout


AdapterLoop = Callable[[str, dict[str, Any], list[int]], Callable[[random.Random], int]]


def _adapter_loops() -> dict[str, tuple[AdapterLoop, bool]]:
    """Each adapter's loop maker and whether it takes OpenSpiel parameters (else options)."""
    return {"openspiel": (openspiel_adapter_loop, True),
            "openspiel-bare": (openspiel_bare_loop, True),
            "pettingzoo": (pettingzoo_adapter_loop, False),
            "gymnasium": (gymnasium_adapter_loop, False)}


def missing_message(loop: str) -> str:
    """What a row of an adapter whose optional dependency is missing says."""
    names = {"openspiel": "OpenSpiel (pyspiel)", "openspiel-bare": "OpenSpiel (pyspiel)",
             "pettingzoo": "PettingZoo", "gymnasium": "Gymnasium"}
    return render("core.bench.missing", {"what": names[loop], "hint": ADAPTERS[loop]})


def _check_rounds(rounds: int) -> None:
    if rounds < MIN_ROUNDS:
        raise ValueError(f"rounds must be at least {MIN_ROUNDS}, not {rounds}")


def bench_simulate(seconds: float = 3.0, seed: int = 0, games: Sequence[str] = (),
                   on_step: Callable[[str], None] | None = None,
                   rounds: int = DEFAULT_ROUNDS) -> LoopsResult:
    """``bench --simulate``: per game (``games``, or all), ``dragonlair simulate``'s loop
    (:func:`simulate_loop`) against the bare engine (:func:`engine_loop`) at the bench table,
    ``rounds`` alternating rounds per side, ``seconds`` of CPU time per side in all."""
    _check_rounds(rounds)
    result = LoopsResult("simulate", seconds, rounds, {}, [], machine=machine_info())
    for gid in games or game_ids():
        table = bench_table(gid)
        result.tables[gid] = table

        def step(i: int, gid: str = gid) -> None:
            if on_step:
                on_step(f"{gid} / simulate, round {i + 1} of {rounds}")

        loops = (engine_loop(gid, table), simulate_loop(gid, table, seed=seed))
        engine, ours = measure_sides(loops, seconds, rounds, seed, step)
        result.rows.append(LoopRow(gid, "simulate", engine, ours))
    return result


def bench_adapters(seconds: float = 3.0, seed: int = 0, games: Sequence[str] = (),
                   on_step: Callable[[str], None] | None = None,
                   rounds: int = DEFAULT_ROUNDS) -> LoopsResult:
    """``bench --adapters``: per game (``games``, or all those presented to the research
    adapters), each adapter's loop and the bare engine at the table the adapters load, in
    ``rounds`` alternating rounds (engine, openspiel, openspiel-bare, pettingzoo, gymnasium;
    reversed in odd rounds), ``seconds`` of CPU time per side in all. An adapter whose
    optional dependency is not installed gets a row saying so (:func:`missing_message`)."""
    _check_rounds(rounds)
    result = LoopsResult("adapters", seconds, rounds, {}, [], machine=machine_info())
    ids = [g for g in games or game_ids() if plugin(g).interop is not None]
    for gid in ids:
        params, table = adapter_table(gid)
        result.tables[gid] = table
        playouts = [engine_loop(gid, table)]
        made: list[tuple[str, list[int]]] = []
        missing: list[str] = []
        for loop, (make, takes_params) in _adapter_loops().items():
            steps: list[int] = []
            try:
                playouts.append(make(gid, params if takes_params else table, steps))
            except ImportError:
                missing.append(loop)
                continue
            made.append((loop, steps))

        def step(i: int, gid: str = gid) -> None:
            if on_step:
                on_step(f"{gid} / adapters, round {i + 1} of {rounds}")

        engine: Rounds | None = None
        sides: list[Rounds] = []
        if made:
            def warmed(made: list[tuple[str, list[int]]] = made) -> None:
                for _, steps in made:  # the steps of the rounds' games only
                    steps.clear()

            engine, *sides = measure_sides(playouts, seconds, rounds, seed, step, warmed)
        rows = {loop: LoopRow(gid, loop, engine, side, _round_steps(steps, side))
                for (loop, steps), side in zip(made, sides, strict=True)}
        rows.update({loop: LoopRow(gid, loop, engine, missing=missing_message(loop))
                     for loop in missing})
        result.rows += [rows[loop] for loop in ADAPTERS]
    return result


def _round_steps(steps: list[int], side: Rounds) -> list[int]:
    """The steps of each round: ``steps`` has one entry per game of the rounds, in turn
    (the warm-up's are cleared)."""
    out, at = [], 0
    for r in side.rounds:
        out.append(sum(steps[at:at + r.games]))
        at += r.games
    if at != len(steps):
        raise AssertionError(f"{len(steps)} games logged, {at} played")
    return out


def loops_table(result: LoopsResult) -> Table:
    """The rich table of ``bench --simulate`` and ``bench --adapters``: per game a row of the
    bare engine, then one per loop; each figure the median and, below it, the range of the
    rounds."""
    machine = result.machine
    simulate = result.mode == "simulate"
    # fits 80 columns: the table's options under the game's name, no vertical rules
    table = Table(
        title=render("core.bench.simulate_title" if simulate else "core.bench.adapters_title"),
        caption=render("core.bench.loops_caption", {
            "machine": f"{machine.get('python', '')}, {machine.get('platform', '')}",
            "rounds": result.rounds, "each": f"{result.seconds / result.rounds:.3g}"}),
        box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column(render("core.bench.col_game"), no_wrap=True)
    table.add_column(render("core.bench.col_loop"), no_wrap=True)
    if not simulate:
        table.add_column(render("core.bench.col_steps"), justify="right", no_wrap=True)
    table.add_column(render("core.bench.col_actions"), justify="right", no_wrap=True)
    table.add_column(render("core.bench.col_ratio"), justify="right", no_wrap=True)
    blank = [] if simulate else [""]
    for gid, options in result.tables.items():
        rows = [r for r in result.rows if r.game == gid]
        engine = rows[0].engine if rows else None
        table.add_row("\n".join([gid, *(f" {key}={v}" for key, v in options.items())]), "engine",
                      *blank, _rates(engine.rates) if engine is not None else "", "")
        for k, r in enumerate(rows):
            last = k == len(rows) - 1
            if r.side is None:
                # not markup: the install hint's [extra] stays
                table.add_row("", r.loop, Text(r.missing, justify="left"), end_section=last)
                continue
            ratios = r.round_ratios
            table.add_row("", r.loop, *([] if simulate else [_rates(r.step_rates)]),
                          _rates(r.side.rates),
                          f"{r.ratio:.3f}\n({min(ratios):.2f}-{max(ratios):.2f})\n"
                          + render("core.bench.best", {"ratio": f"{r.ratio_best:.3f}"}),
                          end_section=last)
    return table


def _rates(rates: list[float]) -> str:
    """The median of ``rates`` and, below it, their range, in thousands (3 digits)."""
    def k(x: float) -> str:
        return f"{x / 1e3:,.0f}k" if x >= 1e5 else f"{x / 1e3:.3g}k"

    return f"{k(statistics.median(rates))}\n({k(min(rates))}-{k(max(rates))})"
