"""A loopback OTLP/HTTP trace collector for the tracing test: every POST /v1/traces body is
decoded with the official OTLP definitions (PyPI opentelemetry-proto, protobuf's json_format,
which refuses unknown fields and wrong value types), so a body that is not valid OTLP/JSON is
answered 400 and counted as rejected. OTLP/JSON writes trace and span ids as hex where protobuf's
JSON mapping has base64 (the OTLP specification's one deviation): the ids are checked to be
lower-case hex of the right length and turned into base64 before json_format reads the body.

usage: otlp_collector.py   (prints its port on the first line, then serves until killed)
  GET /spans     {"accepted": N, "rejected": [reasons], "contentTypes": [...],
                  "spans": [span as json_format.MessageToDict gives it, plus "resource": {k: v}]}
  GET /raw       every accepted body, concatenated (for the secret scan)
"""

import base64
import json
import re
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

lock = threading.Lock()
state = {"accepted": 0, "rejected": [], "contentTypes": [], "spans": [], "raw": b""}


HEX = {"traceId": re.compile(r"^[0-9a-f]{32}$"), "spanId": re.compile(r"^[0-9a-f]{16}$"),
       "parentSpanId": re.compile(r"^([0-9a-f]{16})?$")}


def ids_as_base64(document):
    """The body with its spans' hex ids as protobuf's JSON mapping wants them; ValueError for
    an id that is not OTLP's hex."""
    for resource_spans in document.get("resourceSpans", []):
        for scope_spans in resource_spans.get("scopeSpans", []):
            for span in scope_spans.get("spans", []):
                for field, pattern in HEX.items():
                    if field not in span:
                        continue
                    if not isinstance(span[field], str) or not pattern.match(span[field]):
                        raise ValueError(f"{field} {span[field]!r} is not OTLP hex")
                    span[field] = base64.b64encode(bytes.fromhex(span[field])).decode()
    return document


def value_of(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        content_type = self.headers.get("Content-Type", "")
        if self.path != "/v1/traces":
            self.answer(404, b"{}")
            return
        request = ExportTraceServiceRequest()
        try:
            json_format.ParseDict(ids_as_base64(json.loads(body)), request)
        except Exception as error:  # noqa: BLE001 - every refusal is the test's finding
            with lock:
                state["rejected"].append(str(error))
            self.answer(400, json.dumps({"error": str(error)}).encode())
            return
        spans = []
        for resource_spans in request.resource_spans:
            resource = {kv.key: value_of(kv.value) for kv in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    data = json_format.MessageToDict(span)
                    data["resource"] = resource
                    data["scope"] = scope_spans.scope.name
                    # Ids as the hex the wire carried (MessageToDict gives base64 bytes).
                    data["traceId"] = span.trace_id.hex()
                    data["spanId"] = span.span_id.hex()
                    data["parentSpanId"] = span.parent_span_id.hex()
                    data["kind"] = int(span.kind)
                    data["attributes"] = {kv.key: value_of(kv.value) for kv in span.attributes}
                    data["statusCode"] = int(span.status.code)
                    spans.append(data)
        with lock:
            state["accepted"] += 1
            state["contentTypes"].append(content_type)
            state["spans"].extend(spans)
            state["raw"] += body + b"\n"
        self.answer(200, b"{}")

    def do_GET(self):
        with lock:
            if self.path == "/raw":
                self.answer(200, state["raw"], "application/octet-stream")
                return
            view = {key: value for key, value in state.items() if key != "raw"}
            body = json.dumps(view).encode()
        self.answer(200, body)


def main():
    # A test runner may start its children with SIGTERM ignored: be stoppable all the same.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
