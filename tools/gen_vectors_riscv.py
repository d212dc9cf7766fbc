#!/usr/bin/python3
"""Deterministic RISC-V encoder test vectors, checked against GNU as.

Usage: gen_vectors_riscv.py --as AS --ld LD --work DIR --out FILE

Every encoder of the subset (AUIPC, JAL, JALR, ADDI, LD, SD, NOP, C.NOP) gets
vectors spread over its whole immediate range, with both edges and
one-past-each-edge. Valid vectors are assembled by GNU as (-march=rv64gc,
`.option norelax`, `.option norvc` except for c.nop) each in its own section,
linked by GNU ld at the vector's own address (so `jal ra, 0x1000` means the
same absolute target as for ftv), and their words read back with pyelftools.
Invalid vectors must be refused by GNU as or ld too, so the generator fails
if the toolchain accepts one of them.

AUIPC+JALR call pairs (rv_gen_call_pair) are checked the same way, written
as the psABI's `auipc rd, %pcrel_hi(target)` / `jalr rd, %pcrel_lo(1b)(rd)`
and resolved by ld; out-of-reach pairs must be refused by ld.

Class vectors: one or more instructions of every class row of the encoding
table (loads and stores of every width and address form, AMOs, fences,
cache-block operations, branches, jumps, SYSTEM, the RVC groups), with the
classes and the address operand the ISA gives them, written here as data,
and their words from GNU as (with the V, Zfh, Q, Zicbom and Zicboz
extensions enabled).

Output, one vector a line, tab-separated (numbers in hex, rd in decimal):
    V  <pc>  <word>  <nbytes>  <text>
    K  <pc>  <word>  <nbytes>  <classes>  <address>  <text>
       classes: comma-separated RV_CL_* names in lower case ("-": none);
       address: "x<base>+<offset>/<bytes>" (offset decimal, bytes 0 when
       not known), or "-" when no load or store address is decoded
    I  <pc>  <text>
    P  <pc>  <target>  <rd>  <auipc word>  <jalr word>
    Q  <pc>  <target>  <rd>
"""

import argparse
import os
import random
import re
import subprocess
import sys

from elftools.elf.elffile import ELFFile

SEED = 0x52495343  # "RISC"; fixed so the vectors are the same on every run

ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
       "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
       "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
       "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"]
BAD_REGS = ["x32", "x99", "a8", "t7", "s12", "r1", "x-1", "sp1"]

JAL_LO, JAL_HI = -(1 << 20), (1 << 20) - 2
I_LO, I_HI = -2048, 2047
U_LO, U_HI = 0, 0xfffff


class Gen:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.valid = []    # (pc, text, nbytes)
        self.invalid = []  # (pc, text, stage) stage: "as" or "ld"
        self.pairs = []    # (pc, target, rd): AUIPC+JALR calls, linked by ld
        self.bad_pairs = []
        # Vectors sit at distinct addresses in a few kernel-like regions so
        # that each can be linked at its own pc.
        self.cursors = [0x80200000, 0xffffffff80000000, 0xffffffffc0000000]

    def pc(self, size=4, region=None):
        i = self.rng.randrange(len(self.cursors)) if region is None else region
        pc = self.cursors[i]
        self.cursors[i] += 8 if size <= 4 else 16
        # With C, 4-byte instructions may sit at 2-byte aligned addresses.
        return pc + (2 if self.rng.random() < 0.25 else 0)

    def reg(self, n=None):
        if n is None:
            n = self.rng.randrange(32)
        r = self.rng.random()
        if n == 8 and r < 0.2:
            return "fp"
        return "x%d" % n if r < 0.35 else ABI[n]

    def spread(self, lo, hi, count, align=1):
        """Edges, near-edges, powers of two and uniform picks in [lo, hi]."""
        vals = {lo, hi, lo + align, hi - align, 0}
        bit = align
        while bit <= hi:
            vals.update({bit, -bit, bit - align, -bit + align})
            bit <<= 1
        vals = {v for v in vals if lo <= v <= hi}
        while len(vals) < count:
            vals.add(lo + self.rng.randrange((hi - lo) // align + 1) * align)
        return sorted(vals)

    def imm_text(self, v):
        return ("%d" % v) if self.rng.random() < 0.6 else \
            ("-0x%x" % -v if v < 0 else "0x%x" % v)

    # --- per encoder -----------------------------------------------------
    def auipc(self):
        for v in self.spread(U_LO, U_HI, 220):
            self.valid.append((self.pc(), "auipc %s, 0x%x" % (self.reg(), v), 4))
        for v in [-1, U_HI + 1, 0x1fffff, -0x80000, 1 << 32]:
            self.invalid.append((self.pc(), "auipc %s, %s" % (self.reg(), self.imm_text(v)), "as"))
        for r in BAD_REGS:
            self.invalid.append((self.pc(), "auipc %s, 0x1" % r, "as"))

    def jal(self):
        for off in self.spread(JAL_LO, JAL_HI, 320, 2):
            pc = self.pc()
            tgt = (pc + off) & (2**64 - 1)
            if self.rng.random() < 0.1:
                text = "jal 0x%x" % tgt
            else:
                text = "jal %s, 0x%x" % (self.reg(), tgt)
            self.valid.append((pc, text, 4))
        for off in [JAL_LO - 2, JAL_HI + 2, JAL_LO - 4096, JAL_HI + 4096,
                    1 << 21, -(1 << 22), 1 << 30,
                    1, -1, 3, JAL_HI + 1, JAL_LO + 1]:  # odd: not 2-byte aligned
            pc = self.pc()
            self.invalid.append((pc, "jal %s, 0x%x" % (self.reg(), (pc + off) & (2**64 - 1)), "ld"))
        for r in BAD_REGS:
            pc = self.pc()
            self.invalid.append((pc, "jal %s, 0x%x" % (r, pc + 16), "as"))

    def i_type(self, mnem, count):
        """ADDI: rd, rs1, imm."""
        for v in self.spread(I_LO, I_HI, count):
            self.valid.append((self.pc(), "%s %s, %s, %s" % (
                mnem, self.reg(), self.reg(), self.imm_text(v)), 4))
        for v in [I_LO - 1, I_HI + 1, 4096, -4096, 1 << 31]:
            self.invalid.append((self.pc(), "%s %s, %s, %s" % (
                mnem, self.reg(), self.reg(), self.imm_text(v)), "as"))
        for r in BAD_REGS:
            self.invalid.append((self.pc(), "%s %s, a0, 1" % (mnem, r), "as"))
            self.invalid.append((self.pc(), "%s a0, %s, 1" % (mnem, r), "as"))

    def jalr(self):
        for v in self.spread(I_LO, I_HI, 260):
            rd, rs1, iv = self.reg(), self.reg(), self.imm_text(v)
            form = self.rng.random()
            if form < 0.5:
                text = "jalr %s, %s(%s)" % (rd, iv, rs1)
            else:
                text = "jalr %s, %s, %s" % (rd, rs1, iv)
            self.valid.append((self.pc(), text, 4))
        for _ in range(10):  # the short forms, offset 0
            self.valid.append((self.pc(), "jalr %s" % self.reg(), 4))
            self.valid.append((self.pc(), "jalr %s, %s" % (self.reg(), self.reg()), 4))
            self.valid.append((self.pc(), "jalr %s, (%s)" % (self.reg(), self.reg()), 4))
        for v in [I_LO - 1, I_HI + 1, 4096, -(1 << 20)]:
            self.invalid.append((self.pc(), "jalr t0, %s(t0)" % self.imm_text(v), "as"))
            self.invalid.append((self.pc(), "jalr t0, t0, %s" % self.imm_text(v), "as"))
        for r in BAD_REGS:
            self.invalid.append((self.pc(), "jalr %s, 0(t0)" % r, "as"))
            self.invalid.append((self.pc(), "jalr t0, 0(%s)" % r, "as"))

    def mem(self, mnem, count):
        for v in self.spread(I_LO, I_HI, count):
            self.valid.append((self.pc(), "%s %s, %s(%s)" % (
                mnem, self.reg(), self.imm_text(v), self.reg()), 4))
        for _ in range(5):
            self.valid.append((self.pc(), "%s %s, (%s)" % (mnem, self.reg(), self.reg()), 4))
        for v in [I_LO - 1, I_HI + 1, 8192, -(1 << 31)]:
            self.invalid.append((self.pc(), "%s a0, %s(sp)" % (mnem, self.imm_text(v)), "as"))
        for r in BAD_REGS:
            self.invalid.append((self.pc(), "%s %s, 8(sp)" % (mnem, r), "as"))
            self.invalid.append((self.pc(), "%s a0, 8(%s)" % (mnem, r), "as"))
        for bad in ["%s a0, 8(sp" % mnem, "%s a0, 8(sp))" % mnem]:
            self.invalid.append((self.pc(), bad, "as"))

    def branch(self, mnem):
        """BEQ/BNE rs1, rs2, target: +/-4 KiB, 2-byte aligned."""
        # GNU as gets the target as ". + off": given an absolute address
        # it would emit a branch around a jump it cannot size.
        for off in self.spread(-4096, 4094, 200, 2):
            pc = self.pc()
            ops = "%s, %s" % (self.reg(), self.reg())
            self.valid.append((pc, "%s %s, 0x%x" % (mnem, ops, (pc + off) & (2**64 - 1)), 4,
                               "%s %s, . %+d" % (mnem, ops, off)))
        # (GNU as turns an out-of-range branch into a branch around a jump,
        # so ranges are checked in tests/test_riscv_encode.c instead.)
        for r in BAD_REGS:
            pc = self.pc()
            self.invalid.append((pc, "%s %s, a1, 0x%x" % (mnem, r, pc + 16), "as"))
        self.invalid.append((self.pc(), "%s a0, a1" % mnem, "as"))

    def fences(self):
        sets = ["i", "o", "r", "w", "io", "ir", "iw", "or", "ow", "rw", "ior", "iow",
                "irw", "orw", "iorw"]
        for p in sets:
            for q in sets:
                self.valid.append((self.pc(), "fence %s, %s" % (p, q), 4))
        for _ in range(5):
            self.valid.append((self.pc(), "fence", 4))
            self.valid.append((self.pc(), "fence.i", 4))
        for bad in ["fence ri, w", "fence x, w", "fence rw", "fence 0, 0", "fence.i a0"]:
            self.invalid.append((self.pc(), bad, "as"))

    def pseudos(self):
        """GNU as's j, li, mv, beqz, bnez: the vectors hold the base words."""
        for _ in range(20):
            pc = self.pc()
            off = 2 * self.rng.randrange(-1000, 1000)
            self.valid.append((pc, "j 0x%x" % (pc + off), 4, "j . %+d" % off))
            self.valid.append((self.pc(), "li %s, %d" % (self.reg(), self.rng.randrange(-2048, 2048)), 4))
            self.valid.append((self.pc(), "mv %s, %s" % (self.reg(), self.reg()), 4))
            for m in ("beqz", "bnez"):
                pc, r = self.pc(), self.reg()
                off = 2 * self.rng.randrange(-1000, 1000)
                self.valid.append((pc, "%s %s, 0x%x" % (m, r, pc + off), 4,
                                   "%s %s, . %+d" % (m, r, off)))

    def call_pair(self):
        """AUIPC rd, %pcrel_hi(target); JALR rd, %pcrel_lo(rd): the psABI's
        split, resolved by ld with the +0x800 rounding of the high part."""
        lo, hi = -0x80000800, 0x7ffff7fe
        corners = [0x7fe, 0x800, -0x800, -0x802, 0xffe, 0x1000, 0x17fe, 0x1800,
                   -0x7fe, -0x1000, -0x1002, 0x7ffff000, -0x80000000, 0x7ffff7fc]
        for off in sorted(set(self.spread(lo, hi, 200, 2)) | set(corners)):
            pc = self.pc(8)
            self.pairs.append((pc, (pc + off) % 2**64, self.rng.randrange(1, 32)))
        for off in [hi + 2, 0x7ffffffe, 0x80000000, lo - 2, -0x80001000,
                    1 << 32, -(1 << 33)]:
            # GNU ld turns an out-of-reach AUIPC into LUI when the absolute
            # target fits 32 signed bits; pick regions where it does not.
            pc = self.pc(8, 0 if off > 0 else 1)
            self.bad_pairs.append((pc, (pc + off) % 2**64, self.rng.randrange(1, 32)))

    def nops(self):
        for _ in range(12):
            self.valid.append((self.pc(), "nop", 4))
            self.valid.append((self.pc(), "c.nop", 2))
        for bad in ["nop a0", "c.nop a0", "jalx ra, 0", "addi a0, a1",
                    "ld a0, 8(sp), 1", "auipc t0"]:
            self.invalid.append((self.pc(), bad, "as"))


# Extensions the class vectors use beyond rv64gc (GNU as 2.40 has no Zabha:
# its AMOs are written with .insn).
CLASS_ARCH = ".option arch, +v, +zfh, +q, +zicbom, +zicboz\n"


class ClassGen(Gen):
    """Class vectors: (pc, text, nbytes, classes, address) in self.classes,
    and (pc, text, nbytes) in self.valid for assemble()."""

    def __init__(self):
        super().__init__()
        self.rng = random.Random(SEED + 1)
        self.classes = []

    def add(self, text, nbytes, classes, addr="-", delta=None):
        """text's {target} is pc + delta (". +delta" for GNU as, which
        would relax a branch to an absolute address into two words)"""
        pc = self.pc(nbytes)
        if delta is None:
            self.valid.append((pc, text, nbytes))
        else:
            gas = text.format(target=". %+d" % delta)
            text = text.format(target="0x%x" % ((pc + delta) % 2**64))
            self.valid.append((pc, text, nbytes, gas))
        self.classes.append((pc, text, nbytes, classes, addr))

    def creg(self):
        """rs1' of the RVC formats: x8..x15"""
        return self.rng.randrange(8, 16)

    def loads_stores(self):
        # (mnemonic, class, bytes, data register prefix, offset form)
        for m, c, n, r in [("lb", "load", 1, "x"), ("lh", "load", 2, "x"),
                           ("lw", "load", 4, "x"), ("ld", "load", 8, "x"),
                           ("lbu", "load", 1, "x"), ("lhu", "load", 2, "x"),
                           ("lwu", "load", 4, "x"), ("flh", "load", 2, "f"),
                           ("flw", "load", 4, "f"), ("fld", "load", 8, "f"),
                           ("flq", "load", 16, "f"), ("sb", "store", 1, "x"),
                           ("sh", "store", 2, "x"), ("sw", "store", 4, "x"),
                           ("sd", "store", 8, "x"), ("fsh", "store", 2, "f"),
                           ("fsw", "store", 4, "f"), ("fsd", "store", 8, "f"),
                           ("fsq", "store", 16, "f")]:
            for off in self.spread(I_LO, I_HI, 12):
                b = self.rng.randrange(32)
                self.add("%s %s%d, %d(x%d)" % (m, r, self.rng.randrange(32), off, b),
                         4, c, "x%d+%d/%d" % (b, off, n))
        # RVC: (mnemonic, class, bytes, data register prefix, base, max offset, scale)
        for m, c, n, r, base, hi, scale in [
                ("c.lw", "load", 4, "x", None, 124, 4), ("c.ld", "load", 8, "x", None, 248, 8),
                ("c.fld", "load", 8, "f", None, 248, 8), ("c.sw", "store", 4, "x", None, 124, 4),
                ("c.sd", "store", 8, "x", None, 248, 8), ("c.fsd", "store", 8, "f", None, 248, 8),
                ("c.lwsp", "load", 4, "x", 2, 252, 4), ("c.ldsp", "load", 8, "x", 2, 504, 8),
                ("c.fldsp", "load", 8, "f", 2, 504, 8), ("c.swsp", "store", 4, "x", 2, 252, 4),
                ("c.sdsp", "store", 8, "x", 2, 504, 8), ("c.fsdsp", "store", 8, "f", 2, 504, 8)]:
            for off in self.spread(0, hi, 12, scale):
                b = self.creg() if base is None else base
                # c.lwsp/c.ldsp: rd = x0 is reserved
                rd = self.creg() if base is None else self.rng.randrange(1, 32)
                self.add("%s %s%d, %d(x%d)" % (m, r, rd, off, b), 2, c,
                         "x%d+%d/%d" % (b, off, n))
        # AMOs: address x[rs1], no offset; LR only loads, SC only stores
        for m, c, n in [("lr.w", "load", 4), ("sc.w", "store", 4), ("amoadd.w", "load,store", 4),
                        ("amoswap.w.aqrl", "load,store", 4), ("lr.d.aq", "load", 8),
                        ("sc.d.rl", "store", 8), ("amomaxu.d", "load,store", 8)]:
            for _ in range(4):
                b, d, t = self.rng.randrange(32), self.rng.randrange(32), self.rng.randrange(32)
                if m.startswith("lr"):
                    text = "%s x%d, (x%d)" % (m, d, b)
                else:
                    text = "%s x%d, x%d, (x%d)" % (m, d, t, b)
                self.add(text, 4, c, "x%d+0/%d" % (b, n))
        # Zabha amoadd.b / amoadd.h (funct3 000 / 001): width not decoded
        for f3 in (0, 1):
            b = self.rng.randrange(32)
            self.add(".insn r 0x2f, %d, 0, x10, x%d, x12" % (f3, b), 4, "load,store",
                     "x%d+0/0" % b)
        # vector loads and stores: their address forms are not decoded
        self.add("vle8.v v0, (a1)", 4, "load")
        self.add("vle64.v v3, (a0)", 4, "load")
        self.add("vse8.v v0, (a1)", 4, "store")
        self.add("vsse32.v v1, (a2), a3", 4, "store")

    def others(self):
        for text in ["fence", "fence rw, rw", "fence w, r", "fence.tso", "fence r, r"]:
            self.add(text, 4, "fence")
        self.add("fence.i", 4, "fence_i")
        self.add(".insn i 0x0f, 1, x3, x5, 12", 4, "fence_i")   # reserved fields set
        self.add("cbo.clean (a0)", 4, "cmo")
        self.add("cbo.zero (a1)", 4, "cmo")
        for m in ["beq", "bne", "blt", "bge", "bltu", "bgeu"]:
            self.add(m + " a0, a1, {target}", 4, "jump,cond", delta=64)
            self.add(m + " a2, a3, {target}", 4, "jump,cond", delta=-128)
        self.add("jal ra, {target}", 4, "jump,link", delta=2048)
        self.add("jal zero, {target}", 4, "jump,link", delta=-4)
        for text in ["jalr t0, 16(t0)", "jalr ra, 0(a5)", "jalr zero, 8(ra)"]:
            self.add(text, 4, "jump,link")
        self.add("ret", 4, "jump,return")
        for text in ["ecall", "ebreak", "mret", "sret", "wfi", "csrr a0, sstatus",
                     "csrw sscratch, a1"]:
            self.add(text, 4, "jump")
        for text in ["nop", "addi a0, a1, 5", "auipc t0, 0x12345", "lui a0, 0x1",
                     "add a0, a1, a2", "mul a0, a1, a2", "fadd.d fa0, fa1, fa2"]:
            self.add(text, 4, "-")
        # RVC
        self.add("c.j {target}", 2, "jump", delta=256)
        self.add("c.beqz a0, {target}", 2, "jump,cond", delta=-64)
        self.add("c.bnez s1, {target}", 2, "jump,cond", delta=32)
        for r in ["a0", "t0", "s1", "a5"]:
            self.add("c.jr " + r, 2, "jump")
            self.add("c.jalr " + r, 2, "jump,link")
        self.add("c.jr ra", 2, "jump,return")
        self.add("c.ebreak", 2, "jump")
        self.add("c.unimp", 2, "jump,illegal")
        for text in ["c.nop", "c.addi a0, 1", "c.addiw a0, -3", "c.li a1, 7", "c.mv a0, a1",
                     "c.add a0, a1", "c.addi4spn a0, sp, 16", "c.slli a0, 3", "c.lui a0, 1"]:
            self.add(text, 2, "-")


def assemble(gen, work, as_, ld, name="valid", prelude=""):
    """Assembles and links every valid vector at its pc; returns the words."""
    src = os.path.join(work, name + ".s")
    lds = os.path.join(work, name + ".ld")
    obj = os.path.join(work, name + ".o")
    elf = os.path.join(work, name + ".elf")
    with open(src, "w") as s, open(lds, "w") as l:
        s.write(".option norelax\n" + prelude)
        l.write("SECTIONS {\n")
        for i, (pc, text, nbytes, *gas) in enumerate(gen.valid):
            s.write('.section .text.v%d,"ax",@progbits\n' % i)
            s.write(".option %s\n%s\n" % ("rvc" if nbytes == 2 else "norvc",
                                            gas[0] if gas else text))
            l.write("  .text.v%d 0x%x : { *(.text.v%d) }\n" % (i, pc, i))
        l.write("}\n")
    subprocess.run([as_, "-march=rv64gc", "-o", obj, src], check=True)
    subprocess.run([ld, "--no-relax", "-T", lds, "-o", elf, obj], check=True)
    words = []
    with open(elf, "rb") as f:
        e = ELFFile(f)
        for i, (pc, text, nbytes, *_) in enumerate(gen.valid):
            sec = e.get_section_by_name(".text.v%d" % i)
            data = sec.data()
            if sec["sh_addr"] != pc or len(data) != nbytes:
                sys.exit("gen_vectors_riscv: %r at 0x%x: got %d bytes at 0x%x"
                         % (text, pc, len(data), sec["sh_addr"]))
            words.append(int.from_bytes(data, "little"))
    return words


def pair_source(i, rd):
    """The target is a symbol the linker script defines (GNU as refuses
    absolute constants beyond 32 bits inside %pcrel_hi)."""
    return (".option norelax\n.option norvc\n1: auipc x%d, %%pcrel_hi(target%d)\n"
            "jalr x%d, %%pcrel_lo(1b)(x%d)\n" % (rd, i, rd, rd))


def assemble_pairs(gen, work, as_, ld):
    """Links every valid call pair at its pc; returns (auipc, jalr) words."""
    src = os.path.join(work, "pairs.s")
    lds = os.path.join(work, "pairs.ld")
    obj = os.path.join(work, "pairs.o")
    elf = os.path.join(work, "pairs.elf")
    with open(src, "w") as s, open(lds, "w") as l:
        l.write("SECTIONS {\n")
        for i, (pc, target, rd) in enumerate(gen.pairs):
            s.write('.section .text.p%d,"ax",@progbits\n' % i)
            s.write(pair_source(i, rd))
            l.write("  .text.p%d 0x%x : { *(.text.p%d) }\n" % (i, pc, i))
            l.write("  target%d = 0x%x;\n" % (i, target))
        l.write("}\n")
    subprocess.run([as_, "-march=rv64gc", "-o", obj, src], check=True)
    subprocess.run([ld, "--no-relax", "-T", lds, "-o", elf, obj], check=True)
    words = []
    with open(elf, "rb") as f:
        e = ELFFile(f)
        for i, (pc, target, rd) in enumerate(gen.pairs):
            data = e.get_section_by_name(".text.p%d" % i).data()
            if len(data) != 8:
                sys.exit("gen_vectors_riscv: call pair %d: %d bytes" % (i, len(data)))
            words.append((int.from_bytes(data[:4], "little"),
                          int.from_bytes(data[4:], "little")))
    # Out of reach: ld must refuse each ("relocation truncated to fit:
    # R_RISCV_PCREL_HI20"); one link per pair.
    for pc, target, rd in gen.bad_pairs:
        with open(src, "w") as s:
            s.write(pair_source(0, rd))
        with open(lds, "w") as l:
            l.write("SECTIONS { .text 0x%x : { *(.text) } target0 = 0x%x; }\n"
                    % (pc, target))
        subprocess.run([as_, "-march=rv64gc", "-o", obj, src], check=True)
        r = subprocess.run([ld, "--no-relax", "-T", lds, "-o", elf, obj],
                           capture_output=True, text=True)
        if r.returncode == 0 or "relocation truncated" not in r.stderr:
            sys.exit("gen_vectors_riscv: ld accepts a call from 0x%x to 0x%x"
                     % (pc, target))
    return words


def check_rejected(gen, work, as_, ld):
    """Every invalid vector must be refused by GNU as (or, for out-of-range
    jal targets, by ld's relocation check)."""
    src = os.path.join(work, "invalid.s")
    obj = os.path.join(work, "invalid.o")
    lines = {}
    with open(src, "w") as s:
        s.write(".option norelax\n.option norvc\n")
        n = 3
        for i, (pc, text, stage, *gas) in enumerate(gen.invalid):
            if stage == "as":
                s.write("%s\n" % (gas[0] if gas else text))
                lines[n] = i
                n += 1
    r = subprocess.run([as_, "-march=rv64gc", "-o", obj, src],
                       capture_output=True, text=True)
    refused = {int(m.group(1)) for m in re.finditer(r"invalid\.s:(\d+): Error", r.stderr)}
    for n, i in lines.items():
        if n not in refused:
            sys.exit("gen_vectors_riscv: GNU as accepts invalid vector %r"
                     % gen.invalid[i][1])
    # Out-of-range or misaligned jal: ld's relocation check refuses them
    # ("relocation truncated to fit: R_RISCV_JAL"); one link per vector, as
    # ld stops listing overflows after the first few.
    for i, (pc, text, stage, *_) in enumerate(gen.invalid):
        if stage != "ld":
            continue
        src = os.path.join(work, "invalid_ld.s")
        lds = os.path.join(work, "invalid_ld.ld")
        elf = os.path.join(work, "invalid_ld.elf")
        with open(src, "w") as s:
            s.write(".option norelax\n.option norvc\n%s\n" % text)
        with open(lds, "w") as l:
            l.write("SECTIONS { .text 0x%x : { *(.text) } }\n" % pc)
        subprocess.run([as_, "-march=rv64gc", "-o", obj, src], check=True)
        r = subprocess.run([ld, "--no-relax", "-T", lds, "-o", elf, obj],
                           capture_output=True, text=True)
        if r.returncode == 0 or "relocation truncated" not in r.stderr:
            sys.exit("gen_vectors_riscv: ld accepts invalid vector %r at 0x%x"
                     % (text, pc))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--as", dest="as_", required=True)
    ap.add_argument("--ld", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)

    g = Gen()
    g.auipc()
    g.jal()
    g.jalr()
    g.i_type("addi", 260)
    g.mem("ld", 220)
    g.mem("sd", 220)
    g.nops()
    g.call_pair()
    # litmus tests' instructions, after the rest so that its vectors keep
    # their values
    g.mem("lw", 200)
    g.mem("sw", 200)
    g.branch("beq")
    g.branch("bne")
    g.fences()
    g.pseudos()
    words = assemble(g, a.work, a.as_, a.ld)
    pair_words = assemble_pairs(g, a.work, a.as_, a.ld)
    check_rejected(g, a.work, a.as_, a.ld)
    k = ClassGen()
    k.loads_stores()
    k.others()
    class_words = assemble(k, a.work, a.as_, a.ld, "classes", CLASS_ARCH)

    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("# generated by tools/gen_vectors_riscv.py (seed 0x%x): "
                "%d valid, %d invalid, %d call pairs, %d out of reach\n"
                % (SEED, len(g.valid), len(g.invalid), len(g.pairs), len(g.bad_pairs)))
        for (pc, text, nbytes, *_), w in zip(g.valid, words):
            f.write("V\t%x\t%x\t%d\t%s\n" % (pc, w, nbytes, text))
        for pc, text, *_ in g.invalid:
            f.write("I\t%x\t%s\n" % (pc, text))
        for (pc, target, rd), (wa, wj) in zip(g.pairs, pair_words):
            f.write("P\t%x\t%x\t%d\t%x\t%x\n" % (pc, target, rd, wa, wj))
        for pc, target, rd in g.bad_pairs:
            f.write("Q\t%x\t%x\t%d\n" % (pc, target, rd))
        for (pc, text, nbytes, classes, addr), w in zip(k.classes, class_words):
            f.write("K\t%x\t%x\t%d\t%s\t%s\t%s\n" % (pc, w, nbytes, classes, addr, text))
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()
