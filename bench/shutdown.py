#!/usr/bin/env python3
"""What a load balancer sees of a SIGTERM, with the real binary and DemoUpstream:

1. 50 queries in flight (each upstream answer delayed 1.5 s), grace 5 s: how long until /readyz
   answers 503, how long a new query takes to be refused, and that the 50 all finish (200).
2. 50 queries whose upstream answers take 20 s, grace 2 s: every one answered 503 at the grace,
   none later (the latest answer after SIGTERM, in ms).
3. The shutdown line of the log and /metrics counts.

Targets: /readyz 503 within 100 ms; the refusal within 100 ms; phase 1 all 200; phase 2 all 503
no later than the grace + 250 ms; the log's counts equal what the clients saw.

usage: bench/shutdown.py [--bin .build/release/musicgraph]
"""
import argparse
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gateway_procs import start, stop  # noqa: E402

ENV = {**os.environ, "MUSICGRAPH_STORE": "memory", "MUSICGRAPH_DAILY_QUOTA": ""}
ARTISTS = ["AC/DC", "Iron Maiden", "Led Zeppelin", "Metallica", "U2", "Nirvana", "Pearl Jam", "Queen",
           "Miles Davis", "Amy Winehouse"]


def post(url, query, timeout=60):
    body = json.dumps({"query": query}).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, ConnectionError) as error:
        return f"error: {error}"


def status_of(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, ConnectionError):
        return None


def in_flight(base):
    try:
        with urllib.request.urlopen(base + "/metrics", timeout=5) as response:
            for line in response.read().decode().splitlines():
                if line.startswith("musicgraph_http_requests_in_flight "):
                    return int(line.split()[1]) - 1  # this scrape
    except urllib.error.URLError:
        pass
    return 0


def phase(args, demo_url, latency_ms, grace_ms):
    faults = json.dumps({"/search": {"latencyMs": latency_ms}}).encode()
    urllib.request.urlopen(urllib.request.Request(demo_url + "/__demo/faults", faults, method="POST"), timeout=30)
    process = subprocess.Popen(
        [args.bin, "serve", "--port", "0", "--upstream", demo_url, "--no-result-cache", "--request-timeout-ms", "0",
         "--shutdown-grace-ms", str(grace_ms), "--timeout-ms", "60000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True)
    url = process.stdout.readline().split()[-1]
    base = url.rsplit("/", 1)[0]
    queries = [f'{{ q{i}: artist(name: "{ARTISTS[i % len(ARTISTS)]} {i}") {{ name }} }}' for i in range(50)]
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=60)
    answered = {}

    def ask(query):
        status = post(url, query)
        answered[query] = (status, time.monotonic())
        return status

    futures = [pool.submit(ask, query) for query in queries]
    deadline = time.monotonic() + 30
    while in_flight(base) < 50 and time.monotonic() < deadline:
        time.sleep(0.01)
    flying = in_flight(base)
    sent_at = time.monotonic()
    process.send_signal(signal.SIGTERM)
    ready_ms = None
    while time.monotonic() - sent_at < 5:
        if status_of(base + "/readyz") == 503:
            ready_ms = (time.monotonic() - sent_at) * 1000
            break
        time.sleep(0.002)
    asked = time.monotonic()
    refused_status = post(url, '{ artist(name: "AC/DC") { name } }')
    refused_ms = (time.monotonic() - asked) * 1000
    statuses = [future.result() for future in futures]
    latest_ms = max((at - sent_at) * 1000 for _, at in answered.values())
    _, stderr = process.communicate(timeout=60)
    shutdown_line = next((line for line in stderr.splitlines() if '"event":"shutdown"' in line), "")
    pool.shutdown()
    return flying, ready_ms, refused_status, refused_ms, statuses, latest_ms, shutdown_line


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/musicgraph",
                        help="the musicgraph binary (default: .build/release/musicgraph)")
    args = parser.parse_args()
    demo, demo_url = start([args.bin, "demo-upstream", "--port", "0"], env=ENV)
    demo_url = demo_url.rstrip("/")
    try:
        flying, ready_ms, refused, refused_ms, statuses, latest_ms, line = phase(args, demo_url, 1500, 5000)
        counts = json.loads(line) if line else {}
        ok1 = (flying >= 50 and ready_ms is not None and ready_ms < 100 and refused == 503 and refused_ms < 100
               and statuses.count(200) == 50 and counts.get("finished") == 50 and counts.get("refused", 0) >= 1)
        print(f"1. {flying} queries in flight, SIGTERM: /readyz 503 after {ready_ms and round(ready_ms, 1)} ms; a new "
              f"query {refused} after {refused_ms:.1f} ms; the 50: {statuses.count(200)} x 200, last at "
              f"{latest_ms:.0f} ms; log: {line}: {'met' if ok1 else 'MISSED'}")
        flying, ready_ms, refused, refused_ms, statuses, latest_ms, line = phase(args, demo_url, 20000, 2000)
        counts = json.loads(line) if line else {}
        ok2 = (statuses.count(503) == 50 and latest_ms <= 2250 and counts.get("unfinished") == 50
               and ready_ms is not None and ready_ms < 100)
        print(f"2. {flying} queries in flight past a 2,000 ms grace: {statuses.count(503)} x 503, the last "
              f"{latest_ms:.0f} ms after SIGTERM (/readyz 503 after {ready_ms and round(ready_ms, 1)} ms); log: "
              f"{line}: {'met' if ok2 else 'MISSED'}")
    finally:
        stop(demo)
    print("all targets met" if ok1 and ok2 else "some targets MISSED")
    return 0 if ok1 and ok2 else 1


if __name__ == "__main__":
    sys.exit(main())
