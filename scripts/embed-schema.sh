#!/bin/sh
# Regenerates Sources/Catalog/Gateway/GatewaySchema+SDL.swift from schema.graphql, so the
# binary serves the schema from anywhere. CatalogTests/GatewaySchemaTests fails when the two
# differ; run `make schema` after editing schema.graphql.
set -eu
cd "$(dirname "$0")/.."
out=Sources/Catalog/Gateway/GatewaySchema+SDL.swift
{
  echo '// Generated from schema.graphql by scripts/embed-schema.sh (`make schema`). Do not edit.'
  echo 'extension GatewaySchema {'
  echo '    /// The text of `schema.graphql` at build time.'
  echo '    public static let sdl = #"""'
  cat schema.graphql
  echo ''
  echo '"""#'
  echo '}'
} > "$out"
# The checked-in copy is in the house format (`make lint`), which indents the literal's lines.
swift format -i "$out"
echo "wrote $out"
