#!/usr/bin/env python3
"""Writes the libFuzzer seed corpora of fuzz/ from the tests and the conformance cases.

One folder per target under OUT (default fuzz/.corpus, not committed): GraphQL documents
(examples/, the conformance kit's documents and schemas, string literals of Tests/ that look
like documents) for FuzzParse and FuzzValidate; JSON texts (conformance data and expected
outputs, upstream fixtures, recordings) for FuzzJSON; GraphQL-over-HTTP requests in FuzzHTTP's
layout (see fuzz/Sources/FuzzHTTP/main.swift); upstream bodies from
Tests/CatalogTests/Fixtures and examples/recordings with FuzzSupport.DecoderInput's two
selector bytes for the provider targets.

Usage: scripts/fuzz-seeds.py [--shared ../shared] [--out fuzz/.corpus]
"""
import argparse
import glob
import hashlib
import json
import os
import re
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATUSES = [200, 400, 401, 403, 404, 429, 500, 503]  # FuzzSupport.DecoderInput.statuses
DECODERS = {"FuzzITunes": 6, "FuzzAppleMusic": 6, "FuzzRakuten": 1, "FuzzTMDB": 3, "FuzzYouTube": 2}
PROVIDER_FIXTURES = {
    "FuzzITunes": "itunes", "FuzzAppleMusic": "applemusic", "FuzzRakuten": "rakuten",
    "FuzzTMDB": "tmdb", "FuzzYouTube": "youtube",
}
# Recorded exchanges are named after the upstream path they answer.
RECORDING_PREFIXES = {
    "FuzzITunes": ("lookup-", "search-"), "FuzzAppleMusic": ("v1-",), "FuzzRakuten": ("services-",),
    "FuzzTMDB": ("3-",), "FuzzYouTube": ("youtube-",),
}


def write(out, target, data):
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as handle:
        handle.write(data)


def documents(shared):
    """GraphQL documents: examples, the conformance kit, and document-like test literals."""
    found = []
    for path in glob.glob(os.path.join(ROOT, "examples", "*.graphql")):
        found.append(open(path, encoding="utf-8").read())
    found.append(open(os.path.join(ROOT, "schema.graphql"), encoding="utf-8").read())
    for path in glob.glob(os.path.join(shared, "conformance", "cases", "*", "*.json")):
        case = json.load(open(path, encoding="utf-8"))
        if isinstance(case.get("document"), str):
            found.append(case["document"])
    for path in glob.glob(os.path.join(shared, "conformance", "**", "*.graphql"), recursive=True):
        found.append(open(path, encoding="utf-8").read())
    literal = re.compile(r'"""\n(.*?)"""|#?"((?:[^"\\\n]|\\.)*\{(?:[^"\\\n]|\\.)*\})"', re.S)
    for path in glob.glob(os.path.join(ROOT, "Tests", "**", "*.swift"), recursive=True):
        for multi, single in literal.findall(open(path, encoding="utf-8").read()):
            text = multi or single.replace('\\"', '"').replace("\\n", "\n")
            if re.match(r"\s*(\{|query|mutation|subscription|fragment)", text):
                found.append(text)
    return found


def json_texts(shared):
    found = []
    for path in glob.glob(os.path.join(shared, "conformance", "cases", "**", "*.json"), recursive=True):
        found.append(open(path, "rb").read())
    for path in glob.glob(os.path.join(ROOT, "Tests", "CatalogTests", "Fixtures", "*", "*.json")):
        found.append(open(path, "rb").read())
    return found


def http_requests(docs):
    """FuzzHTTP inputs: each document as a GET and a POST, plus the protocol's edge shapes."""
    found = []
    for doc in docs[:400]:
        body = json.dumps({"query": doc, "variables": {"n": 1}, "operationName": None})
        found.append(f"POST\n/graphql\nContent-Type: application/json\nAccept: application/graphql-response+json\n\n{body}")
        found.append("GET\n/graphql?query=" + urllib.parse.quote(doc, safe="") + "&variables=%7B%7D\nAccept: */*\n\n")
    apq = {"version": 1, "sha256Hash": "ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38"}
    found += [
        "POST\n/graphql\nContent-Type: application/json\n\n" + json.dumps([{"query": "{ __typename }"}, {"query": "{ x"}]),
        "POST\n/graphql\nContent-Type: application/json\n\n" + json.dumps({"extensions": {"persistedQuery": apq}}),
        "GET\n/graphql?extensions=" + urllib.parse.quote(json.dumps({"persistedQuery": apq})) + "\n\n",
        "POST\n/graphql\nContent-Type: application/graphql\n\n{ __typename }",
        "POST\n/graphql\nContent-Type: application/json; charset=utf-16\n\n{}",
        "GET\n/graphql\nAccept: text/html\n\n",
        "GET\n/graphql?query=%7B__typename%7D\nAccept: application/xml;q=0.9, text/plain\n\n",
        "OPTIONS\n/graphql\nOrigin: http://a.example\nAccess-Control-Request-Method: POST\n"
        "Access-Control-Request-Headers: content-type\n\n",
        "PUT\n/graphql\n\n",
        "GET\n/healthz\n\n",
        "GET\n/metrics\n\n",
        "GET\n/graphiql/graphiql.min.js\n\n",
        "POST\n/graphql\nContent-Type: application/json\n\n" + json.dumps({"documentId": "sha256:00", "query": "{a}"}),
    ]
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    parser.add_argument("--out", default=os.path.join(ROOT, "fuzz", ".corpus"))
    args = parser.parse_args()
    docs = documents(args.shared)
    for doc in docs:
        write(args.out, "FuzzParse", doc)
        write(args.out, "FuzzValidate", doc)
    for text in json_texts(args.shared):
        write(args.out, "FuzzJSON", text)
    for request in http_requests(docs):
        write(args.out, "FuzzHTTP", request)
    fixtures = os.path.join(ROOT, "Tests", "CatalogTests", "Fixtures")
    recordings = glob.glob(os.path.join(ROOT, "examples", "recordings", "*", "*.json"))
    for target, count in DECODERS.items():
        bodies = []
        for path in glob.glob(os.path.join(fixtures, PROVIDER_FIXTURES[target], "*.json")):
            status = re.search(r"error-(\d{3})", os.path.basename(path))
            bodies.append((int(status.group(1)) if status else 200, open(path, "rb").read()))
        for path in recordings:
            if os.path.basename(path).startswith(RECORDING_PREFIXES[target]):
                exchange = json.load(open(path, encoding="utf-8"))
                bodies.append((exchange.get("status", 200), exchange.get("body", "").encode("utf-8")))
        for status, body in bodies:
            selector = STATUSES.index(status) if status in STATUSES else 0
            for decoder in range(count):
                write(args.out, target, bytes([decoder, selector]) + body)
    for target in sorted(os.listdir(args.out)):
        print(f"{target}: {len(os.listdir(os.path.join(args.out, target)))} seeds")


if __name__ == "__main__":
    main()
