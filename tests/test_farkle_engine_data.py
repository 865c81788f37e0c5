"""Dragon Farkle's engine speaks typed data: actions carry named fields (no raw ``a``/``b``),
card effects, windows, powers and what follows a draw are enums, and the snapshot keeps its
JSON shape (strings), refusing names that are none of the enum's.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dragonlair.core.errors import OptionError, RecordError
from dragonlair.core.game import CHANCE
from dragonlair.games.farkle.actions import DICE_SETS, EventFace, Kind
from dragonlair.games.farkle.cards import (
    COMPANIONS,
    ITEMS,
    CardKind,
    CompanionEffect,
    ItemEffect,
    Window,
    decks_from_data,
)
from dragonlair.games.farkle.enums import AfterDraw, Power
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.scoring import counts_of


def test_action_fields_are_named_for_what_they_mean() -> None:
    game = FarkleGame({"players": 3})
    parse = game.parse_action
    assert parse("skirmish p2").seat == 2 and parse("skirmish p2").kind is Kind.SKIRMISH
    assert parse("scare p1").seat == 1
    assert parse("start p0").seat == 0
    assert parse("reroll 5").face == 5 and parse("die 3").face == 3
    assert DICE_SETS[parse("keep 155").dice] == counts_of("155")
    roll = parse("dice 234445 dragon")
    assert DICE_SETS[roll.dice] == counts_of("234445") and roll.event is EventFace.DRAGON
    item = parse("use gold-purse")
    assert game.items[item.card].id == "gold-purse"
    assert game.items[parse("discard gold-purse").card].id == "gold-purse"
    assert game.companions[parse("companion tabby").card].id == "tabby"


def test_every_action_round_trips_by_text_and_index() -> None:
    game = FarkleGame({"players": 5})
    for index, action in enumerate(game.space.actions):
        assert action.index == index
        assert game.parse_action(str(action)) is action
        assert game.action_from_index(index) is action


def test_card_effects_and_windows_are_enums_d8() -> None:
    """D8: every built-in card names one effect of its deck's enum; an item's window comes
    from its effect, a companion's window is ``companion``."""
    assert all(c.kind is CardKind.COMPANION and isinstance(c.effect, CompanionEffect)
               and c.window is Window.COMPANION for c in COMPANIONS)
    assert all(c.kind is CardKind.ITEM and isinstance(c.effect, ItemEffect) for c in ITEMS)
    by_id = {c.id: c for c in ITEMS}
    assert by_id["gold-purse"].window is Window.START
    assert by_id["lucky-clover"].window is Window.FARKLE
    assert by_id["healing-potion"].window is Window.AUTO
    assert by_id["gold-purse"].to_json()["effect"] == "gain"  # deck JSON: plain text


def test_deck_file_effects_become_enums_d8_5() -> None:
    """D8.5: a deck file names effects by their text; the cards hold the enum members, and
    an unknown effect is refused listing the known ones."""
    comps, items = decks_from_data({
        "companions": [{"id": "owl", "effect": "bank_bonus", "amount": 50,
                        "name": {"en": "Owl"}, "text": {"en": "More."}}],
        "items": [{"id": "pie", "effect": "gain", "amount": 100,
                   "name": {"en": "Pie"}, "text": {"en": "Soldiers."}}]})
    assert comps[0].effect is CompanionEffect.BANK_BONUS
    assert items[0].effect is ItemEffect.GAIN and items[0].window is Window.START
    with pytest.raises(OptionError) as info:
        decks_from_data({"items": [{"id": "x", "effect": "bank_bonus",
                                    "name": {"en": "X"}, "text": {"en": "x"}}]})
    assert info.value.code == "farkle.deck.card_effect" and info.value.rule == "D8.5"
    assert "gain" in info.value.params["effects"]
    assert all(type(e) is str for e in info.value.params["effects"])


def _played(seed: int, steps: int) -> tuple[FarkleGame, Any]:
    rng = random.Random(seed)
    game = FarkleGame({"players": 2})
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(seat, state.sample_chance(rng))
        else:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
    return game, state


def test_snapshot_keeps_strings_for_powers_and_restores_enums_d8_4() -> None:
    """D8.4: the once-per-turn powers used are stored as their names (the views'
    ``powers_used`` too) and restored as :class:`Power` members."""
    game, state = _played(3, 60)
    state.used = {Power.TABBY, Power.SCARE}
    snap = json.loads(json.dumps(state.snapshot()))
    assert snap["state"]["used"] == ["scare", "tabby"]
    assert snap["state"]["after_draw"] in ("", "continue", "end")
    assert state.view(0)["public"]["powers_used"] == ["scare", "tabby"]
    restored = game.restore(snap)
    assert restored.used == {Power.TABBY, Power.SCARE}
    assert all(type(p) is Power for p in restored.used)
    assert isinstance(restored.after_draw, AfterDraw)
    assert isinstance(restored.event, EventFace)
    assert restored.view(0) == state.view(0)


@pytest.mark.parametrize("spoil", [
    lambda s: s.update(used=["banana"]),
    lambda s: s.update(asked=["scare", 3]),
    lambda s: s.update(battle_bonus_used=["tabby"]),
    lambda s: s.update(after_draw="later"),
    lambda s: s.update(event=7),
])
def test_snapshot_refuses_names_outside_the_enums(spoil: Any) -> None:
    game, state = _played(4, 30)
    snap = json.loads(json.dumps(state.snapshot()))
    spoil(snap["state"])
    with pytest.raises(RecordError) as info:
        game.restore(snap)
    assert info.value.code == "farkle.snapshot.invalid"
