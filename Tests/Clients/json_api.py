#!/usr/bin/env python3
"""A MusicBrainz-style JSON API on a loopback port, for the connector tests and benches.

Prints its port on the first line of stdout, then serves until killed:
  GET /ws/release/{id}        one release; 404 for an id it does not know
  GET /ws/releases?ids=a,b    the known releases of up to MAX_IDS ids: {"releases": [...]}
  GET /ws/ids?first=N&offset=M  {"ids": [{"id": "r<M+1>"}, …]}: N release ids
  GET /ws/search?query=q      {"data": {"items": [...]}}: releases whose title has q
  GET /ws/lyrics?artist=&title=  {"lyrics": "..."}; 401 without the right api_key
  GET /ws/broken/{id}         an HTML page (not JSON)
  GET /ws/slow/{id}           release r1, after 2 seconds
  GET /__log                  the requests so far, as a JSON list of "path?query"
  GET /__reset                forgets them
  GET /__fail?on=1|0          every /ws/ request answers 503 while on
Every /ws/ request takes the api key from `api_key` when LYRICS_KEY is set for /ws/lyrics.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit, unquote

MAX_IDS = 50
KEY = os.environ.get("JSON_API_KEY", "")
LOG = []
LOCK = threading.Lock()
FAILING = [False]


def release(rid):
    """Releases r1…r999 exist; anything else does not."""
    if not rid.startswith("r") or not rid[1:].isdigit() or not 1 <= int(rid[1:]) <= 999:
        return None
    n = int(rid[1:])
    return {
        "id": rid,
        "title": f"Release {n}",
        "release-date": f"19{70 + n % 30}-01-0{1 + n % 9}",
        "artist-credit": [{"name": f"Artist {n % 7}"}],
        "track-count": n % 12 + 1,
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, value, content_type="application/json"):
        body = value if isinstance(value, bytes) else json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        path = parts.path
        if path == "/__log":
            with LOCK:
                return self.send_json(200, list(LOG))
        if path == "/__reset":
            with LOCK:
                LOG.clear()
            return self.send_json(200, {"ok": True})
        if path == "/__fail":
            FAILING[0] = query.get("on", ["1"])[0] == "1"
            return self.send_json(200, {"failing": FAILING[0]})
        with LOCK:
            LOG.append(self.path)
        if FAILING[0]:
            return self.send_json(503, {"error": "down for maintenance"})
        if path.startswith("/ws/release/"):
            found = release(unquote(path[len("/ws/release/"):]))
            return self.send_json(200, found) if found else self.send_json(404, {"error": "Not Found"})
        if path == "/ws/releases":
            ids = [i for value in query.get("ids", []) for i in value.split(",") if i]
            if len(ids) > MAX_IDS:
                return self.send_json(400, {"error": f"at most {MAX_IDS} ids"})
            return self.send_json(200, {"releases": [r for r in map(release, ids) if r]})
        if path == "/ws/search":
            q = query.get("query", [""])[0].lower()
            items = [release(f"r{n}") for n in range(1, 40)]
            return self.send_json(200, {"data": {"items": [r for r in items if q in r["title"].lower()][:5]}})
        if path == "/ws/lyrics":
            if KEY and query.get("api_key", [""])[0] != KEY:
                return self.send_json(401, {"error": "invalid api_key"})
            artist = query.get("artist", [""])[0]
            title = query.get("title", [""])[0]
            return self.send_json(200, {"lyrics": f"{title} by {artist}, la la la"})
        if path == "/ws/ids":
            first = int(query.get("first", ["10"])[0])
            offset = int(query.get("offset", ["0"])[0])
            return self.send_json(200, {"ids": [{"id": f"r{n}"} for n in range(offset + 1, offset + first + 1)]})
        if path.startswith("/ws/slow/"):
            time.sleep(2)
            return self.send_json(200, release("r1"))
        if path.startswith("/ws/broken/"):
            return self.send_json(200, b"<html>maintenance</html>", "text/html")
        return self.send_json(404, {"error": "no such endpoint"})


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
