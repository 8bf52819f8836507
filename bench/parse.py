#!/usr/bin/env python3
"""Parse benchmark: MusicGraph's parser against graphql-js and graphql-core, same run.

Documents: workload W1 (../shared/bench/workloads/w1_parse.graphql, 201 KB of
operations) and the GitHub schema (../shared/conformance/real-world/github_schema.graphql,
SDL). For each: MB/s of source parsed (MB = 1e6 bytes of UTF-8, median), for
  - ours: `musicgraph format --repeat N FILE` (release build), its `parse_ms` median;
  - graphql-js: ../shared/bench/run_graphql_js.js for W1, bench/peer_parse.js otherwise;
  - graphql-core 3.2.14: ../shared/bench/run_graphql_core.py for W1, bench/peer_parse.py
    otherwise (in a venv under bench/out/venv);
and the ratios ours/graphql-js and ours/graphql-core (above 1: we are faster).
Then peak RSS of `musicgraph format github_schema.graphql` (GNU time -v) minus that of a
tiny document, per byte of the file (medians of 5 alternating runs; target < 4).

Installs what is missing when run as root (apt: nodejs node-graphql time; pip in the
venv), else prints the command and skips that peer. Only a benchmark: never part of
`make test`. The machines are shared and noisy: compare figures from one run only.

With --quiet, every timed command runs under ../shared/bench/quiet_run.py (waits for an
idle machine, retries when other processes took CPU meanwhile) and the table shows the
highest foreign CPU seen (% of one core): figures with a high value are not worth much.

Usage: python3 bench/parse.py [--bin .build/release/musicgraph] [--shared DIR] [--runs 7] [--no-build]
           [--quiet]
--bin times another build (say the one from before a change); without --no-build the release
build is still made first. MUSICGRAPH_BIN=PATH names the binary when --bin is not given.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
VENV = os.path.join(OUT, "venv")
# The binary timed: --bin, else MUSICGRAPH_BIN, else the release build (main() sets it).
BIN = os.environ.get("MUSICGRAPH_BIN", os.path.join(ROOT, ".build", "release", "musicgraph"))
GRAPHQL_JS_DIR = os.environ.get("GRAPHQL_JS_DIR", "/usr/share/nodejs/graphql")


def log(text):
    print(text, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


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


def ensure_graphql_core():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        log("creating venv " + VENV)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    if subprocess.run([python, "-c", "import graphql"], capture_output=True).returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q", "graphql-core==3.2.14"], check=True)
    return python


def ensure_gnu_time():
    return os.path.exists("/usr/bin/time") or apt_install(["time"])


class Timer:
    """Runs timed commands, through quiet_run.py when asked, and keeps the worst foreign CPU."""

    def __init__(self, quiet_run=None):
        self.quiet_run = quiet_run
        self.worst_foreign_pct = None

    def json_lines(self, cmd):
        if self.quiet_run:
            cmd = [sys.executable, self.quiet_run, "--tries", "3", "--max-wait", "300", "--", *cmd]
        records = []
        for line in run(cmd).stdout.splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            foreign = record.get("extra", {}).get("foreign_cpu_pct")
            if foreign is not None:
                self.worst_foreign_pct = max(self.worst_foreign_pct or 0.0, foreign)
            records.append(record)
        return records

    def ours_mb_per_s(self, path):
        """Median parse MB/s from `format --repeat N`, N chosen for about a second of parsing."""
        size = os.path.getsize(path)

        def parse_ms(n):
            # The phase summary goes to stderr and the document to stdout: swap them.
            cmd = ["sh", "-c", '"$0" format --repeat "$1" "$2" 2>&1 >/dev/null', BIN, str(n), path]
            return [r for r in self.json_lines(cmd) if "parse_ms" in r][-1]["parse_ms"]

        n = max(5, min(5000, round(1000 / max(parse_ms(3), 0.01))))
        ms = parse_ms(n)
        return round(size / 1e6 / (ms / 1000), 3), {"doc_bytes": size, "repeat": n, "parse_ms": ms}

    def peer_mb_per_s(self, cmd):
        """The value of the parse line a peer runner prints (one JSON line per workload)."""
        for record in self.json_lines(cmd):
            if record.get("metric") == "parse_MB_per_s":
                return record["value"]
        raise RuntimeError("no parse_MB_per_s line from " + " ".join(cmd))


def peak_rss_kb(path):
    result = subprocess.run(
        ["/usr/bin/time", "-v", BIN, "format", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    if result.returncode != 0 or not match:
        raise RuntimeError("format failed on " + path + ":\n" + result.stderr[-2000:])
    return int(match.group(1))


def ratio(a, b):
    return round(a / b, 2) if a and b else None


def main():
    global BIN
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default=BIN, help="the musicgraph binary (default: MUSICGRAPH_BIN, else "
                   ".build/release/musicgraph)")
    p.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"), help="the shared/ folder")
    p.add_argument("--runs", type=int, default=7, help="timed loops per peer (median)")
    p.add_argument("--no-build", action="store_true", help="use the existing release binary")
    p.add_argument("--quiet", action="store_true", help="time each command under quiet_run.py")
    args = p.parse_args()
    BIN = os.path.abspath(args.bin)

    shared = os.path.abspath(args.shared)
    w1 = os.path.join(shared, "bench", "workloads", "w1_parse.graphql")
    github = os.path.join(shared, "conformance", "real-world", "github_schema.graphql")
    for path in (w1, github):
        if not os.path.exists(path):
            sys.exit("missing " + path + " (pass --shared DIR)")
    os.makedirs(OUT, exist_ok=True)

    if not args.no_build:
        log("building release binary")
        subprocess.run(["swift", "build", "-c", "release", "--product", "musicgraph"], cwd=ROOT, check=True)
    has_js = ensure_graphql_js()
    core_python = ensure_graphql_core()

    timer = Timer(os.path.join(shared, "bench", "quiet_run.py") if args.quiet else None)
    rows = []
    for label, path in (("W1 w1_parse.graphql", w1), ("github_schema.graphql", github)):
        log("timing " + label)
        ours, ours_extra = timer.ours_mb_per_s(path)
        js = core = None
        if has_js:
            if path == w1:
                cmd = ["node", os.path.join(shared, "bench", "run_graphql_js.js"), "--workloads", "W1"]
            else:
                cmd = ["node", os.path.join(ROOT, "bench", "peer_parse.js"), path]
            js = timer.peer_mb_per_s(cmd + ["--runs", str(args.runs)])
        if path == w1:
            cmd = [core_python, os.path.join(shared, "bench", "run_graphql_core.py"), "--workloads", "W1"]
        else:
            cmd = [core_python, os.path.join(ROOT, "bench", "peer_parse.py"), path]
        core = timer.peer_mb_per_s(cmd + ["--runs", str(args.runs)])
        rows.append({"document": label, "bytes": os.path.getsize(path), "ours_MB_per_s": ours,
                     "graphql_js_MB_per_s": js, "graphql_core_MB_per_s": core,
                     "ours_over_graphql_js": ratio(ours, js), "ours_over_graphql_core": ratio(ours, core),
                     "ours_extra": ours_extra})

    rss = None
    if ensure_gnu_time():
        with tempfile.NamedTemporaryFile("w", suffix=".graphql", delete=False) as tiny:
            tiny.write("{ a }\n")
        try:
            # Medians of alternating runs: a single run's peak wanders by ~100 KB.
            baselines, bigs = [], []
            for _ in range(5):
                baselines.append(peak_rss_kb(tiny.name))
                bigs.append(peak_rss_kb(github))
            baseline = int(statistics.median(baselines))
            big = int(statistics.median(bigs))
        finally:
            os.unlink(tiny.name)
        size = os.path.getsize(github)
        rss = {"document": "github_schema.graphql", "bytes": size, "baseline_rss_kb": baseline, "peak_rss_kb": big,
               "extra_rss_per_source_byte": round((big - baseline) * 1024 / size, 2)}

    with open(os.path.join(OUT, "parse.json"), "w") as f:
        json.dump({"parse": rows, "rss": rss, "worst_foreign_cpu_pct": timer.worst_foreign_pct}, f, indent=2)

    print(f"{'document':<24} {'KB':>7} {'ours MB/s':>10} {'graphql-js':>11} {'graphql-core':>13} "
          f"{'ours/js':>8} {'ours/core':>10}")
    for r in rows:
        print(f"{r['document']:<24} {r['bytes'] / 1000:>7.1f} {r['ours_MB_per_s']:>10} "
              f"{str(r['graphql_js_MB_per_s']):>11} {str(r['graphql_core_MB_per_s']):>13} "
              f"{str(r['ours_over_graphql_js']):>8} {str(r['ours_over_graphql_core']):>10}")
    if rss:
        print(f"peak RSS, format github_schema.graphql: {rss['peak_rss_kb']} KB "
              f"(tiny document: {rss['baseline_rss_kb']} KB); extra RSS / file size = "
              f"{rss['extra_rss_per_source_byte']} (target < 4; medians of 5 runs each)")
    if timer.worst_foreign_pct is not None:
        print(f"highest foreign CPU during a timed command: {timer.worst_foreign_pct}% of one core")
    print("details: bench/out/parse.json")


if __name__ == "__main__":
    main()
