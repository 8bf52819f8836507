#!/usr/bin/env python3
"""graphql-core validate() on one document against one SDL schema, for bench/hostile.py.

Prints one JSON line {"impl","errors":[{"message","locations"}],"ms","runs"}: the errors it
reports (in order) and the median milliseconds of one validation (parse and schema build
excluded). `--unbudgeted` lifts graphql-core's OverlappingFieldsCanBeMerged budget
(MAX_COMPLEXITY_BUDGET), its fragment-work limit and its fragment nesting limit, to see the verdict its algorithm
reaches when it is not stopped; the times are then not reported (it may take seconds).
Run with the venv's python (bench/hostile.py makes it: graphql-core 3.2.14).

Usage: python peer_validate.py SCHEMA.graphql DOC.graphql [--runs 5] [--min-time 0.3] [--unbudgeted]
"""
import argparse
import json
import sys
import time

import graphql
from graphql.validation import validate as validate_module
from graphql.validation import validation_context
from graphql.validation.rules import overlapping_fields_can_be_merged


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("schema")
    parser.add_argument("document")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.3)
    parser.add_argument("--unbudgeted", action="store_true")
    args = parser.parse_args()
    sys.setrecursionlimit(100_000)
    if args.unbudgeted:
        overlapping_fields_can_be_merged.MAX_COMPLEXITY_BUDGET = 10**12
        validation_context.MAX_FRAGMENT_WORK = 10**12
        validate_module.MAX_NESTING_DEPTH = 10**6
    with open(args.schema) as f:
        schema = graphql.build_schema(f.read())
    with open(args.document) as f:
        document = graphql.parse(f.read(), no_location=False)
    impl = f"graphql-core {graphql.version}" + (" unbudgeted" if args.unbudgeted else "")
    try:
        errors = graphql.validate(schema, document)
    except RecursionError as error:
        print(json.dumps({"impl": impl, "threw": str(error)}))
        return
    row = {
        "impl": impl,
        "errors": [{"message": e.message, "locations": [[l.line, l.column] for l in (e.locations or [])]}
                   for e in errors],
        "runs": args.runs,
    }
    if not args.unbudgeted:
        start = time.perf_counter()
        graphql.validate(schema, document)
        once = time.perf_counter() - start
        if once > args.min_time:
            # Slower than a timed run: that one validation is the figure.
            row["ms"], row["runs"] = once * 1000, 1
            print(json.dumps(row))
            return
        per_loop = max(1, round(args.min_time / max(once, 1e-6)))
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            for _ in range(per_loop):
                graphql.validate(schema, document)
            times.append((time.perf_counter() - start) / per_loop * 1000)
        times.sort()
        row["ms"] = times[len(times) // 2]
    print(json.dumps(row))


if __name__ == "__main__":
    main()
