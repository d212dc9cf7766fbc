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

struct ftv_mutant;

/* What replaying a captured kernel needs to know of its arch, the replay
 * part of the world's arch table (world_archdesc.replay; NULL: replay has
 * no model of that arch's kernels). Each is verify/replay_<arch>.c. */
struct world_replaydesc {
	const struct sim_layout_arch *layout; /* placement, ftrace PLT size */
	/* A CALL_OPS layout site's synthetic body (after its patched word):
	 * where it starts and ends; and the words before init, that body
	 * and whatever else the capture did not record, written. */
	void (*body_range)(const struct sim_layout_site *s, uint64_t *start,
			   uint64_t *end);
	void (*write_body)(struct sim_aspace *as, const struct sim_layout_site *s);
	/* The arch's fields of the loader's record of such a site (kind,
	 * addresses, BTI/PAC, alignment); the rest is replay_map's. */
	void (*record)(const struct sim_layout_site *s, struct sim_site *r);
	/* An unknown site the kernel would reject as a misaligned CALL_OPS
	 * site ("Misaligned patch-site"). */
	int (*misaligned)(const struct sim_layout_site *s);
	/* Whether the patched call at pc reaches target. */
	int (*call_reaches)(uint64_t pc, uint64_t target);
	/* A module's ftrace PLT at plt calling caller: layout->ftrace_plt_size
	 * / 4 words (at most REPLAY_PLT_MAX_WORDS); 0, or -1 with err set. */
	int (*plt_words)(uint64_t plt, uint64_t caller, uint32_t *words,
			 struct ftv_err *err);
};
#define REPLAY_PLT_MAX_WORDS 8

/* The replay part of the world's arch table for a layout's "arch:" value;
 * NULL with err set ("replay models arm64 kernels") when replay has none. */
const struct world_replaydesc *replay_arch(const char *arch, const char *path,
					   struct ftv_err *err);

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
	const struct world_replaydesc *rd; /* the layout's arch */
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

/* The record whose ip is ip, or -1. */
long replay_site_at_ip(const struct replay_map *m, uint64_t ip);

/* verify/replay_batch.c: the batches, each a world, run by threads. */
#define REPLAY_MAX_JOBS 64

/* What they share. Batch b is elig[b * batch ...], at most batch records
 * of the map. The first batch run sets caller, have_caller and via_plt,
 * and the status of the sites out of ftrace_caller's reach. */
struct replay_batches {
	const struct replay_config *cfg;
	struct replay_map *m;
	const struct ftv_mutant *mutant;
	const size_t *elig;
	size_t nelig, batch;
	uint64_t caller;
	int have_caller;
	size_t via_plt;
};

/* One batch's outcome. */
struct replay_batch_result {
	int ret;                 /* 0, or -1 with err set */
	struct ftv_err err;
	int done;
	size_t violations, replayed;
	uint64_t func_calls, tracer_calls, plans, steps;
	char *report;            /* its world's report (world_report) */
	size_t nreport;
	struct world_boot_failure *bf; /* what init_nop refused in its world */
	size_t nbf;
};
void replay_batch_result_free(struct replay_batch_result *r);

/* Called for each batch, in batch order, once it is done; nonzero stops
 * the run (with err set). */
typedef int (*replay_merge_fn)(void *ctx, size_t b,
			       const struct replay_batch_result *r,
			       struct ftv_err *err);

/* Runs batches [first, end) on jobs threads (this one among them), the
 * first of them alone; merge sees every result in batch order. Returns
 * 0, or -1 with err set by the first batch (in order) that failed or by
 * merge. */
int replay_batches_run(struct replay_batches *bs, size_t first, size_t end,
		       unsigned jobs, replay_merge_fn merge, void *ctx,
		       struct ftv_err *err);

#endif
