"""The layers point one way (docs/architecture.md, Plugins): the engines (``dragonlair.games``)
and the contract (``dragonlair.core``) never import an interface, not even lazily inside a
function; what an interface shows for a game is a ``module:attribute`` string in its plugin.
A game's own terminal screen (``dragonlair/games/<id>/terminal/``) lives in the game's folder
as an interface part of it: it may use the CLI's toolkit, and nothing of the engine imports
it (checked below)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

from tests import sources

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


def interface_imports(source: str | ast.Module, module: str, is_package: bool = False,
                      matches: Callable[[str], bool] | None = None) -> list[str]:
    """The interface modules ``source`` (the module ``module``) imports, at any depth: ``import
    x``, ``from x import y``, relative imports resolved, and ``import_module("x")`` with a
    literal name, each as ``line: module``."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source) if isinstance(source, str) else source):
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
            if (matches or _is_interface)(name):
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
        "x = 'dragonlair.games.fist.terminal.play:play_fist'\n"
    )
    found = interface_imports(source, "dragonlair.games.fist.plugin")
    assert found == ["1: dragonlair.cli.main", "2: dragonlair.server",
                     "4: dragonlair.web.dist", "6: dragonlair.client.client",
                     "7: dragonlair.cli"]


def _terminal_part(path: Path) -> bool:
    """A game's own terminal screen: ``dragonlair/games/<id>/terminal/...``."""
    parts = path.relative_to(PACKAGE).parts
    return len(parts) > 3 and parts[0] == "games" and parts[2] == "terminal"


@pytest.mark.parametrize("inner", INNER)
def test_engines_and_core_import_no_interface(inner: str) -> None:
    files = [p for p in sources.python_files(PACKAGE / inner) if not _terminal_part(p)]
    assert files
    bad = []
    for path in files:
        found = interface_imports(sources.tree(path), _module_name(path),
                                  path.name == "__init__.py")
        bad += [f"{path.relative_to(ROOT)}:{line}" for line in found]
    assert bad == []


def test_no_engine_module_imports_a_terminal_screen() -> None:
    """The terminal screens in the games' folders are reached only through the plugins'
    ``module:attribute`` strings: no other module of ``dragonlair.games`` or
    ``dragonlair.core`` imports them."""
    screens = sorted({".".join(p.relative_to(ROOT).parts[:4])
                      for p in sources.python_files(PACKAGE / "games") if _terminal_part(p)})
    assert "dragonlair.games.fist.terminal" in screens
    def is_screen(name: str) -> bool:
        return any(name == s or name.startswith(s + ".") for s in screens)

    bad = []
    for inner in INNER:
        for path in sources.python_files(PACKAGE / inner):
            if not _terminal_part(path):
                found = interface_imports(sources.tree(path), _module_name(path),
                                          path.name == "__init__.py", matches=is_screen)
                bad += [f"{path.relative_to(ROOT)}:{line}" for line in found]
    assert bad == []


# ---------------------------------------------------------------- the server's layers
#: the database's statements: a route hands them to a service (docs/architecture.md, "The
#: server"), it never builds or runs one itself
SQL_CALLS = ("select", "update", "insert", "delete")
ROUTE_METHODS = ("get", "post", "put", "delete", "patch", "head", "options", "websocket",
                 "api_route")
#: route modules whose routes still run their own SQL (each to move to a service as the
#: lobby's did, dragonlair/server/lobby_service.py; then off this list, which
#: test_the_routes_leave_sql_to_services keeps exact)
ROUTES_WITH_SQL = frozenset({"accounts", "history", "invites", "profiles", "push"})
#: the most methods TableRuntime may have: its parts are its concerns (table/*.py)
RUNTIME_METHODS_MAX = 12


def _is_route(decorator: ast.expr) -> bool:
    return (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr in ROUTE_METHODS)


def sql_in_routes(source: str | ast.Module) -> list[str]:
    """The SQL a module's routes run themselves: a call of ``select``, ``update``, ``insert``
    or ``delete`` (SQLAlchemy's statement builders) or of an ``.execute`` method anywhere
    inside a function decorated as a route (``@router.get(...)`` and the like), its nested
    functions and lambdas included, each as ``line: route: call``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source) if isinstance(source, str) else source):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or not any(_is_route(d) for d in node.decorator_list):
            continue
        for sub in ast.walk(node):
            if not isinstance(sub, ast.Call):
                continue
            if isinstance(sub.func, ast.Name) and sub.func.id in SQL_CALLS:
                found.append((sub.lineno, f"{node.name}: {sub.func.id}("))
            elif isinstance(sub.func, ast.Attribute) and sub.func.attr == "execute":
                found.append((sub.lineno, f"{node.name}: .execute("))
    return [f"{line}: {what}" for line, what in sorted(found)]


def test_the_sql_checker_sees_sql_in_a_route() -> None:
    source = (
        "@router.get('/a')\n"
        "def a(s):\n"
        "    return s.scalars(select(T))\n"
        "@router.post('/b')\n"
        "async def b(hub):\n"
        "    def work(s):\n"
        "        s.execute(update(T).values(x=1))\n"
        "    return await hub.db(lambda s: s.execute(insert(T)))\n"
        "def helper(s):\n"
        "    return s.execute(select(T))\n"
        "@router.get('/c')\n"
        "def c(s):\n"
        "    return service.show(s)\n"
    )
    assert sql_in_routes(source) == ["3: a: select(", "7: b: .execute(", "7: b: update(",
                                     "8: b: .execute(", "8: b: insert("]


def test_the_routes_leave_sql_to_services() -> None:
    """The lobby's routes read the request, call lobby_service and shape the answer; no route
    module outside ROUTES_WITH_SQL runs SQL in a route, and every one on it still does."""
    found = {}
    for path in sources.python_files(PACKAGE / "server"):
        hits = sql_in_routes(sources.tree(path))
        if hits:
            found[path.relative_to(PACKAGE / "server").with_suffix("").as_posix()] = hits
    assert {name: hits for name, hits in found.items() if name not in ROUTES_WITH_SQL} == {}
    assert set(found) == ROUTES_WITH_SQL, "a module was cleaned: take it off ROUTES_WITH_SQL"


def test_the_table_runtime_composes_small_parts() -> None:
    """TableRuntime holds a table's state and composes its parts (no base classes, no
    mixins), with few methods of its own; storage, the bottom layer, imports no other part
    of the table nor the hub."""
    table = PACKAGE / "server" / "table"
    tree = ast.parse((table / "runtime.py").read_text(encoding="utf-8"))
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TableRuntime"]
    assert len(classes) == 1
    runtime = classes[0]
    assert runtime.bases == [] and runtime.keywords == []
    methods = [n.name for n in runtime.body
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert len(methods) <= RUNTIME_METHODS_MAX, methods
    storage = ast.parse((table / "storage.py").read_text(encoding="utf-8"))
    imported = [n.module or "" for n in ast.walk(storage) if isinstance(n, ast.ImportFrom)]
    assert [m for m in imported if m.startswith(("dragonlair.server.table",
                                                 "dragonlair.server.hub"))] == []
    assert not (PACKAGE / "server" / "tables.py").exists()
