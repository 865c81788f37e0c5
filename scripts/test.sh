#!/usr/bin/env bash
# Installs what the tests need into .venv and runs every check: ruff, mypy --strict, pytest.
# This is the README's test command; .ci/run calls it.
#
# Tiers (CONTRIBUTING.md, "Tests in tiers"): `scripts/test.sh` is CI: every kind of check,
# the slow loops at their CI size (pytest -m "not long"). `scripts/test.sh --long`, before a
# release: every test, the loops at their release size (pytest -m "", DRAGONLAIR_TEST_TIER=long,
# which tests/sizes.py reads).
#
# The server's PostgreSQL and Redis tests run against real ones: Debian's postgresql and
# redis-server packages (installed here when missing and we are root), started by
# scripts/services.sh on 127.0.0.1 for the run and stopped after it. Where they cannot be had
# (not root, no binaries) those tests skip and say why; where they were started, they must run
# (DRAGONLAIR_REQUIRE_SERVICES=1 turns a missing service into a failure).
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    "") tier=ci; markers="not long" ;;
    --long) tier=long; markers="" ;;
    *) echo "usage: scripts/test.sh [--long]" >&2; exit 2 ;;
esac
export DRAGONLAIR_TEST_TIER=$tier
# bytecode is written and kept: where PYTHONDONTWRITEBYTECODE is set, every pytest worker and
# every `dragonlair serve` a test starts (dozens: crash, multi-process, e2e) would compile
# the package again, and pytest would assertion-rewrite every test module in each worker
unset PYTHONDONTWRITEBYTECODE
if [ "$tier" = long ]; then
    echo "test.sh: the release tier (--long): every test, the loops at their release size"
else
    echo "test.sh: the CI tier: every kind of check, the loops at their CI size" \
         "(scripts/test.sh --long: release size)"
fi
python3 -m venv .venv
# PyTorch and the `rl` extra (the MaskablePPO recipe, tests/test_rl_recipe.py) in the release
# tier only (--long): installing torch took a minute of CI's twenty, for one test. Pinned and
# installed first: this machine's pip takes 2.13.0 from a CPU build on its disk, and the extra's
# `torch>=2.3` is then met; left to the extra, pip would fetch a CUDA build of several GB.
# --no-compile: byte-compiling torch's thousands of modules took over half of its install.
# Ray (`tournament --ray`, one test: tests/test_tournament.py) likewise: its install and the
# start of a local instance were over half a minute of CI for that one check
extras="test,plot,openspiel,pettingzoo,server"
if [ "$tier" = long ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check --no-compile torch==2.13.0
    extras="$extras,rl,ray"
fi
# the client is built once, below (npm ci, vite build), not also by setup.py's build_py here;
# scripts/check_wheel.sh still proves that `pip install`/`pip wheel` of a fresh clone builds it
DRAGONLAIR_SKIP_WEB=1 .venv/bin/python -m pip install -q --disable-pip-version-check \
    -e ".[$extras]"
# the fourth game, shipped as its own package (docs/new-game.md): installed as any game from
# outside is, so that every check below (the conformance suite, the CLI, the server, the
# browser's generic screen) meets it; type-checked and tested on its own too
.venv/bin/python -m pip install -q --disable-pip-version-check ./examples/hoard
.venv/bin/python -m compileall -q -j 0 dragonlair >/dev/null
.venv/bin/ruff check .
# mypy (a minute on one core, from a fresh clone) runs beside the browser client's checks and
# build below, which leave the second core idle most of the time; its result is awaited (and
# shown) before the browser tests
mypy_log=$(mktemp)
( .venv/bin/mypy && .venv/bin/mypy --strict examples/hoard/dragonlair_hoard examples/hoard/tests
) >"$mypy_log" 2>&1 &
mypy_pid=$!
wait_mypy() {
    local rc=0
    wait "$mypy_pid" || rc=$?
    cat "$mypy_log"
    rm -f "$mypy_log"
    if [ "$rc" != 0 ]; then echo "test.sh: mypy failed" >&2; exit "$rc"; fi
}

have_services() {
    command -v redis-server >/dev/null 2>&1 &&
        { command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; }
}
if ! have_services; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null
    else
        echo "test.sh: PostgreSQL or redis-server missing and cannot install them (not root):" \
             "the PostgreSQL and Redis tests will skip" >&2
    fi
fi
if have_services; then
    eval "$(scripts/services.sh start)"
    trap 'scripts/services.sh stop "$DRAGONLAIR_SERVICES_DIR"' EXIT
    export DRAGONLAIR_REQUIRE_SERVICES=1
fi

# the browser client (web/README.md): generated types up to date, tsc + svelte-check, Vitest,
# the build (and its first-page size), Playwright in Debian's Chromium against a real
# `dragonlair serve`, and the wheel serving the client without Node. Needs Node >= 20.19;
# DRAGONLAIR_SKIP_WEB=1 skips it (and the client build of `pip install`).
if [ "${DRAGONLAIR_SKIP_WEB:-}" != 1 ]; then
    if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    fi
    (
        cd web
        # a fresh clone has no node_modules; a rerun keeps them while the lock file is older
        if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
            PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
        fi
        npm run --silent gen:check
        npm run --silent check
        npm test --silent
        npm run --silent build
        npm run --silent size
    )
    wait_mypy
    (
        cd web
        DRAGONLAIR_E2E_GENERIC_GAMES=1 npm run --silent e2e  # e2e/generic.spec.ts: hoard
    )
    check_wheel=1
else
    wait_mypy
fi

# the wheel check (about a minute, most of it pip and npm in their own processes, little of
# it Python's) runs beside pytest, which leaves about a quarter of the 2-core machine idle
# (tests waiting on server processes); its output is shown, and its result awaited, after
# pytest's own
wheel_pid=""
if [ "${check_wheel:-}" = 1 ]; then
    wheel_log=$(mktemp)
    bash scripts/check_wheel.sh >"$wheel_log" 2>&1 &
    wheel_pid=$!
fi
wait_wheel() {
    [ -n "$wheel_pid" ] || return 0
    local rc=0
    wait "$wheel_pid" || rc=$?
    wheel_pid=""
    cat "$wheel_log"
    rm -f "$wheel_log"
    if [ "$rc" != 0 ]; then echo "test.sh: scripts/check_wheel.sh failed" >&2; exit "$rc"; fi
}

# CI: -m "not long", the slow loops included (a plain `pytest` skips them); --long: -m "",
# every test; --durations=25 prints the slowest
echo "test.sh: pytest -m \"$markers\" (tier $tier)"
# a hung test fails after pyproject's 600 s; the release tier's loops may take longer
timeout_opt=()
if [ "$tier" = long ]; then timeout_opt=(--timeout=0); fi
pytest_rc=0
.venv/bin/python -m pytest -p no:cacheprovider -m "$markers" --durations=25 "${timeout_opt[@]}" \
    || pytest_rc=$?
wait_wheel
if [ "$pytest_rc" != 0 ]; then echo "test.sh: pytest failed" >&2; exit "$pytest_rc"; fi
.venv/bin/python -m pytest -p no:cacheprovider -m "$markers" examples/hoard/tests

# the server's play, chat, history, leaver, rating and bot tests once more on PostgreSQL
# (their `server` fixture takes a fresh PostgreSQL database: tests/server/conftest.py)
if [ "${DRAGONLAIR_REQUIRE_SERVICES:-}" = 1 ]; then
    DRAGONLAIR_TEST_SERVER_DB=postgresql .venv/bin/python -m pytest -p no:cacheprovider \
        -m "$markers" tests/server/test_play.py tests/server/test_chat.py \
        tests/server/test_history.py tests/server/test_leavers.py tests/server/test_ratings.py \
        tests/server/test_bots_and_restart.py
fi
