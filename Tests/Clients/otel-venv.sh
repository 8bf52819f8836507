#!/bin/sh
# The Python environment of the tracing test's collector: opentelemetry-proto from PyPI (the
# official OTLP message definitions, with protobuf's json_format), in a virtualenv under bench/out/
# (made once, then reused). Prints its python.
# usage: Tests/Clients/otel-venv.sh
set -eu
cd "$(dirname "$0")/../.."
venv=bench/out/otel-venv
if [ ! -x "$venv/bin/python" ] ||
  ! "$venv/bin/python" -c 'import opentelemetry.proto.collector.trace.v1.trace_service_pb2' 2>/dev/null; then
  mkdir -p bench/out
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'opentelemetry-proto>=1.20,<2' >&2
fi
echo "$PWD/$venv/bin/python"
