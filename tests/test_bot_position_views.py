"""Bots that read the position but not the event log (``reads_events = False``, issue 24):
:func:`ask_bot` hands them ``view(seat, since=event_count)``, the view without its events,
whose cost does not grow with the game. Every built-in bot that says so must play exactly the
games it plays when handed its full view (so the declaration is true), and must be handed a
view of its own seat with no events."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.game import CHANCE, JSON, Action
from dragonlair.core.players import ask_bot
from dragonlair.games import make_game, plugin
from tests.sizes import quick_first

#: (game, table, bot, games): the smallest table each bot is played at, and a few games
CASES: list[tuple[str, dict[str, Any], str, int]] = [
    ("master", {}, "greedy", 3),
    ("farkle", {"players": 2, "max_turns": 8}, "cautious", 2),
    ("fist", {"players": 3, "max_turns": 3}, "greedy", 2),
    ("fist", {"players": 3, "max_turns": 3}, "heuristic", 2),
    # the searching bots: CI (slow)
    ("master", {}, "expert", 1),
    ("farkle", {"players": 2, "max_turns": 8}, "optimal", 1),
    ("fist", {"players": 3, "max_turns": 2}, "ismcts-fast", 1),
]


class _Full:
    """The same bot, handed its whole view (the event log too)."""

    reads_events = True

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        assert "events" in view and view["events_since"] == 0
        action: Action = self.bot.choose(view, legal)
        return action


def _bot(game_id: str, name: str, rng: random.Random) -> Any:
    if name == "expert":  # the same class with a smaller search: the declaration is the class's
        from dragonlair.games.master.bots import ExpertMasterBot

        return ExpertMasterBot(rng, samples=4, exact=5, tail=4)
    return make_bot(game_id, name, rng)


@pytest.mark.parametrize(("game_id", "options", "name", "games"), quick_first(4, CASES),
                         ids=[f"{g}-{b}" for g, _, b, _ in CASES])
def test_a_bot_that_reads_no_event_log_plays_the_same_games(
        game_id: str, options: dict[str, Any], name: str, games: int) -> None:
    game = make_game(game_id, options)
    n = game.num_players
    for g in range(games):
        records = []
        for full in (False, True):
            bots: list[Any] = [_bot(game_id, name, random.Random(seed_for(g, s)))
                               for s in range(n)]
            assert all(getattr(b, "reads_events", True) is False for b in bots)
            if full:
                bots = [_Full(b) for b in bots]
            state = play_out(game.new_initial_state(), bots, random.Random(g))
            records.append([str(a) for _, a in state.history])
        assert records[0] == records[1], f"{game_id} {name}, game {g}"


def test_it_is_handed_its_seats_position_without_events() -> None:
    seen: list[JSON] = []

    class Watcher:
        reads_events = False

        def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
            seen.append(view)
            return legal[0]

    game = make_game("fist", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.current_seats() == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))
    seat = state.current_seats()[0]
    ask_bot(Watcher(), state, seat)
    (view,) = seen
    assert view["seat"] == seat and view["events"] == []
    assert view["events_since"] == view["events_total"] == state.event_count > 0
    full = state.view(seat)
    assert {k: v for k, v in view.items() if k not in ("events", "events_since")} == {
        k: v for k, v in full.items() if k not in ("events", "events_since")}


def test_every_built_in_bot_says_what_it_reads() -> None:
    """Each bot of the built-in games declares ``reads_events`` (or ``reads_view``), so a
    new bot is a conscious choice: a bot that reads the log says so with True."""
    for game_id in ("fist", "master", "farkle"):
        for name, factory in plugin(game_id).bots().items():
            bot = factory(random.Random(0))
            declared = getattr(type(bot), "reads_events", None)
            assert declared is not None or getattr(type(bot), "reads_view", True) is False, (
                f"{game_id}/{name}")
