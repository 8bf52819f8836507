#!/usr/bin/env python3
"""What each shared store costs, in one run: `musicgraph serve --no-result-cache` on
`--store memory`, `--store sqlite:FILE` (a fresh temporary file) and `--store redis://…` (a
redis-server of its own, no persistence), all pointed at one `demo-upstream`; upstream requests
counted from DemoUpstream's request log. Prints, per store and as ratios to memory:

1. cold-query latency: the nested Iron Maiden query (153 upstream requests) on an empty store,
   a fresh gateway each round (the store's writes and claims on top of the upstream fetches);
2. store-hit latency: the same query sent to a gateway started afresh on the store the cold
   round filled (0 upstream requests, 153 reads answered by the store; memory: the repeat in
   the same process, answered by its in-process cache, the best case);
3. cached-miss throughput (wrk, 64 connections): a repeated query that executes every time
   (`--no-result-cache`), its upstream reads cached. Each process's in-process cache answers
   them before the store is asked, so this row shows what a store costs a warm gateway.

Usage: bench/store.py [--bin .build/release/musicgraph] [--seconds 5] [--rounds 3]
Needs: redis-server, wrk (Debian packages of those names).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fleet import ENV, IRON_MAIDEN, Redis, free_port, post, requests_of, wrk_rps  # noqa: E402
from gateway_procs import get_json, start, stop  # noqa: E402

KINDS = ["memory", "sqlite", "redis"]


def gateway(args, demo_url, store):
    return start([args.bin, "serve", "--port", "0", "--upstream", demo_url, "--request-timeout-ms", "0",
                  "--no-result-cache", "--daily-quota", "youtube=0", "--max-query-cost", "0", "--store", store],
                 env=ENV)


def timed(url):
    started = time.perf_counter()
    status, response = post(url, IRON_MAIDEN)
    elapsed = (time.perf_counter() - started) * 1000
    if status != 200 or response.get("errors"):
        raise SystemExit(f"the nested query failed: {status} {str(response)[:300]}")
    return elapsed, requests_of(response)


def clear(demo_url):
    import urllib.request
    urllib.request.urlopen(urllib.request.Request(demo_url + "/__demo/requests", method="DELETE"), timeout=60).read()


def ratio(a, b):
    return f"{a / b:.2f}" if b else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/musicgraph", help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for tool in ["redis-server", "wrk"]:
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing (Debian: apt-get install -y {tool})")
    work = tempfile.mkdtemp(prefix="musicgraph-store-bench-")
    redis = Redis(free_port())
    redis.start()
    demo, demo_url = start([args.bin, "demo-upstream", "--port", "0"], env=ENV)
    cold = {k: [] for k in KINDS}
    hit = {k: [] for k in KINDS}
    rps = {k: [] for k in KINDS}
    sent = {k: [] for k in KINDS}
    try:
        for round_ in range(args.rounds):
            for kind in KINDS:
                store = {"memory": "memory", "sqlite": f"sqlite:{work}/store-{round_}.sqlite", "redis": redis.url}[kind]
                if kind == "redis":
                    subprocess.run(["redis-cli", "-p", str(redis.port), "FLUSHALL"], capture_output=True, check=True)
                process, url = gateway(args, demo_url, store)
                try:
                    post(url, "{ __typename }")  # the first connection, outside the timing
                    clear(demo_url)
                    ms, requests = timed(url)
                    cold[kind].append(ms)
                    sent[kind].append(len(get_json(demo_url + "/__demo/requests")))
                    if kind == "memory":
                        ms, requests = timed(url)
                        hit[kind].append(ms)
                finally:
                    stop(process)
                if kind != "memory":
                    process, url = gateway(args, demo_url, store)
                    try:
                        post(url, "{ __typename }")
                        ms, requests = timed(url)
                        if requests != 0:
                            raise SystemExit(f"--store {kind}: a fresh gateway on the warm store sent {requests}")
                        hit[kind].append(ms)
                    finally:
                        stop(process)
        gateways = {}
        for kind in KINDS:
            store = {"memory": "memory", "sqlite": f"sqlite:{work}/store-wrk.sqlite", "redis": redis.url}[kind]
            gateways[kind] = gateway(args, demo_url, store)
        try:
            for _ in range(args.rounds):
                for kind in KINDS:
                    rps[kind].append(wrk_rps(gateways[kind][1], args.seconds))
        finally:
            for process, _ in gateways.values():
                stop(process)
    finally:
        stop(demo)
        redis.kill()
        shutil.rmtree(work, ignore_errors=True)

    med = {name: {k: statistics.median(v[k]) for k in KINDS} for name, v in
           [("cold", cold), ("hit", hit), ("rps", rps)]}
    print(f"store overhead, medians of {args.rounds} rounds (upstream requests per cold query: "
          + ", ".join(f"{k} {sent[k]}" for k in KINDS) + ")")
    print("| figure | memory | sqlite | redis | sqlite ÷ memory | redis ÷ memory |")
    print("|---|---|---|---|---|---|")
    for name, label, unit in [("cold", "1. cold nested query (153 upstream requests)", "ms"),
                              ("hit", "2. same query, store hit in a fresh gateway (memory: in-process repeat)", "ms"),
                              ("rps", f"3. cached-miss throughput, wrk 64 connections {args.seconds} s", "req/s")]:
        m = med[name]
        print(f"| {label} | {m['memory']:.0f} {unit} | {m['sqlite']:.0f} {unit} | {m['redis']:.0f} {unit} "
              f"| {ratio(m['sqlite'], m['memory'])} | {ratio(m['redis'], m['memory'])} |")


if __name__ == "__main__":
    main()
