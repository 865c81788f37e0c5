"""Setuptools hook: building the package builds the browser client first (web/README.md).

``pip install .``, ``pip install -e .`` and ``pip wheel .`` run ``build_py``; from a clone
with Node (``npm``) on the PATH it runs ``scripts/build_web.sh`` (``npm ci`` and ``vite
build`` into ``dragonlair/web/dist``, package data) unless the bundle is newer than every
source it is built from. Without Node, or when the build fails, it says so and goes on: the
server then shows how to build the client. ``DRAGONLAIR_SKIP_WEB=1`` skips the step.
Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
DIST = ROOT / "dragonlair" / "web" / "dist"


def newest_source() -> float:
    stamps = [0.0]
    locales = sorted((ROOT / "dragonlair" / "games").glob("*/locale"))
    for folder in (WEB / "src", WEB / "public", ROOT / "dragonlair" / "locale", *locales):
        stamps += [p.stat().st_mtime for p in folder.rglob("*") if p.is_file()]
    for name in ("index.html", "package-lock.json", "vite.config.ts"):
        if (WEB / name).is_file():
            stamps.append((WEB / name).stat().st_mtime)
    return max(stamps)


def build_client() -> None:
    if os.environ.get("DRAGONLAIR_SKIP_WEB") == "1" or not (WEB / "package.json").is_file():
        return
    index = DIST / "index.html"
    if index.is_file() and index.stat().st_mtime >= newest_source():
        return
    if shutil.which("npm") is None or shutil.which("node") is None:
        print("dragonlair: Node/npm not found: the browser client is not built "
              "(bash scripts/build_web.sh builds it)", file=sys.stderr)
        return
    # pip builds in an isolated environment (babel from [build-system] requires lives in
    # its overlay on sys.path, not in the interpreter's own site): the catalogue export the
    # build runs must see those paths, and the sources of this clone first
    path = os.pathsep.join([str(ROOT), *(p for p in sys.path if p)])
    env = dict(os.environ, DRAGONLAIR_PYTHON=sys.executable, PYTHONPATH=path)
    done = subprocess.run(["bash", str(ROOT / "scripts" / "build_web.sh")], env=env)
    if done.returncode != 0:  # terminal play and the server work without it: say so, go on
        print("dragonlair: building the browser client failed (see above); the package is "
              "installed without it (bash scripts/build_web.sh builds it)", file=sys.stderr)


class BuildPyWithClient(build_py):
    def run(self) -> None:
        build_client()
        # hashed names change with each build: drop an earlier build's copy of the bundle
        shutil.rmtree(Path(self.build_lib) / "dragonlair" / "web" / "dist", ignore_errors=True)
        # the bundle's files are package data: look for them again now that they exist
        self.__dict__.pop("data_files", None)
        super().run()


setup(cmdclass={"build_py": BuildPyWithClient})
