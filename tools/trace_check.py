#!/usr/bin/python3
"""Check a Chrome trace-event JSON file (the JSON Object Format) as
ui.perfetto.dev and chrome://tracing read it, and as `ftv --trace` promises
to write it:

  - a JSON object with a traceEvents list and a displayTimeUnit;
  - every event has ph, ts (a number), pid and tid (integers), and a known ph
    (B, E, X, i, s, t, f, M); X has a dur >= 0; i has a scope s of t, p, g;
  - on every track (pid, tid) the B/E pairs match in time order, and the
    slices (B/E and X) nest: none overlaps another partly;
  - every flow id has one s, at most one t per track, one f, in time order,
    each inside a slice of its track (where the viewers bind it), the f
    with bp "e";
  - metadata names every process and every track that has events.

With --cpus N, also what ftv writes for a world of N CPUs: tracks named
cpu0..cpuN-1, patcher and store buffer in every process.

Usage: trace_check.py [--cpus N] [--expect KIND...] FILE
Prints "trace ok: ..." and exits 0, or one line per problem and exits 1.
"""
import json
import sys
from collections import defaultdict

PHASES = set("BEXistfM")


def check(path, cpus=None, expect_kinds=()):
    errs = []
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return ["%s: not JSON: %s" % (path, e)], {}
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["%s: not an object with a traceEvents list" % path], {}
    if doc.get("displayTimeUnit") not in ("ms", "ns"):
        errs.append("displayTimeUnit is %r, not ms or ns" % doc.get("displayTimeUnit"))
    evs = doc["traceEvents"]
    tracks = defaultdict(list)
    pnames, tnames = {}, {}
    flows = defaultdict(list)
    for n, e in enumerate(evs):
        where = "event %d (%s)" % (n, json.dumps(e)[:120])
        if not isinstance(e, dict):
            errs.append("%s: not an object" % where)
            continue
        for k in ("ph", "ts", "pid", "tid"):
            if k not in e:
                errs.append("%s: no %s" % (where, k))
        if any(k not in e for k in ("ph", "ts", "pid", "tid")):
            continue
        if e["ph"] not in PHASES:
            errs.append("%s: unknown ph %r" % (where, e["ph"]))
            continue
        if not isinstance(e["ts"], (int, float)) or isinstance(e["ts"], bool):
            errs.append("%s: ts is not a number" % where)
            continue
        if not isinstance(e["pid"], int) or not isinstance(e["tid"], int):
            errs.append("%s: pid and tid must be integers" % where)
            continue
        key = (e["pid"], e["tid"])
        ph = e["ph"]
        if ph == "M":
            name = e.get("args", {}).get("name")
            if e.get("name") == "process_name" and name:
                pnames[e["pid"]] = name
            elif e.get("name") == "thread_name" and name:
                tnames[key] = name
            continue
        if ph in "BXi" and not e.get("name"):
            errs.append("%s: no name" % where)
        if ph == "X" and (not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0):
            errs.append("%s: X without a dur >= 0" % where)
        if ph == "i" and e.get("s", "t") not in ("t", "p", "g"):
            errs.append("%s: instant scope %r" % (where, e.get("s")))
        if ph in "stf":
            if "id" not in e:
                errs.append("%s: flow event without an id" % where)
            else:
                flows[e["id"]].append((n, e))
        tracks[key].append((e["ts"], n, e))

    # B/E pairing and nesting, per track
    slices = defaultdict(list)  # key -> [(start, end)]
    nslices = 0
    for key, lst in tracks.items():
        lst.sort(key=lambda x: (x[0], x[1]))
        stack = []
        for ts, n, e in lst:
            if e["ph"] == "B":
                stack.append((ts, n, e))
            elif e["ph"] == "E":
                if not stack:
                    errs.append("track %s: E at ts %s (event %d) closes nothing" % (key, ts, n))
                    continue
                b = stack.pop()
                slices[key].append((b[0], ts))
            elif e["ph"] == "X":
                slices[key].append((ts, ts + e["dur"]))
        for ts, n, e in stack:
            errs.append("track %s: B %r at ts %s (event %d) never ends" % (key, e.get("name"), ts, n))
        ivs = sorted(slices[key], key=lambda iv: (iv[0], -iv[1]))
        nslices += len(ivs)
        open_ = []
        eps = 1e-6
        for s, t in ivs:
            while open_ and open_[-1][1] <= s + eps:
                open_.pop()
            if open_ and t > open_[-1][1] + eps:
                errs.append("track %s: slice [%s, %s] overlaps [%s, %s] partly"
                            % (key, s, t, open_[-1][0], open_[-1][1]))
                if len(errs) > 50:
                    return errs, {}
            open_.append((s, t))

    def inside(key, ts):
        return any(s - 1e-6 <= ts <= t + 1e-6 for s, t in slices.get(key, ()))

    for fid, lst in flows.items():
        phs = [e["ph"] for _, e in lst]
        if phs.count("s") != 1 or phs.count("f") != 1:
            errs.append("flow %s: %d starts and %d ends" % (fid, phs.count("s"), phs.count("f")))
            continue
        seq = sorted(lst, key=lambda x: ({"s": 0, "t": 1, "f": 2}[x[1]["ph"]], x[1]["ts"]))
        if any(seq[i][1]["ts"] > seq[i + 1][1]["ts"] for i in range(len(seq) - 1)):
            errs.append("flow %s: its steps go back in time" % fid)
        for n, e in lst:
            key = (e["pid"], e["tid"])
            if not inside(key, e["ts"]):
                errs.append("flow %s: %s at ts %s on track %s is in no slice" % (fid, e["ph"], e["ts"], key))
            if e["ph"] == "f" and e.get("bp") != "e":
                errs.append("flow %s: its end does not bind to the enclosing slice (bp e)" % fid)

    for key in tracks:
        if key[0] not in pnames:
            errs.append("process %d has no process_name" % key[0])
        if key not in tnames:
            errs.append("track %s has no thread_name" % (key,))
    if cpus is not None:
        for pid in pnames:
            names = {tnames[k] for k in tnames if k[0] == pid}
            want = {"cpu%d" % c for c in range(cpus)} | {"patcher", "store buffer"}
            if not want <= names:
                errs.append("process %d: tracks %s missing" % (pid, sorted(want - names)))
    kinds = set()
    for lst in tracks.values():
        for _, _, e in lst:
            if e["ph"] == "i" and e.get("cat") == "violation":
                kinds.add(e.get("args", {}).get("kind"))
    for k in expect_kinds:
        if k not in kinds:
            errs.append("no violation instant of kind %s (found: %s)" % (k, " ".join(sorted(kinds)) or "none"))
    stats = {"events": len(evs), "processes": len(pnames), "tracks": len(tnames),
             "slices": nslices, "flows": len(flows), "violations": sorted(kinds)}
    return errs, stats


def main(argv):
    cpus, expect, files = None, [], []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--cpus":
            cpus = int(args.pop(0))
        elif a == "--expect":
            expect.append(args.pop(0))
        else:
            files.append(a)
    if len(files) != 1:
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    errs, st = check(files[0], cpus, expect)
    for e in errs[:50]:
        print("%s: %s" % (files[0], e))
    if errs:
        return 1
    print("trace ok: %(events)d events, %(processes)d processes, %(tracks)d tracks, "
          "%(slices)d slices, %(flows)d flows, violations: %(violations)s" % st)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
