/* The bench's verdict lines (issue 18): each bench program that measures a
 * figure with a target appends it to the file named by $FTV_BENCH_TARGETS
 * (make bench sets it), and bench_block prints them all as the closing
 * block, with the machine and its load. Without the variable nothing is
 * written. */
#ifndef FTV_BENCH_TARGETS_H
#define FTV_BENCH_TARGETS_H

enum bench_cmp { BENCH_AT_LEAST, BENCH_BELOW, BENCH_AT_MOST };

/* One line: what was measured, the figure and its unit, how it compares
 * with the target, and a note (how it was measured; may be ""). */
void bench_target(const char *name, double figure, const char *unit,
		  enum bench_cmp cmp, double target, const char *note);

#endif
