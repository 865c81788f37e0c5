"""Determinization from a view: a complete game history that fits what one seat knows.

Search bots for imperfect-information games (OpenSpiel's ISMCTS calls it
``resample_from_infostate``) need whole positions that the searching seat cannot tell apart
from the real one. :func:`sample_history` builds one from the seat's view alone (never from
the engine state): it replays the view's record and fills every hidden entry with a sampled
value, so that replaying the returned actions from the initial state gives a position whose
view for that seat equals the given view exactly (the function checks this).

What is hidden and how it is drawn is each game's own: its plugin's ``determinizer``
(``dragonlair/games/<id>/determinize.py``). The built-in games:

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

from dragonlair.core.errors import DragonlairError, IllegalActionError
from dragonlair.core.game import JSON, Action, Game, State
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
    from dragonlair.games import plugin

    gid = game.info.id
    make = plugin(gid).determinizer
    if make is None:
        raise ResampleError("core.resample.no_resampler", game=gid)
    determinize = make()
    for _ in range(attempts):
        got = determinize(game, view, seat, rng)
        if got is not None:
            state, history = got
            if _same_view(state, seat, view):
                return history
    raise ResampleError("core.resample.not_found", game=gid, seat=seat, attempts=attempts)


def parsed(game: Game, view: JSON) -> list[tuple[int, str]]:
    """The view's record as ``(seat, text)`` entries."""
    try:
        return [parse_entry(e, game.num_players) for e in view["history"]]
    except (KeyError, ValueError) as exc:
        raise ResampleError("core.resample.not_a_view", game=game.info.id, why=str(exc)) from None


def apply_or_refuse(state: State, history: History, seat: int, action: Action) -> bool:
    """Apply ``action`` and append it to ``history``; ``False`` (nothing changed) if illegal."""
    try:
        state.apply(seat, action)
    except IllegalActionError:
        return False
    history.append((seat, action))
    return True
