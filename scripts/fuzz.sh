#!/bin/sh
# Runs each libFuzzer target of fuzz/ for SECONDS on its corpus (fuzz/.corpus/TARGET, seeded by
# scripts/fuzz-seeds.py; new inputs are added to it) and prints one line per target: executions,
# seconds, executions per second. A crash, leak, timeout or out-of-memory input is kept as
# fuzz/.runs/TARGET/crash-* (or leak-, timeout-, oom-; FUZZ_RUNS moves fuzz/.runs) and makes the
# run fail.
# Usage: scripts/fuzz.sh BIN_DIR SECONDS TARGET...
set -u
bin=$(cd "$1" && pwd) || exit 1
seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
# Where the logs and findings go (FUZZ_RUNS, default fuzz/.runs).
runs_root=${FUZZ_RUNS:-$root/fuzz/.runs}
failed=""
# No LeakSanitizer (per input or at exit): it misses pointers Swift keeps in enum payloads with
# tag bits, so it reports the boxes of `static let`s (IntrospectionTypes.__Schema) as direct leaks.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
for target in "$@"; do
    runs="$runs_root/$target"
    mkdir -p "$runs" "$root/fuzz/.corpus/$target"
    # -max_len: documents and bodies up to 8 KiB reach every rule; larger inputs only slow the run.
    (cd "$runs" && nice -n 19 "$bin/$target" -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 \
        -timeout=10 -print_final_stats=1 "$root/fuzz/.corpus/$target" >log 2>&1)
    status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$runs/log")
    time=$(sed -n 's/^stat::.*//; s/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$runs/log")
    echo "fuzz $target: ${execs:-?} executions in ${time:-?} s (exit $status)"
    if [ "$status" != 0 ]; then
        failed="$failed $target"
        grep -v '^#' "$runs/log" | head -40
    fi
done
if [ -n "$failed" ]; then
    echo "fuzz: findings in$failed (inputs in fuzz/.runs/TARGET/)"
    exit 1
fi
