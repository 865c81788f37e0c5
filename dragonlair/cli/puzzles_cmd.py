"""``dragonlair puzzles``: mine puzzles from records and solve them in the terminal (issue 27;
docs/puzzles.md). Registered on the app in :mod:`dragonlair.cli.main`.

``mine RECORDS... --out DIR [--json]`` walks the records (files, or folders of ``*.json``),
writes each puzzle as ``DIR/<id>.json`` (de-duplicated: one file per position) and prints
the counts: decisions seen, analysed, kept, and the puzzles per theme. A record that does
not load or replay is one line on standard error and is skipped; the others are mined, and
the command then exits 2 (0 when every record was read).

``play GAME [--dir DIR] [--theme T] [--lang de] [--seed N]`` draws a puzzle (default: the
set shipped in ``dragonlair/puzzles/data/<game>``), shows the position with the game's own
terminal screen and asks for the answer by its number or in record notation. A right answer
says so and why (exit 0); a wrong one (or ``q``, or the end of the input) shows the answer
and what every option was worth (exit 1). Bad arguments, an unreadable folder or a file that
is no puzzle: one line, exit 2, no traceback.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib.resources import files
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from dragonlair.core.i18n import render
from dragonlair.puzzles.model import Puzzle

puzzles_app = typer.Typer(no_args_is_help=True, add_completion=False)

#: options shown after a wrong answer (the answer and yours always among them): 80 x 24
SHOWN = 10
#: wrong inputs before the puzzle counts as given up
TRIES = 5


def _tr(lang: str, key: str, **params: object) -> str:
    return render(f"cli.{key}", params, lang)


def data_dir(game: str) -> Path:
    """The puzzles shipped with the package for ``game``."""
    return Path(str(files("dragonlair.puzzles") / "data" / game))


@puzzles_app.command()
def mine(
    records: Annotated[list[Path], typer.Argument()],
    out: Annotated[Path, typer.Option("--out")],
    as_json: Annotated[bool, typer.Option("--json")] = False,
    lang: Annotated[str, typer.Option()] = "en",
) -> None:
    """Mine puzzles from records into a folder."""
    from dragonlair.cli.main import check_lang, err, fail_with
    from dragonlair.core.errors import DragonlairError
    from dragonlair.puzzles.mine import Tally, mine_records

    lang = check_lang(lang)
    paths: list[Path] = []
    for path in records:
        paths.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    bad: list[str] = []

    def skipped(name: str, exc: DragonlairError) -> None:
        bad.append(name)
        err.print(escape(_tr(lang, "puzzles_bad_record", file=name, why=exc.message(lang))),
                  highlight=False)

    tally = Tally()
    found = mine_records(paths, tally=tally, on_error=skipped)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for p in found:
            (out / f"{p.id}.json").write_text(
                json.dumps(p.to_json(), sort_keys=True, indent=1, ensure_ascii=False) + "\n",
                encoding="utf-8")
    except OSError as exc:
        fail_with("cli.puzzles_out", lang, dir=str(out), why=exc.strerror or str(exc))
        return
    themes = Counter(t for p in found for t in p.themes)
    if as_json:
        typer.echo(json.dumps({"records": len(paths) - len(bad), "bad": bad,
                               "decisions": tally.decisions, "analysed": tally.analysed,
                               "kept": tally.kept, "unique": len(found),
                               "themes": dict(sorted(themes.items()))}, indent=1))
    else:
        console = Console(highlight=False, soft_wrap=True)
        console.print(escape(_tr(lang, "puzzles_seen", records=len(paths) - len(bad),
                                 decisions=tally.decisions, analysed=tally.analysed,
                                 kept=tally.kept, unique=len(found), out=str(out))))
        for theme, n in sorted(themes.items(), key=lambda tn: (-tn[1], tn[0])):
            console.print(escape(_tr(lang, "puzzles_theme_count", theme=render(theme, None, lang),
                                     n=n)))
    if bad:
        raise typer.Exit(2)


def load_folder(folder: Path, game: str, lang: str) -> list[Puzzle]:
    """The puzzles of ``game`` in a folder, by file name (a bad file: fail, exit 2)."""
    from dragonlair.cli.main import fail_with

    out: list[Puzzle] = []
    try:
        names = sorted(folder.glob("*.json")) if folder.is_dir() else []
        for path in names:
            try:
                puzzle = Puzzle.from_json(json.loads(path.read_text(encoding="utf-8")))
            except (ValueError, AttributeError) as exc:  # JSONDecodeError is a ValueError
                fail_with("cli.puzzles_bad_file", lang, file=path.name, why=str(exc))
                raise  # pragma: no cover - fail_with exits
            if puzzle.game == game:
                out.append(puzzle)
    except OSError as exc:
        fail_with("cli.puzzles_bad_file", lang, file=str(folder), why=exc.strerror or str(exc))
    return out


def number(value: float, unit: str, lang: str) -> str:
    """A value in its unit: soldiers whole, a win chance in per cent with one decimal
    (German decimals for ``de``)."""
    text = f"{value:,.0f}" if unit == "soldiers" else f"{100 * value:.1f} %"
    if lang == "de":
        text = text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")
    return text


def option_lines(legal: tuple[str, ...], width: int) -> list[str]:
    """The numbered options, as many to a line as fit in ``width`` (markup; an option is
    never broken)."""
    lines: list[str] = []
    line, used = "", 0
    for i, action in enumerate(legal, 1):
        size = len(f"{i} {action}") + 2
        if used and used + size > width:
            lines.append(line)
            line, used = "", 0
        line += f"  [cyan]{i}[/] {escape(action)}"
        used += size
    if line:
        lines.append(line)
    return lines


def _matches(theme: str, wanted: str) -> bool:
    return theme == wanted or theme.endswith("." + wanted)


def answer_of(text: str, legal: tuple[str, ...]) -> str | None:
    """The legal action that an answer names: its number (from 1) or its text (any case,
    any spacing; Master's ``place`` may be left out)."""
    words = " ".join(text.lower().split())
    if words.isdigit():
        i = int(words)
        return legal[i - 1] if 1 <= i <= len(legal) else None
    for action in legal:
        a = action.lower()
        if words in (a, a.removeprefix("place ")):
            return action
    return None


@puzzles_app.command()
def play(
    game: Annotated[str, typer.Argument()],
    folder: Annotated[Path | None, typer.Option("--dir")] = None,
    theme: Annotated[str | None, typer.Option("--theme")] = None,
    lang: Annotated[str, typer.Option()] = "en",
    seed: Annotated[int | None, typer.Option()] = None,
) -> None:
    """Solve a puzzle in the terminal."""
    from dragonlair.cli.main import check_game, check_lang, fail_with
    from dragonlair.puzzles.mine import show_for

    lang = check_lang(lang)
    game = check_game(game, lang)
    where = folder if folder is not None else data_dir(game)
    puzzles = load_folder(where, game, lang)
    if theme:
        puzzles = [p for p in puzzles if any(_matches(t, theme) for t in p.themes)]
    if not puzzles:
        fail_with("cli.puzzles_none", lang, game=game, dir=str(where),
                  theme=f" ({theme})" if theme else "")
        return
    puzzle = random.Random(seed).choice(puzzles)
    console = Console(highlight=False)
    names = [_tr(lang, "puzzles_you" if s == puzzle.seat else "puzzles_other", n=s + 1)
             for s in range(max(2, len(puzzle.view.get("public", {}).get("seats", []))))]
    themes = ", ".join(render(t, None, lang) for t in puzzle.themes)
    title = _tr(lang, "puzzles_title", id=puzzle.id[:8], themes=themes)
    console.print(f"[bold]{escape(title)}[/]")
    show_for(game)(console, puzzle.view, names, lang)
    console.print(f"[bold]{escape(render(puzzle.question, None, lang))}[/]")
    console.print(escape(_tr(lang, "puzzles_options")))
    for line in option_lines(puzzle.legal, console.width):
        console.print(line)
    chosen: str | None = None
    for _ in range(TRIES):
        try:
            text = input(_tr(lang, "puzzles_prompt") + ": ")
        except EOFError:
            break
        if text.strip().lower() in ("q", "quit"):
            break
        chosen = answer_of(text, puzzle.legal)
        if chosen is not None:
            break
        console.print(escape(_tr(lang, "puzzles_not_legal", text=text.strip()[:40],
                                 n=len(puzzle.legal))))
    answer = " / ".join(puzzle.solution)
    why = render(str(puzzle.explanation.get("key", "")),
                 puzzle.explanation.get("params") or {}, lang)
    if chosen in puzzle.solution:
        console.print(f"[bold green]{escape(_tr(lang, 'puzzles_right', answer=answer))}[/]")
        console.print(escape(why))
        return
    console.print(f"[bold red]{escape(_tr(lang, 'puzzles_wrong', answer=answer))}[/] "
                  + escape(why))
    unit = _tr(lang, f"puzzles_unit_{puzzle.unit}")
    console.print(escape(_tr(lang, "puzzles_values", unit=unit)))
    shown = [o for i, o in enumerate(puzzle.options)
             if i < SHOWN - 1 or o.best or o.action == chosen]
    for o in shown:
        mark = (_tr(lang, "puzzles_answer") if o.best
                else _tr(lang, "puzzles_yours") if o.action == chosen else "")
        console.print(f"  {escape(o.action):<22} {number(o.value, puzzle.unit, lang):>10}"
                      + (f"  [bold]← {escape(mark)}[/]" if mark else ""))
    rest = [o for o in puzzle.options if o not in shown]
    if rest:
        console.print(escape(_tr(lang, "puzzles_more", n=len(rest),
                                 value=number(max(o.value for o in rest), puzzle.unit, lang))))
    raise typer.Exit(1)
