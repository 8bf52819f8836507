#!/usr/bin/env python3
"""The rows of issue 15 from one bench/gateway.sh run: ours, theirs and the ratios.

usage: gateway_ratios.py bench/out/gateway/run-<time>.jsonl

Reads the JSON lines the peer's bench.sh wrote (phases "latency" and "throughput"), takes the
median over passes (throughput) or over runs (latency), and prints one Markdown table:
req/s (server CPU µs per query) per row, ours ÷ theirs, and Q1 ÷ Q3, Q2 ÷ Q3 per server.
Targets (issue 15): req/s ratio >= 1.5, latency ratio <= 0.7, ours Q1 ÷ Q3 >= 0.5, ours
nested latency <= 260 ms. A row whose servers did not both run prints "–".
"""
import json
import statistics
import sys

# (label, query, ours, theirs): the like-for-like pairs of issue 15's table.
THROUGHPUT_ROWS = [
    ("`{ __typename }` (Q3)", "Q3", "swift-nrc", "js"),
    ("albums fan-out, all fields (Q1)", "Q1", "swift-nrc", "js-cache"),
    ("albums fan-out, `title` only (Q2)", "Q2", "swift-nrc", "js-cache"),
]
LATENCY_PAIR = ("swift", "js")


def median(values):
    return statistics.median(values) if values else None


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    machine = next((r["text"] for r in rows if r["phase"] == "machine"), "")
    tp = [r for r in rows if r["phase"] == "throughput"]
    lat = [r for r in rows if r["phase"] == "latency" and r["ok"]]
    loaded = any(not r["quiet"] for r in tp + lat)

    def rps(server, query):
        return median([r["rps"] for r in tp if r["server"] == server and r["query"] == query])

    def cpu(server, query):
        return median([r["server_cpu_us_per_query"] for r in tp if r["server"] == server and r["query"] == query
                       and r["server_cpu_us_per_query"] is not None])

    def ratio(a, b):
        return None if a is None or not b else a / b

    def fmt(x, pattern):
        return "–" if x is None else format(x, pattern)

    print(f"Issue 15 rows ({machine}{'; machine loaded during some runs' if loaded else ''})")
    print()
    print("| row | MusicGraph | graphql-js gateway | ours ÷ theirs | target |")
    print("|---|---|---|---|---|")
    for label, query, ours, theirs in THROUGHPUT_ROWS:
        a, b = rps(ours, query), rps(theirs, query)
        print(f"| {label}, req/s (server CPU µs/query) | {fmt(a, ',.0f')} ({fmt(cpu(ours, query), '.0f')} µs, {ours}) "
              f"| {fmt(b, ',.0f')} ({fmt(cpu(theirs, query), '.0f')} µs, {theirs}) | {fmt(ratio(a, b), '.2f')} | >= 1.5 |")
    ours, theirs = LATENCY_PAIR
    a = median([r["wall_ms"] for r in lat if r["server"] == ours])
    b = median([r["wall_ms"] for r in lat if r["server"] == theirs])
    n = sorted({r["upstream_requests"] for r in lat})
    print(f"| cold nested Iron Maiden, 50 ms per upstream request, median ms ({'/'.join(map(str, n))} upstream "
          f"requests) | {fmt(a, '.0f')} ({ours}) | {fmt(b, '.0f')} ({theirs}) | {fmt(ratio(a, b), '.2f')} "
          f"| <= 0.7, ours <= 260 ms |")
    print()
    print("| server | Q1 ÷ Q3 | Q2 ÷ Q3 |")
    print("|---|---|---|")
    for server in sorted({r["server"] for r in tp}):
        q3 = rps(server, "Q3")
        print(f"| {server} | {fmt(ratio(rps(server, 'Q1'), q3), '.2f')} | {fmt(ratio(rps(server, 'Q2'), q3), '.2f')} |")
    print()
    print("Targets: ours Q1 ÷ Q3 (swift-nrc) >= 0.5.")


if __name__ == "__main__":
    main()
