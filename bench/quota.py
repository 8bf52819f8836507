#!/usr/bin/env python3
"""Quota and cost, measured on real processes: `musicgraph demo-upstream --latency-ms 20` and
fresh `musicgraph serve` gateways (cold caches), upstream requests counted from DemoUpstream's
request log (`GET /__demo/requests`). Prints the figures issue 13 asks for:

1. N concurrent identical cold nested Iron Maiden queries (N = 8, 64): upstream requests in
   total next to the lower bound 153 (each distinct request once), and whether every response's
   data equals a lone query's.
2. The hard budget: the issue's album query and the Iron Maiden query under
   `--max-query-cost 2000` (enforce and measure modes): estimate, units actually sent,
   `QUERY_BUDGET_EXCEEDED` errors.
3. `--daily-quota youtube=1000`: YouTube searches that reach the upstream, however many
   requests ask for videos, and the `UPSTREAM_QUOTA_EXCEEDED` errors the others get.
4. `@cost(weight: 100)` → `@cost(weight: 50)` on `Track.videos` in a `--schema` copy: the
   Iron Maiden query's estimate before and after, and the ratio of its video part.
5. Bad input and faults: a malformed `--daily-quota` refuses to start naming its entry; the
   budget's and the quota's refusals send nothing (DemoUpstream's log holds exactly the requests
   the gateway counted); and, on a second `demo-upstream --latency-ms 250` (slow enough to hang
   up in the middle), a client that closes its connection mid-query: alone, while its third
   request (the songs lookup) is on the wire, none of its 150 searches is sent; beside another client waiting on the same sends, that one still gets
   its whole answer from 153 requests, none sent twice.

usage: bench/quota.py [--bin .build/release/musicgraph] [--latency-ms 20] [--clients 8,64] [--baseline-bin B]
Exits 1 when a figure misses its target.
"""
import argparse
import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gateway_procs import get_json, start, stop  # noqa: E402

IRON_MAIDEN = '{ artist(name: "Iron Maiden") { name albums { title tracks { title videos(first: 1) { title } } } } }'
ALBUM = '{ album(id: "itunes:album:200141") { title tracks { title videos(first: 1) { title } } } }'
LOWER_BOUND = 153
ENV = {**os.environ, "YOUTUBE_API_KEY": "bench", "MUSICGRAPH_MAX_QUERY_COST": "", "MUSICGRAPH_DAILY_QUOTA": ""}


def post(url, query):
    """The GraphQL response, also for a refusal (HTTP 400 with application/graphql-response+json)."""
    body = json.dumps({"query": query}).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        return json.load(error)


def units(log):
    """Quota units of the logged requests at the providers' prices (a YouTube search 100)."""
    return sum(100 if entry["path"] == "/youtube/v3/search" else 1 for entry in log)


def log_of(demo_url):
    return get_json(demo_url + "/__demo/requests")


def clear(demo_url):
    urllib.request.urlopen(urllib.request.Request(demo_url + "/__demo/requests", method="DELETE"), timeout=60).read()


def codes(response):
    return [(e.get("extensions") or {}).get("code") for e in response.get("errors") or []]


def gateway(args, demo_url, *flags):
    return start([args.bin, "serve", "--port", "0", "--upstream", demo_url, "--request-timeout-ms", "0",
                  "--store", "memory", *flags], env=ENV)


def concurrent_identical(args, demo_url, clients, lone_data, baseline=False):
    if baseline:  # a gateway without in-flight deduplication (and without --daily-quota)
        server, url = start([args.baseline_bin, "serve", "--port", "0", "--upstream", demo_url,
                             "--request-timeout-ms", "0", "--max-query-cost", "0"],
                            env={**ENV, "MUSICGRAPH_STORE": "memory"})
    else:
        server, url = gateway(args, demo_url, "--max-query-cost", "0", "--daily-quota", "youtube=0")
    try:
        post(url, "{ __typename }")
        clear(demo_url)
        barrier = threading.Barrier(clients)

        def one(_):
            barrier.wait()
            return post(url, IRON_MAIDEN)

        with concurrent.futures.ThreadPoolExecutor(max_workers=clients) as pool:
            responses = list(pool.map(one, range(clients)))
        log = log_of(demo_url)
    finally:
        stop(server)
    same = all(r.get("data") == lone_data and not r.get("errors") for r in responses)
    dedup = sum(r["extensions"]["upstream"].get("deduplicated", 0) for r in responses)
    hits = sum(r["extensions"]["upstream"]["cacheHits"] for r in responses)
    distinct = len({(e["path"], e["query"]) for e in log})
    label = f"baseline ({args.baseline_bin}): " if baseline else ""
    print(f"{label}{clients:3d} concurrent cold Iron Maiden queries: {len(log)} upstream requests "
          f"({distinct} distinct; lower bound {LOWER_BOUND}; ratio {len(log) / LOWER_BOUND:.2f}), "
          f"{dedup} deduplicated reads, {hits} cache hits; every response equals a lone query's: {same}")
    return baseline or (len(log) == LOWER_BOUND and same)


def budget(args, demo_url):
    ok = True
    for query, name, mode in [(ALBUM, "album 200141", "enforce"), (IRON_MAIDEN, "Iron Maiden", "enforce"),
                              (IRON_MAIDEN, "Iron Maiden", "measure")]:
        server, url = gateway(args, demo_url, "--max-query-cost", "2000", "--query-cost-mode", mode,
                              "--daily-quota", "youtube=0")
        try:
            clear(demo_url)
            response = post(url, query)
            log = log_of(demo_url)
            sent = units(log)
            not_sent = refused_calls(url)
        finally:
            stop(server)
        cost = response["extensions"]["cost"]
        refused = codes(response).count("QUERY_BUDGET_EXCEEDED")
        partial = response.get("data") is not None and refused > 0
        counted = response["extensions"]["upstream"]["requests"]
        print(f"--max-query-cost 2000 ({mode}), {name} query: estimated {cost['estimated']}, actual {cost['actual']}, "
              f"units sent {sent} (<= 2000: {sent <= 2000}), QUERY_BUDGET_EXCEEDED errors {refused}, "
              f"refused before execution: {'QUERY_COST_EXCEEDED' in codes(response)}, partial data: {partial}; "
              f"calls refused {not_sent}, requests upstream {len(log)} = counted {counted}: {len(log) == counted}")
        ok = ok and sent <= 2000 and cost["actual"] == sent and len(log) == counted
    return ok


def daily_quota(args, demo_url):
    # The day's ledger alone: the anonymous client may spend all of it (bench/tenants.py measures shares).
    server, url = gateway(args, demo_url, "--daily-quota", "youtube=1000", "--anonymous-share", "100%",
                          "--anonymous-pool", "100%")
    try:
        clear(demo_url)
        responses = [post(url, IRON_MAIDEN)]
        for n in range(40):
            responses.append(post(url, f'{{ videos(query: "AC/DC song {n}", first: 1) {{ title }} }}'))
        log = log_of(demo_url)
        searches = sum(1 for e in log if e["path"] == "/youtube/v3/search")
        counted = sum(r["extensions"]["upstream"]["requests"] for r in responses)
        not_sent = refused_calls(url)
        refused = sum(codes(r).count("UPSTREAM_QUOTA_EXCEEDED") for r in responses)
        with_path = all(e.get("path") for r in responses for e in r.get("errors") or [])
        quota = responses[-1]["extensions"]["quota"]
        metrics = urllib.request.urlopen(url.replace("/graphql", "/metrics"), timeout=60).read()
        remaining = [line for line in metrics.decode().splitlines()
                     if line.startswith("musicgraph_upstream_quota_remaining")]
    finally:
        stop(server)
    print(f"--daily-quota youtube=1000, 41 requests asking for videos (150 + 40 searches wanted): "
          f"{searches} YouTube searches reached the upstream (<= 10: {searches <= 10}), "
          f"{refused} UPSTREAM_QUOTA_EXCEEDED errors, all at their paths: {with_path}; "
          f"extensions.quota {json.dumps(quota)}; {' '.join(remaining)}; calls refused {not_sent}, "
          f"requests upstream {len(log)} = counted {counted}: {len(log) == counted}")
    return searches <= 10 and with_path and len(log) == counted


def refused_calls(url):
    """Calls the gateway did not send, from `musicgraph_upstream_refused_total`."""
    metrics = urllib.request.urlopen(url.replace("/graphql", "/metrics"), timeout=60).read().decode()
    return sum(int(float(line.split()[-1])) for line in metrics.splitlines()
               if line.startswith("musicgraph_upstream_refused_total{"))


def malformed_quota(args):
    ok = True
    for entry, named in [("youtube=lots", "youtube=lots"), ("youtube=10,vimeo=5", "vimeo"), ("tmdb", "tmdb")]:
        run = subprocess.run([args.bin, "serve", "--port", "0", "--store", "memory", "--daily-quota", entry], capture_output=True,
                             text=True, env=ENV, timeout=60)
        message = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
        print(f"--daily-quota {entry}: exit {run.returncode}, says: {message}")
        ok = ok and run.returncode != 0 and named in message
    return ok


def hang_up_mid_query(port, query):
    """Sends `query` on a socket of its own and returns the socket, to be closed unread."""
    body = json.dumps({"query": query})
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall((f"POST /graphql HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(body.encode())}\r\n\r\n{body}").encode())
    return client


def searches(demo_url):
    return sum(1 for e in log_of(demo_url) if e["path"] == "/youtube/v3/search")


def gone_clients(args, lone_data):
    demo, demo_url = start([args.bin, "demo-upstream", "--port", "0", "--latency-ms", "250"])
    ok = True
    try:
        # Alone: hang up while the songs lookup is on the wire, before the level of 150 searches
        # (which goes out in one wave, --upstream-concurrency 256: hanging up once it has begun
        # would find all of it sent, and show nothing).
        server, url = gateway(args, demo_url, "--max-query-cost", "0", "--daily-quota", "youtube=0")
        try:
            clear(demo_url)
            port = int(url.rsplit(":", 1)[1].split("/")[0])
            client = hang_up_mid_query(port, IRON_MAIDEN)
            deadline = time.monotonic() + 30
            while len(log_of(demo_url)) < 3 and time.monotonic() < deadline:
                time.sleep(0.01)
            at_hang_up = len(log_of(demo_url))
            client.close()
            time.sleep(1.0)
            settled = len(log_of(demo_url))
            time.sleep(1.0)
            later = len(log_of(demo_url))
            metrics = urllib.request.urlopen(url.replace("/graphql", "/metrics"), timeout=60).read().decode()
            gone = [line for line in metrics.splitlines() if line.startswith("musicgraph_http_requests_total")
                    and 'status="499"' in line]
        finally:
            stop(server)
        print(f"a client hanging up mid Iron Maiden query (demo-upstream --latency-ms 250): {at_hang_up} upstream "
              f"requests at the hang-up, {settled} a second later, {later} a second after that (of 153 the query "
              f"needs; stopped growing: {settled == later}); {' '.join(gone) or 'no 499 counted'}")
        ok = ok and at_hang_up == settled == later == 3 and bool(gone)

        # Beside another client waiting on the same sends.
        server, url = gateway(args, demo_url, "--max-query-cost", "0", "--daily-quota", "youtube=0")
        try:
            clear(demo_url)
            port = int(url.rsplit(":", 1)[1].split("/")[0])
            with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
                client = hang_up_mid_query(port, IRON_MAIDEN)
                staying = pool.submit(post, url, IRON_MAIDEN)
                deadline = time.monotonic() + 30
                while searches(demo_url) == 0 and time.monotonic() < deadline:
                    time.sleep(0.01)
                client.close()
                answer = staying.result()
            log = log_of(demo_url)
        finally:
            stop(server)
        distinct = len({(e["path"], e["query"]) for e in log})
        same = answer.get("data") == lone_data and not answer.get("errors")
        print(f"one of two clients hanging up mid-query, the other waiting on the same sends: {len(log)} upstream "
              f"requests ({distinct} distinct), the other's answer equals a lone query's: {same}")
        ok = ok and same and len(log) == LOWER_BOUND and distinct == LOWER_BOUND
    finally:
        stop(demo)
    return ok


def schema_weight(args):
    with open("schema.graphql") as f:
        original = f.read()
    marker = "  ): [Video!]\n    @cost(weight: 100)\n    @costWhen"
    if marker not in original:
        raise SystemExit("schema.graphql no longer has Track.videos' @cost(weight: 100) where this bench looks")
    with tempfile.TemporaryDirectory() as directory:
        copy = os.path.join(directory, "schema.graphql")
        with open(copy, "w") as f:
            f.write(original.replace(marker, marker.replace("weight: 100", "weight: 50")))
        query = os.path.join(directory, "q.graphql")
        with open(query, "w") as f:
            f.write(IRON_MAIDEN)
        estimates = []
        for schema in ["schema.graphql", copy]:
            # --max-query-cost 1 refuses it before execution: only the estimate is computed.
            out = subprocess.run([args.bin, "query", "--demo", "--store", "memory", "--max-query-cost", "1", "--schema", schema,
                                  query],
                                 capture_output=True, text=True, env=ENV).stdout
            estimates.append(json.loads(out)["extensions"]["cost"]["estimated"])
    calls = 3  # artist search, albums lookup, songs lookup at weight 1
    ratio = (estimates[1] - calls) / (estimates[0] - calls)
    print(f"Track.videos @cost(weight: 100) -> 50 in a --schema copy: Iron Maiden estimate {estimates[0]} -> "
          f"{estimates[1]}; video part {estimates[0] - calls} -> {estimates[1] - calls} (ratio {ratio:.3f}, target 0.5)")
    return ratio == 0.5


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/musicgraph", help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--latency-ms", type=int, default=20)
    parser.add_argument("--clients", default="8,64")
    parser.add_argument("--baseline-bin", help="a musicgraph without deduplication (e.g. an older main) to run "
                        "the concurrent rows against too, in the same run")
    args = parser.parse_args()
    demo, demo_url = start([args.bin, "demo-upstream", "--port", "0", "--latency-ms", str(args.latency_ms)])
    results = []
    try:
        server, url = gateway(args, demo_url, "--max-query-cost", "0", "--daily-quota", "youtube=0")
        try:
            lone = post(url, IRON_MAIDEN)
        finally:
            stop(server)
        print(f"demo-upstream --latency-ms {args.latency_ms}; a lone cold Iron Maiden query: "
              f"{lone['extensions']['upstream']['requests']} upstream requests")
        for clients in [int(n) for n in args.clients.split(",")]:
            results.append(concurrent_identical(args, demo_url, clients, lone["data"]))
            if args.baseline_bin:
                concurrent_identical(args, demo_url, clients, lone["data"], baseline=True)
        results.append(budget(args, demo_url))
        results.append(daily_quota(args, demo_url))
    finally:
        stop(demo)
    results.append(schema_weight(args))
    results.append(malformed_quota(args))
    results.append(gone_clients(args, lone["data"]))
    print("all targets met" if all(results) else "TARGET MISSED")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
