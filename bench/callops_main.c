/* make bench, part 1: seed 000's table for the three arm64 schemes.
 *
 *   callops_overhead BUILD_DIR CSV [--calls N]
 *
 * BUILD_DIR holds bench/<set>/tracee.o and trampolines/; the table goes to
 * stdout, one line per row to CSV. Exits 1 when the shape the seed reports
 * does not hold (see shape_checks). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/machine.h"
#include "bench/overhead.h"
#include "util/err.h"

static const enum ftv_scheme schemes[] = {
	FTV_SCHEME_MCOUNT, FTV_SCHEME_TRAMP, FTV_SCHEME_CALLOPS,
};
#define NSCHEMES (sizeof(schemes) / sizeof(schemes[0]))
static const char *const scheme_titles[NSCHEMES] = {
	"mcount: the 2014 -pg scheme, ftrace_call -> list func",
	"tramp: WITH_ARGS with per-ops trampolines",
	"callops: DYNAMIC_FTRACE_WITH_CALL_OPS",
};

/* 1234567 -> "1,234,567", as the seed prints its totals. */
static const char *commas(uint64_t v, char *buf, size_t n)
{
	char digits[32];
	size_t len, o = 0;

	snprintf(digits, sizeof(digits), "%" PRIu64, v);
	len = strlen(digits);
	for (size_t i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
	return buf;
}

static double per_call(const struct ovh_measure *m)
{
	return (double)m->insns / (double)m->calls;
}

static void print_table(const char *title, const struct ovh_measure *m,
			uint64_t calls)
{
	const char *sep = "  ---------+------------++-------------+--------------+------------\n";
	char buf[40];

	printf("%s (%s calls)\n\n", title, commas(calls, buf, sizeof(buf)));
	printf("  Number of tracers     || Total       | Per-call instructions\n");
	printf("  Relevant | Irrelevant || (insns)     | Total        | Overhead\n");
	printf("  =========+============++=============+==============+============\n");
	for (unsigned r = 0; r < ovh_nrows; r++) {
		if (r == 5 || r == 9)
			printf("%s", sep);
		printf("  %8u | %10u || %11s | %12.2f | ", ovh_rows[r].relevant,
		       ovh_rows[r].irrelevant, commas(m[r].insns, buf, sizeof(buf)),
		       per_call(&m[r]));
		if (!ovh_rows[r].relevant)
			printf("%10s\n", "-");
		else
			printf("%10.2f\n", per_call(&m[r]) - per_call(&m[0]));
	}
	printf("%s\n", sep);
}

static int row_of(unsigned rel, unsigned irr)
{
	for (unsigned r = 0; r < ovh_nrows; r++)
		if (ovh_rows[r].relevant == rel && ovh_rows[r].irrelevant == irr)
			return (int)r;
	return -1;
}

/* The seed's conclusions, as checks on the measured figures: (a) with one
 * relevant tracer CALL_OPS costs the same whatever the irrelevant ones
 * (within 5%); the list func of the 2014 scheme grows at least tenfold
 * from 1 to 100 irrelevant tracers. The one-tracer costs are printed for
 * comparison. */
static int shape_checks(struct ovh_measure m[NSCHEMES][16])
{
	const struct ovh_measure *mc = m[0], *co = m[2];
	double base_co = per_call(&co[0]), base_mc = per_call(&mc[0]);
	double lo = 1e30, hi = 0, ratio, o11, o1100;
	int bad = 0;

	for (unsigned irr = 1; irr <= 100; irr = irr == 2 ? 10 : irr == 10 ? 100 : irr + 1) {
		double o = per_call(&co[row_of(1, irr)]) - base_co;

		lo = o < lo ? o : lo;
		hi = o > hi ? o : hi;
	}
	printf("shape: callops (1,1)..(1,100) overhead %.2f..%.2f insns/call: %s\n",
	       lo, hi, hi <= lo * 1.05 ? "flat (within 5%)" : "NOT FLAT");
	bad |= !(hi <= lo * 1.05);
	o11 = per_call(&mc[row_of(1, 1)]) - base_mc;
	o1100 = per_call(&mc[row_of(1, 100)]) - base_mc;
	ratio = o1100 / o11;
	printf("shape: mcount (1,100)/(1,1) overhead %.2f/%.2f = %.1fx: %s\n",
	       o1100, o11, ratio, ratio >= 10 ? "grows >= 10x" : "DOES NOT GROW 10x");
	bad |= !(ratio >= 10);
	printf("shape: one tracer alone (1,0) overhead: mcount %.2f, tramp %.2f, "
	       "callops %.2f insns/call\n", per_call(&mc[row_of(1, 0)]) - base_mc,
	       per_call(&m[1][row_of(1, 0)]) - per_call(&m[1][0]),
	       per_call(&co[row_of(1, 0)]) - base_co);
	return bad;
}

static int write_csv(const char *path, struct ovh_measure m[NSCHEMES][16])
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "relevant,irrelevant,calls");
	for (size_t s = 0; s < NSCHEMES; s++)
		fprintf(f, ",%1$s_insns,%1$s_per_call,%1$s_overhead",
			ftv_scheme_name(schemes[s]));
	fprintf(f, "\n");
	for (unsigned r = 0; r < ovh_nrows; r++) {
		fprintf(f, "%u,%u,%" PRIu64, ovh_rows[r].relevant,
			ovh_rows[r].irrelevant, m[0][r].calls);
		for (size_t s = 0; s < NSCHEMES; s++)
			fprintf(f, ",%" PRIu64 ",%.2f,%.2f", m[s][r].insns,
				per_call(&m[s][r]), per_call(&m[s][r]) - per_call(&m[s][0]));
		fprintf(f, "\n");
	}
	return fclose(f);
}

int main(int argc, char **argv)
{
	static struct ovh_measure m[NSCHEMES][16];
	char tracee_dir[4096], tramp_dir[4096];
	struct ovh_env env = { .tracee_dir = tracee_dir, .tramp_dir = tramp_dir };
	uint64_t calls = 100000;
	struct ftv_err err;
	double t0;

	if (argc == 5 && !strcmp(argv[3], "--calls"))
		calls = strtoull(argv[4], NULL, 0);
	else if (argc != 3) {
		fprintf(stderr, "usage: %s BUILD_DIR CSV [--calls N]\n", argv[0]);
		return 2;
	}
	if (!calls) {
		fprintf(stderr, "%s: --calls needs a positive number\n", argv[0]);
		return 2;
	}
	snprintf(tracee_dir, sizeof(tracee_dir), "%s/bench", argv[1]);
	snprintf(tramp_dir, sizeof(tramp_dir), "%s/trampolines", argv[1]);
	bench_machine(stdout);
	printf("seed 000's ftrace-ops sample: emulated instructions per call of an "
	       "empty traced function,\nops built by the ftrace core + arm64 backend "
	       "(every plan applied and verified on 1 CPU)\n\n");
	t0 = bench_wall();
	for (size_t s = 0; s < NSCHEMES; s++) {
		if (ovh_measure_rows(&env, schemes[s], calls, m[s], &err)) {
			fprintf(stderr, "callops_overhead: %s\n", err.msg);
			return 2;
		}
		print_table(scheme_titles[s], m[s], calls);
	}
	printf("(%.1f s wall)\n", bench_wall() - t0);
	if (write_csv(argv[2], m))
		return 2;
	printf("wrote %s\n", argv[2]);
	return shape_checks(m) ? 1 : 0;
}
