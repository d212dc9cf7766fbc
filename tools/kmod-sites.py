#!/usr/bin/env python3
"""Loads every kernel module under a directory with `ftv load --json` and
checks, per module, that ftv found exactly as many patch sites as the
module's __patchable_function_entries has entries, counted independently
here with pyelftools. Prints one line per disagreement and a summary line
"N passed, N failed"; exit 0 only when every module loads and agrees.

    kmod-sites.py FTV MODULE_DIR [--jobs N]
"""
import io
import json
import lzma
import os
import subprocess
import sys
from multiprocessing import Pool

from elftools.elf.elffile import ELFFile

FTV = None


def count_entries(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".xz"):
        data = lzma.decompress(data)
    elf = ELFFile(io.BytesIO(data))
    sec = elf.get_section_by_name("__patchable_function_entries")
    if sec is None:
        return 0
    return sec["sh_size"] // 8


def check(path):
    expected = count_entries(path)
    proc = subprocess.run([FTV, "load", "--json", "--stub-undefined", path],
                          capture_output=True, text=True)
    name = os.path.basename(path)
    if proc.returncode != 0:
        err = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
        return name, expected, None, "exit %d: %s" % (proc.returncode, err)
    try:
        got = len(json.loads(proc.stdout)["sites"])
    except (ValueError, KeyError) as e:
        return name, expected, None, "bad JSON from ftv load: %s" % e
    return name, expected, got, None


def main():
    global FTV
    args = sys.argv[1:]
    jobs = os.cpu_count() or 1
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    FTV, root = args
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
                   if f.endswith((".ko", ".ko.xz")))
    if not paths:
        print("kmod-sites: no modules under %s" % root, file=sys.stderr)
        return 2
    ok = bad = sites = 0
    with Pool(jobs) as pool:
        for name, expected, got, err in pool.imap(check, paths, chunksize=8):
            if err is None and got == expected:
                ok += 1
                sites += got
                continue
            bad += 1
            print("%s: %s" % (name, err or "ftv found %d sites, __patchable_function_entries has %d"
                              % (got, expected)))
    print("kmod-sites: %d modules, %d patch sites" % (len(paths), sites))
    print("%d passed, %d failed" % (ok, bad))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
