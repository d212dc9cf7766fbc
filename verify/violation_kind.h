/* The violation kinds: one table (verify/violation_kind.c) of every kind a
 * report can show, with the layer that finds it, what it means in a line,
 * and the corpus scenario that pins it (reports it; tests/
 * test_violation_kind.c runs each). `expect violation KIND` is checked
 * against it, world_add_violation refuses a kind it does not list, and the
 * man page's VIOLATIONS section is printed from it (ftv help --man). */
#ifndef FTV_VERIFY_VIOLATION_KIND_H
#define FTV_VERIFY_VIOLATION_KIND_H

#include <stddef.h>

struct violation_kind {
	const char *name;      /* as reports and `expect violation` write it */
	const char *layer;     /* "executor" (executor/exec.h) or "world" (the
				  checks and explanations of verify/) */
	const char *meaning;   /* one line */
	/* corpus/scenarios/<scenario>.scn reports it; NULL: no scenario
	 * does yet, and `unpinned` says what pins it instead */
	const char *scenario;
	const char *unpinned;
};

/* The i-th kind, NULL past the end. */
const struct violation_kind *violation_kind_at(size_t i);
const struct violation_kind *violation_kind_find(const char *name);
/* "bad-branch, bad-ip, ...": every kind, for messages. */
const char *violation_kind_list(char *buf, size_t n);

#endif
