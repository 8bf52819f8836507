#!/usr/bin/env python3
"""Declared upstreams (`@upstream`, `@http`, `@from`: docs/connectors.md) measured on real
processes: the loopback JSON API of the tests (`Tests/Clients/json_api.py`, its request log at
`/__log`), `musicgraph serve --demo --schema` gateways on copies of schema.graphql with
examples/connectors/releases.graphql appended, and a redis-server of the bench's own. Every
gateway runs on `--store memory` or that Redis, never the default store. Prints each figure and
"all targets met":

a. Batching and deduplication: 8 concurrent `{ releaseIds(first: 120) { id details { title } } }`
   on one cold gateway: `/ws/releases` batch requests sent (target: exactly 3, of 50 + 50 + 20
   ids) and `/ws/ids` requests (target: 1, the others deduplicated or cached); every answer has
   its 120 titles.
b. The same query again: requests that reach the JSON API (target: 0).
c. Daily quota on a fleet: `dailyUnits: 20`, two gateways on one Redis (with
   `--anonymous-share 100%`: the bench is one anonymous client, whose default share of a day is
   20%), 40 distinct `release(id:)` queries sent alternately to both: requests that reach the JSON API (target:
   exactly 20) and answers refused with UPSTREAM_QUOTA_EXCEEDED (target: the other 20).
d. Cost estimate of `{ releaseIds(first: 120) { details { title } } }`: `extensions.cost.estimated`
   beside U x 1 + U x ceil(120 / 50) for unitsPerCall U = 1 and 3 (the example sizes `releaseIds`
   with `@listSize(slicingArguments: ["first"])`; targets: equal, and `actual` equal too).
e. A broken declaration file given to `musicgraph validate --schema`: exit status (target: 2) and
   stderr's `FILE:LINE:COLUMN: message` lines (target: one at the line of each of its 5 planted
   problems).
f. TMDB declared in schema.graphql against the same gateway built before it was declared
   (`--baseline-bin`, a musicgraph whose TMDB fields are Swift; both run `serve --demo` on their
   own embedded schema): the answers of MOVIE_QUERIES (and of an introspection query) byte for byte, extensions included (target:
   all identical, so the upstream request counts too), then wrk -t1 -c8 on two movie queries
   against `--no-result-cache` servers, 5 back-to-back pairs of runs each: the median of the
   pairs' req/s ratios declared / baseline (target: >= 0.90). Without `--baseline-bin`, f is skipped and says so.

usage: bench/connectors.py [--bin .build/release/musicgraph] [--baseline-bin OLD] [--seconds 5] [--pairs 5]
Exits 1 when a figure misses its target.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gateway_procs import Redis, free_port, get_json, post, start, stop  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JSON_API = os.path.join(ROOT, "Tests", "Clients", "json_api.py")
DECLARATIONS = os.path.join(ROOT, "examples", "connectors", "releases.graphql")
SCHEMA = os.path.join(ROOT, "schema.graphql")
IDS_QUERY = "{ releaseIds(first: 120) { id details { title } } }"
COST_QUERY = "{ releaseIds(first: 120) { details { title } } }"
ENV = {**os.environ, "RELEASES_API_KEY": "releases-bench-key-0001", "MUSICGRAPH_MAX_QUERY_COST": "",
       "MUSICGRAPH_DAILY_QUOTA": "", "MUSICGRAPH_STORE": "memory"}



def codes(response):
    return [(e.get("extensions") or {}).get("code") for e in response.get("errors") or []]


class JSONAPI:
    """json_api.py on a free loopback port."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, JSON_API], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.strip().isdigit():
            self.stop()
            raise SystemExit("json_api.py did not start")
        self.url = f"http://127.0.0.1:{line.strip()}"

    def log(self):
        return get_json(self.url + "/__log")

    def reset(self):
        get_json(self.url + "/__reset")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)



class Bench:
    def __init__(self, args, api, directory):
        self.args, self.api, self.directory = args, api, directory
        self.processes = []
        with open(DECLARATIONS) as f:
            self.declarations = re.sub(r"http://127\.0\.0\.1:\d+", api.url, f.read())
        with open(SCHEMA) as f:
            self.schema = f.read()

    def schema_file(self, name, declarations):
        path = os.path.join(self.directory, name)
        with open(path, "w") as f:
            f.write(self.schema.rstrip("\n") + "\n\n" + declarations)
        return path

    def serve(self, schema, store="memory", *flags):
        argv = [self.binary(), "serve", "--demo", "--schema", schema, "--port", "0", "--store", store,
                "--request-timeout-ms", "0", *flags]
        process, url = start(argv, env=ENV)
        self.processes.append(process)
        return url

    def binary(self):
        """The binary, waiting a while when it is being rebuilt."""
        deadline = time.monotonic() + 120
        while not os.access(self.args.bin, os.X_OK) and time.monotonic() < deadline:
            time.sleep(1)
        return self.args.bin

    def stop_all(self):
        while self.processes:
            stop(self.processes.pop())

    def serve_embedded(self, binary, *flags):
        """`serve --demo` on the binary's own embedded schema (run where no schema.graphql is)."""
        argv = [binary, "serve", "--demo", "--port", "0", "--store", "memory", *flags]
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV, text=True,
                                   cwd=self.directory)
        line = process.stdout.readline()
        if not line:
            raise SystemExit(f"{binary} serve did not start")
        self.processes.append(process)
        return line.split()[-1]

    # f.
    def declared_tmdb(self):
        baseline = self.args.baseline_bin
        if not baseline:
            print("f. declared TMDB against the Swift one: skipped (give --baseline-bin)")
            return True
        both = {"declared": self.binary(), "baseline": os.path.abspath(baseline)}
        urls = {name: self.serve_embedded(binary) for name, binary in both.items()}
        differ = []
        requests = {"declared": 0, "baseline": 0}
        for query in MOVIE_QUERIES:
            bodies = {name: post_raw(url, query) for name, url in urls.items()}
            for name, body in bodies.items():
                requests[name] += (json.loads(body).get("extensions") or {}).get("upstream", {}).get("requests", 0)
            if bodies["declared"] != bodies["baseline"]:
                differ.append((query, bodies))
        self.stop_all()
        ok = not differ
        print(f"f. {len(MOVIE_QUERIES)} movie queries: {len(MOVIE_QUERIES) - len(differ)} answers byte-identical "
              f"(target {len(MOVIE_QUERIES)}), upstream requests declared {requests['declared']} vs "
              f"baseline {requests['baseline']}")
        for query, bodies in differ:
            print(f"   {query}\n     declared {bodies['declared'][:300]!r}\n     baseline {bodies['baseline'][:300]!r}")
        urls = {name: self.serve_embedded(binary, "--no-result-cache") for name, binary in both.items()}
        for label, query in RATE_QUERIES.items():
            for url in urls.values():
                post_raw(url, query)  # warm: upstream responses cached, documents parsed
            # Back-to-back pairs, the order alternating: a pair's two runs see the same machine,
            # and the median of the pairs' ratios leaves out a pair a neighbour's load spoilt.
            ratios, rates = [], {"declared": [], "baseline": []}
            for i in range(self.args.pairs):
                pair = {}
                for name in (("baseline", "declared") if i % 2 == 0 else ("declared", "baseline")):
                    pair[name] = wrk_rate(urls[name], query, self.args.seconds, self.directory)
                    rates[name].append(pair[name])
                ratios.append(pair["declared"] / pair["baseline"])
            ratio = sorted(ratios)[len(ratios) // 2]
            ok = ok and ratio >= 0.90
            print(f"   {label}: median req/s declared {sorted(rates['declared'])[len(ratios) // 2]:.0f}, baseline "
                  f"{sorted(rates['baseline'])[len(ratios) // 2]:.0f}; median of {len(ratios)} paired ratios "
                  f"{ratio:.2f} (target >= 0.90; pairs {' '.join(f'{r:.2f}' for r in ratios)})")
        self.stop_all()
        return ok

    # a. and b.
    def batching(self):
        url = self.serve(self.schema_file("batching.graphql", self.declarations))
        self.api.reset()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda _: post(url, IDS_QUERY), range(8)))
        log = self.api.log()
        batches = [entry for entry in log if entry.startswith("/ws/releases?")]
        sizes = sorted((len(ids_of(entry)) for entry in batches), reverse=True)
        id_requests = sum(1 for entry in log if entry.startswith("/ws/ids?"))
        whole = sum(1 for a in answers if not a.get("errors") and titled(a) == 120)
        dedup = sum((a.get("extensions") or {}).get("upstream", {}).get("deduplicated", 0) for a in answers)
        ok_a = len(batches) == 3 and sizes == [50, 50, 20] and id_requests == 1 and whole == 8
        print(f"a. 8 concurrent releaseIds(first: 120) queries, one cold gateway: {len(batches)} /ws/releases "
              f"requests of {' + '.join(map(str, sizes))} ids (target 3: 50 + 50 + 20), {id_requests} /ws/ids "
              f"request(s) (target 1), {dedup} deduplicated reads in extensions, {whole}/8 answers with 120 "
              f"titles: {'met' if ok_a else 'MISSED'}")
        before = len(self.api.log())
        again = post(url, IDS_QUERY)
        sent = len(self.api.log()) - before
        ok_b = sent == 0 and titled(again) == 120 and not again.get("errors")
        print(f"b. the same query again: {sent} requests reach the JSON API (target 0), extensions.upstream "
              f"{json.dumps((again.get('extensions') or {}).get('upstream'))}: {'met' if ok_b else 'MISSED'}")
        self.stop_all()
        return ok_a and ok_b

    # c.
    def quota(self, units=20, queries=40):
        redis = Redis()
        try:
            declarations = self.declarations.replace("dailyUnits: 1000", f"dailyUnits: {units}")
            assert f"dailyUnits: {units}" in declarations
            schema = self.schema_file("quota.graphql", declarations)
            store = f"redis://127.0.0.1:{redis.port}/0"
            # The bench is one anonymous client: let it spend the whole day (its default share is 20%).
            shares = ["--anonymous-share", "100%", "--anonymous-pool", "100%"]
            urls = [self.serve(schema, store, *shares), self.serve(schema, store, *shares)]
            self.api.reset()
            answered = refused = 0
            other = []
            last = {}
            for k in range(1, queries + 1):
                last = post(urls[k % 2], f'{{ release(id: "r{k}") {{ title }} }}')
                title = ((last.get("data") or {}).get("release") or {}).get("title")
                if title == f"Release {k}" and not last.get("errors"):
                    answered += 1
                elif codes(last) == ["UPSTREAM_QUOTA_EXCEEDED"]:
                    refused += 1
                else:
                    other.append((k % 2 + 1, k, ",".join(map(str, codes(last))) or json.dumps(last.get("data"))))
            sent = sum(1 for entry in self.api.log() if entry.startswith("/ws/release/"))
        finally:
            self.stop_all()
            redis.stop()
        ok = sent == units and answered == units and refused == queries - units and not other
        print(f"c. dailyUnits: {units}, two gateways on one Redis, {queries} distinct release(id:) queries "
              f"alternately: {sent} requests reach the JSON API (target {units}), {answered} answered, {refused} "
              f"UPSTREAM_QUOTA_EXCEEDED (target {queries - units}), {len(other)} other; last extensions.quota "
              f"{json.dumps((last.get('extensions') or {}).get('quota'))}: {'met' if ok else 'MISSED'}")
        for gateway in (1, 2):
            for answer in sorted({a for g, _, a in other if g == gateway}):
                ids = [f"r{k}" for g, k, a in other if g == gateway and a == answer]
                print(f"   gateway {gateway} answered {answer} for {len(ids)} ids: {' '.join(ids)}")
        return ok

    # d.
    def cost(self):
        """The example declares `@listSize(slicingArguments: ["first"])` on `releaseIds`, so the
        estimate knows the list's size: unitsPerCall x (1 + ceil(first / max))."""
        ok = True
        first, size = 120, 50
        chunks = math.ceil(first / size)
        for units in (1, 3):
            declarations = self.declarations.replace("unitsPerCall: 1", f"unitsPerCall: {units}")
            url = self.serve(self.schema_file(f"cost-{units}.graphql", declarations))
            cost = (post(url, COST_QUERY).get("extensions") or {}).get("cost") or {}
            self.stop_all()
            expected = units * 1 + units * chunks
            met = cost.get("estimated") == expected and cost.get("actual") == expected
            ok = ok and met
            print(f"d. unitsPerCall {units}: estimated {cost.get('estimated')}, actual "
                  f"{cost.get('actual')}; {units} x 1 + {units} x ceil({first} / {size}) = {expected}: "
                  f"{'met' if met else 'MISSED'}")
        return ok

    # e.
    def refused(self):
        broken = self.declarations + BROKEN
        path = self.schema_file("broken.graphql", broken)
        with open(path) as f:
            lines = f.read().split("\n")
        start = len(lines) - len(BROKEN.split("\n"))
        planted = {what: next(i + 1 for i in range(start, len(lines)) if marker in lines[i]) for marker, what in PLANTED}
        run = subprocess.run([self.binary(), "validate", "--schema", path], input="{ __typename }",
                             capture_output=True, text=True, env=ENV, timeout=120)
        found = [line for line in run.stderr.split("\n") if line.startswith(path + ":")]
        at = {int(line[len(path) + 1:].split(":")[0]) for line in found
              if re.match(r"\d+:\d+: ", line[len(path) + 1:])}
        missing = [what for what, line in planted.items() if line not in at]
        ok = run.returncode == 2 and not missing and len(found) >= len(PLANTED)
        print(f"e. musicgraph validate --schema {os.path.basename(path)} with {len(PLANTED)} planted problems: "
              f"exit {run.returncode} (target 2), {len(found)} FILE:LINE:COLUMN lines on stderr"
              f"{', none at the line of: ' + ', '.join(missing) if missing else ', one at each planted line'}: "
              f"{'met' if ok else 'MISSED'}")
        for line in run.stderr.rstrip("\n").split("\n"):
            print("   " + line.replace(self.directory + "/", ""))
        return ok


# A second upstream and fields with one declaration problem each (appended to the working ones).
BROKEN = """
extend schema @upstream(name: "mirror", baseURL: "http://{$env.HOST}:8099")

extend type Query {
  misnamed(id: ID!): Release @http(upstream: "relases", path: "/ws/release/{$args.id}")
  byCode(code: String!): Release @http(upstream: "releases", path: "/ws/release/{$args.nope}")
  leaky(id: ID!): Release @http(upstream: "releases", path: "/ws/release/{$env.RELEASES_API_KEY}")
  refs: [Ref!]! @http(upstream: "releases", path: "/ws/ids", select: "ids")
}

type Ref {
  id: ID!
  details: Release
    @http(upstream: "releases", path: "/ws/releases", query: [{ name: "ids", value: "{$parent.id}" }],
      batch: { param: "ids", max: 50 })
}
"""
PLANTED = [("{$env.HOST}", "baseURL template"), ('"relases"', "unknown upstream"),
           ("{$args.nope}", "unknown argument"), ("/ws/release/{$env.", "$env in @http"),
           ("batch: { param", "batch without key")]


MOVIE_QUERIES = [
    '{ movies(query: "AC/DC") { id title originalTitle overview posterUrl(size: "w92") releaseDate '
    'voteAverage voteCount videos { id title url publishedAt } } }',
    '{ movies(query: "The Story", first: 20) { id title releaseDate videos(first: 1) { id } } }',
    '{ movies(query: "Queen", first: 21) { id } }',
    '{ movies(query: "Queen", first: 0) { id } }',
    '{ movies(query: "Beyonce\u0301") { id title } }',
    '{ movies(query: "") { id } }',
    '{ node(id: "tmdb:movie:500001") { id ... on Movie { title videos { id url } } } }',
    '{ a: node(id: "tmdb:movie:42") { id } b: node(id: "tmdb:movie:500002") { ... on Movie { title } } }',
    '{ node(id: "tmdb:video:abc") { id } }',
    '{ movies(query: "AC/DC") { videos(first: 51) { id } } }',
    '{ movies(query: "The Story", first: null) { id videos(first: null) { id } } }',
    '{ __schema { description types { name } directives { name } } }',
]
RATE_QUERIES = {
    "search": '{ movies(query: "The Story", first: 10) { id title posterUrl releaseDate videos(first: 2) { id url } } }',
    "node": '{ a: node(id: "tmdb:movie:500001") { id ... on Movie { title videos { id } } } '
            'b: node(id: "tmdb:movie:500002") { id ... on Movie { title } } }',
}


def post_raw(url, query):
    body = json.dumps({"query": query}).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.read()
    except urllib.error.HTTPError as error:
        return error.read()


def wrk_rate(url, query, seconds, directory):
    script = os.path.join(directory, "post.lua")
    with open(script, "w") as f:
        f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                f"wrk.body = {json.dumps(json.dumps({'query': query}))}\n")
    out = subprocess.run(["wrk", "-t1", "-c8", f"-d{seconds}s", "-s", script, url],
                         capture_output=True, text=True, check=True).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not match or "Non-2xx" in out:
        raise SystemExit(f"wrk failed:\n{out}")
    return float(match.group(1))


def ids_of(entry):
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(entry).query)
    return [i for value in query.get("ids", []) for i in value.split(",") if i]


def titled(answer):
    refs = (answer.get("data") or {}).get("releaseIds") or []
    return sum(1 for ref in refs if (ref.get("details") or {}).get("title"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "musicgraph"))
    parser.add_argument("--baseline-bin", help="a musicgraph built before TMDB was declared (for f)")
    parser.add_argument("--seconds", type=int, default=5, help="each wrk run of f")
    parser.add_argument("--pairs", type=int, default=5, help="paired wrk runs of each query in f")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is needed")
    directory = tempfile.mkdtemp(prefix="musicgraph-connectors-")
    api = JSONAPI()
    bench = Bench(args, api, directory)
    results = []
    try:
        for step in (bench.batching, bench.quota, bench.cost, bench.refused, bench.declared_tmdb):
            results.append(step())
    finally:
        bench.stop_all()
        api.stop()
        shutil.rmtree(directory, ignore_errors=True)
    if all(results):
        print("all targets met")
        return 0
    print("some targets missed")
    return 1


if __name__ == "__main__":
    sys.exit(main())
