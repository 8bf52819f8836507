"""gql 4 (PyPI), unmodified, against a running gateway: its client schema from our
introspection, and its batching, over the requests and aiohttp transports
(`execute_batch`) and by `batch_interval` (concurrent executes gathered into one POST).
Every batched answer is compared with the answer to the same request sent alone, and the
upstream requests of each step are read from DemoUpstream's request log.

usage: python gql_batching.py GATEWAY_URL DEMO_UPSTREAM_URL
Prints one JSON object of what it measured on its last line; exits 1 on a failed check.
"""
import asyncio
import json
import sys
import threading
import urllib.request

import gql
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.exceptions import TransportQueryError
from gql.transport.requests import RequestsHTTPTransport

gateway, demo = sys.argv[1], sys.argv[2]
ALBUMS = "query Albums($name: String!) { artist(name: $name) { name albums(first: 2) { title } } }"


def demo_requests():
    with urllib.request.urlopen(demo + "/__demo/requests", timeout=60) as response:
        return json.load(response)


def clear_demo_log():
    urllib.request.urlopen(urllib.request.Request(demo + "/__demo/requests", method="DELETE"), timeout=60).close()


def check(condition, message):
    if not condition:
        print("FAILED: " + message, file=sys.stderr)
        sys.exit(1)


def albums(name):
    return GraphQLRequest(ALBUMS, variable_values={"name": name})


figures = {"gql": gql.__version__}

# The client schema, from introspection: gql validates documents against it before sending.
with Client(transport=RequestsHTTPTransport(url=gateway, timeout=300), fetch_schema_from_transport=True) as session:
    check("Artist" in session.client.schema.type_map, "no client schema from introspection")
    figures["schemaTypes"] = len(session.client.schema.type_map)

    # execute_batch over requests: one POST for two operations, each answered as if alone.
    clear_demo_log()
    batched = session.execute_batch([albums("AC/DC"), albums("Iron Maiden")])
    batch_log = demo_requests()
    figures["batchUpstreamRequests"] = len(batch_log)
    figures["batchLookups"] = sum(1 for entry in batch_log if entry["path"] == "/lookup")
    check([r["artist"]["name"] for r in batched] == ["AC/DC", "Iron Maiden"], f"batch answers: {batched}")

    # The same operations alone (other artists, so the cache holds nothing of theirs yet).
    clear_demo_log()
    alone = [session.execute(albums(name)) for name in ("Aerosmith", "Black Sabbath")]
    figures["aloneUpstreamRequests"] = len(demo_requests())
    check([r["artist"]["name"] for r in alone] == ["Aerosmith", "Black Sabbath"], f"single answers: {alone}")
    # Now cached: the batch of those must give exactly what the single requests gave.
    again = session.execute_batch([albums("Aerosmith"), albums("Black Sabbath")])
    check(again == alone, f"a batch answers differently than its requests alone: {again} vs {alone}")

    # One element's error does not fail the others. (gql's session raises for a batch with
    # any error, so the per-element results are read from its transport.)
    results = session.client.transport.execute_batch(
        [albums("AC/DC"), GraphQLRequest("query ($n: String!) { artist(name: $n) { name } }",
                                          variable_values={"n": None})])
    check(results[0].errors is None and results[0].data["artist"]["name"] == "AC/DC", f"first: {results[0]}")
    codes = [error["extensions"]["code"] for error in results[1].errors or []]
    check(codes == ["BAD_USER_INPUT"], f"second element's errors: {results[1].errors}")
    figures["elementErrorCode"] = codes[0]

# batch_interval: concurrent executes from several threads are sent as one batch.
transport = RequestsHTTPTransport(url=gateway, timeout=300)
with Client(transport=transport, batch_interval=1.0, batch_max=10) as session:
    answers = {}

    def run(name):
        answers[name] = session.execute(albums(name))

    clear_demo_log()
    names = ("Accept", "Audioslave", "Alice In Chains")
    threads = [threading.Thread(target=run, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    check(sorted(answers) == sorted(names), f"auto-batched answers: {answers}")
    check(all(answers[name]["artist"]["name"] == name for name in names), f"auto-batched answers: {answers}")
    auto_log = demo_requests()
    figures["autoBatchUpstreamRequests"] = len(auto_log)
    figures["autoBatchLookups"] = sum(1 for entry in auto_log if entry["path"] == "/lookup")


# execute_batch over aiohttp.
async def over_aiohttp():
    async with Client(transport=AIOHTTPTransport(url=gateway, timeout=300)) as session:
        return await session.execute_batch([albums("AC/DC"), albums("Aerosmith")])


asynchronous = asyncio.run(over_aiohttp())
check([r["artist"]["name"] for r in asynchronous] == ["AC/DC", "Aerosmith"], f"aiohttp batch: {asynchronous}")
figures["aiohttpBatch"] = len(asynchronous)

# A request error of a single request surfaces as gql's TransportQueryError with our code
# (this client has no schema, so it sends the document unchecked).
with Client(transport=RequestsHTTPTransport(url=gateway, timeout=300)) as session:
    try:
        session.execute(GraphQLRequest('{ artist(name: "AC/DC") { nope } }'))
        check(False, "an invalid document was answered")
    except TransportQueryError as error:
        figures["validationErrorCode"] = error.errors[0]["extensions"]["code"]

print(json.dumps(figures, sort_keys=True))
