#!/usr/bin/python3
"""Seed corpora of the parser fuzz harnesses (tests/fuzz/fuzz_NAME.c) from
the project's own files, small: one input per shape, not every file.

  fuzz_seeds.py --top . --build build --out tests/fuzz/corpus [NAME...]

  encode_arm64    the GNU-as-checked vectors (build/vectors/a64_vectors.txt):
                  one accepted and one refused text per mnemonic and operand
                  shape, branch targets moved to the harness's pc
  encode_riscv64  the same from build/vectors/riscv.txt
  scenario        the conformance scenarios (corpus/scenarios/*.scn)
  elf             the smallest corpus object of each flag set, arm64 and
                  riscv64, the relocation tests, the module, and one
                  object compressed with xz, zstd and gzip (as kbuild does)
  litmus          the litmus tests, ftv's syntax (corpus/litmus/*.litmus,
                  riscv64/), herd7's (corpus/litmus/herd/) and the runner's
                  regressions (tests/data/litmus/)
  layout          the replay fixtures, a slice of the Debian kernel's layout
                  (every text section of vmlinux and of a few modules, sites
                  with unknown fields) and a capture of the test vmlinux
                  with the corpus module

Each corpus directory is emptied and refilled, so the seeds are a function
of the project's files; the regression corpora (tests/fuzz/regress/) are
never touched.
"""
import argparse
import glob
import gzip
import io
import lzma
import os
import re
import shutil
import subprocess
import sys

# the harnesses' fixed pcs (tests/fuzz/fuzz_encode_*.c)
A64_PC = 0xffff800080100000
RV_PC = 0xffffffff80100000
MASK = (1 << 64) - 1


def shape(text):
    """A mnemonic with its operands' kinds: registers, numbers, the rest."""
    t = re.sub(r"\b[xw](\d+|zr)\b", "R", text)
    t = re.sub(r"\b(sp|lr|fp|zero|ra|gp|tp|t[0-6]|s\d+|a[0-7])\b", "R", t)
    t = re.sub(r"-?(0x[0-9a-fA-F]+|\d+)\b", "N", t)
    return t


def retarget(text, vpc, pc, page):
    """Absolute targets (bare numbers; arm64 immediates have a '#') moved
    from the vector's pc to the harness's, so a branch stays in range."""
    def move(m):
        v = int(m.group(1), 16)
        base = vpc & ~0xfff if page else vpc
        return "0x%x" % ((v - base + pc) & MASK)
    return re.sub(r"(?<![#\w])0x([0-9a-fA-F]+)\b", move, text)


def safe(name):
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", name)[:40]


def encode_seeds(vectors, valid_re, invalid_re, pc, per_shape=1, targets=None):
    seeds, seen = [], {}
    for line in open(vectors):
        for kind, rx in (("ok", valid_re), ("bad", invalid_re)):
            m = rx.match(line.rstrip("\n"))
            if not m:
                continue
            vpc, text = int(m.group("pc"), 16), m.group("text").strip()
            mnem = text.split()[0]
            if targets is None or mnem in targets:
                text = retarget(text, vpc, pc, mnem == "adrp")
            key = (kind, shape(text))
            if seen.get(key, 0) >= per_shape:
                continue
            seen[key] = seen.get(key, 0) + 1
            seeds.append(("%s-%s-%03d" % (safe(mnem), kind, len(seeds)), text.encode()))
    return seeds


def seeds_encode_arm64(top, build):
    return encode_seeds(os.path.join(build, "vectors/a64_vectors.txt"),
                        re.compile(r"^V (?P<pc>0x[0-9a-f]+) 0x[0-9a-f]+ (?P<text>.*)$"),
                        re.compile(r"^I (?P<pc>0x[0-9a-f]+) (?P<text>.*)$"), A64_PC)


def seeds_encode_riscv64(top, build):
    return encode_seeds(os.path.join(build, "vectors/riscv.txt"),
                        re.compile(r"^V\t(?P<pc>[0-9a-f]+)\t[0-9a-f]+\t\d+\t(?P<text>.*)$"),
                        re.compile(r"^I\t(?P<pc>[0-9a-f]+)\t(?P<text>.*)$"), RV_PC,
                        per_shape=2, targets={"jal"})


def seeds_litmus(top, build):
    out = []
    for sub, prefix in (("", ""), ("riscv64/", "riscv64-"), ("herd/", "herd-")):
        out += [(prefix + os.path.basename(p), open(p, "rb").read())
                for p in sorted(glob.glob(os.path.join(top, "corpus/litmus", sub, "*.litmus")))]
    # the budget-bound three-thread shapes of issue 30 (the runner's crash)
    out += [("data-" + os.path.basename(p), open(p, "rb").read())
            for p in sorted(glob.glob(os.path.join(top, "tests/data/litmus/*.litmus")))]
    return out


def seeds_scenario(top, build):
    out = []
    for p in sorted(glob.glob(os.path.join(top, "corpus/scenarios/*.scn"))):
        out.append((os.path.basename(p), open(p, "rb").read()))
    return out


# build/corpus/<file>: one object per flag set (the smallest of each), the
# relocation tests and the module
ELF_SEEDS = ["args/klib.o", "callops/klib.o", "callops-bti/klib.o", "callops-pac/klib.o",
             "callops-os/klib.o", "mcount/klib.o", "cold/cold.o", "debug/list.o",
             "rv64/klib.o", "rv64-norvc/klib.o", "asm/relocs.o", "asm-riscv/relocs.o",
             "asm-riscv/abs.o", "mod/corpmod.ko"]
# loaded as modules: the harness takes an input of odd length as a module,
# so these get one byte of padding after the ELF data
ELF_MODULES = ["mod/corpmod.ko", "rv64/klib.o", "callops-pac/klib.o"]
# compressed as kbuild compresses modules (xz --check=crc32, zstd, gzip)
ELF_COMPRESSED = ["callops/klib.o", "rv64/klib.o"]


def seeds_elf(top, build):
    out = []
    for rel in ELF_SEEDS:
        data = open(os.path.join(build, "corpus", rel), "rb").read()
        out.append((safe(rel.replace("/", "-")), data))
    for rel in ELF_MODULES:
        data = open(os.path.join(build, "corpus", rel), "rb").read()
        if len(data) % 2 == 0:
            data += b"\0"
        out.append((safe(rel.replace("/", "-")) + "-as-module", data))
    for rel in ELF_COMPRESSED:
        data = open(os.path.join(build, "corpus", rel), "rb").read()
        name = safe(rel.replace("/", "-"))
        out.append((name + ".xz", lzma.compress(data, check=lzma.CHECK_CRC32)))
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as g:
            g.write(data)
        out.append((name + ".gz", buf.getvalue()))
        z = subprocess.run(["zstd", "-q", "-c", "-19"], input=data, stdout=subprocess.PIPE,
                           check=True).stdout
        out.append((name + ".zst", z))
    return out


def debian_slice(top):
    """The Debian layout's header, its first site in every text section of
    vmlinux, its sites with a field it does not know ('-'), and the first
    sites of a few modules in each of their text sections, with those
    modules' own header lines; the site count fixed to match."""
    path = os.path.join(top, "corpus/layouts/debian-trixie-arm64-6.12.107-cloud.layout.xz")
    lines = lzma.open(path, "rt").read().splitlines()
    head = [l for l in lines if l.startswith("#")]
    sites = [l for l in lines if not l.startswith("#")]
    mods = ["vmlinux"] + SLICE_MODULES

    def owner(where):  # "xfs/.text" -> "xfs"
        return where.split("/")[0]

    texts = [l for l in head if l.startswith("# text: ") and owner(l.split()[4]) in mods]
    keep = []
    for t in texts:
        w = t.split()
        lo, hi, where = int(w[2], 16), int(w[3], 16), w[4]
        for l in sites:
            f = l.split()
            a = f[0] if f[0] != "-" else f[1]
            if f[5] in (where, owner(where)) and a != "-" and lo <= int(a, 16) < hi:
                keep.append(l)
                break
    keep += [l for l in sites if " - " in l and l.split()[5] == "vmlinux"][:4]
    keep = sorted(set(keep), key=sites.index)
    out = []
    for l in head:
        if l.startswith("# sites: "):
            l = "# sites: %d" % len(keep)
        elif l.startswith("# source: "):
            l = "; ".join(l.split("; ")[:3])  # free text, 100 KB of it
        elif l.startswith("# module: ") and l.split()[2] not in mods:
            continue
        elif l.startswith("# text: ") and l not in texts:
            continue
        out.append(l)
    return ("\n".join(out + keep) + "\n").encode()


# modules of the Debian layout the slice keeps: small ones, and one with
# .init.text and .text.unlikely
SLICE_MODULES = ["crc32_generic", "crc7", "xfs"]


def seeds_layout(top, build):
    out = [(name, open(os.path.join(top, "tests/data", name), "rb").read())
           for name in ("replay-fixture.layout", "replay-modules.layout")]
    out.append(("debian-slice.layout", debian_slice(top)))
    tmp = os.path.join(build, "fuzz-seeds-capture.layout")
    subprocess.run([os.path.join(build, "ftv"), "capture", "-o", tmp,
                    os.path.join(build, "capture/vmlinux-rela"),
                    os.path.join(build, "corpus/mod/corpmod.ko")],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out.append(("capture-vmlinux-corpmod.layout", open(tmp, "rb").read()))
    os.unlink(tmp)
    return out


SEEDS = {
    "elf": seeds_elf,
    "layout": seeds_layout,
    "litmus": seeds_litmus,
    "encode_arm64": seeds_encode_arm64,
    "encode_riscv64": seeds_encode_riscv64,
    "scenario": seeds_scenario,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    for name in a.names or sorted(SEEDS):
        if name not in SEEDS:
            sys.exit("fuzz_seeds.py: no seeds for harness '%s' (%s)" %
                     (name, ", ".join(sorted(SEEDS))))
        seeds = SEEDS[name](a.top, a.build)
        d = os.path.join(a.out, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        total = 0
        for fname, data in seeds:
            with open(os.path.join(d, fname), "wb") as f:
                f.write(data)
            total += len(data)
        print("fuzz_seeds: %s: %d seeds, %d bytes" % (name, len(seeds), total))


if __name__ == "__main__":
    main()
