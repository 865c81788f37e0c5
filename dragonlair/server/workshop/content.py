"""What an entry may hold, checked by the game itself (docs/workshop.md, "Kinds").

An entry's ``content`` is the option values it sets at a table:

- ``characters``: the game's characters option (Fist: ``{"custom": [...]}``), each character
  normalized and the set checked by the game's workshop
  (:mod:`dragonlair.server.characters`);
- ``deck``: ``{"decks": ...}`` (Farkle's companion and item decks);
- ``scoring``: ``{"table": ...}`` (Farkle's scoring table);
- ``variant``: any of the game's other options (``{"dragon": 4}``,
  ``{"four_of_a_kind": "100+face"}``), never the number of players (the table's seats decide)
  nor the options the kinds above stand for.

Then the game is made with those options (:func:`dragonlair.games.make_game`): its own option
validation has the last word, and its refusal comes back with its own code.
"""

from __future__ import annotations

import json
from typing import Any

from dragonlair.core.errors import DragonlairError
from dragonlair.server.errors import ServerError

JSON = dict[str, Any]

KINDS = ("characters", "deck", "scoring", "variant")
#: the longest content, as compact JSON text (characters)
MAX_CONTENT = 32_000
#: options a variant never sets
NOT_VARIANT = frozenset({"players"})


def option_of(game_id: str, kind: str) -> str | None:
    """The option an entry of ``kind`` sets in ``game_id`` (``None``: a variant, or a kind the
    game does not have)."""
    from dragonlair.games import plugin

    p = plugin(game_id)
    if kind == "characters":
        return p.characters_option if p.workshop is not None else None
    # a deck, a scoring table: the option the game's plugin names for the kind
    name = p.workshop_options.get(kind)
    if name is not None and any(spec.name == name for spec in p.info.options):
        return name
    return None


def kinds_of(game_id: str) -> list[str]:
    """The kinds of entry ``game_id`` has (a variant always)."""
    return [k for k in KINDS if k == "variant" or option_of(game_id, k) is not None]


def variant_options(game_id: str) -> list[str]:
    """The options a variant of ``game_id`` may set."""
    from dragonlair.games import plugin

    taken = {option_of(game_id, k) for k in KINDS} | NOT_VARIANT
    return [spec.name for spec in plugin(game_id).info.options if spec.name not in taken]


def check(game_id: str, kind: str, content: Any) -> JSON:
    """``content`` checked for an entry of ``kind`` of ``game_id`` and written out as it is
    stored (a refusal: :class:`ServerError`, 422)."""
    from dragonlair.games import game_ids, make_game

    if game_id not in game_ids():
        raise ServerError("core.game.unknown", 422, game=game_id[:64], known=game_ids())
    if kind not in kinds_of(game_id):
        raise ServerError("server.workshop.kind_not_for_game", 422, game=game_id, kind=kind,
                          kinds=kinds_of(game_id))
    if not isinstance(content, dict):
        raise ServerError("server.workshop.no_content", 422)
    size = len(json.dumps(content, separators=(",", ":"), ensure_ascii=False))
    if size > MAX_CONTENT:
        raise ServerError("server.workshop.too_long", 422, field="content", max=MAX_CONTENT)
    option = option_of(game_id, kind)
    if option is not None:
        if set(content) != {option} or content[option] in (None, [], {}):
            raise ServerError("server.workshop.no_content", 422, option=option)
    else:
        allowed = variant_options(game_id)
        if not content:
            raise ServerError("server.workshop.no_content", 422)
        for name in content:
            if name not in allowed:
                raise ServerError("server.workshop.unknown_option", 422, option=str(name)[:64],
                                  known=allowed)
    out = dict(content)
    if kind == "characters":
        from dragonlair.server.characters import _all_normalized
        from dragonlair.server.characters import workshops as game_workshops

        ws = game_workshops()[game_id]
        entries = content[str(option)]
        if not isinstance(entries, list):
            raise ServerError("server.workshop.no_content", 422, option=option)
        out[str(option)] = _all_normalized(ws, entries)
    try:
        make_game(game_id, out)
    except DragonlairError as exc:
        raise ServerError(exc.code, 422, **exc.params) from None
    return out
