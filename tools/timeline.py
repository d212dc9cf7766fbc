#!/usr/bin/python3
"""Draw a window of an ftv timeline (the Chrome trace-event JSON that
`ftv scenario --trace FILE` and `ftv fuzz --replay R --trace FILE` write) as
a self-contained HTML page holding one SVG: a row per track (the CPUs, the
patcher, the store buffer), slices nested as they were, flow arrows from
each write to the fetches that saw it, violations in red with their
messages listed below. No script, no network: any browser shows it, and
headless Chromium turns it into a PNG:

  tools/timeline.py TRACE.json -o out.html [--pid P] [--from STEP] [--to STEP]
  chromium --headless --no-sandbox --disable-gpu --screenshot=out.png \\
      --window-size=1600,1000 file://$PWD/out.html

The window is in scheduler steps (1 step = 1 ms of the trace); by default
30 steps before the first violation to 8 after it, or the first 40 steps
of the first plan when nothing was violated.
"""
import argparse
import bisect
import html
import json
import sys
import zlib
from collections import defaultdict

STEP_US = 1000.0
ROW_H = 18
LEFT = 110
PALETTE = ["#4e79a7", "#59a14f", "#9c755f", "#76b7b2", "#af7aa1", "#edc948", "#bab0ac",
           "#86bcb6", "#8cd17d", "#a0cbe8", "#d4a6c8", "#b6992d"]


def colour(cat, name):
    if cat == "fetch":
        return "#f28e2b" if not name.startswith("fetch nop") else "#c8c8c8"
    if cat == "load":
        return "#b07aa1"
    if cat == "tracer":
        return "#e15759" if "nop_ops" in name else "#59a14f"
    if cat == "plan":
        return "#fce7a6"
    if cat == "plan-step":
        op = name.split(":")[0]
        return {"write-insn": "#f28e2b", "write-data64": "#b07aa1", "dsb": "#79706e",
                "dmb": "#79706e", "isb": "#79706e", "sync-all": "#e15759",
                "quiesce": "#e15759", "dc-cvau": "#76b7b2", "ic-ivau": "#76b7b2"}.get(op, "#bab0ac")
    if cat == "store":
        return "#76b7b2"
    return PALETTE[zlib.crc32(name.encode()) % len(PALETTE)]


MARKS = ("fetch", "load", "tracer", "plan-step", "store")
LANE_H = 28


def short(name, cat, args):
    """A marker's label: the instruction fetched, the ops loaded, the tracer."""
    if cat == "fetch":
        return name.split()[1] if len(name.split()) > 1 else name
    if name.startswith("load ops literal: "):
        return "lit " + name[len("load ops literal: "):].replace("ftrace_", "")
    if cat == "load":
        return name.split("->")[-1] if "->" in name else "ld"
    if cat == "tracer":
        return name.split()[0].replace("ftv_", "").replace("_func", "")
    if cat in ("plan-step", "store"):
        what = name.split(": ", 1)[-1]
        if cat == "store":
            what = args.get("write", "").split('"')[1] if '"' in args.get("write", "") else what
        if "->" in what and " -> " in what:
            return what.split(" -> ")[-1]
        if "literal" in what:
            return "lit"
        if what.startswith("ops->"):
            return what[5:]
        if "ops_list" in what:
            return "list"
        if "filter table" in what:
            return "filt"
        op = name.split(":")[0]
        return {"dc-cvau": "dc", "ic-ivau": "ic", "sync-all": "ipi", "quiesce": "rcu"}.get(
            op, op if cat == "plan-step" else "st")
    return name


def load(path):
    with open(path) as f:
        return json.load(f)["traceEvents"]


def slices_of(evs, pid):
    """Per track: [(start, end, depth, name, cat, args)] with depth from the
    nesting of B/E and X."""
    per = defaultdict(list)
    for n, e in enumerate(evs):
        if e.get("pid") == pid and e["ph"] in "BEX":
            per[e["tid"]].append((e["ts"], n, e))
    out = {}
    for tid, lst in per.items():
        lst.sort(key=lambda x: (x[0], x[1]))
        ivs, stack = [], []
        for ts, _, e in lst:
            if e["ph"] == "B":
                stack.append(e)
            elif e["ph"] == "E" and stack:
                b = stack.pop()
                ivs.append((b["ts"], ts, b.get("name", ""), b.get("cat", ""), b.get("args", {})))
            elif e["ph"] == "X":
                ivs.append((ts, ts + e["dur"], e.get("name", ""), e.get("cat", ""), e.get("args", {})))
        ivs.sort(key=lambda iv: (iv[0], -iv[1]))
        res, open_ = [], []
        for s, t, name, cat, args in ivs:
            while open_ and open_[-1] <= s:
                open_.pop()
            res.append((s, t, len(open_), name, cat, args))
            open_.append(t)
        out[tid] = res
    return out


def main(argv):
    ap = argparse.ArgumentParser(description="Draw a window of an ftv timeline as HTML+SVG.")
    ap.add_argument("trace")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--pid", type=int)
    ap.add_argument("--from", dest="frm", type=float, help="first step of the window")
    ap.add_argument("--to", type=float, help="last step of the window")
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--max-depth", type=int, default=5)
    a = ap.parse_args(argv)

    evs = load(a.trace)
    pnames, tnames, tsort = {}, {}, {}
    for e in evs:
        if e["ph"] == "M":
            if e["name"] == "process_name":
                pnames[e["pid"]] = e["args"]["name"]
            elif e["name"] == "thread_name":
                tnames[(e["pid"], e["tid"])] = e["args"]["name"]
            elif e["name"] == "thread_sort_index":
                tsort[(e["pid"], e["tid"])] = e["args"]["sort_index"]
    viols = [e for e in evs if e["ph"] == "i" and e.get("cat") == "violation"]
    pid = a.pid
    if pid is None:
        pid = viols[0]["pid"] if viols else min(pnames) if pnames else 1
    viols = [v for v in viols if v["pid"] == pid]
    if a.frm is None or a.to is None:
        if viols:
            v0 = min(v["ts"] for v in viols) / STEP_US
            frm, to = max(0, int(v0) - 30), int(v0) + 8
        else:
            plans = [e["ts"] for e in evs if e["pid"] == pid and e.get("cat") == "plan" and e["ph"] == "B"]
            frm = int(min(plans) / STEP_US) if plans else 0
            to = frm + 40
        frm = a.frm if a.frm is not None else frm
        to = a.to if a.to is not None else to
    else:
        frm, to = a.frm, a.to
    t0, t1 = frm * STEP_US, (to + 1) * STEP_US
    width = a.width - LEFT - 20
    # Inside a step the trace spaces events 1 us apart (of 1000): drawn
    # to scale they would pile up at the step's left edge. The drawing
    # spreads each step's instants evenly over its width, in their order.
    inside = defaultdict(set)
    for e in evs:
        if e.get("pid") == pid and e["ph"] != "M" and t0 <= e["ts"] <= t1:
            inside[int(e["ts"] // STEP_US)].add(e["ts"])
            if e["ph"] == "X":
                inside[int(e["ts"] // STEP_US)].add(e["ts"] + e["dur"])
    inside = {k: sorted(v) for k, v in inside.items()}

    def x(ts):
        ts = min(max(ts, t0), t1)
        step = int(ts // STEP_US)
        lst = inside.get(step)
        frac = (ts - step * STEP_US) / STEP_US
        if lst:
            frac = (bisect.bisect_left(lst, ts) + 0.5) / (len(lst) + 0.5)
        return LEFT + (step - frm + frac) / (t1 - t0) * STEP_US * width

    sl = slices_of(evs, pid)
    # what happens inside a step (a fetch, a load, a tracer call) lasts a
    # fraction of it: drawn in a lane of markers under the functions
    marks = {tid: [v for v in lst if v[4] in MARKS] for tid, lst in sl.items()}
    sl = {tid: [v for v in lst if v[4] not in MARKS] for tid, lst in sl.items()}
    tids = sorted({k[1] for k in tnames if k[0] == pid}, key=lambda t: (tsort.get((pid, t), t), t))
    rows, lanes, y = {}, {}, 60
    for tid in tids:
        depth = max([d for s, t, d, *_ in sl.get(tid, []) if t >= t0 and s <= t1] + [0])
        depth = min(depth, a.max_depth - 1)
        rows[tid] = (y, depth + 1)
        y += (depth + 1) * ROW_H
        if any(t0 <= m[0] <= t1 for m in marks.get(tid, [])):
            lanes[tid] = y + 2
            y += LANE_H
        y += 14
    height_chart = y

    svg = []
    add = svg.append
    title = pnames.get(pid, "process %d" % pid)
    add('<text x="10" y="20" class="title">%s</text>' % html.escape(title))
    add('<text x="10" y="38" class="sub">steps %g to %g (1 step = 1 ms of the trace); '
        'arrows: a write, where it became visible, the first fetch of it by each CPU</text>' % (frm, to))
    # axis
    span = to + 1 - frm
    tick = max(1, int(round(span / 20.0)))
    s = int(frm)
    while s <= to + 1:
        xx = LEFT + (s - frm) / span * width
        add('<line x1="%.1f" y1="48" x2="%.1f" y2="%d" class="grid"/>' % (xx, xx, height_chart))
        add('<text x="%.1f" y="56" class="tick">%d</text>' % (xx + 2, s))
        s += tick
    for tid in tids:
        ry, nd = rows[tid]
        add('<rect x="0" y="%d" width="%d" height="%d" class="band"/>' % (ry - 2, a.width, nd * ROW_H + 4))
        add('<text x="8" y="%d" class="track">%s</text>' % (ry + 13, html.escape(tnames[(pid, tid)])))
        for s0, s1, d, name, cat, args in sl.get(tid, []):
            if s1 < t0 or s0 > t1 or d >= a.max_depth:
                continue
            x0, x1 = x(s0), x(s1)
            # the events inside a step (a fetch, a tracer call, a plan
            # step) last a fraction of it: drawn wide enough to see
            w = max(x1 - x0, 4.0 if cat in ("plan-step", "store") else 1.2)
            tip = name + "".join("\n%s: %s" % (k, v) for k, v in args.items())
            add('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" class="slice">'
                '<title>%s</title></rect>' % (x0, ry + d * ROW_H, w, ROW_H - 2, colour(cat, name),
                                              html.escape(tip)))
            if w > 7 * min(len(name), 4) + 6:
                room = int((w - 6) / 6.2)
                label = name if len(name) <= room else name[:max(room - 1, 1)] + "\u2026"
                add('<text x="%.1f" y="%d" class="label">%s</text>' % (x0 + 3, ry + d * ROW_H + 12,
                                                                     html.escape(label)))

    for tid, ly in lanes.items():
        last = -1e9
        for s0, s1, d, name, cat, args in marks[tid]:
            if not t0 <= s0 <= t1:
                continue
            xx = x(s0)
            tip = name + "".join("\n%s: %s" % (k, v) for k, v in args.items())
            add('<rect x="%.1f" y="%d" width="4" height="10" fill="%s" class="mark">'
                '<title>%s</title></rect>' % (xx - 2, ly + 14, colour(cat, name), html.escape(tip)))
            label = short(name, cat, args)
            if xx - 2 > last + 2:
                add('<text x="%.1f" y="%d" class="mlabel">%s</text>' % (xx - 2, ly + 10, html.escape(label)))
                last = xx - 2 + 6.0 * len(label)

    def pos(e):
        if e["tid"] in lanes:
            return x(e["ts"]), lanes[e["tid"]] + 19
        ry, nd = rows.get(e["tid"], (None, 1))
        if ry is None:
            return None
        # the deepest slice of the track containing ts
        depth = 0
        for s0, s1, d, *_ in sl.get(e["tid"], []):
            if s0 - 1e-6 <= e["ts"] <= s1 + 1e-6 and d < a.max_depth:
                depth = max(depth, d)
        return x(e["ts"]), ry + depth * ROW_H + ROW_H / 2

    flows = defaultdict(list)
    for e in evs:
        if e["pid"] == pid and e["ph"] in "stf":
            flows[e["id"]].append(e)
    for fid, lst in flows.items():
        lst.sort(key=lambda e: ({"s": 0, "t": 1, "f": 2}[e["ph"]], e["ts"]))
        # the arrows whose write and fetch are both in the window
        if not (t0 <= lst[0]["ts"] <= t1 and t0 <= lst[-1]["ts"] <= t1):
            continue
        pts = [p for p in map(pos, lst) if p]
        if len(pts) < 2:
            continue
        d = "M%.1f,%.1f " % pts[0] + " ".join("L%.1f,%.1f" % p for p in pts[1:])
        add('<path d="%s" class="flow" marker-end="url(#arrow)"/>' % d)
    notes = []
    for v in sorted(viols, key=lambda v: v["ts"]):
        if not t0 <= v["ts"] <= t1:
            continue
        ry, nd = rows.get(v["tid"], (60, 1))
        xx = x(v["ts"])
        add('<path d="M%.1f,%d l-6,-10 h12 z" class="viol"/>' % (xx, ry))
        add('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="violline"/>' % (xx, ry, xx, ry + nd * ROW_H))
        notes.append("%s %s step %s: %s" % (v["name"], tnames.get((pid, v["tid"]), ""),
                                            v["args"].get("step"), v["args"].get("message", "")))
    y = height_chart + 16
    legend = [("function", PALETTE[0]), ("fetch of a patched word: nop", "#c8c8c8"),
              ("fetch: call", "#f28e2b"), ("ops literal / ops load", "#b07aa1"),
              ("tracer call", "#59a14f"), ("ftrace_nop_ops", "#e15759"),
              ("plan", "#fce7a6"), ("barrier", "#79706e"), ("cache maintenance", "#76b7b2")]
    lx = 10
    for name, c in legend:
        add('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (lx, y, c))
        add('<text x="%d" y="%d" class="leg">%s</text>' % (lx + 16, y + 10, html.escape(name)))
        lx += 26 + 7 * len(name)
    y += 30
    for n in notes[:8]:
        for k in range(0, len(n), 190):
            add('<text x="10" y="%d" class="note">%s</text>' % (y, html.escape(n[k:k + 190])))
            y += 15
        y += 3
    if len(notes) > 8:
        add('<text x="10" y="%d" class="note">... %d more</text>' % (y, len(notes) - 8))
        y += 15
    height = y + 10
    style = """
 .title{font:bold 15px sans-serif} .sub{font:12px sans-serif;fill:#555}
 .tick{font:10px sans-serif;fill:#777} .grid{stroke:#eee}
 .band{fill:#fafafa;stroke:#eee} .track{font:bold 12px monospace}
 .slice{stroke:#fff;stroke-width:0.3} .label{font:10px monospace;fill:#111;pointer-events:none}
 .flow{fill:none;stroke:#d62728;stroke-width:1.3;opacity:.85}
 .viol{fill:#d62728} .violline{stroke:#d62728;stroke-width:1.5}
 .mlabel{font:10px monospace;fill:#333} .mark{stroke:#333;stroke-width:0.4}
 .leg{font:11px sans-serif} .note{font:11px monospace;fill:#b00}"""
    page = ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>%s</title></head>'
            '<body style="margin:0;background:#fff">\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">\n<style>%s</style>\n'
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#d62728"/>'
            '</marker></defs>\n%s\n</svg></body></html>\n'
            % (html.escape(title), a.width, height, style, "\n".join(svg)))
    with open(a.out, "w") as f:
        f.write(page)
    print("%s: steps %g-%g of %s, %d tracks, %d violations shown, %dx%d"
          % (a.out, frm, to, title, len(tids), len(notes), a.width, height))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
