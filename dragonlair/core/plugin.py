"""One plugin per game: everything the rest of the system needs to know about a game.

Each game package exports one :class:`GamePlugin` (``dragonlair/games/<id>/plugin.py``,
``PLUGIN``). The registry (:mod:`dragonlair.games`) finds them; the CLI, the research
adapters, tournaments, balance reports, the server and its lobby form read them. Nothing
outside a game's own package names a game id in a branch, and ``core`` imports no game and
no bot: adding a game is adding a package and one line to the registry (or an entry point in
the ``dragonlair.games`` group for a game shipped as its own distribution).

Heavy parts (bots, numpy encoders, determinizers, terminal screens) are given as factories
so that loading a plugin imports only the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dragonlair.core.game import JSON, Action, Game, GameInfo, State

if TYPE_CHECKING:
    from dragonlair.core.players import BotFactory

#: A determinizer: from ``(game, view, seat, rng)``, a state and its complete history
#: (``(seat, action)`` pairs from the initial state, chance included) whose position that seat
#: cannot tell from the real one, or ``None`` when this attempt did not fit (the caller draws
#: again; :func:`dragonlair.interop.resample.sample_history` checks the view).
Determinizer = Callable[[Game, JSON, int, random.Random],
                        "tuple[State, list[tuple[int, Action]]] | None"]


class BalanceObserver:
    """Watches bot games for the balance report: which seats got which card.

    ``cards`` lists what is counted (:class:`dragonlair.balance.CardStats`); after a game,
    :meth:`got` gives, per card, the set of seats that got it. ``default_bot`` plays every
    seat when the report is given no bots."""

    cards: list[Any]
    default_bot: str = "random"
    #: what the report's "got" column counts, for its caption
    got_help: str = "times a player got it"

    def start(self, state: State) -> None:
        raise NotImplementedError

    def __call__(self, state: State, seat: int, action: Action) -> None:
        raise NotImplementedError

    def got(self, state: State) -> list[set[int]]:
        raise NotImplementedError


class Workshop:
    """A game's workshop: custom entries (Fist's characters, rule F9) made in the browser's
    editor and played through a table option (:attr:`GamePlugin.characters_option`).

    The server serves it under ``/api/games/<id>/<kind>/`` (:mod:`dragonlair.server.characters`)
    as five routes: ``GET examples``, ``POST check``, ``POST import`` (:meth:`import_file`),
    ``POST export`` and ``POST balance``, each served by the method of that name here (its
    docstring is the route's description). The server bounds the bodies (:attr:`max_depth`,
    :attr:`max_string`, :attr:`max_entries`), normalizes each entry (:meth:`normalize`) and
    the set (:meth:`check_set`) before a method sees them, runs one balance report at a time,
    and answers a refusal (:class:`~dragonlair.core.errors.DragonlairError`) with 422 and its
    code, params and rule. Everything about the entries themselves is the game's, here.

    The bodies and answers are the game's pydantic models, named in the OpenAPI document:
    :attr:`check_in` holds one entry in its field :attr:`entry`, :attr:`export_in` a list in
    :attr:`kind` and a ``format``, :attr:`balance_in` a list in :attr:`kind` with ``games``,
    ``players`` and ``seed``, :attr:`import_in` a ``filename`` and its ``text``;
    :attr:`import_out` answers a list in :attr:`kind`. Every entry has an ``id``."""

    #: what the entries are (plural): the URL's segment and the lists' field in the bodies
    kind: str = "characters"
    #: one entry: the field of :attr:`check_in`
    entry: str = "character"
    #: the most entries one request may hold
    max_entries: int = 20
    #: the deepest nesting of lists and tables in an entry
    max_depth: int = 6
    #: the longest string anywhere in an entry (a key or a value)
    max_string: int = 1000
    #: the longest file text an import reads
    max_file: int = 60_000
    #: the request bodies' and answers' models (pydantic), for the routes and OpenAPI
    examples_out: Any = None
    check_in: Any = None
    check_out: Any = None
    import_in: Any = None
    import_out: Any = None
    export_in: Any = None
    export_out: Any = None
    balance_in: Any = None
    balance_out: Any = None

    def normalize(self, data: Any) -> JSON:
        """One entry checked and written out in full (a refusal: DragonlairError)."""
        raise NotImplementedError

    def check_set(self, entries: list[JSON]) -> None:
        """Refuse a set of normalized entries that a table could not hold together."""
        raise NotImplementedError

    def examples(self) -> JSON:
        raise NotImplementedError

    def check(self, entry: JSON) -> JSON:
        """The answer of ``check`` for one normalized entry."""
        raise NotImplementedError

    def import_file(self, name: str, text: str) -> list[Any]:
        """The entries of a file's text as written (``name``: its base name; the server
        normalizes them, then shows each as :meth:`editable`)."""
        raise NotImplementedError

    def editable(self, entry: JSON) -> JSON:
        """A normalized entry as an editor takes it back from a file."""
        return entry

    def export(self, entries: list[JSON], fmt: str) -> JSON:
        """The answer of ``export``: the normalized entries as a file (``filename``,
        ``text``) in the format ``fmt``."""
        raise NotImplementedError

    def balance(self, entries: list[JSON], games: int, players: int,
                seed: int) -> Callable[[], JSON]:
        """Check the table of a balance run now (a refusal: DragonlairError) and give the
        run itself, which the server calls in a thread (seconds), one at a time."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class BenchReference:
    """An OpenSpiel game measured next to this one by ``dragonlair bench --vs-openspiel``."""

    name: str  # OpenSpiel's game name
    params: Mapping[str, Any]
    turn_based: bool  # loaded with load_game_as_turn_based: one action per seat's move
    why: str


def _same(params: Mapping[str, Any]) -> dict[str, Any]:
    return dict(params)


@dataclass(frozen=True, slots=True)
class InteropSpec:
    """How the research adapters present the game (OpenSpiel, PettingZoo, Gymnasium).

    ``parameters``: OpenSpiel's parameter specification with its defaults (``players`` and
    ``options``, a JSON object string of further table options, included); ``to_options``
    turns the merged parameters (``options`` already unpacked) into engine options;
    ``simultaneous``: the game has sealed simultaneous moves (it is then also registered in a
    turn-based form); ``decision_bound``: a bound on the decisions of one configured game
    (OpenSpiel's ``max_game_length``; :class:`ValueError` where there is none);
    ``references``: OpenSpiel's games that ``bench --vs-openspiel`` measures next to it."""

    parameters: Mapping[str, Any]
    decision_bound: Callable[[Game], int]
    to_options: Callable[[Mapping[str, Any]], dict[str, Any]] = _same
    simultaneous: bool = False
    references: tuple[BenchReference, ...] = ()


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """A game, declared whole (see the module docs)."""

    #: id, names, players, version and option specs (types, ranges, choices)
    info: GameInfo
    #: a configured game from options (checked; bad ones raise OptionError)
    make: Callable[[Mapping[str, Any]], Game]
    #: the game's own bots by name (the registry adds the game-independent ones)
    bots: Callable[[], Mapping[str, BotFactory]]
    #: the bot that fills a seat when none is named, and the strongest one
    default_bot: str
    strongest_bot: str
    #: whether an action is a chance outcome (they lie in one block at the end of the indices)
    is_chance_action: Callable[[Action], bool]
    #: the observation encoder for learning code (imports numpy): ``encoder(game)``
    encoder: Callable[[Game], Any] | None = None
    #: determinization for search bots (one per game)
    determinizer: Callable[[], Determinizer] | None = None
    #: the balance report's observer, or None when the game has nothing to report on
    balance: Callable[[Game], BalanceObserver] | None = None
    #: how the research adapters present the game
    interop: InteropSpec | None = None
    #: the JSON Schema of this game's views (:mod:`dragonlair.core.views`)
    view_schema: Callable[[], JSON] | None = None
    #: terminal play: a ``module:function`` path, called with the keywords of
    #: :func:`dragonlair.cli.play.run_play` (players, seats, seed, lang, options, save, console,
    #: name)
    terminal: str | None = None
    #: terminal play against a server (``play --server``): a ``module:Class`` path of the
    #: online session, built as ``Class(game, client, conn, names, lang, console, save)``
    terminal_online: str | None = None
    #: the terminal's rules page: a ``module:function`` path, called as ``f(console, lang)``
    terminal_rules: str | None = None
    #: what decided a finished game when the scores alone do not tell it, for ``replay``:
    #: a ``module:function`` path, ``f(full_state, names, lang) -> str | None``
    terminal_result: str | None = None
    #: options read from a file at the command line (``--custom``, ``--decks``): option name ->
    #: a ``module:function`` path that turns one file reference into the option's data
    option_files: Mapping[str, str] = field(default_factory=dict)
    #: options a lobby form may take from an uploaded file (TOML or JSON; docs/server.md,
    #: "Option files"): option name -> a ``module:function`` path that checks the file's data
    #: entry by entry, answering a list of ``(path, OptionError)`` (empty: the data is fine)
    option_uploads: Mapping[str, str] = field(default_factory=dict)
    #: the benchmark's table (options) for playout rates
    bench_options: Mapping[str, Any] = field(default_factory=dict)
    #: the tips page: a module path with ``measure(games, seed)`` (figures as JSON),
    #: ``paragraphs(figures, lang)`` and ``DEFAULT_GAMES`` (dragonlair/tips)
    tips: str | None = None
    #: the staged tutorial of ``dragonlair learn`` and the browser's lessons (docs/tutorials.md):
    #: its JSON file as a ``package:file`` reference (read with :mod:`importlib.resources`),
    #: or None for a game without one
    tutorial: str | None = None
    #: the rules in brief and the card list, as Markdown per language (``rules/<lang>.md``)
    rules: Callable[[str], str] | None = None
    #: hints and post-game analysis: a factory of the game's analyser (an
    #: :class:`dragonlair.analysis.hints.Analyser`, reading views only; docs/analysis.md)
    analysis: Callable[[], Any] | None = None
    #: puzzles mined from finished games (docs/puzzles.md): a ``module:attribute`` path to the
    #: game's :class:`dragonlair.puzzles.mine.PuzzleRules` (which decisions make puzzles, their
    #: questions, themes and explanations), or None for a game without puzzles
    puzzles: str | None = None
    #: a puzzle's position in the terminal: a ``module:function`` path, called as
    #: ``f(console, view, names, lang)`` (the game's own screen), or None (no terminal puzzles)
    terminal_puzzle: str | None = None
    #: the game's own message catalogues: a folder laid out as ``<lang>/LC_MESSAGES/*.po``
    #: (its codes in the game's namespace, ``<id>.``), or None for the ``locale`` folder next
    #: to the module that defines the plugin (:func:`dragonlair.games.locale_dir`); read by
    #: :mod:`dragonlair.core.i18n` with the shared catalogues, for built-in and entry-point
    #: games alike
    locale_dir: str | None = None
    #: the option that holds the table's custom characters, edited in the character workshop
    #: (the browser's ``/characters``, ``/api/games/<id>/characters``), or None when the game
    #: has no such option; the lobby serves it as ``characters_option`` (``GET /api/games``)
    characters_option: str | None = None
    #: the table option each further kind of workshop entry sets, by kind: ``deck`` (a deck
    #: of cards) and ``scoring`` (a scoring table) where the game has them (Farkle:
    #: ``{"deck": "decks", "scoring": "table"}``); the server's workshop offers those kinds
    #: and the lobby serves it as ``workshop_options`` (``GET /api/games``)
    workshop_options: Mapping[str, str] = field(default_factory=dict)
    #: the workshop of those entries that the server serves (the browser's editor): a
    #: ``module:attribute`` path to a :class:`Workshop`, or None for a game without one
    workshop: str | None = None
    #: the game's part of the cross-game conformance tests (``tests/test_contract.py``): a
    #: ``module:attribute`` path to a :class:`dragonlair.core.conformance.Conformance`
    conformance: str | None = None
    #: work a server does once at start-up, in a bot thread, so that no player's first bot
    #: decision waits for it (Farkle: the optimal bot's tables): a ``module:attribute`` path
    #: to a function of no arguments, or None
    warm_up: str | None = None


def bot_names(plugin: GamePlugin, common: Sequence[str]) -> list[str]:
    return sorted({*common, *plugin.bots()})


#: the registry of games, named by module path: core finds games through it at run time and
#: imports none itself
REGISTRY = "dragonlair.games"


def make_game(game_id: str, options: Mapping[str, Any] | None = None) -> Game:
    """A configured game by id, through the registry (:func:`dragonlair.games.make_game`), for
    core code (record replay) that must not import the games."""
    import importlib

    game: Game = importlib.import_module(REGISTRY).make_game(game_id, options)
    return game


def load_path(path: str) -> Any:
    """The object a ``module:attr`` path names (terminal entries, third-party bots)."""
    import importlib

    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def rules_in(package: str) -> Callable[[str], str]:
    """The Markdown rules of a game package, ``<package>/rules/<lang>.md`` (English where
    ``lang`` has none)."""

    def rules(lang: str) -> str:
        from importlib import resources

        folder = resources.files(package) / "rules"
        page = folder / f"{lang}.md"
        if not page.is_file():
            page = folder / "en.md"
        return page.read_text(encoding="utf-8")

    return rules
