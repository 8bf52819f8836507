#!/usr/bin/env python3
"""Hostile documents for validation: our verdict against graphql-js 16 and graphql-core 3.2.14.

Each document is built to make OverlappingFieldsCanBeMerged or the fragment rules slow:
thousands of repeated fields, repeated inline fragments, fragments spread side by side,
fragments spreading each other, fragment cycles, deep nesting (issue 15, item 1), at the
sizes of the issue and larger ones of the same kinds, plus a few invalid variants (one
conflict hidden among the repetitions) so that exact errors, not only "valid", are compared.

For each document it prints one row: the time of one validation by MusicGraph (median of
`musicgraph validate --repeat N`, parse excluded), by graphql-js 16 (bench/peer_validate.js)
and by graphql-core 3.2.14 as shipped (bench/peer_validate.py, its budgets on), whether our
errors equal graphql-js's exactly (messages and locations, in order), and how graphql-core
answers: the same errors ("same", messages compared with its single quotes turned double),
or its "Validation aborted." refusal. `--core-unbudgeted` also runs graphql-core with its
budgets lifted (slow on the big documents; --core-timeout bounds it) and compares that too.
The last line counts the documents whose verdict equals graphql-js's and that took at most
--target-ms (20 ms); the exit status is 1 when any does not. graphql-js needs minutes on
the biggest documents (its pairwise comparison): past --peer-timeout its column reads
"slow" and that document counts as unchecked.

Installs nodejs + node-graphql (apt, as root) and graphql-core 3.2.14 (venv in bench/out/)
when missing. Only a benchmark: never part of `make test`. The machines are noisy: compare
the times of one run only.

Usage (from the repository root, after `swift build -c release --product musicgraph`):
  python3 bench/hostile.py [--bin .build/release/musicgraph] [--repeat 20] [--only SUBSTRING]
      [--core-unbudgeted] [--core-timeout 120] [--target-ms 20]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
VENV = os.path.join(OUT, "venv")
GRAPHQL_JS_DIR = os.environ.get("GRAPHQL_JS_DIR", "/usr/share/nodejs/graphql")

SCHEMA = """
type Query { artist: Artist artists: [Artist] node: Node }
interface Node { id: ID }
type Artist implements Node { id: ID name: String friends: [Artist] albums: [Album] }
type Album implements Node { id: ID title: String artist: Artist }
"""


def log(text):
    print(text, file=sys.stderr, flush=True)


def ensure_graphql_js():
    if shutil.which("node") and os.path.isdir(GRAPHQL_JS_DIR):
        return True
    if os.geteuid() != 0:
        log("graphql-js missing; run: sudo apt-get install -y nodejs node-graphql")
        return False
    subprocess.run(["apt-get", "update"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "nodejs", "node-graphql"], check=True, stdout=subprocess.DEVNULL)
    return os.path.isdir(GRAPHQL_JS_DIR)


def ensure_graphql_core():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        log("creating venv " + VENV)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    probe = subprocess.run([python, "-c", "import graphql; print(graphql.version)"], capture_output=True, text=True)
    if probe.stdout.strip() != "3.2.14":
        subprocess.run([python, "-m", "pip", "install", "-q", "graphql-core==3.2.14"], check=True)
    return python


def documents():
    """(name, document) for each hostile document, the issue's sizes first."""
    docs = []

    def repeated_fields(n):
        return "{ artist { " + "name " * n + "} }"

    def inline_fragments(n, body="name"):
        return "{ node { " + f"... on Artist {{ {body} }} " * n + "} }"

    def side_by_side(n):
        text = "{ artist { " + " ".join(f"...G{i}" for i in range(n)) + " } }\n"
        return text + "\n".join(f"fragment G{i} on Artist {{ name friends {{ name }} }}" for i in range(n))

    def spreading_each_other(n):
        fragments = "\n".join(
            f"fragment F{i} on Artist {{ name ...F{i + 1} ...F{(i * 7 + 3) % n} }}" if i + 1 < n
            else f"fragment F{i} on Artist {{ name }}" for i in range(n))
        return "{ artist { ...F0 } }\n" + fragments

    def nesting_cycle(n):
        # A chain of fragments each nesting one level deeper, closed into a cycle.
        text = "{ artist { ...C0 } }\n"
        return text + "\n".join(f"fragment C{i} on Artist {{ friends {{ name ...C{(i + 1) % n} }} }}" for i in range(n))

    def many_cycles(n):
        # Pairs of fragments spreading each other, all spread by the operation.
        text = "{ artist { " + " ".join(f"...A{i}" for i in range(n)) + " } }\n"
        return text + "\n".join(
            f"fragment A{i} on Artist {{ name ...B{i} }}\nfragment B{i} on Artist {{ id ...A{i} }}" for i in range(n))

    def nested_repeated(depth):
        nested = "name"
        for _ in range(depth):
            nested = "friends { " + nested + " friends { name } }"
        return "{ artist { " + nested + " } }"

    def deep_chain(n):
        # Acyclic: each fragment nests one level under the next; n levels through fragments.
        text = "{ artist { ...D0 } }\n"
        return text + "\n".join(
            f"fragment D{i} on Artist {{ friends {{ name ...D{i + 1} }} }}" if i + 1 < n
            else f"fragment D{i} on Artist {{ name }}" for i in range(n))

    docs.append(("3000 repeated name fields", repeated_fields(3000)))
    docs.append(("1500 repeated inline fragments", inline_fragments(1500)))
    docs.append(("400 fragments spread side by side", side_by_side(400)))
    docs.append(("1200 inline fragments { friends { name } }", inline_fragments(1200, "friends { name }")))
    docs.append(("fragment cycle through 250 nesting levels", nesting_cycle(250)))
    docs.append(("300 fragments spreading each other (cycles)", spreading_each_other(300)))
    docs.append(("nested repeated fields, depth 60", nested_repeated(60)))
    docs.append(("200 repeated object fields", "{ artist { " + "friends { name id } " * 200 + "} }"))
    # Larger ones of the same kinds.
    docs.append(("10000 repeated name fields", repeated_fields(10000)))
    docs.append(("5000 repeated inline fragments", inline_fragments(5000)))
    docs.append(("1500 fragments spread side by side", side_by_side(1500)))
    docs.append(("4000 inline fragments { friends { name } }", inline_fragments(4000, "friends { name }")))
    docs.append(("fragment cycle through 1000 nesting levels", nesting_cycle(1000)))
    docs.append(("1000 fragments spreading each other (cycles)", spreading_each_other(1000)))
    docs.append(("500 fragment pairs in cycles", many_cycles(500)))
    docs.append(("acyclic fragment chain, 1000 nesting levels", deep_chain(1000)))
    docs.append(("nested repeated fields, depth 200", nested_repeated(200)))
    docs.append(("2000 repeated object fields", "{ artist { " + "friends { name id } " * 2000 + "} }"))
    # Invalid variants: exact errors, not only "valid".
    docs.append(("3000 name fields and one conflicting alias", "{ artist { " + "name " * 3000 + "name: id } }"))
    docs.append(("1500 inline fragments, one conflicting",
                 "{ node { " + "... on Artist { name } " * 1500 + "... on Album { name: title } } }"))
    docs.append(("1200 inline fragments, conflicts below",
                 "{ node { " + "... on Artist { friends { name } } " * 1200
                 + "... on Artist { friends { name: id } } } }"))
    docs.append(("400 fragments side by side, one conflicting",
                 side_by_side(400).replace("fragment G399 on Artist { name friends { name } }",
                                           "fragment G399 on Artist { name friends { name: id } }")))
    docs.append(("1000 aliased pairs conflicting (error cap)",
                 "{ artist { " + " ".join(f"a{i}: name a{i}: id" for i in range(1000)) + " } }"))
    return docs


def ours(binary, schema, path, repeat):
    proc = subprocess.run([binary, "validate", "--schema", schema, "--repeat", str(repeat), path],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        return None, None, f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"
    timing = json.loads(proc.stderr.strip().splitlines()[-1])
    errors = json.loads(proc.stdout)["errors"]
    rows = [{"message": e["message"], "locations": [[l["line"], l["column"]] for l in e.get("locations", [])]}
            for e in errors]
    return rows, timing["validate_ms"], None


def peer(cmd, timeout):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    return {"threw": (proc.stderr.strip().splitlines() or ["no output"])[-1]}


def core_as_js(errors):
    """graphql-core's messages in graphql-js's quotes."""
    return [{"message": e["message"].replace("'", '"'), "locations": e["locations"]} for e in errors]


def describe(errors):
    if not errors:
        return "valid"
    first = errors[0]["message"]
    return f"{len(errors)} errors: {first[:60]}"


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "musicgraph"),
                        help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--only", default="")
    parser.add_argument("--core-unbudgeted", action="store_true")
    parser.add_argument("--core-timeout", type=float, default=120)
    parser.add_argument("--target-ms", type=float, default=20)
    parser.add_argument("--peer-timeout", type=float, default=300,
                        help="seconds a peer may take on one document (graphql-js needs minutes on some)")
    parser.add_argument("--no-peers", action="store_true", help="time MusicGraph only")
    args = parser.parse_args()

    have_js = ensure_graphql_js()
    python = ensure_graphql_core()
    here = os.path.dirname(os.path.abspath(__file__))
    failures = 0
    total = 0
    print(f"{'document':46} {'ours ms':>9} {'js ms':>9} {'core ms':>9}  = js   graphql-core")
    with tempfile.TemporaryDirectory() as tmp:
        schema = os.path.join(tmp, "schema.graphql")
        with open(schema, "w") as f:
            f.write(SCHEMA)
        for name, text in documents():
            if args.only and args.only not in name:
                continue
            total += 1
            path = os.path.join(tmp, "doc.graphql")
            with open(path, "w") as f:
                f.write(text)
            mine, ms, problem = ours(args.bin, schema, path, args.repeat)
            js, core = {}, {}
            if not args.no_peers:
                if have_js:
                    js = peer(["node", os.path.join(here, "peer_validate.js"), schema, path], args.peer_timeout)
                core = peer([python, os.path.join(here, "peer_validate.py"), schema, path], args.peer_timeout)
            if "errors" in js:
                agree = "yes" if mine == js["errors"] else "NO"
            elif "timeout" in js:
                agree = "slow"
            else:
                agree = "n/a"
            if args.no_peers:
                verdict = describe(mine) if mine is not None else "-"
            elif "errors" in core:
                core_errors = core_as_js(core["errors"])
                verdict = "same" if core_errors == mine else ("refuses: " + core_errors[-1]["message"][:40]
                                                               if any("aborted" in e["message"] for e in core_errors)
                                                               else "differs: " + describe(core_errors))
            else:
                verdict = "no answer: " + str(core.get("threw") or core.get("timeout"))[:40]
            if args.core_unbudgeted:
                free = peer([python, os.path.join(here, "peer_validate.py"), schema, path, "--unbudgeted"],
                            args.core_timeout)
                if "errors" in free:
                    verdict += "; unbudgeted " + ("same" if core_as_js(free["errors"]) == mine else "DIFFERS")
                else:
                    verdict += "; unbudgeted: no answer (" + str(free.get("threw") or free.get("timeout"))[:30] + ")"
            js_ms = f"{js['ms']:9.2f}" if "ms" in js else f"{'-':>9}"
            core_ms = f"{core['ms']:9.2f}" if "ms" in core else f"{'-':>9}"
            ours_ms = f"{ms:9.2f}" if ms is not None else f"{'-':>9}"
            print(f"{name:46} {ours_ms} {js_ms} {core_ms}  {agree:4} {verdict}")
            if problem:
                print(f"    ours failed: {problem}")
            if mine is not None and "errors" in js and mine != js["errors"]:
                print(f"    ours: {describe(mine)}\n    js:   {describe(js['errors'])}")
            # Where graphql-js gives no answer in time, ours cannot be checked against it.
            checked = agree == "yes" or (args.no_peers and problem is None)
            if problem or not checked or ms is None or ms > args.target_ms:
                failures += 1
    print(f"\n{total - failures} of {total} documents: graphql-js's exact verdict in <= {args.target_ms:g} ms")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
