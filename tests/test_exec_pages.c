/* The page maps of executor/exec_pages.c that snapshots and resets rely
 * on: xpg_next against a byte-by-byte search, and xpg_nonzero on a sparse
 * buffer whose populated pages hold zeros (read once, or written back to
 * zeros), data at a page's last byte and at its first: the map names
 * exactly the pages holding something, and every byte reads as before.
 * And executor/exec_dirty.c's written pages: the stores go through, the
 * list names exactly the pages stored to, a page written again after a
 * rearm is kept writable, and a store to read-only memory nobody tracks
 * still faults. */
#include "tests/suite.h"
#include "executor/exec_dirty.h"
#include "executor/exec_pages.h"

#include <signal.h>
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>

static uint64_t next_slow(const uint8_t *a, const uint8_t *b, uint64_t from,
			  uint64_t n)
{
	for (uint64_t i = from; i < n; i++)
		if (a[i] || (b && b[i]))
			return i;
	return n;
}

START_TEST(next_finds_what_a_byte_by_byte_search_finds)
{
	uint8_t a[100], b[100];
	uint64_t seed = 12345;

	for (int round = 0; round < 200; round++) {
		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		for (int k = 0; k < round % 4; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			a[(seed >> 33) % sizeof(a)] = 1;
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			if (round % 3 == 0)
				b[(seed >> 33) % sizeof(b)] = 2;
		}
		for (uint64_t n = 0; n <= sizeof(a); n += 7)
			for (uint64_t from = 0; from <= n; from++) {
				ck_assert_uint_eq(xpg_next(a, NULL, from, n),
						  next_slow(a, NULL, from, n));
				ck_assert_uint_eq(xpg_next(a, b, from, n),
						  next_slow(a, b, from, n));
			}
	}
}
END_TEST

START_TEST(nonzero_names_the_pages_holding_something)
{
	const uint64_t npages = 256; /* above the small-region read */
	uint8_t *p = xpg_alloc(npages * XPG_SIZE);
	uint8_t map[256], again[256];
	volatile uint8_t sink = 0;

	ck_assert_ptr_nonnull(p);
	/* populated, all zeros: read (the zero page), written back */
	for (uint64_t i = 10; i < 20; i++)
		sink |= ((volatile uint8_t *)p)[i * XPG_SIZE + 5];
	memset(p + 30 * XPG_SIZE, 0, 2 * XPG_SIZE);
	/* something at a page's last byte, at another's first */
	p[3 * XPG_SIZE + XPG_SIZE - 1] = 0x5a;
	p[100 * XPG_SIZE] = 0xa5;
	p[255 * XPG_SIZE + 64] = 1;
	ck_assert_uint_eq(sink, 0);

	xpg_nonzero(p, npages * XPG_SIZE, map);
	for (uint64_t i = 0; i < npages; i++)
		ck_assert_msg(map[i] == (i == 3 || i == 100 || i == 255),
			      "page %llu: %u", (unsigned long long)i, map[i]);
	/* the bytes are as they were, the populated zeros included */
	for (uint64_t i = 0; i < npages * XPG_SIZE; i++) {
		uint8_t want = i == 3 * XPG_SIZE + XPG_SIZE - 1 ? 0x5a
			       : i == 100 * XPG_SIZE ? 0xa5
			       : i == 255 * XPG_SIZE + 64 ? 1 : 0;

		ck_assert_msg(p[i] == want, "byte 0x%llx", (unsigned long long)i);
	}
	xpg_nonzero(p, npages * XPG_SIZE, again);
	ck_assert_mem_eq(map, again, sizeof(map));
	xpg_free(p, npages * XPG_SIZE);
}
END_TEST

/* The list's pages, sorted, as a bit mask (the buffer has 64 pages). */
static uint64_t listed(const struct xdirty *d)
{
	uint64_t m = 0;

	for (uint64_t i = 0; i < d->nlist; i++) {
		ck_assert_msg(!(m >> d->list[i] & 1), "page %llu listed twice",
			      (unsigned long long)d->list[i]);
		m |= 1ULL << d->list[i];
	}
	return m;
}

START_TEST(dirty_lists_the_pages_stored_to)
{
	const uint64_t npages = 64;
	uint8_t *p = xpg_alloc(npages * XPG_SIZE);
	struct xdirty d;

	ck_assert_ptr_nonnull(p);
	p[5 * XPG_SIZE] = 9; /* before tracking: not listed */
	ck_assert_int_eq(xdt_track(&d, p, npages * XPG_SIZE), 0);
	ck_assert_uint_eq(d.nlist, 0);
	/* a plain store, a memcpy across a page boundary, a read */
	((volatile uint8_t *)p)[3 * XPG_SIZE + 7] = 0x11;
	memcpy(p + 11 * XPG_SIZE - 2, "abcd", 4);
	ck_assert_uint_eq(((volatile uint8_t *)p)[40 * XPG_SIZE], 0);
	ck_assert_uint_eq(listed(&d), 1ULL << 3 | 1ULL << 10 | 1ULL << 11);
	ck_assert_uint_eq(p[3 * XPG_SIZE + 7], 0x11);
	ck_assert_mem_eq(p + 11 * XPG_SIZE - 2, "abcd", 4);
	ck_assert_uint_eq(p[5 * XPG_SIZE], 9);

	/* read-only again; page 3 written a second time stays writable */
	ck_assert_int_eq(xdt_rearm(&d), 0);
	ck_assert_uint_eq(d.nlist, 0);
	p[3 * XPG_SIZE] = 1;
	p[20 * XPG_SIZE + 100] = 2;
	ck_assert_uint_eq(listed(&d), 1ULL << 3 | 1ULL << 20);
	ck_assert_int_eq(xdt_rearm(&d), 0);
	ck_assert_uint_eq(listed(&d), 1ULL << 3);
	ck_assert_uint_eq(d.nkept, 1);
	p[3 * XPG_SIZE + 1] = 3;  /* kept: no fault, listed once */
	p[10 * XPG_SIZE] = 4;     /* read-only again: listed */
	ck_assert_uint_eq(listed(&d), 1ULL << 3 | 1ULL << 10);
	ck_assert_uint_eq(p[20 * XPG_SIZE + 100], 2);

	/* untracked: writable, nothing listed any more */
	xdt_untrack(&d);
	ck_assert_int_eq(d.on, 0);
	memset(p, 0x7f, npages * XPG_SIZE);
	ck_assert_uint_eq(p[63 * XPG_SIZE + 4095], 0x7f);
	xpg_free(p, npages * XPG_SIZE);
}
END_TEST

/* The handler passes on the faults that are not its own: the store
 * faults as it would without a tracker. */
START_TEST(dirty_leaves_other_faults_alone)
{
	uint8_t *p = xpg_alloc(4 * XPG_SIZE), *q = xpg_alloc(4 * XPG_SIZE);
	struct xdirty d;

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(xdt_track(&d, p, 4 * XPG_SIZE), 0);
	ck_assert_int_eq(mprotect(q, 4 * XPG_SIZE, PROT_READ), 0);
	((volatile uint8_t *)q)[XPG_SIZE] = 1; /* SIGSEGV */
}
END_TEST

static Suite *exec_pages_suite(void)
{
	Suite *s = suite_create("exec_pages");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, next_finds_what_a_byte_by_byte_search_finds);
	tcase_add_test(tc, nonzero_names_the_pages_holding_something);
	tcase_add_test(tc, dirty_lists_the_pages_stored_to);
	/* (under AddressSanitizer, its own handler reports the fault the
	 * tracker passed on and exits 1) */
	if (getenv("FTV_SANITIZED"))
		tcase_add_exit_test(tc, dirty_leaves_other_faults_alone, 1);
	else
		tcase_add_test_raise_signal(tc, dirty_leaves_other_faults_alone, SIGSEGV);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(exec_pages, exec_pages_suite)
