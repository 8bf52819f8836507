#!/bin/sh
# Prints the swift build flags that tell the musicgraph binary its commit (`musicgraph
# --version`); prints nothing outside a git checkout or off Linux, and the binary then says
# its commit is unknown. The linker defines the absolute symbol musicgraph_build_commit, whose
# value is the first 12 hex digits of HEAD, bit 48 set (never 0) and bit 49 set when tracked
# files differ from HEAD (Sources/musicgraph/BuildInfo.swift reads it back with dlsym). Link
# flags, not a generated source file: a changed value relinks the binary and recompiles nothing,
# and a plain `swift build` cannot pick up a stale commit.
set -eu
cd "$(dirname "$0")/.."
[ "$(uname -s)" = Linux ] || exit 0
head=$(git rev-parse --verify --quiet HEAD 2>/dev/null) || exit 0
flags=$((1 << 48))
# Read-only: no index refresh, so a build never takes git's lock from someone committing.
if [ -n "$(GIT_OPTIONAL_LOCKS=0 git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    flags=$((flags | 1 << 49))
fi
value=$(printf '0x%x' $((flags | 0x$(printf '%.12s' "$head"))))
echo "-Xlinker --defsym=musicgraph_build_commit=$value -Xlinker --export-dynamic-symbol=musicgraph_build_commit"
