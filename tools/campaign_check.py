#!/usr/bin/python3
"""Run the campaign recipes of docs/campaigns/ as their schedulers would,
on this machine, and check that each gives the campaign one process gives.

  - GNU parallel: docs/campaigns/parallel.sh as it is (parallel must be
    installed: the Debian package `parallel`);
  - Slurm: docs/campaigns/slurm-fuzz.sbatch once per array task with the
    variables Slurm sets in it (SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID,
    SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_STEP,
    SLURM_ARRAY_TASK_COUNT, SLURM_CPUS_PER_TASK), for --array=0-2 and for
    --array=1-5:2, then slurm-merge.sbatch;
  - Kubernetes: the Indexed Job of docs/campaigns/k8s-fuzz.yaml read with
    PyYAML, its container's command run once per index with the pod's
    environment (its env list, JOB_COMPLETION_INDEX), then the merge Job's.

Each recipe runs 3 shards of FTV_BUDGET='--iterations 2' with one seed; the
merged totals must be those of `ftv fuzz --seed S --iterations 6` in one
process (shard I of N runs iterations I, I+N, ...: the same six), the
JUnit file must parse with a test case per shard, and a second campaign
with a mutant must come out as a finding (merge exit 1). The ftv used is
the first on PATH.

Usage: campaign_check.py RECIPES_DIR SCRATCH_DIR
Prints "campaigns ok: ..." and exits 0, or says what differs and exits 1.
"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import yaml

SHARDS = 3
PER_SHARD = 2


def run(cmd, env, cwd, shell=False):
    p = subprocess.run(cmd, env=env, cwd=cwd, shell=shell, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


def summary(text):
    for line in text.splitlines():
        if line.startswith("{") and '"type":"summary"' in line:
            return json.loads(line)
    raise AssertionError("no summary in:\n" + text)


def check_merged(name, out_dir, want, merge_rc, merge_out, expect_finding):
    errs = []
    if merge_rc != (1 if expect_finding else 0):
        errs.append("%s: merge exit %d:\n%s" % (name, merge_rc, merge_out))
        return errs
    # the same campaign as one process: the merge again, as JSON
    rc, out = run(["ftv", "fuzz-merge", "--json"] +
                  sorted(os.path.join(out_dir, f) for f in os.listdir(out_dir)
                         if f.startswith("shard-") and f.endswith(".json")), os.environ, out_dir)
    got = summary(out)
    for k in ("seed", "scheme", "mutate", "iterations", "transitions", "steps", "violations"):
        if not expect_finding and got.get(k) != want.get(k):
            errs.append("%s: merged %s %r, one process %r" % (name, k, got.get(k), want.get(k)))
    if got.get("shards") != SHARDS:
        errs.append("%s: %r shards merged" % (name, got.get("shards")))
    xml = os.path.join(out_dir, "fuzz.xml")
    try:
        root = ET.parse(xml).getroot()
    except (OSError, ET.ParseError) as e:
        errs.append("%s: %s: %s" % (name, xml, e))
        return errs
    cases = root.findall("testsuite/testcase")
    names = sorted(c.get("name") for c in cases)
    if names != ["shard %d/%d" % (i, SHARDS) for i in range(SHARDS)]:
        errs.append("%s: JUnit test cases %s" % (name, names))
    fails = sum(len(c.findall("failure")) for c in cases)
    if (fails > 0) != expect_finding:
        errs.append("%s: %d failures in the JUnit file" % (name, fails))
    return errs


def parallel(recipes, scratch, base_env, seed, mutate=""):
    out = os.path.join(scratch, "parallel" + mutate)
    env = dict(base_env, FTV_SEED=str(seed), FTV_SHARDS=str(SHARDS), FTV_JOBS="2",
               FTV_BUDGET="--iterations %d%s" % (PER_SHARD, mutate and " --mutate %s --shrink-budget 8" % mutate),
               FTV_RESULTS=out)
    rc, text = run(["sh", os.path.join(recipes, "parallel.sh")], env, scratch)
    return out, rc, text


def slurm(recipes, scratch, base_env, seed, first=0, step=1, mutate=""):
    jobid = 4242 + first
    out = os.path.join(scratch, "slurm-%d-%d%s" % (first, step, mutate))
    ids = [first + k * step for k in range(SHARDS)]
    for tid in ids:
        env = dict(base_env, SLURM_ARRAY_JOB_ID=str(jobid), SLURM_ARRAY_TASK_ID=str(tid),
                   SLURM_ARRAY_TASK_MIN=str(ids[0]), SLURM_ARRAY_TASK_MAX=str(ids[-1]),
                   SLURM_ARRAY_TASK_STEP=str(step), SLURM_ARRAY_TASK_COUNT=str(SHARDS),
                   SLURM_CPUS_PER_TASK="1", SLURM_JOB_ID=str(jobid + 1 + tid),
                   FTV_SEED=str(seed), FTV_RESULTS=out,
                   FTV_BUDGET="--iterations %d%s" % (PER_SHARD, mutate and " --mutate %s --shrink-budget 8" % mutate))
        rc, text = run(["sh", os.path.join(recipes, "slurm-fuzz.sbatch")], env, scratch)
        if rc != 0:
            return out, rc, "task %d: exit %d\n%s" % (tid, rc, text)
    env = dict(base_env, SLURM_JOB_ID=str(jobid + 100), FTV_RESULTS=out)
    rc, text = run(["sh", os.path.join(recipes, "slurm-merge.sbatch")], env, scratch)
    return out, rc, text


def container_cmd(job):
    c = job["spec"]["template"]["spec"]["containers"][0]
    env = {e["name"]: str(e["value"]) for e in c.get("env", [])}
    return c["command"] + c.get("args", []), env


def kubernetes(recipes, scratch, base_env, seed, mutate=""):
    with open(os.path.join(recipes, "k8s-fuzz.yaml")) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    jobs = {d["metadata"]["name"]: d for d in docs if d.get("kind") == "Job"}
    fuzz = [j for j in jobs.values() if j["spec"].get("completionMode") == "Indexed"]
    merge = [j for j in jobs.values() if j["spec"].get("completionMode") != "Indexed"]
    assert len(fuzz) == 1 and len(merge) == 1, list(jobs)
    spec = fuzz[0]["spec"]
    cmd, env = container_cmd(fuzz[0])
    n = int(env["FTV_SHARDS"])
    assert spec["completions"] == n, "completions %s, FTV_SHARDS %s" % (spec["completions"], n)
    assert spec["template"]["spec"]["restartPolicy"] == "Never"
    out = os.path.join(scratch, "k8s" + mutate)
    os.makedirs(out, exist_ok=True)
    # the same Job on 3 shards, smaller: what the test changes in the pod
    env.update(FTV_SHARDS=str(SHARDS), FTV_SEED=str(seed), FTV_RESULTS=out,
               FTV_BUDGET="--iterations %d%s" % (PER_SHARD, mutate and " --mutate %s --shrink-budget 8" % mutate))
    for i in range(SHARDS):
        rc, text = run(cmd, dict(base_env, JOB_COMPLETION_INDEX=str(i), **env), scratch)
        if rc != 0:
            return out, rc, "index %d: exit %d\n%s" % (i, rc, text)
    cmd, env = container_cmd(merge[0])
    env.update(FTV_RESULTS=out)
    rc, text = run(cmd, dict(base_env, **env), scratch)
    return out, rc, text


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    recipes, scratch = argv
    recipes = os.path.abspath(recipes)
    scratch = os.path.abspath(scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "FTV_SEED",
                                                                      "JOB_COMPLETION"))}
    seed = 7
    rc, text = run(["ftv", "fuzz", "--seed", str(seed), "--iterations", str(SHARDS * PER_SHARD),
                    "--json", "--out", os.path.join(scratch, "one.scn")], base, scratch)
    if rc != 0:
        print("one process: exit %d\n%s" % (rc, text))
        return 1
    want = summary(text)
    errs, ran = [], []
    recipes_run = [("slurm --array=0-2", lambda m: slurm(recipes, scratch, base, seed, 0, 1, m)),
                   ("slurm --array=1-5:2", lambda m: slurm(recipes, scratch, base, seed, 1, 2, m)),
                   ("kubernetes", lambda m: kubernetes(recipes, scratch, base, seed, m))]
    if shutil.which("parallel", path=base.get("PATH")):
        recipes_run.insert(0, ("gnu parallel", lambda m: parallel(recipes, scratch, base, seed, m)))
    else:
        errs.append("GNU parallel is not installed (Debian package parallel, make deps)")
    for name, fn in recipes_run:
        out, rc, text = fn("")
        errs += check_merged(name, out, want, rc, text, False)
        out, rc, text = fn("bl-before-literal")
        errs += check_merged(name + " with a mutant", out, want, rc, text, True)
        ran.append(name)
    for e in errs:
        print(e)
    if errs:
        return 1
    print("campaigns ok: %s; %d shards of %d iterations = %d iterations, %d transitions, "
          "%d steps, as one process" % (", ".join(ran), SHARDS, PER_SHARD, want["iterations"],
                                        want["transitions"], want["steps"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
