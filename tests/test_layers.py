"""The layers point one way (docs/architecture.md, Plugins): the engines (``dragonlair.games``)
and the contract (``dragonlair.core``) never import an interface, not even lazily inside a
function; what an interface shows for a game is a ``module:attribute`` string in its plugin."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dragonlair"
#: the packages that must not import an interface, and the interfaces
INNER = ("core", "games")
INTERFACES = ("dragonlair.cli", "dragonlair.server", "dragonlair.web", "dragonlair.client")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_interface(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in INTERFACES)


def interface_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """The interface modules ``source`` (the module ``module``) imports, at any depth: ``import
    x``, ``from x import y``, relative imports resolved, and ``import_module("x")`` with a
    literal name, each as ``line: module``."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                stem = ".".join(base)
                target = f"{stem}.{node.module}" if node.module else stem
            else:
                target = node.module or ""
            names = [target, *(f"{target}.{alias.name}" for alias in node.names)]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name)
                       and node.func.id in ("import_module", "__import__")))):
            names = [node.args[0].value]
        for name in names:
            if _is_interface(name):
                found.append((getattr(node, "lineno", 0), name))
                break
    return [f"{line}: {name}" for line, name in sorted(found)]


def test_the_checker_sees_every_kind_of_import() -> None:
    source = (
        "import dragonlair.cli.main\n"
        "from dragonlair.server import app\n"
        "def f():\n"
        "    from dragonlair.web.dist import x\n"
        "    import importlib\n"
        "    importlib.import_module('dragonlair.client.client')\n"
        "from ... import cli\n"
        "from dragonlair.core import i18n\n"
        "import dragonlair.clients_of_mine\n"
        "x = 'dragonlair.cli.fist_play:play_fist'\n"
    )
    found = interface_imports(source, "dragonlair.games.fist.plugin")
    assert found == ["1: dragonlair.cli.main", "2: dragonlair.server",
                     "4: dragonlair.web.dist", "6: dragonlair.client.client",
                     "7: dragonlair.cli"]


@pytest.mark.parametrize("inner", INNER)
def test_engines_and_core_import_no_interface(inner: str) -> None:
    files = sorted((PACKAGE / inner).rglob("*.py"))
    assert files
    bad = []
    for path in files:
        found = interface_imports(path.read_text(encoding="utf-8"), _module_name(path),
                                  path.name == "__init__.py")
        bad += [f"{path.relative_to(ROOT)}:{line}" for line in found]
    assert bad == []
