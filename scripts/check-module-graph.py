#!/usr/bin/env python3
"""Checks that Package.swift declares exactly the modules each target imports.

For every Swift target of the package (as `swift package dump-package` reports it), the
modules of this package that its sources import must equal the target dependencies it
declares: an import without a declaration builds only by accident (through another target's
dependency), and a declaration without an import draws an arrow in the module graph that
the code does not have. Toolchain modules (Foundation, Testing, Synchronization, …) are not
package targets and are ignored.

It also keeps the boundaries the module graph alone cannot: the upstream economy names no
provider of the music domain (not in code, not in a comment), and the music domain defines
none of the economy's types. Exit status 1 lists every mismatch, 0 prints a summary.

Usage: scripts/check-module-graph.py [PACKAGE_DIR]   (default: the repository root)
       scripts/check-module-graph.py --self-test     (the check finds planted drift)
"""
import json
import os
import re
import subprocess
import sys

# `import X`, `@testable import X`, `@_exported import X`, `import struct X.Y`, each at the
# start of a line (imports inside `#if` blocks count like any other).
IMPORT = re.compile(
    r"^\s*(?:@\w+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)",
    re.M,
)


def swift_sources(folder: str):
    """(path, text) of every Swift file under `folder`, in a stable order."""
    for directory, subdirectories, files in os.walk(folder):
        subdirectories.sort()
        for file in sorted(files):
            if file.endswith(".swift"):
                path = os.path.join(directory, file)
                with open(path, encoding="utf-8") as handle:
                    yield path, handle.read()


def check(root: str) -> list:
    """The mismatches of the package at `root`, one line each, and how many targets were read."""
    manifest = json.loads(
        subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True, capture_output=True, text=True).stdout
    )
    targets = {t["name"]: t for t in manifest["targets"]}
    problems = []
    checked = 0
    for name, target in targets.items():
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        default = "Tests" if target["type"] == "test" else "Sources"
        folder = os.path.join(root, target.get("path") or os.path.join(default, name))
        declared = set()
        for dependency in target["dependencies"]:
            # {"byName": ["X", null]}, {"target": ["X", null]} or {"product": ["X", "pkg", …]}
            kind, value = next(iter(dependency.items()))
            declared.add(value[0])
        imported = {}
        for path, text in swift_sources(folder):
            for module in IMPORT.findall(text):
                if module in targets and module != name:
                    imported.setdefault(module, os.path.relpath(path, root))
        checked += 1
        for module in sorted(set(imported) - declared):
            problems.append(f"{name}: imports {module} ({imported[module]}) but does not declare it")
        for module in sorted(declared - set(imported)):
            problems.append(f"{name}: declares {module} but no file of it imports {module}")
    return problems, checked


# What a target's sources must not contain: (target, pattern, what it means).
BOUNDARIES = [
    ("UpstreamEconomy", re.compile(r"\b(youtube|itunes|apple ?music|rakuten|tmdb)\b", re.I), "names a provider"),
    (
        "Catalog",
        re.compile(
            r"^\s*(?:public |package |final |private |fileprivate )*(?:class|struct|enum|actor)\s+"
            r"(UpstreamCache|InFlightRequests?|QuotaLedger|QuotaDay|QuotaShares|RequestBudget|SharedResponses|"
            r"UpstreamExchange|RequestTransport|UpstreamCounters|AnswerMemos?|MemoReading|KeptAnswers|BatchReads|"
            r"LRUDictionary|LRUCache)\b",
            re.M,
        ),
        "defines an upstream economy type",
    ),
]


def boundaries(root: str, rules=BOUNDARIES) -> list:
    """Every line of a target's sources that crosses one of `rules`."""
    problems = []
    for target, pattern, meaning in rules:
        for path, text in swift_sources(os.path.join(root, "Sources", target)):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{target}: {os.path.relpath(path, root)}:{line} {meaning}: {match.group(0).strip()}")
    return problems


def self_test() -> int:
    """Plants both kinds of drift in a throw-away package and expects exactly them reported."""
    import tempfile

    with tempfile.TemporaryDirectory() as root:
        files = {
            "Package.swift": "// swift-tools-version: 6.0\nimport PackageDescription\n"
            "let package = Package(name: \"Drift\", targets: [\n"
            "  .target(name: \"Base\"),\n"
            "  .target(name: \"Middle\", dependencies: [\"Base\"]),\n"
            "  .target(name: \"Top\", dependencies: [\"Middle\"]),\n"
            "])\n",
            "Sources/Base/Base.swift": "public let base = 1\n",
            "Sources/Middle/Middle.swift": "import Foundation\n",
            "Sources/Top/Top.swift": "import Middle\n@testable import Base\n",
        }
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)) or root, exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as handle:
                handle.write(text)
        problems, _ = check(root)
    expected = [
        "Middle: declares Base but no file of it imports Base",
        "Top: imports Base (Sources/Top/Top.swift) but does not declare it",
    ]
    if sorted(problems) != expected:
        print(f"self-test failed: expected {expected}, got {problems}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "Sources", "UpstreamEconomy"))
        with open(os.path.join(root, "Sources", "UpstreamEconomy", "Ledger.swift"), "w", encoding="utf-8") as handle:
            handle.write("// counts units\n/// YouTube's day ends at midnight in Los Angeles\n")
        crossed = boundaries(root)
    if crossed != ["UpstreamEconomy: Sources/UpstreamEconomy/Ledger.swift:2 names a provider: YouTube"]:
        print(f"self-test failed: the planted provider name was not found: {crossed}", file=sys.stderr)
        return 1
    print("module graph self-test: planted drift found")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems, checked = check(root)
    problems += boundaries(root)
    if problems:
        print("Package.swift and the imports disagree:", file=sys.stderr)
        for problem in problems:
            print("  " + problem, file=sys.stderr)
        return 1
    print(f"module graph: {checked} targets declare exactly what they import")
    return 0


if __name__ == "__main__":
    sys.exit(main())
