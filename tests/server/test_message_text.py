"""The JSON text of the server's messages (``viewers._encode``, orjson since issue 24): it
reads back as the message, in every language (UTF-8 letters), and what orjson refuses (an
integer beyond 64 bits) is still written, by the standard library."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("orjson")

from dragonlair.core.game import CHANCE
from dragonlair.games import make_game
from dragonlair.server.table.viewers import _encode


def test_views_read_back_as_they_were() -> None:
    for game_id, options in (("fist", {"players": 4}), ("master", {}), ("farkle", {})):
        state = make_game(game_id, options).new_initial_state()
        rng = random.Random(4)
        for _ in range(60):
            if state.is_terminal():
                break
            for seat in [*range(state.num_players), None]:
                view = state.view(seat)
                text = _encode({"type": "update", "view": view})
                assert json.loads(text) == {"type": "update", "view": view}
                assert ", " not in text[:2] and "\n" not in text
            seats = state.current_seats()
            if seats == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                for s in seats:
                    legal = state.legal_actions(s)
                    state.apply(s, legal[rng.randrange(len(legal))])


def test_letters_keys_and_big_numbers() -> None:
    message = {"type": "chat", "text": "Grüße, Drache 🐉", "n": 2**70, 3: "a number key"}
    text = _encode(message)
    assert json.loads(text) == {"type": "chat", "text": "Grüße, Drache 🐉", "n": 2**70,
                                "3": "a number key"}
    small = _encode({"text": "Grüße"})
    assert "Grüße" in small and json.loads(small) == {"text": "Grüße"}
