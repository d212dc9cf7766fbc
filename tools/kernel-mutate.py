#!/usr/bin/python3
"""Writes a mutated copy of one file of a Linux tree: a deliberate bug in
the arm64 ftrace backend that `ftv kernel-diff` must report
(tests/test_kernel_diff.c, mk/kernel.mk's kernel-mutants). Each mutant
edits one function's body by exact text; if the text is not there (another
kernel version), it fails naming the mutant and the function.

  kernel-mutate.py --list
  kernel-mutate.py NAME SRC_TREE OUT_FILE   (OUT_FILE: the mutated file)
  kernel-mutate.py --file NAME              (the file NAME edits)
"""
import sys

# name: (file, function, [(old, new)], what)
MUTANTS = {
    "make-call-bl-before-ops": (
        "arch/arm64/kernel/ftrace.c", "int ftrace_make_call(",
        [("\tret = ftrace_rec_update_ops(rec);\n\tif (ret)\n\t\treturn ret;\n\n", ""),
         ("\treturn ftrace_modify_code(pc, old, new, true);\n",
          "\tret = ftrace_modify_code(pc, old, new, true);\n\tif (ret)\n\t\treturn ret;\n"
          "\treturn ftrace_rec_update_ops(rec);\n")],
        "ftrace_make_call writes the BL before the ops literal"),
    "modify-call-keeps-ops": (
        "arch/arm64/kernel/ftrace.c", "int ftrace_modify_call(",
        [("\tret = ftrace_rec_set_ops(rec, arm64_rec_get_ops(rec));\n", "\tret = 0;\n")],
        "ftrace_modify_call leaves the old ops in the literal (store dropped)"),
    "literal-store-after-unmap": (
        "arch/arm64/kernel/patching.c", "int aarch64_insn_write_literal_u64(",
        [("\tret = copy_to_kernel_nofault(waddr, &val, sizeof(val));\n\n"
          "\tpatch_unmap(FIX_TEXT_POKE0);\n",
          "\tpatch_unmap(FIX_TEXT_POKE0);\n\n"
          "\tret = copy_to_kernel_nofault(waddr, &val, sizeof(val));\n")],
        "aarch64_insn_write_literal_u64 stores after clearing the fixmap"),
}


def mutate(name, tree, out):
    path, func, edits, _ = MUTANTS[name]
    with open("%s/%s" % (tree, path)) as f:
        text = f.read()
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
    with open(out, "w") as f:
        f.write(text[:start] + body + text[end:])


def main():
    a = sys.argv[1:]
    if a == ["--list"]:
        for n, m in MUTANTS.items():
            print("%s %s" % (n, m[3]))
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
