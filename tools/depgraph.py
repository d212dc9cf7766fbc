#!/usr/bin/python3
"""Which file of a directory uses which other file's functions and data, from
the built objects' symbol tables (nm): an edge a -> b when a.o refers to a
symbol that b.o defines. Prints the graph per directory and every circle
(strongly connected component of more than one file).

Between directories, the layer table LAYERS below is the order of the tree:
a directory may use (#include, or refer to a symbol defined in) only
directories of lower layers, never one of its own layer or above. Every
top-level directory holding C or assembly sources must be in LAYERS or in
GUEST (code built for the emulated CPUs only); a new one fails the check
until it is given its place.

  depgraph.py [--build build] [--top .] [--check] [DIR...]   (default: the library dirs)

--check exits 1 if any directory has a circle, a directory uses one of its
own layer or above, or a directory of code is in no table.
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

DIRS = ["util", "encoders", "sim", "layout", "executor", "litmus", "patcher", "kernel",
        "verify", "tools"]

# The order between directories, lowest first; directories of one layer are
# independent of each other. Read from the tree (includes and symbols) at
# c48307a. A new directory goes in the layer it belongs to.
LAYERS = [
    ("util",),                     # errors, vectors, JSON, options
    ("encoders",),                 # arm64 and RISC-V encodings
    ("sim",),                      # ELF loading, the emulated address space
    ("patcher", "layout"),         # ftrace core and backends; the layout format
    ("executor", "trampolines"),   # Unicorn CPUs and the fetch model; guest
                                   # trampolines (which share patcher's ABI)
    ("kernel",),                   # Linux's own objects loaded as a kernel,
                                   # its services as shims, one-CPU runner
    ("litmus", "verify"),          # litmus tests; worlds, checks, scenarios
    ("tools", "bench"),            # the ftv commands; benchmarks
    ("tests",),                    # the Check suites
]
# Code that is compiled for the emulated CPUs and includes no ftv header.
GUEST = {"corpus": "guest programs, the objects ftv loads",
         "docs": "the manual's example module (docs/examples), built for the emulated CPUs"}
SOURCE_EXT = (".c", ".h", ".S", ".s")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_.-]+)/')


_SYMBOLS = {}


def load_symbols(objs):
    """Reads the symbol tables of many objects with one nm."""
    todo = [o for o in objs if o not in _SYMBOLS]
    for o in todo:
        _SYMBOLS[o] = (set(), set())
    if not todo:
        return
    out = subprocess.run(["nm", "-A"] + todo, stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    for line in out.splitlines():
        # "path:value type name", value blank for undefined symbols
        path, _, rest = line.partition(":")
        f = rest.split()
        if path not in _SYMBOLS or not f:
            continue
        if len(f) == 2 and f[0] == "U":
            _SYMBOLS[path][1].add(f[1])
        elif len(f) == 3 and f[1] in "TDBRGSVW":
            _SYMBOLS[path][0].add(f[2])


def symbols(obj):
    """(defined, used) symbol names of one object."""
    load_symbols([obj])
    return _SYMBOLS[obj]


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
    load_symbols(objs)
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


def rank_of():
    return {d: i for i, layer in enumerate(LAYERS) for d in layer}


def code_dirs(top):
    """Top-level directories holding C or assembly sources (at any depth)."""
    out = []
    for d in sorted(os.listdir(top)):
        path = os.path.join(top, d)
        if d.startswith(".") or d == "build" or not os.path.isdir(path):
            continue
        for _, _, files in os.walk(path):
            if any(f.endswith(SOURCE_EXT) for f in files):
                out.append(d)
                break
    return out


def include_uses(top, d):
    """(other directory, file, line) for every #include "other/..." under d."""
    for root, _, files in os.walk(os.path.join(top, d)):
        for f in sorted(files):
            if not f.endswith(SOURCE_EXT):
                continue
            path = os.path.join(root, f)
            with open(path, errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if m and m.group(1) != d:
                        yield m.group(1), os.path.relpath(path, top), n


def symbol_uses(top, build, dirs):
    """(user dir, used dir, object, symbol), one per pair of directories,
    from the built objects (none when nothing is built)."""
    info, owner, objs = {}, {}, []
    for d in dirs:
        for o in sorted(glob.glob(os.path.join(build, "obj", d, "*.o"))):
            # objects of sources since moved or deleted stay in a build tree
            if os.path.exists(os.path.join(top, d, os.path.basename(o)[:-2] + ".c")):
                objs.append((d, o))
    load_symbols([o for _, o in objs])
    for d, o in objs:
        info[o] = (d,) + symbols(o)
        for sym in info[o][1]:
            owner.setdefault(sym, d)
    seen = set()
    for o, (d, _, used) in sorted(info.items()):
        for sym in sorted(used):
            u = owner.get(sym)
            if u and u != d and (d, u) not in seen:
                seen.add((d, u))
                yield d, u, os.path.basename(o), sym


def check_layers(top, build):
    """Prints the layer table and every use against it; returns the number
    of problems."""
    rank, problems = rank_of(), []
    dirs = code_dirs(top)
    for d in dirs:
        if d not in rank and d not in GUEST:
            problems.append("%s/ holds code but is in no layer: add it to LAYERS in "
                            "tools/depgraph.py, above the directories it uses and "
                            "below those that use it" % d)

    def judge(user, used, where):
        if user not in rank or used not in rank:
            return
        if rank[used] >= rank[user]:
            problems.append("%s/ uses %s/ (%s), but %s is in layer %d and %s in "
                            "layer %d: a directory may use only lower layers"
                            % (user, used, where, user, rank[user], used, rank[used]))

    for d in dirs:
        seen = set()
        for used, path, n in include_uses(top, d):
            if used in seen:
                continue
            seen.add(used)
            judge(d, used, "%s:%d includes %s/" % (path, n, used))
    for user, used, obj, sym in symbol_uses(top, build, [d for d in dirs if d in rank]):
        judge(user, used, "%s refers to %s" % (obj, sym))
    print("layers: " + " < ".join(", ".join(l) for l in LAYERS))
    for p in problems:
        print("  LAYER: " + p)
    return len(problems)


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
    layer_problems = check_layers(a.top, a.build)
    print("%d layer problem(s)" % layer_problems if layer_problems else "layers kept")
    return 1 if a.check and (circles or layer_problems) else 0


if __name__ == "__main__":
    sys.exit(main())
