"""Random-playout throughput per game, through the public API (legal actions included),
and side by side with OpenSpiel's C++ games driven by the same Python loop."""

from __future__ import annotations

import contextlib
import importlib
import platform
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType
from typing import Any

from rich.table import Table

from dragonlair.core.driver import random_playout
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import weighted_pick
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
    chance outcomes included. The shape of ``dragonlair.core.driver.random_playout``: at a
    chance node an outcome is drawn from ``chance_outcomes()``, else the player to move
    picks uniformly among ``legal_actions()`` with ``rng.randrange``."""
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


def openspiel_rate(spiel: ModuleType, ref: Reference, seconds: float, seed: int = 0) -> Rate:
    load = spiel.load_game_as_turn_based if ref.turn_based else spiel.load_game
    game = load(ref.name, dict(ref.params))
    if game.get_type().dynamics != spiel.GameType.Dynamics.SEQUENTIAL:
        raise AssertionError(f"{ref.name}: the loop plays sequential games only")
    return timed(lambda rng: openspiel_playout(game.new_initial_state(), rng), seconds, seed)


@dataclass(slots=True)
class VersusResult:
    """``bench --vs-openspiel``: our games, OpenSpiel's, the ratios (ours / theirs)."""

    seconds: float
    ours: dict[str, Rate]
    theirs: dict[str, Rate]
    machine: dict[str, str] = field(default_factory=dict)

    def rows(self) -> list[tuple[Reference, float, float]]:
        """(reference, ours actions/s, theirs actions/s) per table row."""
        return [(ref, self.ours[ref.game].actions_per_s, self.theirs[ref.name].actions_per_s)
                for ref in REFERENCES if ref.name in self.theirs]

    def to_json(self) -> dict[str, Any]:
        rows = [{"game": ref.game, "reference": ref.name,
                 "ours_actions_per_s": round(ours), "theirs_actions_per_s": round(theirs),
                 "ratio": float(f"{ours / theirs:.4g}")}  # 4 significant digits
                for ref, ours, theirs in self.rows()]
        return {
            "seconds": self.seconds,
            "machine": self.machine,
            "loop": "uniform random playouts, one core, seeded random.Random; every applied "
                    "action counts, chance included; one action per seat's sealed bid",
            "games": {g: {"options": bench_table(g), **r.to_json()}
                      for g, r in self.ours.items()},
            "references": {ref.name: {"game": ref.game, "params": ref.params,
                                      "turn_based": ref.turn_based, "why": ref.why,
                                      **self.theirs[ref.name].to_json()}
                           for ref in REFERENCES if ref.name in self.theirs},
            "rows": rows,
            "ratios": {f"{r['game']}/{r['reference']}": r["ratio"] for r in rows},
        }


def machine_info() -> dict[str, str]:
    info = {"python": f"{platform.python_implementation()} {platform.python_version()}",
            "platform": platform.platform(), "machine": platform.machine()}
    with contextlib.suppress(PackageNotFoundError):  # a version is nice to have, not needed
        info["open_spiel"] = version("open_spiel")
    return info


def bench_vs_openspiel(seconds: float = 3.0, seed: int = 0, games: Sequence[str] = (),
                       on_step: Callable[[str], None] | None = None) -> VersusResult:
    """Each of our benchmark games (``games``, or all) and each of their OpenSpiel
    references, for about ``seconds`` each."""
    spiel = load_openspiel()
    result = VersusResult(seconds, {}, {}, machine=machine_info())
    for ref in REFERENCES:
        if games and ref.game not in games:
            continue
        if ref.game not in result.ours:
            if on_step:
                on_step(ref.game)
            result.ours[ref.game] = ours_rate(ref.game, seconds, seed)
        if on_step:
            on_step(ref.name)
        result.theirs[ref.name] = openspiel_rate(spiel, ref, seconds, seed)
    return result


def versus_table(result: VersusResult) -> Table:
    """The rich table of ``bench --vs-openspiel``."""
    machine = result.machine
    table = Table(title="uniform random playouts, one core, the same Python loop: "
                        "ours against OpenSpiel (C++)",
                  caption=f"{machine.get('python', '')}, {machine.get('platform', '')}; "
                          f"{result.seconds:g} s per measurement; every applied action "
                          "counts, chance included")
    for col in ("game", "reference"):
        table.add_column(col, no_wrap=True)
    for col in ("actions/s ours", "actions/s theirs", "ratio (ours/theirs)"):
        table.add_column(col, justify="right")
    for ref, ours, theirs in result.rows():
        table.add_row(ref.game, ref.name, f"{ours:,.0f}", f"{theirs:,.0f}", f"{ours / theirs:.2f}")
    return table
