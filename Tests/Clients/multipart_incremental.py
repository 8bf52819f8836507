"""Real multipart clients reading the gateway's incremental answers (issue 18): a query with
`... @defer { videos(first: 1) { title } }` under each track, read
1. in the RFC's format (`incrementalSpec=v0.2`) with Python's `email` multipart parser,
2. in Apollo's older format (`deferSpec=20220824`) with requests-toolbelt's MultipartDecoder,
3. as it arrives with `curl -N`, timing the first part against the end,
each against its own cold gateway, next to the ordinary answer of a fourth one: the parts merged
must equal it, with the same upstream request count.

usage: python3 multipart_incremental.py DEMO_URL PLAIN_GATEWAY EMAIL_GATEWAY TOOLBELT_GATEWAY CURL_GATEWAY
Prints one JSON object of what it saw on its last line; exits 1 on a failed check.
"""
import email
import email.policy
import json
import subprocess
import sys
import time
import urllib.request

from requests_toolbelt.multipart.decoder import MultipartDecoder

demo, plain, by_email, by_toolbelt, by_curl = sys.argv[1:6]
QUERY = ('{ artist(name: "Iron Maiden") { name albums(first: 2) { title tracks { title '
         '... @defer { videos(first: 1) { title } } } } } }')
BODY = json.dumps({"query": QUERY}).encode()
V02 = "multipart/mixed; incrementalSpec=v0.2"
OLD = "multipart/mixed;deferSpec=20220824,application/json"


def check(condition, message):
    if not condition:
        print("FAILED: " + message, file=sys.stderr)
        sys.exit(1)


def demo_requests():
    with urllib.request.urlopen(demo + "/__demo/requests", timeout=60) as response:
        return len(json.load(response))


def post(url, accept):
    """(Content-Type, body bytes, upstream requests it caused)."""
    before = demo_requests()
    request = urllib.request.Request(url, BODY, {"Content-Type": "application/json", "Accept": accept})
    with urllib.request.urlopen(request, timeout=300) as response:
        content_type, body = response.headers["Content-Type"], response.read()
    return content_type, body, demo_requests() - before


def at(data, path):
    for key in path:
        data = data[key]
    return data


def merge(target, source):
    for key, value in source.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value


def merged_v02(payloads):
    """The data the RFC's payloads add up to: entries placed by their pending notice's path."""
    data, paths = payloads[0]["data"], {}
    for payload in payloads:
        for notice in payload.get("pending", []):
            paths[notice["id"]] = notice["path"]
        for entry in payload.get("incremental", []):
            path = paths[entry["id"]] + entry.get("subPath", [])
            if "items" in entry:
                at(data, path).extend(entry["items"])
            else:
                merge(at(data, path), entry["data"])
    return data


def merged_20220824(payloads):
    """The data the older format adds up to: each entry names where it goes."""
    data = payloads[0]["data"]
    for payload in payloads[1:]:
        for entry in payload.get("incremental", []):
            if "items" in entry:
                at(data, entry["path"][:-1]).extend(entry["items"])
            else:
                merge(at(data, entry["path"]), entry["data"])
    return data


figures = {}

# The ordinary answer: no multipart Accept, so the deferral is ignored.
content_type, body, requests = post(plain, "application/graphql-response+json")
check(content_type.startswith("application/graphql-response+json"), f"ordinary answer as {content_type}")
expected = json.loads(body)
check("errors" not in expected, f"ordinary answer has errors: {expected.get('errors')}")
figures["ordinaryUpstreamRequests"] = requests

# 1. The RFC's format, through Python's own MIME parser.
content_type, body, requests = post(by_email, V02)
check(content_type == 'multipart/mixed; boundary="-"; incrementalSpec=v0.2', f"Content-Type {content_type}")
message = email.message_from_bytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body,
                                   policy=email.policy.HTTP)
check(message.is_multipart(), "email does not see a multipart message")
parts = list(message.iter_parts())
check(all(part.get_content_type() == "application/json" for part in parts), "a part is not application/json")
check(all(part.get_content_charset() == "utf-8" for part in parts), "a part's charset is not utf-8")
payloads = [json.loads(part.get_payload(decode=True)) for part in parts]
check(payloads[0]["hasNext"] is True and payloads[0]["pending"], "the first part announces nothing")
check("videos" not in json.dumps(payloads[0]["data"]), "the first part has videos")
check(payloads[-1]["hasNext"] is False, "the last part has hasNext true")
check(merged_v02(payloads) == expected["data"], "email: the merged parts differ from the ordinary answer")
figures["emailParts"] = len(payloads)
figures["emailUpstreamRequests"] = requests

# 2. Apollo's older format, through requests-toolbelt.
content_type, body, requests = post(by_toolbelt, OLD)
check(content_type == 'multipart/mixed; boundary="-"; deferSpec=20220824', f"Content-Type {content_type}")
decoded = MultipartDecoder(body, content_type)
check(all(part.headers[b"Content-Type"] == b"application/json; charset=utf-8" for part in decoded.parts),
      "a toolbelt part has another Content-Type")
payloads = [json.loads(part.content) for part in decoded.parts]
check("pending" not in payloads[0] and payloads[0]["hasNext"] is True, "the first part is not the older format")
check(all("path" in entry for payload in payloads[1:] for entry in payload.get("incremental", [])),
      "an entry has no path")
check(merged_20220824(payloads) == expected["data"], "toolbelt: the merged parts differ from the ordinary answer")
figures["toolbeltParts"] = len(payloads)
figures["toolbeltUpstreamRequests"] = requests

# 3. curl -N: the first part is on stdout while the video searches still wait for the upstream.
started = time.monotonic()
curl = subprocess.Popen(["curl", "-sN", by_curl, "-H", "Content-Type: application/json", "-H", "Accept: " + V02,
                         "--data-binary", BODY.decode()], stdout=subprocess.PIPE)
first_part_ms = end_ms = None
seen = b""
while True:
    chunk = curl.stdout.read1(65536)
    if not chunk:
        break
    seen += chunk
    now = (time.monotonic() - started) * 1000
    if first_part_ms is None and b'"hasNext":true' in seen:
        first_part_ms = now
        figures["curlFirstPartHadVideos"] = b"videos" in seen
    if seen.endswith(b"\r\n-----\r\n"):
        end_ms = now
curl.wait()
check(first_part_ms is not None and end_ms is not None, "curl saw no complete multipart answer")
figures["curlFirstPartMs"] = round(first_part_ms)
figures["curlEndMs"] = round(end_ms)

print(json.dumps(figures))
