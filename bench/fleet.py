#!/usr/bin/env python3
"""A fleet on loopback, measured: redis-server, gateways `musicgraph serve --store redis://…`
(separate processes), nginx round-robin in front, one `demo-upstream` behind; upstream requests
counted from DemoUpstream's request log. Prints the figures of issue 14:

1. the nested Iron Maiden query sent to instance A (cold) -> 153 upstream requests; the same
   query then sent to instance B -> 0; both restarted -> 0 again;
2. 16 concurrent identical cold queries through nginx (both instances) -> at most 153 in total;
3. `--daily-quota youtube=1000` on both, the query sent through nginx to both at once -> at most
   10 YouTube searches reach the upstream in total;
4. Redis killed under load (64 client threads through nginx, repeated and new queries): failed
   GraphQL requests (target 0) and upstream requests while it is down; once it is back, the
   seconds until a response fetched by A is a hit for B again;
5. cached-query throughput (wrk, 64 connections) of one gateway with `--store redis://` beside
   one with `--store memory`, same run: the ratio (target >= 0.5).

Usage: bench/fleet.py [--bin .build/release/musicgraph] [--seconds 5]
Needs: redis-server, nginx, wrk (Debian packages of those names). Exits 1 on a missed target.
"""
import argparse
import json
import os
import shutil
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

IRON_MAIDEN = ('{ artist(name: "Iron Maiden") { name albums { title tracks { title '
               'videos(first: 1) { title url } } } } }')
ENV = {**os.environ, "YOUTUBE_API_KEY": "bench", "TMDB_API_KEY": "bench", "APPLE_MUSIC_TOKEN": "bench",
       "RAKUTEN_APP_ID": "bench", "MUSICGRAPH_MAX_QUERY_COST": "", "MUSICGRAPH_DAILY_QUOTA": "",
       "MUSICGRAPH_STORE": ""}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url, query, timeout=600):
    body = json.dumps({"query": query}).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def requests_of(response):
    return ((response.get("extensions") or {}).get("upstream") or {}).get("requests")


class Redis:
    def __init__(self, port):
        self.port = port
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--maxmemory", "256mb", "--maxmemory-policy", "volatile-lru"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(500):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.01)
        raise SystemExit("redis-server did not start")

    def kill(self):
        if self.process:
            self.process.kill()
            self.process.wait()
            self.process = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"


class Fleet:
    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.redis = Redis(free_port())
        self.demo, self.demo_url = None, None
        self.gateways = []
        self.nginx_port = None

    def start_demo(self):
        self.demo, self.demo_url = start([self.args.bin, "demo-upstream", "--port", "0"], env=ENV)

    def log(self):
        return get_json(self.demo_url + "/__demo/requests")

    def clear(self):
        urllib.request.urlopen(urllib.request.Request(self.demo_url + "/__demo/requests", method="DELETE"),
                               timeout=60).read()

    def gateway(self, *flags, store=None):
        return start([self.args.bin, "serve", "--port", "0", "--upstream", self.demo_url, "--request-timeout-ms", "0",
                      "--store", store or self.redis.url, *flags], env=ENV)

    def start_gateways(self, *flags, count=2):
        self.stop_gateways()
        self.gateways = [self.gateway(*flags) for _ in range(count)]
        return [url for _, url in self.gateways]

    def stop_gateways(self):
        for process, _ in self.gateways:
            stop(process)
        self.gateways = []

    def start_nginx(self):
        self.stop_nginx()
        self.nginx_port = free_port()
        servers = "".join(f"        server {url.split('/')[2]};\n" for _, url in self.gateways)
        conf = os.path.join(self.work, "nginx.conf")
        with open(conf, "w") as out:
            out.write(f"""daemon on;
pid {self.work}/nginx.pid;
error_log {self.work}/nginx-error.log warn;
worker_processes 1;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {self.work}/nginx-body;
    proxy_temp_path {self.work}/nginx-proxy;
    fastcgi_temp_path {self.work}/nginx-fastcgi;
    uwsgi_temp_path {self.work}/nginx-uwsgi;
    scgi_temp_path {self.work}/nginx-scgi;
    upstream musicgraph {{
{servers}        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{self.nginx_port};
        location / {{ proxy_pass http://musicgraph; proxy_http_version 1.1; proxy_set_header Connection "";
                     proxy_read_timeout 600s; }}
    }}
}}
""")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        subprocess.run([nginx, "-p", self.work, "-c", conf, "-e", f"{self.work}/nginx-error.log"], check=True)
        return f"http://127.0.0.1:{self.nginx_port}/graphql"

    def stop_nginx(self):
        pid_file = os.path.join(self.work, "nginx.pid")
        if os.path.exists(pid_file):
            with open(pid_file) as f:
                pid = int(f.read().strip())
            try:
                os.kill(pid, 15)
            except ProcessLookupError:
                pass
            for _ in range(100):
                if not os.path.exists(pid_file):
                    break
                time.sleep(0.05)

    def stop(self):
        self.stop_nginx()
        self.stop_gateways()
        if self.demo:
            stop(self.demo)
        self.redis.kill()


def figure_a_then_b(fleet):
    fleet.redis.start()
    a, b = fleet.start_gateways("--daily-quota", "youtube=0")
    fleet.clear()
    _, first = post(a, IRON_MAIDEN)
    cold = len(fleet.log())
    fleet.clear()
    _, second = post(b, IRON_MAIDEN)
    on_b = len(fleet.log())
    a, b = fleet.start_gateways("--daily-quota", "youtube=0")
    fleet.clear()
    _, third = post(a, IRON_MAIDEN)
    _, fourth = post(b, IRON_MAIDEN)
    restarted = len(fleet.log())
    same = first.get("data") == second.get("data") == third.get("data") == fourth.get("data")
    print(f"1. A cold: {cold} upstream requests (extensions {requests_of(first)}); then B: {on_b} "
          f"(extensions {requests_of(second)}); both restarted, A then B: {restarted}; same data: {same}")
    fleet.redis.kill()
    return cold == 153 and on_b == 0 and restarted == 0 and same


def figure_concurrent(fleet, n=16):
    fleet.redis.start()
    fleet.start_gateways("--daily-quota", "youtube=0")
    url = fleet.start_nginx()
    fleet.clear()
    results = [None] * n

    def one(i):
        results[i] = post(url, IRON_MAIDEN)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = len(fleet.log())
    ok = all(status == 200 and not body.get("errors") for status, body in results)
    per_response = sum(requests_of(body) or 0 for _, body in results)
    print(f"2. {n} concurrent cold queries through nginx over 2 instances: {total} upstream requests in total "
          f"(target <= 153; sum of extensions {per_response}); all answered without errors: {ok}")
    fleet.redis.kill()
    return total <= 153 and ok


def figure_quota(fleet):
    fleet.redis.start()
    # The fleet's day alone: the anonymous client may spend all of it.
    fleet.start_gateways("--daily-quota", "youtube=1000", "--anonymous-share", "100%", "--anonymous-pool", "100%")
    url = fleet.start_nginx()
    fleet.clear()
    threads = [threading.Thread(target=post, args=(url, IRON_MAIDEN)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name in ["Thunderstruck", "Back in Black", "Hells Bells", "Run to the Hills"]:
        post(url, f'{{ videos(query: "{name}", first: 1) {{ title }} }}')
    searches = sum(1 for e in fleet.log() if e["path"] == "/youtube/v3/search")
    print(f"3. --daily-quota youtube=1000 on both, 4 Iron Maiden queries and 4 searches through nginx: "
          f"{searches} YouTube searches reached the upstream (target <= 10)")
    fleet.redis.kill()
    return searches <= 10


def figure_redis_killed(fleet, seconds):
    fleet.redis.start()
    a, b = fleet.start_gateways("--daily-quota", "youtube=0")
    url = fleet.start_nginx()
    post(url, IRON_MAIDEN)
    fleet.clear()
    stop_at = time.monotonic() + 3 * seconds  # with Redis, without, with again
    counts = {"ok": 0, "failed": 0}
    lock = threading.Lock()
    failures = []

    def client(i):
        n = 0
        while time.monotonic() < stop_at:
            n += 1
            query = (IRON_MAIDEN if n % 2 else
                     f'{{ videos(query: "load {i} {n}", first: 1) {{ title }} artist(name: "AC/DC") {{ name }} }}')
            try:
                status, body = post(url, query, timeout=120)
                good = status == 200 and body.get("data") is not None and not [
                    e for e in body.get("errors") or [] if (e.get("extensions") or {}).get("code") != "NOT_FOUND"]
            except Exception as error:  # noqa: BLE001 - every failure counts
                good, body = False, {"exception": str(error)}
            with lock:
                counts["ok" if good else "failed"] += 1
                if not good and len(failures) < 3:
                    failures.append(body)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(64)]
    for t in threads:
        t.start()
    time.sleep(seconds)
    before = len(fleet.log())
    fleet.redis.kill()
    time.sleep(seconds)
    down = len(fleet.log()) - before
    fleet.redis.start()
    back_at = time.monotonic()
    # Hits again (while the load goes on): a response A fetches after the restart is a hit for B.
    recovered = None
    probe = 0
    while time.monotonic() - back_at < 30:
        probe += 1
        query = f'{{ videos(query: "after restart {probe}", first: 1) {{ title }} }}'
        post(a, query)
        _, on_b = post(b, query)
        if requests_of(on_b) == 0:
            recovered = time.monotonic() - back_at
            break
        time.sleep(0.1)
    for t in threads:
        t.join()
    try:
        ready = get_json(a.replace("/graphql", "/readyz"))
    except (urllib.error.URLError, ValueError) as error:
        ready = f"unavailable ({error})"
    print(f"4. Redis killed under load (64 client threads through nginx, {3 * seconds} s): "
          f"{counts['ok']} answered, {counts['failed']} failed GraphQL requests (target 0); "
          f"{before} upstream requests in the first {seconds} s with Redis, {down} in {seconds} s without; "
          f"hits again {recovered if recovered is None else round(recovered, 2)} s after the restart; "
          f"/readyz: {json.dumps(ready)}")
    if failures:
        print("   first failures:", json.dumps(failures)[:600])
    fleet.redis.kill()
    return counts["failed"] == 0 and recovered is not None and recovered < 10


def wrk_rps(url, seconds):
    body = json.dumps({"query": '{ artist(name: "AC/DC") { name albums(first: 5) { title } } }'})
    script = os.path.join(tempfile.gettempdir(), f"fleet-wrk-{os.getpid()}.lua")
    with open(script, "w") as out:
        out.write(f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}\n'
                  'wrk.headers["Content-Type"] = "application/json"\n')
    post(url, '{ artist(name: "AC/DC") { name albums(first: 5) { title } } }')
    run = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "-s", script, url], capture_output=True, text=True)
    os.unlink(script)
    for line in run.stdout.splitlines():
        if line.startswith("Requests/sec:"):
            return float(line.split()[1])
    raise SystemExit("wrk printed no rate:\n" + run.stdout + run.stderr)


def figure_throughput(fleet, seconds):
    if not shutil.which("wrk"):
        print("5. skipped: wrk is missing (apt-get install -y wrk)")
        return False
    fleet.redis.start()
    fleet.stop_nginx()
    fleet.stop_gateways()
    redis_gw = fleet.gateway("--daily-quota", "youtube=0")
    memory_gw = fleet.gateway("--daily-quota", "youtube=0", store="memory")
    fleet.gateways = [redis_gw, memory_gw]
    rows = {"redis": [], "memory": []}
    for _ in range(3):
        rows["redis"].append(wrk_rps(redis_gw[1], seconds))
        rows["memory"].append(wrk_rps(memory_gw[1], seconds))
    med = {k: sorted(v)[1] for k, v in rows.items()}
    ratio = med["redis"] / med["memory"]
    print(f"5. cached-query throughput (wrk 64 connections, {seconds} s x 3 alternating, medians): "
          f"--store redis {med['redis']:.0f} req/s, --store memory {med['memory']:.0f} req/s, "
          f"ratio {ratio:.2f} (target >= 0.5)")
    fleet.redis.kill()
    return ratio >= 0.5


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release/musicgraph", help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--seconds", type=int, default=5)
    args = parser.parse_args()
    for tool in ["redis-server"]:
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing (Debian: apt-get install -y {tool})")
    work = tempfile.mkdtemp(prefix="musicgraph-fleet-")
    fleet = Fleet(args, work)
    ok = True
    try:
        fleet.start_demo()
        ok &= figure_a_then_b(fleet)
        ok &= figure_concurrent(fleet)
        ok &= figure_quota(fleet)
        ok &= figure_redis_killed(fleet, args.seconds)
        ok &= figure_throughput(fleet, args.seconds)
    finally:
        fleet.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("all targets met" if ok else "a target was missed")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
