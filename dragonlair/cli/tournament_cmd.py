"""``dragonlair tournament``: bots play each other in rotating seats and get rated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from dragonlair.cli.options import GAME_HELP


def tournament(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    bots: Annotated[str, typer.Option()],
    games: Annotated[int, typer.Option()] = 100,
    players: Annotated[int | None, typer.Option()] = None,
    workers: Annotated[int, typer.Option()] = 1,
    ray: Annotated[str | None, typer.Option("--ray", metavar="ADDRESS")] = None,
    seed: Annotated[int, typer.Option()] = 0,
    max_turns: Annotated[int | None, typer.Option()] = None,
    custom: Annotated[list[str] | None, typer.Option()] = None,
    decks: Annotated[Path | None, typer.Option()] = None,
    save_dir: Annotated[Path | None, typer.Option()] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    option: Annotated[list[str] | None, typer.Option()] = None,
) -> None:
    """Rate bots against each other: rotating seats, win rates with 95% intervals and
    openskill (Plackett-Luce) ratings; on worker processes or a Ray cluster."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from dragonlair.cli.main import (
        check_game,
        console,
        err,
        fail,
        fail_with,
        interrupted,
        not_for,
        option_from_files,
        table_options,
    )
    from dragonlair.core.errors import DragonlairError
    from dragonlair.tournament import run_tournament

    check_game(game)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    wrong = not_for(game, {"--max-turns": max_turns is not None, "--custom": bool(custom),
                           "--decks": decks is not None})
    if wrong is not None:
        fail_with("cli.err_option_only", option=wrong[0], owner=wrong[1])
    try:
        options: dict[str, Any] = table_options(game, option)
        if max_turns is not None:
            options["max_turns"] = max_turns
        if custom:
            options["custom"] = option_from_files(game, "--custom", custom)
        if decks is not None:
            options["decks"] = option_from_files(game, "--decks", [str(decks)])
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                      transient=True, disable=not err.is_terminal) as progress:
            task = progress.add_task(f"{game} tournament", total=games)
            done = [0]

            def finished(_i: int) -> None:
                done[0] += 1
                progress.advance(task)

            try:
                result = run_tournament(game, names, games, players=players, seed=seed,
                                        options=options, workers=workers, ray_address=ray,
                                        save_dir=save_dir, on_game=finished)
            except KeyboardInterrupt:
                progress.stop()
                interrupted(done[0], games, save_dir)
                raise  # not reached: interrupted exits
    except DragonlairError as exc:
        fail(exc.message())
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return
    from rich import box
    from rich.table import Table

    table = Table(title=f"{game}: {result.games} games, {result.players} seats, seed {seed}",
                  box=box.SIMPLE_HEAD, collapse_padding=True,
                  caption="best rated first; ordinal = μ - 3σ; a shared win counts 1/k")
    for col in ("participant", "games", "wins", "win rate", "95% CI", "place", "μ ± σ",
                "ordinal"):
        table.add_column(col, justify="left" if col == "participant" else "right",
                         no_wrap=True)
    for p in result.ranking():
        ci = p.win_rate_ci95
        table.add_row(
            p.name, str(p.games),
            f"{round(p.wins, 2):g}",
            "–" if p.win_rate is None else f"{p.win_rate:.1%}",
            "–" if ci is None else f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%",
            "–" if p.mean_placing is None else f"{p.mean_placing:.2f}",
            f"{p.mu:.1f} ± {p.sigma:.1f}", f"{p.ordinal:.1f}")
    console.print(table)
    seats = ", ".join(f"seat {s + 1} {w / result.games:.1%}"  # seats counted from 1
                      for s, w in enumerate(result.seat_wins))
    console.print(f"seat win rates: {seats}", highlight=False)
    if result.draws:
        console.print(f"drawn games: {result.draws}")
    speed = f"{result.games / result.seconds:.1f} games/s" if result.seconds else ""
    where = result.backend["kind"] + (f", {result.backend['workers']} workers"
                                      if result.backend["workers"] > 1 else "")
    console.print(f"mean turns {result.mean_turns:.2f}; {speed} ({result.seconds:.2f} s, "
                  f"{where})", highlight=False)
