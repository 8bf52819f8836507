#!/usr/bin/env python3
"""The nested Iron Maiden query with its videos deferred, over HTTP multipart (issue 18):
`demo-upstream --latency-ms 50` and `serve` as separate processes, a cold gateway per run, the
query with `... @defer { videos(first: 1) { title } }` under each track POSTed with
`Accept: multipart/mixed; incrementalSpec=v0.2` and read as it arrives.

Prints, per run and as medians: the time to the first part (artist, albums, tracks, no videos;
target <= 200 ms), the time to the last part, whether the merged parts equal the non-deferred
answer of another cold gateway in the same run, and the upstream request counts of both
(target: 153 each). Exits 1 on a missed target.

usage: bench/defer.py [--bin .build/release/musicgraph] [--runs 5] [--latency-ms 50]
"""
import argparse
import http.client
import json
import os
import statistics
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gateway_procs import get_json, post, start, stop  # noqa: E402

PLAIN = '{ artist(name: "Iron Maiden") { name albums { title tracks { title videos(first: 1) { title } } } } }'
DEFERRED = ('{ artist(name: "Iron Maiden") { name albums { title tracks { title '
            '... @defer { videos(first: 1) { title } } } } } }')
PART_HEAD = b"\r\n---\r\nContent-Type: application/json; charset=utf-8\r\n\r\n"
CLOSE = b"\r\n-----\r\n"


def gateway(binary, demo_url):
    # 150 searches are 15,000 units: more than YouTube's default daily quota, which the demo has not.
    # Its own memory store: the default file store would keep the last run's answers, and every run
    # after the first would be warm (0 upstream requests).
    return start([binary, "serve", "--port", "0", "--upstream", demo_url, "--request-timeout-ms", "0",
                  "--daily-quota", "youtube=0", "--store", "memory"], env={**os.environ, "YOUTUBE_API_KEY": "bench"})


def multipart(url, query):
    """POSTs `query` for multipart and reads it as it arrives: (ms to the first part, ms to the
    close delimiter, the payloads)."""
    target = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=600)
    body = json.dumps({"query": query})
    started = time.perf_counter()
    connection.request("POST", target.path, body, {"Content-Type": "application/json",
                                                   "Accept": "multipart/mixed; incrementalSpec=v0.2"})
    response = connection.getresponse()
    if not response.getheader("Content-Type", "").startswith("multipart/mixed"):
        raise SystemExit(f"not multipart: {response.status} {response.getheader('Content-Type')}")
    seen, first_ms = b"", None
    while not seen.endswith(CLOSE):
        chunk = response.read1(65536)
        if not chunk:
            raise SystemExit("the stream ended without its close delimiter")
        seen += chunk
        if first_ms is None and seen.count(PART_HEAD) >= 1 and b'"hasNext":true' in seen:
            first_ms = (time.perf_counter() - started) * 1000
    end_ms = (time.perf_counter() - started) * 1000
    connection.close()
    parts = seen[:-len(CLOSE)].split(PART_HEAD)[1:]
    return first_ms, end_ms, [json.loads(part) for part in parts]


def merged(payloads):
    """The data the RFC's payloads add up to (each entry placed by its pending notice's path)."""
    data, paths = payloads[0]["data"], {}
    for payload in payloads:
        for notice in payload.get("pending", []):
            paths[notice["id"]] = notice["path"]
        for entry in payload.get("incremental", []):
            node = data
            for key in paths[entry["id"]] + entry.get("subPath", []):
                node = node[key]
            node.update(entry["data"])
    return data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/musicgraph", help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--latency-ms", type=int, default=50)
    args = parser.parse_args()

    demo, demo_url = start([args.bin, "demo-upstream", "--port", "0", "--latency-ms", str(args.latency_ms)])
    firsts, ends, plain_walls, rows = [], [], [], []
    try:
        for run in range(args.runs):
            plain_gateway, plain_url = gateway(args.bin, demo_url)
            deferred_gateway, deferred_url = gateway(args.bin, demo_url)
            try:
                post(plain_url, "{ __typename }")  # warm each server's first connection
                post(deferred_url, "{ __typename }")
                before = len(get_json(demo_url + "/__demo/requests"))
                started = time.perf_counter()
                expected = post(plain_url, PLAIN)
                plain_walls.append((time.perf_counter() - started) * 1000)
                plain_requests = len(get_json(demo_url + "/__demo/requests")) - before
                first_ms, end_ms, payloads = multipart(deferred_url, DEFERRED)
                deferred_requests = len(get_json(demo_url + "/__demo/requests")) - before - plain_requests
            finally:
                stop(plain_gateway)
                stop(deferred_gateway)
            first_has_videos = "videos" in json.dumps(payloads[0]["data"])
            equal = merged(payloads) == expected["data"] and "errors" not in expected
            firsts.append(first_ms)
            ends.append(end_ms)
            rows.append((equal, first_has_videos, plain_requests, deferred_requests, len(payloads)))
            print(f"run {run + 1}: first part {first_ms:.1f} ms, last part {end_ms:.1f} ms, {len(payloads)} parts, "
                  f"merged == non-deferred: {equal}, upstream requests deferred {deferred_requests} / "
                  f"non-deferred {plain_requests}, non-deferred wall {plain_walls[-1]:.1f} ms")
    finally:
        stop(demo)
    first, end, plain_wall = statistics.median(firsts), statistics.median(ends), statistics.median(plain_walls)
    all_equal = all(row[0] for row in rows)
    no_videos_first = not any(row[1] for row in rows)
    requests_ok = all(row[2] == 153 and row[3] == 153 for row in rows)
    print(f"iron maiden query, videos deferred, {args.latency_ms} ms per upstream request, {args.runs} runs (cold)")
    print(f"time to first part median {first:.1f} ms (min {min(firsts):.1f}, max {max(firsts):.1f}; target <= 200)")
    print(f"time to last part median {end:.1f} ms; non-deferred answer median {plain_wall:.1f} ms; "
          f"first part / non-deferred answer {first / plain_wall:.3f}")
    print(f"merged parts equal the non-deferred answer: {all_equal}; first part without videos: {no_videos_first}")
    print(f"upstream requests deferred {[row[3] for row in rows]}, non-deferred {[row[2] for row in rows]} "
          f"(target 153 each)")
    if first > 200 or not all_equal or not no_videos_first or not requests_ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
