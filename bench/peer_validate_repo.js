#!/usr/bin/env node
// graphql-js doing what `musicgraph validate DIR` does, for bench/validate_repo.py: read every
// *.graphql/*.gql below DIR, parse each, collect fragments across files (the first definition
// of a name wins), validate each document together with the fragments it reaches from other
// files (graphql-config / graphql-inspector style), plus NoDeprecatedCustomRule.
// Usage: node peer_validate_repo.js SCHEMA DIR [--repeat N]
// Prints one JSON line: {"impl","validate_ms" (median in-process ms of the whole project),"errors"}.
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.env.GRAPHQL_JS_DIR || '/usr/share/nodejs/graphql');

const [schemaPath, root] = process.argv.slice(2);
const i = process.argv.indexOf('--repeat');
const repeat = i >= 0 ? parseInt(process.argv[i + 1], 10) : 1;

function documents(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...documents(full));
    else if (/\.(graphql|gql)$/.test(entry.name)) out.push(full);
  }
  return out;
}

function spreads(node, into) {
  graphql.visit(node, { FragmentSpread(s) { into.add(s.name.value); } });
  return into;
}

function run(schema) {
  let errors = 0;
  const parsed = [];
  for (const file of documents(root)) {
    const bytes = fs.readFileSync(file);
    const text = new TextDecoder('utf-8', { fatal: true });
    let body;
    try { body = text.decode(bytes); } catch (e) { errors++; continue; }
    try { parsed.push({ file, doc: graphql.parse(new graphql.Source(body, file)) }); } catch (e) { errors++; }
  }
  const owner = new Map();
  for (const p of parsed) {
    for (const d of p.doc.definitions) {
      if (d.kind === 'FragmentDefinition' && !owner.has(d.name.value)) owner.set(d.name.value, d);
    }
  }
  for (const p of parsed) {
    const own = new Set(p.doc.definitions.filter((d) => d.kind === 'FragmentDefinition').map((d) => d.name.value));
    const extra = [];
    const queue = [...spreads(p.doc, new Set())];
    const reached = new Set(own);
    while (queue.length) {
      const name = queue.shift();
      if (reached.has(name) || !owner.has(name)) continue;
      reached.add(name);
      extra.push(owner.get(name));
      queue.push(...spreads(owner.get(name), new Set()));
    }
    const doc = { kind: 'Document', definitions: [...p.doc.definitions, ...extra] };
    errors += graphql.validate(schema, doc).length;
    errors += graphql.validate(schema, doc, [graphql.NoDeprecatedCustomRule]).length;
  }
  return errors;
}

const schema = graphql.buildSchema(fs.readFileSync(schemaPath, 'utf8'));
const times = [];
let errors = 0;
for (let r = 0; r < repeat; r++) {
  const start = process.hrtime.bigint();
  errors = run(schema);
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((a, b) => a - b);
const mid = times.length >> 1;
const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
process.stdout.write(JSON.stringify({
  impl: `graphql-js ${graphql.version} (node ${process.version})`, validate_ms: Math.round(median * 100) / 100, errors,
}) + '\n');
