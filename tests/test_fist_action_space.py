"""The Fist action space is built once per card set and shared (issue 23): games with the
same cards share one read-only space; other cards get their own, with the same indices
for the built-in actions (F9 custom characters come after the built-in cards)."""

from __future__ import annotations

import random

from dragonlair.core.driver import random_playout
from dragonlair.games.fist.actions import ActionSpace, Kind, action_space
from dragonlair.games.fist.custom import load_file
from dragonlair.games.fist.game import FistGame


def test_same_cards_share_one_space() -> None:
    a, b = FistGame({"players": 3}), FistGame({"players": 6, "max_turns": 5})
    assert a.space is b.space
    assert a.parse_action("bid f3 c1 amulet") is b.parse_action("bid f3 c1 amulet")
    assert a.num_distinct_actions == 6291


def test_custom_cards_get_their_own_space() -> None:
    custom = load_file("moneylender")
    plain, own = FistGame(), FistGame({"custom": custom})
    assert own.space is not plain.space
    assert own.space is FistGame({"custom": custom, "players": 5}).space
    assert own.num_distinct_actions == plain.num_distinct_actions + 2 * len(custom)
    card = own.card_ids[-1]
    assert own.parse_action(f"card {card}").card == len(own.card_ids) - 1
    # actions before the per-card ones keep their indices (F9: custom after built-in)
    assert [str(x) for x in own.space.actions[:6000]] == [
        str(x) for x in plain.space.actions[:6000]]


def test_space_is_read_only_tables() -> None:
    space = action_space(FistGame().card_ids)
    for table in (space.actions, space.bid, space.bid[0][0], space.silver, space.colour,
                  space.steal, space.target, space.pick, space.buy, space.card, space.stone):
        assert isinstance(table, tuple)
    assert all(a.index == i for i, a in enumerate(space.actions))
    assert {a.kind for a in space.actions} == set(Kind)


def test_a_game_does_not_change_the_shared_space() -> None:
    """Playing a game fills only the bid caches (F5.1), which hold the same whoever asks
    first: a space built afresh gives the same bids."""
    game = FistGame()
    before = [(a.index, a.text) for a in game.space.actions]
    random_playout(game.new_initial_state(), random.Random(7))
    assert [(a.index, a.text) for a in FistGame().space.actions] == before
    fresh = ActionSpace(game.card_ids)
    assert game.space.bid_cache
    for key, bids in game.space.bid_cache.items():
        f, c, k, m = key >> 12, key >> 2 & 1023, key >> 1 & 1, key & 1
        assert [b.text for b in bids] == [b.text for b in fresh.bids(f, c, k, m)]
