"""Balance report: of the players who got a card in a game, how many won that game.

A designer's tool over finished bot games (docs/balance.md). Games are played exactly as
:func:`dragonlair.simulate.simulate` plays them (game ``i`` seeded from ``(seed, i)``, the
same seeds per seat), so a balance run and a simulation with the same arguments play the same
games. The bots see only their views; the report itself watches the full engine state through
``play_out``'s ``on_action`` callback.

What counts as "getting" a card:

- Fist of Dragonstones: a player gets a character when they use its power from the card
  itself: by winning its auction (cursed and passed auctions give it to nobody), or by playing
  it with the Goblin or the Imp. A Ghost copying a character counts for the Ghost only; a
  Doppelganger doubling a power counts once. A Goblin or Imp revealed last, and so never
  auctioned, counts for nobody. One more row: holding the Doppelganger when the game ends.
- Dragon Farkle: a player gets a companion when it is dealt to them (at setup, or after a
  wipe-out in the Lair), and a magic item when it is in their hand at a moment when nobody is
  over the item limit: the starting item, and items kept at the end of a turn (items gained
  and lost to a farkle, or discarded at once at the limit, never were held).

The win rate of a card is over (game, player) pairs: a player who got the card at least once
in a game counts once for that game, however often they got it.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.errors import OptionError
from dragonlair.core.game import CHANCE, Action, Game, State
from dragonlair.games import make_game
from dragonlair.simulate import output_file_problem, seat_bots

if TYPE_CHECKING:
    from rich.table import Table

    from dragonlair.games.farkle.game import FarkleGame
    from dragonlair.games.farkle.state import FarkleState
    from dragonlair.games.fist.actions import FistAction
    from dragonlair.games.fist.game import FistGame
    from dragonlair.games.fist.state import FistState

#: the games that have cards to report on
BALANCE_GAMES = ("fist", "farkle")
#: bots used in every seat when none are given (farkle: ``optimal`` plays about 9 games/s,
#: ``cautious`` about 250, so 500 games stay well under a minute)
DEFAULT_BOTS = {"fist": "greedy", "farkle": "cautious"}
PLOT_FORMATS = (".png", ".svg")
Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal
DOPPEL_END = "doppelganger@end"


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

        fist = self.game == "fist"
        got = ("got: times a player got it (auction won, or played by the Goblin / Imp); "
               if fist else "got: times dealt or kept; ")
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
            raise OptionError(f"cannot write the plot to {path}: {exc.strerror or exc}") from None
        return path


def check_plot_path(path: Path | str) -> None:
    """Fail early, before any game is played, on a format we cannot write, a path that
    cannot be written (a folder, a missing or read-only folder) or a missing matplotlib."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise OptionError(f"the plot file must end in .png or .svg, not {str(path)!r}")
    problem = output_file_problem(Path(path))
    if problem is not None:
        raise OptionError(f"cannot write the plot to {path}: {problem}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OptionError("the plot needs matplotlib: pip install 'dragonlair[plot]'") from None


# ---------------------------------------------------------------------------- observers
class _Observer:
    """Watches one game at a time; ``got[k]`` is the set of seats that got card ``k``."""

    cards: list[CardStats]

    def start(self, state: State) -> None:
        raise NotImplementedError

    def __call__(self, state: State, seat: int, action: Action) -> None:
        raise NotImplementedError

    def got(self, state: State) -> list[set[int]]:
        raise NotImplementedError


class _FistObserver(_Observer):
    """Replays each auction's resolution (F5.2-F5.7) from the revealed bids, and sees
    Goblin and Imp plays as cards entering the turn's ``auctioned`` list without a reveal."""

    def __init__(self, game: FistGame) -> None:
        self.n = game.num_players
        self.cards = [CardStats(c.id, c.name_en, "character",
                                counts=dict.fromkeys(("auctioned", "won", "played", "cursed",
                                                      "passed", "doubled"), 0))
                      for c in game.cards]
        if game.doppelganger is not None:
            self.cards.append(CardStats(DOPPEL_END, "Doppelganger at game end",
                                        "held at end"))

    def start(self, state: State) -> None:
        from dragonlair.games.fist.state import Phase

        self.holders: list[set[int]] = [set() for _ in self.cards]
        self.bids: list[Any] = []
        self.silver: list[tuple[int, Any]] = []
        self.tied: tuple[int, ...] = ()
        self.card = 0
        self.winner: int | None = None
        self.auctioned_list: list[int] | None = None
        self.seen = 0
        self.prev_phase = Phase.SETUP

    def __call__(self, state: State, seat: int, action: Action) -> None:
        from dragonlair.games.fist.actions import Kind
        from dragonlair.games.fist.state import Phase

        s = cast("FistState", state)
        kind = cast("FistAction", action).kind
        if seat >= 0 and kind == Kind.BID:
            if not self.bids:  # the first sealed bid: the card is up for auction
                assert s.current is not None
                self.card = s.current
                self.winner = None
                self.cards[self.card].counts["auctioned"] += 1
            self.bids.append(action)
            if len(self.bids) == self.n:
                self._reveal(s)
        elif seat >= 0 and kind == Kind.SILVER:
            self.silver.append((seat, action))
            if len(self.silver) == len(self.tied):
                self._reveal_silver(s)
        elif seat >= 0 and kind == Kind.DOUBLE:
            self.cards[self.card].counts["doubled"] += 1
        self._scan(s, revealed=seat == CHANCE and self.prev_phase == Phase.REVEAL)
        self.prev_phase = s.phase

    def _reveal(self, s: FistState) -> None:
        bids = self.bids
        self.bids = []
        counts = self.cards[self.card].counts
        if any(b.c for b in bids):  # F5.4: cursed
            counts["cursed"] += 1
            return
        values = [(b.a + b.b) * (2 if b.d else 1) for b in bids]
        top = max(values)
        tied = tuple(i for i, v in enumerate(values) if v == top)
        if top == 0:  # F5.5
            counts["passed"] += 1
        elif len(tied) == 1:  # F5.6
            self._win(s, tied[0])
        else:  # F5.7
            self.tied = tied
            self.silver = []

    def _reveal_silver(self, s: FistState) -> None:
        vals = {seat: b.a * (2 if b.b else 1) for seat, b in self.silver}
        self.silver = []
        self.tied = ()
        top = max(vals.values())
        best = [seat for seat, v in vals.items() if v == top]
        if len(best) == 1:
            self._win(s, best[0])
        else:
            self.cards[self.card].counts["passed"] += 1

    def _win(self, s: FistState, winner: int) -> None:
        # the engine keeps its winner while it waits (or when the game ended): agree with it
        if s.winner is not None and s.current == self.card and s.winner != winner:
            raise AssertionError(f"balance: auction winner p{winner}, engine says p{s.winner}")
        self.winner = winner
        self.cards[self.card].counts["won"] += 1
        self.cards[self.card].acquisitions += 1
        self.holders[self.card].add(winner)

    def _scan(self, s: FistState, revealed: bool) -> None:
        """Cards that entered this turn's ``auctioned`` list: a reveal (chance, REVEAL) or a
        Goblin / Imp play by the winner of the auction being resolved."""
        new: list[int] = []
        if s.auctioned is not self.auctioned_list:
            if self.auctioned_list is not None:
                new.extend(self.auctioned_list[self.seen:])
            self.auctioned_list = s.auctioned
            self.seen = 1  # entry 0, the Witch, is auctioned without a reveal
        new.extend(s.auctioned[self.seen:])
        self.seen = max(self.seen, len(s.auctioned))
        if revealed and new:
            new = new[1:]
        for k in new:
            assert self.winner is not None, "a card was played outside a won auction"
            self.cards[k].counts["played"] += 1
            self.cards[k].acquisitions += 1
            self.holders[k].add(self.winner)

    def got(self, state: State) -> list[set[int]]:
        s = cast("FistState", state)
        if s.game.doppelganger is not None and s.doppel_holder is not None:
            self.holders[-1].add(s.doppel_holder)
            self.cards[-1].acquisitions += 1
        return self.holders


class _FarkleObserver(_Observer):
    """Companions: a new value in a seat's companion slot. Items: a seat's hand grows,
    looked at only when no player is over the item limit (D8.3)."""

    def __init__(self, game: FarkleGame) -> None:
        self.n = game.num_players
        self.ncomp = len(game.companions)
        self.cards = ([CardStats(c.id, c.name_en, "companion") for c in game.companions]
                      + [CardStats(c.id, c.name_en, "item") for c in game.items])

    def start(self, state: State) -> None:
        self.holders: list[set[int]] = [set() for _ in self.cards]
        self.companion = [-1] * self.n
        self.hands: list[list[int]] = [[] for _ in range(self.n)]

    def __call__(self, state: State, seat: int, action: Action) -> None:
        from dragonlair.games.farkle.state import Dec, Phase

        s = cast("FarkleState", state)
        for p, k in enumerate(s.companions):
            if k != self.companion[p]:
                self.companion[p] = k
                if k >= 0:
                    self.cards[k].acquisitions += 1
                    self.holders[k].add(p)
        if s.phase == Phase.DECIDE and s.dec == Dec.DISCARD:
            return  # someone is over the limit: wait until they have chosen
        for p, hand in enumerate(s.items):
            old = self.hands[p]
            if hand != old:
                grown = Counter(hand) - Counter(old)
                for i, n in grown.items():
                    self.cards[self.ncomp + i].acquisitions += n
                    self.holders[self.ncomp + i].add(p)
                self.hands[p] = list(hand)

    def got(self, state: State) -> list[set[int]]:
        return self.holders


def _observer(game_id: str, game: Game) -> _Observer:
    if game_id == "fist":
        from dragonlair.games.fist.game import FistGame

        assert isinstance(game, FistGame)
        return _FistObserver(game)
    from dragonlair.games.farkle.game import FarkleGame

    assert isinstance(game, FarkleGame)
    return _FarkleObserver(game)


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
    if game_id not in BALANCE_GAMES:
        if game_id == "master":
            raise OptionError("Dragon Master has no characters, companions or items to "
                              "report on; the balance report is for fist and farkle")
        raise OptionError(f"the balance report is for fist and farkle, not {game_id!r}")
    if games < 1:
        raise OptionError("--games must be at least 1")
    game = make_game(game_id, options or {})
    names = seat_bots(list(bots) if bots else [DEFAULT_BOTS[game_id]], game.num_players)
    observer = _observer(game_id, game)
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
                         dict(game.record_options()))
