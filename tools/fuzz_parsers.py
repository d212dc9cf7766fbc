#!/usr/bin/python3
"""Runs the libFuzzer harnesses of the parsers (make fuzz-parsers), one after
another, each for the given time from its seeds, and prints a table:
executions, coverage (libFuzzer's cov: edges and ft: features), corpus
(libFuzzer's corp: the inputs it holds, seeds included, and their bytes)
and crashes.

  fuzz_parsers.py --bin build/libfuzzer/bin --work build/libfuzzer \\
      --seconds 60 [--seeds tests/fuzz/corpus] [--regress tests/fuzz/regress] NAME...

Per harness, in WORK/NAME/: corpus/ (the grown corpus, kept between runs:
the next run starts from it), crashes/ (crash-*, leak-*, timeout-*, oom-*
inputs) and log-N.txt (libFuzzer's output). A crash ends libFuzzer's run;
the harness is started again for the rest of its time (at most 5 times),
so one run can show several crashes. Exit 1 if any harness crashed.

A crash is fixed by saving its input under tests/fuzz/regress/NAME/ (make
check replays it) and making the parser answer it with one line.
"""
import argparse
import os
import re
import subprocess
import sys
import time

STATUS = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\d+)(b|Kb|Mb)")
EXECS = re.compile(r"^stat::number_of_executed_units: (\d+)")
ARTIFACT = re.compile(r"Test unit written to (\S+)")
SUMMARY = re.compile(r"^(SUMMARY: .*|==\d+== ?ERROR: .*|fuzz: .*|.*deadly signal.*|"
                     r"ALARM: .*|.*out-of-memory.*)$")
MAX_RESTARTS = 5
UNIT = {"b": 1, "Kb": 1 << 10, "Mb": 1 << 20}


def dir_stats(d):
    n = size = 0
    if os.path.isdir(d):
        for f in os.listdir(d):
            p = os.path.join(d, f)
            if os.path.isfile(p):
                n += 1
                size += os.path.getsize(p)
    return n, size


def run_one(args, name):
    exe = os.path.join(args.bin, name)
    work = os.path.join(args.work, name)
    corpus = os.path.join(work, "corpus")
    crashes = os.path.join(work, "crashes") + "/"
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(crashes, exist_ok=True)
    dirs = [corpus]
    for base in (args.seeds, args.regress):
        d = os.path.join(base, name)
        if os.path.isdir(d):
            dirs.append(d)
    res = {"name": name, "execs": 0, "cov": 0, "ft": 0, "corp": 0, "corp_bytes": 0,
           "crashes": [], "summary": [], "runs": 0}
    start = time.monotonic()
    while res["runs"] <= MAX_RESTARTS:
        left = args.seconds - (time.monotonic() - start)
        if left < 1:
            break
        log = os.path.join(work, "log-%d.txt" % res["runs"])
        res["runs"] += 1
        cmd = [exe, "-max_total_time=%d" % int(left), "-print_final_stats=1",
               "-artifact_prefix=" + crashes, "-timeout=%d" % args.timeout,
               "-rss_limit_mb=%d" % args.rss_mb] + dirs
        with open(log, "w") as f:
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
        crashed = False
        with open(log, errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                m = STATUS.match(line)
                if m:
                    res["cov"] = max(res["cov"], int(m.group(2)))
                    res["ft"] = max(res["ft"], int(m.group(3)))
                    # the corpus in memory: seeds, regressions and new inputs
                    res["corp"] = int(m.group(4))
                    res["corp_bytes"] = int(m.group(5)) * UNIT[m.group(6)]
                m = EXECS.match(line)
                if m:
                    res["execs"] += int(m.group(1))
                m = ARTIFACT.search(line)
                if m:
                    res["crashes"].append(m.group(1))
                    crashed = True
                if SUMMARY.match(line) and len(res["summary"]) < 20:
                    res["summary"].append(line)
        if p.returncode and not crashed:
            res["summary"].append("libFuzzer exited %d without an artifact (see %s)" %
                                  (p.returncode, log))
            break
        if not crashed:
            break
    res["seconds"] = time.monotonic() - start
    res["saved"], res["saved_bytes"] = dir_stats(corpus)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--seeds", default="tests/fuzz/corpus")
    ap.add_argument("--regress", default="tests/fuzz/regress")
    ap.add_argument("--timeout", type=int, default=10, help="seconds per input")
    ap.add_argument("--rss-mb", type=int, default=2048)
    ap.add_argument("names", nargs="+")
    args = ap.parse_args()

    results = []
    for name in args.names:
        print("fuzz-parsers: %s for %d s ..." % (name, args.seconds), flush=True)
        r = run_one(args, name)
        results.append(r)
        print("fuzz-parsers: %s: %d executions, cov %d, ft %d, corpus %d inputs "
              "(%d bytes; %d new ones in %s), %d crashes" %
              (name, r["execs"], r["cov"], r["ft"], r["corp"], r["corp_bytes"], r["saved"],
               os.path.join(args.work, name, "corpus"), len(r["crashes"])), flush=True)
        for c in r["crashes"]:
            print("  crash input: %s" % c)
        for s in r["summary"]:
            print("  %s" % s)
    print()
    print("%-16s %8s %12s %8s %8s %8s %10s %8s" %
          ("harness", "seconds", "executions", "cov", "ft", "corpus", "bytes", "crashes"))
    for r in results:
        print("%-16s %8.0f %12d %8d %8d %8d %10d %8d" %
              (r["name"], r["seconds"], r["execs"], r["cov"], r["ft"], r["corp"],
               r["corp_bytes"], len(r["crashes"])))
    return 1 if any(r["crashes"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
