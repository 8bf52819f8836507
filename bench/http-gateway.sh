#!/usr/bin/env bash
# GraphQL-over-HTTP throughput: a static GraphQL query POSTed to our /graphql (the whole
# GraphQLHTTP stack: Accept negotiation, JSON body, document cache, execution over static data,
# metrics, one log line per request) versus a bare libmicrohttpd daemon (bench/bare_mhd.c, same
# daemon flags) answering the very same response bytes, on the same machine in the same run.
# Load: wrk, 2 threads, CONNECTIONS keep-alive connections (default 64), DURATION seconds per
# run, RUNS alternating runs each (medians reported). Also reports the gateway's peak RSS
# (VmHWM) over the whole load, and the ratio ours/bare of requests per second (target >= 0.5).
# Two more rows locate the gap: the same server answering `{ __typename }` (HTTP layer with
# almost no execution), and our HTTPServer alone (`musicgraph bench-http serve`, a fixed 1 kB
# body, no GraphQL at all). A last row is the real gateway, `musicgraph serve --demo`, answering
# an artist query from its upstream response cache (warmed by one request; every measured
# request then makes 0 upstream requests): the full resolver and DataLoader path, with its own
# peak RSS (it includes the in-process demo catalog).
#
# Usage: bench/http-gateway.sh [DURATION] [CONNECTIONS] [RUNS]      (defaults 10 64 3)
# Env:   MUSICGRAPH=path/to/musicgraph to skip the release build.
# Needs: wrk (Debian/Ubuntu package `wrk`: `apt-get install -y wrk`, as root or with sudo),
#        gcc, pkg-config, libmicrohttpd-dev, curl.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-10}
CONNECTIONS=${2:-64}
RUNS=${3:-3}
command -v wrk >/dev/null || { echo "wrk is missing: install it with apt-get install -y wrk (as root)" >&2; exit 1; }
if [[ -z "${MUSICGRAPH:-}" ]]; then
  swift build -c release --product musicgraph >&2
  MUSICGRAPH=.build/release/musicgraph
fi

WORK=$(mktemp -d)
GATEWAY_PID=""
BARE_PID=""
PLAIN_PID=""
DEMO_PID=""
cleanup() {
  if [[ -n "$GATEWAY_PID" ]]; then kill "$GATEWAY_PID" 2>/dev/null || true; fi
  if [[ -n "$DEMO_PID" ]]; then kill "$DEMO_PID" 2>/dev/null || true; fi
  if [[ -n "$PLAIN_PID" ]]; then kill "$PLAIN_PID" 2>/dev/null || true; fi
  if [[ -n "$BARE_PID" ]]; then kill "$BARE_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

gcc -O2 -o "$WORK/bare_mhd" bench/bare_mhd.c $(pkg-config --cflags --libs libmicrohttpd)

wait_for_port() {  # FILE -> prints the port once "port N" appears
  for _ in $(seq 200); do
    if grep -q '^port ' "$1" 2>/dev/null; then awk '/^port /{print $2; exit}' "$1"; return; fi
    sleep 0.05
  done
  echo "server did not start ($1)" >&2
  exit 1
}

# The gateway logs one JSON line per request to stderr, as in production; they go to /dev/null.
"$MUSICGRAPH" bench-gqlhttp serve >"$WORK/gateway.out" 2>/dev/null &
GATEWAY_PID=$!
GATEWAY_PORT=$(wait_for_port "$WORK/gateway.out")

QUERY='{ artist(name: \"AC/DC\") { name genre albums(first: 3) { title year trackCount } } }'
BODY="{\"query\":\"$QUERY\"}"
printf '%s' "$BODY" >"$WORK/request.json"
curl --silent --show-error -o "$WORK/response.json" -w '%{http_code}' \
  -H 'Content-Type: application/json' -H 'Accept: application/graphql-response+json' \
  --data-binary @"$WORK/request.json" "http://127.0.0.1:$GATEWAY_PORT/graphql" >"$WORK/status"
[[ "$(cat "$WORK/status")" == 200 ]] || { echo "gateway answered $(cat "$WORK/status")" >&2; exit 1; }

"$WORK/bare_mhd" "$WORK/response.json" >"$WORK/bare.out" &
BARE_PID=$!
BARE_PORT=$(wait_for_port "$WORK/bare.out")

"$MUSICGRAPH" bench-http serve >"$WORK/plain.out" 2>/dev/null &
PLAIN_PID=$!
PLAIN_PORT=$(wait_for_port "$WORK/plain.out")

# The real gateway on the demo catalog: one request fills the upstream cache, the next must be
# answered from it alone.
"$MUSICGRAPH" serve --demo --port 0 >"$WORK/demo.out" 2>/dev/null &
DEMO_PID=$!
for _ in $(seq 200); do [[ -s "$WORK/demo.out" ]] && break; sleep 0.05; done
DEMO_URL=$(head -1 "$WORK/demo.out" | awk '{print $NF}')
[[ -n "$DEMO_URL" ]] || { echo "serve --demo did not start" >&2; exit 1; }
DEMO_PORT=$(echo "$DEMO_URL" | sed -E 's#.*:([0-9]+)/.*#\1#')
printf '%s' '{"query":"{ artist(name: \"AC/DC\") { name genre albums(first: 3) { title releaseDate trackCount } } }"}' \
  >"$WORK/cached.json"
for attempt in 1 2; do
  curl --silent --show-error -o "$WORK/cached.$attempt.out" -H 'Content-Type: application/json' \
    -H 'Accept: application/graphql-response+json' --data-binary @"$WORK/cached.json" "$DEMO_URL"
done
grep -q '"upstream":{"requests":0,' "$WORK/cached.2.out" \
  || { echo "the repeated query was not served from the cache: $(cat "$WORK/cached.2.out")" >&2; exit 1; }

printf '%s' '{"query":"{ __typename }"}' >"$WORK/typename.json"
cat >"$WORK/typename.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json"
local file = io.open("$WORK/typename.json", "rb")
wrk.body = file:read("*a")
file:close()
LUA

cat >"$WORK/cached.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json"
local file = io.open("$WORK/cached.json", "rb")
wrk.body = file:read("*a")
file:close()
LUA

cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json"
local file = io.open("$WORK/request.json", "rb")
wrk.body = file:read("*a")
file:close()
LUA

run_wrk() {  # PORT OUTFILE [LUA]
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "${3:-$WORK/post.lua}" "http://127.0.0.1:$1/graphql" >"$2"
}

# Short warm-ups (page faults, caches, connection set-up), then alternating measured runs.
wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/post.lua" "http://127.0.0.1:$GATEWAY_PORT/graphql" >/dev/null
wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/post.lua" "http://127.0.0.1:$BARE_PORT/graphql" >/dev/null
wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/cached.lua" "http://127.0.0.1:$DEMO_PORT/graphql" >/dev/null
for run in $(seq "$RUNS"); do
  run_wrk "$GATEWAY_PORT" "$WORK/gateway.$run.txt"
  run_wrk "$BARE_PORT" "$WORK/bare.$run.txt"
  run_wrk "$GATEWAY_PORT" "$WORK/typename.$run.txt" "$WORK/typename.lua"
  run_wrk "$PLAIN_PORT" "$WORK/plain.$run.txt"
  run_wrk "$DEMO_PORT" "$WORK/cached.$run.txt" "$WORK/cached.lua"
done
PEAK_RSS_KB=$(awk '/^VmHWM:/{print $2}' "/proc/$GATEWAY_PID/status")
DEMO_RSS_KB=$(awk '/^VmHWM:/{print $2}' "/proc/$DEMO_PID/status")

python3 - "$WORK" "$RUNS" "$PEAK_RSS_KB" "$(wc -c <"$WORK/response.json")" "$DEMO_RSS_KB" <<'PY'
import re, statistics, sys
work, runs, peak_kb, body_bytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
demo_kb = int(sys.argv[5])
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
typename, plain = summary("typename"), summary("plain")
cached = summary("cached")
ratio = ours[0] / bare[0]
print(f"response body: {body_bytes} bytes")
print(f"ours  /graphql : {ours[0]:10.0f} req/s   p99 {ours[1]:7.2f} ms   runs {ours[2]}")
print(f"bare  MHD      : {bare[0]:10.0f} req/s   p99 {bare[1]:7.2f} ms   runs {bare[2]}")
print(f"ours  __typename: {typename[0]:10.0f} req/s   p99 {typename[1]:7.2f} ms   runs {typename[2]}")
print(f"HTTPServer only: {plain[0]:10.0f} req/s   p99 {plain[1]:7.2f} ms   runs {plain[2]}")
print(f"serve --demo, upstream cache: {cached[0]:10.0f} req/s   p99 {cached[1]:7.2f} ms   runs {cached[2]}")
print(f"ratio ours/bare: {ratio:.2f} (target >= 0.5); __typename/bare {typename[0] / bare[0]:.2f}; "
      f"HTTPServer-only/bare {plain[0] / bare[0]:.2f}")
print(f"gateway peak RSS: {peak_kb / 1024:.1f} MB (target < 60 MB)")
print(f"serve --demo: ratio to bare {cached[0] / bare[0]:.2f}, peak RSS {demo_kb / 1024:.1f} MB (with the demo catalog)")
print('{"ours_rps":%.0f,"ours_p99_ms":%.2f,"bare_rps":%.0f,"bare_p99_ms":%.2f,"ratio":%.3f,"peak_rss_mb":%.1f,'
      '"typename_rps":%.0f,"httpserver_only_rps":%.0f,"serve_demo_cached_rps":%.0f,"serve_demo_cached_p99_ms":%.2f,'
      '"serve_demo_peak_rss_mb":%.1f}'
      % (ours[0], ours[1], bare[0], bare[1], ratio, peak_kb / 1024, typename[0], plain[0], cached[0], cached[1],
         demo_kb / 1024))
PY
