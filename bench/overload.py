#!/usr/bin/env python3
"""Health under a connection flood, with the real binary: 4,500 loopback connections trickle
request heads (a byte every 0.5 s, reconnecting when the server closes one) into a gateway
started with `--max-connections 4096 --admin-port 0`, for FLOOD_S seconds (default 30), while a
prober asks /healthz every 100 ms on the admin port (and, for comparison, on the main port).
Then the flood ends and the server's RSS is read again after a minute.

Targets: 100% of the admin port's probes answered within 1 s; RSS a minute after the flood
within 20% of its value before it.

usage: bench/overload.py [--bin .build/release/musicgraph] [--connections 4500] [--flood-s 30]
"""
import argparse
import os
import re
import resource
import socket
import subprocess
import sys
import threading
import time
import urllib.request


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def probe(url, timeout=2.0):
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            response.read()
            ok = response.status == 200
    except Exception:  # noqa: BLE001 - a probe that fails counts as slow
        ok = False
    elapsed = time.monotonic() - started
    return elapsed if ok else float("inf")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/musicgraph",
                        help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--connections", type=int, default=4500)
    parser.add_argument("--flood-s", type=float, default=30.0)
    parser.add_argument("--after-s", type=float, default=60.0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.connections + 512)), hard))
    env = {**os.environ, "MUSICGRAPH_STORE": "memory"}
    server = subprocess.Popen(
        [args.bin, "serve", "--port", "0", "--admin-port", "0", "--upstream", "http://127.0.0.1:9",
         "--max-connections", "4096"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    url = server.stdout.readline().split()[-1]
    base = url.rsplit("/", 1)[0]
    admin = None
    while admin is None:
        line = server.stderr.readline()
        match = re.search(r"also at (http://\S+)", line)
        if match:
            admin = match.group(1)
    threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
    port = int(base.rsplit(":", 1)[1])
    for _ in range(20):
        probe(admin + "/healthz")
    time.sleep(1)
    before = rss_mb(server.pid)

    stop = threading.Event()
    admin_probes, main_probes = [], []

    def prober():
        while not stop.is_set():
            admin_probes.append(probe(admin + "/healthz"))
            main_probes.append(probe(base + "/healthz"))
            time.sleep(0.1)

    def flood():
        sockets = []

        def connect():
            s = socket.socket()
            s.setblocking(False)
            try:
                s.connect(("127.0.0.1", port))
            except BlockingIOError:
                pass
            except OSError:
                s.close()
                return None
            return s

        while len(sockets) < args.connections and not stop.is_set():
            s = connect()
            if s:
                sockets.append(s)
        head = b"GET /healthz HTTP/1.1\r\nHost: flood\r\nX-Trickle: "
        step = 0
        while not stop.is_set():
            for index, s in enumerate(sockets):
                try:
                    s.send(head[step % len(head):step % len(head) + 1] if step < len(head) else b"x")
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    s.close()
                    sockets[index] = connect() or s
            step += 1
            stop.wait(0.5)
        for s in sockets:
            s.close()

    threads = [threading.Thread(target=prober), threading.Thread(target=flood)]
    for thread in threads:
        thread.start()
    peak = before
    flood_end = time.monotonic() + args.flood_s
    while time.monotonic() < flood_end:
        time.sleep(1)
        peak = max(peak, rss_mb(server.pid))
    stop.set()
    for thread in threads:
        thread.join()
    time.sleep(args.after_s)
    after = rss_mb(server.pid)
    server.terminate()
    server.wait(timeout=30)

    def summary(probes):
        slow = [p for p in probes if p >= 1.0]
        finite = sorted(p for p in probes if p != float("inf"))
        worst = "failed" if any(p == float("inf") for p in probes) else f"{max(finite) * 1000:.0f} ms"
        return len(probes), len(slow), worst

    count, slow, worst = summary(admin_probes)
    main_count, main_slow, main_worst = summary(main_probes)
    ok_probes = count > 0 and slow == 0
    ok_rss = after <= before * 1.2
    print(f"1. {args.connections} trickling connections for {args.flood_s:.0f} s: admin port /healthz {count} probes, "
          f"{slow} over 1 s (worst {worst}); main port {main_count} probes, {main_slow} over 1 s (worst {main_worst}): "
          f"{'met' if ok_probes else 'MISSED'}")
    print(f"2. RSS {before:.1f} MB before, {peak:.1f} MB at the flood's peak, {after:.1f} MB {args.after_s:.0f} s after: "
          f"{'met' if ok_rss else 'MISSED'} (target <= {before * 1.2:.1f} MB)")
    print("all targets met" if ok_probes and ok_rss else "some targets MISSED")
    return 0 if ok_probes and ok_rss else 1


if __name__ == "__main__":
    sys.exit(main())
