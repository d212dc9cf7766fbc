#!/usr/bin/python3
"""Variants of ftv's own herd-syntax litmus tests: the fair judge of a fetch
model tuned on a catalogue is tests it was not tuned on.

    tools/herd_variants.py --out DIR [--sample N --seed S] [SRC_DIR_OR_FILE...]

From each test (default: corpus/litmus/herd/ and tests/data/litmus/, the
catalogue's shapes written by ftv) it writes, deterministically (no random
choice: the same sources give the same files), one variant per

  rm    a barrier or cache-maintenance instruction removed (a NOP in its
        place, so that every label keeps its address);
  rep   one replaced by a neighbour of its kind: DSB ISH <-> DMB ISH,
        DMB ST -> DMB ISH, DSB ISH -> DSB ST, IC IVAU -> IC IALLU,
        DC CVAU -> DC CIVAC, ISB -> DSB ISH;
  swap  two adjacent instructions of a thread swapped where one of them is
        a barrier or cache maintenance (no label between them);
  ct    CacheType changed: none -> IDC -> DIC -> none;
  thr   a thread added: a copy of P0 (its registers too) as the last
        thread, for the tests of at most two threads whose P0 writes.

A variant is named BASE+KIND-N and has a doc string saying what changed.
--sample N keeps N of them, as evenly over the five kinds as they allow,
drawn by a random.Random(S) (--seed, default 1) from the sorted list: the
same sources and seed give the same files (tools/herd_generated.py samples
the variants of herdtools7's catalogue so).
Prints the number written per kind. herd7's verdicts for them are kept in
tests/data/herd-variants.txt (tools/herd_compare.py --kinds-out, herd7
built from herdtools7's public source: see docs/herd-results.md) and
tools/herd_compare.py --verdicts compares ftv against them without herd7.
"""
import argparse
import os
import random
import re
import sys

BARRIER = re.compile(r"^(DSB|DMB|ISB|DC|IC)\b", re.I)
REPLACE = [
    (re.compile(r"^DSB\s+ISH$", re.I), "DMB ISH"),
    (re.compile(r"^DMB\s+ISH$", re.I), "DSB ISH"),
    (re.compile(r"^DMB\s+ST$", re.I), "DMB ISH"),
    (re.compile(r"^DSB\s+SY$", re.I), "DSB ST"),
    (re.compile(r"^IC\s+IVAU\s*,\s*X(\d+)$", re.I), "IC IALLU"),
    (re.compile(r"^DC\s+CVAU\s*,\s*(X\d+)$", re.I), r"DC CIVAC,\1"),
    (re.compile(r"^ISB$", re.I), "DSB ISH"),
]
CT_NEXT = {None: "IDC", "IDC": "DIC", "DIC": None}


def parse(text):
    """(head lines, init text, columns, rows of cells, tail lines)."""
    lines = text.split("\n")
    i = next(k for k, l in enumerate(lines) if "{" in l)
    j = next(k for k in range(i, len(lines)) if "}" in lines[k])
    head, init = lines[:i], "\n".join(lines[i:j + 1])
    k = j + 1
    while not lines[k].strip():
        k += 1
    cols = [c.strip() for c in lines[k].strip().rstrip(";").split("|")]
    rows, k = [], k + 1
    while k < len(lines):
        s = lines[k].strip()
        if not s:
            k += 1
            continue
        if not s.endswith(";"):
            break
        cells = [c.strip() for c in s.rstrip(";").split("|")]
        rows.append(cells + [""] * (len(cols) - len(cells)))
        k += 1
    return head, init, cols, rows, lines[k:]


def split_label(cell):
    m = re.match(r"^((?:[A-Za-z_]\w*:\s*)*)(.*)$", cell)
    return m.group(1), m.group(2).strip()


def render(name, doc, head, init, cols, rows, tail):
    out = ["AArch64 " + name, '"%s"' % doc]
    out += [l for l in head[1:] if l.strip() and not l.strip().startswith('"')]
    out.append(init)
    width = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
    fmt = lambda cells: " " + " | ".join(c.ljust(w) for c, w in zip(cells, width)) + " ;"
    out.append(fmt(cols))
    out += [fmt(r) for r in rows]
    out += tail
    return "\n".join(out).rstrip("\n") + "\n"


def cachetype(head):
    for l in head:
        m = re.match(r"^\s*CacheType\s*=\s*(\S+)", l)
        if m:
            return m.group(1)
    return None


def variants(path):
    text = open(path).read()
    head, init, cols, rows, tail = parse(text)
    base = head[0].split()[1]
    threads = [c for c in cols if re.match(r"^P\d+$", c)]
    out = []

    def add(kind, doc, r, h=head, i=init, c=cols):
        n = sum(1 for v in out if v[0] == kind) + 1
        out.append((kind, "%s+%s%d" % (base, kind, n),
                    render("%s+%s%d" % (base, kind, n), doc, h, i, c, r, tail)))

    sites = [(ri, ci) for ri, r in enumerate(rows) for ci, c in enumerate(r)
             if BARRIER.match(split_label(c)[1])]
    for ri, ci in sites:
        lab, ins = split_label(rows[ri][ci])
        r = [list(x) for x in rows]
        r[ri][ci] = lab + "NOP"
        add("rm", "%s of %s removed" % (ins, cols[ci]), r)
    for ri, ci in sites:
        lab, ins = split_label(rows[ri][ci])
        for pat, rep in REPLACE:
            if pat.match(ins):
                new = pat.sub(rep, ins)
                r = [list(x) for x in rows]
                r[ri][ci] = lab + new
                add("rep", "%s of %s replaced by %s" % (ins, cols[ci], new), r)
                break
    for ri, ci in sites:
        if ri + 1 >= len(rows):
            continue
        la, a = split_label(rows[ri][ci])
        lb, b = split_label(rows[ri + 1][ci])
        if lb or not a or not b or a.upper() == b.upper():
            continue
        r = [list(x) for x in rows]
        r[ri][ci], r[ri + 1][ci] = la + b, a
        add("swap", "%s and %s of %s swapped" % (a, b, cols[ci]), r)
    ct = cachetype(head)
    nxt = CT_NEXT.get(ct)
    h = [l for l in head if not re.match(r"^\s*CacheType\s*=", l)]
    if nxt:
        h = h[:1] + ["CacheType=" + nxt] + h[1:]
    add("ct", "CacheType=%s instead of %s" % (nxt or "(none)", ct or "(none)"), rows, h=h)
    p0 = [r[0] for r in rows]
    if len(threads) <= 2 and any(re.match(r"^STR\b", split_label(c)[1], re.I) for c in p0) \
            and all(not split_label(c)[0] for c in p0):
        t = len(threads)
        regs = re.findall(r"\b0:(X\d+)\s*=\s*([^;}]+)", init)
        extra = " ".join("%d:%s=%s;" % (t, reg, val.strip()) for reg, val in regs)
        i = init.replace("}", " " + extra + "\n}", 1) if extra else init
        c = cols[:len(threads)] + ["P%d" % t] + cols[len(threads):]
        r = [x[:len(threads)] + [x[0]] + x[len(threads):] for x in rows]
        add("thr", "P0 copied as P%d: a second writer" % t, r, i=i, c=c)
    return out


def sample(every, n, seed):
    """n of the variants, as evenly over their kinds as the kinds allow."""
    rnd = random.Random(seed)
    kinds = sorted(set(v[0] for v in every), key=lambda k: sum(v[0] == k for v in every))
    out = []
    for i, k in enumerate(kinds):
        of_kind = [v for v in every if v[0] == k]
        share = (n - len(out)) // (len(kinds) - i)
        out += rnd.sample(of_kind, min(share, len(of_kind)))
    return sorted(out, key=lambda v: v[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--top", default=".")
    ap.add_argument("--sample", type=int, help="keep this many variants (seeded)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    paths = args.paths or [os.path.join(args.top, "corpus/litmus/herd"),
                           os.path.join(args.top, "tests/data/litmus")]
    files = []
    for p in paths:
        files += sorted(os.path.join(p, f) for f in os.listdir(p)
                        if f.endswith(".litmus")) if os.path.isdir(p) else [p]
    os.makedirs(args.out, exist_ok=True)
    every = sorted((v for f in files for v in variants(f)), key=lambda v: v[1])
    if args.sample is not None:
        every = sample(every, args.sample, args.seed)
    print("seed %d" % args.seed if args.sample is not None else "all", end=": ")
    count = {}
    for kind, name, text in every:
        with open(os.path.join(args.out, name + ".litmus"), "w") as o:
            o.write(text)
        count[kind] = count.get(kind, 0) + 1
    print(" ".join("%s %d" % kv for kv in sorted(count.items())),
          "total %d" % sum(count.values()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
