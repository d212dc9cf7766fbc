#!/usr/bin/python3
"""make bench: ftv verify's throughput and its reduction on the 2-CPU
CALL_OPS world (corpus/scenarios/verify-callops-make-call.scn).

Executions per second are of one process (one core). The unreduced walk of
that world does not finish in any reasonable time, so it runs to a budget:
the pruning ratio is then a lower bound, 1 - reduced / (unreduced explored
so far), and says so."""
import argparse
import json
import subprocess
import sys


def verify(ftv, build, scn, *extra):
    cmd = [ftv, "verify", "--json", "--build", build, *extra, scn]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, check=False).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ftv", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--budget", type=int, default=20000)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    red = verify(a.ftv, a.build, a.scenario)
    naive = verify(a.ftv, a.build, a.scenario, "--unreduced", "--max-executions",
                   str(a.budget))
    lines = []
    for name, r in (("reduced", red), ("unreduced", naive)):
        runs = r["executions"] + r["blocked"]
        lines.append("%-9s %s: %d executions (%s), %d runs, %.1f s, %.0f executions/s, "
                     "%.0f runs/s" % (name, r["verdict"], r["executions"],
                                      "complete" if r["complete"] else r["bound"], runs,
                                      r["seconds"], r["executions"] / max(r["seconds"], 1e-9),
                                      runs / max(r["seconds"], 1e-9)))
    if naive["complete"]:
        ratio = 1 - red["executions"] / naive["executions"]
        lines.append("pruned: %.2f%% of %d interleavings" % (100 * ratio, naive["executions"]))
    else:
        ratio = 1 - red["executions"] / naive["executions"]
        lines.append("pruned: more than %.2f%% (the unreduced walk had not finished after "
                     "%d executions; the reduced one needs %d in all)"
                     % (100 * ratio, naive["executions"], red["executions"]))
    text = "ftv verify, %s\n%s\n" % (a.scenario, "\n".join(lines))
    sys.stdout.write(text)
    with open(a.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
