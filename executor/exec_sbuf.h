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
	uint64_t after;          /* chans: the channels of the stores it must
				    drain after (older epoch or overlapping) */
	uint64_t due;            /* the step it may drain from (held back:
				    exec_config.drain_hold) */
	int gates;               /* counted in xsbuf.ngate */
	uint32_t cidx;           /* its place among its channel's stores,
				    from 1 (0: no channel) */
	size_t need_off, need_n; /* the stores it must drain after, in
				    xsbuf.need (see there) */
};

/* Channels: the addresses stores were buffered to, numbered in the order
 * first seen and kept across resets, so that under exec_verify each
 * address's queue of stores is an agent of its own (exec_dpor.h): drains
 * to different addresses commute unless something observes them. */
#define XB_MAX_CHAN 64

struct xsbuf {
	struct xmodel *m;
	int agent;               /* in the trace (XL_AGENT_SBUF, or the CPU) */
	int owner;               /* the CPU whose stores these are, or -1 */
	struct xstore *v;
	size_t n, cap;
	uint64_t epoch;          /* DMBs issued so far */
	uint64_t chan[XB_MAX_CHAN];
	unsigned nchan;
	int chan_full;           /* an address found no channel */
	int chans;               /* number channels (exec_config.verify) */
	uint64_t now;            /* the stores due by now may drain (exec_run
				    sets it to the step; with drain_hold 0
				    every store is due) */
	/* The stores a CPU's load may read while they are buffered: the
	 * executor's load gate (exec_run.c, on_pre_insn) is open while
	 * there is one. With insn_exempt, a store whose bytes are all
	 * watched instruction words is not one: a CPU's load of those
	 * bytes reads its own text copy, which only its fetches change
	 * (exec_model.c), never the buffer's drain. */
	size_t ngate;
	int insn_exempt;
	/* For the reduction (XLOC_SBNEED, exec_dpor.h): the stores pushed to
	 * each channel this run, and for each buffered store the newest
	 * store of each channel it must drain after (channel << 16 | cidx).
	 * A drain names its own store (written) and those it needed (read);
	 * a barrier of the patcher the newest store of each channel it
	 * waited for. shared: another patcher's plans use this buffer too
	 * (a store's place in its channel then depends on the two
	 * patchers' interleaving): no names. quiet: the drain is one no CPU
	 * observes, folded into the step that made it drainable (its needs
	 * are not that step's). */
	uint32_t cpush[XB_MAX_CHAN];
	uint32_t *need;
	size_t nneed, capneed;
	int shared;
	int quiet;
};

void xb_init(struct xsbuf *b, struct xmodel *m, int agent, int owner);
void xb_free(struct xsbuf *b);
void xb_reset(struct xsbuf *b);

/* Buffers the store of write wid. */
void xb_push(struct xsbuf *b, uint64_t addr, unsigned size, uint64_t val,
	     int wid);
/* DMB: later stores drain after every earlier one. */
void xb_barrier(struct xsbuf *b);
/* 1 if a buffered store overlaps [addr, addr+len); xb_gate_holds: one
 * counted in ngate. */
int xb_holds(const struct xsbuf *b, uint64_t addr, uint64_t len);
int xb_gate_holds(const struct xsbuf *b, uint64_t addr, uint64_t len);
/* For the reduction: the current step waited for the drains of every
 * store to [addr, addr+len) (len 0: every store) (chans only). */
void xb_waited(struct xsbuf *b, uint64_t addr, uint64_t len);
/* What the owner reads at addr: coherent memory under its own buffered
 * stores (store forwarding). */
uint64_t xb_read(const struct xsbuf *b, uint64_t addr, unsigned size);
/* The stores that may drain next (indexes into v), at most 64; their
 * channels in chan (may be NULL): -1 when the table is full. */
unsigned xb_candidates(struct xsbuf *b, unsigned *cand, int *chan);
/* 1 if a store that may drain next is due by b->now (not held back). */
int xb_due(struct xsbuf *b);
/* One buffered store becomes visible: the scheduler picks which among
 * the due ones, or else it is the one due first. */
void xb_drain(struct xsbuf *b);

#endif
