#!/usr/bin/env bash
# Throughput of a cached query over loopback: the real gateway (`musicgraph serve`, pointed at
# `musicgraph demo-upstream` running as a separate process) answering a repeated artist query,
# versus a bare libmicrohttpd daemon (bench/bare_mhd.c, same daemon flags) answering the very
# same response bytes, on the same machine in the same run. Load: wrk, 2 threads, CONNECTIONS
# keep-alive connections (default 64), DURATION seconds per run, RUNS alternating runs each
# (medians reported). The headline is the ratio ours/bare of requests per second (target
# >= 0.5) and the gateway's peak RSS (VmHWM) over the whole load (target < 60 MB).
#
# The cached query is warmed by one request; every measured request then makes 0 upstream
# requests (checked before and after the load). By default the gateway answers it from its
# result cache (the result kept beside the upstream responses it was read from). More rows
# locate the cost:
#   - the same gateway with --no-result-cache: every request executes (resolvers, DataLoaders,
#     decoding the cached upstream bodies) from the upstream response cache;
#   - `musicgraph bench-gqlhttp serve`: the GraphQLHTTP stack over static data (negotiation,
#     JSON body, document cache, execution, metrics, log line), with the same query shape and
#     with `{ __typename }`;
#   - `musicgraph bench-http serve`: our HTTPServer alone (a fixed 1 kB body, no GraphQL).
# Every server logs one JSON line per request to stderr, as in production; they go to /dev/null.
#
# Usage: bench/http-gateway.sh [--bin PATH] [DURATION] [CONNECTIONS] [RUNS]      (defaults 10 64 3)
#        --bin names the musicgraph binary and skips the release build (default: build, then
#        .build/release/musicgraph).
# Env:   MUSICGRAPH=path/to/musicgraph as --bin (--bin wins).
# Needs: wrk (Debian/Ubuntu package `wrk`: `apt-get install -y wrk`, as root or with sudo),
#        gcc, pkg-config, libmicrohttpd-dev, curl.
set -euo pipefail
# The binary: --bin PATH (relative to where the script is run), else MUSICGRAPH, else the release
# build made here. --help prints the lines above; other options are refused (bin_option.sh).
source "$(dirname "$0")/bin_option.sh" "$@"
set -- ${ARGS[@]+"${ARGS[@]}"}
cd "$(dirname "$0")/.."

DURATION=${1:-10}
CONNECTIONS=${2:-64}
RUNS=${3:-3}
command -v wrk >/dev/null || { echo "wrk is missing: install it with apt-get install -y wrk (as root)" >&2; exit 1; }
if [[ -z "$BIN" ]]; then
  swift build -c release --product musicgraph >&2
  BIN=.build/release/musicgraph
fi
MUSICGRAPH=$BIN

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

gcc -O2 -o "$WORK/bare_mhd" bench/bare_mhd.c $(pkg-config --cflags --libs libmicrohttpd)

wait_for_port() {  # FILE -> prints the port once "port N" appears
  for _ in $(seq 400); do
    if grep -q '^port ' "$1" 2>/dev/null; then awk '/^port /{print $2; exit}' "$1"; return; fi
    sleep 0.05
  done
  echo "server did not start ($1)" >&2
  exit 1
}

wait_for_url() {  # FILE -> prints the URL once the server's first stdout line appears
  for _ in $(seq 400); do
    if [[ -s "$1" ]]; then head -1 "$1" | awk '{print $NF}'; return; fi
    sleep 0.05
  done
  echo "server did not start ($1)" >&2
  exit 1
}

post_json() {  # URL BODYFILE OUTFILE -> prints the HTTP status
  curl --silent --show-error -o "$3" -w '%{http_code}' -H 'Content-Type: application/json' \
    -H 'Accept: application/graphql-response+json' --data-binary @"$2" "$1"
}

write_lua() {  # BODYFILE LUAFILE
  cat >"$2" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json"
local file = io.open("$1", "rb")
wrk.body = file:read("*a")
file:close()
LUA
}

QUERY='{ artist(name: \"AC/DC\") { name genre albums(first: 3) { title releaseDate trackCount } } }'
printf '%s' "{\"query\":\"$QUERY\"}" >"$WORK/cached.json"
write_lua "$WORK/cached.json" "$WORK/cached.lua"

# DemoUpstream in a process of its own, so the gateway's RSS is the gateway's.
"$MUSICGRAPH" demo-upstream --port 0 >"$WORK/upstream.out" 2>/dev/null &
PIDS+=($!)
UPSTREAM_URL=$(wait_for_url "$WORK/upstream.out")
export YOUTUBE_API_KEY=demo TMDB_API_KEY=demo APPLE_MUSIC_TOKEN=demo RAKUTEN_APP_ID=demo

"$MUSICGRAPH" serve --port 0 --upstream "$UPSTREAM_URL" --store memory >"$WORK/gateway.out" 2>/dev/null &
GATEWAY_PID=$!
PIDS+=($!)
GATEWAY_URL=$(wait_for_url "$WORK/gateway.out")
"$MUSICGRAPH" serve --port 0 --upstream "$UPSTREAM_URL" --store memory --no-result-cache >"$WORK/executing.out" 2>/dev/null &
EXECUTING_PID=$!
PIDS+=($!)
EXECUTING_URL=$(wait_for_url "$WORK/executing.out")
for url in "$GATEWAY_URL" "$EXECUTING_URL"; do
  for attempt in 1 2; do
    [[ "$(post_json "$url" "$WORK/cached.json" "$WORK/warm.$attempt.out")" == 200 ]] \
      || { echo "$url answered: $(cat "$WORK/warm.$attempt.out")" >&2; exit 1; }
  done
  grep -q '"upstream":{"requests":0,' "$WORK/warm.2.out" \
    || { echo "the repeated query was not served from the cache: $(cat "$WORK/warm.2.out")" >&2; exit 1; }
done
# What bare libmicrohttpd answers: the gateway's own bytes for the cached query.
cp "$WORK/warm.2.out" "$WORK/response.json"

"$WORK/bare_mhd" "$WORK/response.json" >"$WORK/bare.out" &
PIDS+=($!)
BARE_URL="http://127.0.0.1:$(wait_for_port "$WORK/bare.out")/graphql"

"$MUSICGRAPH" bench-gqlhttp serve >"$WORK/static.out" 2>/dev/null &
PIDS+=($!)
STATIC_URL="http://127.0.0.1:$(wait_for_port "$WORK/static.out")/graphql"
STATIC_QUERY='{ artist(name: \"AC/DC\") { name genre albums(first: 3) { title year trackCount } } }'
printf '%s' "{\"query\":\"$STATIC_QUERY\"}" >"$WORK/static.json"
write_lua "$WORK/static.json" "$WORK/static.lua"
printf '%s' '{"query":"{ __typename }"}' >"$WORK/typename.json"
write_lua "$WORK/typename.json" "$WORK/typename.lua"
[[ "$(post_json "$STATIC_URL" "$WORK/static.json" "$WORK/static.response")" == 200 ]] \
  || { echo "bench-gqlhttp answered: $(cat "$WORK/static.response")" >&2; exit 1; }

"$MUSICGRAPH" bench-http serve >"$WORK/plain.out" 2>/dev/null &
PIDS+=($!)
PLAIN_URL="http://127.0.0.1:$(wait_for_port "$WORK/plain.out")/graphql"

run_wrk() {  # URL OUTFILE LUA
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$3" "$1" >"$2"
}

# Short warm-ups (page faults, caches, connection set-up), then alternating measured runs.
for url in "$GATEWAY_URL" "$BARE_URL" "$EXECUTING_URL"; do
  wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/cached.lua" "$url" >/dev/null
done
for run in $(seq "$RUNS"); do
  run_wrk "$GATEWAY_URL" "$WORK/gateway.$run.txt" "$WORK/cached.lua"
  run_wrk "$BARE_URL" "$WORK/bare.$run.txt" "$WORK/cached.lua"
  run_wrk "$EXECUTING_URL" "$WORK/executing.$run.txt" "$WORK/cached.lua"
  run_wrk "$STATIC_URL" "$WORK/static.$run.txt" "$WORK/static.lua"
  run_wrk "$STATIC_URL" "$WORK/typename.$run.txt" "$WORK/typename.lua"
  run_wrk "$PLAIN_URL" "$WORK/plain.$run.txt" "$WORK/cached.lua"
done
PEAK_RSS_KB=$(awk '/^VmHWM:/{print $2}' "/proc/$GATEWAY_PID/status")
EXECUTING_RSS_KB=$(awk '/^VmHWM:/{print $2}' "/proc/$EXECUTING_PID/status")
post_json "$GATEWAY_URL" "$WORK/cached.json" "$WORK/after.out" >/dev/null
grep -q '"upstream":{"requests":0,' "$WORK/after.out" \
  || { echo "the cached query went upstream after the load: $(cat "$WORK/after.out")" >&2; exit 1; }

python3 - "$WORK" "$RUNS" "$PEAK_RSS_KB" "$(wc -c <"$WORK/response.json")" "$EXECUTING_RSS_KB" <<'PY'
import re, statistics, sys
work, runs, peak_kb, body_bytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
executing_kb = int(sys.argv[5])
units = {"us": 0.001, "ms": 1.0, "s": 1000.0}
def parse(path):
    text = open(path).read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", text, re.M).groups()
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    socket_errors = re.search(r"Socket errors: (.*)", text)
    return rps, float(value) * units[unit], int(errors.group(1)) if errors else 0, socket_errors.group(1) if socket_errors else ""
def summary(name):
    rows = [parse(f"{work}/{name}.{i}.txt") for i in range(1, runs + 1)]
    bad = [r for r in rows if r[2] or r[3]]
    if bad:
        print(f"{name}: non-2xx or socket errors: {bad}", file=sys.stderr)
    return statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows), [round(r[0]) for r in rows]
ours, bare = summary("gateway"), summary("bare")
executing, static = summary("executing"), summary("static")
typename, plain = summary("typename"), summary("plain")
ratio = ours[0] / bare[0]
def row(name, r):
    print(f"{name:<40}{r[0]:9.0f} req/s  p99 {r[1]:6.2f} ms  {r[0] / bare[0]:5.2f} of bare  runs {r[2]}")
print(f"cached query: {body_bytes}-byte response, 0 upstream requests during the load")
row("gateway, cached query (result cache)", ours)
row("bare libmicrohttpd, same bytes", bare)
row("gateway --no-result-cache (executes)", executing)
row("GraphQLHTTP stack over static data", static)
row("GraphQLHTTP stack, { __typename }", typename)
row("HTTPServer alone (1 kB body)", plain)
print(f"ratio ours/bare: {ratio:.2f} (target >= 0.5)")
print(f"gateway peak RSS under load: {peak_kb / 1024:.1f} MB (target < 60 MB); "
      f"with --no-result-cache: {executing_kb / 1024:.1f} MB")
print('{"ours_rps":%.0f,"ours_p99_ms":%.2f,"bare_rps":%.0f,"bare_p99_ms":%.2f,"ratio":%.3f,"peak_rss_mb":%.1f,'
      '"executing_rps":%.0f,"static_stack_rps":%.0f,"typename_rps":%.0f,"httpserver_only_rps":%.0f}'
      % (ours[0], ours[1], bare[0], bare[1], ratio, peak_kb / 1024, executing[0], static[0], typename[0], plain[0]))
PY
