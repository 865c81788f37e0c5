"""Screens that fit the terminal: every game's screen, from one prompt to the next, within
:data:`SCREEN_ROWS` rows (issue 25: 80 columns by 24 rows). A screen is drawn in two parts:
what must be there (the table, the position, the choices and the prompt), measured here, and
the logs (recent events, what happened since the last screen, private notes), which get the
rows left, their newest lines first."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from weakref import WeakKeyDictionary

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.panel import Panel
from rich.segment import Segment
from rich.text import Text

#: the rows of a screen: a terminal's 24, the prompt's row included
SCREEN_ROWS = 24
#: the fewest rows a log panel is drawn in (its two borders and one line)
MIN_PANEL = 3


def height(console: Console, *renderables: RenderableType) -> int:
    """The rows ``renderables`` take printed on ``console`` (at its width)."""
    total = 0
    for item in renderables:
        shown = Text.from_markup(item) if isinstance(item, str) else item
        total += len(console.render_lines(shown, console.options, pad=False))
    return total


class Rendered:
    """A part of a screen rendered once, at the console's width: measured by its ``rows``
    and printed as it is (``console.print(part, end="")``), so a screen that is fitted to
    the terminal is not rendered twice (rich tables cost milliseconds each)."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    @property
    def rows(self) -> int:
        return len(self.lines)

    def __rich_console__(self, console: Console, options: ConsoleOptions
                         ) -> Iterator[Segment]:
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line


def rendered(console: Console, *renderables: RenderableType,
             highlight: bool | None = None) -> list[Rendered]:
    """Each of ``renderables`` rendered as ``console.print`` would render it (markup in a
    string, and the console's highlighting unless ``highlight`` is False)."""
    out = []
    for item in renderables:
        shown = (console.render_str(item, highlight=highlight) if isinstance(item, str)
                 else item)
        out.append(Rendered(console.render_lines(shown, console.options, pad=False)))
    return out


#: per console, the level of compactness each kind of screen took last time
_levels: WeakKeyDictionary[Console, dict[str, int]] = WeakKeyDictionary()


def fitting_level(console: Console, screen: str, levels: int,
                  fits: Callable[[int], bool]) -> int:
    """The lowest level of compactness (0 to ``levels - 1``) at which ``fits(level)``, the
    last level where none does; each level is no taller than the one before, so the search
    starts from the level this console's last ``screen`` took (consecutive screens of a game
    are alike: mostly two trials instead of one per level below the answer)."""
    hints = _levels.setdefault(console, {})
    level = min(hints.get(screen, 0), levels - 1)
    if fits(level):
        while level > 0 and fits(level - 1):
            level -= 1
    else:
        while level < levels - 1:
            level += 1
            if fits(level):
                break
    hints[screen] = level
    return level


def rows_of(parts: Sequence[Rendered]) -> int:
    """The rows ``parts`` take."""
    return sum(part.rows for part in parts)


def print_rendered(console: Console, parts: Sequence[Rendered]) -> None:
    """Print parts rendered by :func:`rendered`."""
    for part in parts:
        console.print(part, end="")


def printed_rows(console: Console, draw: Callable[[], None]) -> int:
    """The rows ``draw()`` prints on ``console``, measured without printing them."""
    with console.capture() as capture:
        draw()
    return capture.get().count("\n")


def newest_lines(console: Console, lines: Sequence[str], rows: int, *,
                 style: str = "") -> list[Text]:
    """The newest of ``lines`` (markup) that fit in ``rows`` rows inside a panel on
    ``console``, in their order."""
    width = max(10, console.width - 4)
    chosen: list[Text] = []
    used = 0
    for line in reversed(lines):
        text = Text.from_markup(line, style=style)
        rows_of = len(text.wrap(console, width))
        if used + rows_of > rows:
            break
        chosen.append(text)
        used += rows_of
    chosen.reverse()
    return chosen


def log_panel(console: Console, lines: Sequence[str], rows: int | None, *, title: str,
              border_style: str = "", style: str = "",
              more: Callable[[int], str] | None = None,
              limit: int | None = None) -> Panel | None:
    """A panel of the newest ``lines`` (at most ``limit``) within ``rows`` rows, borders
    included (``None``: no bound but ``limit``); when lines were left out, ``more(n)``
    (plain text: how many) heads it. ``None`` when not even one line fits."""
    shown = list(lines[-limit:]) if limit is not None else list(lines)
    if rows is None:
        chosen = [Text.from_markup(line, style=style) for line in shown]
    else:
        if rows < MIN_PANEL:
            return None
        chosen = newest_lines(console, shown, rows - 2, style=style)
        if more is not None and len(chosen) < len(lines) and chosen:
            chosen = newest_lines(console, shown, rows - 3, style=style)
    if not chosen:
        return None
    body: list[RenderableType] = []
    if more is not None and len(chosen) < len(lines):
        body.append(Text(more(len(lines) - len(chosen)), style="dim"))
    body += chosen
    return Panel(Group(*body), title=title, title_align="left", border_style=border_style)
