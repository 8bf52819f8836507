#!/usr/bin/env python3
"""Line coverage of the test suite, one row per Sources/ module and a total (`make coverage`).

Builds the tests with `--enable-code-coverage` in SCRATCH (a scratch path of its own, so the
normal debug build is never rebuilt with coverage flags), runs them serially, merges every
profile with the toolchain's llvm-profdata and reports with its llvm-cov. SwiftPM points
LLVM_PROFILE_FILE at `codecov/Swift Testing%m.%p.profraw` (and `XCTest%m.%p.profraw`): the
`musicgraph` processes the CLI, Catalog and doc tests start inherit it, and %p gives each process
a file of its own, so the executable's coverage counts too (it is passed to llvm-cov as a second
`-object`). Files under Tests/ or .build/ are no module's. The test output goes to
SCRATCH/coverage-tests.log, the figures to SCRATCH/coverage.json; failing tests fail the run,
after the table (which then covers the run as it went).

Usage: scripts/coverage.py [--scratch-path DIR] [--test-flags '--filter X'] [--files MODULE]
                           [--report-only] [-- SWIFT_BUILD_FLAGS...]
"""

import argparse
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IGNORE = r"(^|/)(Tests|\.build[^/]*)/"


def tool(name):
    """The toolchain's llvm tool: beside the swift driver that builds, else on PATH."""
    swift = shutil.which(os.environ.get("SWIFT", "swift"))
    if swift:
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), name)
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(name)
    if not found:
        sys.exit(f"coverage: {name} not found beside swift nor on PATH")
    return found


def run(command, **kwargs):
    return subprocess.run(command, cwd=ROOT, **kwargs)


def module_of(path):
    """`Sources/<Module>/…` relative to the root, else None (tests, build products, the toolchain)."""
    relative = os.path.relpath(os.path.realpath(path), ROOT)
    parts = relative.split(os.sep)
    if len(parts) < 3 or parts[0] != "Sources":
        return None
    return parts[1]


def source_modules():
    """Every Sources/ folder holding code llvm-cov can count (system-library targets hold none)."""
    modules = []
    for name in sorted(os.listdir(os.path.join(ROOT, "Sources"))):
        for _, _, files in os.walk(os.path.join(ROOT, "Sources", name)):
            if any(f.endswith((".swift", ".c")) for f in files):
                modules.append(name)
                break
    return modules


def percent(covered, count):
    return f"{100.0 * covered / count:6.2f}%" if count else "      -"


def report(export, files_of):
    rows = {name: {"files": 0, "lines": 0, "covered": 0} for name in source_modules()}
    per_file = []
    for data in export["data"]:
        for entry in data["files"]:
            module = module_of(entry["filename"])
            if module is None:
                continue
            lines = entry["summary"]["lines"]
            row = rows.setdefault(module, {"files": 0, "lines": 0, "covered": 0})
            row["files"] += 1
            row["lines"] += lines["count"]
            row["covered"] += lines["covered"]
            if module == files_of:
                missed = lines["count"] - lines["covered"]
                per_file.append((missed, lines["count"], lines["covered"], entry["filename"]))

    width = max(len("Module"), *(len(name) for name in rows))
    print(f"{'Module':<{width}}  {'Files':>5}  {'Lines':>7}  {'Covered':>7}  {'Cover':>7}")
    total = {"files": 0, "lines": 0, "covered": 0}
    for name in sorted(rows, key=str.lower):
        row = rows[name]
        if row["files"] == 0:
            print(f"{name:<{width}}  {'-':>5}  {'-':>7}  {'-':>7}  no code in this build")
            continue
        for key in total:
            total[key] += row[key]
        print(
            f"{name:<{width}}  {row['files']:>5}  {row['lines']:>7}  {row['covered']:>7}  "
            f"{percent(row['covered'], row['lines'])}"
        )
    print(
        f"{'TOTAL':<{width}}  {total['files']:>5}  {total['lines']:>7}  {total['covered']:>7}  "
        f"{percent(total['covered'], total['lines'])}"
    )
    if files_of:
        print(f"\n{files_of}, most lines missed first:")
        print(f"{'Missed':>6}  {'Lines':>6}  {'Cover':>7}  File")
        for missed, count, covered, name in sorted(per_file, key=lambda row: (-row[0], row[3])):
            print(f"{missed:>6}  {count:>6}  {percent(covered, count)}  {os.path.relpath(name, ROOT)}")
    rows["TOTAL"] = total
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch-path", default=".build/coverage")
    parser.add_argument("--test-flags", default="", help="more `swift test` options, e.g. '--filter GraphQLTests'")
    parser.add_argument("--files", metavar="MODULE", help="also list MODULE's files, most lines missed first")
    parser.add_argument("--report-only", action="store_true", help="report the profiles of the last run")
    parser.add_argument("build_flags", nargs="*", help="more `swift build` options (after --)")
    args = parser.parse_args()

    swift = os.environ.get("SWIFT", "swift")
    scratch = os.path.join(ROOT, args.scratch_path)
    common = ["--enable-code-coverage", "--scratch-path", scratch]
    start = time.monotonic()
    if not args.report_only:
        if run([swift, "build", "--build-tests", *common, *args.build_flags]).returncode != 0:
            sys.exit("coverage: the build failed")
    built = time.monotonic()
    bin_path = run(
        [swift, "build", "--show-bin-path", *common], capture_output=True, text=True, check=True
    ).stdout.strip()
    codecov = os.path.join(bin_path, "codecov")
    status = 0
    log_path = os.path.join(scratch, "coverage-tests.log")
    if not args.report_only:
        # Profiles of an earlier run would be merged into this one's.
        shutil.rmtree(codecov, ignore_errors=True)
        with open(log_path, "w") as log:
            # Serially, as `make test` runs them (timing assertions on a 2-core machine).
            command = [swift, "test", "--skip-build", "--no-parallel", *common, *shlex.split(args.test_flags)]
            status = run(command, stdout=log, stderr=subprocess.STDOUT).returncode
        with open(log_path, errors="replace") as log:
            print("".join(log.readlines()[-3:]), end="")
    tested = time.monotonic()

    raws = sorted(glob.glob(os.path.join(codecov, "*.profraw")))
    if not raws:
        sys.exit(f"coverage: no profiles in {codecov}")
    profdata = os.path.join(scratch, "coverage.profdata")
    listing = os.path.join(scratch, "coverage-profiles.txt")
    with open(listing, "w") as out:
        out.write("\n".join(raws) + "\n")
    run([tool("llvm-profdata"), "merge", "-sparse", "-f", listing, "-o", profdata], check=True)
    # The test bundle (every library module) and the executable the CLI tests run.
    objects = [os.path.join(bin_path, "MusicGraphPackageTests.xctest"), os.path.join(bin_path, "musicgraph")]
    for path in objects:
        if not os.path.exists(path):
            sys.exit(f"coverage: {path} is missing: build with --build-tests first")
    object_flags = [objects[0], "-object", objects[1]]
    command = [tool("llvm-cov"), "export", "-summary-only", "-instr-profile", profdata]
    command += ["-ignore-filename-regex", IGNORE]
    # stderr passes through: llvm-cov warns there of profiles that do not match the binaries.
    export = json.loads(run(command + object_flags, stdout=subprocess.PIPE, text=True, check=True).stdout)

    print(f"coverage: merged {len(raws)} profiles, one per process (the test runs and the processes they started)")
    rows = report(export, args.files)
    with open(os.path.join(scratch, "coverage.json"), "w") as out:
        json.dump(rows, out, indent=1, sort_keys=True)
    end = time.monotonic()
    print(f"coverage: build {built - start:.0f} s, tests {tested - built:.0f} s, report {end - tested:.0f} s")
    show = [tool("llvm-cov"), "show", "-instr-profile", profdata, *object_flags]
    show = [os.path.relpath(word, ROOT) if word.startswith(ROOT) else word for word in show]
    print(f"coverage: the lines of one file: {shlex.join(show)} FILE")
    if status != 0:
        log = os.path.relpath(log_path, ROOT)
        print(f"coverage: tests failed (exit {status}, see {log}): the figures cover the run as it went")
    sys.exit(status)


if __name__ == "__main__":
    main()
