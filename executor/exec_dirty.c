/* Written pages found by write protection (exec_dirty.h).
 *
 * One SIGSEGV handler for the process, installed at the first xdt_track.
 * A fault with si_code SEGV_ACCERR (a protection fault on a mapped page,
 * POSIX sigaction(2)) at an address inside a tracked buffer is a first
 * store to that page since it was made read-only: the handler notes the
 * page, makes it read-write with mprotect (async-signal-safe in practice:
 * one system call) and returns, and the faulting store is executed again.
 * Any other fault goes to the handler that was there before (or, if that
 * was the default action, the default action is put back and the fault
 * happens again, dumping core as it would have).
 *
 * The table of tracked buffers is changed only between runs, by the
 * thread that runs the engines, with no store to a tracked page in
 * flight; an entry is filled before it is counted, and cleared after it
 * is uncounted. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "executor/exec_dirty.h"
#include "executor/exec_pages.h"

#define XDT_MAX 512

static struct xdirty *volatile table[XDT_MAX];
static volatile unsigned ntable;
static struct sigaction old_sa;
static int installed;

static void fallback(int sig, siginfo_t *si, void *uctx)
{
	if (old_sa.sa_flags & SA_SIGINFO) {
		old_sa.sa_sigaction(sig, si, uctx);
		return;
	}
	if (old_sa.sa_handler != SIG_DFL && old_sa.sa_handler != SIG_IGN) {
		old_sa.sa_handler(sig);
		return;
	}
	/* the default action, on the same fault again */
	signal(sig, SIG_DFL);
}

static void on_fault(int sig, siginfo_t *si, void *uctx)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	if (si->si_code == SEGV_ACCERR)
		for (unsigned i = 0; i < ntable; i++) {
			struct xdirty *d = table[i];
			uint64_t pg;

			if (!d || a < (uintptr_t)d->base ||
			    a - (uintptr_t)d->base >= d->npages * XPG_SIZE)
				continue;
			pg = (a - (uintptr_t)d->base) / XPG_SIZE;
			if (mprotect(d->base + pg * XPG_SIZE, XPG_SIZE,
				     PROT_READ | PROT_WRITE))
				break;
			if (!d->map[pg]) {
				d->map[pg] = 1;
				d->list[d->nlist] = pg;
				d->nlist = d->nlist + 1;
			}
			return;
		}
	fallback(sig, si, uctx);
}

static int install(void)
{
	struct sigaction sa;

	if (installed)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_sa))
		return -1;
	installed = 1;
	return 0;
}

static int add(struct xdirty *d)
{
	for (unsigned i = 0; i < ntable; i++)
		if (!table[i]) {
			table[i] = d;
			return 0;
		}
	if (ntable == XDT_MAX)
		return -1;
	table[ntable] = d;
	__atomic_store_n(&ntable, ntable + 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void drop(struct xdirty *d)
{
	for (unsigned i = 0; i < ntable; i++)
		if (table[i] == d)
			table[i] = NULL;
	while (ntable && !table[ntable - 1])
		__atomic_store_n(&ntable, ntable - 1, __ATOMIC_SEQ_CST);
}

int xdt_track(struct xdirty *d, uint8_t *base, uint64_t len)
{
	memset(d, 0, sizeof(*d));
	if ((uintptr_t)base % XPG_SIZE || len % XPG_SIZE || !len || install())
		return -1;
	d->base = base;
	d->npages = len / XPG_SIZE;
	d->map = calloc(d->npages, 1);
	d->seen = calloc(d->npages, 1);
	d->list = malloc(d->npages * sizeof(*d->list));
	if (!d->map || !d->seen || !d->list || add(d))
		goto fail;
	d->on = 1;
	if (mprotect(base, len, PROT_READ)) {
		drop(d);
		goto fail;
	}
	return 0;
fail:
	free(d->map);
	free(d->seen);
	free(d->list);
	memset(d, 0, sizeof(*d));
	return -1;
}

void xdt_untrack(struct xdirty *d)
{
	if (!d->on)
		return;
	mprotect(d->base, d->npages * XPG_SIZE, PROT_READ | PROT_WRITE);
	drop(d);
	free(d->map);
	free(d->seen);
	free(d->list);
	memset(d, 0, sizeof(*d));
}

/* Makes [p, p + n) read-only; -1 if refused. */
static int protect(struct xdirty *d, uint64_t p, uint64_t n)
{
	if (!n)
		return 0;
	for (uint64_t k = 0; k < n; k++)
		d->map[p + k] = 0;
	return mprotect(d->base + p * XPG_SIZE, n * XPG_SIZE, PROT_READ) ? -1 : 0;
}

int xdt_rearm(struct xdirty *d)
{
	uint64_t kept = d->nkept, run = 0, len = 0;
	int ret = 0;

	for (uint64_t i = d->nkept; i < d->nlist; i++) {
		uint64_t p = d->list[i];

		if (d->seen[p]) {
			d->list[kept++] = p; /* stays writable */
			continue;
		}
		d->seen[p] = 1;
		/* runs of consecutive pages, one call each */
		if (len && p == run + len) {
			len++;
			continue;
		}
		ret |= protect(d, run, len);
		run = p;
		len = 1;
	}
	ret |= protect(d, run, len);
	d->nkept = d->nlist = kept;
	return ret;
}
