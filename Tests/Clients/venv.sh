#!/bin/sh
# The Python environment of the gql client test: gql 4 with its requests and aiohttp transports
# from PyPI, in a virtualenv under bench/out/ (made once, then reused). Prints its python.
# usage: Tests/Clients/venv.sh
set -eu
cd "$(dirname "$0")/../.."
venv=bench/out/clients-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import gql, aiohttp, requests' 2>/dev/null; then
  mkdir -p bench/out
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'gql[requests,aiohttp]>=4,<5' >&2
fi
echo "$PWD/$venv/bin/python"
