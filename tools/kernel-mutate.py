#!/usr/bin/python3
"""Writes a mutated copy of one file of a Linux tree: a deliberate bug in
the arm64 ftrace backend that `ftv kernel-diff` must report
(tests/test_kernel_diff.c, mk/kernel.mk's kernel-mutants) and, where ftv's
model has the same bug (`ftv fuzz --mutate`), the kernel-source twin that
`--scheme kernel` must find with the model mutant's violation kind
(tests/test_kernel_scheme.c, docs/kernel.md). Each mutant edits one or two
functions' bodies of one file by exact text; if the text is not there
(another kernel version), it fails naming the mutant and the function.

  kernel-mutate.py --list
  kernel-mutate.py NAME SRC_TREE OUT_FILE   (OUT_FILE: the mutated file)
  kernel-mutate.py --file NAME              (the file NAME edits)
"""
import sys

# name: (file, [(function, [(old, new)])], what)
MUTANTS = {
    "make-call-bl-before-ops": (
        "arch/arm64/kernel/ftrace.c",
        [("int ftrace_make_call(",
          [("\tret = ftrace_rec_update_ops(rec);\n\tif (ret)\n\t\treturn ret;\n\n", ""),
           ("\treturn ftrace_modify_code(pc, old, new, true);\n",
            "\tret = ftrace_modify_code(pc, old, new, true);\n\tif (ret)\n\t\treturn ret;\n"
            "\treturn ftrace_rec_update_ops(rec);\n")])],
        "ftrace_make_call writes the BL before the ops literal"),
    "modify-call-keeps-ops": (
        "arch/arm64/kernel/ftrace.c",
        [("int ftrace_modify_call(",
          [("\tret = ftrace_rec_set_ops(rec, arm64_rec_get_ops(rec));\n", "\tret = 0;\n")])],
        "ftrace_modify_call leaves the old ops in the literal (store dropped)"),
    "literal-store-after-unmap": (
        "arch/arm64/kernel/patching.c",
        [("int aarch64_insn_write_literal_u64(",
          [("\tret = copy_to_kernel_nofault(waddr, &val, sizeof(val));\n\n"
            "\tpatch_unmap(FIX_TEXT_POKE0);\n",
            "\tpatch_unmap(FIX_TEXT_POKE0);\n\n"
            "\tret = copy_to_kernel_nofault(waddr, &val, sizeof(val));\n")])],
        "aarch64_insn_write_literal_u64 stores after clearing the fixmap"),
    # misaligned-literal's twin: the check that refuses a site whose
    # pre-function NOPs are not 8-byte aligned (ftrace_call_adjust, run by
    # the core's ftrace_process_locs) is gone
    "call-adjust-misaligned": (
        "arch/arm64/kernel/ftrace.c",
        [("unsigned long ftrace_call_adjust(",
          [("\tif (!IS_ALIGNED(addr, sizeof(unsigned long))) {\n"
            "\t\tWARN_RATELIMIT(1, \"Misaligned patch-site %pS\\n\",\n"
            "\t\t\t       (void *)(addr + 8));\n"
            "\t\treturn 0;\n\t}\n\n", "")])],
        "ftrace_call_adjust accepts sites whose ops literal is not 8-byte aligned"),
    # live-mov-patch's twin: MOV X9, LR is written by ftrace_make_call,
    # while CPUs run the site, instead of by ftrace_init_nop
    "make-call-writes-mov": (
        "arch/arm64/kernel/ftrace.c",
        [("int ftrace_init_nop(",
          [("\treturn ftrace_modify_code(pc, old, new, true);\n", "\treturn 0;\n")]),
         ("int ftrace_make_call(",
          [("\tret = ftrace_rec_update_ops(rec);\n",
            "\tret = ftrace_modify_code(pc - AARCH64_INSN_SIZE, aarch64_insn_gen_nop(),\n"
            "\t\t\t\t aarch64_insn_gen_move_reg(AARCH64_INSN_REG_9,\n"
            "\t\t\t\t\t\t\t   AARCH64_INSN_REG_LR,\n"
            "\t\t\t\t\t\t\t   AARCH64_INSN_VARIANT_64BIT),\n"
            "\t\t\t\t false);\n"
            "\tif (ret)\n\t\treturn ret;\n\n"
            "\tret = ftrace_rec_update_ops(rec);\n")])],
        "ftrace_make_call writes MOV X9, LR while CPUs run the site"),
    # no-range-check's twin: ftrace_find_callable_addr takes every target
    # as reachable (no ftrace_caller fallback, no module PLT)
    "callable-addr-no-range-check": (
        "arch/arm64/kernel/ftrace.c",
        [("static bool ftrace_find_callable_addr(",
          [("\tif (*addr != FTRACE_ADDR && !reachable_by_bl(*addr, pc))\n"
            "\t\t*addr = FTRACE_ADDR;\n\n", ""),
           ("\tif (reachable_by_bl(*addr, pc))\n\t\treturn true;\n", "\treturn true;\n")])],
        "ftrace_find_callable_addr takes out-of-range targets as reachable"),
}


def mutate(name, tree, out):
    path, funcs, _ = MUTANTS[name]
    try:
        with open("%s/%s" % (tree, path)) as f:
            text = f.read()
    except OSError as e:
        sys.exit("kernel-mutate: %s: %s/%s: %s" % (name, tree, path, e.strerror))
    for func, edits in funcs:
        start = text.find(func)
        if start < 0:
            sys.exit("kernel-mutate: %s: %s/%s: no function '%s'" % (name, tree, path, func))
        end = text.find("\n}\n", start) + 1
        body = text[start:end]
        for old, new in edits:
            if body.count(old) != 1:
                sys.exit("kernel-mutate: %s: %s: '%s' does not hold %r exactly once"
                         % (name, path, func, old.strip().splitlines()[0]))
            body = body.replace(old, new)
        text = text[:start] + body + text[end:]
    with open(out, "w") as f:
        f.write(text)


def main():
    a = sys.argv[1:]
    if a == ["--list"]:
        for n, m in MUTANTS.items():
            print("%s %s" % (n, m[2]))
        return 0
    if len(a) == 2 and a[0] == "--file" and a[1] in MUTANTS:
        print(MUTANTS[a[1]][0])
        return 0
    if len(a) != 3 or a[0] not in MUTANTS:
        sys.exit("usage: kernel-mutate.py --list | --file NAME | NAME SRC_TREE OUT_FILE")
    mutate(a[0], a[1], a[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
