"""Random-playout throughput per game, through the public API (legal actions included),
and side by side with OpenSpiel's C++ games driven by the same Python loop."""

from __future__ import annotations

import contextlib
import importlib
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType
from typing import Any

from rich.table import Table

from dragonlair.core.driver import random_playout
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import CHANCE, State, weighted_pick
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
        """ours / theirs, of the median rounds."""
        return self.ours.actions_per_s / self.theirs.actions_per_s

    @property
    def round_ratios(self) -> list[float]:
        """ours / theirs of each round and the round of theirs next to it in time."""
        return [a / b for a, b in zip(self.ours.rates, self.theirs.rates, strict=True)]


def measure_pair(spiel: ModuleType, ref: Reference, seconds: float, rounds: int,
                 seed: int = 0, on_round: Callable[[int], None] | None = None) -> Pair:
    """``rounds`` rounds of ours and as many of theirs, alternating (ours first in even
    rounds, theirs first in odd ones: ABBA, so that a drift in the machine's speed falls on
    both), each ``seconds / rounds`` of CPU time; one whole untimed game each first."""
    game = make_game(ref.game, bench_table(ref.game))
    load = spiel.load_game_as_turn_based if ref.turn_based else spiel.load_game
    their_game = load(ref.name, dict(ref.params))
    if their_game.get_type().dynamics != spiel.GameType.Dynamics.SEQUENTIAL:
        raise AssertionError(f"{ref.name}: the loop plays sequential games only")

    def ours(rng: random.Random) -> int:
        return engine_playout(game.new_initial_state(), rng)

    def theirs(rng: random.Random) -> int:
        return openspiel_playout(their_game.new_initial_state(), rng)

    sides = ((ours, random.Random(seed), Rounds()), (theirs, random.Random(seed), Rounds()))
    for playout, _, _ in sides:  # warm-up: first-call costs stay out of the rounds
        playout(random.Random(seed - 1))
    each = seconds / rounds
    for i in range(rounds):
        if on_round:
            on_round(i)
        for playout, rng, out in (sides if i % 2 == 0 else sides[::-1]):
            out.rounds.append(cpu_round(playout, each, rng))
    return Pair(ref, sides[0][2], sides[1][2])


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
                "ours": p.ours.to_json(), "theirs": p.theirs.to_json()})
        games = dict.fromkeys(p.ref.game for p in self.pairs)
        return {
            "seconds": self.seconds,
            "rounds": self.rounds,
            "round_seconds": self.seconds / self.rounds,
            "clock": "process_time (CPU seconds of this process)",
            "machine": self.machine,
            "loop": LOOP,
            "statistic": "actions_per_s: the median round; ratio: ours / theirs of the "
                         "median rounds; ratio_min, ratio_max: of the ratios of each round of "
                         "ours and the round of theirs next to it",
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
                       rounds: int = MIN_ROUNDS) -> VersusResult:
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
                          "and chance outcomes; every applied action counts, chance included")
    for col in ("game", "reference"):
        table.add_column(col, no_wrap=True)
    for col in ("actions/s ours", "actions/s theirs", "ratio (ours/theirs)"):
        table.add_column(col, justify="right")
    for p in result.pairs:
        ratios = p.round_ratios
        table.add_row(p.ref.game, p.ref.name, _spread(p.ours), _spread(p.theirs),
                      f"{p.ratio:.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
    return table


def _spread(side: Rounds) -> str:
    """``median (min-max)`` in thousands of actions per second."""
    rates = side.rates
    return f"{side.actions_per_s / 1e3:,.0f}k ({min(rates) / 1e3:,.0f}k-{max(rates) / 1e3:,.0f}k)"
