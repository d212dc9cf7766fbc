#!/usr/bin/python3
"""Checks the loader layouts `ftv capture` records for modules (the
"module:" lines and the placed "text:" lines of a layout) against a second,
independent reading of the same .ko files with pyelftools: the size of each
module's text and init_text memories, the offset of its ftrace PLT, and the
offset of every code section that holds callsites.

The reading follows the kernel (v6.12), not ftv's code:
arch/arm64/kernel/module-plts.c module_frob_arch_sections() sizes .plt and
.init.plt from the CALL26/JUMP26 relocations against symbols of other
sections (after partition_branch_plt_relas() and the sort of the first
part, so a relocation the partition leaves unsorted counts again), plus one
entry, 64-byte aligned; .text.ftrace_trampoline is one 12-byte entry,
4-byte aligned; kernel/module/main.c layout_sections() puts the code
sections in section order at their alignment, .init* ones in init_text.

  kmod-layout.py MODDIR LAYOUT
    MODDIR  a modules directory with modules.order (.ko or .ko.xz files)
    LAYOUT  the layout ftv captured from them (.xz allowed)

Prints "kmod-layout: N modules, M mismatches"; exit 0 only when every
module of modules.order is described and agrees."""
import io
import lzma
import os
import re
import subprocess
import sys

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

R_AARCH64_JUMP26 = 282
R_AARCH64_CALL26 = 283
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
PLT_ENTRY = 12


def read_layout(path):
    """The module lines and the placed text lines of a layout's header."""
    if path.endswith(".xz"):
        text = subprocess.run(["xz", "-dc", path], capture_output=True,
                              text=True, check=True).stdout
    else:
        text = open(path).read()
    mods, places = {}, {}
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        m = re.match(r"# module: (\S+) (\S+) (\S+)$", line)
        if m:
            mods[m.group(1)] = (m.group(2), m.group(3))
        m = re.match(r"# text: \S+ \S+ ([^/ ]+)/(\S+) (\S+)$", line)
        if m:
            places[(m.group(1), m.group(2))] = m.group(3)
    return mods, places


def open_ko(path):
    data = open(path, "rb").read()
    if path.endswith(".xz"):
        data = lzma.decompress(data)
    return ELFFile(io.BytesIO(data))


def plts_for(symtab, rela, dst):
    """count_plts() over one relocation section, as the kernel orders it."""
    rels = [(r["r_info_type"], r["r_info_sym"], r["r_addend"])
            for r in rela.iter_relocations()]

    def needs(r):
        return (r[0] in (R_AARCH64_JUMP26, R_AARCH64_CALL26) and
                symtab.get_symbol(r[1])["st_shndx"] != dst)
    i, j = 0, len(rels) - 1
    while i < j:
        if needs(rels[i]):
            i += 1
        elif needs(rels[j]):
            rels[i], rels[j] = rels[j], rels[i]
        else:
            j -= 1
    rels[:i] = sorted(rels[:i])
    n = 0
    for k, r in enumerate(rels):
        if needs(r) and (r[2] != 0 or not (k > 0 and rels[k - 1] == r)):
            n += 1
    return n


def text_layout(elf):
    """(name, {memory: size}, {section: (memory, offset)})."""
    secs = list(elf.iter_sections())
    symtab = elf.get_section_by_name(".symtab")
    name = None
    for kv in elf.get_section_by_name(".modinfo").data().split(b"\0"):
        if kv.startswith(b"name="):
            name = kv[5:].decode()
    core = init = 0
    for s in secs:
        if not isinstance(s, RelocationSection) or s["sh_type"] != "SHT_RELA":
            continue
        dst = s["sh_info"]
        if not secs[dst]["sh_flags"] & SHF_EXECINSTR:
            continue
        if secs[dst].name.startswith(".init"):
            init += plts_for(symtab, s, dst)
        else:
            core += plts_for(symtab, s, dst)
    size = {"text": 0, "init_text": 0}
    where = {}
    for s in secs:
        flags, sz, al = s["sh_flags"], s["sh_size"], s["sh_addralign"] or 1
        if s.name == ".plt":
            flags, sz, al = SHF_ALLOC | SHF_EXECINSTR, (core + 1) * PLT_ENTRY, 64
        elif s.name == ".init.plt":
            flags, sz, al = SHF_ALLOC | SHF_EXECINSTR, (init + 1) * PLT_ENTRY, 64
        elif s.name == ".text.ftrace_trampoline":
            flags, sz, al = SHF_ALLOC | SHF_EXECINSTR, PLT_ENTRY, 4
        if flags & (SHF_ALLOC | SHF_EXECINSTR) != SHF_ALLOC | SHF_EXECINSTR:
            continue
        mem = "init_text" if s.name.startswith(".init") else "text"
        off = (size[mem] + al - 1) // al * al
        where[s.name] = (mem, off)
        size[mem] = off + sz
    return name, size, where


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    moddir, layout = sys.argv[1], sys.argv[2]
    mods, places = read_layout(layout)
    order = [l.strip() for l in open(os.path.join(moddir, "modules.order"))
             if l.strip()]
    bad = 0
    for rel in order:
        path = os.path.join(moddir, rel)
        if not os.path.exists(path):
            path += ".xz"
        name, size, where = text_layout(open_ko(path))
        why = []
        if name not in mods:
            why.append("no module line")
        else:
            mem, plt = mods[name]
            sizes = [int(x, 16) for x in mem.split(",")] if mem != "-" else []
            want = "text+%x" % where[".text.ftrace_trampoline"][1]
            if len(sizes) != 7 or sizes[0] != size["text"] or \
               sizes[4] != size["init_text"]:
                why.append("memories %s, text %x and init_text %x expected" %
                           (mem, size["text"], size["init_text"]))
            if plt != want:
                why.append("PLT %s, %s expected" % (plt, want))
            for (mname, sec), place in places.items():
                if mname == name and place != "%s+%x" % where[sec]:
                    why.append("%s at %s, %s+%x expected" %
                               ((sec, place) + where[sec]))
        if why:
            bad += 1
            print("%s: %s" % (name or rel, "; ".join(why)))
    print("kmod-layout: %d modules, %d mismatches" % (len(order), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
