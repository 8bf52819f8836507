#!/usr/bin/env python3
"""Execute benchmark (workload W3): MusicGraph's executor against graphql-js and graphql-core.

W3 (../shared/bench/README.md): one execution of w3_query.graphql over the static root
value from gen_w3_data.py (100 artists x 10 albums x 12 tracks x 3 videos, 405,901
response fields) with default property resolvers, plus JSON serialization of the response.
  - ours: `musicgraph exec --repeat N` (release build); time = median execute_ms +
    median serialize_ms (wall), and CPU ms per execution from the process CPU time of
    a run with N+1 repeats minus one with 1 repeat, divided by N;
  - graphql-js: ../shared/bench/run_graphql_js.js --workloads W3 (median wall ms and its
    cpu_ms_per_execution);
  - graphql-core 3.2.14: ../shared/bench/run_graphql_core.py --workloads W3 (venv in bench/out/venv).
Prints ms, fields/s and the ratios peer/ours (above 1: we are faster), checks that every
implementation's response decodes to the same JSON (check_outputs.py), and reports our
peak RSS (GNU time -v) minus the memory of the root value, estimated as the peak RSS of
the same command with the query `{ __typename }` (reads and parses the same data file,
executes nothing) minus that of an empty root value `{}`.

The machines are shared and noisy: compare figures from one run only; CPU figures are
steadier than wall figures when other work is running. Never part of `make test`.

Usage: python3 bench/execute.py [--bin .build/release/musicgraph] [--shared DIR] [--runs 7]
           [--repeat 20] [--no-build]
--bin times another build; without --no-build the release build is still made first.
MUSICGRAPH_BIN=PATH names the binary when --bin is not given.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import parse as common  # noqa: E402  (helpers shared with the parse benchmark)

ROOT = common.ROOT
OUT = common.OUT
BIN = common.BIN
FIELDS = 405_901


def log(text):
    common.log(text)


def exec_cmd(shared, data, query, repeat=None):
    workloads = os.path.join(shared, "bench", "workloads")
    cmd = [BIN, "exec", "--schema", os.path.join(workloads, "schema.graphql"), "--data", data]
    if repeat:
        cmd += ["--repeat", str(repeat)]
    return cmd + [query]


def cpu_seconds(cmd):
    """User+system CPU seconds of one run of cmd (GNU time)."""
    result = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise RuntimeError(" ".join(cmd) + " failed:\n" + result.stderr[-2000:])
    user, system = result.stderr.strip().splitlines()[-1].split()
    return float(user) + float(system)


def peak_rss_kb(cmd):
    result = subprocess.run(["/usr/bin/time", "-v", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    if result.returncode != 0 or not match:
        raise RuntimeError(" ".join(cmd) + " failed:\n" + result.stderr[-2000:])
    return int(match.group(1))


def ours(shared, data, query, repeat, dump_dir):
    body = subprocess.run(exec_cmd(shared, data, query), check=True, capture_output=True).stdout
    with open(os.path.join(dump_dir, "w3_musicgraph.json"), "wb") as fh:
        fh.write(body)
    result = common.run(exec_cmd(shared, data, query, repeat))
    phases = json.loads(result.stderr.strip().splitlines()[-1])
    wall_ms = phases["execute_ms"] + phases["serialize_ms"]
    cpu_1 = cpu_seconds(exec_cmd(shared, data, query, 1))
    cpu_n = cpu_seconds(exec_cmd(shared, data, query, repeat + 1))
    cpu_ms = (cpu_n - cpu_1) * 1000 / repeat
    return round(wall_ms, 2), round(cpu_ms, 2), phases, len(body)


def peer(cmd, env):
    result = subprocess.run(cmd, check=True, text=True, capture_output=True, env=env)
    for line in result.stdout.splitlines():
        record = json.loads(line)
        if record.get("workload") == "W3":
            return record
    raise RuntimeError("no W3 line from " + " ".join(cmd))


def ratio(peer_ms, our_ms):
    return round(peer_ms / our_ms, 2) if peer_ms and our_ms else None


def main():
    global BIN
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default=BIN, help="the musicgraph binary (default: MUSICGRAPH_BIN, else "
                   ".build/release/musicgraph)")
    p.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"), help="the shared/ folder")
    p.add_argument("--runs", type=int, default=7, help="timed runs per peer (median)")
    p.add_argument("--repeat", type=int, default=20, help="executions per `musicgraph exec --repeat` run")
    p.add_argument("--no-build", action="store_true", help="use the existing release binary")
    args = p.parse_args()
    BIN = common.BIN = os.path.abspath(args.bin)

    shared = os.path.abspath(args.shared)
    workloads = os.path.join(shared, "bench", "workloads")
    query = os.path.join(workloads, "w3_query.graphql")
    os.makedirs(OUT, exist_ok=True)
    data = os.path.join(OUT, "w3.json")
    if not os.path.exists(data):
        log("generating " + data)
        subprocess.run([sys.executable, os.path.join(workloads, "gen_w3_data.py"), data], check=True)
    dump_dir = os.path.join(OUT, "w3_dump")
    shutil.rmtree(dump_dir, ignore_errors=True)
    os.makedirs(dump_dir)

    if not args.no_build:
        log("building release binary")
        subprocess.run(["swift", "build", "-c", "release", "--product", "musicgraph"], cwd=ROOT, check=True)
    has_time = common.ensure_gnu_time()
    has_js = common.ensure_graphql_js()
    core_python = common.ensure_graphql_core()
    env = dict(os.environ, W3_ROOT=data, GRAPHQL_JS_DIR=common.GRAPHQL_JS_DIR)

    log("timing musicgraph")
    our_ms, our_cpu_ms, phases, body_bytes = ours(shared, data, query, args.repeat, dump_dir)
    rows = [("musicgraph (release)", our_ms, our_cpu_ms)]
    if has_js:
        log("timing graphql-js")
        js = peer(["node", os.path.join(shared, "bench", "run_graphql_js.js"), "--workloads", "W3", "--runs",
                   str(args.runs), "--dump-dir", dump_dir], env)
        rows.append(("graphql-js", js["value"], js.get("extra", {}).get("cpu_ms_per_execution")))
    log("timing graphql-core")
    core = peer([core_python, os.path.join(shared, "bench", "run_graphql_core.py"), "--workloads", "W3", "--runs",
                 str(max(1, args.runs // 2)), "--dump-dir", dump_dir], env)
    rows.append(("graphql-core 3.2.14", core["value"], core.get("extra", {}).get("cpu_ms_per_execution")))

    print(f"W3 execute + serialize, {FIELDS:,} fields, response {body_bytes:,} bytes")
    print(f"{'impl':<22}{'wall ms':>10}{'fields/s':>14}{'cpu ms':>10}{'wall ratio':>12}{'cpu ratio':>11}")
    for name, ms, cpu in rows:
        print(f"{name:<22}{ms:>10.1f}{FIELDS / (ms / 1000):>14,.0f}{(cpu or float('nan')):>10.1f}"
              f"{(ratio(ms, our_ms) or float('nan')):>12.2f}{(ratio(cpu, our_cpu_ms) or float('nan')):>11.2f}")
    print("ours, median per phase: " + json.dumps(phases))

    check = subprocess.run([sys.executable, os.path.join(shared, "bench", "check_outputs.py"), dump_dir],
                           text=True, capture_output=True)
    print("output check:\n  " + check.stdout.strip().replace("\n", "\n  "))

    if has_time:
        full = peak_rss_kb(exec_cmd(shared, data, query))
        typename_query = os.path.join(OUT, "typename.graphql")
        with open(typename_query, "w") as fh:
            fh.write("{ __typename }\n")
        empty_data = os.path.join(OUT, "empty.json")
        with open(empty_data, "w") as fh:
            fh.write("{}\n")
        with_root = peak_rss_kb(exec_cmd(shared, data, typename_query))
        without_root = peak_rss_kb(exec_cmd(shared, empty_data, typename_query))
        root_kb = with_root - without_root
        print(f"peak RSS: {full:,} KB; root value (RSS with the data and `{{ __typename }}` minus with `{{}}`): "
              f"{root_kb:,} KB; execution beyond the root value: {full - with_root:,} KB "
              f"(response {body_bytes / 1024:,.0f} KB)")
    sys.exit(0 if check.returncode == 0 else 1)


if __name__ == "__main__":
    main()
