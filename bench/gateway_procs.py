"""Starting and stopping `musicgraph demo-upstream` and `musicgraph serve` for the gateway
benches: each prints its URL as the last word of its first stdout line."""
import json
import subprocess
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
