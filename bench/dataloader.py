#!/usr/bin/env python3
"""DataLoader benchmark: workload W4 of ../shared/bench beside graphql-js, same run.

W4 is W3's query (w3_query.graphql: 100 artists x 10 albums x 12 tracks x 3 videos,
405,901 response fields) with every list level resolved through a per-request batch loader
over in-memory tables, plus serialization of {"data": ...}. Lower bound: 4 batch calls.

- ours: bench/dataloader/ (a stand-alone SwiftPM package whose GraphQL and DataLoader
  targets are symlinks to the repository's modules, so the main Package.swift is untouched),
  release build, executable W4Bench: GraphQL's `execute` with a `BatchScheduler` as its
  `activity` and four `DataLoader`s; the artists list is one `loadMany`, the three nested
  levels resolve as `Resolution.load(id, from:)`, so the executor loads each level's keys
  in one call from one task instead of awaiting every field in a task of its own;
- graphql-js: ../shared/bench/run_graphql_js.js --workloads W4 (its minimal in-runner loader,
  dispatched on process.nextTick like the dataloader package).

Prints both JSON lines, then ms per execution (median wall), CPU ms per execution, batch
calls, and the ratio graphql-js / ours (above 1: we are faster; target >= 5 by CPU, issue 15). Fails when our
batch calls are not exactly 4 in every run, or when the two responses differ
(../shared/bench/check_outputs.py). The machines are shared and noisy: compare figures from
one run only; the CPU figures are the steadier ones when the machine is busy.

Installs node + node-graphql when missing and run as root (else says how). Only a
benchmark: never part of `make test`.

Usage: python3 bench/dataloader.py [--shared DIR] [--runs 7] [--no-build]
--bin PATH is accepted like every entry point's, and unused: W4 runs bench/dataloader's W4Bench,
not musicgraph.
Diagnostics of the binary itself (not run here): W4_DIAG=1 adds CPU ms of W3's synchronous
execution, W4's execute and serialization; W4_MICRO=1 times 12,000 bare counted tasks
against 12,000 tasks that each load one key.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
PACKAGE = os.path.join(ROOT, "bench", "dataloader")
SCRATCH = os.path.join(OUT, "dataloader-build")
BIN = os.path.join(SCRATCH, "release", "W4Bench")
GRAPHQL_JS_DIR = os.environ.get("GRAPHQL_JS_DIR", "/usr/share/nodejs/graphql")


def log(text):
    print(text, file=sys.stderr, flush=True)


def apt_install(packages):
    """Installs Debian packages when root; otherwise says how and returns False."""
    command = ["apt-get", "install", "-y", *packages]
    if os.geteuid() != 0:
        log("missing packages; run: sudo " + " ".join(command))
        return False
    log("installing " + " ".join(packages))
    subprocess.run(["apt-get", "update"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return True


def ensure_graphql_js():
    if shutil.which("node") and os.path.isdir(GRAPHQL_JS_DIR):
        return True
    return apt_install(["nodejs", "node-graphql"]) and os.path.isdir(GRAPHQL_JS_DIR)


def json_line(output, who):
    for line in output.splitlines():
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise SystemExit(f"{who} printed no JSON line:\n{output}")


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"),
                        help="the shared folder holding bench/ (default: ../shared)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-build", action="store_true", help="use the existing release build")
    parser.add_argument("--bin", help="unused (accepted like every entry point's): W4 runs bench/dataloader's "
                        "W4Bench, built here, not musicgraph")
    args = parser.parse_args()

    bench = os.path.join(os.path.abspath(args.shared), "bench")
    workloads = os.path.join(bench, "workloads")
    if not os.path.isdir(workloads):
        raise SystemExit(f"no {workloads}: pass --shared DIR")
    os.makedirs(OUT, exist_ok=True)
    root = os.path.join(OUT, "w3.json")
    if not os.path.exists(root):
        log("generating " + root)
        subprocess.run([sys.executable, os.path.join(workloads, "gen_w3_data.py"), root], check=True,
                       stdout=subprocess.DEVNULL)
    if not args.no_build or not os.path.exists(BIN):
        log("building bench/dataloader (release)")
        subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE,
                        "--scratch-path", SCRATCH], check=True, stdout=subprocess.DEVNULL)

    dumps = os.path.join(OUT, "w4-dumps")
    shutil.rmtree(dumps, ignore_errors=True)
    os.makedirs(dumps)

    ours = json_line(subprocess.run(
        [BIN, "--schema", os.path.join(workloads, "schema.graphql"),
         "--query", os.path.join(workloads, "w3_query.graphql"), "--root", root,
         "--runs", str(args.runs), "--dump", os.path.join(dumps, "w4_musicgraph.json")],
        check=True, text=True, capture_output=True).stdout, "W4Bench")
    print(json.dumps(ours))

    js = None
    if ensure_graphql_js():
        env = dict(os.environ, W3_ROOT=root, GRAPHQL_JS_DIR=GRAPHQL_JS_DIR)
        js = json_line(subprocess.run(
            ["node", os.path.join(bench, "run_graphql_js.js"), "--workloads", "W4", "--runs", str(args.runs),
             "--dump-dir", dumps], check=True, text=True, capture_output=True, env=env).stdout, "graphql-js")
        print(json.dumps(js))
    else:
        log("graphql-js missing: no ratio")

    calls = ours["extra"]["batch_calls_total_each_run"]
    print(f"\nW4 dataloader  ({ours['runs']} runs, medians)")
    print(f"  musicgraph : {ours['value']:8.1f} ms/execution  {ours['extra']['cpu_ms_per_execution']:8.1f} CPU ms"
          f"  batch calls {ours['extra']['batch_calls']} (each run: {calls})")
    ok = all(c == 4 for c in calls) and ours["extra"]["batch_calls_total"] == 4
    if js:
        print(f"  graphql-js : {js['value']:8.1f} ms/execution  {js['extra']['cpu_ms_per_execution']:8.1f} CPU ms"
              f"  batch calls {js['extra']['batch_calls']}")
        ratio = js["value"] / ours["value"]
        cpu_ratio = js["extra"]["cpu_ms_per_execution"] / ours["extra"]["cpu_ms_per_execution"]
        print(f"  ratio graphql-js / musicgraph: {ratio:.2f}x wall, {cpu_ratio:.2f}x CPU (target >= 5x CPU)")
        check = subprocess.run([sys.executable, os.path.join(bench, "check_outputs.py"), dumps],
                               text=True, capture_output=True)
        print("  outputs: " + ("identical" if check.returncode == 0 else "DIFFER\n" + check.stdout))
        ok = ok and check.returncode == 0
    if not ok:
        raise SystemExit("W4 check failed: batch calls must be exactly 4 and outputs identical")


if __name__ == "__main__":
    main()
