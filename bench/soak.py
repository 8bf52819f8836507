#!/usr/bin/env python3
"""The soak of issue 16 item 9, driven by bench/soak.sh: CONNECTIONS keep-alive clients send a mix
of queries for SECONDS to `musicgraph serve` in front of a `musicgraph demo-upstream` that fails
one request in ten on every path (DemoUpstream's `everyNth` faults), and every answer is checked.

The mix: nested queries (artist → albums → tracks → videos, for each of the catalog's artists),
searches on every provider (album titles and track names as terms, so the upstream traffic goes
on for the whole run), one cached query, bad documents (syntax and validation errors) and
batches of all of these. What each answer must be comes from a second gateway in front of a
second demo-upstream without faults (asked once per distinct operation): an answer of the
faulty gateway may differ from it only where its data is null AND an error whose `path` starts
at that null says why (the error itself or one under it, as the spec propagates nulls); every
error has a `path` and an `extensions.code`, and no error points at data that is there. A bad
document must answer 400 with its errors' `locations` and no `data`. No answer may contain a
provider secret (the keys are canaries with `" / \\ + = %` in them; Apple Music's echo fault
repeats its Authorization header).

Printed: requests by kind and status, faults seen as error codes, transport errors, answers that
broke the rule (0 expected, examples shown), the gateway's RSS after the warm-up and at the end
(the end may be at most 10% above; the warm-up is the same load for WARMUP seconds first, long
enough for the gateway's byte-bounded upstream and result cache (64 MiB) to fill: measured on
this machine, RSS grows from ~40 to ~140 MB over the first 150 s of this load and then stays), its upstream request count (its /metrics), and whether both
servers were still running and exited cleanly on SIGTERM. The exit status is 1 when any check
failed. Only a benchmark: never part of `make test`.

Usage: bench/soak.py [--bin .build/release/musicgraph] [--seconds 60] [--connections 64] [--warmup 150] [--fault-every 10]
"""
import argparse
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "Sources", "DemoUpstream", "Resources", "chinook-catalog.json")
# Secrets whose every text form (raw, JSON-escaped, percent-encoded) must stay out of the answers.
SECRETS = {
    "YOUTUBE_API_KEY": 'soakYT"/\\+=%41',
    "TMDB_API_KEY": 'soakTMDB"/\\+=%42',
    "APPLE_MUSIC_TOKEN": 'soakAPPLE"/\\+=%43',
    "RAKUTEN_APP_ID": 'soakRAKUTEN"/\\+=%44',
}

NESTED = """query Nested($name: String!) { artist(name: $name) { id name albums(first: 2) { id title
  tracks { id title durationMs videos(first: 1) { id title url } } } } }"""
SEARCHES = [
    "query S1($t: String!) { albums(term: $t, first: 3) { id title artistName tracks { id title } } }",
    "query S2($t: String!) { albums(term: $t, first: 2, source: APPLE_MUSIC) { id title tracks { id title } } }",
    "query S3($t: String!) { albums(term: $t, first: 2, source: RAKUTEN) { id title artistName } }",
    "query S4($t: String!) { movies(query: $t, first: 2) { id title videos(first: 2) { id title } } }",
    "query S5($t: String!) { videos(query: $t, first: 2) { id title channelTitle } }",
    "query S6($t: String!) { artists(name: $t, first: 3) { id name genre } }",
]
CACHED = '{ artist(name: "AC/DC") { name genre albums(first: 3) { title releaseDate trackCount } } }'
BAD = [
    '{ artist(name: "AC/DC") { name albums { title }',  # syntax: unterminated selection set
    "{ artist(name: 12) { name } }",  # ArgumentsOfCorrectType
    "{ artist(name: \"Queen\") { nickname } }",  # FieldsOnCorrectType
    "query Q($n: String!) { artist(name: $n) { name } } query Q { __typename }",  # UniqueOperationNames
    "{ albums(term: \"rock\") }",  # ScalarLeafs
]


class Catalog:
    def __init__(self):
        data = json.load(open(CATALOG, encoding="utf-8"))
        self.artists = [a["name"] for a in data["artists"]]
        self.terms = [a["title"] for a in data["albums"]] + [t["name"] for t in data["tracks"]]


def operation(kind, rng, catalog):
    """One GraphQL request body (a dict) of the mix."""
    if kind == "nested":
        return {"query": NESTED, "variables": {"name": rng.choice(catalog.artists)}}
    if kind == "search":
        return {"query": rng.choice(SEARCHES), "variables": {"t": rng.choice(catalog.terms)}}
    if kind == "cached":
        return {"query": CACHED}
    return {"query": rng.choice(BAD)}


def key(body):
    return json.dumps(body, sort_keys=True)


class Reference:
    """What each operation answers without faults: one request to the reference gateway each."""

    def __init__(self, url):
        self.url = url
        self.lock = threading.Lock()
        self.known = {}

    def get(self, body):
        k = key(body)
        with self.lock:
            event = self.known.get(k)
            if event is None:
                event = self.known[k] = [threading.Event(), None]
                owner = True
            else:
                owner = False
        if owner:
            request = urllib.request.Request(
                self.url, json.dumps(body).encode(),
                {"Content-Type": "application/json", "Accept": "application/graphql-response+json"})
            try:
                with urllib.request.urlopen(request, timeout=120) as response:
                    event[1] = json.load(response)
            except urllib.error.HTTPError as error:
                event[1] = json.load(error)
            event[0].set()
        event[0].wait()
        return event[1]


def null_explained(path, errors):
    """Whether an error's path starts at `path` (that error, or one under it, nulled it)."""
    return any(isinstance(e.get("path"), list) and e["path"][: len(path)] == path for e in errors)


def differences(expected, got, path, errors, expected_errors, out):
    """Appends to `out` each place where `got` differs from `expected` without an error saying why,
    and each null that an error explains in `expected` but none in `got`."""
    if got is None:
        if (expected is not None or null_explained(path, expected_errors)) and not null_explained(path, errors):
            out.append(f"null without an error at {path}")
        return
    if isinstance(expected, dict) and isinstance(got, dict):
        if list(expected) != list(got):
            out.append(f"keys {list(got)} instead of {list(expected)} at {path}")
            return
        for name in expected:
            differences(expected[name], got[name], path + [name], errors, expected_errors, out)
    elif isinstance(expected, list) and isinstance(got, list):
        if len(expected) != len(got):
            out.append(f"{len(got)} items instead of {len(expected)} at {path}")
            return
        for i, (e, g) in enumerate(zip(expected, got)):
            differences(e, g, path + [i], errors, expected_errors, out)
    elif expected != got:
        out.append(f"{json.dumps(got)[:80]} instead of {json.dumps(expected)[:80]} at {path}")


def value_at(data, path):
    """The value at `path`, or None when the path runs into a null (or out of the data)."""
    for step in path:
        if isinstance(data, dict) and isinstance(step, str):
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return None
        if data is None:
            return None
    return data


def check_executed(reference, got, status):
    """Problems of one answer to a valid operation, given the fault-free answer."""
    problems = []
    if not isinstance(got, dict):
        return [f"not a JSON object: {str(got)[:80]}"]
    errors = got.get("errors", [])
    for error in errors:
        if not isinstance(error.get("path"), list):
            problems.append(f"error without a path: {json.dumps(error)[:160]}")
        if not (error.get("extensions") or {}).get("code"):
            problems.append(f"error without extensions.code: {json.dumps(error)[:160]}")
        elif value_at(got.get("data"), error.get("path") or []) is not None:
            problems.append(f"error at {error['path']} where there is data: {json.dumps(error)[:160]}")
    if "data" not in got:
        problems.append(f"no data (status {status}): {json.dumps(errors)[:160]}")
        return problems
    # An error of the fault-free answer (a record its upstream does not know) must be there too.
    differences(reference.get("data"), got["data"], [], errors, reference.get("errors", []), problems)
    # graphql-response+json: 200 for a clean answer, 294 (partial success) with errors.
    expected = 294 if errors else 200
    if status is not None and got.get("data") is not None and status != expected:
        problems.append(f"status {status} with data{' and errors' if errors else ''}")
    return problems


def check_bad(got, status):
    if not isinstance(got, dict) or "data" in got or not got.get("errors"):
        return [f"a bad document answered {json.dumps(got)[:160]}"]
    # A syntax error is 400, a validation error 422 (graphql-response+json).
    parse = any((e.get("extensions") or {}).get("code") == "GRAPHQL_PARSE_FAILED" for e in got["errors"])
    if status is not None and status != (400 if parse else 422):
        return [f"status {status} for a bad document"]
    return [f"error without locations: {json.dumps(e)[:160]}" for e in got["errors"] if not e.get("locations")]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.sent = {}
        self.statuses = {}
        self.codes = {}
        self.faulted = 0
        self.transport = {}
        self.broken = 0
        self.examples = []
        self.leaks = 0
        self.latencies = []

    def add(self, kind, status, codes, problems, elapsed):
        with self.lock:
            self.sent[kind] = self.sent.get(kind, 0) + 1
            self.statuses[status] = self.statuses.get(status, 0) + 1
            for code in codes:
                self.codes[code] = self.codes.get(code, 0) + 1
            if any(code.startswith("UPSTREAM_") for code in codes):
                self.faulted += 1
            if problems:
                self.broken += 1
                if len(self.examples) < 8:
                    self.examples.append(f"{kind}: {problems[0]}")
            self.latencies.append(elapsed)


def leaked(text):
    for secret in SECRETS.values():
        forms = {secret, json.dumps(secret)[1:-1], urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret)}
        # The secrets' distinctive stems catch any other encoding of them as well.
        forms.add(secret.split('"')[0])
        if any(form in text for form in forms):
            return True
    return False


def client(url, deadline, seed, catalog, reference, stats):
    rng = random.Random(seed)
    parsed = urllib.parse.urlsplit(url)
    connection = None
    kinds = ["nested"] * 30 + ["search"] * 25 + ["cached"] * 20 + ["bad"] * 10 + ["batch"] * 15
    while time.monotonic() < deadline:
        kind = rng.choice(kinds)
        if kind == "batch":
            parts = [rng.choice(["nested", "search", "cached", "bad"]) for _ in range(rng.randint(2, 4))]
            bodies = [operation(p, rng, catalog) for p in parts]
            payload = bodies
        else:
            parts = [kind]
            bodies = [operation(kind, rng, catalog)]
            payload = bodies[0]
        expected = [None if p == "bad" else reference.get(b) for p, b in zip(parts, bodies)]
        started = time.monotonic()
        try:
            if connection is None:
                connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
            connection.request(
                "POST", parsed.path, json.dumps(payload).encode(),
                {"Content-Type": "application/json", "Accept": "application/graphql-response+json"})
            response = connection.getresponse()
            text = response.read().decode("utf-8")
            status = response.status
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = None
        except (OSError, http.client.HTTPException) as error:
            with stats.lock:
                name = type(error).__name__
                stats.transport[name] = stats.transport.get(name, 0) + 1
            if connection is not None:
                connection.close()
            connection = None
            time.sleep(0.05)
            continue
        elapsed = time.monotonic() - started
        problems = []
        if leaked(text):
            with stats.lock:
                stats.leaks += 1
            problems.append("a secret in the answer")
        try:
            answer = json.loads(text)
        except ValueError:
            stats.add(kind, status, [], [f"not JSON: {text[:80]}"], elapsed)
            continue
        answers = answer if kind == "batch" else [answer]
        if kind == "batch" and (not isinstance(answer, list) or len(answer) != len(bodies)):
            stats.add(kind, status, [], [f"batch answered {text[:120]}"], elapsed)
            continue
        codes = []
        for part, ref, got in zip(parts, expected, answers):
            codes += [(e.get("extensions") or {}).get("code", "NONE") for e in (got.get("errors") or [])] \
                if isinstance(got, dict) else []
            # A batch's status is the whole batch's: each operation's own is not known.
            part_status = status if kind != "batch" else None
            problems += check_bad(got, part_status) if part == "bad" else check_executed(ref, got, part_status)
        stats.add(kind, status, codes, problems, elapsed)
    if connection is not None:
        connection.close()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def start(argv, env):
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    line = process.stdout.readline()
    if not line:
        raise SystemExit(f"{' '.join(argv[:2])} did not start")
    return process, line.split()[-1]


def metric(url, name):
    """The sum of a Prometheus counter's samples in the gateway's /metrics."""
    base = url.rsplit("/", 1)[0]
    text = urllib.request.urlopen(base + "/metrics", timeout=30).read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            total += float(line.rsplit(" ", 1)[1])
    return int(total)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/musicgraph", help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--warmup", type=float, default=150)
    parser.add_argument("--fault-every", type=int, default=10)
    args = parser.parse_args()

    env = dict(os.environ, **SECRETS)
    # No quota and no cost ceiling: the soak is about faults, not about refusals.
    # A store of its own each, in memory: the two must share nothing, and no run may start warm.
    serve_flags = ["--port", "0", "--store", "memory", "--daily-quota", "youtube=0", "--max-query-cost", "100000000"]
    processes = []
    try:
        faulty_upstream, faulty_upstream_url = start([args.bin, "demo-upstream", "--port", "0"], env)
        processes.append(faulty_upstream)
        clean_upstream, clean_upstream_url = start([args.bin, "demo-upstream", "--port", "0"], env)
        processes.append(clean_upstream)
        n = args.fault_every
        # One fault kind per provider, each on every Nth request to it: bodies that are not the
        # API's JSON, an error status, an HTML page, an echo of the credentials; the 503 is
        # retried by the client (most recover), the others are not.
        faults = {
            "/lookup": {"malformed": True, "everyNth": n},
            "/search": {"truncated": True, "everyNth": n},
            "/v1/": {"echo": True, "status": 401, "everyNth": n},
            "/youtube/": {"status": 400, "everyNth": n},
            "/3/": {"html": True, "status": 500, "everyNth": n},
            "/services/": {"status": 503, "everyNth": n},
        }
        urllib.request.urlopen(urllib.request.Request(
            faulty_upstream_url + "/__demo/faults", json.dumps(faults).encode(),
            {"Content-Type": "application/json"}), timeout=30).read()
        gateway, gateway_url = start([args.bin, "serve", "--upstream", faulty_upstream_url] + serve_flags, env)
        processes.append(gateway)
        clean, clean_url = start([args.bin, "serve", "--upstream", clean_upstream_url] + serve_flags, env)
        processes.append(clean)

        catalog = Catalog()
        reference = Reference(clean_url)
        stats = Stats()
        started = time.monotonic()
        deadline = started + args.warmup + args.seconds
        threads = [threading.Thread(target=client, args=(gateway_url, deadline, i, catalog, reference, stats))
                   for i in range(args.connections)]
        for thread in threads:
            thread.start()
        samples = []
        while any(t.is_alive() for t in threads):
            if gateway.poll() is None:
                samples.append((time.monotonic() - started, rss_kb(gateway.pid)))
            time.sleep(1)
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started

        alive = {"gateway": gateway.poll() is None, "demo-upstream": faulty_upstream.poll() is None}
        upstream_requests = metric(gateway_url, "musicgraph_upstream_requests_total") if alive["gateway"] else -1
        after_warmup = next((kb for t, kb in samples if t >= args.warmup), samples[-1][1] if samples else 0)
        end_kb = samples[-1][1] if samples else 0
        peak_kb = max((kb for _, kb in samples), default=0)
        exits = {}
        for name, process in (("gateway", gateway), ("demo-upstream", faulty_upstream)):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            try:
                exits[name] = process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                exits[name] = "no exit within 30 s"
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()

    total = sum(stats.sent.values())
    growth = (end_kb - after_warmup) / after_warmup * 100 if after_warmup else 0.0
    crashes = sum(1 for ok in alive.values() if not ok) + sum(1 for code in exits.values() if code != 0)
    latencies = sorted(stats.latencies)
    p99 = latencies[int(len(latencies) * 0.99)] * 1000 if latencies else 0
    print(f"soak: {elapsed - args.warmup:.0f} s after a {args.warmup:.0f} s warm-up, {args.connections} connections, "
          f"1 upstream request in {n} faulted per path; counts over the whole {elapsed:.0f} s")
    print(f"requests: {total} ({total / elapsed:.0f}/s, p99 {p99:.0f} ms): "
          + ", ".join(f"{k} {v}" for k, v in sorted(stats.sent.items())))
    print("statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.statuses.items())))
    print(f"answers with an upstream error: {stats.faulted}; error codes: "
          + ", ".join(f"{k} {v}" for k, v in sorted(stats.codes.items(), key=lambda kv: -kv[1])))
    print(f"gateway upstream requests: {upstream_requests}; reference operations: {len(reference.known)}")
    print(f"transport errors: {sum(stats.transport.values())} {stats.transport or ''}")
    print(f"answers missing their errors at the right paths (or otherwise wrong): {stats.broken}")
    for example in stats.examples:
        print(f"  e.g. {example}")
    print(f"answers with a secret: {stats.leaks}")
    print(f"gateway RSS: {after_warmup / 1024:.1f} MB after {args.warmup:.0f} s warm-up, {end_kb / 1024:.1f} MB at "
          f"the end ({growth:+.1f}%, limit +10%), peak {peak_kb / 1024:.1f} MB")
    print("gateway RSS every 10 s (MB): " + " ".join(f"{kb / 1024:.0f}" for t, kb in samples[::10]))
    print(f"crashes: {crashes} (running at the end: {alive}; exit statuses on SIGTERM: {exits})")
    ok = crashes == 0 and stats.broken == 0 and stats.leaks == 0 and growth <= 10 and total > 0 \
        and not stats.transport
    print("soak: " + ("PASS" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
