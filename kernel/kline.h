/* Source lines of the loaded kernel code, from the objects' DWARF line
 * tables (the .debug_line `make kernel` builds with full debug info):
 * what a report names beside a kernel pc, "arch/arm64/kernel/ftrace.c:342".
 *
 * The line table of a text section is read once, on its first lookup,
 * with the cross binutils' addr2line (binutils-aarch64-linux-gnu, which
 * `make kernel` needs anyway), every instruction of the section in one
 * run: a relocatable object's addresses are section offsets, which
 * addr2line -j takes. */
#ifndef FTV_KERNEL_KLINE_H
#define FTV_KERNEL_KLINE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct kern;
struct kline;

struct kline *kline_new(struct kern *k, struct ftv_err *err);
void kline_free(struct kline *l);
/* "arch/arm64/kernel/ftrace.c:342" for pc (the path from the source
 * tree's top), or "no line" when the objects have none for it. */
char *kline_where(struct kline *l, uint64_t pc, char *buf, size_t n);

/* The name of a step the patcher CPU made at pc, outer the pc in the
 * call's outermost function (kern.outer): "verb: ftrace_make_call+0x90
 * (arch/arm64/kernel/ftrace.c:170) > __aarch64_insn_write+0x48
 * (arch/arm64/kernel/patching.c:78): what", or "verb: f+0x3c (file:line):
 * what" when outer is pc. Made once for the same arguments and kept with
 * the kernel (a kept kernel's next world asks the same names: kern_take):
 * the string lives until kline_trim or kline_free. NULL: out of memory. */
const char *kline_step_name(struct kline *l, const char *verb, uint64_t pc, uint64_t outer,
			    const char *what);
/* Forgets the step names when there are many; only while no step holds
 * one (between two worlds of a kept kernel). */
void kline_trim(struct kline *l);

#endif
