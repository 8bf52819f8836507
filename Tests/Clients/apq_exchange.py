"""A hand-written APQ client (Python stdlib only) doing what Apollo's persisted-query link does,
against a running gateway: send the SHA-256 of the query alone by GET; on
PersistedQueryNotFound, POST the query with its hash; from then on the hash alone by GET
answers, with a Cache-Control a CDN can use. Then the refusals a client can meet: a wrong
hash, a malformed persistedQuery, a documentId of another format.

usage: python3 apq_exchange.py GATEWAY_URL
Prints one JSON object of what it saw on its last line; exits 1 on a failed check.
"""
import hashlib
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

gateway = sys.argv[1]
QUERY = 'query Artist($name: String!) { artist(name: $name) { name albums(first: 1) { title } } }'
VARIABLES = {"name": "AC/DC"}
ACCEPT = "application/graphql-response+json, application/json;q=0.9"


def check(condition, message):
    if not condition:
        print("FAILED: " + message, file=sys.stderr)
        sys.exit(1)


def send(request):
    """(status, headers, JSON body) of a request, whatever its status."""
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, response.headers, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.load(error)


def get(**parameters):
    query = urllib.parse.urlencode({k: v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))
                                    for k, v in parameters.items()})
    return send(urllib.request.Request(gateway + "?" + query, headers={"Accept": ACCEPT}))


def post(body):
    return send(urllib.request.Request(gateway, json.dumps(body).encode(),
                                       {"Content-Type": "application/json", "Accept": ACCEPT}))


def codes(body):
    return [error.get("extensions", {}).get("code") for error in body.get("errors", [])]


digest = hashlib.sha256(QUERY.encode()).hexdigest()
extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
seen = {}

# 1. The hash alone: unknown yet. Apollo's link retries on this message (and gives up on APQ
#    for good on a 400 or 500, so the status must be 200).
status, headers, body = get(operationName="Artist", variables=VARIABLES, extensions=extensions)
check(status == 200 and body["errors"][0]["message"] == "PersistedQueryNotFound", f"first GET: {status} {body}")
check(codes(body) == ["PERSISTED_QUERY_NOT_FOUND"], f"first GET codes: {body}")
check(headers["Cache-Control"] == "no-store", f"a not-found answer must not be cached: {headers['Cache-Control']}")
seen["notFound"] = [status, codes(body)[0]]

# 2. The retry: the query with its hash, by POST (Apollo's link registers by POST).
status, headers, body = post({"query": QUERY, "operationName": "Artist", "variables": VARIABLES,
                              "extensions": extensions})
check(status == 200 and body["data"]["artist"]["name"] == "AC/DC", f"registering POST: {status} {body}")
answer = body["data"]

# 3. From now on the hash alone by GET answers, cacheably.
status, headers, body = get(operationName="Artist", variables=VARIABLES, extensions=extensions)
check(status == 200 and body.get("data") == answer, f"hash-only GET after registering: {status} {body}")
cache_control = headers["Cache-Control"]
check(cache_control.startswith("max-age=") and cache_control.endswith(", private"), f"Cache-Control: {cache_control}")
seen["hashOnlyGET"] = [status, cache_control]
# ... and by POST, and as a GraphQL-over-HTTP documentId.
status, _, body = post({"variables": VARIABLES, "extensions": extensions})
check(status == 200 and body.get("data") == answer, f"hash-only POST: {status} {body}")
status, _, body = get(documentId="sha256:" + digest, variables=VARIABLES)
check(status == 200 and body.get("data") == answer, f"documentId GET: {status} {body}")

# 4. Refusals, each with its code.
wrong = {"persistedQuery": {"version": 1, "sha256Hash": hashlib.sha256(b"another query").hexdigest()}}
status, _, body = post({"query": QUERY, "variables": VARIABLES, "extensions": wrong})
check(status == 400 and codes(body) == ["PERSISTED_QUERY_HASH_MISMATCH"], f"wrong hash: {status} {body}")
seen["hashMismatch"] = [status, codes(body)[0]]
status, _, body = post({"extensions": {"persistedQuery": {"version": 2, "sha256Hash": digest}}})
# JSON that parses but is not a request this server reads: 422 (graphql-response+json).
check(status == 422 and codes(body) == ["BAD_REQUEST"], f"version 2: {status} {body}")
status, _, body = post({"documentId": "md5:" + hashlib.md5(QUERY.encode()).hexdigest()})
check(status == 400 and codes(body) == ["BAD_REQUEST"], f"md5 documentId: {status} {body}")
seen["otherDocumentIdFormat"] = [status, codes(body)[0]]
status, _, body = post({"documentId": "sha256:" + hashlib.sha256(b"never sent").hexdigest()})
check(status == 404 and codes(body) == ["PERSISTED_QUERY_NOT_FOUND"], f"unknown documentId: {status} {body}")
seen["unknownDocumentId"] = [status, codes(body)[0]]

print(json.dumps(seen, sort_keys=True))
