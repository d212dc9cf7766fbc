/* A store buffer (exec_sbuf.c): an agent's stores wait here until the
 * scheduler drains them, one at a time, in any order its barriers allow:
 * stores separated by a DMB drain in order, stores to overlapping bytes in
 * program order (coherence). Today the patcher has one; the CPUs' own data
 * stores are not buffered. */
#ifndef FTV_EXECUTOR_EXEC_SBUF_H
#define FTV_EXECUTOR_EXEC_SBUF_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec_model.h"

struct xstore {
	uint64_t addr;
	unsigned size;           /* 4 or 8 */
	uint64_t val;
	int wid;
	uint64_t epoch;          /* DMBs issued before it */
};

struct xsbuf {
	struct xmodel *m;
	int agent;               /* in the trace (XL_AGENT_SBUF, or the CPU) */
	int owner;               /* the CPU whose stores these are, or -1 */
	struct xstore *v;
	size_t n, cap;
	uint64_t epoch;          /* DMBs issued so far */
};

void xb_init(struct xsbuf *b, struct xmodel *m, int agent, int owner);
void xb_free(struct xsbuf *b);
void xb_reset(struct xsbuf *b);

/* Buffers the store of write wid. */
void xb_push(struct xsbuf *b, uint64_t addr, unsigned size, uint64_t val,
	     int wid);
/* DMB: later stores drain after every earlier one. */
void xb_barrier(struct xsbuf *b);
/* 1 if a buffered store overlaps [addr, addr+len). */
int xb_holds(const struct xsbuf *b, uint64_t addr, uint64_t len);
/* What the owner reads at addr: coherent memory under its own buffered
 * stores (store forwarding). */
uint64_t xb_read(const struct xsbuf *b, uint64_t addr, unsigned size);
/* One buffered store becomes visible (the scheduler picks which). */
void xb_drain(struct xsbuf *b);

#endif
