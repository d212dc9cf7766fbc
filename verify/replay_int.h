/* Internals of the replay (verify/replay.h): the layout turned into what a
 * world needs (memory to back, function bodies, sites), shared by
 * replay_map.c (building it, loading it into a world) and replay.c (the
 * batches and the report). */
#ifndef FTV_VERIFY_REPLAY_INT_H
#define FTV_VERIFY_REPLAY_INT_H

#include "sim/image.h"
#include "layout/layout.h"
#include "verify/replay.h"
#include "verify/world_int.h"

/* What replay does with one layout site. */
enum replay_status {
	RS_OK,         /* a CALL_OPS site: init_nop, enabled in its batch */
	RS_MISALIGNED, /* "Misaligned patch-site": never a record */
	RS_OTHER,      /* not a CALL_OPS site (args, mcount, unknown) */
	RS_MODULE,     /* a module's site out of BL range: needs its PLT */
	RS_RANGE,      /* vmlinux site out of BL range of ftrace_caller */
	RS_VALIDATE,   /* init_nop found other words than it expects */
	RS_NOROOM,     /* function too small for its synthetic body */
};

/* A range of memory backed at its captured address. */
struct replay_span {
	uint64_t start, end; /* page aligned */
};

struct replay_map {
	struct sim_layout *l;
	enum replay_status *status; /* per layout site */
	struct replay_span *spans;
	size_t nspans;
	/* The records: the layout's CALL_OPS sites with an ip, in layout
	 * order; site_of[i] is the layout index of sites[i]. */
	struct sim_site *sites;
	size_t *site_of;
	size_t nsites;
	const char *object; /* the layout's path, as each site's object */
};

/* Classifies every site, merges the text to back and builds the records.
 * Returns -1 with err set when the text cannot be backed. */
int replay_map_build(struct replay_map *m, struct sim_layout *l,
		     const char *path, struct ftv_err *err);
void replay_map_free(struct replay_map *m);
/* Creates w->as and w->img: the captured text and its synthetic bodies,
 * the functions' symbols, the trampolines linked after the text. */
int replay_load(struct world *w, const struct replay_map *m,
		struct ftv_err *err);

#endif
