"""Starting and stopping `musicgraph demo-upstream` and `musicgraph serve` for the gateway
benches: each prints its URL as the last word of its first stdout line."""
import json
import socket
import subprocess
import time
import urllib.request


def start(argv, env=None):
    """Starts `argv`, returns (process, url from the first stdout line)."""
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    line = process.stdout.readline()
    if not line:
        raise SystemExit(f"{argv[0]} {argv[1]} did not start")
    return process, line.split()[-1]


def stop(process):
    process.terminate()
    process.wait(timeout=30)


def post(url, query, timeout=600):
    body = json.dumps({"query": query}).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response)


def get_json(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.load(response)


def free_port():
    """A loopback port free at the time of asking."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    """A redis-server of the bench's own on a free loopback port, nothing saved to disk."""

    def __init__(self):
        self.port = free_port()
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise SystemExit("redis-server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
