"""The grammar of actions is the engine's alone: a seat's view gives every legal action's
text and its structure, and a client composes nothing (docs/views.md, "action forms").

Over random positions of each game, the texts a client reads from the view's ``legal`` part
(:func:`dragonlair.client.legal_texts`: a Fist bid's or a Master placement's ``form``, a
Farkle ``actions`` / ``moves`` list, a Fist decision's ``choices``) are exactly the legal
actions, each parsing back to a legal action in its canonical text; a form's options stand
for what their slots say (a bid's coins, a card and a cell), and a text found in a form is
written back by it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from dragonlair.client import form_choice, form_text, form_texts, legal_texts
from dragonlair.core.game import CHANCE, State
from dragonlair.games import make_game
from dragonlair.games.fist.actions import MAX_COMMON, MAX_FAIRY, MAX_SILVER, bid_form, silver_form
from dragonlair.games.fist.actions import Kind as FistKind
from dragonlair.games.master.actions import cell_name
from dragonlair.games.master.cards import CARDS
from tests.sizes import size

#: (game, options per seed, games); Fist games stop after two turns (the bids and every
#: power decision come early), so the run stays quick; Fist and Farkle one game of each
#: table size (the release run, scripts/test.sh --long: six games)
GAMES: list[tuple[str, Any, int]] = [
    ("fist", lambda seed: {"players": 3 + seed % 4, "max_turns": 2}, size(ci=4, long=6)),
    ("master", lambda seed: {"match": bool(seed % 2)}, 6),
    ("farkle", lambda seed: {"players": 2 + seed % 4, "max_turns": 6}, size(ci=4, long=6)),
]


def positions(game_id: str, options: Any, count: int) -> Iterator[tuple[Any, State]]:
    """The game and the state after every action of ``count`` seeded random games (the same
    object)."""
    for seed in range(count):
        rng = random.Random(seed)
        game = make_game(game_id, options(seed))
        state = game.new_initial_state()
        yield game, state
        while not state.is_terminal():
            seats = state.current_seats()
            if seats[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                for seat in seats:
                    legal = state.legal_actions(seat)
                    state.apply(seat, legal[rng.randrange(len(legal))])
            yield game, state


def check_form(game_id: str, legal_part: dict[str, Any], texts: list[str],
               actions: dict[str, Any]) -> None:
    """A form's options mean what their slots say, and each text is written back by it."""
    form = legal_part["form"]
    for text in texts:
        choice = form_choice(form, text)
        assert choice is not None, text
        assert form_text(form, choice) == text
        a = actions[text]
        if game_id == "master":
            assert legal_part["cards"][choice["card"]] == CARDS[a.value].id
            assert legal_part["cells"][choice["cell"]] == cell_name(a.cell)
        elif a.kind == FistKind.BID:
            assert choice == {"fairy": a.fairy, "common": a.common, "black": int(a.black),
                              "amulet": int(a.amulet)}
        else:
            assert a.kind == FistKind.SILVER
            assert choice == {"silver": a.silver, "amulet": int(a.amulet)}
    slots = {p["slot"]: len(p["texts"]) for p in form["parts"] if p["slot"] is not None}
    if game_id == "master":
        assert slots == {"card": len(legal_part["cards"]), "cell": len(legal_part["cells"])}
    elif legal_part["kind"] == "bid":
        b = legal_part["bid"]
        assert slots == {"fairy": b["fairy"] + 1, "common": b["common"] + 1,
                         "black": 1 + b["black"], "amulet": 1 + b["amulet"]}
    else:
        s = legal_part["silver"]
        assert slots == {"silver": s["silver"] + 1, "amulet": 1 + s["amulet"]}


def check_moves(legal_part: dict[str, Any], actions: dict[str, Any], items: list[str]) -> None:
    """Farkle: one move per action, in its order, naming what the action names."""
    moves = legal_part["moves"]
    assert [m["action"] for m in moves] == legal_part["actions"]
    for m in moves:
        a = actions[m["action"]]
        assert m["kind"] == a.kind.name.lower()
        named = {k: v for k, v in m.items() if k not in ("action", "kind")}
        if m["kind"] in ("skirmish", "scare"):
            assert named == {"seat": a.seat}
        elif m["kind"] in ("use", "discard", "keep_item"):
            assert named == {"card": items[a.card]}
        elif m["kind"] == "reroll":
            assert named == {"face": a.face}
        elif m["kind"] == "keep":
            assert named.keys() == {"dice"}
            assert m["action"] == f"keep {named['dice']}"
        else:
            assert named == {}


@pytest.mark.parametrize(("game_id", "options", "count"), GAMES, ids=[g[0] for g in GAMES])
def test_the_views_texts_are_exactly_the_legal_actions(game_id: str, options: Any,
                                                       count: int) -> None:
    kinds: set[str] = set()
    for game, state in positions(game_id, options, count):
        assert state.view(None)["legal"] is None  # a spectator acts on nothing
        for seat in range(state.num_players):
            view = state.view(seat)
            legal = state.legal_actions(seat)
            if not legal:
                assert view["legal"] is None, "only the seat to move has legal actions"
                continue
            texts = legal_texts(view)
            assert len(texts) == len(set(texts)) == len(legal)
            parsed = {t: game.parse_action(t) for t in texts}
            assert all(str(a) == t for t, a in parsed.items()), "texts are canonical"
            assert {a.index for a in parsed.values()} == {a.index for a in legal}
            part = view["legal"]
            if part.get("form") is not None:
                kinds.add(f"form:{part.get('kind', 'place')}")
                check_form(game_id, part, texts, parsed)
            if game_id == "farkle":
                kinds.add("moves")
                check_moves(part, parsed, [i.id for i in game.items])
            if game_id == "fist" and part["kind"] == "decision":
                kinds.add("choices")
                assert part["form"] is None
    expected = {"fist": {"form:bid", "form:silver", "choices"}, "master": {"form:place"},
                "farkle": {"moves"}}[game_id]
    assert kinds == expected


def test_a_bid_form_names_every_bid_once_and_only_those() -> None:
    """The largest holdings still make a small form (the view names its parts, not the
    3,904 bids), and every text it joins is the engine's own bid."""
    game = make_game("fist", {"players": 3})
    form = bid_form(MAX_FAIRY, MAX_COMMON, True, True)
    texts = form_texts(form)
    assert len(texts) == len(set(texts)) == (MAX_FAIRY + 1) * (MAX_COMMON + 1) * 4
    assert all(str(game.parse_action(t)) == t for t in texts)
    assert len(str(form)) < 1200
    assert form_text(form, {"fairy": 3, "common": 1, "amulet": True}) == "bid f3 c1 amulet"
    assert form_text(form, {"fairy": MAX_FAIRY + 1}) is None
    assert form_choice(form, "bid f10 c1 black") == {"fairy": 10, "common": 1, "black": 1,
                                                     "amulet": 0}
    assert form_choice(form, "bid f1 c0 black black") is None
    small = bid_form(2, 0, False, False)
    assert form_texts(small) == ["bid f0 c0", "bid f1 c0", "bid f2 c0"]
    assert form_text(small, {"fairy": 1, "black": True}) is None  # no Black Magic coin
    silver = silver_form(MAX_SILVER, True)
    assert [str(game.parse_action(t)) for t in form_texts(silver)] == form_texts(silver)
