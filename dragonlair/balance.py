"""Balance report: of the players who got a card in a game, how many won that game.

A designer's tool over finished bot games (docs/balance.md). Games are played exactly as
:func:`dragonlair.simulate.simulate` plays them (game ``i`` seeded from ``(seed, i)``, the
same seeds per seat), so a balance run and a simulation with the same arguments play the same
games. The bots see only their views; the report itself watches the full engine state through
``play_out``'s ``on_action`` callback.

What counts as "getting" a card is the game's own: its plugin's balance observer
(:class:`dragonlair.core.plugin.BalanceObserver`, in ``dragonlair/games/<id>/balance.py``).
A game whose plugin has none has nothing to report on.

The win rate of a card is over (game, player) pairs: a player who got the card at least once
in a game counts once for that game, however often they got it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.errors import OptionError
from dragonlair.core.game import Game
from dragonlair.games import make_game
from dragonlair.simulate import output_file_problem, seat_bots

if TYPE_CHECKING:
    from rich.table import Table

    from dragonlair.core.plugin import BalanceObserver

PLOT_FORMATS = (".png", ".svg")
Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal


def balance_games() -> tuple[str, ...]:
    """The games that have cards to report on: those whose plugin has a balance observer."""
    from dragonlair.games import game_ids, plugin

    return tuple(g for g in game_ids() if plugin(g).balance is not None)


def _balance_observer(game_id: str) -> Callable[[Game], BalanceObserver]:
    """The game's balance observer factory, or :class:`OptionError` saying why there is none."""
    from dragonlair.games import game_ids, plugin

    known = list(balance_games())
    if game_id not in game_ids():
        raise OptionError("core.balance.unknown_game", game=game_id, known=known)
    spec = plugin(game_id)
    if spec.balance is None:
        raise OptionError("core.balance.no_cards", name=spec.info.name, known=known)
    return spec.balance


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(slots=True)
class CardStats:
    """One card's tallies. ``holders``: (game, player) pairs in which the player got the card;
    ``holder_wins``: how many of those players won that game; ``games``: games in which
    anyone got it; ``acquisitions``: every time someone got it; ``counts``: game-specific
    tallies (fist: auctioned, won, played, cursed, passed, doubled)."""

    id: str
    name: str
    kind: str  # "character", "held at end", "companion" or "item"
    holders: int = 0
    holder_wins: int = 0
    games: int = 0
    acquisitions: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float | None:
        return self.holder_wins / self.holders if self.holders else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.holder_wins, self.holders) if self.holders else None

    def to_json(self, base_rate: float) -> dict[str, Any]:
        rate = self.win_rate
        ci = self.interval
        return {
            "id": self.id, "name": self.name, "kind": self.kind,
            "holders": self.holders, "holder_wins": self.holder_wins, "games": self.games,
            "acquisitions": self.acquisitions, **self.counts,
            "win_rate": None if rate is None else round(rate, 4),
            "ci95": None if ci is None else [round(ci[0], 4), round(ci[1], 4)],
            "lift": None if rate is None or not base_rate else round(rate / base_rate, 3),
        }


@dataclass(slots=True)
class BalanceReport:
    """The result of :func:`balance_report`."""

    game: str
    games: int
    players: int
    bots: list[str]
    seed: int
    cards: list[CardStats]
    winner_seats: int  # winners summed over games (a shared win counts every winner)
    turns: int
    seconds: float
    options: dict[str, Any] = field(default_factory=dict)
    #: what "got" counts (the observer's ``got_help``)
    got_help: str = "times a player got it"

    @property
    def base_rate(self) -> float:
        """The chance that a given player wins a given game: 1/players when every game has
        one winner (shared wins at a turn limit raise it)."""
        return self.winner_seats / (self.games * self.players)

    def lift(self, card: CardStats) -> float | None:
        rate = card.win_rate
        return None if rate is None or not self.base_rate else rate / self.base_rate

    def ranked(self) -> list[CardStats]:
        """Cards by win rate, highest first; cards nobody got last, in deck order."""
        got = [c for c in self.cards if c.holders]
        got.sort(key=lambda c: (-(c.win_rate or 0.0), -c.holders))
        return got + [c for c in self.cards if not c.holders]

    def card(self, card_id: str) -> CardStats:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def to_json(self) -> dict[str, Any]:
        base = self.base_rate
        return {
            "game": self.game, "games": self.games, "players": self.players,
            "bots": self.bots, "seed": self.seed, "options": self.options,
            "base_rate": round(base, 4), "mean_turns": round(self.turns / self.games, 4),
            "seconds": round(self.seconds, 3),
            "cards": [c.to_json(base) for c in self.ranked()],
        }

    def title(self) -> str:
        bots = (",".join(self.bots) if len(set(self.bots)) > 1
                else f"{self.bots[0]} ×{len(self.bots)}")
        return (f"{self.game}: {self.games} games, {self.players} players, bots {bots}, "
                f"seed {self.seed}")

    def table(self) -> Table:
        """A rich table, sorted by win rate, with the lift over the base rate; it fits 80
        columns (every tally is in :meth:`to_json`)."""
        from rich import box
        from rich.table import Table

        # cards won at auction show their auctions and games, the others their kind
        fist = any("auctioned" in c.counts for c in self.cards)
        got = f"got: {self.got_help}; "
        table = Table(
            title=self.title(),
            caption=f"{got}n: players who got it in a game, wins: how many of them won it; "
                    f"rate = wins / n, 95% Wilson interval; lift = rate / base rate "
                    f"{self.base_rate:.1%}",
            box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True, pad_edge=False)
        table.add_column("card")  # the one column that wraps when space is short
        if fist:
            heads: tuple[str, ...] = ("auct", "got", "games", "n", "wins", "rate", "95% CI",
                                      "lift")
        else:
            table.add_column("kind", no_wrap=True)
            heads = ("got", "n", "wins", "rate", "95% CI", "lift")
        for col in heads:
            table.add_column(col, justify="right", no_wrap=True)
        for c in self.ranked():
            rate, ci, lift = c.win_rate, c.interval, self.lift(c)
            if fist:
                first = [c.name, str(c.counts["auctioned"]) if "auctioned" in c.counts else "",
                         str(c.acquisitions), str(c.games)]
            else:
                first = [c.name, c.kind, str(c.acquisitions)]
            table.add_row(
                *first, str(c.holders), str(c.holder_wins),
                "—" if rate is None else f"{rate:.1%}",
                "—" if ci is None else f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}",
                "—" if lift is None else f"{lift:.2f}",
            )
        return table

    def plot(self, path: Path | str) -> Path:
        """Write a horizontal bar chart of win rate per card (95% Wilson intervals as error
        bars, the base rate as a vertical line). The format follows the suffix: .png or
        .svg."""
        path = Path(path)
        check_plot_path(path)
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch
        from matplotlib.ticker import PercentFormatter

        rows = [c for c in self.ranked() if c.holders][::-1]  # highest at the top
        colours = {"character": "#4c72b0", "held at end": "#8172b2", "companion": "#55a868",
                   "item": "#dd8452"}
        fig = Figure(figsize=(8, 1.2 + 0.28 * max(len(rows), 1)), layout="constrained")
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        ys = list(range(len(rows)))
        rates = [c.win_rate or 0.0 for c in rows]
        cis = [c.interval or (0.0, 1.0) for c in rows]
        lows = [max(0.0, r - lo) for r, (lo, _) in zip(rates, cis, strict=True)]
        highs = [max(0.0, hi - r) for r, (_, hi) in zip(rates, cis, strict=True)]
        ax.barh(ys, rates, xerr=[lows, highs], color=[colours.get(c.kind, "grey") for c in rows],
                capsize=2, error_kw={"elinewidth": 0.8, "ecolor": "#333333"})
        ax.set_yticks(ys, [f"{c.name} (n={c.holders})" for c in rows], fontsize=8)
        line = ax.axvline(self.base_rate, color="#c44e52", linestyle="--", linewidth=1.2,
                   label=f"base rate {self.base_rate:.1%}")
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_xlabel("win rate of the players who got the card (95% Wilson interval)")
        ax.set_title(self.title(), fontsize=10)
        handles: list[Any] = [Patch(color=colours[k], label=k)
                              for k in dict.fromkeys(c.kind for c in rows)]
        if len(handles) == 1:
            handles = []
        handles.append(line)
        ax.legend(handles=handles, loc="lower right", fontsize=8)
        try:
            fig.savefig(path, format=path.suffix.lower()[1:])
        except OSError as exc:
            raise OptionError("core.balance.plot_write", path=str(path),
                              why=str(exc.strerror or exc)) from None
        return path


def check_plot_path(path: Path | str) -> None:
    """Fail early, before any game is played, on a format we cannot write, a path that
    cannot be written (a folder, a missing or read-only folder) or a missing matplotlib."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise OptionError("core.balance.plot_suffix", path=str(path))
    problem = output_file_problem(Path(path))
    if problem is not None:
        raise OptionError("core.balance.plot_path", path=str(path), cause=problem)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OptionError("core.balance.no_matplotlib") from None


def balance_report(
    game_id: str,
    games: int,
    bots: Sequence[str] | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    on_game: Callable[[int], None] | None = None,
) -> BalanceReport:
    """Play ``games`` bot games (game ``i`` seeded from ``(seed, i)``, as ``simulate`` does)
    and tally, per card, how often the players who got it won (see the module docstring)."""
    make_observer = _balance_observer(game_id)
    if games < 1:
        raise OptionError("core.run.games_min")
    game = make_game(game_id, options or {})
    observer = make_observer(game)
    names = seat_bots(list(bots) if bots else [observer.default_bot], game.num_players)
    winner_seats = 0
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        seats = [make_bot(game_id, name, random.Random(seed_for(seed, i, s + 1)))
                 for s, name in enumerate(names)]
        state = game.new_initial_state()
        observer.start(state)
        state = play_out(state, seats, random.Random(seed_for(seed, i)), on_action=observer)
        outcome = state.outcome()
        assert outcome is not None
        winners = set(outcome.winners)
        winner_seats += len(winners)
        turns += state.turn_count()
        for card, seats_got in zip(observer.cards, observer.got(state), strict=True):
            if seats_got:
                card.games += 1
                card.holders += len(seats_got)
                card.holder_wins += len(seats_got & winners)
        if on_game:
            on_game(i)
    return BalanceReport(game_id, games, game.num_players, names, seed, observer.cards,
                         winner_seats, turns, time.perf_counter() - start,
                         dict(game.record_options()), observer.got_help)
