#!/usr/bin/python3
"""Reads, from the DWARF of a kernel build's arch/arm64/kernel/ftrace.o, the
struct layouts and constants ftv's kernel runner fills in (kernel/kern.h):
struct dyn_ftrace (size, ip, flags), struct ftrace_ops (size, func,
direct_call when built), FTRACE_FL_CALL_OPS_EN (none before 6.3); from
kernel/trace/ftrace.o, when built, the core's ftrace_ops_hash, ftrace_hash
and ftrace_func_entry (make bench builds ops with them); and from
include/generated/asm-offsets.h the task_struct offsets the runner's fake
`current` needs. Writes them as `name value` lines, one per fact, so that
no offset is a constant of one kernel version.

  kernel-layout.py KERNEL_OUT [-o FILE]   (default KERNEL_OUT/ftv-layout.txt)
"""
import argparse
import os
import re
import sys

from elftools.elf.elffile import ELFFile

STRUCTS = {"dyn_ftrace": ["ip", "flags"],
           "ftrace_ops": ["func", "next", "flags", "private", "func_hash",
                          "direct_call"],
           # arch/arm64/kernel/ftrace.c get_ftrace_plt: a far module's
           # ftrace PLT (mod->mem[MOD_TEXT], mod->arch.ftrace_trampolines)
           "module": ["mem", "arch"],
           "module_memory": ["base", "size"],
           "mod_arch_specific": ["ftrace_trampolines",
                                 "init_ftrace_trampolines"],
           # prepare_ftrace_return: current->tracing_graph_pause
           "task_struct": ["tracing_graph_pause"],
           # the core's (kernel/trace/trace.h, include/linux/ftrace.h):
           # what make bench's ops and filter hashes are made of
           "ftrace_ops_hash": ["notrace_hash", "filter_hash"],
           "ftrace_hash": ["size_bits", "buckets", "count", "flags"],
           "ftrace_func_entry": ["hlist", "ip"]}
ENUMS = ["FTRACE_FL_CALL_OPS_EN", "FTRACE_FL_CALL_OPS", "FTRACE_OPS_FL_ENABLED",
         "FTRACE_OPS_FL_DYNAMIC", "MOD_TEXT", "MOD_INIT_TEXT"]
ASM_OFFSETS = ["TSK_STACK_CANARY", "TSK_TI_PREEMPT", "TSK_TI_CPU",
               "TSK_TI_FLAGS",
               # what the kernel's ftrace_caller (entry-ftrace.S) was
               # assembled with: the ftrace_regs it saves and the ops
               # fields it reads (none before WITH_ARGS / CALL_OPS)
               "FREGS_X0", "FREGS_FP", "FREGS_LR", "FREGS_SP", "FREGS_PC",
               "FREGS_DIRECT_TRAMP", "FREGS_SIZE", "FTRACE_OPS_FUNC",
               "FTRACE_OPS_DIRECT_CALL"]


def member_offset(die):
    a = die.attributes.get("DW_AT_data_member_location")
    if a is None:
        return 0
    if isinstance(a.value, int):
        return a.value
    raise ValueError("member %s: location is an expression"
                     % die.attributes["DW_AT_name"].value.decode())


def from_dwarf(path):
    facts = {}
    with open(path, "rb") as f:
        elf = ELFFile(f)
        if not elf.has_dwarf_info():
            sys.exit("kernel-layout: %s: no DWARF (CONFIG_DEBUG_INFO)" % path)
        for cu in elf.get_dwarf_info().iter_CUs():
            for die in cu.iter_DIEs():
                name = die.attributes.get("DW_AT_name")
                name = name.value.decode() if name else None
                if die.tag == "DW_TAG_structure_type" and name in STRUCTS \
                        and "DW_AT_byte_size" in die.attributes \
                        and "sizeof." + name not in facts:
                    facts["sizeof." + name] = die.attributes["DW_AT_byte_size"].value
                    for m in die.iter_children():
                        mn = m.attributes.get("DW_AT_name")
                        if m.tag == "DW_TAG_member" and mn and \
                                mn.value.decode() in STRUCTS[name]:
                            facts["%s.%s" % (name, mn.value.decode())] = member_offset(m)
                elif die.tag == "DW_TAG_enumerator" and name in ENUMS:
                    facts.setdefault(name, die.attributes["DW_AT_const_value"].value
                                     & 0xffffffffffffffff)
    return facts


def from_asm_offsets(path):
    facts = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"#define (\w+) (-?\d+)\b", line)
            if m and m.group(1) in ASM_OFFSETS:
                facts[m.group(1)] = int(m.group(2))
    return facts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("-o", dest="output")
    a = ap.parse_args()
    obj = os.path.join(a.out_dir, "arch/arm64/kernel/ftrace.o")
    hdr = os.path.join(a.out_dir, "include/generated/asm-offsets.h")
    for p in (obj, hdr):
        if not os.path.exists(p):
            sys.exit("kernel-layout: %s: missing (run make kernel)" % p)
    facts = from_dwarf(obj)
    core = os.path.join(a.out_dir, "kernel/trace/ftrace.o")
    if os.path.exists(core):
        for k, v in from_dwarf(core).items():
            facts.setdefault(k, v)
    facts.update(from_asm_offsets(hdr))
    need = ["sizeof.dyn_ftrace", "dyn_ftrace.ip", "dyn_ftrace.flags",
            "sizeof.ftrace_ops", "ftrace_ops.func"] + \
        ["TSK_STACK_CANARY", "TSK_TI_PREEMPT", "TSK_TI_CPU"]
    missing = [n for n in need if n not in facts]
    if missing:
        sys.exit("kernel-layout: %s: not found: %s" % (obj, " ".join(missing)))
    out = a.output or os.path.join(a.out_dir, "ftv-layout.txt")
    with open(out + ".tmp", "w") as f:
        f.write("# from %s (DWARF) and %s; tools/kernel-layout.py\n"
                % ("arch/arm64/kernel/ftrace.o", "include/generated/asm-offsets.h"))
        for k in sorted(facts):
            f.write("%s %d\n" % (k, facts[k]))
    os.replace(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
