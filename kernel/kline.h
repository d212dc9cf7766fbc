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

#endif
