#!/usr/bin/env bash
# Soak (issue 16 item 9): SECONDS (default 60) at CONNECTIONS (default 64) keep-alive clients of
# mixed queries (nested, cached, bad documents, batches, searches on every provider) against
# `musicgraph serve` in front of `musicgraph demo-upstream` with one upstream request in ten
# faulted on every path (DemoUpstream `everyNth`). Checks every answer against a fault-free
# gateway's (a fault must be an error at the path of the null it leaves, data everywhere else),
# and prints requests by kind and status, the faults seen, answers breaking that rule (0), the
# gateway's RSS after the warm-up and at the end (at most +10%), its upstream request count and
# crashes (0). Exit status 1 when a check fails. See bench/soak.py for the details.
#
# Usage: bench/soak.sh [--bin PATH] [SECONDS] [CONNECTIONS] [WARMUP]   (defaults 60 64 150: the caches
#        fill first). --bin names the musicgraph binary and skips the release build (default:
#        build, then .build/release/musicgraph).
# Env:   MUSICGRAPH=path/to/musicgraph as --bin (--bin wins).
set -euo pipefail
# The binary: --bin PATH (relative to where the script is run), else MUSICGRAPH, else the release
# build made here. --help prints the lines above; other options are refused (bin_option.sh).
source "$(dirname "$0")/bin_option.sh" "$@"
set -- ${ARGS[@]+"${ARGS[@]}"}
cd "$(dirname "$0")/.."
SECONDS_=${1:-60}
CONNECTIONS=${2:-64}
if [[ -z "$BIN" ]]; then
  swift build -c release --product musicgraph >&2
  BIN=.build/release/musicgraph
fi
MUSICGRAPH=$BIN
exec python3 bench/soak.py --bin "$MUSICGRAPH" --seconds "$SECONDS_" --connections "$CONNECTIONS" --warmup "${3:-150}"
