#!/usr/bin/python3
"""The soak campaign (make soak): `ftv fuzz` on every scheme whose backend
is correct, one after another, each for the same time with every core, and
a table of what each did: iterations, transitions, interleaving steps and
findings. A finding is a false alarm until shown otherwise: its shrunk
replay file is kept and named, and the exit status is 1.

  soak.py --ftv build/ftv [--time 600] [--jobs N] [--seed 1] [--out DIR]
          [--scheme S ...] [--proofs FILE ... [--proof-max N]]

Each campaign runs with --json: a "finding" object per violation found
(fuzz stops at its first) and a "summary" object last.

--proofs: before the campaigns, `ftv verify` on each proof world given
(issue 31's 3-CPU, two-update worlds: corpus/verify/*-3cpus.scn), each to
its end or to N executions, with `ftv verify --stateful` (the trampoline
world completes only so; --proof-stateless: without), with a line of its
verdict, executions and CPU seconds; a violation counts as a finding (its counterexample's replay file
kept in DIR), an incomplete walk is said so and is not one.
"""
import argparse
import json
import resource
import os
import subprocess
import sys

# Every correct scheme with its architecture; `pair`, `mcount-ops` and
# `tramp` are not here: their violations (a hart between the two words of a
# call pair; a task preempted between function_trace_op and ftrace_call,
# which fuzz finds on tramp too since cpu-hold) are real kernel races, not
# false alarms. mcount-ops-tasks and tramp-tasks are the latter's fix.
SCHEMES = [("callops", "arm64"), ("tramp-tasks", "arm64"), ("mcount", "arm64"),
           ("mcount-ops-tasks", "arm64"), ("atomic", "riscv64"),
           ("jump-label", "arm64"), ("patch-text", "riscv64"), ("bpf-tramp", "arm64")]

# Campaigns that are not a scheme's defaults: the fuzz arguments of each.
# jump-label: static keys flipped (static_key_enable/disable, with
# arch_jump_label_transform_apply's kick_all_cpus_sync) and a word
# rewritten by aarch64_insn_patch_text() (stop_machine()) on the static-key
# unit while ftrace patches a random unit (corpus/src/jumplabel.c);
# patch-text: the same unit's word rewritten by riscv's patch_text() beside
# the atomic scheme; bpf-tramp: direct ops attached through BPF trampoline
# images (bpf_trampoline_update(), the fexit image's lifetime with its
# percpu_ref, corpus/src/bpf.c) beside ftrace ops on a random unit.
ARGS = {"jump-label": ["--scheme", "callops", "--objects", "rand1", "jumplabel"],
        "patch-text": ["--scheme", "atomic", "--objects", "rand1", "jumplabel"],
        "bpf-tramp": ["--scheme", "callops", "--objects", "rand1", "bpf"]}


def campaign(ftv, scheme, arch, seed, secs, jobs, out):
    replay = os.path.join(out, "soak-%s-%d.scn" % (scheme, seed))
    argv = [ftv, "fuzz", "--arch", arch] + ARGS.get(scheme, ["--scheme", scheme]) + [
        "--seed", str(seed), "--time", str(secs), "--jobs", str(jobs), "--json",
        "--out", replay]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace")
    summary, findings = None, []
    for line in p.stdout.splitlines():
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if obj.get("type") == "summary":
            summary = obj
        elif obj.get("type") == "finding":
            findings.append(obj)
    if summary is None or p.returncode not in (0, 1):
        sys.stderr.write("soak: %s: ftv fuzz exited %d without a summary: %s\n"
                         % (scheme, p.returncode, p.stderr.strip().splitlines()[-1:]))
        return None
    return summary, findings, replay


def proof(ftv, scn, max_exec, out, walk):
    """One proof world: (its --json object, CPU seconds), or None."""
    # (verify's own --time, 600 s of wall clock, would cut a world that
    # completes on a crowded machine: the budget is the executions)
    argv = [ftv, "verify", "--json", "--max-executions", str(max_exec), "--time", "7200",
            "--out", out] + walk + [scn]
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace")
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if not lines or p.returncode not in (0, 1, 3):
        sys.stderr.write("soak: %s: ftv verify exited %d: %s\n"
                         % (scn, p.returncode, p.stderr.strip().splitlines()[-1:]))
        return None
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    return json.loads(lines[-1]), cpu


def proofs(a):
    """The proof worlds; 0, 1 (a violation) or 2 (an error)."""
    bad = 0
    print("%-44s %-10s %10s %9s  %s" % ("proof world", "verdict", "executions",
                                        "CPU s", "walk"))
    for scn in a.proofs:
        r = proof(a.ftv, scn, a.proof_max, a.out,
                  [] if a.proof_stateless else ["--stateful"])
        if r is None:
            bad = 2
            continue
        v, cpu = r
        if v["verdict"] == "violation":
            bad = bad or 1
        print("%-44s %-10s %10d %9.1f  %s" % (
            os.path.basename(scn).rsplit(".", 1)[0], v["verdict"], v["executions"], cpu,
            "complete" if v["complete"] else "incomplete: " + v["bound"]), flush=True)
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ftv", required=True)
    ap.add_argument("--time", type=int, default=600, help="seconds per scheme")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=".", help="where replay files go")
    ap.add_argument("--scheme", action="append", help="only these schemes")
    ap.add_argument("--proofs", nargs="+", metavar="FILE", default=[],
                    help="proof worlds to verify first")
    ap.add_argument("--proof-max", type=int, default=1000000,
                    help="executions per proof world at most")
    ap.add_argument("--proof-stateless", action="store_true",
                    help="verify the proof worlds without --stateful")
    a = ap.parse_args()
    schemes = [s for s in SCHEMES if not a.scheme or s[0] in a.scheme]
    if a.scheme and len(schemes) != len(set(a.scheme)):
        sys.stderr.write("soak: unknown scheme in %s (known: %s)\n"
                         % (a.scheme, " ".join(s for s, _ in SCHEMES)))
        return 2
    jobs = max(1, min(a.jobs, 64))
    os.makedirs(a.out, exist_ok=True)
    pbad = proofs(a) if a.proofs else 0
    print("soak: seed %d, %d s per scheme, %d job%s" % (a.seed, a.time, jobs,
                                                      "" if jobs == 1 else "s"))
    print("%-8s %-8s %10s %12s %14s %9s %8s  %s" % (
        "scheme", "arch", "iterations", "transitions", "steps", "findings",
        "seconds", "finding"))
    bad = 0
    for scheme, arch in schemes:
        r = campaign(a.ftv, scheme, arch, a.seed, a.time, jobs, a.out)
        if r is None:
            bad = 2
            continue
        s, found, replay = r
        what = ""
        if found:
            f = found[0]
            what = "%s at iteration %d (seed %s): replay %s" % (
                f["kind"], f["iteration"], f["iteration_seed"], replay)
            bad = bad or 1
        print("%-8s %-8s %10d %12d %14d %9d %8.1f  %s" % (
            scheme, arch, s["iterations"], s["transitions"], s["steps"],
            s["violations"], s["elapsed_s"], what), flush=True)
    return max(bad, pbad)


if __name__ == "__main__":
    sys.exit(main())
