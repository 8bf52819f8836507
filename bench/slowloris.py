#!/usr/bin/env python3
"""Slow and idle clients against `musicgraph serve --demo`: can a fresh client still get
`/healthz` and a GraphQL answer within 1 s while N connections attack?

Rows, each `--seconds` long, each with a fresh gateway:
  quiet        no attack (the baseline of the ratios)
  slowloris    N connections that send a request line, then one header line every
               `--line-every` seconds, never finishing their heads (reconnecting when closed)
  idle         N connections that connect and send nothing (reconnecting when closed)
  slowloris-old  the slowloris attack against yesterday's settings (--max-connections 1000,
               no head deadline), to show what the limits change; skip with --no-old

A probe opens a new connection every 100 ms and asks GET /healthz, then POST /graphql
`{ artist(name: "AC/DC") { name } }`, each with a 5 s timeout. Printed per row: probes, failures,
p50 / p99 / max latency of each, the share within 1 s, the p99 ratio attacked / quiet, and what
/metrics says the server closed. Target: 0 failures and max < 1 s under 2,000 connections.

usage: bench/slowloris.py [--bin .build/release/musicgraph] [--connections 2000] [--seconds 30]
                          [--line-every 10] [--no-old]
"""
import argparse
import asyncio
import http.client
import json
import os
import resource
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gateway_procs import start, stop  # noqa: E402

QUERY = '{ artist(name: "AC/DC") { name } }'


def raise_fd_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, needed), hard))


def probe_once(host, port):
    """(healthz ms or None, graphql ms or None), each on a fresh connection."""
    results = []
    for method, path, body in (("GET", "/healthz", None), ("POST", "/graphql", json.dumps({"query": QUERY}))):
        started = time.perf_counter()
        try:
            connection = http.client.HTTPConnection(host, port, timeout=5)
            headers = {"Content-Type": "application/json"} if body else {}
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            payload = response.read()
            connection.close()
            ok = response.status == 200 and (body is None or b'"name":"AC/DC"' in payload)
            results.append((time.perf_counter() - started) * 1000 if ok else None)
        except OSError:
            results.append(None)
    return tuple(results)


def run_probes(host, port, seconds, out):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        out.append(probe_once(host, port))
        time.sleep(0.1)


async def attacker(host, port, mode, line_every, stop_at, counters):
    while time.monotonic() < stop_at:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            counters["connect_failures"] += 1
            await asyncio.sleep(0.5)
            continue
        counters["connections"] += 1
        try:
            if mode == "slowloris":
                writer.write(b"GET / HTTP/1.1\r\nHost: victim\r\n")
                await writer.drain()
            line = 0
            while time.monotonic() < stop_at:
                # Wake at the next line, or when the server closes the socket.
                try:
                    data = await asyncio.wait_for(reader.read(1), timeout=line_every)
                    if not data:
                        counters["closed_by_server"] += 1
                        break
                except asyncio.TimeoutError:
                    pass
                if mode == "slowloris":
                    line += 1
                    writer.write(f"X-Slow-{line}: a\r\n".encode())
                    await writer.drain()
        except (OSError, ConnectionError):
            counters["closed_by_server"] += 1
        finally:
            writer.close()


def attack(host, port, mode, connections, line_every, seconds, counters):
    async def main():
        stop_at = time.monotonic() + seconds
        tasks = []
        for index in range(connections):
            tasks.append(asyncio.create_task(attacker(host, port, mode, line_every, stop_at, counters)))
            if index % 200 == 199:
                await asyncio.sleep(0.05)  # let the server accept; a real attacker ramps up too
        await asyncio.gather(*tasks, return_exceptions=True)
    asyncio.run(main())


def metrics_closed(host, port):
    try:
        connection = http.client.HTTPConnection(host, port, timeout=5)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        connection.close()
    except OSError:
        return {}
    closed = {}
    for line in text.splitlines():
        if line.startswith("musicgraph_http_connections_closed_total{"):
            reason = line.split('reason="')[1].split('"')[0]
            closed[reason] = int(float(line.split()[-1]))
    return closed


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_row(args, name, mode, serve_flags):
    gateway, url = start([args.bin, "serve", "--demo", "--store", "memory", "--port", "0", *serve_flags])
    host, port = "127.0.0.1", int(url.split(":")[2].split("/")[0])
    try:
        probe_once(host, port)  # warm: the AC/DC answer is cached from now on
        counters = {"connections": 0, "closed_by_server": 0, "connect_failures": 0}
        attack_thread = None
        if mode:
            attack_thread = threading.Thread(
                target=attack, args=(host, port, mode, args.connections, args.line_every, args.seconds + 2, counters),
                daemon=True)
            attack_thread.start()
            time.sleep(2)  # the attack is up
        probes = []
        run_probes(host, port, args.seconds, probes)
        closed = metrics_closed(host, port)
        if attack_thread:
            attack_thread.join(timeout=30)
    finally:
        stop(gateway)
    row = {"row": name, "probes": len(probes), "closed": closed, "attack": counters}
    for index, label in ((0, "healthz"), (1, "graphql")):
        times = [p[index] for p in probes if p[index] is not None]
        row[label] = {
            "failures": sum(1 for p in probes if p[index] is None),
            "p50_ms": statistics.median(times) if times else float("nan"),
            "p99_ms": percentile(times, 0.99),
            "max_ms": max(times) if times else float("nan"),
            "within_1s": sum(1 for t in times if t < 1000) / len(probes) if probes else 0.0,
        }
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/musicgraph", help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--line-every", type=float, default=10)
    parser.add_argument("--no-old", action="store_true")
    args = parser.parse_args()
    raise_fd_limit(args.connections + 1024)

    rows = [run_row(args, "quiet", None, [])]
    rows.append(run_row(args, "slowloris", "slowloris", []))
    rows.append(run_row(args, "idle", "idle", []))
    if not args.no_old:
        rows.append(run_row(args, "slowloris-old", "slowloris",
                            ["--max-connections", "1000", "--header-timeout-ms", "0", "--idle-timeout-ms", "30000"]))

    quiet = rows[0]
    print(f"{args.connections} attacking connections, {args.seconds} s per row, a header line every "
          f"{args.line_every:g} s; probes: a fresh connection every 100 ms")
    print(f"{'row':<14} {'probes':>6}  {'endpoint':<8} {'fail':>4} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'<1 s':>6} {'p99/quiet':>9}  closed by server")
    for row in rows:
        for label in ("healthz", "graphql"):
            figures = row[label]
            ratio = figures["p99_ms"] / quiet[label]["p99_ms"] if quiet[label]["p99_ms"] else float("nan")
            closed = ", ".join(f"{k} {v}" for k, v in sorted(row["closed"].items()) if v) or "-"
            print(f"{row['row']:<14} {row['probes']:>6}  {label:<8} {figures['failures']:>4} {figures['p50_ms']:>8.1f} "
                  f"{figures['p99_ms']:>8.1f} {figures['max_ms']:>8.1f} {figures['within_1s']:>6.1%} {ratio:>9.2f}  "
                  f"{closed if label == 'healthz' else ''}")
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "slowloris.json"), "w") as handle:
        json.dump(rows, handle, indent=2)
    attacked = [r for r in rows if r["row"] in ("slowloris", "idle")]
    met = all(r[label]["failures"] == 0 and r[label]["max_ms"] < 1000 for r in attacked for label in ("healthz", "graphql"))
    print(f"target (no failures, every probe < 1 s under attack): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
