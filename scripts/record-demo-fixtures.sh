#!/bin/sh
# `make recordings`: re-records examples/recordings/artist-albums-tracks-videos from the
# bundled DemoUpstream (`musicgraph query --demo --record DIR`), the fixture set that
# `--replay` and CLITests replay. Run it after a change to DemoUpstream's catalog or to the
# requests the providers make; the files' `url` lines name the port the demo had.
set -eu
bin=${1:?usage: scripts/record-demo-fixtures.sh PATH/TO/musicgraph}
query=examples/artist-albums-tracks-videos.graphql
dir=examples/recordings/artist-albums-tracks-videos
rm -rf "$dir"
"$bin" query --demo --store memory --record "$dir" "$query" >/dev/null
echo "recorded $(ls "$dir" | wc -l) exchanges ($(cat "$dir"/*.json | wc -c) bytes) in $dir"
