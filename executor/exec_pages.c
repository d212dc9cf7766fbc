/* Which pages of the emulated memory hold anything, without faulting in
 * the ones that do not.
 *
 * Every region's host buffer (sim_map) and every per-CPU text copy is a
 * private anonymous mapping: a page the process never wrote reads as zeros
 * and has no page-table entry. Reading it to find out costs a page fault
 * (tens of microseconds under a paravirtualised MMU), so scanning or
 * copying a 32 MiB region byte by byte is what made world creation slow.
 * /proc/self/pagemap says per page whether it is present or swapped
 * (Documentation/admin-guide/mm/pagemap.rst: bit 63 present, bit 62
 * swapped; readable without privileges, only the PFN is hidden): a page
 * that is neither was never populated and is all zeros. Present or swapped
 * pages are read and checked. If pagemap cannot be read every page is
 * checked (slower, same answer). */
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "executor/exec_pages.h"

#define PM_PRESENT (1ULL << 63)
#define PM_SWAPPED (1ULL << 62)
#define XPG_SMALL 64 /* pages */

/* A page that holds something usually says so in its first bytes (text,
 * filled regions): look at it 64 bytes at a time and stop at the first
 * non-zero ones (ftv verify's resets of the riscv64 world, whose pages
 * are all filled, spent 89% of their time reading whole pages). */
static int page_is_zero(const uint8_t *p)
{
	const uint64_t *q = (const uint64_t *)(const void *)p;

	for (size_t i = 0; i < XPG_SIZE / 8; i += 8) {
		uint64_t acc = 0;

		for (size_t k = 0; k < 8; k++)
			acc |= q[i + k];
		if (acc)
			return 0;
	}
	return 1;
}

/* /proc/self/pagemap, opened once: it describes the process that opened
 * it, so a forked child drops the parent's descriptor (pthread_atfork)
 * and opens its own. -2: not opened yet; -1: cannot be read. */
static int pagemap_fd = -2;

static void pagemap_forget(void)
{
	if (pagemap_fd >= 0)
		close(pagemap_fd);
	pagemap_fd = -2;
}

static int pagemap(void)
{
	if (pagemap_fd == -2) {
		static int registered;

		if (!registered && !pthread_atfork(NULL, NULL, pagemap_forget))
			registered = 1;
		pagemap_fd = -1;
		if (registered && sysconf(_SC_PAGESIZE) == XPG_SIZE)
			pagemap_fd = open("/proc/self/pagemap",
					  O_RDONLY | O_CLOEXEC);
		if (pagemap_fd < 0)
			pagemap_fd = -1;
	}
	return pagemap_fd;
}

/* 1 when the machine has no swap area (/proc/swaps lists none), checked
 * once: then a page mincore() says is not resident was never populated. */
static int no_swap(void)
{
	static int known = -1;

	if (known < 0) {
		char buf[512];
		int fd = open("/proc/swaps", O_RDONLY | O_CLOEXEC);
		ssize_t got = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

		if (fd >= 0)
			close(fd);
		known = 0;
		if (got > 0) {
			char *nl;

			buf[got] = 0;
			/* the header line alone */
			nl = strchr(buf, '\n');
			known = nl && !nl[1];
		}
	}
	return known;
}

/* With no swap, mincore() tells the pages never populated (not resident)
 * from the others, and walks the holes of a sparse region a range at a
 * time where pagemap produces an entry per page: ftv verify's resets, which
 * look at every page of every region between two runs, spent most of
 * their time in the kernel's pagemap_pte_hole. A swapped-out page is not
 * resident either, hence the pagemap walk when there is swap. 1 when map
 * is filled. */
static int nonzero_mincore(const uint8_t *p, uint64_t npages, uint8_t *map)
{
	if (!no_swap() ||
	    mincore((void *)(uintptr_t)p, npages * XPG_SIZE,
		    (unsigned char *)map))
		return 0;
	for (uint64_t i = xpg_next(map, NULL, 0, npages); i < npages;
	     i = xpg_next(map, NULL, i + 1, npages)) {
		uint64_t end = i;

		map[i] = (map[i] & 1) && !page_is_zero(p + i * XPG_SIZE);
		if (map[i])
			continue;
		/* A populated page of zeros (read once, mapping the zero
		 * page, or written back to zeros) would be read again at
		 * every reset: give the run of them back, it reads as zeros
		 * still (private anonymous memory, nothing runs meanwhile). */
		while (end + 1 < npages && (map[end + 1] & 1) &&
		       page_is_zero(p + (end + 1) * XPG_SIZE))
			map[++end] = 0;
		madvise((void *)(uintptr_t)(p + i * XPG_SIZE),
			(end - i + 1) * XPG_SIZE, MADV_DONTNEED);
		i = end;
	}
	return 1;
}

void xpg_nonzero(const uint8_t *p, uint64_t len, uint8_t *map)
{
	uint64_t npages = len / XPG_SIZE;
	uint64_t ent[512];
	int fd = -1;

	/* Small regions (litmus tests, unit tests) are cheaper to read
	 * than to look up: a few page faults at most, once. */
	if ((uintptr_t)p % XPG_SIZE == 0 && npages > XPG_SMALL) {
		if (nonzero_mincore(p, npages, map))
			return;
		fd = pagemap();
	}
	for (uint64_t i = 0; i < npages;) {
		uint64_t n = npages - i < 512 ? npages - i : 512;
		int known = 0;

		if (fd >= 0) {
			off_t at = (off_t)((uintptr_t)p / XPG_SIZE + i) * 8;
			ssize_t got = pread(fd, ent, n * 8, at);

			known = got == (ssize_t)(n * 8);
		}
		for (uint64_t k = 0; k < n; k++) {
			const uint8_t *pg = p + (i + k) * XPG_SIZE;

			if (known && !(ent[k] & (PM_PRESENT | PM_SWAPPED)))
				map[i + k] = 0;
			else
				map[i + k] = !page_is_zero(pg);
		}
		i += n;
	}
}

uint64_t xpg_next(const uint8_t *a, const uint8_t *b, uint64_t from,
		  uint64_t n)
{
	uint64_t i = from;

	for (; i < n && i % 8; i++)
		if (a[i] || (b && b[i]))
			return i;
	for (; i + 8 <= n; i += 8) {
		uint64_t wa, wb = 0;

		memcpy(&wa, a + i, 8);
		if (b)
			memcpy(&wb, b + i, 8);
		if (wa | wb)
			break;
	}
	for (; i < n; i++)
		if (a[i] || (b && b[i]))
			return i;
	return n;
}

uint8_t *xpg_alloc(uint64_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void xpg_free(uint8_t *p, uint64_t len)
{
	if (p)
		munmap(p, len);
}

void xpg_copy_nonzero(uint8_t *dst, const uint8_t *src, uint64_t len,
		      const uint8_t *map)
{
	uint64_t n = len / XPG_SIZE;

	for (uint64_t i = xpg_next(map, NULL, 0, n); i < n;
	     i = xpg_next(map, NULL, i + 1, n))
		memcpy(dst + i * XPG_SIZE, src + i * XPG_SIZE, XPG_SIZE);
}
