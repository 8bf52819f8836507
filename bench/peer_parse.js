#!/usr/bin/env node
// Times graphql-js parse() on any file, the way ../shared/bench/run_graphql_js.js times
// W1 (warm-up, calibrated loop of about --min-time seconds, median over --runs loops), so
// that bench/parse.py can compare peers on documents other than W1.
// Usage: node peer_parse.js FILE [--runs 7] [--min-time 1.0]
// Prints one JSON line: {"impl","file","metric":"parse_MB_per_s","value","runs","extra"}.
'use strict';
const fs = require('fs');
const graphql = require(process.env.GRAPHQL_JS_DIR || '/usr/share/nodejs/graphql');

const file = process.argv[2];
const option = (flag, fallback) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const runs = parseInt(option('--runs', '7'), 10);
const minTime = parseFloat(option('--min-time', '1.0'));

const text = fs.readFileSync(file, 'utf8');
const bytes = Buffer.byteLength(text, 'utf8');
const seconds = () => Number(process.hrtime.bigint()) / 1e9;
const loop = (n) => {
  const start = seconds();
  for (let i = 0; i < n; i++) graphql.parse(text);
  return seconds() - start;
};

for (let i = 0; i < 5; i++) graphql.parse(text); // let the JIT settle first
const perLoop = Math.max(1, Math.round(minTime / Math.max(loop(1), 1e-6)));
loop(perLoop);
const rates = [];
for (let r = 0; r < runs; r++) rates.push((perLoop * bytes) / 1e6 / loop(perLoop));
rates.sort((a, b) => a - b);
const mid = rates.length >> 1;
const median = rates.length % 2 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
process.stdout.write(JSON.stringify({
  impl: `graphql-js ${graphql.version} (node ${process.version})`, file, metric: 'parse_MB_per_s',
  value: Math.round(median * 1000) / 1000, runs, extra: { doc_bytes: bytes, parses_per_run: perLoop },
}) + '\n');
