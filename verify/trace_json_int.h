/* What the two halves of the Chrome trace-event writer share
 * (verify/trace_json.c collects a world's events in time order and drives
 * the writing; verify/trace_json_events.c writes each kind of event). */
#ifndef FTV_VERIFY_TRACE_JSON_INT_H
#define FTV_VERIFY_TRACE_JSON_INT_H

#include <stdint.h>
#include <stdio.h>

#include "util/json.h"
#include "verify/trace_json.h"
#include "verify/world_int.h"

#define TJ_NS_PER_STEP 1000000ULL /* one scheduler step is 1 ms */
#define TJ_SPACING_NS 1000ULL     /* 1 us between the events of a step */

/* Track ids: CPU n is thread n + 1; then the patcher and the store
 * buffer. */
/* tracks: the CPUs, ftrace's patcher (with the kernel scheme: the patcher
 * CPU running the kernel's code), the store buffer, another task patching
 * text (PLAN_AGENT_TEXT) */
enum { TID_PATCHER = 1000, TID_SBUF = 1001, TID_TEXT = 1002 };

static inline int cpu_tid(int cpu)
{
	return cpu + 1;
}

struct trace_json {
	FILE *f;
	int own;       /* f was opened by trace_json_create */
	uint64_t flows; /* flow ids are the file's, not a process's */
	char path[1024];
	struct json j;
	unsigned npid;
};

enum src { S_OBS, S_TL, S_EV, S_XVIOL, S_WVIOL };

struct item {
	uint64_t step;
	uint64_t ts, dur; /* ns */
	size_t idx;       /* in its source */
	size_t seq;       /* the order it was collected in */
	enum src src;
};

/* What one world's writing needs at hand. */
struct tjw {
	struct trace_json *tj;
	struct json *j;
	struct world *w;
	unsigned pid;
	struct item *it;
	size_t nit, capit;
	const struct exec_obs *obs;
	const struct exec_event *ev;
	const struct tl_event *tl;
	size_t nobs, nev, ntl;
	/* the ts of each plan step performed (key plan << 32 | step, in
	 * order) and of each write's drain (by write id, 0: none) */
	struct pstep {
		uint64_t key, ts;
	} *ps;
	size_t np, capp;
	uint64_t *drain;
	size_t ndrain;
	/* the CPUs that fetched each write already (bit per CPU), so a flow
	 * arrow goes to the first fetch only */
	uint32_t *seen;
	unsigned depth[EXEC_MAX_CPUS]; /* open function slices */
	/* per patcher agent (its own track): the plan whose slice is open
	 * or -1, the ts where that plan's last step ends, the step of its
	 * previous plan step */
	int plan_open[PLAN_AGENTS];
	uint64_t plan_end[PLAN_AGENTS], prev_step[PLAN_AGENTS];
	uint64_t last_ts;
};

/* verify/trace_json_events.c: an event's opening (ph, name, cat, track,
 * ts); a metadata event; and one writer per kind of item. */
void tj_begin_event(struct tjw *t, const char *ph, const char *name, const char *cat,
			int tid, uint64_t ts);
void tj_meta(struct tjw *t, const char *what, int tid, const char *key, const char *name,
		 uint64_t sort);
void tj_write_obs(struct tjw *t, const struct item *it);
void tj_write_tl(struct tjw *t, const struct item *it);
void tj_write_plan_step(struct tjw *t, const struct item *it);
void tj_write_drain(struct tjw *t, const struct item *it);
void tj_write_violation(struct tjw *t, const struct item *it);
void tj_close_plan(struct tjw *t);

#endif
