#!/usr/bin/python3
"""make bench: ftv verify's throughput and its reduction on the 2-CPU
CALL_OPS world (corpus/scenarios/verify-callops-make-call.scn).

Executions per second are per core: executions over the CPU seconds
(user + system) of the one process that made them, since the machine is
shared and wall-clock time would measure the neighbours too. The unreduced
walk of that world does not finish in any reasonable time, so it runs to a
budget: the pruning ratio is then a lower bound, 1 - reduced / (unreduced
explored so far), and says so.

With --worlds FILE...: every proof world given, reduced and unreduced (to
the budget), one line each: both verdicts, whether they agree where the
unreduced walk completed (or found a violation), and the pruning ratio
(exact when the unreduced walk completed, else a lower bound). Exit 1 if a
verdict differs.

With --proofs FILE...: each of issue 31's bigger proof worlds (3 CPUs, two
updates, corpus/verify/*-3cpus.scn) verified once to its end or --proof-max
executions, one line each (verdict, executions, sleep-set blocked runs,
branches pruned, CPU seconds, executions per CPU second) and, with $FTV_BENCH_TARGETS, a target line per world:
complete in under 60 CPU seconds (an incomplete walk is short, its figure
inf).

With --stateful: the reduced walks of --worlds and --proofs are ftv verify
--stateful's (stateful DPOR), and --proofs prints the runs cut at a known
state and the states kept; the targets are named "(stateful)".

With $FTV_BENCH_TARGETS set (make bench), the figures are appended there as
bench_block's lines (bench/targets.h's format): executions/s per core
(target 10,000, issue 31; whole process, and a second line for the walk
alone, setup excluded, from ftv verify --stats) and the pruning ratio (target: at least 97%, the
figure of issue 31's first measurement)."""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile

EXEC_TARGET = 10000.0
PRUNE_TARGET = 97.0
PROOF_TARGET = 60.0


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def verify(ftv, build, scn, *extra):
    with tempfile.TemporaryDirectory() as tmp:
        # (a counterexample's replay file goes there, not to the tree)
        cmd = [ftv, "verify", "--json", "--build", build, "--out", tmp, *extra, scn]
        c0 = cpu_children()
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, check=False).stdout
    r = json.loads(out.strip().splitlines()[-1])
    r["cpu"] = cpu_children() - c0
    return r


def target(name, figure, unit, cmp, goal, note):
    path = os.environ.get("FTV_BENCH_TARGETS")
    if not path:
        return
    with open(path, "a") as f:
        f.write("%s\t%.6g\t%s\t%s\t%.6g\t%s\n" % (name, figure, unit, cmp, goal, note))


def worlds(a):
    """Reduced against unreduced on every world; 1 if a verdict differs."""
    bad = 0
    print("ftv verify, reduced against unreduced (budget %d executions)" % a.budget)
    print("%-44s %-30s %-30s %-6s %s" % ("world", "reduced", "unreduced", "agree",
                                        "pruned"))
    for scn in a.worlds:
        red = verify(a.ftv, a.build, scn, *a.walk)
        naive = verify(a.ftv, a.build, scn, "--unreduced", "--max-executions",
                       str(a.budget))
        decided = naive["complete"] or naive["verdict"] == "violation"
        agree = red["verdict"] == naive["verdict"] if decided else None
        bad |= agree is False
        ratio = 100.0 * (1 - red["executions"] / max(naive["executions"], 1))
        print("%-44s %-30s %-30s %-6s %s%.2f%%" % (
            os.path.basename(scn).rsplit(".", 1)[0],
            "%s %d%s %.1fs" % (red["verdict"], red["executions"],
                               "" if red["complete"] else "+", red["cpu"]),
            "%s %d%s %.1fs" % (naive["verdict"], naive["executions"],
                               "" if naive["complete"] else "+", naive["cpu"]),
            "-" if agree is None else "yes" if agree else "NO",
            "" if naive["complete"] else ">", ratio))
        sys.stdout.flush()
    return 1 if bad else 0


def proofs(a):
    """Each proof world to its end or the budget: time and completeness."""
    print("ftv verify%s, issue 31's proof worlds (budget %d executions)"
          % (" --stateful" if a.stateful else "", a.proof_max))
    for scn in a.proofs:
        r = verify(a.ftv, a.build, scn, "--max-executions", str(a.proof_max),
                   "--time", str(a.proof_time), *a.walk)
        world = os.path.basename(scn).rsplit(".", 1)[0]
        print("%-40s %s%s, %d executions, %d sleep-set blocked, %d branches pruned,%s"
              " %.1f s CPU (%.0f executions/s)"
              % (world, r["verdict"],
                 "" if r["complete"] or r["verdict"] == "incomplete" else " (incomplete)",
                 r["executions"], r["blocked"], r["pruned"],
                 " %d cut at a known state, %d states," % (r["state_cuts"], r["states"])
                 if a.stateful else "", r["cpu"],
                 r["executions"] / max(r["cpu"], 1e-9)))
        sys.stdout.flush()
        target("verify %s%s" % (world, " (stateful)" if a.stateful else ""),
               r["cpu"] if r["complete"] else float("inf"),
               "s CPU", "<=", PROOF_TARGET,
               "%s, %d executions" % (r["verdict"], r["executions"]) if r["complete"]
               else "incomplete after %d executions, %.0f s CPU" % (r["executions"],
                                                                   r["cpu"]))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ftv", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--scenario")
    ap.add_argument("--worlds", nargs="+", metavar="FILE")
    ap.add_argument("--budget", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3,
                    help="reduced walks, the fastest per core kept")
    ap.add_argument("--quick", action="store_true",
                    help="one reduced walk, an unreduced budget of 2000")
    ap.add_argument("--out")
    ap.add_argument("--proofs", nargs="+", metavar="FILE")
    ap.add_argument("--proof-max", type=int, default=1000000)
    ap.add_argument("--proof-time", type=int, default=3600,
                    help="verify's --time for each proof world (wall seconds)")
    ap.add_argument("--stateful", action="store_true",
                    help="the reduced walks with ftv verify --stateful")
    a = ap.parse_args()
    a.walk = ["--stateful"] if a.stateful else []
    if a.worlds:
        return worlds(a)
    if a.proofs:
        return proofs(a)
    if not a.scenario or not a.out:
        ap.error("--scenario and --out, or --worlds")
    if a.quick:
        a.budget, a.repeat = 2000, 1
    reds = [verify(a.ftv, a.build, a.scenario) for _ in range(a.repeat)]
    red = min(reds, key=lambda r: r["cpu"])
    # the split (ftv verify --stats: a clock read per part per run, so a
    # walk of its own, not one of the timed ones)
    splits = [verify(a.ftv, a.build, a.scenario, "--stats") for _ in range(a.repeat)]
    sp = min(splits, key=lambda r: r["cpu_walk"])
    naive = verify(a.ftv, a.build, a.scenario, "--unreduced", "--max-executions",
                   str(a.budget))
    lines = []
    for name, r in (("reduced", red), ("unreduced", naive)):
        runs = r["executions"] + r["blocked"]
        cpu = max(r["cpu"], 1e-9)
        lines.append("%-9s %s: %d executions (%s), %d runs, %.2f s CPU (%.2f s wall), "
                     "%.0f executions/s per core, %.0f runs/s per core"
                     % (name, r["verdict"], r["executions"],
                        "complete" if r["complete"] else r["bound"], runs, r["cpu"],
                        r["seconds"], r["executions"] / cpu, runs / cpu))
    walk = max(sp["cpu_walk"], 1e-9)
    lines.append("split     (--stats, fastest walk of %d): setup %.3f s CPU (the process "
                 "less the walk: loading, the world, the snapshot), walk %.3f s: %.0f "
                 "executions/s per core of the walk alone (setup excluded; the target "
                 "line is the whole process's)" % (a.repeat, sp["cpu"] - sp["cpu_walk"],
                                                    sp["cpu_walk"], sp["executions"] / walk))
    lines.append("split     walk: restore %.1f%%, run %.1f%%, check %.1f%%, bookkeeping "
                 "%.1f%%, other %.1f%%; %d of %d steps (%.1f%%) repeat the prefix of the "
                 "run before" % tuple(
                     [100 * sp[k] / walk for k in ("cpu_restore", "cpu_run", "cpu_check",
                                                   "cpu_bookkeeping")] +
                     [100 * (walk - sum(sp[k] for k in ("cpu_restore", "cpu_run",
                                                        "cpu_check", "cpu_bookkeeping")))
                      / walk, sp["replayed_steps"], sp["run_steps"],
                      100 * sp["replayed_steps"] / max(sp["run_steps"], 1)]))
    ratio = 1 - red["executions"] / naive["executions"]
    if naive["complete"]:
        lines.append("pruned: %.2f%% of %d interleavings" % (100 * ratio, naive["executions"]))
    else:
        lines.append("pruned: more than %.2f%% (the unreduced walk had not finished after "
                     "%d executions; the reduced one needs %d in all)"
                     % (100 * ratio, naive["executions"], red["executions"]))
    text = "ftv verify, %s\n%s\n" % (a.scenario, "\n".join(lines))
    sys.stdout.write(text)
    with open(a.out, "w") as f:
        f.write(text)
    world = os.path.basename(a.scenario).rsplit(".", 1)[0]
    target("verify %s" % world, red["executions"] / max(red["cpu"], 1e-9),
           "executions/s/core", ">=", EXEC_TARGET,
           "%d executions, fastest of %d" % (red["executions"], a.repeat))
    target("verify %s walk only" % world, sp["executions"] / walk,
           "executions/s/core", ">=", EXEC_TARGET,
           "setup excluded (ftv verify --stats); the whole process's line above is the target")
    target("verify %s pruned" % world, 100 * ratio, "%", ">=", PRUNE_TARGET,
           "of %d interleavings" % naive["executions"] if naive["complete"]
           else "lower bound: unreduced cut at %d" % naive["executions"])


if __name__ == "__main__":
    sys.exit(main())
