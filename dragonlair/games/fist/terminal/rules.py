"""The terminal's rules page of Fist of Dragonstones (the plugin's ``terminal_rules``)."""

from __future__ import annotations

from importlib import resources

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from dragonlair.core.i18n import DEFAULT_LANG, term
from dragonlair.games.fist.terminal.screen import ui


def rules_text(lang: str) -> str:
    """The rules in brief (``dragonlair/games/fist/rules/<lang>.md``; English where ``lang``
    has no file yet: a language is added by adding files)."""
    folder = resources.files("dragonlair.games.fist") / "rules"
    page = folder / f"{lang}.md"
    if not page.is_file():
        page = folder / f"{DEFAULT_LANG}.md"
    return page.read_text(encoding="utf-8")


def render_rules(console: Console, lang: str) -> None:
    """``dragonlair rules fist``: the rules in brief, then every character and its power,
    named from the catalogue (``fist.card.<id>.name`` / ``.text``)."""
    from dragonlair.games.fist.cards import BUILTIN

    console.print(Markdown(rules_text(lang)))
    table = Table(title=ui(lang, "rules_characters"), show_lines=False)
    table.add_column(ui(lang, "rules_col_card"))
    table.add_column("×", justify="right")
    table.add_column(ui(lang, "col_power"))
    for card in BUILTIN:
        mark = "" if card.standard else " *"
        name = term(f"fist.card.{card.id}.name", lang, fallback=card.name(lang))
        text = term(f"fist.card.{card.id}.text", lang, fallback=card.text(lang))
        table.add_row(Text(name + mark), str(card.count), Text(text))
    console.print(table)
    console.print("* " + ui(lang, "rules_special_mark"))
