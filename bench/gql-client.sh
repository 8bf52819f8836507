#!/bin/sh
# The Python `gql` client (PyPI) against `musicgraph serve --demo`: builds its client schema
# from our introspection (fetch_schema_from_transport=True), validates and runs a query.
# Installs gql 4 (graphql-core 3.3, which knows the DIRECTIVE_DEFINITION location our
# introspection lists for @deprecated; gql 3 with graphql-core 3.2 rejects it) in a virtualenv
# under bench/out/gql-venv.
#
# Usage: bench/gql-client.sh [--bin PATH]      (default .build/release/musicgraph; nothing is built)
set -eu
bin=.build/release/musicgraph
while [ $# -gt 0 ]; do
  case $1 in
    --bin) [ $# -ge 2 ] || { echo "$0: --bin needs a path" >&2; exit 2; }; bin=$(realpath -m -- "$2"); shift 2 ;;
    --bin=*) bin=$(realpath -m -- "${1#--bin=}"); shift ;;
    -h | --help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "$0: unexpected argument $1: name the binary with --bin PATH (see --help)" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
venv=bench/out/gql-venv
if [ ! -x "$venv/bin/python" ]; then
  mkdir -p bench/out
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet 'gql[requests]>=4,<5'
fi
"$venv/bin/python" - "$bin" <<'PY'
import sys
sys.path.insert(0, "bench")
from gateway_procs import start, stop
from gql import Client, gql
from gql.transport.requests import RequestsHTTPTransport

server, url = start([sys.argv[1], "serve", "--demo", "--store", "memory", "--port", "0"])
try:
    client = Client(transport=RequestsHTTPTransport(url=url, timeout=300), fetch_schema_from_transport=True)
    with client as session:
        schema = client.schema
        assert schema is not None and "Artist" in schema.type_map, "no client schema"
        assert [v for v in schema.type_map["CatalogSource"].values] == ["ITUNES", "APPLE_MUSIC", "RAKUTEN"]
        result = session.execute(gql('{ artist(name: "AC/DC") { id name albums(first: 2) { title } } }'))
        assert result["artist"]["name"] == "AC/DC", result
        assert [a["title"] for a in result["artist"]["albums"]] == [
            "For Those About To Rock We Salute You", "Let There Be Rock"], result
        try:
            session.execute(gql("{ artist(name: \"x\") { nope } }"))
            raise SystemExit("gql accepted a field the schema does not have")
        except Exception as error:  # gql validates locally against the fetched schema
            assert "nope" in str(error), error
    print(f"gql {__import__('gql').__version__}: client schema from introspection ({len(schema.type_map)} types), query answered:", result)
finally:
    stop(server)
PY
