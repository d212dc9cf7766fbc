#!/usr/bin/python3
"""The generated comparison set (issue 30): litmus tests ftv was not tuned
on, written from herdtools7's own inputs into a build directory (they are
herdtools7's text: never committed; tests/data/herd-generated.txt keeps
herd7's verdicts for them).

    tools/herd_generated.py --out build/herd-generated \\
        --diy HERD_SRC/_build/default/gen/diy.exe --diy-libdir HERD_SRC/gen/libdir \\
        --catalogue CAT/catalogue/aarch64-ifetch/tests [--sample 250] [--seed 1]

writes two folders:

  OUT/diy7/      what diy7 generates from herdtools7's configuration of
                 instruction-fetch relaxations, gen/libdir/forbidden_ifetch.conf
                 (-variant self: RfePI, FreIP, PodWRPI..., DC.CVAU/IC.IVAU
                 fences, addr/ctrl dependencies into a fetch; diy7 is
                 deterministic: 269 tests from herdtools7 7.58);
  OUT/catalogue/ --sample variants of the catalogue's own tests (its three
                 DIC/IDC folders and the tests beside them), drawn with
                 --seed by tools/herd_variants.py: a barrier or cache
                 maintenance instruction removed, replaced or swapped with
                 its neighbour, the CacheType changed, a writer added.

then compare them with tools/herd_compare.py (--herd to run herd7, or
--verdicts tests/data/herd-generated.txt without it):

    tools/herd_compare.py --verdicts tests/data/herd-generated.txt \\
        build/herd-generated/diy7 build/herd-generated/catalogue

Prints what it wrote. Exit 2 when an input is missing.
"""
import argparse
import os
import shutil
import subprocess
import sys

CONF = "forbidden_ifetch.conf"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--diy", required=True, help="herdtools7's diy7 binary")
    ap.add_argument("--diy-libdir", required=True, help="herdtools7's gen/libdir (has %s)" % CONF)
    ap.add_argument("--catalogue", required=True,
                    help="herdtools7's catalogue/aarch64-ifetch/tests")
    ap.add_argument("--sample", type=int, default=250)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    conf = os.path.join(args.diy_libdir, CONF)
    for p in (args.diy, conf, args.catalogue):
        if not os.path.exists(p):
            print("herd_generated.py: %s: not found" % p, file=sys.stderr)
            return 2
    diy_out = os.path.join(args.out, "diy7")
    cat_out = os.path.join(args.out, "catalogue")
    for d in (diy_out, cat_out):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    p = subprocess.run([os.path.abspath(args.diy), "-set-libdir", os.path.abspath(args.diy_libdir),
                        "-conf", os.path.abspath(conf)], cwd=diy_out, capture_output=True,
                       text=True)
    if p.returncode:
        print("herd_generated.py: diy7: %s" % (p.stderr or p.stdout).strip()[:300],
              file=sys.stderr)
        return 2
    ndiy = sum(f.endswith(".litmus") for f in os.listdir(diy_out))
    print("diy7 (-conf %s): %d tests in %s" % (CONF, ndiy, diy_out))
    folders = sorted(os.path.join(args.catalogue, d) for d in os.listdir(args.catalogue)
                     if os.path.isdir(os.path.join(args.catalogue, d)))
    here = os.path.dirname(os.path.abspath(__file__))
    p = subprocess.run([sys.executable, os.path.join(here, "herd_variants.py"), "--out", cat_out,
                        "--sample", str(args.sample), "--seed", str(args.seed)] +
                       folders + [args.catalogue], capture_output=True, text=True)
    if p.returncode:
        print("herd_generated.py: herd_variants.py: %s" % p.stderr.strip()[:300],
              file=sys.stderr)
        return 2
    print("catalogue variants (%s): %s" % (cat_out, p.stdout.strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
