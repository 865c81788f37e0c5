"""Seeded games are unchanged by engine work: a digest of 200 seeded uniform-random games
per game (records, outcomes, final full states), compared with the one taken before the
change (issue 23: the Fist action space cached per option set).

Fist tables cycle through 3 to 6 players and, every fifth game, the shipped custom
characters (F9), with ``specials`` ``custom`` every tenth; legal actions are drawn by
index, so their order is part of the digest.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from dragonlair.core.driver import seed_for
from dragonlair.core.game import CHANCE
from dragonlair.games import make_game
from dragonlair.games.fist.custom import example_names, load_file

GAMES = 200


def _fist_options(i: int) -> dict[str, Any]:
    opts: dict[str, Any] = {"players": 3 + i % 4}
    if i % 5 == 0:
        opts["custom"] = [c for name in example_names() for c in load_file(name)]
        if i % 10 == 0:
            opts["specials"] = "custom"
    return opts


def _options(game_id: str, i: int) -> dict[str, Any]:
    if game_id == "fist":
        return _fist_options(i)
    if game_id == "farkle":
        return {"players": 2 + i % 3}
    return {}


def digest(game_id: str, games: int = GAMES) -> str:
    """sha256 over ``games`` seeded random games of ``game_id``."""
    h = hashlib.sha256()
    for i in range(games):
        game = make_game(game_id, _options(game_id, i))
        state = game.new_initial_state()
        rng = random.Random(seed_for(23, i))
        while True:
            seats = state.current_seats()
            if not seats:
                break
            if seats[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            for seat in seats:
                legal = state.legal_actions(seat)
                h.update(str(len(legal)).encode())
                state.apply(seat, legal[rng.randrange(len(legal))])
        h.update(json.dumps([[s, str(a), a.index] for s, a in state.history]).encode())
        outcome = state.outcome()
        assert outcome is not None
        h.update(json.dumps(outcome.to_json(), sort_keys=True).encode())
        h.update(json.dumps(state.full_state(), sort_keys=True, default=str).encode())
    return h.hexdigest()


#: taken before the Fist action space was cached (issue 23); Fist's retaken when its public
#: view began to say ``specials: custom`` (the games, outcomes and every other field are the
#: same: checked with that key taken out, the old digest came back)
EXPECTED = {
    "fist": "478ad67711b6a65a63bb96093dec75c95fe795bded13bbd55207192d6dcf7cfb",
    # issue 25 added the next roll to the view (public.next_roll), and so to the full state;
    # the digest without that field is the one before (the same games)
    "farkle": "c4f1ea4d1ab6f4a4cbed8449075c737e65ee54bb6cea249aa767b21bee7785b5",
    "master": "5c55fff13abf2bd8be1a6a44dedde326e7c0860512582d7fc17b1fb98f877a4c",
}


@pytest.mark.parametrize("game_id", [
    "master", pytest.param("fist", marks=pytest.mark.slow),
    # a few seconds (its games are long, and each FarkleGame() builds its actions)
    pytest.param("farkle", marks=pytest.mark.slow),
])
def test_seeded_games_unchanged(game_id: str) -> None:
    assert digest(game_id) == EXPECTED[game_id]


if __name__ == "__main__":
    import time

    for gid in sorted(EXPECTED):
        t = time.process_time()
        print(gid, digest(gid), f"{time.process_time() - t:.1f} CPU-s")
