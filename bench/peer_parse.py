#!/usr/bin/env python3
"""Times graphql-core parse() on any file, the way ../shared/bench/run_graphql_core.py
times W1 (calibrated loop of about --min-time seconds, one warm-up loop, median over
--runs loops), so that bench/parse.py can compare peers on documents other than W1.

Usage: python peer_parse.py FILE [--runs 7] [--min-time 1.0]
Prints one JSON line: {"impl","file","metric":"parse_MB_per_s","value","runs","extra"}.
"""
import argparse
import json
import statistics
import time

import graphql


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--min-time", type=float, default=1.0)
    args = p.parse_args()

    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    size = len(text.encode("utf-8"))

    def loop(n):
        start = time.perf_counter()
        for _ in range(n):
            graphql.parse(text)
        return time.perf_counter() - start

    per_loop = max(1, round(args.min_time / max(loop(1), 1e-6)))
    loop(per_loop)
    rates = [per_loop * size / 1e6 / loop(per_loop) for _ in range(args.runs)]
    print(json.dumps({
        "impl": f"graphql-core {graphql.__version__}", "file": args.file, "metric": "parse_MB_per_s",
        "value": round(statistics.median(rates), 3), "runs": args.runs,
        "extra": {"doc_bytes": size, "parses_per_run": per_loop},
    }))


if __name__ == "__main__":
    main()
