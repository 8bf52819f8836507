#!/usr/bin/env python3
"""`musicgraph validate` over a generated repository of operations, beside graphql-js.

Generates (deterministically, --seed) a directory of N operation files (default 300) against
schema.graphql, in the shape of an app's `src/graphql`: operations of several shapes with
variables, fragments shared from a few fragment files, some files in subdirectories. Into it
it plants errors of every common kind at known places (unknown field, wrong literal type,
unknown argument, missing required argument, undefined and unused variables, unknown
fragment, a duplicate operation name across files, a syntax error, an error inside a shared
fragment, non-UTF-8 bytes) and records the (file, line, column, rule) each must be reported at.

Then:
  1. runs `musicgraph validate --schema schema.graphql --format json DIR` and checks that
     every planted error is reported at its file, line and column under its rule, and that
     nothing else is (found/missing/extra);
  2. times the whole command (process start-up, reading, parsing, validating, printing):
     the median wall time of --runs runs, and `--repeat` in-process medians;
  3. times graphql-js (Debian `node-graphql`) doing the same project validation in the same
     run (bench/peer_validate_repo.js: read every file, parse, resolve fragments across
     files, validate each document), and prints the ratio graphql-js/ours (above 1: we are
     faster).
The target: well under a second for 300 files on the release build.

Usage: python3 bench/validate_repo.py [--bin .build/release/musicgraph] [--files 300]
           [--seed 7] [--runs 7] [--keep]
Results also go to bench/out/validate-repo.json. Only a benchmark: never part of `make test`.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
SCHEMA = os.path.join(ROOT, "schema.graphql")
GRAPHQL_JS_DIR = os.environ.get("GRAPHQL_JS_DIR", "/usr/share/nodejs/graphql")

ARTISTS = ["AC/DC", "Queen", "Daft Punk", "Iron Maiden", "Björk", "Radiohead", "宇多田ヒカル", "Nina Simone"]

FRAGMENT_FILES = {
    "fragments/artist.graphql": [
        "fragment ArtistCard on Artist {",
        "  id",
        "  name",
        "  genre",
        "  url",
        "}",
        "",
        "fragment ArtistWithAlbums on Artist {",
        "  ...ArtistCard",
        "  albums(first: 3) {",
        "    ...AlbumCard",
        "  }",
        "}",
    ],
    "fragments/album.graphql": [
        "fragment AlbumCard on Album {",
        "  id",
        "  title",
        "  releaseDate",
        "  artworkUrl(size: 300)",
        "  source",
        "}",
        "",
        "fragment AlbumTracks on Album {",
        "  ...AlbumCard",
        "  tracks {",
        "    ...TrackRow",
        "  }",
        "}",
    ],
    "fragments/track.graphql": [
        "fragment TrackRow on Track {",
        "  id",
        "  title",
        "  trackNumber",
        "  durationMs",
        "}",
        "",
        "fragment VideoTile on Video {",
        "  id",
        "  title",
        "  thumbnailUrl",
        "  url",
        "}",
    ],
}


class Plant:
    def __init__(self, rule, line, column, note):
        self.rule, self.line, self.column, self.note = rule, line, column, note


def operation(kind, index, rng):
    """The lines of one valid operation of `kind`, named Op<index>."""
    name = f"Op{index:03d}"
    artist = rng.choice(ARTISTS).replace('"', '\\"')
    first = rng.randint(1, 5)
    if kind == "artist":
        return [
            f"query {name}($name: String!, $first: Int = {first}) {{",
            "  artist(name: $name) {",
            "    ...ArtistCard",
            "    albums(first: $first) {",
            "      ...AlbumTracks",
            "    }",
            "  }",
            "}",
        ]
    if kind == "search":
        return [
            f"query {name}($term: String!) {{",
            f"  albums(term: $term, first: {first}, source: ITUNES) {{",
            "    ...AlbumCard",
            "    artistName",
            "    trackCount",
            "  }",
            f'  videos(query: "{artist}", first: {first}, duration: SHORT) {{',
            "    ...VideoTile",
            "    publishedAt",
            "  }",
            "}",
        ]
    if kind == "node":
        return [
            f"query {name}($id: ID!) {{",
            "  node(id: $id) {",
            "    id",
            "    ... on Album {",
            "      ...AlbumTracks",
            "    }",
            "    ... on Track {",
            "      ...TrackRow",
            "      videos(first: 2) { ...VideoTile }",
            "    }",
            "  }",
            "}",
        ]
    if kind == "movies":
        return [
            f"query {name} {{",
            f'  movies(query: "{artist}", first: {first}) {{',
            "    id",
            "    title",
            "    voteAverage",
            '    posterUrl(size: "w342")',
            "    videos(first: 2) { ...VideoTile }",
            "  }",
            "}",
        ]
    return [
        f"query {name}($name: String!) {{",
        "  artist(name: $name) {",
        "    ...ArtistWithAlbums",
        "  }",
        f'  artists(name: "{artist}", first: {first}, source: APPLE_MUSIC) {{',
        "    ...ArtistCard",
        "  }",
        "}",
    ]


def plant(kind, lines, rng, index):
    """Changes `lines` to hold one error of `kind`; returns the Plant(s) (1-based positions)."""
    if kind == "unknown-field":
        # Right inside the first root field: no type of the schema has `popularity`.
        lines.insert(2, "    popularity")
        return [Plant("FieldsOnCorrectType", 3, 5, "unknown field")]
    if kind == "wrong-literal":
        lines[0] = f"query Op{index:03d} {{"
        lines[1:] = ['  artists(name: "x", first: "two") {', "    ...ArtistCard", "  }", "}"]
        return [Plant("ValuesOfCorrectType", 2, 29, "String for Int")]
    if kind == "unknown-argument":
        lines[0] = f"query Op{index:03d} {{"
        lines[1:] = ['  movies(query: "Alien", year: 1979) {', "    title", "  }", "}"]
        return [Plant("KnownArgumentNames", 2, 26, "unknown argument")]
    if kind == "missing-argument":
        lines[0] = f"query Op{index:03d} {{"
        lines[1:] = ["  albums(first: 2) {", "    ...AlbumCard", "  }", "}"]
        return [Plant("ProvidedRequiredArguments", 2, 3, "albums(term:) missing")]
    if kind == "undefined-variable":
        lines[0] = f"query Op{index:03d} {{"
        lines[1:] = ["  track(id: $trackId) {", "    ...TrackRow", "  }", "}"]
        return [Plant("NoUndefinedVariables", 2, 13, "$trackId undefined")]
    if kind == "unused-variable":
        lines[0] = f"query Op{index:03d}($unused: Int) {{"
        lines[1:] = ['  artist(name: "Queen") {', "    ...ArtistCard", "  }", "}"]
        return [Plant("NoUnusedVariables", 1, 13, "$unused unused")]
    if kind == "unknown-fragment":
        lines[0] = f"query Op{index:03d} {{"
        lines[1:] = ['  album(id: "itunes:album:1") {', "    ...AlbumDetails", "  }", "}"]
        return [Plant("KnownFragmentNames", 3, 8, "no AlbumDetails")]
    if kind == "syntax":
        lines[0] = f"query Op{index:03d} {{"
        lines[1:] = ['  artist(name: "Queen" {', "    name", "  }", "}"]
        return [Plant("SyntaxError", 2, 24, "missing )")]
    raise ValueError(kind)


def generate(directory, files, seed):
    """Writes the repository; returns (plants by relative path, operation count)."""
    rng = random.Random(seed)
    shutil.rmtree(directory, ignore_errors=True)
    expected = []
    fragment_lines = {path: list(lines) for path, lines in FRAGMENT_FILES.items()}
    # An error inside a shared fragment: reported once, in the fragment file, however many use it.
    fragment_lines["fragments/track.graphql"].insert(4, "  lyrics")
    expected.append(("fragments/track.graphql", Plant("FieldsOnCorrectType", 5, 3, "field in shared fragment")))
    for path, lines in fragment_lines.items():
        write(directory, path, "\n".join(lines) + "\n")
    kinds = ["artist", "search", "node", "movies", "page"]
    errors = [
        "unknown-field", "wrong-literal", "unknown-argument", "missing-argument", "undefined-variable",
        "unused-variable", "unknown-fragment", "syntax",
    ]
    operations = 0
    operation_files = files - len(FRAGMENT_FILES) - 2  # the two legacy files below
    # Op000 stays valid: the duplicate below copies its name.
    planted_at = set(rng.sample(range(1, operation_files), 3 * len(errors)))
    error_cycle = 0
    for index in range(operation_files):
        kind = kinds[index % len(kinds)]
        lines = operation(kind, index, rng)
        folder = ["screens", "widgets", "screens/detail", "jobs"][index % 4]
        path = f"{folder}/{index:03d}-{kind}.graphql"
        if index in planted_at:
            error = errors[error_cycle % len(errors)]
            error_cycle += 1
            path = path.replace(f"-{kind}.", f"-{error}.")
            for p in plant(error, lines, rng, index):
                expected.append((path, p))
        if not any(p.rule == "SyntaxError" for q, p in expected if q == path):
            operations += 1
        write(directory, path, "\n".join(lines) + "\n")
    # A duplicate operation name across files, reported at the later file's name token (files
    # are read in path order: legacy/ comes before screens/000-artist.graphql).
    write(directory, "legacy/op000-copy.graphql", "query Op000 {\n  artist(name: \"Queen\") {\n    name\n  }\n}\n")
    expected.append(("screens/000-artist.graphql", Plant("UniqueOperationNames", 1, 7, "Op000 twice")))
    operations += 1
    # A file that is not UTF-8 (Latin-1 "Mötley Crüe").
    with open(os.path.join(directory, "legacy/latin1.graphql"), "wb") as handle:
        handle.write(b'query Latin1 {\n  artist(name: "M\xf6tley Cr\xfce") {\n    name\n  }\n}\n')
    expected.append(("legacy/latin1.graphql", Plant("InvalidUTF8", 2, 18, "0xF6")))
    return expected, operations


def write(directory, path, text):
    full = os.path.join(directory, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as handle:
        handle.write(text)


def median_wall(command, runs):
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "musicgraph"),
                        help="the musicgraph binary (default: .build/release/musicgraph)")
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep bench/out/validate-repo")
    args = parser.parse_args()

    directory = os.path.join(OUT, "validate-repo")
    expected, operations = generate(directory, args.files, args.seed)
    files = sum(len(f) for _, _, f in os.walk(directory))
    print(f"generated {files} files ({operations} operations) with {len(expected)} planted errors in {directory}")

    command = [args.bin, "validate", "--schema", SCHEMA, "--format", "json", directory]
    wall_ms, result = median_wall(command, args.runs)
    if result.returncode != 1:
        sys.exit(f"expected exit 1 (errors), got {result.returncode}: {result.stderr.strip()}")
    report = json.loads(result.stdout)
    prefix = directory + "/"
    found = set()
    for error in report["errors"]:
        location = (error.get("locations") or [{}])[0]
        file = location.get("file", error["extensions"]["file"])
        found.add((file[len(prefix):] if file.startswith(prefix) else file, location.get("line"),
                   location.get("column"), error["extensions"]["rule"]))
    wanted = {(path, p.line, p.column, p.rule) for path, p in expected}
    missing = sorted(wanted - found)
    extra = sorted(found - wanted)
    text = subprocess.run([args.bin, "validate", "--schema", SCHEMA, directory], capture_output=True, text=True)
    summary = text.stdout.strip().splitlines()[-1]

    repeat = subprocess.run([args.bin, "validate", "--schema", SCHEMA, "--format", "json", "--repeat", "20", directory],
                            capture_output=True, text=True)
    in_process_ms = json.loads(repeat.stderr.strip().splitlines()[-1])["validate_ms"]

    peer = None
    peer_script = os.path.join(ROOT, "bench", "peer_validate_repo.js")
    if shutil.which("node") and os.path.isdir(GRAPHQL_JS_DIR):
        peer_wall, peer_result = median_wall(["node", peer_script, SCHEMA, directory], args.runs)
        repeated = subprocess.run(["node", peer_script, SCHEMA, directory, "--repeat", "20"], capture_output=True,
                                  text=True)
        if peer_result.returncode == 0 and repeated.returncode == 0:
            row = json.loads(repeated.stdout.strip().splitlines()[-1])
            peer = {"impl": row["impl"], "wall_ms": round(peer_wall, 1), "in_process_ms": row["validate_ms"],
                    "errors": row["errors"]}
        else:
            print("graphql-js peer failed: " + peer_result.stderr.strip()[-400:], file=sys.stderr)
    else:
        print("graphql-js peer skipped (apt-get install -y nodejs node-graphql)", file=sys.stderr)

    print(f"planted {len(wanted)}, reported {len(found)}: {len(wanted) - len(missing)} found at their file:line:col "
          f"with their rule, {len(missing)} missing, {len(extra)} extra")
    for row in missing:
        print("  missing", row)
    for row in extra:
        print("  extra  ", row)
    print(f"summary line: {summary}")
    print(f"{'':28}{'wall ms (median)':>18}{'in-process ms':>16}")
    print(f"{'musicgraph validate':28}{wall_ms:18.1f}{in_process_ms:16.2f}")
    if peer:
        print(f"{peer['impl'][:27]:28}{peer['wall_ms']:18.1f}{peer['in_process_ms']:16.2f}")
        print(f"ratio graphql-js/ours: wall {peer['wall_ms'] / wall_ms:.2f}, "
              f"in-process {peer['in_process_ms'] / in_process_ms:.2f} (above 1: ours is faster)")
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "validate-repo.json"), "w") as handle:
        json.dump({"files": files, "operations": operations, "planted": len(wanted), "missing": len(missing),
                   "extra": len(extra), "wall_ms": round(wall_ms, 1), "in_process_ms": in_process_ms,
                   "summary": summary, "peer": peer}, handle, indent=2)
    if not args.keep:
        shutil.rmtree(directory, ignore_errors=True)
    sys.exit(1 if missing or extra else 0)


if __name__ == "__main__":
    main()
