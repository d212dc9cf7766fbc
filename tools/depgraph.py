#!/usr/bin/python3
"""Which file of a directory uses which other file's functions and data, from
the built objects' symbol tables (nm): an edge a -> b when a.o refers to a
symbol that b.o defines. Prints the graph per directory and every circle
(strongly connected component of more than one file).

  depgraph.py [--build build] [--top .] [--check] [DIR...]   (default: the library dirs)

--check exits 1 if any directory has a circle.
"""
import argparse
import collections
import glob
import os
import subprocess
import sys

DIRS = ["util", "encoders", "sim", "layout", "executor", "litmus", "patcher", "kernel",
        "verify", "tools"]


def symbols(obj):
    out = subprocess.run(["nm", "--defined-only", obj], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    defined = {l.split()[-1] for l in out.splitlines()
               if len(l.split()) == 3 and l.split()[1] in "TDBRGSVW"}
    out = subprocess.run(["nm", "--undefined-only", obj], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    used = {l.split()[-1] for l in out.splitlines() if l.split()}
    return defined, used


def sccs(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def graph(top, build, d):
    # only objects whose source still exists (a build tree keeps the
    # objects of files since moved or deleted)
    objs = sorted(o for o in glob.glob(os.path.join(build, "obj", d, "*.o"))
                  if os.path.exists(os.path.join(top, d, os.path.basename(o)[:-2] + ".c")))
    if not objs:
        return None
    names = [os.path.basename(o)[:-2] for o in objs]
    info = {n: symbols(o) for n, o in zip(names, objs)}
    owner = {}
    for n in names:
        for s in info[n][0]:
            owner.setdefault(s, n)
    edges = collections.defaultdict(set)
    for n in names:
        for s in info[n][1]:
            o = owner.get(s)
            if o and o != n:
                edges[n].add(o)
    return names, edges


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--top", default=".", help="the source tree")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("dirs", nargs="*")
    a = ap.parse_args()
    circles = 0
    for d in a.dirs or DIRS:
        g = graph(a.top, a.build, d)
        if g is None:
            continue
        names, edges = g
        print("%s/" % d)
        for n in names:
            if edges[n]:
                print("  %-22s -> %s" % (n, " ".join(sorted(edges[n]))))
        for comp in sccs(names, edges):
            if len(comp) > 1:
                circles += 1
                print("  CIRCLE: %s" % " <-> ".join(comp))
    if circles:
        print("%d circle(s)" % circles)
    else:
        print("no circles")
    return 1 if a.check and circles else 0


if __name__ == "__main__":
    sys.exit(main())
