#!/usr/bin/python3
"""Where one `ftv verify` execution's time goes (issue 31): restore, run,
check, reduction bookkeeping. perf (Debian's linux-perf) samples the
process at FREQ Hz with DWARF call stacks; each sample is put in the
bucket of the nearest function on its stack (leaf first) that marks one:

  restore      exec_reset (the pages, registers, model, log, plans and
               store buffers put back) and the world's on_reset, and the
               prefix restore's saves and restores (xpr_start, xsv_*:
               a run started from its branch point's saved state)
  bookkeeping  the DPOR walk's own functions (xd_*: picks, footprints,
               clocks, races, backtrack sets) and mark_new_points
  check        the world's checks (every function of verify/check.o,
               world_check.o, violation.o, explain*.o) and on_done
  run          exec_run, exec_run_at (a restored run): Unicorn emulating, the hooks, the fetch model,
               the patcher's and store buffer's steps
  translate    Unicorn translating blocks (tb_gen_code, inside run or a
               reset): what a changed instruction word costs
  walk         exec_verify's other work (the loop, the engine recycles)
  setup        everything else: loading, building the world, exit

Shares are of the samples inside exec_verify (the walk); setup's share is
of all samples. Prints one line per bucket; with --targets FILE appends a
bench_block line per bucket (no target: `<=` 100%, always met)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BUCKETS = ("restore", "run", "translate", "check", "bookkeeping", "walk")
FIXED = {"tb_gen_code_aarch64": "translate", "tb_gen_code_riscv64": "translate",
         "exec_reset": "restore", "on_reset": "restore", "xe_reset": "restore",
         "mark_new_points": "bookkeeping", "on_done": "check",
         "exec_run": "run", "exec_run_at": "run", "exec_verify": "walk",
         "xpr_start": "restore", "xsv_save": "restore", "xsv_restore": "restore",
         "xsv_save_mem": "restore", "xsv_restore_mem": "restore"}
CHECK_OBJS = ("verify/check.o", "verify/world_check.o", "verify/violation.o",
              "verify/explain.o", "verify/explain_arm64.o", "verify/explain_riscv64.o")
FRAME = re.compile(r"^\s*[0-9a-f]+ (\S+)")


def defined(build, obj):
    path = os.path.join(build, "obj", obj)
    if not os.path.exists(path):
        return set()
    out = subprocess.run(["nm", "--defined-only", path], stdout=subprocess.PIPE,
                         text=True, check=False).stdout
    return {l.split()[2] for l in out.splitlines() if len(l.split()) == 3 and
            l.split()[1] in "Tt"}


def bucket_of(stack, marks):
    for fn in stack:
        if fn in marks:
            return marks[fn]
        if fn.startswith("xd_"):
            return "bookkeeping"
    return "setup"


def profile(ftv, build, scn, freq, extra):
    marks = dict(FIXED)
    for o in CHECK_OBJS:
        for fn in defined(build, o):
            marks.setdefault(fn, "check")
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        rec = subprocess.run(["perf", "record", "-q", "-F", str(freq), "--call-graph",
                              "dwarf,16384", "-o", data, "--", ftv, "verify", "--build",
                              build, *extra, scn], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, check=False)
        if not os.path.exists(data):
            raise RuntimeError("perf record failed: %s" % rec.stderr.strip())
        script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, check=False).stdout
    counts = dict.fromkeys(BUCKETS + ("setup",), 0)
    stack = []
    for line in script.splitlines() + [""]:
        m = FRAME.match(line)
        if m:
            stack.append(m.group(1))
        elif stack:
            counts[bucket_of(stack, marks)] += 1
            stack = []
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ftv", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--freq", type=int, default=10000)
    ap.add_argument("--targets", help="append bench_block lines here")
    ap.add_argument("extra", nargs="*", help="more ftv verify options")
    a = ap.parse_args()
    try:
        c = profile(a.ftv, a.build, a.scenario, a.freq, a.extra)
    except (OSError, RuntimeError) as e:
        print("verify profile: not measured (%s)" % e)
        return 0
    walk = sum(c[b] for b in BUCKETS)
    total = walk + c["setup"]
    if not walk:
        print("verify profile: no samples inside exec_verify")
        return 0
    world = os.path.basename(a.scenario).rsplit(".", 1)[0]
    print("verify profile, %s: %d samples at %d Hz, %d in the walk (exec_verify), "
          "%.0f%% setup" % (world, total, a.freq, walk, 100.0 * c["setup"] / total))
    print("  " + ", ".join("%s %.1f%%" % (b, 100.0 * c[b] / walk) for b in BUCKETS))
    if a.targets:
        with open(a.targets, "a") as f:
            for b in BUCKETS:
                f.write("verify split: %s\t%.6g\t%% of the walk\t<=\t100\t%s, perf, "
                        "%d samples\n" % (b, 100.0 * c[b] / walk, world, walk))
    return 0


if __name__ == "__main__":
    sys.exit(main())
