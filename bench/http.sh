#!/usr/bin/env bash
# HTTP client benchmark: 1,000 GETs to a loopback HTTPServer (`musicgraph bench-http serve`),
# 64 in flight at a time, through our HTTPClient (`musicgraph bench-http get`) and through
# Debian's curl (`curl --parallel --parallel-max 64`), in the same run against the same server.
# Prints requests/s and p99 latency for both (median of RUNS runs each) and the ratio ours/curl.
#
# Usage: bench/http.sh [--bin PATH] [REQUESTS] [CONCURRENCY] [RUNS]      (defaults 1000 64 5)
#        --bin names the musicgraph binary and skips the release build (default: build, then
#        .build/release/musicgraph).
# Env:   MUSICGRAPH=path/to/musicgraph as --bin (--bin wins).
# Throughput is shown twice: per whole process (wall time, start-up included) and per transfer
# phase (ours: the client's own clock; curl: wall time minus the start-up of a one-request curl,
# measured in the same run). Latency is per request from the moment it is sent: curl's
# %{time_total}, our own clock.
set -euo pipefail
# The binary: --bin PATH (relative to where the script is run), else MUSICGRAPH, else the release
# build made here. --help prints the lines above; other options are refused (bin_option.sh).
source "$(dirname "$0")/bin_option.sh" "$@"
set -- ${ARGS[@]+"${ARGS[@]}"}
cd "$(dirname "$0")/.."

REQUESTS=${1:-1000}
CONCURRENCY=${2:-64}
RUNS=${3:-5}
if [[ -z "$BIN" ]]; then
  swift build -c release --product musicgraph >&2
  BIN=.build/release/musicgraph
fi
MUSICGRAPH=$BIN

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

"$MUSICGRAPH" bench-http serve >"$WORK/server.out" &
SERVER_PID=$!
for _ in $(seq 100); do
  grep -q '^port ' "$WORK/server.out" 2>/dev/null && break
  sleep 0.05
done
PORT=$(awk '/^port /{print $2}' "$WORK/server.out")
[[ -n "$PORT" ]] || { echo "server did not start" >&2; exit 1; }
URL="http://127.0.0.1:$PORT/search?term=acdc&entity=album"

# curl reads its 1,000 URLs from a config file; -w prints each transfer's total time in seconds.
for i in $(seq "$REQUESTS"); do
  printf 'url = "%s&i=%d"\noutput = "/dev/null"\n' "$URL" "$i"
done >"$WORK/curl.cfg"

for run in $(seq "$RUNS"); do
  start=$(date +%s.%N)
  "$MUSICGRAPH" bench-http get --url "$URL" --requests "$REQUESTS" --concurrency "$CONCURRENCY" >>"$WORK/ours.jsonl"
  end=$(date +%s.%N)
  echo "$start $end" >"$WORK/ours.$run.wall"
  start=$(date +%s.%N)
  curl --silent --show-error --no-progress-meter --parallel --parallel-max "$CONCURRENCY" -K "$WORK/curl.cfg" \
    -w '%{http_code} %{time_total}\n' >"$WORK/curl.$run.txt"
  end=$(date +%s.%N)
  echo "$start $end" >"$WORK/curl.$run.wall"
done

# curl's start-up and exit, to take out of its wall time: a one-request run minus its transfer.
for run in $(seq "$RUNS"); do
  start=$(date +%s.%N)
  transfer=$(curl --silent --output /dev/null -w '%{time_total}' "$URL")
  end=$(date +%s.%N)
  echo "$start $end $transfer" >>"$WORK/curl.startup"
done

python3 - "$WORK" "$RUNS" "$REQUESTS" "$CONCURRENCY" <<'PY'
import json, math, statistics, sys
work, runs, requests, concurrency = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def p99(values):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * 0.99) - 1)]

startup = statistics.median(end - start - float(transfer)
                            for start, end, transfer in (map(float, line.split()) for line in open(f"{work}/curl.startup")))

ours = [json.loads(line) for line in open(f"{work}/ours.jsonl")]
for run, result in enumerate(ours, start=1):
    start, end = map(float, open(f"{work}/ours.{run}.wall").read().split())
    result["transfer_rps"] = result["rps"]
    result["process_rps"] = result["requests"] / (end - start)

curl = []
for run in range(1, runs + 1):
    lines = [line.split() for line in open(f"{work}/curl.{run}.txt") if line.strip()]
    failures = sum(1 for code, _ in lines if code != "200")
    latencies_ms = [float(seconds) * 1000 for _, seconds in lines]
    start, end = map(float, open(f"{work}/curl.{run}.wall").read().split())
    curl.append({"requests": len(lines), "failures": failures, "process_rps": len(lines) / (end - start),
                 "transfer_rps": len(lines) / max(end - start - startup, 1e-6), "p99_ms": p99(latencies_ms)})

def summary(name, results):
    process = statistics.median(r["process_rps"] for r in results)
    transfer = statistics.median(r["transfer_rps"] for r in results)
    latency = statistics.median(r["p99_ms"] for r in results)
    failures = sum(r["failures"] for r in results)
    print(f"{name:<24} {transfer:>8.0f} req/s transfer  {process:>8.0f} req/s process  "
          f"p99 {latency:>7.2f} ms  failures {failures}")
    return transfer, process, latency

print(f"{requests} GETs, {concurrency} in flight, loopback HTTPServer, median of {runs} runs "
      f"(curl start-up {startup * 1000:.0f} ms)")
ours_t, ours_p, ours_l = summary("musicgraph HTTPClient", ours)
curl_t, curl_p, curl_l = summary("curl --parallel (7.88)", curl)
print(f"ratio ours/curl: transfer throughput {ours_t / curl_t:.2f}x, process throughput {ours_p / curl_p:.2f}x, "
      f"p99 latency {ours_l / curl_l:.2f}x (lower is better)")
PY
