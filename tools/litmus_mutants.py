#!/usr/bin/python3
"""make litmus-export: every arm64 mutant's counterexample as a herd7 test.

For each row of MUTANTS, runs `ftv verify --mutate NAME --litmus M.litmus
--litmus-fixed M+fixed.litmus WORLD`, then `ftv litmus --herd` on both files
and, with --herd PATH (and --herd-libdir DIR), `herd7 -variant ifetch`.
Prints docs/herd-results.md's table. --out DIR keeps the tests (default
build/litmus-export); --check DIR compares them with the golden files there
(tests/data/litmus-export/) and the verdicts with DIR/verdicts.txt; --update
rewrites them. Exit 1 on a difference or a mutant whose test is not Allowed
(its twin not Forbidden), else 0.
"""
import argparse
import os
import re
import subprocess
import sys

# mutant, world (tools/verify_mutants.py's), what ftv verify finds
MUTANTS = [
    ("bl-before-literal", "corpus/scenarios/verify-callops-make-call.scn"),
    ("live-mov-patch", "corpus/scenarios/verify-callops-make-call.scn"),
    ("misaligned-literal", "corpus/verify/verify-callops-misaligned.scn"),
    ("no-range-check", "corpus/scenarios/verify-callops-far.scn"),
    ("patch-zeroed-entry", "corpus/verify/verify-callops-weak.scn"),
    ("skip-literal-on-modify", "corpus/scenarios/verify-callops-modify.scn"),
    ("free-before-unpatch", "corpus/scenarios/verify-callops-disable.scn"),
    ("free-without-quiescence", "corpus/scenarios/verify-callops-disable.scn"),
    ("no-publish-barrier", "corpus/scenarios/verify-mcount-publish.scn"),
    ("publish-table-early", "corpus/scenarios/verify-mcount-table.scn"),
    ("jump-label-no-sync", "corpus/scenarios/verify-jump-label.scn"),
    ("patch-text-first-master", "corpus/scenarios/verify-patch-text.scn"),
    ("bpf-tramp-early-free", "corpus/scenarios/verify-bpf-tramp.scn"),
    ("direct-batch-unlocked", "corpus/scenarios/verify-direct-batch.scn"),
]


def obs(out):
    m = re.search(r"^Observation \S+ (Never|Sometimes|Always)", out, re.M)
    return None if not m else ("Forbidden" if m.group(1) == "Never" else "Allowed")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--herd")
    ap.add_argument("--herd-libdir")
    ap.add_argument("--out")
    ap.add_argument("--check", metavar="DIR")
    ap.add_argument("--update", metavar="DIR")
    ap.add_argument("mutants", nargs="*")
    a = ap.parse_args()
    top = os.environ.get("FTV_TOP", ".")
    ftv = os.environ.get("FTV", os.path.join(top, "build/ftv"))
    out = a.out or os.path.join(top, "build/litmus-export")
    os.makedirs(os.path.join(out, "cx"), exist_ok=True)
    golden = a.check or a.update
    herd_v = {}
    if golden and os.path.exists(os.path.join(golden, "verdicts.txt")):
        for line in open(os.path.join(golden, "verdicts.txt")):
            w = line.split()
            if len(w) == 3 and not line.startswith("#"):
                herd_v[w[0]] = w[1:]
    bad = 0
    rows = []
    print("| mutant | exported test | herd7 Allowed? | ftv Allowed? | fixed twin: herd7 Forbidden? | ftv Forbidden? |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, world in MUTANTS:
        if a.mutants and name not in a.mutants:
            continue
        t = os.path.join(out, name + ".litmus")
        tf = os.path.join(out, name + "+fixed.litmus")
        for f in (t, tf):
            if os.path.exists(f):
                os.unlink(f)
        verb = ["scenario"] if "/mutant-" in world else \
            ["verify", "--out", os.path.join(out, "cx"), "--max-executions", "20000"]
        rc, text = run([ftv] + verb + ["--mutate", name, "--litmus", t,
                                       "--litmus-fixed", tf, os.path.join(top, world)])
        if not os.path.exists(t):
            m = re.search(r"note: --litmus: no test written: (.*)", text)
            why = m.group(1) if m else "ftv exit %d" % rc
            print("| `%s` | none: %s | | | | |" % (name, why))
            rows.append((name, None))
            continue
        v = {}
        for key, f in (("m", t), ("f", tf)):
            v["ftv" + key] = obs(run([ftv, "litmus", "--herd", f])[1])
            if a.herd:
                cmd = [a.herd] + (["-set-libdir", a.herd_libdir] if a.herd_libdir else []) + \
                    ["-variant", "ifetch", f]
                v["herd" + key] = obs(run(cmd)[1])
            else:
                v["herd" + key] = herd_v.get(name, [None, None])[0 if key == "m" else 1]
        tname = open(t).readline().split()[1]
        yes = lambda got, want: "yes" if got == want else ("%s" % got)
        print("| `%s` | `%s` | %s | %s | %s | %s |" % (
            name, tname, yes(v["herdm"], "Allowed"), yes(v["ftvm"], "Allowed"),
            yes(v["herdf"], "Forbidden"), yes(v["ftvf"], "Forbidden")))
        rows.append((name, v))
        if (v["ftvm"], v["ftvf"]) != ("Allowed", "Forbidden") or \
                (v["herdm"], v["herdf"]) not in (("Allowed", "Forbidden"), (None, None)):
            bad += 1
        if a.check:
            for f in (t, tf):
                g = os.path.join(a.check, os.path.basename(f))
                if not os.path.exists(g) or open(g).read() != open(f).read():
                    print("differs from the golden file: %s" % g)
                    bad += 1
        if a.update:
            for f in (t, tf):
                with open(os.path.join(a.update, os.path.basename(f)), "w") as o:
                    o.write(open(f).read())
    if a.update and a.herd:
        with open(os.path.join(a.update, "verdicts.txt"), "w") as o:
            o.write("# herd7 -variant ifetch on each mutant's test and its fixed twin "
                    "(tools/litmus_mutants.py --update)\n")
            for name, v in rows:
                if v:
                    o.write("%s %s %s\n" % (name, v["herdm"], v["herdf"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
