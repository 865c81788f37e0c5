#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis for the tests (docs/deploy.md, "Tests against PostgreSQL and
# Redis"): both on 127.0.0.1, each on a free port, data in a temporary folder, nothing kept.
#
#   eval "$(scripts/services.sh start)"   # starts both; prints the export lines
#   scripts/services.sh env [DIR]         # prints the export lines of a running set again
#   scripts/services.sh stop [DIR]        # stops both and deletes the folder
#
# DIR defaults to $DRAGONLAIR_SERVICES_DIR (which `start` exports). PostgreSQL refuses to run
# as root: as root the cluster belongs to the `postgres` system user (created when missing).
# The binaries come from Debian's packages (postgresql, redis-server); scripts/test.sh
# installs them when they are missing. Exit status 3: a binary is missing.
set -euo pipefail

pg_bin() {
    if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
    if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v pg_ctl)")"; return
    fi
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    [ -n "$d" ] && [ -x "$d/pg_ctl" ] && echo "$d"
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# run a command as the owner of the cluster (postgres when we are root)
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u "$PG_USER" -- "$@"
    else
        "$@"
    fi
}

print_env() {
    local dir=$1
    # shellcheck disable=SC1091
    . "$dir/ports"
    echo "export DRAGONLAIR_SERVICES_DIR=$dir"
    echo "export DRAGONLAIR_TEST_PG=postgresql+psycopg://$PG_USER@127.0.0.1:$PG_PORT/$PG_DB"
    echo "export DRAGONLAIR_TEST_REDIS=redis://127.0.0.1:$REDIS_PORT/0"
}

start() {
    local bin redis
    bin=$(pg_bin || true)
    redis=$(command -v redis-server || true)
    if [ -z "$bin" ] || [ -z "$redis" ]; then
        echo "services.sh: PostgreSQL (initdb, pg_ctl) or redis-server not found;" \
             "install Debian's postgresql and redis-server" >&2
        exit 3
    fi
    PG_USER=$(id -un)
    if [ "$(id -u)" = 0 ]; then
        PG_USER=postgres
        id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    fi
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/dragonlair-services.XXXXXX")
    chmod 755 "$dir"
    mkdir "$dir/pg" "$dir/redis"
    [ "$(id -u)" = 0 ] && chown "$PG_USER" "$dir/pg"
    local pg_port redis_port
    pg_port=$(free_port)
    redis_port=$(free_port)
    printf 'PG_USER=%s\nPG_PORT=%s\nREDIS_PORT=%s\nPG_BIN=%s\nPG_DB=%s\n' \
        "$PG_USER" "$pg_port" "$redis_port" "$bin" dragonlair > "$dir/ports"
    # a failed start leaves nothing running
    trap 'stop "$dir" >/dev/null 2>&1 || true' ERR

    as_owner "$bin/initdb" -D "$dir/pg/data" -U "$PG_USER" --auth=trust -E UTF8 \
        --locale=C.UTF-8 >"$dir/pg/initdb.log" 2>&1 || {
        cat "$dir/pg/initdb.log" >&2; exit 1; }
    # fsync off: a throwaway cluster for tests, nothing to keep through a power cut
    as_owner "$bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $dir/pg -c fsync=off \
            -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
        start >/dev/null || { cat "$dir/pg/server.log" >&2; exit 1; }
    if [ -x "$bin/createdb" ]; then
        as_owner "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U "$PG_USER" dragonlair
    else  # no client tools: the cluster's own database
        sed -i 's/^PG_DB=.*/PG_DB=postgres/' "$dir/ports"
    fi

    # no persistence: no RDB snapshots, no append-only file
    "$redis" --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no \
        --dir "$dir/redis" --daemonize yes --pidfile "$dir/redis/redis.pid" \
        --logfile "$dir/redis/redis.log" >/dev/null
    local i
    for i in $(seq 100); do
        [ -s "$dir/redis/redis.pid" ] && python3 - "$redis_port" <<'PY' && break
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)
s.sendall(b"PING\r\n"); ok = s.recv(16).startswith(b"+PONG"); sys.exit(0 if ok else 1)
PY
        sleep 0.05
    done
    trap - ERR
    print_env "$dir"
}

stop() {
    local dir=${1:-${DRAGONLAIR_SERVICES_DIR:-}}
    if [ -z "$dir" ] || [ ! -f "$dir/ports" ]; then
        echo "services.sh stop: no services folder (give DIR or set DRAGONLAIR_SERVICES_DIR)" >&2
        exit 2
    fi
    # shellcheck disable=SC1091
    . "$dir/ports"
    if [ -f "$dir/pg/data/postmaster.pid" ]; then
        as_owner "$PG_BIN/pg_ctl" -D "$dir/pg/data" -m immediate -w stop >/dev/null || true
    fi
    if [ -s "$dir/redis/redis.pid" ]; then
        local pid
        pid=$(cat "$dir/redis/redis.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:-}" ;;
    env)
        dir=${2:-${DRAGONLAIR_SERVICES_DIR:-}}
        [ -n "$dir" ] && [ -f "$dir/ports" ] || { echo "services.sh env: no services folder" >&2; exit 2; }
        print_env "$dir" ;;
    *) echo "usage: $0 start|stop [DIR]|env [DIR]" >&2; exit 2 ;;
esac
