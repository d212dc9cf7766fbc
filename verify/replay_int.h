/* Internals of the replay (verify/replay.h): the layout turned into what a
 * world needs (memory to back, function bodies, sites), shared by
 * replay_map.c (building it, loading it into a world) and replay.c (the
 * batches and the report). */
#ifndef FTV_VERIFY_REPLAY_INT_H
#define FTV_VERIFY_REPLAY_INT_H

#include "sim/image.h"
#include "layout/layout.h"
#include "layout/layout_place.h"
#include "verify/replay.h"
#include "verify/world_int.h"

/* What replay does with one layout site. */
enum replay_status {
	RS_OK,         /* a CALL_OPS site: init_nop, enabled in its batch */
	RS_MISALIGNED, /* "Misaligned patch-site": never a record */
	RS_OTHER,      /* not a CALL_OPS site (args, mcount, unknown) */
	RS_MODULE,     /* a module's site out of BL range, no PLT in range */
	RS_RANGE,      /* vmlinux site out of BL range of ftrace_caller */
	RS_VALIDATE,   /* init_nop found other words than it expects */
	RS_NOROOM,     /* function too small for its synthetic body */
	RS_UNPLACED,   /* a module the loader model could not place */
};

/* A range of memory backed at its captured address. */
struct replay_span {
	uint64_t start, end; /* page aligned */
};

struct replay_map {
	/* The layout with its modules placed (layout/layout_place.h): the
	 * sites of placed modules have addresses; site i is the input's. */
	struct sim_layout *l;
	struct sim_layout_placement place;
	int *mod_of;                /* per site: index in place.mods, -1 vmlinux */
	enum replay_status *status; /* per layout site */
	struct replay_span *spans;
	size_t nspans;
	/* The records: the layout's CALL_OPS sites with an ip, by ip;
	 * site_of[i] is the layout index of sites[i]; order[] lists the
	 * records in batch order (vmlinux, then module after module in load
	 * order). */
	struct sim_site *sites;
	size_t *site_of, *order;
	size_t nsites;
	const char *object; /* the layout's path, as each site's object */
};

/* Places the modules (far: all in the PLT window), classifies every site,
 * merges the text to back and builds the records. Returns -1 with err set
 * when the text cannot be backed. Takes no ownership of l. */
int replay_map_build(struct replay_map *m, const struct sim_layout *l,
		     const char *path, bool far, struct ftv_err *err);
void replay_map_free(struct replay_map *m);
/* Creates w->as and w->img: the captured text and its synthetic bodies,
 * the functions' symbols, the trampolines linked after the text, and each
 * loaded module's ftrace PLT (loaded[k]: place.mods[k] is loaded in this
 * world; NULL: every module). */
int replay_load(struct world *w, const struct replay_map *m,
		const unsigned char *loaded, struct ftv_err *err);

#endif
