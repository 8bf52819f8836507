#!/usr/bin/env python3
"""The nested Iron Maiden query against DemoUpstream with 50 ms injected per upstream
request: wall time next to the critical path 3 × 50 ms + ⌈150 / video concurrency⌉ × 50 ms
(artist search, albums lookup, songs lookup, then the 150 YouTube searches in waves of the
gateway's search concurrency). Target: ratio ≤ 1.15 and ≤ 260 ms. Cold cache each run (a
fresh gateway; DemoUpstream runs on, so from the second run on it serves the searches from its
kept answers, as it does for every gateway the peer bench starts). Prints the CPU each process
spent per run (/proc/PID/stat), so that the wall time can be read against the machine's load.

usage: bench/gateway_latency.py [--bin .build/release/musicgraph] [--runs 5] [--latency-ms 50]
"""
import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gateway_procs import get_json, post, start, stop  # noqa: E402

QUERY = '{ artist(name: "Iron Maiden") { name albums { title tracks { title videos(first: 1) { title url } } } } }'
VIDEO_CONCURRENCY = 256  # GatewayConfiguration.defaultUpstreamConcurrency (search batches and the per-host cap)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/musicgraph", help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--latency-ms", type=int, default=50)
    args = parser.parse_args()

    demo, demo_url = start([args.bin, "demo-upstream", "--port", "0", "--latency-ms", str(args.latency_ms)])
    walls, gateway_cpu, demo_cpu = [], [], []
    try:
        for _ in range(args.runs):
            # 150 searches are 15,000 units: more than YouTube's default daily quota, which the demo has not.
            gateway, url = start([args.bin, "serve", "--port", "0", "--upstream", demo_url, "--request-timeout-ms", "0",
                                  "--daily-quota", "youtube=0", "--store", "memory"],
                                 env={**os.environ, "YOUTUBE_API_KEY": "bench"})
            try:
                post(url, "{ __typename }")  # warm the server's first connection
                before = len(get_json(demo_url + "/__demo/requests"))
                g0, d0 = cpu_seconds(gateway.pid), cpu_seconds(demo.pid)
                started = time.perf_counter()
                response = post(url, QUERY)
                walls.append((time.perf_counter() - started) * 1000)
                gateway_cpu.append((cpu_seconds(gateway.pid) - g0) * 1000)
                demo_cpu.append((cpu_seconds(demo.pid) - d0) * 1000)
                requests = len(get_json(demo_url + "/__demo/requests")) - before
                albums = response["data"]["artist"]["albums"]
                tracks = sum(len(a["tracks"]) for a in albums)
                if response.get("errors") or len(albums) != 21 or tracks != 213 or requests != 153:
                    raise SystemExit(f"unexpected answer: {len(albums)} albums, {tracks} tracks, {requests} requests, "
                                     f"errors {response.get('errors', [])[:1]}")
            finally:
                stop(gateway)
    finally:
        stop(demo)
    critical = 3 * args.latency_ms + math.ceil(150 / VIDEO_CONCURRENCY) * args.latency_ms
    median = statistics.median(walls)
    print(f"iron maiden query, {args.latency_ms} ms per upstream request, 153 requests, {args.runs} runs (cold cache)")
    print(f"wall median {median:.1f} ms (min {min(walls):.1f}, max {max(walls):.1f})")
    print(f"critical path {critical} ms = 3 x {args.latency_ms} + ceil(150 / {VIDEO_CONCURRENCY}) x {args.latency_ms}")
    print(f"ratio {median / critical:.3f} (target <= 1.15)")
    print(f"CPU per run, median: gateway {statistics.median(gateway_cpu):.0f} ms, demo-upstream "
          f"{statistics.median(demo_cpu):.0f} ms (first run {demo_cpu[0]:.0f} ms); {os.cpu_count()} cores, "
          f"load {' '.join(open('/proc/loadavg').read().split()[:3])}")


def cpu_seconds(pid):
    """utime + stime of a process, in seconds."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
