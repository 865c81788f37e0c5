#!/usr/bin/env bash
# Checks that a built wheel carries the browser client and serves it without Node: builds the
# wheel (setup.py builds the client first when it is stale), checks its files, installs it
# into a fresh virtualenv (its dependencies taken from .venv's site-packages, so that no
# download is needed) and, on a PATH without node or npm, starts `dragonlair serve` from it
# and fetches / and the first page's script.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
orig_path=$PATH
trap 'kill "${pid:-}" 2>/dev/null || true; PATH=$orig_path rm -rf "$work"' EXIT
.venv/bin/python -m pip wheel -q --disable-pip-version-check . -w "$work/w" --no-deps
wheel=$(ls "$work"/w/dragonlair-*.whl)
unzip -l "$wheel" > "$work/files"
grep -q 'dragonlair/web/dist/index.html' "$work/files" || { echo "check_wheel: no client in $wheel" >&2; exit 1; }
grep -q 'dragonlair/web/dist/assets/index-[^ ]*\.js$' "$work/files" || { echo "check_wheel: no client script in $wheel" >&2; exit 1; }
# one script (with its precompressed .br and .gz beside it, where they are smaller)
[ "$(grep -c 'dragonlair/web/dist/assets/index-[^ ]*\.js$' "$work/files")" = 1 ] || { echo "check_wheel: stale client files in $wheel (remove build/)" >&2; exit 1; }
grep -q 'dragonlair/web/dist/i18n/de.json' "$work/files" || { echo "check_wheel: no catalogues in $wheel" >&2; exit 1; }
# the tracked files alone, as a fresh clone has them (no bundle, no node_modules): building
# there must build the client itself, inside pip's isolated build environment (Babel from
# [build-system] requires), as `pip install -e .` and `pip install .` do for a new user
mkdir "$work/src"
git ls-files -z | xargs -0 cp --parents -t "$work/src"
.venv/bin/python -m pip wheel -q --disable-pip-version-check "$work/src" -w "$work/w2" --no-deps \
    > "$work/clean-build.log" 2>&1 || { cat "$work/clean-build.log" >&2; exit 1; }
# (listed to a file first: `grep -q` stops reading at the first match, and with pipefail the
# listing's SIGPIPE would fail the pipe)
unzip -l "$work"/w2/dragonlair-*.whl > "$work/files2"
grep -q 'dragonlair/web/dist/assets/index-[^ ]*\.js$' "$work/files2" \
    || { grep -v 'is ignored' "$work/clean-build.log" >&2 || true; echo "check_wheel: a clean copy's wheel has no client" >&2; exit 1; }
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps "$wheel"
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
# a PATH with python but without node/npm
mkdir "$work/bin"
ln -s "$(command -v python3)" "$work/bin/python3"
export PATH="$work/venv/bin:$work/bin:/usr/bin/env-none"
if command -v node >/dev/null 2>&1; then echo "check_wheel: node still on PATH" >&2; exit 1; fi
export PYTHONPATH="$site"
cd "$work"  # not the clone: the package must come from the wheel
where=$("$work/venv/bin/python" -c 'import dragonlair.web as w; print(w.__file__)')
case "$where" in "$work"/venv/*) ;; *) echo "check_wheel: imported $where, not the wheel" >&2; exit 1;; esac
port=$("$work/venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$work/venv/bin/dragonlair" serve --host 127.0.0.1 --port "$port" --data "$work/data" >"$work/serve.log" 2>&1 &
pid=$!
"$work/venv/bin/python" - "$port" <<'PY'
import re, sys, time, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(150):
    try:
        urllib.request.urlopen(base + "/api/health", timeout=2)
        break
    except OSError:
        time.sleep(0.1)
page = urllib.request.urlopen(base + "/tables/abc").read().decode()
script = re.search(r'src="(/assets/index-[^"]+\.js)"', page)
assert script, "the page does not load the client"
answer = urllib.request.urlopen(base + script.group(1))
assert answer.status == 200 and "immutable" in answer.headers["Cache-Control"], answer.headers
assert urllib.request.urlopen(base + "/i18n/de.json").status == 200
print(f"check_wheel: the wheel serves the client ({script.group(1)}) without node")
PY
