"""Determinization for Dragon Farkle (D9): other seats' item draws (``chance: item for pN``)
and their discard and keep-item choices are hidden. Draws follow the pile's probabilities,
except that items the record later shows a seat using are given to it in time; hidden
choices are uniform among the legal ones, keeping items still to be used. A sample that
contradicts the record (an item use that became impossible, different battle events)
is drawn again. The generic loop is :func:`dragonlair.interop.resample.sample_history`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dragonlair.core.game import CHANCE, JSON, Game, State
from dragonlair.core.records import parse_entry
from dragonlair.interop.resample import History, ResampleError, apply_or_refuse

if TYPE_CHECKING:
    from dragonlair.games.farkle.actions import FarkleAction
    from dragonlair.games.farkle.game import FarkleGame


def _farkle_uses(game: FarkleGame, entries: Sequence[tuple[int, str]],
                 events: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[int, Counter[int]]:
    """Per seat, the items the record shows it using (actions and automatic effects)."""
    ids = {c.id: k for k, c in enumerate(game.items)}
    uses: dict[int, Counter[int]] = {s: Counter() for s in range(game.num_players)}
    for who, text in entries:
        if who >= 0 and text.startswith("use ") and text[4:] in ids:
            uses[who][ids[text[4:]]] += 1
    for who, k in _auto_uses(game, events):
        uses[who][k] += 1
    return uses


#: the events of items that act by themselves in the Final Battle (public, D6)
_AUTO_USES = ("farkle.battle.arrow", "farkle.battle.shield")


def _auto_uses(game: FarkleGame, events: Sequence[tuple[str, Mapping[str, Any]]],
               ) -> list[tuple[int, int]]:
    """Items used by themselves in the Final Battle, from the events (``(code, params)``)."""
    ids = {c.id: k for k, c in enumerate(game.items)}
    return [(params["seat"], ids[params["card"]]) for code, params in events
            if code in _AUTO_USES and params.get("card") in ids]


def determinize(game: Game, view: JSON, seat: int,
                rng: random.Random) -> tuple[State, History] | None:
    from dragonlair.games.farkle.actions import Kind
    from dragonlair.games.farkle.game import FarkleGame

    if not isinstance(game, FarkleGame):
        raise ResampleError("core.resample.wrong_game", game="farkle", got=game.info.id)
    try:  # the record in the view's public part (docs/views.md)
        entries = [parse_entry(e, game.num_players) for e in view["public"]["history"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ResampleError("core.resample.not_a_view", game="farkle", why=str(exc)) from None
    uses = _farkle_uses(game, entries, [(e["code"], e["params"])
                                        for e in view.get("events", [])])
    used: dict[int, Counter[int]] = {s: Counter() for s in range(game.num_players)}
    state = game.new_initial_state()
    history: History = []
    events_seen = 0

    def still_needed(s: int) -> Counter[int]:
        return uses[s] - used[s] - Counter(state.items[s]) - Counter(state.gained[s])

    ids = {c.id: k for k, c in enumerate(game.items)}
    for i, (who, text) in enumerate(entries):
        if who == CHANCE and text.startswith("item for p"):
            s = int(text[len("item for p"):])
            outcomes = state.chance_outcomes()
            if not outcomes or outcomes[0][0].kind != Kind.DRAW_ITEM:
                return None
            # keep in the pile the cards the seat later sees drawn
            seen_later = Counter(ids[t[5:]] for w, t in entries[i + 1:]
                                 if w == CHANCE and t.startswith("item ") and t[5:] in ids)
            full = state.full_state()
            pile = Counter({ids[k]: n for k, n in (full["item_deck"] or full["item_discard"]
                                                   ).items()})
            free = [(a, p) for a, p in outcomes if pile[a.card] > seen_later[a.card]] or outcomes
            need = still_needed(s)
            wanted = [a for a, _ in free if need[a.card] > 0]
            if wanted:
                action: FarkleAction = wanted[rng.randrange(len(wanted))]
            else:
                total = sum(p for _, p in free)
                r, acc = rng.random() * total, 0.0
                action = free[-1][0]
                for a, p in free:
                    acc += p
                    if r < acc:
                        action = a
                        break
        elif who >= 0 and text in ("discard (hidden)", "keep-item (hidden)"):
            if who not in state.current_seats():
                return None
            legal = list(state.legal_actions(who))
            need = still_needed(who) + (uses[who] - used[who])
            if text.startswith("discard"):
                spare = [a for a in legal if a.kind == Kind.DISCARD and not need[a.card]]
            else:
                spare = [a for a in legal if a.kind == Kind.KEEP_ITEM and need[a.card]]
            pick = spare or legal
            if not pick:
                return None
            action = pick[rng.randrange(len(pick))]
        else:
            action = game.parse_action(text)
        if not apply_or_refuse(state, history, who, action):
            return None
        if who >= 0 and action.kind == Kind.USE:
            used[who][action.card] += 1
        if state.event_count > events_seen:
            for s, k in _auto_uses(game, [(e.code, e.params) for _, e
                                          in state.events_for(None, events_seen)]):
                used[s][k] += 1
            events_seen = state.event_count
    return state, history
