#!/usr/bin/python3
"""Compare ftv's litmus verdicts with herd7's on a catalogue of tests.

    tools/herd_compare.py --herd PATH/herd7 [--herd-libdir DIR] \\
        [--ftv build/ftv] DIR_OR_FILE...

For every .litmus file (each directory argument: its files, one table row
per directory) it runs `herd7 -variant ifetch FILE` and `ftv litmus --herd
FILE`, reads both outputs (herd's shape) and compares the Observation: the
proposition is never satisfied (Forbidden) or it is (Allowed). It prints one
row per directory (tests, agree, of them the Forbidden verdicts an
exploration cut by its budget leaves unproven, and the disagreements by
direction: herd Allowed / ftv Forbidden is the dangerous one, ftv would
miss real behaviour), then every disagreement, every agreement from an
exploration a budget cut (an Allowed one rests on a witness, a Forbidden
one is unproven), every agreement whose sets of final states differ, and
every test ftv could not run. Whether the sets of final states are equal
is counted apart.

--kinds-out FILE writes herd's verdicts as a kinds file (`NAME Allowed|
Forbidden`), the format `ftv litmus --kinds` reads.

The second comparison set, tests beyond the catalogue: --variants DIR
writes tools/herd_variants.py's variants of ftv's own herd-syntax tests
into DIR and compares them as one more row. --verdicts FILE takes herd's
verdicts from a kinds file instead of running herd7 (herd7 is not needed:
tests/data/herd-variants.txt keeps them for the variants; final states are
then not compared). A test ftv reads but does not model is counted
`unsupported` (its line `NAME unsupported: ...`), never agreement.

--arch FILE (default tests/data/herd-arch.txt): lines `NAME Allowed|
Forbidden # why, with the Arm ARM or herd .cat reference`, the
architecture's verdict where herd's model and the architecture part (a
construct herd's cat does not model, a reading of the Arm ARM). A
disagreement with herd where ftv gives the architecture's verdict is
counted apart ("for the architecture"), and the agreement is given both
ways.

--unreduced runs ftv with `--reduce on` (every test reduced, not only
those of three threads or more) and also with `--reduce off` (the walk
without its pruning of states met before, exec_state.h) and, where that
exploration completes too, checks that the verdict and the final states
are the same as the reduced walk's; the summary counts the tests compared
and any difference (listed).

Which herd decided is printed first: `herd7 -version` (with --herd; the
figures in docs/herd-results.md are herdtools7 7.58, commit 1ca343e1),
or the verdicts file's first comment line (with --verdicts).

ftv runs with --time-limit 0 (--ftv-time to change it): only --max-runs
(default 1,000,000) and --max-mem bound a test, so the verdicts and the
explorations cut do not depend on the machine's load; --timeout still
bounds each process (seconds of wall clock).

Nothing of herdtools7 is kept: herd7 is run, its output read and dropped.
Exit status: 0 when every test ran under both, 1 otherwise.
"""
import argparse
import os
import re
import subprocess
import sys


def parse_herd_output(text):
    """{name: {"obs": "Never"|"Sometimes"|"Always", "states": set, "loop": bool}}"""
    res = {}
    cur = None
    states_left = 0
    for line in text.splitlines():
        if states_left:
            cur["states"].add(" ".join(line.split()))
            states_left -= 1
            continue
        m = re.match(r"Test (\S+) (Allowed|Required)$", line)
        if m:
            cur = {"obs": None, "states": set(), "loop": False}
            res[m.group(1)] = cur
            continue
        if cur is None:
            continue
        m = re.match(r"States (\d+)$", line)
        if m:
            states_left = int(m.group(1))
            continue
        if line.startswith("Loop "):
            cur["loop"] = True
        m = re.match(r"Observation (\S+) (Never|Sometimes|Always) (\d+) (\d+)", line)
        if m:
            cur["obs"] = m.group(2)
    return res


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout after %d s" % timeout


def test_name(path):
    with open(path, errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) >= 2 and not line.startswith("(*"):
                return w[1]
    return os.path.basename(path)


def read_kinds(path):
    """{name: "Never"|"Sometimes"} from a kinds file (herd's verdicts)."""
    res = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 2 and not w[0].startswith("#"):
                res[w[0]] = "Never" if w[1] == "Forbidden" else "Sometimes"
    return res


def read_arch(path):
    """{name: (verdict, why)} from `NAME Allowed|Forbidden # why` lines."""
    res = {}
    if not os.path.exists(path):
        return res
    with open(path) as f:
        for line in f:
            body, _, why = line.partition("#")
            w = body.split()
            if len(w) == 2 and w[1] in ("Allowed", "Forbidden"):
                res[w[0]] = (w[1], why.strip())
    return res


def verdict(obs):
    return None if obs is None else ("Forbidden" if obs == "Never" else "Allowed")


def compare_unreduced(args, path, name, f, red, details):
    """ftv litmus --reduce off on path against the reduced result f."""
    rc, out, err = run([args.ftv, "litmus", "--herd"] + args.ftv_arg + ["--reduce", "off", path],
                       args.timeout)
    u = parse_herd_output(out).get(name)
    if not u or u["obs"] is None or u["loop"]:
        red["unreduced_incomplete"] += 1
        return
    if f["loop"]:
        details.append("%s: the unreduced walk completes, the reduced one does not" % name)
        return
    red["compared"] += 1
    if u["obs"] == f["obs"] and u["states"] == f["states"]:
        red["equal"] += 1
    else:
        details.append("%s: REDUCED %s %s, UNREDUCED %s %s" % (
            name, f["obs"], sorted(f["states"]), u["obs"], sorted(u["states"])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--herd", help="the herd7 binary")
    ap.add_argument("--verdicts", help="herd's verdicts as a kinds file, instead of --herd")
    ap.add_argument("--variants", metavar="DIR",
                    help="generate the variants (tools/herd_variants.py) into DIR and "
                         "compare them too")
    ap.add_argument("--herd-libdir", help="herd7's -set-libdir (a build tree)")
    ap.add_argument("--ftv", default="build/ftv")
    ap.add_argument("--ftv-arg", action="append", default=[],
                    help="one more argument for ftv litmus (repeatable)")
    ap.add_argument("--timeout", type=int, default=1200, help="seconds per test and tool")
    ap.add_argument("--ftv-time", default="0",
                    help="ftv litmus --time-limit (CPU seconds; default 0: none, the "
                         "run budget alone decides)")
    ap.add_argument("--kinds-out", help="write herd's verdicts as a kinds file")
    ap.add_argument("--arch", help="the architecture's verdicts where herd's differ "
                    "(default: tests/data/herd-arch.txt)")
    ap.add_argument("--unreduced", action="store_true",
                    help="also run ftv litmus --reduce off and compare its states")
    ap.add_argument("paths", nargs="*")
    ap.set_defaults(paths=[])
    args = ap.parse_args()
    if not args.herd and not args.verdicts:
        ap.error("give --herd or --verdicts")
    known = read_kinds(args.verdicts) if args.verdicts else None
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    arch = read_arch(args.arch or os.path.join(top, "tests/data/herd-arch.txt"))

    groups = []
    if args.variants:
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run([sys.executable, os.path.join(here, "herd_variants.py"), "--out",
                        args.variants, "--top", os.path.dirname(here)], check=True)
        args.paths = args.paths + [args.variants]
    for p in args.paths:
        if os.path.isdir(p):
            files = sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".litmus"))
            groups.append((os.path.basename(os.path.normpath(p)), files))
        else:
            groups.append((os.path.basename(p), [p]))

    herd_cmd = [args.herd]
    if args.herd_libdir:
        herd_cmd += ["-set-libdir", args.herd_libdir]
    herd_cmd += ["-variant", "ifetch"]

    args.ftv_arg = ["--time-limit", args.ftv_time] + args.ftv_arg
    if args.unreduced:
        args.ftv_arg = ["--reduce", "on"] + args.ftv_arg
    if known is not None:
        with open(args.verdicts) as f:
            first = f.readline().strip()
        print("herd's verdicts: %s: %s" % (args.verdicts, first.lstrip("# ")))
    else:
        p = subprocess.run([args.herd, "-version"], capture_output=True, text=True)
        print("herd7: %s -version: %s" % (args.herd, (p.stdout or p.stderr).strip()))
    print("ftv: %s litmus --herd %s\n" % (args.ftv, " ".join(args.ftv_arg)))
    rows, details, kinds = [], [], []
    red = {"compared": 0, "equal": 0, "unreduced_incomplete": 0}
    all_ok = True
    for gname, files in groups:
        row = {"tests": 0, "agree": 0, "unproven": 0, "h_allow_f_forbid": 0,
               "h_forbid_f_allow": 0, "ftv_error": 0, "herd_error": 0, "incomplete": 0,
               "states_equal": 0, "unsupported": 0, "arch": 0}
        for path in files:
            name = test_name(path)
            row["tests"] += 1
            if known is not None:
                h = {"obs": known.get(name), "states": None, "loop": False}
                out = err = "no verdict in %s" % args.verdicts
            else:
                rc, out, err = run(herd_cmd + [path], args.timeout)
                h = parse_herd_output(out).get(name)
            if not h or h["obs"] is None:
                row["herd_error"] += 1
                all_ok = False
                details.append("%s: herd7 failed: %s" % (path, (err or out).strip()[:200]))
                continue
            hv = verdict(h["obs"])
            kinds.append("%s %s" % (name, hv))
            rc, out, err = run([args.ftv, "litmus", "--herd"] + args.ftv_arg + [path],
                               args.timeout)
            f = parse_herd_output(out).get(name)
            m = re.search(r"^%s\s+unsupported: (.*)$" % re.escape(name), out, re.M)
            if m:
                row["unsupported"] += 1
                details.append("%s: ftv unsupported: %s" % (name, m.group(1)[:200]))
                continue
            if not f or f["obs"] is None:
                row["ftv_error"] += 1
                all_ok = False
                details.append("%s: ftv: %s" % (path, (err or out).strip()[:300]))
                continue
            fv = verdict(f["obs"])
            if args.unreduced:
                compare_unreduced(args, path, name, f, red, details)
            if f["loop"]:
                row["incomplete"] += 1
            if h["states"] is None:
                h["states"] = f["states"]  # not known: not compared
            elif f["states"] == h["states"]:
                row["states_equal"] += 1
            if fv == hv:
                row["agree"] += 1
                # Forbidden from an exploration a budget cut: not proven
                if fv == "Forbidden" and f["loop"]:
                    row["unproven"] += 1
                    details.append("%s: agrees, Forbidden unproven (exploration cut by "
                                   "its budget)" % name)
                elif f["loop"]:
                    details.append("%s: agrees, Allowed by a witness (exploration cut by "
                                   "its budget)" % name)
                if f["states"] != h["states"]:
                    details.append("%s: agrees; final states only herd has %s, only ftv "
                                   "has %s" % (name, sorted(h["states"] - f["states"]),
                                               sorted(f["states"] - h["states"])))
                continue
            if arch.get(name, (None,))[0] == fv:
                row["arch"] += 1
                details.append("%s: herd %s, ftv %s, the architecture's verdict: %s" % (
                    name, hv, fv, arch[name][1]))
                continue
            if hv == "Allowed":
                row["h_allow_f_forbid"] += 1
                kind = "herd Allowed, ftv Forbidden"
            else:
                row["h_forbid_f_allow"] += 1
                kind = "herd Forbidden, ftv Allowed"
            details.append("%s: %s%s; states herd %s, ftv %s" % (
                name, kind, " (ftv incomplete)" if f["loop"] else "",
                sorted(h["states"]), sorted(f["states"])))
        rows.append((gname, row))

    hdr = ("| folder | tests | agree | of them unproven | for the architecture | "
           "herd Allowed, ftv Forbidden | herd Forbidden, ftv Allowed | ftv unsupported | "
           "ftv error | ftv incomplete | same states |")
    print(hdr)
    print("|" + " --- |" * 11)
    tot = {}
    for gname, r in rows:
        for k, v in r.items():
            tot[k] = tot.get(k, 0) + v
        print("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
            gname, r["tests"], r["agree"], r["unproven"], r["arch"], r["h_allow_f_forbid"],
            r["h_forbid_f_allow"], r["unsupported"], r["ftv_error"], r["incomplete"],
            r["states_equal"]))
    if len(rows) > 1:
        print("| all | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
            tot["tests"], tot["agree"], tot["unproven"], tot["arch"], tot["h_allow_f_forbid"],
            tot["h_forbid_f_allow"], tot["unsupported"], tot["ftv_error"],
            tot["incomplete"], tot["states_equal"]))
    if tot.get("tests"):
        print("\nagreement with herd: %d of %d (%.1f%%)" % (
            tot["agree"], tot["tests"], 100.0 * tot["agree"] / tot["tests"]))
        print("with the architecture's verdict where herd's model departs from it: "
              "%d of %d (%.1f%%)" % (tot["agree"] + tot["arch"], tot["tests"],
                                      100.0 * (tot["agree"] + tot["arch"]) / tot["tests"]))
    if args.unreduced:
        print("reduced against unreduced (--reduce off): %d compared (both complete), "
              "%d with the same verdict and states; %d unreduced explorations cut by "
              "their budget" % (red["compared"], red["equal"], red["unreduced_incomplete"]))
    for d in details:
        print(d)
    if args.kinds_out:
        with open(args.kinds_out, "w") as f:
            f.write("# herd7 -variant ifetch verdicts (tools/herd_compare.py --kinds-out)\n")
            for k in kinds:
                f.write(k + "\n")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
