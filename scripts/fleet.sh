#!/bin/sh
# A fleet on loopback: one redis-server (the shared store), N `musicgraph serve` instances (all
# `--store redis://…`, all pointed at one `demo-upstream`) and nginx (Debian) balancing them
# round-robin. `start` prints the URL; `stop` ends what `start` began (by the pid files in DIR).
#
#   scripts/fleet.sh start BIN [N]     (make fleet; N defaults to 2)
#   scripts/fleet.sh stop              (make fleet-stop)
#
# Environment: FLEET_DIR (state: pid files, logs, nginx.conf; default .build/fleet),
# FLEET_PORT (nginx, default 8080), FLEET_REDIS_PORT (default 6390), FLEET_BASE_PORT (the
# demo-upstream's port; instance i listens on FLEET_BASE_PORT + i; default 8100),
# FLEET_SERVE_FLAGS (more flags for every instance; default --daily-quota youtube=0, as the demo
# upstream has no quota to protect).
set -eu
DIR=${FLEET_DIR:-.build/fleet}
PORT=${FLEET_PORT:-8080}
REDIS_PORT=${FLEET_REDIS_PORT:-6390}
BASE_PORT=${FLEET_BASE_PORT:-8100}
SERVE_FLAGS=${FLEET_SERVE_FLAGS:---daily-quota youtube=0}

wait_for() {  # URL: until it answers 200, at most 30 s
    tries=0
    until curl -sf -o /dev/null "$1"; do
        tries=$((tries + 1))
        [ "$tries" -lt 300 ] || { echo "fleet: $1 did not come up; logs in $DIR" >&2; exit 1; }
        sleep 0.1
    done
}

stop_fleet() {
    for pidfile in "$DIR"/*.pid; do
        [ -f "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        kill "$pid" 2>/dev/null || true
        rm -f "$pidfile"
    done
}

case "${1:-}" in
start)
    BIN=${2:?usage: fleet.sh start BIN [N]}
    N=${3:-2}
    for tool in redis-server nginx curl; do
        command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || {
            echo "fleet: $tool is missing (Debian: apt-get install -y redis-server nginx curl)" >&2
            exit 1
        }
    done
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)
    mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd)
    stop_fleet
    # Sized so responses, not the day's quota counters (hot, tiny), are what eviction drops.
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
        --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --maxmemory 256mb --maxmemory-policy volatile-lru
    "$BIN" demo-upstream --port "$BASE_PORT" >"$DIR/demo-upstream.log" 2>&1 &
    echo $! >"$DIR/demo-upstream.pid"
    wait_for "http://127.0.0.1:$BASE_PORT/__demo/requests"
    upstreams=""
    i=1
    while [ "$i" -le "$N" ]; do
        port=$((BASE_PORT + i))
        # shellcheck disable=SC2086 # SERVE_FLAGS is a list of flags
        YOUTUBE_API_KEY=demo TMDB_API_KEY=demo APPLE_MUSIC_TOKEN=demo RAKUTEN_APP_ID=demo \
            "$BIN" serve --port "$port" --upstream "http://127.0.0.1:$BASE_PORT" \
            --store "redis://127.0.0.1:$REDIS_PORT" $SERVE_FLAGS >"$DIR/gateway-$i.log" 2>&1 &
        echo $! >"$DIR/gateway-$i.pid"
        upstreams="$upstreams        server 127.0.0.1:$port;
"
        i=$((i + 1))
    done
    i=1
    while [ "$i" -le "$N" ]; do
        wait_for "http://127.0.0.1:$((BASE_PORT + i))/healthz"
        i=$((i + 1))
    done
    cat >"$DIR/nginx.conf" <<CONF
daemon on;
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $DIR/nginx-body;
    proxy_temp_path $DIR/nginx-proxy;
    fastcgi_temp_path $DIR/nginx-fastcgi;
    uwsgi_temp_path $DIR/nginx-uwsgi;
    scgi_temp_path $DIR/nginx-scgi;
    upstream musicgraph {
$upstreams        keepalive 64;
    }
    server {
        listen 127.0.0.1:$PORT;
        location / {
            proxy_pass http://musicgraph;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_read_timeout 600s;
        }
    }
}
CONF
    "$NGINX" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log"
    wait_for "http://127.0.0.1:$PORT/healthz"
    echo "fleet: $N gateways behind nginx, redis on 127.0.0.1:$REDIS_PORT, demo-upstream on 127.0.0.1:$BASE_PORT"
    echo "fleet: GraphQL at http://127.0.0.1:$PORT/graphql"
    ;;
stop)
    stop_fleet
    echo "fleet: stopped"
    ;;
*)
    echo "usage: fleet.sh start BIN [N] | stop" >&2
    exit 2
    ;;
esac
