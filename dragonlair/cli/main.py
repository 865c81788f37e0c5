"""The ``dragonlair`` command line (typer + rich)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from dragonlair.cli.admin_cmd import admin_app
from dragonlair.cli.analyse_cmd import analyse
from dragonlair.cli.balance_cmd import balance
from dragonlair.cli.db_cmd import db_app
from dragonlair.cli.help_lang import LocalisedGroup, error_words, help_lang
from dragonlair.cli.i18n import printable
from dragonlair.cli.i18n_cmd import i18n_app
from dragonlair.cli.learn_cmd import learn
from dragonlair.cli.options import GAME_HELP
from dragonlair.cli.push_cmd import push_app
from dragonlair.cli.puzzles_cmd import puzzles_app
from dragonlair.cli.tips_cmd import tips
from dragonlair.cli.tournament_cmd import tournament
from dragonlair.core.errors import DragonlairError, OptionError, RecordError
from dragonlair.core.i18n import languages, render, seat_name
from dragonlair.core.plugin import load_path
from dragonlair.games import game_ids, plugin

#: the app; its help, and typer's and click's words, in the reader's language (help_lang)
app = typer.Typer(cls=LocalisedGroup, no_args_is_help=True,
                  context_settings={"help_option_names": ["-h", "--help"]})
console = Console()
err = Console(stderr=True, soft_wrap=True)


def version_text() -> str:
    """``dragonlair VERSION``: the installed distribution's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"dragonlair {version('dragonlair')}"
    except PackageNotFoundError:  # pragma: no cover - run from a tree without metadata
        return "dragonlair (version unknown)"


def _show_version(value: bool) -> None:
    if value:
        console.print(version_text(), highlight=False)
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", "-V", callback=_show_version, is_eager=True)] = False,
) -> None:
    """Play, replay, simulate and benchmark the Dragonlair games."""


def fail(message: str, code: int = 2, lang: str = "en") -> None:
    """Print ``error: message`` (the word in ``lang``) and exit with ``code``."""
    err.print(f"[bold red]{escape(render('cli.error', None, lang))}[/] {escape(message)}",
              highlight=False)
    raise typer.Exit(code)


def fail_with(code: str, lang: str = "en", **params: Any) -> None:
    """:func:`fail` with the catalogue message of ``code`` in ``lang``."""
    fail(render(code, params, lang), lang=lang)


#: the exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it)
INTERRUPTED = 130


def interrupted(done: int, total: int, save_dir: Path | None, lang: str = "en") -> None:
    """After Ctrl-C in a run of many games: what was kept (the games finished, and where
    their records are), in one line; exit 130."""
    key = "cli.interrupted_saved" if save_dir is not None and done else "cli.interrupted"
    err.print(escape(render(key, {"n": done, "total": total, "dir": str(save_dir)}, lang)),
              highlight=False)
    raise typer.Exit(INTERRUPTED)


def check_lang(lang: str) -> str:
    """``lang`` if it has catalogues; else fail (in English: the language is unknown)."""
    if lang not in languages():
        fail_with("cli.err_lang", langs=list(languages()), given=lang)
    return lang


def check_game(game: str, lang: str = "en") -> str:
    if game not in game_ids():
        fail_with("cli.err_unknown_game", lang, game=game, known=game_ids())
    return game


#: the terminal's wording of a bad value of a flag: (message key, its param)
FLAG_MESSAGES = {"--four-of-a-kind": ("err_four", "value"), "--dragon": ("err_dragon", "n")}


def option_name(flag: str) -> str:
    """The table option a command-line flag sets: ``--max-turns`` -> ``max_turns``."""
    return flag.removeprefix("--").replace("-", "_")


def declares(game: str, flag: str) -> bool:
    """Whether ``game``'s plugin declares the option that ``flag`` sets."""
    return any(spec.name == option_name(flag) for spec in plugin(game).info.options)


def option_owners(flag: str) -> str:
    """The games that declare the option of ``flag`` (``fist``, ``farkle, fist``)."""
    return ", ".join(g for g in game_ids() if declares(g, flag))


def not_for(game: str, given: dict[str, bool]) -> tuple[str, str] | None:
    """The first given flag whose option ``game`` does not declare, and its owners."""
    for flag, on in given.items():
        if on and not declares(game, flag):
            return flag, option_owners(flag)
    return None


def option_from_files(game: str, flag: str, refs: list[str]) -> Any:
    """The data of an option read from files (``--custom``, ``--decks``): the plugin's
    reader (``option_files``) per reference; several references of a list option join."""
    reader = load_path(plugin(game).option_files[option_name(flag)])
    values = [reader(ref) for ref in refs]
    if all(isinstance(v, list) for v in values):
        return [x for v in values for x in v]
    return values[-1]


def table_options(game: str, given: list[str] | None, lang: str = "en") -> dict[str, Any]:
    """The table options of ``--option NAME=VALUE`` (repeatable): any option the game's plugin
    declares (its option specs), the value read as JSON where it is JSON (``30``, ``true``,
    ``[1, 2]``), else as text. An unknown name or a malformed pair fails with a clear line; the
    value itself is checked by the game (its spec) when the table is made."""
    specs = {spec.name: spec for spec in plugin(game).info.options}
    out: dict[str, Any] = {}
    for pair in given or []:
        name, sep, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            fail_with("cli.err_option_pair", lang, given=pair)
        if name not in specs:
            fail_with("cli.err_option_name", lang, name=name, game=game,
                      known=sorted(specs) or ["-"])
        try:
            out[name] = json.loads(text)
        except ValueError:
            out[name] = text.strip()
    return out


def from_workshop(game: str, custom: list[str], server: str | None, options: dict[str, Any],
                  lang: str) -> list[str]:
    """``--custom workshop:ID[@N]``: the entries fetched from ``--server`` into ``options``;
    the other ``--custom`` references (files) returned. A bad reference or server: one line,
    exit 2."""
    from dragonlair.server.workshop.fetch import FetchError, fetch_options, is_ref

    if server is None:
        fail_with("cli.workshop.needs_server", lang)
        raise AssertionError  # not reached
    try:
        options.update(fetch_options(game, server, [c for c in custom if is_ref(c)]))
    except FetchError as exc:
        fail(render(exc.code, exc.params, lang), lang=lang)
    return [c for c in custom if not is_ref(c)]


@app.command()
def play(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    players: Annotated[int | None, typer.Option()] = None,
    seat: Annotated[list[str] | None, typer.Option()] = None,
    seed: Annotated[int | None, typer.Option()] = None,
    lang: Annotated[str, typer.Option()] = "en",
    custom: Annotated[list[str] | None, typer.Option()] = None,
    max_turns: Annotated[int | None, typer.Option()] = None,
    specials: Annotated[str | None, typer.Option()] = None,
    match: Annotated[bool, typer.Option("--match")] = False,
    four_of_a_kind: Annotated[str | None, typer.Option()] = None,
    dragon: Annotated[int | None, typer.Option()] = None,
    decks: Annotated[Path | None, typer.Option()] = None,
    save: Annotated[Path | None, typer.Option()] = None,
    server: Annotated[str | None, typer.Option()] = None,
    table: Annotated[str | None, typer.Option()] = None,
    name: Annotated[str | None, typer.Option()] = None,
    option: Annotated[list[str] | None, typer.Option()] = None,
) -> None:
    """Play a game in the terminal, against bots or hot-seat, or online (--server)."""
    from dragonlair.cli.i18n import tr
    from dragonlair.cli.play import run_play

    check_game(game, check_lang(lang))
    given = {"--custom": bool(custom), "--max-turns": max_turns is not None,
             "--specials": specials is not None, "--match": match,
             "--four-of-a-kind": four_of_a_kind is not None,
             "--dragon": dragon is not None, "--decks": decks is not None}
    wrong = not_for(game, given)
    if wrong is not None:
        fail(tr(lang, "err_not_for", option=wrong[0], owner=wrong[1], game=game), lang=lang)
    fetched: dict[str, Any] = {}
    if custom and any(c.startswith("workshop:") for c in custom):
        # entries of a server's workshop, played here (docs/workshop.md)
        custom, server = from_workshop(game, custom, server, fetched, lang), None
    specs = {spec.name: spec for spec in plugin(game).info.options}
    for flag, value in (("--four-of-a-kind", four_of_a_kind), ("--dragon", dragon)):
        if value is not None and specs[option_name(flag)].problem(value) is not None:
            key, param = FLAG_MESSAGES[flag]  # checked by the spec, worded for the flag
            fail(tr(lang, key, **{param: value}), lang=lang)
    if server is not None and seed is not None:  # the server draws chance, in secret
        fail(tr(lang, "err_seed_online"), lang=lang)
    if server is None and table is not None:
        fail(tr(lang, "err_needs_server", option="--table"), lang=lang)
    if save is not None:  # before the game, not after it
        from dragonlair.simulate import output_file_problem

        problem = output_file_problem(save)
        if problem is not None:
            fail(tr(lang, "err_save_path", path=save, why=problem), lang=lang)
    try:
        options: dict[str, Any] = table_options(game, option, lang)
        if max_turns is not None:
            options["max_turns"] = max_turns
        options.update(fetched)
        if custom:
            options["custom"] = [*options.get("custom", []),
                                 *option_from_files(game, "--custom", custom)]
        if specials is not None:
            options["specials"] = specials
        if match:
            options["match"] = True
        if four_of_a_kind is not None:
            options["four_of_a_kind"] = four_of_a_kind
        if dragon is not None:
            options["dragon"] = dragon
        if decks is not None:
            options["decks"] = option_from_files(game, "--decks", [str(decks)])
        if server is not None:  # the server holds the game; the terminal draws its views
            try:
                from dragonlair.cli.online import ServerFailure, play_online, server_url_problem
            except ImportError as exc:  # httpx or websockets: the 'server' extra
                fail_with("cli.err_server_extra", lang, why=str(exc))
                raise  # not reached
            if server_url_problem(server):
                fail(tr(lang, "err_server_url", url=server), lang=lang)
            try:
                code = play_online(game, server=server, table=table, name=name,
                                   players=players, seats=list(seat or []), lang=lang,
                                   options=options, save=save, console=console)
            except ServerFailure as exc:
                fail(str(exc), exc.code, lang)
        else:
            code = run_play(game, players=players, seats=list(seat or []), seed=seed,
                            lang=lang, options=options, save=save, console=console,
                            name=name)
    except DragonlairError as exc:
        fail(exc.message(lang), lang=lang)
    raise typer.Exit(code)


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    lang: Annotated[str, typer.Option()] = "en",
) -> None:
    """The rules in brief, with every card (and the game's own tables, such as its scoring
    table)."""
    check_game(game, check_lang(lang))
    entry = plugin(game).terminal_rules
    if entry is not None:
        load_path(entry)(console, lang)
        return
    rules_text = plugin(game).rules
    if rules_text is None:
        fail_with("cli.err_no_rules", lang, game=game)
        return
    from rich.markdown import Markdown

    console.print(Markdown(rules_text(lang)))


@app.command()
def replay(
    record: Annotated[Path, typer.Argument()],
    as_json: Annotated[bool, typer.Option("--json")] = False,
    lang: Annotated[str, typer.Option()] = "en",
) -> None:
    """Check a record action by action and print its result."""
    from dragonlair.core.records import Record
    from dragonlair.core.records import replay as do_replay

    check_lang(lang)
    try:
        rec = Record.load(record)
        _, state = do_replay(rec)
    except RecordError as exc:
        if as_json:
            print(json.dumps({"ok": False, "error": exc.message(lang), "index": exc.index,
                              **exc.to_json()}, default=str))
        else:
            err.print(f"[bold red]{escape(render('cli.replay_bad', None, lang))}[/] "
                      f"{escape(printable(exc.message(lang)))}", highlight=False)
        raise typer.Exit(1) from None
    outcome = state.outcome()
    if as_json:
        print(json_text({"ok": True, "actions": len(rec.actions),
                         "result": outcome.to_json() if outcome else None,
                         "state": state.full_state()}))
        return
    console.print(escape(render("cli.replay_ok", {"game": printable(rec.game),
                                                  "n": len(rec.actions)}, lang)),
                  highlight=False)
    if outcome is None:
        console.print(escape(render("cli.replay_not_over", None, lang)))
        return
    # seat names come from the file: never markup, never unprintable; a seat without one by
    # its number from 1 ("Player 2"); a name several seats share numbered ("greedy #1")
    from dragonlair.cli.session import unique_names

    names = unique_names([
        printable(seat["name"]) if isinstance(seat, dict) and seat.get("name") is not None
        else seat_name(i, None, lang) for i, seat in enumerate(rec.seats)])

    def name_of(s: int) -> str:
        return escape(names[s] if s < len(names) else seat_name(s, None, lang))

    who = ", ".join(name_of(w) for w in outcome.winners) or escape(
        render("cli.replay_nobody", None, lang))
    detail = result_detail(rec.game, state.full_state(), names, lang)
    tail = detail if detail is not None else escape(render("cli.replay_scores", {
        "scores": ", ".join(f"{name_of(i)}: {score:g}" for i, score in enumerate(outcome.scores))},
        lang))
    console.print(render("cli.replay_result", {
        "who": who, "reason": escape(printable(outcome.message(lang, names))), "detail": tail},
        lang), highlight=False)


def json_text(data: Any) -> str:
    """One JSON line, non-ASCII text as is; with ASCII escapes where the text cannot be
    written as UTF-8 (an unpaired surrogate read from a record)."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data)
    return text


def result_detail(game: str, full: dict[str, Any], names: list[str],
                  lang: str = "en") -> str | None:
    """What decided a finished game when the scores alone do not tell it (markup), as the
    game's plugin words it (``terminal_result``; e.g. a Dragon Master round is decided by one
    pair of lines, M4)."""
    entry = plugin(game).terminal_result if game in game_ids() else None
    if entry is None:
        return None
    detail: str | None = load_path(entry)(full, names, lang)
    return detail


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    games: Annotated[int, typer.Option()] = 100,
    players: Annotated[int | None, typer.Option()] = None,
    bots: Annotated[str, typer.Option()] = "random",
    seed: Annotated[int, typer.Option()] = 0,
    max_turns: Annotated[int | None, typer.Option()] = None,
    decks: Annotated[Path | None, typer.Option()] = None,
    save_dir: Annotated[Path | None, typer.Option()] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    lang: Annotated[str, typer.Option()] = "en",
    option: Annotated[list[str] | None, typer.Option()] = None,
) -> None:
    """Play bot games and report wins per seat, mean turns, speed and how games ended."""
    from dragonlair.simulate import simulate as run

    check_game(game, check_lang(lang))
    options: dict[str, Any] = table_options(game, option, lang)
    if players is not None:
        options["players"] = players
    if max_turns is not None:
        options["max_turns"] = max_turns
    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        if decks is not None:
            if not declares(game, "--decks"):
                fail_with("cli.err_option_only", lang, option="--decks",
                          owner=option_owners("--decks"))
            options["decks"] = option_from_files(game, "--decks", [str(decks)])
        done = [0]
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                      disable=not err.is_terminal) as progress:
            task = progress.add_task(render("cli.sim_progress", {"game": game}, lang),
                                     total=games)

            def finished(_i: int) -> None:
                done[0] += 1
                progress.advance(task)

            try:
                result = run(game, games, names, seed=seed, options=options,
                             save_dir=save_dir, on_game=finished)
            except KeyboardInterrupt:
                progress.stop()
                interrupted(done[0], games, save_dir, lang)
    except DragonlairError as exc:
        fail(exc.message(lang), lang=lang)
    if as_json:
        print(json.dumps(result.to_json()))
        return
    table = Table(title=escape(render("cli.sim_title", {"games": result.games, "game": game,
                                                         "seed": seed}, lang)))
    for col in ("cli.sim_col_seat", "cli.sim_col_bot", "cli.sim_col_wins", "cli.sim_col_rate"):
        table.add_column(escape(render(col, None, lang)),
                         justify="left" if col == "cli.sim_col_bot" else "right")
    for s, (name, w) in enumerate(zip(result.bots, result.wins, strict=True)):
        table.add_row(str(s + 1), escape(name), str(w), f"{w / result.games:.1%}")  # from 1
    console.print(table)
    if result.draws:
        console.print(escape(render("cli.sim_draws", {"n": result.draws}, lang)))
    console.print(escape(render("cli.sim_speed", {
        "turns": f"{result.mean_turns:.2f}", "rate": f"{result.games / result.seconds:.1f}",
        "seconds": f"{result.seconds:.2f}"}, lang)), highlight=False)
    # how the games ended, most common first: each end reason rendered from its code
    ended: dict[str, int] = {}
    for (reason, params), n in result.endings.items():
        text = render(reason, json.loads(params), lang)
        ended[text] = ended.get(text, 0) + n
    for text, n in sorted(ended.items(), key=lambda kv: -kv[1])[:5]:
        console.print("  " + escape(render("cli.sim_reason", {"n": n, "reason": text}, lang)),
                      highlight=False)


@app.command()
def bench(
    game: Annotated[str | None, typer.Argument()] = None,
    seconds: Annotated[float, typer.Option()] = 3.0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    vs_openspiel: Annotated[bool, typer.Option("--vs-openspiel")] = False,
    simulate: Annotated[bool, typer.Option("--simulate")] = False,
    adapters: Annotated[bool, typer.Option("--adapters")] = False,
    rounds: Annotated[int, typer.Option(min=5)] = 15,
    server: Annotated[bool, typer.Option("--server")] = False,
    tables: Annotated[int, typer.Option(min=1, max=5000)] = 250,
    rate: Annotated[list[float] | None, typer.Option()] = None,
    ramp: Annotated[bool, typer.Option()] = True,
    processes: Annotated[int, typer.Option(min=1, max=16)] = 1,
    db: Annotated[str | None, typer.Option("--db")] = None,
    redis: Annotated[str | None, typer.Option("--redis")] = None,
    bot_tables: Annotated[int, typer.Option("--bot-tables", min=0, max=500)] = 0,
    fresh_people: Annotated[bool, typer.Option("--fresh-people")] = False,
    traffic: Annotated[bool, typer.Option("--traffic")] = False,
) -> None:
    """Random-playout throughput (games/s and actions/s) through the public API; with
    --server, the game server under WebSocket load; with --traffic, the bytes of a game's
    updates; with --simulate or --adapters, the loop of dragonlair simulate or the research
    adapters' against the bare engine."""
    from dragonlair.bench import bench_game

    modes = [name for name, on in (("--vs-openspiel", vs_openspiel), ("--simulate", simulate),
                                   ("--adapters", adapters), ("--server", server),
                                   ("--traffic", traffic)) if on]
    if len(modes) > 1:
        fail_with("core.bench.one_mode", modes=modes)
    server_only = [name for name, given in (
        ("--tables", tables != 250), ("--rate", bool(rate)), ("--no-ramp", not ramp),
        ("--processes", processes != 1), ("--db", db is not None),
        ("--redis", redis is not None), ("--bot-tables", bot_tables != 0),
        ("--fresh-people", fresh_people)) if given]
    if server_only and not server:
        fail_with("core.bench.server_only", options=server_only)
    if traffic:
        from dragonlair.server.traffic import main as traffic_main

        raise typer.Exit(traffic_main(["--json"] if as_json else []))
    if seconds <= 0:
        fail_with("cli.err_seconds")
    if server:
        if processes > 1 and not (db and redis):
            fail_with("cli.err_bench_processes")
        server_args = [*(["--db", db] if db else []), *(["--redis", redis] if redis else [])]
        bench_server(tables, rate, seconds if seconds != 3.0 else 15.0, ramp, as_json,
                     processes, server_args, bot_tables, fresh_people)
        return
    ids = [check_game(game)] if game else game_ids()
    if vs_openspiel:
        bench_versus(ids if game else [], seconds, as_json, rounds)
        return
    if simulate or adapters:
        bench_loops("simulate" if simulate else "adapters", ids, seconds, as_json, rounds)
        return
    results = [bench_game(g, seconds) for g in ids]
    if as_json:
        print(json.dumps([r.to_json() for r in results]))
        return
    table = Table(title="random playouts, one core, public API with legal actions")
    for col in ("game", "table", "games/s", "actions/s", "new table ms"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(r.game, ", ".join(f"{k}={v}" for k, v in r.options.items()),
                      f"{r.games_per_s:,.1f}", f"{r.actions_per_s:,.0f}",
                      f"{r.new_game_ms:.2f}")
    console.print(table)


def bench_server(tables: int, rates: list[float] | None, seconds: float, ramp: bool,
                 as_json: bool, processes: int = 1, server_args: list[str] | None = None,
                 bot_tables: int = 0, fresh_people: bool = False) -> None:
    """``bench --server``: :mod:`dragonlair.server.loadgen` (bench/server_load.py)."""
    try:
        from dragonlair.server import loadgen
    except ImportError as exc:  # pragma: no cover - the server extra is missing
        fail(f"the server needs the 'server' extra (pip install 'dragonlair[server]'): {exc}")
        return
    check_gc()  # the servers' and the generator's
    out = loadgen.run(tables=tables, rates=rates, seconds=seconds, ramp=ramp,
                      report=None if as_json else loadgen.print_report,
                      processes=processes, server_args=server_args, bot_tables=bot_tables,
                      fresh_people=fresh_people)
    if as_json:
        print(json.dumps(out))


def bench_versus(ids: list[str], seconds: float, as_json: bool, rounds: int = 15) -> None:
    """``bench --vs-openspiel``: our games and OpenSpiel's, the same loop, alternating
    rounds of CPU time, the ratios."""
    from dragonlair.bench import OpenSpielMissing, bench_vs_openspiel, load_openspiel, versus_table

    try:
        load_openspiel()
    except OpenSpielMissing as exc:
        fail(str(exc))
    result = measuring(lambda step: bench_vs_openspiel(seconds, games=ids, on_step=step,
                                                       rounds=rounds))
    if as_json:
        print(json.dumps(result.to_json()))
        return
    console.print(versus_table(result))


T = TypeVar("T")


def measuring(work: Callable[[Callable[[str], None]], T]) -> T:
    """``work(step)`` under a "measuring ..." line on stderr that ``step(what)`` redraws: at
    each round only, with no refresh thread spending this process's CPU time."""
    from rich.live import Live
    from rich.text import Text

    with Live(Text("measuring"), console=err, auto_refresh=False, transient=True) as live:
        def step(what: str) -> None:
            live.update(Text(f"measuring {what}"), refresh=True)

        return work(step)


def bench_loops(mode: str, ids: list[str], seconds: float, as_json: bool, rounds: int) -> None:
    """``bench --simulate`` (``mode`` "simulate") or ``bench --adapters`` ("adapters"): each
    loop against the bare engine, alternating rounds of CPU time, the ratios."""
    from dragonlair.bench import bench_adapters, bench_simulate, loops_table

    run = bench_simulate if mode == "simulate" else bench_adapters
    result = measuring(lambda step: run(seconds, games=ids, on_step=step, rounds=rounds))
    if as_json:
        print(json.dumps(result.to_json()))
        return
    console.print(loops_table(result))


def check_gc() -> None:
    """A bad ``DRAGONLAIR_GC`` (dragonlair/server/app.py, ``gc_thresholds``): one line and
    exit 2, before anything starts."""
    from dragonlair.server.app import gc_thresholds

    try:
        gc_thresholds()
    except DragonlairError as exc:
        fail_with(exc.code, **exc.params)


def serve_preflight(db: str | None, data: Path | None, redis: str | None) -> None:
    """Fail with one line, before anything starts, when the database given by ``--db`` or the
    Redis of ``--redis`` cannot be reached or its URL cannot be read (the server's start
    would end in a traceback instead)."""
    if db is None and data is not None:  # the default SQLite file's folder: made here
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail_with("cli.err_data_dir", path=str(data), why=exc.strerror or type(exc).__name__)
    if db is not None:
        from dragonlair.cli.db_cmd import _engine, _fail

        engine, shown = _engine(db, data)  # a URL that is none, a missing driver: one line
        try:
            with engine.connect():
                pass
        except Exception as exc:  # unreachable, refused, no such database
            _fail("en", shown, exc)
        finally:
            engine.dispose()
    if redis is not None:
        from urllib.parse import urlsplit

        try:
            from redis import Redis
        except ImportError as exc:
            fail_with("cli.err_server_extra", why=str(exc))
            return
        parts = urlsplit(redis)
        shown = redis if parts.password is None else redis.replace(parts.password, "***", 1)
        try:
            client = Redis.from_url(redis, socket_connect_timeout=2, socket_timeout=2)
            try:
                client.ping()
            finally:
                client.close()
        except Exception as exc:  # unreachable, refused, a bad port, a wrong password
            lines = str(exc).strip().splitlines()
            fail_with("cli.err_redis_down", url=shown,
                      why=lines[0] if lines else type(exc).__name__)


@app.command()
def serve(
    host: Annotated[str, typer.Option()] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535)] = 8000,
    db: Annotated[str | None, typer.Option("--db", envvar="DRAGONLAIR_DB")] = None,
    data: Annotated[Path | None, typer.Option()] = None,
    origin: Annotated[list[str] | None, typer.Option()] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", envvar="FORWARDED_ALLOW_IPS")] = None,
    redis: Annotated[str | None, typer.Option("--redis", envvar="DRAGONLAIR_REDIS")] = None,
    claim_ttl: Annotated[float, typer.Option(min=0.5, max=600)] = 10.0,
    vapid_key: Annotated[Path | None, typer.Option(
        "--vapid-key", envvar="DRAGONLAIR_VAPID_KEY")] = None,
    vapid_subject: Annotated[str | None, typer.Option(
        "--vapid-subject", envvar="DRAGONLAIR_VAPID_SUBJECT")] = None,
    away_min: Annotated[float, typer.Option(
        "--away-min", envvar="DRAGONLAIR_AWAY_SECONDS_MIN", min=1, max=3600)] = 30.0,
    bot_processes: Annotated[int | None, typer.Option(
        "--bot-processes", envvar="DRAGONLAIR_BOT_PROCESSES", min=0, max=64)] = None,
) -> None:
    """Run the game server (needs the package's optional server dependencies, the extra
    named server)."""
    try:
        from dragonlair.server.app import serve as run_server
        from dragonlair.server.settings import Settings
    except ImportError as exc:
        fail_with("cli.err_server_extra", why=str(exc))
        return
    extra: dict[str, Any] = {"database_url": db, "allowed_origins": tuple(origin or ()),
                             "away_min_s": away_min}
    if data is not None:
        extra["data_dir"] = data
    if bot_processes is not None:
        extra["bot_processes"] = bot_processes
    if forwarded_allow_ips is not None:
        from dragonlair.server.security import parse_ips

        extra["forwarded_allow_ips"] = parse_ips(forwarded_allow_ips)
    if redis is not None:
        if not redis.startswith(("redis://", "rediss://", "unix://")):
            fail_with("cli.err_redis_url", url=redis)
        if not (db or "").startswith(("postgresql", "postgres://")):
            fail_with("cli.err_redis_needs_pg")
        extra.update(redis_url=redis, claim_ttl_s=claim_ttl, claim_renew_s=claim_ttl / 3)
    check_gc()
    serve_preflight(db, data, redis)
    if vapid_key is not None:  # a bad key or subject: one line, before anything starts
        from dragonlair.server.errors import ServerError
        from dragonlair.server.push import check_subject, load_key

        try:
            load_key(vapid_key)
            if vapid_subject is not None:
                check_subject(vapid_subject)
        except ServerError as exc:
            fail_with(exc.code, **exc.params)
        extra.update(vapid_key=vapid_key, vapid_subject=vapid_subject)
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host

    def ready(bound: int) -> None:  # the port listened on: the system's choice for --port 0
        address = f"http://[{shown}]:{bound}/" if ":" in shown else f"http://{shown}:{bound}/"
        console.print(render("cli.serve_ready", {"address": address}, "en"), highlight=False,
                      soft_wrap=True)

    run_server(Settings(**extra), host, port, on_ready=ready)


app.command()(tournament)
app.command()(balance)
app.command()(analyse)
app.command()(learn)
app.command()(tips)
app.add_typer(i18n_app, name="i18n")
app.add_typer(db_app, name="db")
app.add_typer(push_app, name="push")
app.add_typer(puzzles_app, name="puzzles")
app.add_typer(admin_app, name="admin")


def unwrap(text: str) -> str:
    """A docstring as help text: each paragraph one line (the terminal wraps it to its
    width; a line break kept from the source would break a sentence in the middle)."""
    import inspect

    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def tidy_help(typer_app: typer.Typer) -> None:
    """Every command's help of ``typer_app`` (and of its groups) unwrapped."""
    for info in typer_app.registered_commands:
        text = info.help or (info.callback.__doc__ if info.callback else None)
        if text:
            info.help = unwrap(text)
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            tidy_help(group.typer_instance)


tidy_help(app)


def main() -> None:
    """Entry point: user errors print a message, never a traceback: ``error:`` and exit 2
    for a usage error (click's too: a missing or malformed option), 130 for Ctrl-C."""
    # typer's own copy of click's exceptions: a usage error is a typer.BadParameter's base
    usage_error: type[Exception] = typer.BadParameter.__mro__[1]
    click_exception: type[Exception] = typer.BadParameter.__mro__[2]
    lang = help_lang(sys.argv[1:])  # the language of the help: --lang, else the environment's
    try:
        code = app(standalone_mode=False)
    except OptionError as exc:
        err.print(f"[bold red]{escape(render('cli.error', None, lang))}[/] "
                  f"{escape(exc.message(lang))}", highlight=False)
        sys.exit(2)
    except click_exception as exc:  # worded in the language of the help (help_lang)
        message = error_words(str(getattr(exc, "format_message", exc.__str__)()), lang)
        err.print(f"[bold red]{escape(render('cli.error', None, lang))}[/] "
                  f"{escape(message)}", highlight=False)
        ctx = getattr(exc, "ctx", None)
        if isinstance(exc, usage_error) and ctx is not None:
            err.print(escape(render("cli.try_help", {"path": ctx.command_path},
                                    lang)), highlight=False)
        sys.exit(int(getattr(exc, "exit_code", 1)))
    except (typer.Abort, KeyboardInterrupt):
        err.print()
        sys.exit(INTERRUPTED)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
