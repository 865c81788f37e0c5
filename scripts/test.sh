#!/usr/bin/env bash
# Installs what the tests need into .venv and runs every check: ruff, mypy --strict, pytest.
# This is the README's test command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test,ray,plot,openspiel,pettingzoo,server]"
.venv/bin/ruff check .
.venv/bin/mypy
# -m "": every test, the slow loops included (a plain `pytest` skips them)
.venv/bin/python -m pytest -p no:cacheprovider -m ""
