#!/usr/bin/env bash
# Builds the browser client (web/) into dragonlair/web/dist (package data, served by
# `dragonlair serve`): npm ci when node_modules is missing or older than the lock file, then
# the catalogues (web/public/i18n, from the .po files), `vite build` and the precompressed
# NAME.br/NAME.gz beside each file (web/scripts/compress.mjs). Needs Node >= 20.19 and
# a Python that can import dragonlair.core.i18n (Babel): $DRAGONLAIR_PYTHON, else .venv's,
# else python3. setup.py's build_py calls it; so do scripts/test.sh and the README.
set -euo pipefail
cd "$(dirname "$0")/../web"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent build
