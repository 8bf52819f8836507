#!/usr/bin/env python3
"""The nested Iron Maiden query against DemoUpstream with 50 ms injected per upstream
request: wall time next to the critical path 3 × 50 ms + ⌈150 / video concurrency⌉ × 50 ms
(artist search, albums lookup, songs lookup, then the 150 YouTube searches in waves of the
gateway's search concurrency). Target: ratio ≤ 1.15. Cold cache each run (a fresh gateway).

usage: bench/gateway-latency.py [--bin .build/release/musicgraph] [--runs 5] [--latency-ms 50]
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
    parser.add_argument("--bin", default=".build/release/musicgraph")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--latency-ms", type=int, default=50)
    args = parser.parse_args()

    demo, demo_url = start([args.bin, "demo-upstream", "--port", "0", "--latency-ms", str(args.latency_ms)])
    walls = []
    search_ms = []
    try:
        # DemoUpstream's own time per YouTube search (beyond the injected latency): the 150
        # searches share the machine's cores, so this bounds the wall time from below too.
        for _ in range(3):
            started = time.perf_counter()
            get_json(demo_url + "/youtube/v3/search?part=snippet&type=video&q=Iron+Maiden+Aces+High&maxResults=1&key=k")
            search_ms.append((time.perf_counter() - started) * 1000 - args.latency_ms)
        for _ in range(args.runs):
            # 150 searches are 15,000 units: more than YouTube's default daily quota, which the demo has not.
            gateway, url = start([args.bin, "serve", "--port", "0", "--upstream", demo_url, "--request-timeout-ms", "0",
                                  "--daily-quota", "youtube=0", "--store", "memory"],
                                 env={**os.environ, "YOUTUBE_API_KEY": "bench"})
            try:
                post(url, "{ __typename }")  # warm the server's first connection
                before = len(get_json(demo_url + "/__demo/requests"))
                started = time.perf_counter()
                response = post(url, QUERY)
                walls.append((time.perf_counter() - started) * 1000)
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
    service = statistics.median(search_ms)
    print(f"demo-upstream service time per YouTube search {service:.1f} ms beyond the injected latency: "
          f"150 searches on {os.cpu_count()} cores need >= {150 * service / os.cpu_count():.0f} ms of its CPU alone")


if __name__ == "__main__":
    main()
