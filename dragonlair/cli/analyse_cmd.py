"""``dragonlair analyse RECORD --seat N``: the strongest bot's judgement of every decision of
one seat in a record (``N`` counted from 1, as the terminal counts seats everywhere), the
biggest mistakes first, and the win chance over the game (:mod:`dragonlair.analysis`,
docs/analysis.md). Registered on the app in :mod:`dragonlair.cli.main`. Actions are shown in
the record's notation (``keep 15``, ``bid f3 c1``, ``place ruby d4``), the same in every
language, as records write them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from dragonlair.analysis.review import Analysis, Decision
from dragonlair.core.i18n import render

#: the catalogue codes of the units and of the table's columns
UNIT_CODES = {"soldiers": "cli.analyse_unit_soldiers", "win_chance": "cli.analyse_unit_win_chance"}
COLUMN_CODES = ("cli.analyse_col_step", "cli.analyse_col_turn", "cli.analyse_col_played",
                "cli.analyse_col_best", "cli.analyse_col_loss", "cli.analyse_col_unit",
                "cli.analyse_col_exact")
CHART_WIDTH = 60
CHART_HEIGHT = 8


def analyse(
    record: Annotated[Path, typer.Argument()],
    seat: Annotated[int, typer.Option()],
    as_json: Annotated[bool, typer.Option("--json")] = False,
    lang: Annotated[str, typer.Option()] = "en",
    top: Annotated[int, typer.Option()] = 10,
    budget: Annotated[float, typer.Option()] = 900.0,
    effort: Annotated[float, typer.Option()] = 1.0,
    seed: Annotated[int, typer.Option()] = 0,
) -> None:
    """Analyse one seat's decisions in a finished (or unfinished) game: what the strongest
    bot would have played, and what each move cost."""
    from dragonlair.analysis.review import AnalysisError, analyse_record
    from dragonlair.cli.main import check_lang, fail_with, json_text
    from dragonlair.core.errors import RecordError
    from dragonlair.core.records import Record

    check_lang(lang)
    if top < 0:
        fail_with("cli.analyse_bad_number", lang, option="--top", given=top)
    if not budget > 0:
        fail_with("cli.analyse_bad_number", lang, option="--budget", given=budget)
    if not 0 < effort <= 100:
        fail_with("cli.analyse_bad_number", lang, option="--effort", given=effort)
    try:
        rec = Record.load(record)
        with _progress_bar(lang, enabled=not as_json) as progress:
            result = analyse_record(rec, seat - 1, budget=budget, seed=seed, effort=effort,
                                    progress=progress)
    except RecordError as exc:
        fail_with("cli.analyse_bad_record", lang, why=exc.message(lang))
        return
    except AnalysisError as exc:  # its seat is the engine's (from 0): shown as typed
        params = {**exc.params, "seat": seat} if "seat" in exc.params else dict(exc.params)
        code = "cli.analyse_bad_seat" if exc.code == "cli.analyse_no_seat" else exc.code
        fail_with(code, lang, **params)
        return
    if as_json:
        print(json_text(result.to_json(top)))
        return
    show(result, lang, top)


@contextmanager
def _progress_bar(lang: str, enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on the terminal's standard error while the decisions are worked out
    (gone when done); nothing when it is not a terminal or the output is JSON."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from dragonlair.cli.main import err

    if not (enabled and err.is_terminal):
        yield None
        return
    with Progress(TextColumn(escape(render("cli.analyse_working", None, lang))), BarColumn(),
                  MofNCompleteColumn(), console=err, transient=True) as bar:
        task = bar.add_task("analyse", total=None)

        def tell(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield tell


def _figure(value: float | None, unit: str, lang: str) -> str:
    if value is None:
        return "–"
    if unit == "soldiers":
        return render("cli.analyse_soldiers", {"n": round(value)}, lang)
    mark = render("cli.analyse_decimal_mark", None, lang)
    return render("cli.analyse_percent", {"p": f"{100 * value:.1f}".replace(".", mark)}, lang)


def show(result: Analysis, lang: str, top: int) -> None:
    """The report: a summary, the mistakes table and the win chance chart."""
    from dragonlair.cli.main import console

    def t(code: str, **fields: object) -> str:
        return render(code, fields, lang)

    console.print(escape(t("cli.analyse_summary", game=result.game, seat=result.seat + 1,
                           n=len(result.decisions), seconds=round(result.seconds, 1))),
                  highlight=False)
    if not result.complete:
        console.print(escape(t("cli.analyse_incomplete", done=len(result.decisions),
                               n=result.total)), highlight=False)
    totals = result.totals()
    for unit in sorted(totals):
        counted = sum(1 for d in result.decisions if d.hint.unit == unit and d.loss is not None)
        console.print(escape(t("cli.analyse_total",
                               what=_figure(totals[unit] / max(1, counted), unit, lang),
                               unit=t(UNIT_CODES[unit]), n=counted)), highlight=False)
    mistakes = result.mistakes(top)
    if not mistakes:
        console.print(escape(t("cli.analyse_no_mistakes")), highlight=False)
    else:
        table = Table(title=t("cli.analyse_mistakes_title"))
        for code in COLUMN_CODES:
            table.add_column(t(code), no_wrap=code == "cli.analyse_col_loss")
        for d in mistakes:
            table.add_row(*_row(d, lang))
        console.print(table)
    series = result.win_series()
    if series:
        console.print(escape(t("cli.analyse_chart_title")), highlight=False)
        for line in chart([v for _, v in series]):
            console.print(line, highlight=False, markup=False)


def _row(d: Decision, lang: str) -> list[str]:
    unit = d.hint.unit
    played = d.hint.option(d.played)
    best = d.hint.best
    return [str(d.index), str(d.turn),
            escape(f"{d.played} ({_figure(played.value if played else None, unit, lang)})"),
            escape(f"{best.action} ({_figure(best.value, unit, lang)})"),
            escape(_figure(d.loss, unit, lang)),
            escape(render(UNIT_CODES[unit], None, lang)),
            escape(render("cli.analyse_yes" if d.hint.exact else "cli.analyse_no", None, lang))]


def chart(values: list[float], width: int = CHART_WIDTH, height: int = CHART_HEIGHT) -> list[str]:
    """A small text chart of chances (0..1) in order: ``height`` rows, one column per
    decision (or per group of decisions, averaged, past ``width``), a 0-100% scale."""
    if not values:
        return []
    cols = min(width, len(values))
    points = []
    for c in range(cols):
        lo, hi = c * len(values) // cols, max(c * len(values) // cols + 1,
                                              (c + 1) * len(values) // cols)
        chunk = values[lo:hi]
        points.append(sum(chunk) / len(chunk))
    lines = []
    for r in range(height, 0, -1):
        level = (r - 0.5) / height
        label = f"{round(100 * r / height):>3}% |" if r in (height, (height + 1) // 2) \
            else "     |"
        lines.append(label + "".join("█" if p >= level else " " for p in points))
    lines.append("  0% +" + "-" * cols)
    return lines
