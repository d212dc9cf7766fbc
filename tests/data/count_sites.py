#!/usr/bin/python3
"""Count ftrace patch sites independently of ftv's loader, with pyelftools.

For each ELF relocatable (.o, .ko, .ko.xz) on the command line, prints
"<path> pfe=<N> mcount=<M>": N entries (8 bytes each) in the
__patchable_function_entries sections, M R_AARCH64_CALL26 relocations
against _mcount. The loader's site count must equal N + M.
"""
import io
import lzma
import sys

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

R_AARCH64_CALL26 = 283


def count(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] == b"\xfd7zXZ\x00":
        data = lzma.decompress(data)
    elf = ELFFile(io.BytesIO(data))
    pfe = sum(s["sh_size"] // 8 for s in elf.iter_sections()
              if s.name == "__patchable_function_entries")
    mcount = 0
    symtab = elf.get_section_by_name(".symtab")
    for s in elf.iter_sections():
        if not isinstance(s, RelocationSection):
            continue
        for r in s.iter_relocations():
            if r["r_info_type"] != R_AARCH64_CALL26:
                continue
            if symtab.get_symbol(r["r_info_sym"]).name == "_mcount":
                mcount += 1
    return pfe, mcount


def main():
    for p in sys.argv[1:]:
        pfe, mcount = count(p)
        print("%s pfe=%d mcount=%d" % (p, pfe, mcount))


if __name__ == "__main__":
    main()
