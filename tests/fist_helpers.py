"""Staging Fist positions for tests, the way a hand-written record would."""

from __future__ import annotations

from typing import Any

from dragonlair.core.game import CHANCE
from dragonlair.core.records import parse_entry
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState


def new_table(players: int = 4, **options: Any) -> FistState:
    return FistGame({"players": players, **options}).new_initial_state()


def play(state: FistState, *entries: str) -> FistState:
    """Apply record entries such as ``"p0: bid f2 c0"`` or ``"chance: card thief"``."""
    for entry in entries:
        seat, text = parse_entry(entry, state.num_players)
        state.apply(seat, state.game.parse_action(text))
    return state


def setup(state: FistState, stones: list[str], specials: tuple[str, str]) -> FistState:
    """Deal each seat its 4 starting stones (``"rrby"``) and draw the turn's specials."""
    names = {"r": "red", "b": "blue", "y": "yellow"}
    for hand in stones:
        assert len(hand) == 4
        for ch in hand:
            play(state, f"chance: stone {names[ch]}")
    for card in specials:
        play(state, f"chance: card {card}")
    return state


def bids(state: FistState, *texts: str) -> FistState:
    """Every seat to move submits, in seat order: ``bids(s, "f1 c0", "f0 c0", ...)``."""
    seats = state.current_seats()
    assert CHANCE not in seats and len(seats) == len(texts), (seats, texts)
    for seat, text in zip(seats, texts, strict=True):
        word = "silver" if text.startswith(("silver", "s")) and state.phase.name == "TIEBID" \
            else "bid"
        body = text.removeprefix("silver ").removeprefix("s") if word == "silver" else text
        play(state, f"p{seat}: {word} {body}")
    return state


def quiet_witch(state: FistState) -> FistState:
    """Everybody bids nothing on the Witch: it is passed."""
    return bids(state, *["f0 c0"] * state.num_players)


def private(state: FistState, seat: int, code: str) -> list[dict[str, Any]]:
    """The params of the events ``code`` told to ``seat`` alone (F8 secrets)."""
    return [dict(e.params) for _, e in state.events_for(seat) if e.code == code and e.to == seat]


def events(state: FistState, seat: int | None, code: str) -> list[dict[str, Any]]:
    """The params of the events ``code`` that ``seat`` (None: a spectator) may see."""
    return [dict(e.params) for _, e in state.events_for(seat) if e.code == code]


def pub(state: FistState, seat: int | None = None) -> dict[str, Any]:
    """The public part of ``seat``'s view (docs/views.md)."""
    public: dict[str, Any] = state.view(seat)["public"]
    return public


def me(state: FistState, seat: int) -> dict[str, Any]:
    """The private part (the screen, F8) of ``seat``'s view."""
    private: dict[str, Any] = state.view(seat)["private"]
    return private
