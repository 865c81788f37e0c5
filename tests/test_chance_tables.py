"""Chance outcomes listed once (:class:`dragonlair.core.game.ChanceTable`): a draw from a
table is the draw of the loop over the same pairs, and the engines that hand tables out
(Farkle's rolls and rerolled die, Master's deals and start player) give the same pairs as a
fresh listing would, at every chance node."""

from __future__ import annotations

import random

import pytest

from dragonlair.core.game import CHANCE, ChanceTable, weighted_pick
from dragonlair.games import make_game


class _Fixed(random.Random):
    """A Random whose ``random()`` returns given numbers, in turn."""

    def __init__(self, draws: list[float]) -> None:
        super().__init__(0)
        self.draws = draws

    def random(self) -> float:
        return self.draws.pop(0)


def test_a_table_draws_what_the_loop_draws() -> None:
    pairs = [("a", 0.25), ("b", 0.25), ("c", 0.5)]
    table = ChanceTable(pairs)
    assert table == tuple(pairs) and table.sums == (0.25, 0.5, 1.0)
    # a draw equal to a running sum goes past it, as the loop's ``r < acc`` does
    for r in (0.0, 0.2499, 0.25, 0.4999, 0.5, 0.75, 0.9999999999):
        assert weighted_pick(table, _Fixed([r])) == weighted_pick(pairs, _Fixed([r]))
    short = [("x", 0.1)] * 9  # running sums end below 1: a draw past them is the last
    assert weighted_pick(ChanceTable(short), _Fixed([0.9999999999999999])) == "x"
    a, b = random.Random(5), random.Random(5)
    sevenths = ChanceTable([(i, 1 / 7) for i in range(7)])
    for _ in range(2000):
        assert weighted_pick(sevenths, a) == weighted_pick(list(sevenths), b)
    assert a.getstate() == b.getstate()
    with pytest.raises(IndexError):
        weighted_pick(ChanceTable([]), random.Random(1))


@pytest.mark.parametrize(("game_id", "options"), [
    ("farkle", {"players": 2}), ("farkle", {"players": 4, "max_turns": 12}),
    ("master", {}), ("master", {"match": True}),
])
def test_engine_tables_are_their_listing(game_id: str, options: dict[str, object]) -> None:
    """At every chance node: a table handed out is the same object each time (nothing a
    caller does can change it), and a draw from it is the draw from its pairs as a list."""
    game = make_game(game_id, options)
    tables = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            seats = state.current_seats()
            if seats[0] == CHANCE:
                outcomes = state.chance_outcomes()
                if isinstance(outcomes, ChanceTable):
                    tables += 1
                    assert state.chance_outcomes() is outcomes
                    a, b = random.Random(seed), random.Random(seed)
                    assert weighted_pick(outcomes, a) is weighted_pick(list(outcomes), b)
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            for seat in seats:
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
    assert tables > 20
