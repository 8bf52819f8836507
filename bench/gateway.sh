#!/usr/bin/env bash
# MusicGraph beside the gateway a user would otherwise pick: graphql-js 16 on Node 20
# (../shared/bench/gateway-js, same schema, same upstream URLs, DataLoader-style loaders), both
# against one `musicgraph demo-upstream` process per phase, in the same run. It drives the peer's
# own bench.sh (which starts and stops every process by PID) with our release binary, then
# bench/gateway_ratios.py prints the four rows of issue 15 and the ratios:
#   - `{ __typename }` (Q3), wrk -t2 -c64: req/s and server CPU µs per query, ours
#     (`serve --no-result-cache`) vs gateway-js (no cache);
#   - `albums(term: "rock", first: 50) { id title artist { id name } }` (Q1) and the same with
#     `title` only (Q2), executing every request: ours `--no-result-cache` (upstream responses from
#     its cache) vs gateway-js `--cache` (its upstream response LRU);
#   - the cold nested Iron Maiden query (153 upstream requests) with 50 ms per upstream request:
#     a fresh server per run, ours (default flags) vs gateway-js (default: searches not capped);
#   - Q1 ÷ Q3 and Q2 ÷ Q3 of req/s per server (how close a fan-out gets to the no-I/O rate).
# Ratios are ours ÷ theirs for req/s (target >= 1.5) and for latency (target <= 0.7).
#
# Usage: bench/gateway.sh [--bin PATH] [PASSES] [LAT_RUNS] [DURATION]   (defaults 1 3 5: ~3 minutes)
#        --bin names the musicgraph binary and skips the release build (default: build, then
#        .build/release/musicgraph).
# Env:   MUSICGRAPH=path/to/musicgraph as --bin (--bin wins); SHARED (default ../shared);
#        QUIET_MAX (default 5: seconds to wait for an idle machine before each measurement; the
#        peer's default is 45) and everything else the peer's bench.sh reads (PHASES, WARM_S, …).
# Needs: node (Debian `nodejs`) with `node-graphql`, wrk, curl, python3:
#        `apt-get install -y nodejs node-graphql wrk curl python3` (as root).
# Output: the peer's tables, then the rows and ratios; JSON lines in bench/out/gateway/.
set -euo pipefail
# The binary: --bin PATH (relative to where the script is run), else MUSICGRAPH, else the release
# build made here. --help prints the lines above; other options are refused (bin_option.sh).
source "$(dirname "$0")/bin_option.sh" "$@"
set -- ${ARGS[@]+"${ARGS[@]}"}
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SHARED=${SHARED:-../shared}
PEER="$SHARED/bench/gateway-js/bench.sh"
[[ -f "$PEER" ]] || { echo "no gateway-js peer at $PEER (set SHARED)" >&2; exit 1; }
if [[ -z "$BIN" ]]; then
  swift build -c release --product musicgraph >&2
  BIN=$ROOT/.build/release/musicgraph
fi
export MUSICGRAPH=$(realpath "$BIN") MUSICGRAPH_SCHEMA=$ROOT/schema.graphql
export RESULTS_DIR=${RESULTS_DIR:-$ROOT/bench/out/gateway}
export LAT_SERVERS=${LAT_SERVERS:-swift js} TP_SERVERS=${TP_SERVERS:-swift-nrc js js-cache}
export QUIET_MAX=${QUIET_MAX:-5}
# DemoUpstream has no quota to protect and the peer keeps none: without this the nested query's
# 150 YouTube searches (100 units each) would cross our default youtube=10000 on its first run.
export MUSICGRAPH_DAILY_QUOTA=${MUSICGRAPH_DAILY_QUOTA:-youtube=0}
# The peer's script starts our serve without --store: each run's cache and quota in its memory,
# never in the default store file, where the last run's responses would make a cold query warm.
export MUSICGRAPH_STORE=${MUSICGRAPH_STORE:-memory}
mkdir -p "$RESULTS_DIR"
marker=$(mktemp)
trap 'rm -f "$marker"' EXIT
# The machine is shared: the load beside the figures says how far to trust them.
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
bash "$PEER" "${1:-1}" "${2:-3}" "${3:-5}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
results=$(find "$RESULTS_DIR" -name 'run-*.jsonl' -newer "$marker" | sort | tail -1)
[[ -n "$results" ]] || { echo "the peer's bench.sh wrote no results" >&2; exit 1; }
echo
python3 bench/gateway_ratios.py "$results"
