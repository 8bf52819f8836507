#!/usr/bin/env python3
"""Checks that every relative link in README.md, CONTRIBUTING.md, docs/*.md and bench/README.md
resolves: the file (or folder) exists, and a #fragment names a heading of the target Markdown
file (GitHub's anchor rules: lower case, punctuation dropped, spaces to hyphens, -1, -2 … for
repeats). Links in fenced code blocks and inline code are ignored, and so are absolute URLs.
Prints each broken link as path:line: target (reason) and exits 1 if there is any.
Usage: scripts/check-doc-links.py [FILE.md …] (run from anywhere; paths default to the set above)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`+[^`]*`+")


def prose_lines(path, keep_code=False):
    """(line number, text) of the lines outside fenced code blocks, inline code removed
    unless keep_code."""
    fence = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            stripped = line.lstrip()
            if stripped.startswith("```") or stripped.startswith("~~~"):
                marker = stripped[:3]
                if fence is None:
                    fence = marker
                elif fence == marker:
                    fence = None
                continue
            if fence is None:
                yield number, line if keep_code else INLINE_CODE.sub("", line)


def slug(heading):
    text = re.sub(r"<[^>]+>", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        found = set()
        for _, line in prose_lines(path, keep_code=True):
            match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not match:
                continue
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        cache[path] = found
    return cache[path]


def check(path):
    problems = []
    for number, line in prose_lines(path):
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto: …
            file_part, _, fragment = target.partition("#")
            resolved = (
                os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            )
            where = f"{os.path.relpath(path, ROOT)}:{number}: {target}"
            if not os.path.exists(resolved):
                problems.append(f"{where} (no such file)")
            elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
                problems.append(f"{where} (no heading #{fragment} in {os.path.relpath(resolved, ROOT)})")
    return problems


def main():
    paths = sys.argv[1:] or [
        os.path.join(ROOT, name) for name in ("README.md", "CONTRIBUTING.md", "bench/README.md")
    ] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    problems = []
    links = 0
    for path in paths:
        if os.path.exists(path):
            problems += check(os.path.abspath(path))
            links += sum(len(LINK.findall(line)) for _, line in prose_lines(path))
    for problem in problems:
        print(problem)
    print(f"{len(paths)} files, {links} links, {len(problems)} broken", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
