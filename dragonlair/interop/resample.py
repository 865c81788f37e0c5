"""Determinization from a view: a complete game history that fits what one seat knows.

Search bots for imperfect-information games (OpenSpiel's ISMCTS calls it
``resample_from_infostate``) need whole positions that the searching seat cannot tell apart
from the real one. :func:`sample_history` builds one from the seat's view alone (never from
the engine state): it replays the view's record and fills every hidden entry with a sampled
value, so that replaying the returned actions from the initial state gives a position whose
view for that seat equals the given view exactly (the function checks this).

- Fist (F8): the record hides only sealed bids not yet revealed (``pN: sealed``); coins
  follow from the record (:mod:`dragonlair.games.fist.memory`). Each sealed bid is drawn
  uniformly from that seat's legal bids.
- Dragon Master (M6): the other hand of the current round is hidden (``chance: deal to
  pN``). Its cards are the ones that player has placed since, plus a uniform sample, without
  replacement, of the cards the seat has not seen; the four left are the set-aside cards.
- Dragon Farkle (D9): other seats' item draws (``chance: item for pN``) and their discard
  and keep-item choices are hidden. Draws follow the pile's probabilities, except that items
  the record later shows a seat using are given to it in time; hidden choices are uniform
  among the legal ones, keeping items still to be used. A sample that contradicts the record
  (an item use that became impossible, a different battle narration) is drawn again.

The distribution is a plain, documented one (uniform over what is hidden, not a Bayesian
posterior over the other players' strategies), as in most determinizing searches.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

from dragonlair.core.errors import DragonlairError, IllegalActionError
from dragonlair.core.game import CHANCE, JSON, Action, Game, State
from dragonlair.core.records import parse_entry

History = list[tuple[int, Action]]


class ResampleError(DragonlairError):
    """No position consistent with the view was found (or the view is not of this game)."""


def _same_view(state: State, seat: int, view: JSON) -> bool:
    return json.dumps(state.view(seat), sort_keys=True) == json.dumps(view, sort_keys=True)


def sample_history(game: Game, view: JSON, seat: int, rng: random.Random,
                   attempts: int = 100) -> History:
    """``(seat, action)`` pairs, chance included, from the initial state to a position whose
    ``view(seat)`` equals ``view``; hidden entries are sampled with ``rng``."""
    gid = game.info.id
    for _ in range(attempts):
        if gid == "fist":
            got = _fist(game, view, rng)
        elif gid == "master":
            got = _master(game, view, seat, rng)
        elif gid == "farkle":
            got = _farkle(game, view, seat, rng)
        else:
            raise ResampleError(f"no resampler for {gid}")
        if got is not None:
            state, history = got
            if _same_view(state, seat, view):
                return history
    raise ResampleError(f"no {gid} position fitting p{seat}'s view found in {attempts} tries")


def _parsed(game: Game, view: JSON) -> list[tuple[int, str]]:
    try:
        return [parse_entry(e, game.num_players) for e in view["history"]]
    except (KeyError, ValueError) as exc:
        raise ResampleError(f"not a {game.info.id} view: {exc}") from None


def _apply(state: State, history: History, seat: int, action: Action) -> bool:
    try:
        state.apply(seat, action)
    except IllegalActionError:
        return False
    history.append((seat, action))
    return True


# ---------------------------------------------------------------------- Fist (F8)
def _fist(game: Game, view: JSON, rng: random.Random) -> tuple[State, History] | None:
    state = game.new_initial_state()
    history: History = []
    for who, text in _parsed(game, view):
        if text == "sealed":
            legal = state.legal_actions(who)
            if not legal:
                return None
            action = legal[rng.randrange(len(legal))]
        else:
            action = game.parse_action(text)
        if not _apply(state, history, who, action):
            raise ResampleError(f"the record in the view does not replay at '{who}: {text}'")
    return state, history


# ---------------------------------------------------------------------- Dragon Master (M6)
def _master(game: Game, view: JSON, seat: int,
            rng: random.Random) -> tuple[State, History] | None:
    from dragonlair.games.master.cards import BY_ID
    from dragonlair.games.master.state import DEAL, MasterState

    entries = _parsed(game, view)
    masked = [i for i, (_, t) in enumerate(entries) if t.startswith("deal to p")]
    hidden: list[int] = []
    if masked:
        first = masked[0]
        owner = int(entries[first][1][len("deal to p"):])
        # the deck when the first hidden card is dealt: replay the entries before it
        probe = game.new_initial_state()
        for who, text in entries[:first]:
            probe.apply(who, game.parse_action(text))
        assert isinstance(probe, MasterState)
        pool = Counter({v: n for v, n in enumerate(probe.deck) if n})
        for who, text in entries[first:]:
            if who == CHANCE and text.startswith("deal ") and not text.startswith("deal to"):
                pool[BY_ID[text.split()[1]].value] -= 1  # the seat's own cards, dealt later
        placed = [BY_ID[t.split()[1]].value for who, t in entries[first:]
                  if who == owner and t.startswith("place ")]
        for v in placed:
            pool[v] -= 1
        if min(pool.values(), default=0) < 0 or len(placed) > len(masked):
            raise ResampleError("the view's record is not a Dragon Master deal")
        rest = [v for v, n in sorted(pool.items()) for _ in range(n)]
        hidden = placed + rng.sample(rest, len(masked) - len(placed))
        rng.shuffle(hidden)
    state = game.new_initial_state()
    history: History = []
    k = 0
    for who, text in entries:
        if text.startswith("deal to p"):
            action: Action = DEAL[hidden[k]]
            k += 1
        else:
            action = game.parse_action(text)
        if not _apply(state, history, who, action):
            raise ResampleError(f"the record in the view does not replay at '{text}'")
    return state, history


# ---------------------------------------------------------------------- Dragon Farkle (D9)
def _farkle_uses(game: Game, entries: Sequence[tuple[int, str]], events: Sequence[str],
                 ) -> dict[int, Counter[int]]:
    """Per seat, the items the record shows it using (actions and automatic effects)."""
    items = game.items  # type: ignore[attr-defined]
    ids = {c.id: k for k, c in enumerate(items)}
    uses: dict[int, Counter[int]] = {s: Counter() for s in range(game.num_players)}
    for who, text in entries:
        if who >= 0 and text.startswith("use ") and text[4:] in ids:
            uses[who][ids[text[4:]]] += 1
    for who, k in _auto_uses(game, events):
        uses[who][k] += 1
    return uses


def _auto_uses(game: Game, events: Sequence[str]) -> list[tuple[int, int]]:
    """Items used by themselves in the Final Battle, from the public narration."""
    items = game.items  # type: ignore[attr-defined]
    out = []
    for text in events:
        for s in range(game.num_players):
            for k, c in enumerate(items):
                if text == f"p{s} shoots a {c.name_en}" or text.startswith(
                        f"p{s}'s {c.name_en} saves "):
                    out.append((s, k))
    return out


def _farkle(game: Game, view: JSON, seat: int,
            rng: random.Random) -> tuple[State, History] | None:
    from dragonlair.games.farkle.actions import Kind
    from dragonlair.games.farkle.state import FarkleState

    entries = _parsed(game, view)
    uses = _farkle_uses(game, entries, view.get("events", []))
    used: dict[int, Counter[int]] = {s: Counter() for s in range(game.num_players)}
    state = game.new_initial_state()
    assert isinstance(state, FarkleState)
    history: History = []
    events_seen = 0

    def still_needed(s: int) -> Counter[int]:
        return uses[s] - used[s] - Counter(state.items[s]) - Counter(state.gained[s])

    ids = {c.id: k for k, c in enumerate(game.items)}  # type: ignore[attr-defined]
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
            free = [(a, p) for a, p in outcomes if pile[a.a] > seen_later[a.a]] or outcomes
            need = still_needed(s)
            wanted = [a for a, _ in free if need[a.a] > 0]
            if wanted:
                action: Action = wanted[rng.randrange(len(wanted))]
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
                spare = [a for a in legal if a.kind == Kind.DISCARD and not need[a.a]]
            else:
                spare = [a for a in legal if a.kind == Kind.KEEP_ITEM and need[a.a]]
            pick = spare or legal
            if not pick:
                return None
            action = pick[rng.randrange(len(pick))]
        else:
            action = game.parse_action(text)
        if not _apply(state, history, who, action):
            return None
        if who >= 0 and action.kind == Kind.USE:  # type: ignore[attr-defined]
            used[who][action.a] += 1  # type: ignore[attr-defined]
        if len(state.events) > events_seen:
            for s, k in _auto_uses(game, state.events[events_seen:]):
                used[s][k] += 1
            events_seen = len(state.events)
    return state, history
