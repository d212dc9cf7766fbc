#!/usr/bin/python3
"""make catalogue: docs/catalogue.md, one row per historical bug ftv
reproduces, with its measured columns regenerated.

Each row of BUGS names the kernel commit or thread, what went wrong, the ftv
mutant or scheme that re-creates it, the violation kind it must report, the
fuzz campaign that finds it (run here as `ftv fuzz ARGS --seed 1 --time 60
--json`: the seconds until the finding, the shrink included, or "not in
60 s"), the proof world whose walk finds it (`ftv verify --json --mutate
NAME WORLD`: the visible steps of the shortest counterexample) and the
fix's proof world (`expect verified`, run through `ftv verify`: verified
and complete, or what it said instead).

    tools/catalogue.py --ftv build/ftv [--top .] [--out docs/catalogue.md]
                       [--time 60] [--only NAME...]

Exit 1 if a row's bug is not found by a campaign or walk that must find it,
or a fix's world is not verified; 0 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys

# name, kernel commit or thread, what went wrong, the ftv mutant or scheme
# (as the reader types it), kind, fuzz arguments (None: no campaign finds
# it in a minute from seed 1, said so), verify: (mutant, world) or None
# (mutant None: a scheme's world, the race its own code has), the fix's
# proof world or None.
BUGS = [
    ("jump-label-no-sync",
     "f6cc0c501649 \"arm64: Avoid calling stop_machine() when patching jump labels\"; "
     "fixed by cfb00a357864 \"arm64: jump_label: Ensure patched jump_labels are visible "
     "to all CPUs\" (2021)",
     "static_key_enable() patched each jump label with aarch64_insn_patch_text_nosync() "
     "and returned: a CPU that had not context-synchronised since could still execute "
     "the old NOP or B (Arm ARM B2.2.5 needs an ISB or an exception on every other PE)",
     "`--mutate jump-label-no-sync` (scenario `mutant-jump-label-no-sync`)",
     "not-visible",
     ["--mutate", "jump-label-no-sync", "--objects", "jumplabel"],
     ("jump-label-no-sync", "corpus/scenarios/verify-jump-label.scn"),
     "corpus/scenarios/verify-jump-label.scn"),
    ("patch-text-first-master",
     "ae16480785de \"arm64: introduce interfaces to hotpatch kernel and module code\" "
     "(2013); fixed by 31a099dbd91e \"arm64: patch_text: Fixup last cpu should be "
     "master\" (Guo Ren, 2022; the same fix for riscv, csky and xtensa)",
     "aarch64_insn_patch_text_cb(): the first CPU to enter the stop_machine() callback "
     "patched while the others were not yet waiting in it, so a CPU could still execute "
     "an instruction being rewritten (any instruction, not only a CMODX-safe one)",
     "`--mutate patch-text-first-master` (`mutant-patch-text-first-master`)",
     "cmodx",
     ["--mutate", "patch-text-first-master", "--objects", "jumplabel"],
     ("patch-text-first-master", "corpus/scenarios/verify-patch-text.scn"),
     "corpus/scenarios/verify-patch-text.scn"),
    ("patch-text-no-fence-i",
     "edf2d546bfd6 \"riscv: patch: Flush the icache right after patching to avoid "
     "illegal insns\" (Alexandre Ghiti, v6.10-rc6, 2024)",
     "the fix made patch_text_cb()'s master flush only its own icache and gave every "
     "waiting hart a local_flush_icache_all(); without it a hart resumes from "
     "stop_machine() with the instructions it fetched before (FENCE.I orders only the "
     "executing hart's fetches)",
     "`--arch riscv64 --mutate patch-text-no-fence-i` (`riscv-mutant-patch-text-no-fence-i`)",
     "not-visible",
     ["--arch", "riscv64", "--scheme", "atomic", "--mutate", "patch-text-no-fence-i",
      "--objects", "jumplabel"],
     ("patch-text-no-fence-i", "corpus/scenarios/verify-riscv-patch-text.scn"),
     "corpus/scenarios/verify-riscv-patch-text.scn"),
    ("patch-zeroed-entry",
     "linux-next-20250224, \"kernel BUG at arch/arm64/kernel/patching.c:39\" (Nathan "
     "Chancellor, Mark Brown); fixed by \"ftrace: Check against is_kernel_text() instead "
     "of kaslr_offset()\" (25 Feb 2025)",
     "scripts/sorttable zeroes the table entries of overridden weak functions; the "
     "boot relocation turned them into a value ftrace_process_locs took for a call "
     "site, and ftrace_init_nop wrote outside text",
     "`--mutate patch-zeroed-entry` (`mutant-patch-zeroed-entry`)",
     "write-outside-text",
     ["--mutate", "patch-zeroed-entry"],
     ("patch-zeroed-entry", "corpus/verify/verify-callops-weak.scn"),
     "corpus/verify/verify-callops-weak.scn"),
    ("unlocked-init-literal",
     "\"[REGRESSION] Random oops on SG2042 with Linux 6.16-rc and dynamic ftrace\" (Yao "
     "Zi, 1 Jul 2025); fixed by \"riscv: ftrace: Properly acquire text_mutex to fix a "
     "race condition\" (Alexandre Ghiti)",
     "RISC-V ftrace_init_nop wrote the ops literal through the shared patch window "
     "before taking text_mutex, while a jump label's patcher had it mapped",
     "`--arch riscv64 --mutate unlocked-init-literal` (`riscv-mutant-unlocked-init-literal`)",
     "patch-window",
     ["--arch", "riscv64", "--mutate", "unlocked-init-literal"],
     ("unlocked-init-literal", "corpus/scenarios/verify-riscv-window.scn"),
     "corpus/scenarios/verify-riscv-window.scn"),
    ("bpf-tramp-early-free",
     "bpf_trampoline_update() since fexit programs came (5.5, 2019); fixed by "
     "e21d2b92354b \"bpf: Fix fexit trampoline\" (Alexei Starovoitov, v5.12, 2021)",
     "the image a BPF trampoline update replaced was freed (or reused) after "
     "synchronize_rcu_tasks() alone; a task that the fexit image had sent into the "
     "original function slept there (a voluntary context switch: quiescent for RCU "
     "Tasks) with its return address in the image, and returned into freed memory. "
     "The fix: a percpu_ref in the image (__bpf_tramp_enter/exit), ip_after_call "
     "patched to skip the fexit programs, and RCU Tasks before and after the ref's "
     "wait. (The code before the fix was x86's: arm64 has had BPF trampolines since "
     "6.0; ftv re-creates the lifetime on arm64's image shape.)",
     "`--mutate bpf-tramp-early-free` (`mutant-bpf-tramp-early-free`; twin "
     "`bpf-tramp-fexit`)",
     "use-after-free",
     ["--mutate", "bpf-tramp-early-free", "--objects", "bpf"],
     ("bpf-tramp-early-free", "corpus/scenarios/verify-bpf-tramp.scn"),
     "corpus/scenarios/verify-bpf-tramp.scn"),
    ("direct-batch-unlocked",
     "05dc5e9c1fe1 \"ftrace: Add update_ftrace_direct_add function\" and 8d2c1233f371 "
     "\"ftrace: Add update_ftrace_direct_del function\" (Jiri Olsa, for Linux 7.0); "
     "fixed by 3ebc98c1ae7e \"ftrace: Add missing ftrace_lock to "
     "update_ftrace_direct_add/del\" (2026)",
     "update_ftrace_direct_add/del ran ftrace_update_ops() on the shared direct ops "
     "under direct_mutex only: another updater under ftrace_lock rewrote the same "
     "records at the same time, each computing a site's current call from state the "
     "other was changing (the kernel's splats came from ftrace_get_addr_curr); ftv "
     "sees one updater's validate-before-write find the other's word",
     "`--mutate direct-batch-unlocked` (`mutant-direct-batch-unlocked`)",
     "ftrace_bug",
     ["--mutate", "direct-batch-unlocked"],
     ("direct-batch-unlocked", "corpus/scenarios/verify-direct-batch.scn"),
     "corpus/scenarios/verify-direct-batch.scn"),
    ("mcount-ops",
     "Mark Rutland's ftrace stress test (lib/fstress.c), linux-arm-kernel, March 2024; "
     "no fix in the core (arm64 avoids it with CALL_OPS)",
     "an ops-passing ftrace_caller loads function_trace_op, then calls through the "
     "patched ftrace_call: a task preempted between the two calls a later func with "
     "an earlier ops",
     "`--scheme mcount-ops` (`mcount-ops-func-ops`; candidate fix `mcount-ops-tasks`)",
     "wrong-func",
     ["--scheme", "mcount-ops"],
     (None, "corpus/verify/verify-mcount-ops-func-ops.scn"),
     "corpus/scenarios/verify-mcount-ops-tasks-func-ops.scn"),
    ("tramp-func-ops",
     "the same race on x86's per-ops trampolines' shared ftrace_caller (first found by "
     "ftv fuzz --scheme tramp --seed 13; seed 1 since PCT iterations hold CPUs, "
     "`tramp-func-ops-held`)",
     "a CPU keeps the function_trace_op it loaded across two updates' IPIs and calls "
     "ftrace_graph_func with t1",
     "`--scheme tramp` (`tramp-func-ops`; candidate fix `--scheme tramp-tasks`)",
     "wrong-func",
     ["--scheme", "tramp"],
     (None, "corpus/verify/verify-tramp-func-ops.scn"),
     "corpus/scenarios/verify-tramp-tasks-func-ops.scn"),
]


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    objs = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            try:
                objs.append(json.loads(line))
            except ValueError:
                pass
    return p.returncode, objs, p.stderr.strip()


def fuzz_col(ftv, args, secs, out, kind=None):
    if args is None:
        return "—", False
    rc, objs, err = run([ftv, "fuzz"] + args + ["--seed", "1", "--time", str(secs),
                                                "--json", "--out", out])
    summ = [o for o in objs if o.get("type") == "summary"]
    find = [o for o in objs if o.get("type") == "finding"]
    if not summ:
        return "error (exit %d): %s" % (rc, err[-80:]), True
    s = summ[-1]
    if find:
        # the row's kind among the finding's, when the shrink kept another
        also = ""
        if kind and kind != find[0]["kind"] and kind in find[0].get("kinds", "").split():
            also = " with %s" % kind
        return "%.1f s (iteration %d, %s%s)" % (s["elapsed_s"], find[0]["iteration"],
                                               find[0]["kind"], also), False
    return "not in %d s (%d iterations)" % (secs, s["iterations"]), False


def verify_col(ftv, top, v, out):
    if v is None:
        return "—", False
    mutant, world = v
    rc, objs, err = run([ftv, "verify", "--json", "--out", out] +
                        (["--mutate", mutant] if mutant else []) +
                        [os.path.join(top, world)])
    if not objs:
        return "error (exit %d): %s" % (rc, err[-80:]), True
    r = objs[-1]
    if r.get("verdict") == "violation":
        boot = " at boot, before the walk" if not r.get("executions") else ""
        return "%d (%s%s)" % (r["counterexample_steps"],
                              os.path.splitext(os.path.basename(world))[0], boot), False
    return "not found: %s" % r.get("verdict"), True


def fix_col(ftv, top, world, out):
    if world is None:
        return "—", False
    rc, objs, err = run([ftv, "verify", "--json", "--out", out, os.path.join(top, world)])
    name = os.path.splitext(os.path.basename(world))[0]
    if not objs:
        return "%s: error (exit %d)" % (name, rc), True
    r = objs[-1]
    if r.get("verdict") == "verified" and r.get("complete"):
        return "`%s`: verified, %s executions" % (name, format(r["executions"], ",")), False
    return "`%s`: %s" % (name, r.get("verdict")), True


HEAD = """# Historical bugs ftv reproduces

One row per bug from Linux's history that ftv re-creates: the kernel commit
or thread, what went wrong, the mutant or scheme (the code before the fix),
the violation kind ftv reports, and the measured columns, regenerated by
`make catalogue` (`tools/catalogue.py`; the rows are its `BUGS` table):

- **fuzz (seed 1)**: `ftv fuzz ARGS --seed 1 --time 60`, the seconds until
  the finding (the shrink included; wall clock, so it depends on the
  machine's load), or "not in 60 s";
- **verify steps**: `ftv verify --mutate NAME WORLD`, the visible steps of
  the shortest counterexample (the walk is complete, so no shorter one
  exists in that world);
- **the fix's proof world**: the same world with the fix, `ftv verify`:
  verified and complete, with the executions explored.

Each row also has a conformance scenario that must report it and a
corrected twin that must not (`corpus/scenarios/`, run by `ftv conform`).
The model behind the first three rows (jump labels, stop_machine() text
patching, the `not-visible` contract) is described in
[text-patching.md](text-patching.md), the BPF trampolines' in
[bpf-trampoline.md](bpf-trampoline.md), the direct-call batches' in
[direct-batch.md](direct-batch.md). The README's other mutants
(`bl-before-literal`, `no-range-check`, `no-publish-barrier`,
`publish-table-early`, ...) are orderings the kernel keeps rather than
bugs it shipped, and are not listed here.

| bug | kernel commit or thread | what went wrong | ftv mutant or scheme | kind | fuzz (seed 1) | verify steps | the fix's proof world |
| --- | --- | --- | --- | --- | --- | --- | --- |
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ftv", required=True)
    ap.add_argument("--top", default=".")
    ap.add_argument("--out", default=None)
    ap.add_argument("--time", type=int, default=60)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    work = os.path.join(a.top, "build", "catalogue")
    os.makedirs(work, exist_ok=True)
    rows, bad = [], False
    for name, commit, what, how, kind, fargs, ver, fix in BUGS:
        if a.only and name not in a.only:
            continue
        f, b1 = fuzz_col(a.ftv, fargs, a.time, os.path.join(work, name + ".scn"), kind)
        v, b2 = verify_col(a.ftv, a.top, ver, work)
        x, b3 = fix_col(a.ftv, a.top, fix, work)
        bad = bad or b1 or b2 or b3
        rows.append("| %s | %s | %s | %s | `%s` | %s | %s | %s |" %
                    (name, commit, what, how, kind, f, v, x))
        sys.stderr.write("catalogue: %s: %s; %s; %s\n" % (name, f, v, x))
    text = HEAD + "\n".join(rows) + "\n"
    if a.out:
        with open(a.out, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
