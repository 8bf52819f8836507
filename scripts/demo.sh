#!/bin/sh
# `make demo`: starts the gateway on the bundled demo catalog (`musicgraph serve --demo`,
# DemoUpstream in-process, no network or keys needed), POSTs a nested query to /graphql,
# prints the JSON answer and stops the server.
set -eu
bin=${1:?usage: scripts/demo.sh PATH/TO/musicgraph [QUERY_FILE]}
query_file=${2:-examples/artist-albums-tracks-videos.graphql}
out=$(mktemp)
trap 'kill "$pid" 2>/dev/null || true; rm -f "$out"' EXIT INT TERM

"$bin" serve --demo --store memory --port 0 >"$out" 2>/dev/null &
pid=$!
for _ in $(seq 1 100); do
  grep -q 'serving' "$out" 2>/dev/null && break
  sleep 0.1
done
url=$(awk '/serving/ {print $3}' "$out")
[ -n "$url" ] || { echo "demo: the gateway did not start" >&2; exit 1; }
echo "== musicgraph serve --demo: listening on $url"
echo "== POST $url with $query_file:"
sed 's/^/   /' "$query_file"
echo "== response:"
python3 - "$url" "$query_file" <<'PY'
import json, sys, urllib.request
url, path = sys.argv[1], sys.argv[2]
body = json.dumps({"query": open(path).read()}).encode()
request = urllib.request.Request(url, body, {"Content-Type": "application/json", "Accept": "application/graphql-response+json"})
with urllib.request.urlopen(request, timeout=300) as response:
    print(json.dumps(json.load(response), indent=2, ensure_ascii=False))
PY
