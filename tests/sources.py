"""The sources the scans read (tests/test_layers.py, test_plugins.py, test_lang_de.py...),
each file read and parsed once per test process: parsing the whole package takes a second,
and a handful of tests scan it."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dragonlair"


@cache
def python_files(under: Path = PACKAGE) -> tuple[Path, ...]:
    """The ``*.py`` files under ``under`` (at any depth), sorted."""
    return tuple(sorted(under.rglob("*.py")))


@cache
def text(path: Path) -> str:
    """The text of ``path``."""
    return path.read_text(encoding="utf-8")


@cache
def tree(path: Path) -> ast.Module:
    """The syntax tree of ``path``: shared, so a scan reads it and never changes it."""
    return ast.parse(text(path))
