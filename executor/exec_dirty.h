/* Which pages of a buffer were written since a point, told by the
 * hardware (exec_dirty.c): the buffer is made read-only, and the first
 * store to each page faults; the fault handler notes the page and makes it
 * writable again, and the store goes through. A reset then looks at the
 * pages written, not at every page of every region (issue 31: the
 * mincore() walk of some 300 MiB of address space per reset was 44% of an
 * ftv verify's time).
 *
 * Every store counts, whoever makes it: a CPU's store through Unicorn's
 * translated code, the patcher's or the model's through sim_write, a
 * memcpy into a CPU's text copy. Not a store made by the kernel on the
 * process's behalf (read(2) into the buffer fails with EFAULT instead):
 * nothing writes emulated memory that way while it is tracked.
 *
 * A page written again after it was made read-only once more is taken
 * for one that every run writes (a CPU's stack, the percpu data, the
 * words the patcher changes): it stays writable and on the list for good,
 * so it costs a compare or a copy per reset instead of a fault and two
 * mprotect calls (which split and merge the mapping, issue 31: 32% of a
 * verify when every page was made read-only again). */
#ifndef FTV_EXECUTOR_EXEC_DIRTY_H
#define FTV_EXECUTOR_EXEC_DIRTY_H

#include <stdint.h>

struct xdirty {
	uint8_t *base;           /* page aligned */
	uint64_t npages;
	uint8_t *map;            /* 1: writable (on the list) */
	uint8_t *seen;           /* 1: was on the list once */
	uint64_t *list;          /* the pages that may have been written
				  * since the last xdt_rearm: the ones kept
				  * writable first, then those written, in
				  * the order of their first store */
	uint64_t nkept;
	volatile uint64_t nlist;
	int on;                  /* registered with the fault handler */
};

/* Starts tracking [base, base + len) (page aligned, a private mapping of
 * this process): every page read-only, none written. 0, or -1 when it
 * cannot (no memory, too many buffers tracked, the handler could not be
 * installed, mprotect refused): *d is then off and the buffer as it was. */
int xdt_track(struct xdirty *d, uint8_t *base, uint64_t len);
/* Stops tracking: every page writable again, the buffer unregistered.
 * Must come before the buffer is unmapped or handed to other code. */
void xdt_untrack(struct xdirty *d);
/* After the pages on the list were dealt with: each read-only again but
 * those kept writable (written a second time), the list those alone.
 * 0, or -1 if mprotect refused (the pages stay writable: the caller stops
 * trusting the list and untracks). */
int xdt_rearm(struct xdirty *d);

#endif
