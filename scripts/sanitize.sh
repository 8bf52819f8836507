#!/bin/sh
# Builds the tests with `--sanitize=SANITIZER` in SCRATCH (a build folder of its own, so the
# normal .build is never clobbered), runs TARGET… serially, and fails when any sanitizer report
# was written: ThreadSanitizer only warns and goes on by default, so a race in a test that
# passes would otherwise go unnoticed. Reports go to files (log_path), so that those of the
# processes the tests start (`musicgraph serve` of the same build) count too. Prints the build
# and test seconds. The test output is kept in SCRATCH/sanitize.log, reports in
# SCRATCH/sanitizer-reports/.
# Only the TARGETs and what they depend on are built (MUSICGRAPH_ONLY_TARGETS, read by
# Package.swift), with SANITIZE_ALSO's targets: `musicgraph` when the tests start it.
# SANITIZE_SKIP: a regular expression of tests not to run (swift test --skip).
# Usage: scripts/sanitize.sh thread|address SCRATCH TARGET...
set -u
sanitizer=$1
scratch=$2
shift 2
swift=${SWIFT:-swift}
filter=$(printf '%s\n' "$@" | paste -sd '|' -)
start=$(date +%s)
MUSICGRAPH_ONLY_TARGETS="$* ${SANITIZE_ALSO:-}"
export MUSICGRAPH_ONLY_TARGETS
"$swift" build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" || exit 1
built=$(date +%s)
reports=$(cd "$scratch" && pwd)/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
# halt_on_error=0: every report of the run is written, not only the first. No LeakSanitizer:
# see scripts/fuzz.sh (Swift's tagged enum payloads hide live pointers from it).
export TSAN_OPTIONS="halt_on_error=0:log_path=$reports/tsan${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export ASAN_OPTIONS="detect_leaks=0:log_path=$reports/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
"$swift" test --skip-build --no-parallel --sanitize="$sanitizer" --scratch-path "$scratch" \
    --filter "^($filter)\\." ${SANITIZE_SKIP:+--skip "$SANITIZE_SKIP"} >"$scratch/sanitize.log" 2>&1
status=$?
end=$(date +%s)
tail -n 3 "$scratch/sanitize.log"
count=$(cat "$reports"/* 2>/dev/null | grep -c -E '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: AddressSanitizer)')
echo "sanitize=$sanitizer: build $((built - start)) s, tests $((end - built)) s, $count reports, tests exit $status"
if [ "$count" != 0 ]; then
    cat "$reports"/* | grep -E -A 24 '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: AddressSanitizer)' | head -150
    echo "sanitize=$sanitizer: $count reports in $reports"
    exit 1
fi
exit "$status"
