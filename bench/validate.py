#!/usr/bin/env python3
"""W2 (validation) beside the peers, plus hostile-shape timings.

W2 (../shared/bench/README.md): validate the IntrospectionQuery and w2_app_query.graphql
against workloads/schema.graphql, metric documents validated per second. MusicGraph is
timed with `musicgraph validate --repeat N` (median validate_ms per document, process
start-up and parsing excluded), graphql-js with ../shared/bench/run_graphql_js.js and
graphql-core with run_graphql_core.py, all in the same run because these machines are
noisy: compare ratios, not absolute figures.

Then the hostile shapes OverlappingFieldsCanBeMerged and fragment handling must survive
(each must validate, or be refused with a clear error, in well under 100 ms):
3,000 repeated `name` fields; 1,500 repeated `... on Artist { name }`; deeply nested
repeated fields; many fragments spreading each other.

Usage (from the repository root, after `swift build -c release --product musicgraph`):
  python3 bench/validate.py [--bin .build/release/musicgraph] [--repeat 200]
      [--shared ../shared] [--python PYTHON_WITH_GRAPHQL_CORE] [--no-peers]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def musicgraph_ms(binary, schema, document, repeat):
    """Median validate_ms of `musicgraph validate --repeat` and the exit status."""
    proc = subprocess.run(
        [binary, "validate", "--schema", schema, "--repeat", str(repeat), document],
        capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"musicgraph failed ({proc.returncode}): {proc.stderr.strip()}")
    timing = json.loads(proc.stderr.strip().splitlines()[-1])
    return timing["validate_ms"], proc.returncode, proc.stdout


def peer(cmd, cwd):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)
    for line in proc.stdout.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if row.get("workload") == "W2":
            return row, None
    return None, (proc.stderr.strip().splitlines() or ["no W2 line"])[-1]


def hostile_shapes():
    """(name, schema SDL, document) for each hostile shape."""
    schema = """
type Query { artist: Artist artists: [Artist] node: Node }
interface Node { id: ID }
type Artist implements Node { id: ID name: String friends: [Artist] albums: [Album] }
type Album implements Node { id: ID title: String artist: Artist }
"""
    shapes = [
        ("3000 repeated name fields", "{ artist { " + "name " * 3000 + "} }"),
        ("1500 repeated inline fragments", "{ node { " + "... on Artist { name } " * 1500 + "} }"),
    ]
    depth = 60
    nested = "name"
    for _ in range(depth):
        nested = "friends { " + nested + " friends { name } }"
    shapes.append((f"nested repeated fields, depth {depth}", "{ artist { " + nested + " } }"))
    wide = "{ artist { " + ("friends { name id } " * 200) + "} }"
    shapes.append(("200 repeated object fields", wide))
    n = 300
    fragments = "\n".join(
        f"fragment F{i} on Artist {{ name ...F{i + 1} ...F{(i * 7 + 3) % n} }}" if i + 1 < n
        else f"fragment F{i} on Artist {{ name }}" for i in range(n))
    shapes.append((f"{n} fragments spreading each other", "{ artist { ...F0 } }\n" + fragments))
    spreads = "{ artist { " + " ".join(f"...G{i}" for i in range(400)) + " } }\n"
    spreads += "\n".join(f"fragment G{i} on Artist {{ name friends {{ name }} }}" for i in range(400))
    shapes.append(("400 fragments spread side by side", spreads))
    return schema, shapes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/release/musicgraph", help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--shared", default="../shared")
    parser.add_argument("--python", default=sys.executable, help="a python with graphql-core 3.2")
    parser.add_argument("--no-peers", action="store_true")
    args = parser.parse_args()

    workloads = os.path.join(args.shared, "bench", "workloads")
    schema = os.path.join(workloads, "schema.graphql")
    docs = [os.path.join(workloads, "introspection.graphql"), os.path.join(workloads, "w2_app_query.graphql")]

    total_ms = 0.0
    for doc in docs:
        ms, status, out = musicgraph_ms(args.bin, schema, doc, args.repeat)
        if status != 0:
            raise SystemExit(f"W2 document {doc} does not validate: {out.strip()}")
        print(f"musicgraph  {os.path.basename(doc):28s} {ms:8.4f} ms/validation")
        total_ms += ms
    ours = len(docs) / (total_ms / 1000)
    print(f"musicgraph  W2 {ours:10.1f} docs/s")

    if not args.no_peers:
        bench_dir = os.path.join(args.shared, "bench")
        rows = []
        if shutil.which("node"):
            rows.append(("graphql-js", peer(["node", "run_graphql_js.js", "--workloads", "W2"], bench_dir)))
        rows.append(("graphql-core", peer([args.python, "run_graphql_core.py", "--workloads", "W2"], bench_dir)))
        for name, (row, problem) in rows:
            if row is None:
                print(f"{name:11s} W2 not run: {problem}")
                continue
            value = row["value"]
            print(f"{name:11s} W2 {value:10.1f} docs/s  ({row.get('impl', name)}); musicgraph is {ours / value:.2f}x")

    sdl, shapes = hostile_shapes()
    with tempfile.TemporaryDirectory() as tmp:
        schema_path = os.path.join(tmp, "hostile.graphql")
        with open(schema_path, "w") as f:
            f.write(sdl)
        for name, document in shapes:
            path = os.path.join(tmp, "doc.graphql")
            with open(path, "w") as f:
                f.write(document)
            ms, status, out = musicgraph_ms(args.bin, schema_path, path, 5)
            verdict = "valid" if status == 0 else "refused: " + json.loads(out)["errors"][0]["message"][:70]
            print(f"hostile  {name:38s} {ms:8.2f} ms  {verdict}")


if __name__ == "__main__":
    main()
