#!/usr/bin/python3
"""Generate arm64 encoder test vectors, with GNU as as the reference.

Every encoder ftv has gets vectors over its whole immediate range: both
edges, one past each edge (invalid), and seeded random values in between.
Valid vectors are assembled by aarch64-linux-gnu-as in one file and linked
by ld (which resolves ADRP page offsets); the words are read back with
pyelftools. Invalid vectors go to a second file, in which GNU as must
reject every line (ADRP ranges are checked by ld instead, in a third).

Output, one vector a line (the C test tests/test_a64_vectors.c reads it):
    V <pc> <word> <text>      GNU as encodes <text> at <pc> to <word>
    I <pc> <text>             GNU as rejects <text> at <pc>
Targets in <text> are absolute addresses (as objdump prints them); GNU as
gets the same target written as '. + offset' so it resolves it itself.

Deterministic: a fixed seed; the same inputs give the same file.
"""
import argparse
import os
import random
import re
import subprocess
import sys

from elftools.elf.elffile import ELFFile

SEED = 0x5EED0A64
KIB = 1 << 10
MIB = 1 << 20
GIB = 1 << 30

CONDS = ["eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc",
         "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"]
BARRIERS = {1: "oshld", 2: "oshst", 3: "osh", 5: "nshld", 6: "nshst",
            7: "nsh", 9: "ishld", 10: "ishst", 11: "ish", 13: "ld",
            14: "st", 15: "sy"}


class Vectors:
    """Collects vectors. A pc-relative vector carries its byte offset; its
    pc is chosen at layout time."""

    def __init__(self, rng):
        self.rng = rng
        self.valid = []    # (template, offset or None)
        self.invalid = []  # (template, offset or None), rejected by as
        self.invalid_ld = []  # adrp templates + offsets, rejected by ld

    def ok(self, text, off=None):
        self.valid.append((text, off))

    def bad(self, text, off=None):
        self.invalid.append((text, off))

    # -- registers ---------------------------------------------------------
    def xr(self, zr=False, sp=False):
        n = self.rng.randrange(32 if (zr or sp) else 31)
        if n == 31:
            return "xzr" if zr else "sp"
        return "x%d" % n

    def wr(self, zr=False, sp=False):
        n = self.rng.randrange(32 if (zr or sp) else 31)
        if n == 31:
            return "wzr" if zr else "wsp"
        return "w%d" % n

    def r(self, is64, zr=False, sp=False):
        return self.xr(zr, sp) if is64 else self.wr(zr, sp)

    def spread(self, lo, hi, step, n):
        """Both edges, their neighbours inside, and n random values."""
        vals = {lo, hi, lo + step, hi - step, 0 if lo <= 0 <= hi else lo}
        for _ in range(n):
            vals.add(lo + self.rng.randrange((hi - lo) // step + 1) * step)
        return sorted(v for v in vals if lo <= v <= hi)


def pcrel(v, fmt, lo, hi, align, n):
    """Valid offsets in [lo, hi] (multiples of align), the two just outside,
    and a misaligned one."""
    for off in v.spread(lo, hi, align, n):
        v.ok(fmt(), off)
    v.bad(fmt(), lo - align)
    v.bad(fmt(), hi + align)
    # and a few further out, up to 8 times the range
    for _ in range(3):
        far = v.rng.randrange(hi + align, 8 * hi) // align * align
        v.bad(fmt(), far if v.rng.random() < 0.5 else -far)
    if align > 1:
        v.bad(fmt(), v.rng.randrange(lo // align, hi // align) * align + 2)


def gen_branches(v):
    for m in ("b", "bl"):
        pcrel(v, lambda: m + " {t}", -128 * MIB, 128 * MIB - 4, 4, 250)
    for c in CONDS:
        pcrel(v, lambda: "b.%s {t}" % c, -MIB, MIB - 4, 4, 50)
    for m in ("cbz", "cbnz"):
        for is64 in (True, False):
            pcrel(v, lambda: "%s %s, {t}" % (m, v.r(is64, zr=True)),
                  -MIB, MIB - 4, 4, 100)
    for m in ("tbz", "tbnz"):
        for bit in range(64):
            is64 = bit >= 32 or v.rng.random() < 0.3
            v.ok("%s %s, #%d, {t}" % (m, v.r(is64, zr=True), bit),
                 v.rng.randrange(-8 * KIB, 8 * KIB) * 4)
        pcrel(v, lambda: "%s %s, #%d, {t}" % (m, v.xr(), v.rng.randrange(64)),
              -32 * KIB, 32 * KIB - 4, 4, 80)
        v.bad("%s w1, #32, {t}" % m, 0)
        v.bad("%s x1, #64, {t}" % m, 0)
    for is64 in (True, False):
        pcrel(v, lambda: "ldr %s, {t}" % v.r(is64, zr=True), -MIB, MIB - 4, 4, 100)
    pcrel(v, lambda: "adr %s, {t}" % v.xr(zr=True), -MIB, MIB - 1, 1, 150)
    # ADRP: offsets in pages; the target's low 12 bits are irrelevant
    # ADRP: offsets in pages from the pc's page, and any byte in the target
    # page: the offset is (pages, byte) until the pc is known
    for pages in v.spread(-MIB, MIB - 1, 1, 200):
        v.ok("adrp %s, {t}" % v.xr(zr=True), (pages, v.rng.randrange(4096)))
    for pages in (-MIB - 1, MIB, MIB + 77, -MIB - 1000, 3 * MIB, -5 * MIB):
        v.invalid_ld.append(("adrp %s, {t}" % v.xr(), (pages, v.rng.randrange(4096))))


def gen_system(v):
    for t in ("nop", "bti", "bti c", "bti j", "bti jc", "paciasp", "autiasp",
              "pacibsp", "autibsp", "isb", "isb sy", "ret"):
        v.ok(t)
    for n in range(128):
        v.ok("hint #%d" % n)
    v.bad("hint #128")
    v.bad("bti x")
    for n in range(16):
        v.ok("isb #%d" % n)
        v.ok("dmb #%d" % n)
        if n not in (0, 4):  # DSB #0/#4 are SSBB/PSSBB
            v.ok("dsb #%d" % n)
    for name in BARRIERS.values():
        v.ok("dsb " + name)
        v.ok("dmb " + name)
    v.bad("dsb #16")
    v.bad("dmb ishx")
    v.bad("isb #16")
    for m in ("svc", "hvc", "smc", "brk"):
        for n in v.spread(0, 0xFFFF, 1, 40):
            v.ok("%s #%#x" % (m, n))
        v.bad("%s #0x10000" % m)
        v.bad("%s #-1" % m)
    for n in range(31):
        v.ok("br x%d" % n)
        v.ok("blr x%d" % n)
        v.ok("ret x%d" % n)
        v.ok("dc cvau, x%d" % n)
        v.ok("dc cvac, x%d" % n)
        v.ok("dc civac, x%d" % n)
        v.ok("ic ivau, x%d" % n)
    v.ok("dc cvau, xzr")
    v.ok("dc cvac, xzr")
    v.ok("dc civac, xzr")
    v.bad("dc civac, w0")
    v.bad("br w1")
    v.bad("br sp")
    v.bad("dc cvau, w0")
    v.bad("ret x31")


def gen_moves(v):
    for _ in range(120):
        is64 = v.rng.random() < 0.6
        v.ok("mov %s, %s" % (v.r(is64, zr=True), v.r(is64, zr=True)))
    v.ok("mov x9, x30")
    v.ok("mov x9, lr")
    v.ok("mov sp, x0")
    v.ok("mov x1, sp")
    v.ok("mov wsp, w3")
    v.bad("mov x0, w1")
    v.bad("mov x32, x1")
    for m in ("movz", "movk", "movn"):
        for is64, shifts in ((True, (0, 16, 32, 48)), (False, (0, 16))):
            for sh in shifts:
                for imm in v.spread(0, 0xFFFF, 1, 25):
                    v.ok("%s %s, #%#x, lsl #%d" % (m, v.r(is64, zr=True), imm, sh))
            v.ok("%s %s, #0x1234" % (m, v.r(is64)))
            v.bad("%s %s, #0x10000" % (m, v.r(is64)))
            v.bad("%s %s, #1, lsl #8" % (m, v.r(is64)))
        v.bad("%s w0, #1, lsl #32" % m)
    # MOV (wide immediate): values MOVZ or MOVN can make
    for _ in range(150):
        is64 = v.rng.random() < 0.6
        sh = v.rng.choice((0, 16, 32, 48) if is64 else (0, 16))
        val = v.rng.randrange(0x10000) << sh
        if v.rng.random() < 0.5:
            val = ~val & ((1 << (64 if is64 else 32)) - 1)
        v.ok("mov %s, #%#x" % (v.r(is64), val))
    v.bad("mov x0, #0x12345")
    v.bad("mov w0, #0x100000000")


def gen_arith(v):
    for m in ("add", "sub"):
        for is64 in (True, False):
            for sh in (0, 12):
                for imm in v.spread(0, 4095, 1, 60):
                    v.ok("%s %s, %s, #%d%s" % (m, v.r(is64, sp=True), v.r(is64, sp=True),
                                               imm, ", lsl #12" if sh else ""))
            v.ok("%s %s, %s, #%d" % (m, v.r(is64), v.r(is64), -v.rng.randrange(1, 4096)))
            v.ok("%s %s, %s, #%d" % (m, v.r(is64), v.r(is64), 4096 * v.rng.randrange(1, 4096)))
            v.bad("%s %s, %s, #4097" % (m, v.r(is64), v.r(is64)))
            v.bad("%s %s, %s, #4096, lsl #12" % (m, v.r(is64), v.r(is64)))
            v.bad("%s %s, %s, #1, lsl #8" % (m, v.r(is64), v.r(is64)))
        v.bad("%s x0, w1, #1" % m)


def bitmask_values(size):
    """Every logical immediate of a size-bit register (Arm ARM
    DecodeBitMasks, enumerated)."""
    out = set()
    e = 2
    while e <= size:
        for s in range(1, e):
            elem = (1 << s) - 1
            for r in range(e):
                rot = ((elem >> r) | (elem << (e - r))) & ((1 << e) - 1)
                val = 0
                for i in range(0, size, e):
                    val |= rot << i
                out.add(val)
        e *= 2
    return sorted(out)


def gen_logic(v):
    for is64, size in ((True, 64), (False, 32)):
        vals = bitmask_values(size)
        picks = set(vals[:5] + vals[-5:]) | set(v.rng.sample(vals, 150))
        for val in sorted(picks):
            v.ok("and %s, %s, #%#x" % (v.r(is64, sp=True), v.r(is64, zr=True), val))
        for val in v.rng.sample(vals, 60):
            inv = ~val & ((1 << size) - 1)
            v.ok("bic %s, %s, #%#x" % (v.r(is64, sp=True), v.r(is64, zr=True), inv))
        v.bad("and %s, %s, #0" % (v.r(is64), v.r(is64)))
        v.bad("and %s, %s, #%#x" % (v.r(is64), v.r(is64), (1 << size) - 1))
        v.bad("and %s, %s, #5" % (v.r(is64), v.r(is64)))
        v.bad("bic %s, %s, #0" % (v.r(is64), v.r(is64)))
    v.ok("and x11, x30, #~7")
    v.ok("bic x11, x30, #7")
    v.bad("and w0, w1, #0x100000000")


def gen_mem(v):
    for m in ("ldr", "str"):
        for is64, scale in ((True, 8), (False, 4)):
            for off in v.spread(0, 4095 * scale, scale, 60):
                v.ok("%s %s, [%s, #%d]" % (m, v.r(is64, zr=True), v.xr(sp=True), off))
            v.ok("%s %s, [%s]" % (m, v.r(is64, zr=True), v.xr(sp=True)))
            # unscaled offsets: GNU as picks LDUR/STUR
            for off in v.spread(-256, 255, 1, 30):
                v.ok("%s %s, [%s, #%d]" % (m, v.r(is64, zr=True), v.xr(sp=True), off))
            v.bad("%s %s, [%s, #%d]" % (m, v.r(is64), v.xr(), 4096 * scale))
            v.bad("%s %s, [%s, #-257]" % (m, v.r(is64), v.xr()))
            v.bad("%s %s, [%s, #%d]" % (m, v.r(is64), v.xr(), 256 + scale // 2))
        v.bad("%s x0, [w1]" % m)
    for m in ("ldur", "stur"):
        for is64 in (True, False):
            for off in v.spread(-256, 255, 1, 40):
                v.ok("%s %s, [%s, #%d]" % (m, v.r(is64, zr=True), v.xr(sp=True), off))
            v.bad("%s %s, [%s, #256]" % (m, v.r(is64), v.xr()))
            v.bad("%s %s, [%s, #-257]" % (m, v.r(is64), v.xr()))
    v.ok("ldr x11, [x11, #-16]")


def gen_arith_more(v):
    """ADDS/SUBS (immediate) with CMP/CMN, ADD/SUB/EOR (shifted register)
    with NEG, EOR (immediate). Drawn from their own stream so that the
    vectors above keep their values."""
    saved, v.rng = v.rng, random.Random(SEED + 1)
    for m in ("adds", "subs"):
        for is64 in (True, False):
            for sh in (0, 12):
                for imm in v.spread(0, 4095, 1, 25):
                    v.ok("%s %s, %s, #%d%s" % (m, v.r(is64, zr=True), v.r(is64, sp=True),
                                               imm, ", lsl #12" if sh else ""))
            v.ok("%s %s, %s, #%d" % (m, v.r(is64), v.r(is64), -v.rng.randrange(1, 4096)))
            v.bad("%s %s, %s, #4096, lsl #12" % (m, v.r(is64), v.r(is64)))
            v.bad("%s %s, %s, #1" % (m, "sp" if is64 else "wsp", v.r(is64)))
    for m in ("cmp", "cmn"):
        for is64 in (True, False):
            for imm in v.spread(0, 4095, 1, 15):
                v.ok("%s %s, #%d" % (m, v.r(is64, sp=True), imm))
            v.ok("%s %s, #%d, lsl #12" % (m, v.r(is64, sp=True), v.rng.randrange(4096)))
            v.ok("%s %s, #%d" % (m, v.r(is64), -v.rng.randrange(1, 4096)))
            v.bad("%s %s, #4097" % (m, v.r(is64)))
    shifts = ("lsl", "lsr", "asr")
    for m in ("add", "sub", "eor"):
        for is64, width in ((True, 64), (False, 32)):
            for _ in range(40):
                v.ok("%s %s, %s, %s" % (m, v.r(is64, zr=True), v.r(is64, zr=True),
                                        v.r(is64, zr=True)))
            for sh in shifts + (("ror",) if m == "eor" else ()):
                for amt in v.spread(0, width - 1, 1, 6):
                    v.ok("%s %s, %s, %s, %s #%d" % (m, v.r(is64, zr=True), v.r(is64, zr=True),
                                                    v.r(is64, zr=True), sh, amt))
                v.bad("%s %s, %s, %s, %s #%d" % (m, v.r(is64), v.r(is64), v.r(is64), sh,
                                                 width))
            if m != "eor":
                v.bad("%s %s, %s, %s, ror #1" % (m, v.r(is64), v.r(is64), v.r(is64)))
        v.bad("%s x0, x1, w2" % m)
    for is64, width in ((True, 64), (False, 32)):
        for _ in range(30):
            v.ok("neg %s, %s" % (v.r(is64, zr=True), v.r(is64, zr=True)))
        for sh in shifts:
            v.ok("neg %s, %s, %s #%d" % (v.r(is64), v.r(is64), sh, v.rng.randrange(width)))
        v.bad("neg %s, %s, lsl #%d" % (v.r(is64), v.r(is64), width))
    for is64, size in ((True, 64), (False, 32)):
        vals = bitmask_values(size)
        for val in sorted(set(vals[:3] + vals[-3:]) | set(v.rng.sample(vals, 80))):
            v.ok("eor %s, %s, #%#x" % (v.r(is64, sp=True), v.r(is64, zr=True), val))
        v.bad("eor %s, %s, #0" % (v.r(is64), v.r(is64)))
        v.bad("eor %s, %s, #5" % (v.r(is64), v.r(is64)))
    v.rng = saved


def gen_ordered(v):
    """STLR and LDAR (herd's MP+rel+blr): Rt, [Xn|SP] with no offset or
    #0. Their own stream, so that the vectors above keep their values."""
    saved, v.rng = v.rng, random.Random(SEED + 3)
    for m in ("stlr", "ldar"):
        for is64 in (True, False):
            for _ in range(20):
                v.ok("%s %s, [%s]" % (m, v.r(is64, zr=True), v.xr(sp=True)))
            v.ok("%s %s, [%s, #0]" % (m, v.r(is64), v.xr()))
            v.bad("%s %s, [%s, #8]" % (m, v.r(is64), v.xr()))
        v.bad("%s x0, [w1]" % m)
    v.rng = saved


def gen_litmus_needs(v):
    """What herd's ifetch catalogue uses beyond the above: AND, ADDS, SUBS
    (shifted register) with CMP/CMN/NEGS, CSEL/CSINC with CSET/CINC, LDR/STR
    (register offset), UDF, IC IALLU, ERET, MSR ELR_EL1. Their own stream,
    so that the vectors above keep their values."""
    saved, v.rng = v.rng, random.Random(SEED + 2)
    shifts = ("lsl", "lsr", "asr")
    for m in ("and", "adds", "subs"):
        for is64, width in ((True, 64), (False, 32)):
            for _ in range(30):
                v.ok("%s %s, %s, %s" % (m, v.r(is64, zr=True), v.r(is64, zr=True),
                                        v.r(is64, zr=True)))
            for sh in shifts + (("ror",) if m == "and" else ()):
                for amt in v.spread(0, width - 1, 1, 4):
                    v.ok("%s %s, %s, %s, %s #%d" % (m, v.r(is64, zr=True), v.r(is64, zr=True),
                                                    v.r(is64, zr=True), sh, amt))
                v.bad("%s %s, %s, %s, %s #%d" % (m, v.r(is64), v.r(is64), v.r(is64), sh,
                                                 width))
            if m != "and":
                v.bad("%s %s, %s, %s, ror #1" % (m, v.r(is64), v.r(is64), v.r(is64)))
        v.bad("%s x0, x1, w2" % m)
    for m in ("cmp", "cmn", "negs"):
        for is64, width in ((True, 64), (False, 32)):
            for _ in range(20):
                v.ok("%s %s, %s" % (m, v.r(is64, zr=True), v.r(is64, zr=True)))
            for sh in shifts:
                v.ok("%s %s, %s, %s #%d" % (m, v.r(is64), v.r(is64), sh,
                                            v.rng.randrange(width)))
            v.bad("%s %s, %s, lsl #%d" % (m, v.r(is64), v.r(is64), width))
    for is64 in (True, False):
        for c in CONDS:
            v.ok("csel %s, %s, %s, %s" % (v.r(is64, zr=True), v.r(is64, zr=True),
                                          v.r(is64, zr=True), c))
            v.ok("csinc %s, %s, %s, %s" % (v.r(is64, zr=True), v.r(is64, zr=True),
                                           v.r(is64, zr=True), c))
            if c not in ("al", "nv"):
                v.ok("cset %s, %s" % (v.r(is64, zr=True), c))
                v.ok("cinc %s, %s, %s" % (v.r(is64, zr=True), v.r(is64, zr=True), c))
        v.bad("cset %s, al" % v.r(is64))
        v.bad("csel %s, %s, %s, xx" % (v.r(is64), v.r(is64), v.r(is64)))
    v.bad("csel x0, x1, w2, eq")
    for m in ("ldr", "str"):
        for is64, amt in ((True, 3), (False, 2)):
            for _ in range(8):
                rt, rn = v.r(is64, zr=True), v.xr(sp=True)
                v.ok("%s %s, [%s, %s]" % (m, rt, rn, v.xr(zr=True)))
                v.ok("%s %s, [%s, %s, lsl #%d]" % (m, rt, rn, v.xr(zr=True), amt))
                v.ok("%s %s, [%s, %s, sxtx]" % (m, rt, rn, v.xr(zr=True)))
                v.ok("%s %s, [%s, %s, sxtx #%d]" % (m, rt, rn, v.xr(zr=True), amt))
                for ext in ("uxtw", "sxtw"):
                    v.ok("%s %s, [%s, %s, %s]" % (m, rt, rn, v.wr(zr=True), ext))
                    v.ok("%s %s, [%s, %s, %s #%d]" % (m, rt, rn, v.wr(zr=True), ext, amt))
            v.bad("%s %s, [x1, x2, lsl #1]" % (m, v.r(is64)))
            v.bad("%s %s, [x1, w2, sxtx]" % (m, v.r(is64)))
            v.bad("%s %s, [x1, x2, uxtw]" % (m, v.r(is64)))
    for n in v.spread(0, 0xFFFF, 1, 40):
        v.ok("udf #%d" % n)
    v.bad("udf #0x10000")
    v.ok("ic iallu")
    v.ok("eret")
    for n in range(31):
        v.ok("msr elr_el1, x%d" % n)
    v.ok("msr elr_el1, xzr")
    v.bad("msr elr_el1, w0")
    v.rng = saved


def gas_target(off):
    return ". + %d" % off if off >= 0 else ". - %d" % -off


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--cross", default="aarch64-linux-gnu-")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = random.Random(SEED)
    v = Vectors(rng)
    gen_branches(v)
    gen_system(v)
    gen_moves(v)
    gen_arith(v)
    gen_logic(v)
    gen_mem(v)
    gen_arith_more(v)
    gen_litmus_needs(v)
    gen_ordered(v)

    def place(vecs, fname):
        """Writes vecs one per 4-byte slot from offset 0 of a 4 KiB-aligned
        .text; returns [(pc, ftv_text)]. The pc of slot O is a random high
        part with O's low 12 bits, so ADRP's page arithmetic matches."""
        out, lines = [], [".text", ".balign 4096"]
        for i, (tmpl, off) in enumerate(vecs):
            pc = (rng.randrange(1 << 21, 1 << 35) << 12) | ((4 * i) & 0xFFF)
            if isinstance(off, tuple):  # ADRP (pages, byte in target page)
                off = off[0] * 4096 + off[1] - (pc & 0xFFF)
            if off is None:
                ftv, gas = tmpl, tmpl
            else:
                ftv = tmpl.format(t="%#x" % (pc + off))
                gas = tmpl.format(t=gas_target(off))
            out.append((pc, ftv))
            lines.append(gas)
        with open(os.path.join(args.workdir, fname), "w") as f:
            f.write("\n".join(lines) + "\n")
        return out

    wd = args.workdir
    good = place(v.valid, "good.s")
    bad = place(v.invalid, "bad.s")
    bad_ld = place(v.invalid_ld, "bad_ld.s")
    asm, ld = args.cross + "as", args.cross + "ld"

    # valid: as and ld must succeed, silently
    r = run([asm, "-o", wd + "/good.o", wd + "/good.s"])
    if r.returncode or r.stderr:
        sys.exit("gen_vectors_a64: GNU as rejected valid vectors:\n" + r.stderr[:3000])
    r = run([ld, "-Ttext=0", "-e", "0", "-o", wd + "/good.elf", wd + "/good.o"])
    if r.returncode:
        sys.exit("gen_vectors_a64: ld failed on valid vectors:\n" + r.stderr[:3000])
    with open(wd + "/good.elf", "rb") as f:
        elf = ELFFile(f)
        text = elf.get_section_by_name(".text")
        if text["sh_addr"] != 0:
            sys.exit("gen_vectors_a64: .text not at 0")
        data = text.data()
    if len(data) != 4 * len(good):
        sys.exit("gen_vectors_a64: %d bytes for %d vectors" % (len(data), len(good)))

    # invalid: every line must draw an error from as
    r = run([asm, "-o", wd + "/bad.o", wd + "/bad.s"])
    errlines = {int(m) for m in re.findall(r"bad\.s:(\d+): Error:", r.stderr)}
    missed = [b[1] for i, b in enumerate(bad) if i + 3 not in errlines]
    if missed:
        sys.exit("gen_vectors_a64: GNU as accepted invalid vectors: %s" % missed[:10])
    # invalid ADRP: as leaves a relocation, ld must refuse each one
    r = run([asm, "-o", wd + "/bad_ld.o", wd + "/bad_ld.s"])
    if r.returncode:
        sys.exit("gen_vectors_a64: as failed on bad_ld.s:\n" + r.stderr[:3000])
    r = run([ld, "-Ttext=0", "-e", "0", "-o", wd + "/bad_ld.elf", wd + "/bad_ld.o"])
    offs = {int(m, 16) for m in
            re.findall(r"\(\.text\+0x([0-9a-f]+)\): relocation truncated", r.stderr)}
    missed = [b[1] for i, b in enumerate(bad_ld) if 4 * i not in offs]
    if missed:
        sys.exit("gen_vectors_a64: ld accepted invalid vectors: %s" % missed)

    with open(args.out + ".tmp", "w") as f:
        f.write("# arm64 vectors from tools/gen_vectors_a64.py (seed %#x); "
                "%d valid, %d invalid\n" % (SEED, len(good), len(bad) + len(bad_ld)))
        for i, (pc, t) in enumerate(good):
            word = int.from_bytes(data[4 * i:4 * i + 4], "little")
            f.write("V %#x %#010x %s\n" % (pc, word, t))
        for pc, t in bad + bad_ld:
            f.write("I %#x %s\n" % (pc, t))
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()
