"""``dragonlair balance GAME``: how often the player who gets each card goes on to win, for
the games whose plugin has a balance observer (docs/balance.md). Registered on the app in
:mod:`dragonlair.cli.main`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from dragonlair.cli.options import balance_games, games_help
from dragonlair.core.errors import DragonlairError


def balance(
    game: Annotated[str, typer.Argument(help=games_help("cmdhelp__game", balance_games))],
    games: Annotated[int, typer.Option()] = 500,
    bots: Annotated[str | None, typer.Option()] = None,
    players: Annotated[int | None, typer.Option()] = None,
    seed: Annotated[int, typer.Option()] = 0,
    custom: Annotated[list[str] | None, typer.Option()] = None,
    decks: Annotated[Path | None, typer.Option()] = None,
    plot: Annotated[Path | None, typer.Option()] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Balance report: of the players who got each card (a character, a companion, an
    item) in a game, the fraction who won it, with a 95% interval and the lift over the base
    rate."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from dragonlair.balance import balance_games, balance_report, check_plot_path
    from dragonlair.cli.main import console, err, fail, fail_with, not_for, option_from_files
    from dragonlair.games import game_ids, plugin

    known = list(balance_games())
    if game not in game_ids():
        fail_with("core.balance.unknown_game", game=game, known=known)
    if plugin(game).balance is None:
        fail_with("core.balance.no_cards", name=plugin(game).info.name, known=known)
    if games < 1:
        fail_with("core.run.games_min")
    wrong = not_for(game, {"--custom": bool(custom), "--decks": decks is not None})
    if wrong is not None:
        fail_with("cli.err_option_only", option=wrong[0], owner=wrong[1])
    names = [b.strip() for b in bots.split(",") if b.strip()] if bots is not None else None
    if bots is not None and not names:
        fail_with("core.run.no_bots")
    try:
        if plot is not None:
            check_plot_path(plot)  # before the games, not after them
        options: dict[str, Any] = {}
        if players is not None:
            options["players"] = players
        if custom:
            options["custom"] = option_from_files(game, "--custom", custom)
        if decks is not None:
            options["decks"] = option_from_files(game, "--decks", [str(decks)])
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True,
                      disable=not err.is_terminal) as progress:
            task = progress.add_task(f"{game} games", total=games)
            report = balance_report(game, games, names, seed=seed, options=options,
                                    on_game=lambda i: progress.advance(task))
        written = report.plot(plot) if plot is not None else None
    except DragonlairError as exc:
        fail(exc.message())
        return
    if as_json:
        data = report.to_json()
        if written is not None:
            data["plot"] = str(written)
        print(json.dumps(data, ensure_ascii=False))
        return
    console.print(report.table())
    console.print(f"{report.games} games in {report.seconds:.1f} s; mean turns "
                  f"{report.turns / report.games:.2f}. Bots' play style shapes these numbers: "
                  "see docs/balance.md.", highlight=False)
    if written is not None:
        console.print(f"plot written to {written}", highlight=False)
