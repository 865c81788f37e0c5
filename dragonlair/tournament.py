"""Round-robin style bot tournaments with openskill ratings, locally or on Ray.

A tournament has ``B`` participants (the bot names in the order given; a name given twice
is two participants, labelled ``random`` and ``random#2``) and tables of ``P`` seats
(``B >= P``, ``B >= 2``).

Schedule (``"rotating"``): game ``i`` seats participant ``(i + s) % B`` at seat ``s``.
Over any ``B`` consecutive games every participant holds every seat exactly once, and
when ``B > P`` the participants sit out in turn (each plays ``P`` of every ``B`` games).

Determinism: game ``i`` depends only on ``(seed, i)``: chance draws from
``seed_for(seed, i)``, the bot in seat ``s`` from ``seed_for(seed, i, 1 + s)``. Games are
played in any order, serially, in worker processes or as Ray tasks; the results are sorted
by game index and only then are statistics and ratings computed, in game order. The same
seed therefore gives the same report whatever the backend or the number of workers (only
the ``seconds``, ``games_per_second`` and ``backend`` fields differ).

Statistics per participant: games played; wins, where a game won by ``k`` seats counts
``1/k`` win for each of them; the win rate with a 95% Wilson score interval; the mean
placing (1 = first, ties share a place); and an openskill Plackett–Luce rating (one team
of one per seat, ranked by placing), reported as ``mu``, ``sigma``, the ordinal
``mu - 3 sigma`` and the interval ``mu ± 1.96 sigma``.
"""

from __future__ import annotations

import logging
import math
import os
import random
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.errors import OptionError
from dragonlair.core.game import Game
from dragonlair.core.records import finish_record, new_record
from dragonlair.games import make_game
from dragonlair.simulate import prepare_save_dir

#: How seats are filled (see the module docs); stamped into the JSON and the records.
SCHEDULE = "rotating"
#: The z value of a two-sided 95% interval.
Z95 = 1.959963984540054
#: JSON keys that depend on the machine and the backend, not on the games played.
RUN_KEYS = frozenset({"seconds", "games_per_second", "backend"})
#: ``--ray`` value that starts a Ray instance on this machine.
RAY_LOCAL = "local"


def participant_labels(bots: Sequence[str]) -> list[str]:
    """One unique label per entry: a repeated name gets ``#2``, ``#3``... appended."""
    labels: list[str] = []
    seen: dict[str, int] = {}
    for name in bots:
        n = seen.get(name, 0) + 1
        seen[name] = n
        label = name if n == 1 else f"{name}#{n}"
        while label in labels:  # e.g. "random,random#2,random"
            n += 1
            label = f"{name}#{n}"
        labels.append(label)
    return labels


def seating(game_index: int, participants: int, players: int) -> list[int]:
    """Participant (index) per seat for game ``game_index``: seat ``s`` holds
    ``(game_index + s) % participants``."""
    return [(game_index + s) % participants for s in range(players)]


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a win rate (``wins`` may be fractional: shared wins)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    center = (p + z * z / (2 * games)) / denom
    half = z / denom * math.sqrt(max(p * (1 - p) / games + z * z / (4 * games * games), 0.0))
    return (max(0.0, center - half), min(1.0, center + half))


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """Everything a worker needs to play any game of the tournament (picklable)."""

    game_id: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    labels: tuple[str, ...]
    players: int
    seed: int
    save: bool = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: ``seats[s]`` is the participant index in seat ``s``;
    ``record`` is the record's JSON text when records are saved."""

    index: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    placings: tuple[int, ...]
    turns: int
    reason: str
    record: str | None = None


def play_game(spec: TournamentSpec, index: int, game: Game | None = None) -> GameResult:
    """Play game ``index`` of ``spec``; it depends on ``(spec.seed, index)`` alone.
    ``game``: the configured game, to reuse it (making one costs more than a bot game)."""
    if game is None:
        game = spec_game(spec)
    seats = seating(index, len(spec.bots), spec.players)
    bots = [make_bot(spec.game_id, spec.bots[p], random.Random(seed_for(spec.seed, index, 1 + s)))
            for s, p in enumerate(seats)]
    state = play_out(game.new_initial_state(), bots, random.Random(seed_for(spec.seed, index)))
    outcome = state.outcome()
    assert outcome is not None
    text = None
    if spec.save:
        record = new_record(game, [{"name": spec.labels[p], "player": f"bot:{spec.bots[p]}"}
                                   for p in seats],
                            {"seed": spec.seed, "game_index": index, "schedule": SCHEDULE})
        text = finish_record(record, state).dumps() + "\n"
    return GameResult(index, tuple(seats), tuple(outcome.winners), tuple(outcome.placings),
                      state.turn_count(), outcome.reason, text)


#: The last table made, reused while a worker plays chunks of the same tournament.
_TABLE: list[tuple[TournamentSpec, Game]] = []


def spec_game(spec: TournamentSpec) -> Game:
    """The configured game of ``spec`` (made once per process and tournament)."""
    if _TABLE and _TABLE[0][0] == spec:
        return _TABLE[0][1]
    game = make_game(spec.game_id, {**spec.options, "players": spec.players})
    _TABLE[:] = [(spec, game)]
    return game


def play_chunk(spec: TournamentSpec, indices: Sequence[int]) -> list[GameResult]:
    """Play several games (the unit of work of worker processes and Ray tasks)."""
    game = spec_game(spec)
    return [play_game(spec, i, game) for i in indices]


@dataclass(slots=True)
class ParticipantStats:
    """One participant's totals (``wins`` counts a win shared by ``k`` seats as ``1/k``)."""

    name: str
    bot: str
    games: int = 0
    wins: float = 0.0
    placing_sum: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def win_rate_ci95(self) -> tuple[float, float] | None:
        return wilson_interval(self.wins, self.games) if self.games else None

    @property
    def mean_placing(self) -> float | None:
        return self.placing_sum / self.games if self.games else None

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma`` (the table is sorted by it)."""
        return self.mu - 3 * self.sigma

    @property
    def rating_ci95(self) -> tuple[float, float]:
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)

    def to_json(self) -> dict[str, Any]:
        ci = self.win_rate_ci95
        rate, placing = self.win_rate, self.mean_placing
        return {
            "name": self.name, "bot": self.bot, "games": self.games,
            "wins": _r(self.wins),
            "win_rate": None if rate is None else _r(rate),
            "win_rate_ci95": None if ci is None else [_r(ci[0]), _r(ci[1])],
            "mean_placing": None if placing is None else _r(placing),
            "rating": {"mu": _r(self.mu), "sigma": _r(self.sigma), "ordinal": _r(self.ordinal),
                       "ci95": [_r(self.rating_ci95[0]), _r(self.rating_ci95[1])]},
        }


def _r(x: float) -> float:
    return round(x, 6)


@dataclass(slots=True)
class TournamentResult:
    """A tournament's report. ``participants`` are in the order given; :meth:`ranking`
    sorts them by rating. ``results`` holds every game, by index."""

    game: str
    options: dict[str, Any]
    players: int
    games: int
    seed: int
    participants: list[ParticipantStats]
    seat_wins: list[float]
    draws: int
    mean_turns: float
    reasons: dict[str, int]
    seconds: float
    backend: dict[str, Any]
    results: list[GameResult] = field(default_factory=list, repr=False)

    def ranking(self) -> list[ParticipantStats]:
        """Participants by ordinal (``mu - 3 sigma``), then ``mu``, best first."""
        order = sorted(range(len(self.participants)),
                       key=lambda k: (-self.participants[k].ordinal, -self.participants[k].mu, k))
        return [self.participants[k] for k in order]

    def to_json(self) -> dict[str, Any]:
        rank = {id(p): n + 1 for n, p in enumerate(self.ranking())}
        return {
            "game": self.game, "options": self.options, "players": self.players,
            "games": self.games, "seed": self.seed, "schedule": SCHEDULE,
            "win_counting": "a game won by k seats counts 1/k win for each",
            "rating_model": "openskill PlackettLuce (ranks = placings); ordinal = mu - 3 sigma",
            "participants": [{**p.to_json(), "rank": rank[id(p)]} for p in self.participants],
            "seat_wins": [_r(w) for w in self.seat_wins],
            "seat_win_rates": [_r(w / self.games) for w in self.seat_wins],
            "draws": self.draws, "mean_turns": _r(self.mean_turns),
            "reasons": dict(sorted(self.reasons.items())),
            "backend": self.backend,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else None,
        }


def score(spec: TournamentSpec, results: Sequence[GameResult]) -> list[ParticipantStats]:
    """Totals and ratings per participant, from the games in index order."""
    model = PlackettLuce()
    stats = [ParticipantStats(label, bot) for label, bot in zip(spec.labels, spec.bots,
                                                                strict=True)]
    ratings = [model.rating(name=label) for label in spec.labels]
    for res in sorted(results, key=lambda r: r.index):
        for s, p in enumerate(res.seats):
            st = stats[p]
            st.games += 1
            st.placing_sum += res.placings[s]
            if s in res.winners:
                st.wins += 1 / len(res.winners)
        teams = [[ratings[p]] for p in res.seats]
        new = model.rate(teams, ranks=[float(x) for x in res.placings])
        for p, team in zip(res.seats, new, strict=True):
            ratings[p] = team[0]
    for st, rating in zip(stats, ratings, strict=True):
        st.mu, st.sigma = float(rating.mu), float(rating.sigma)
    return stats


def chunks(games: int, size: int) -> Iterator[list[int]]:
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def chunk_size(games: int, parallel: int) -> int:
    """About four chunks per worker (for balance), at most 50 games each (for progress)."""
    return max(1, min(50, games // (4 * max(1, parallel))))


def run_tournament(
    game_id: str,
    bots: Sequence[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    save_dir: Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play a tournament (see the module docs) and rate the participants.

    ``players``: seats per table (default: the game's default). ``workers > 1``: games
    run in that many worker processes. ``ray_address``: games run as Ray tasks on the
    cluster at that address (``"local"``: start a Ray instance here with ``workers`` CPUs,
    or every core when ``workers`` is 1). ``save_dir``: every game's record is written
    there as ``{game}-{seed}-{i:05d}.json``. ``on_game(i)`` is called as game ``i`` is
    collected (in completion order, not index order). Bad input raises
    :class:`OptionError`.
    """
    if games < 1:
        raise OptionError("core.run.games_min")
    if workers < 1:
        raise OptionError("core.run.workers_min")
    names = [b.strip() for b in bots if b.strip()]
    opts = dict(options or {})
    if players is not None:
        opts["players"] = players
    game = make_game(game_id, opts)
    players = game.num_players
    if len(names) < 2:
        raise OptionError("core.run.two_bots")
    for name in dict.fromkeys(names):
        make_bot(game_id, name, random.Random(0))  # unknown bots fail here, not in a worker
    if len(names) < players:
        raise OptionError("core.run.bots_for_seats", bots=len(names), players=players)
    opts.pop("players", None)
    spec = TournamentSpec(game_id, opts, tuple(names), tuple(participant_labels(names)),
                          players, seed, save=save_dir is not None)
    if save_dir is not None:
        prepare_save_dir(save_dir)  # before any game: a bad folder is an OptionError

    results: list[GameResult] = []

    def collect(batch: Sequence[GameResult]) -> None:
        for res in batch:
            if res.record is not None and save_dir is not None:
                path = save_dir / f"{game_id}-{seed}-{res.index:05d}.json"
                path.write_text(res.record, encoding="utf-8")
                res = GameResult(res.index, res.seats, res.winners, res.placings, res.turns,
                                 res.reason)
            results.append(res)
            if on_game:
                on_game(res.index)

    start = time.perf_counter()
    backend: dict[str, Any]
    if ray_address is not None:
        backend = {"kind": "ray", "address": ray_address,
                   "workers": _run_ray(spec, games, ray_address, workers, collect)}
    elif workers > 1:
        _run_processes(spec, games, workers, collect)
        backend = {"kind": "processes", "workers": workers}
    else:
        table = spec_game(spec)
        for i in range(games):
            collect([play_game(spec, i, table)])
        backend = {"kind": "serial", "workers": 1}
    seconds = time.perf_counter() - start

    results.sort(key=lambda r: r.index)
    seat_wins = [0.0] * players
    reasons: dict[str, int] = {}
    for res in results:
        for w in res.winners:
            seat_wins[w] += 1 / len(res.winners)
        reasons[res.reason] = reasons.get(res.reason, 0) + 1
    return TournamentResult(
        game=game_id, options=game.record_options(), players=players, games=games, seed=seed,
        participants=score(spec, results), seat_wins=seat_wins,
        draws=sum(1 for r in results if not r.winners),
        mean_turns=sum(r.turns for r in results) / games, reasons=reasons, seconds=seconds,
        backend=backend, results=results)


def _run_processes(spec: TournamentSpec, games: int, workers: int,
                   collect: Callable[[Sequence[GameResult]], None]) -> None:
    """Games in chunks on ``workers`` processes (started with ``spawn``: safe next to
    threads, the same on every platform; ``module:attr`` bots are imported by name)."""
    size = chunk_size(games, workers)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))
    try:
        pending: set[Future[list[GameResult]]] = {
            pool.submit(play_chunk, spec, chunk) for chunk in chunks(games, size)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                collect(fut.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _check_reachable(address: str) -> None:
    """Fail fast on a ``HOST:PORT`` (or ``ray://HOST:PORT``) nobody answers at: Ray itself
    would retry for minutes."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # "auto" and other forms: left to Ray
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise OptionError("core.run.ray_unreachable", address=address,
                          why=str(exc.strerror or exc)) from None


def _run_ray(spec: TournamentSpec, games: int, address: str, workers: int,
             collect: Callable[[Sequence[GameResult]], None]) -> int:
    """Games in chunks as Ray tasks; returns the CPUs Ray offered. Connects to (or, for
    ``"local"``, starts) Ray unless this process is already connected; shuts down only
    what it started. Every node needs dragonlair installed (the same version)."""
    try:
        import ray
    except ImportError:
        raise OptionError("core.run.ray_missing") from None
    started = False
    if not ray.is_initialized():
        if address != RAY_LOCAL:
            _check_reachable(address)
        quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR,
                                 "include_dashboard": False, "configure_logging": True}
        try:
            if address == RAY_LOCAL:
                ray.init(address="local", num_cpus=workers if workers > 1 else os.cpu_count(),
                         **quiet)
            else:
                ray.init(address=address, **quiet)
        except Exception as exc:  # connection errors come in many types
            raise OptionError("core.run.ray_start", address=address, why=str(exc)) from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(num_cpus=1)(play_chunk)
        spec_ref = ray.put(spec)
        pending = [task.remote(spec_ref, chunk)
                   for chunk in chunks(games, chunk_size(games, cpus))]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for batch in ray.get(done):
                collect(batch)
    finally:
        if started:
            ray.shutdown()
    return cpus
