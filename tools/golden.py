#!/usr/bin/python3
"""Golden outputs: what ftv prints for a fixed set of runs (every conformance
scenario with its trace hash, short fuzz campaigns of every scheme, a mutant
found and shrunk, four replays (two of modules) and the litmus catalogue), with the figures
that depend on the machine (wall time, rates, peak RSS, temporary paths)
blanked.

Refactoring and speed work must leave this output byte-identical; a change
of behaviour regenerates it (`make golden`) and says why in its commit.

  golden.py --ftv build/ftv --top . --check tests/data/golden/golden.txt
  golden.py --ftv build/ftv --top . --update tests/data/golden/golden.txt
"""
import argparse
import difflib
import glob
import os
import re
import subprocess
import sys
import tempfile

SCHEMES = ["callops", "tramp", "mcount", "mcount-ops-tasks", "pair", "atomic"]
# Scenarios whose output depends on the wall clock: a CPU sent astray is
# stopped by the turn timeout (exec_config.turn_timeout_us), so where it is
# stopped and how many calls it made by then vary from run to run.
UNSTABLE = {"mutant-live-mov-patch.scn"}
DEBIAN = "corpus/layouts/debian-trixie-arm64-6.12.107-cloud.layout.xz"


def runs(top, tmp):
    for scn in sorted(glob.glob(os.path.join(top, "corpus/scenarios/*.scn"))):
        if os.path.basename(scn) in UNSTABLE:
            continue
        yield ["scenario", os.path.relpath(scn, top)]
    for s in SCHEMES:
        yield ["fuzz", "--seed", "1", "--iterations", "3", "--scheme", s]
    yield ["fuzz", "--seed", "1", "--iterations", "4", "--mutate",
           "bl-before-literal", "--out", os.path.join(tmp, "finding.scn")]
    yield ["replay", "tests/data/replay-fixture.layout"]
    yield ["replay", "tests/data/replay-modules.layout"]
    yield ["replay", "--batches", "2", DEBIAN]
    # a batch of module sites, every module beyond BL range (PLT window)
    yield ["replay", "--far-modules", "--first-batch", "60", "--batches", "1",
           DEBIAN]
    # no wall-clock budget: the output must not depend on the machine's load
    yield ["litmus", "--time-limit", "0"] + [
        os.path.relpath(p, top) for p in
        sorted(glob.glob(os.path.join(top, "corpus/litmus/*.litmus")) +
               glob.glob(os.path.join(top, "corpus/litmus/riscv64/*.litmus")))]
    yield ["litmus", "--time-limit", "0", "--kinds", "corpus/litmus/herd/kinds.txt"] + [
        os.path.relpath(p, top) for p in
        sorted(glob.glob(os.path.join(top, "corpus/litmus/herd/*.litmus")))]


VOLATILE = [
    (re.compile(r"peak RSS \d+ MiB"), "peak RSS N MiB"),
    (re.compile(r"\b\d+(\.\d+)? ?s\b"), "T s"),
    (re.compile(r"\(\d+(\.\d+)?( \w+)?/s\)"), "(R/s)"),
    (re.compile(r"\d+(\.\d+)?/s\b"), "R/s"),
]


def normalise(text, tmp):
    text = text.replace(tmp, "TMP")
    for rx, rep in VOLATILE:
        text = rx.sub(rep, text)
    return text


def collect(ftv, top):
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        # Run in a scratch directory (a finding's replay file lands there,
        # not in the tree) that sees the tree's inputs by the same paths.
        for d in ("corpus", "tests"):
            os.symlink(os.path.join(top, d), os.path.join(tmp, d))
        for args in runs(top, tmp):
            p = subprocess.run([ftv] + args, cwd=tmp, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               errors="replace")
            out.append(normalise("$ ftv %s  (exit %d)\n" % (" ".join(args), p.returncode), tmp))
            out.append(normalise(p.stdout, tmp))
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ftv", required=True)
    ap.add_argument("--top", required=True)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--check")
    g.add_argument("--update")
    a = ap.parse_args()
    ftv = os.path.abspath(a.ftv)
    got = collect(ftv, os.path.abspath(a.top))
    if a.update:
        with open(a.update, "w") as f:
            f.write(got)
        return 0
    with open(a.check) as f:
        want = f.read()
    if got == want:
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        want.splitlines(True), got.splitlines(True), a.check, "now", n=2))
    return 1


if __name__ == "__main__":
    sys.exit(main())
