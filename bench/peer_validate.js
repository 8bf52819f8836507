#!/usr/bin/env node
// graphql-js validate() on one document against one SDL schema, for bench/hostile.py:
// the errors it reports (message and locations, in order) and the median milliseconds of
// one validation (parse and schema build excluded; warm-up first, then a calibrated loop
// of about --min-time seconds per run; a first validation slower than that is the
// figure alone). A validation that throws (a stack overflow on a
// deep document) is reported as {"threw": message}.
// Usage: node peer_validate.js SCHEMA.graphql DOC.graphql [--runs 5] [--min-time 0.3]
// Prints one JSON line: {"impl","errors":[{"message","locations"}],"ms","runs"}.
'use strict';
const fs = require('fs');
const graphql = require(process.env.GRAPHQL_JS_DIR || '/usr/share/nodejs/graphql');

const option = (flag, fallback) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const runs = parseInt(option('--runs', '5'), 10);
const minTime = parseFloat(option('--min-time', '0.3'));
const schema = graphql.buildSchema(fs.readFileSync(process.argv[2], 'utf8'));
const document = graphql.parse(fs.readFileSync(process.argv[3], 'utf8'));
const impl = `graphql-js ${graphql.version} (node ${process.version})`;

// process.exit() would cut a long line written to a pipe: the script ends by falling through.
let errors;
let first;
try {
  const start = Number(process.hrtime.bigint()) / 1e9;
  errors = graphql.validate(schema, document);
  first = Number(process.hrtime.bigint()) / 1e9 - start;
} catch (error) {
  process.stdout.write(JSON.stringify({ impl, threw: String(error && error.message) }) + '\n');
}
const seconds = () => Number(process.hrtime.bigint()) / 1e9;
const loop = (n) => {
  const start = seconds();
  for (let i = 0; i < n; i++) graphql.validate(schema, document);
  return seconds() - start;
};
if (errors === undefined) {
  // threw: already reported
} else if (first > minTime) {
  // One validation took longer than a timed run: that one is the figure.
  const errorRows = errors.map((e) => ({ message: e.message, locations: (e.locations || []).map((l) => [l.line, l.column]) }));
  process.stdout.write(JSON.stringify({ impl, errors: errorRows, ms: first * 1000, runs: 1 }) + '\n');
} else {
  report();
}

function report() {
  for (let i = 0; i < 3; i++) loop(1);
  const perLoop = Math.max(1, Math.round(minTime / Math.max(loop(1), 1e-6)));
  const times = [];
  for (let r = 0; r < runs; r++) times.push((loop(perLoop) / perLoop) * 1000);
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const ms = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  process.stdout.write(JSON.stringify({
    impl,
    errors: errors.map((e) => ({ message: e.message, locations: (e.locations || []).map((l) => [l.line, l.column]) })),
    ms,
    runs,
  }) + '\n');
}
