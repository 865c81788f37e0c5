#!/usr/bin/env bash
# The browser client's two figures (issue 14): the first page's files as served (compressed),
# and how long a move made in one browser takes to appear in the others on loopback.
# Builds the client, measures the first page (web/scripts/size.mjs), then plays the whole
# Dragon Master game of web/e2e/master.spec.ts (two players and a spectator in Debian's
# Chromium against a real `dragonlair serve`) and prints the act -> update latency it
# recorded (web/test-results/latency-master.json). Needs .venv (scripts/test.sh) and
# web/node_modules (npm ci in web/).
set -euo pipefail
cd "$(dirname "$0")/../web"
npm run --silent build >/dev/null
npm run --silent size
npx playwright test e2e/master.spec.ts --reporter=line >/dev/null
echo "move latency (act in one browser -> its update in each other browser):"
cat test-results/latency-master.json
# click -> DOM in each other browser, one move at a time: Master (2 players + spectator) and
# Fist (4 players + spectator), bench/web/latency.mjs
node ../bench/web/latency.mjs --moves "${MOVES:-50}" --json test-results/latency-dom.json
