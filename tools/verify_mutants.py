#!/usr/bin/python3
"""make verify-mutants: every mutant's shortest counterexample from ftv verify.

Runs `ftv verify --json --mutate NAME --max-executions BUDGET WORLD` for each
row of MUTANTS and prints docs/verify.md's table (mutant, world, visible steps of
the shortest counterexample, executions explored before it was found, of
those explored in all). A mutant its world does not exercise prints
"not found" with the verdict. Exit 1 if a row that must find its mutant
does not (a regression), else 0.
"""
import json
import os
import subprocess
import sys

# mutant, world, budget of executions, must be found
MUTANTS = [
    ("bl-before-literal", "corpus/scenarios/verify-callops-make-call.scn", 20000, True),
    ("live-mov-patch", "corpus/scenarios/verify-callops-make-call.scn", 20000, True),
    ("misaligned-literal", "corpus/verify/verify-callops-misaligned.scn", 20000, True),
    ("no-range-check", "corpus/scenarios/verify-callops-far.scn", 20000, True),
    ("patch-zeroed-entry", "corpus/verify/verify-callops-weak.scn", 20000, True),
    ("skip-literal-on-modify", "corpus/scenarios/verify-callops-modify.scn", 20000, True),
    ("free-before-unpatch", "corpus/scenarios/verify-callops-disable.scn", 20000, True),
    ("free-without-quiescence", "corpus/scenarios/verify-callops-disable.scn", 20000, True),
    ("jalr-before-literal", "corpus/scenarios/verify-riscv-atomic.scn", 5000, True),
    ("atomic-rewrite-auipc", "corpus/verify/verify-riscv-direct.scn", 2000, True),
    ("unlocked-init-literal", "corpus/scenarios/verify-riscv-window.scn", 50000, True),
    ("no-publish-barrier", "corpus/scenarios/verify-mcount-publish.scn", 20000, True),
    ("publish-table-early", "corpus/scenarios/verify-mcount-table.scn", 20000, True),
    ("jump-label-no-sync", "corpus/scenarios/verify-jump-label.scn", 20000, True),
    ("patch-text-first-master", "corpus/scenarios/verify-patch-text.scn", 20000, True),
    ("patch-text-no-fence-i", "corpus/scenarios/verify-riscv-patch-text.scn", 20000, True),
    ("bpf-tramp-early-free", "corpus/scenarios/verify-bpf-tramp.scn", 20000, True),
    ("direct-batch-unlocked", "corpus/scenarios/verify-direct-batch.scn", 20000, True),
]


def main():
    top = os.environ.get("FTV_TOP", ".")
    ftv = os.environ.get("FTV", os.path.join(top, "build/ftv"))
    out = os.environ.get("FTV_VERIFY_OUT", os.path.join(top, "build/verify-mutants"))
    os.makedirs(out, exist_ok=True)
    only = sys.argv[1:]
    bad = 0
    print("| mutant | world | steps | found after | explored |")
    print("| --- | --- | --- | --- | --- |")
    for name, world, budget, must in MUTANTS:
        if only and name not in only:
            continue
        cmd = [ftv, "verify", "--json", "--out", out, "--mutate", name,
               "--max-executions", str(budget), os.path.join(top, world)]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        wname = os.path.splitext(os.path.basename(world))[0]
        try:
            r = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            print("| `%s` | %s | error (exit %d): %s | | |" %
                  (name, wname, p.returncode, p.stderr.strip()[:100]))
            bad += 1
            continue
        done = "complete" if r["complete"] else "budget"
        if r["verdict"] == "violation" and not r["executions"]:
            done = "at boot, before the walk"
        if r["verdict"] == "violation":
            print("| `%s` | %s | %d | %s | %s (%s) |" %
                  (name, wname, r["counterexample_steps"],
                   format(r["found_after"], ","), format(r["executions"], ","), done))
        else:
            print("| `%s` | %s | not found: %s | | %s (%s) |" %
                  (name, wname, r["verdict"], format(r["executions"], ","), done))
            bad += must
        sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
