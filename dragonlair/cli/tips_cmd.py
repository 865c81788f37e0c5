"""``dragonlair tips GAME [--lang de] [--regenerate] [--games N]``: a game's tips and strategy
page in the terminal (:mod:`dragonlair.tips`), or, with ``--regenerate``, its figures
measured anew (seeded, so the same command gives the same file). Registered on the app in
:mod:`dragonlair.cli.main`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from dragonlair.cli.options import games_help, tips_games


def tips(
    game: Annotated[str, typer.Argument(help=games_help("cmdhelp__game", tips_games))],
    lang: Annotated[str, typer.Option()] = "en",
    regenerate: Annotated[bool, typer.Option()] = False,
    games: Annotated[int | None, typer.Option()] = None,
    seed: Annotated[int, typer.Option()] = 0,
    out: Annotated[Path | None, typer.Option()] = None,
) -> None:
    """Tips and strategy for a game, from what the bots and the optimal policies measured."""
    from dragonlair.cli.main import check_game, check_lang, console, fail_with
    from dragonlair.core.i18n import render
    from dragonlair.tips import games_with_tips, tips_page
    from dragonlair.tips import regenerate as measure
    from dragonlair.tips.figures import save, tips_module

    check_lang(lang)
    check_game(game, lang)
    if game not in games_with_tips():
        fail_with("tips.none", lang, game=game, known=list(games_with_tips()))
    if regenerate:
        # a game whose figures are exact (no games to play) takes any --games
        if games is not None and games < 1 and tips_module(game).DEFAULT_GAMES:
            fail_with("tips.games_min", lang, games=games)
        doc = measure(game, games, seed)
        path = save(doc, out)
        console.print(escape(render("tips.written", {"path": str(path)}, lang)))
        page = tips_page(game, lang, doc)
    else:
        page = tips_page(game, lang)
    console.print(Panel("\n\n".join(escape(p) for p in page.paragraphs),
                        title=escape(page.title), border_style="cyan"), highlight=False)
    for shown in page.tables:
        table = Table(title=escape(shown.caption), highlight=False)
        for i, head in enumerate(shown.columns):
            table.add_column(escape(head), justify="left" if i == 0 else "right")
        for row in shown.rows:
            table.add_row(*(escape(cell) for cell in row))
        console.print(table)
    console.print(escape(page.source), highlight=False)
