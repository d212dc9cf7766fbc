/* A world's run as Chrome trace-event JSON (the JSON Object Format:
 * {"displayTimeUnit", "otherData", "traceEvents": [...]}), which
 * ui.perfetto.dev and chrome://tracing open, and tools/timeline.py draws.
 *
 * One process per world, named by its scenario; in it a track (thread) per
 * CPU, one for the patcher and one for the store buffer:
 *  - cpuN: the traced functions the CPU entered, as slices from entry to
 *    return (B/E), nested as they called each other; inside them each
 *    fetch of a watched instruction word with the value seen and its
 *    disassembly, each load of an ops literal, each tracer call (the
 *    tracer, its ops, ip and parent_ip) and direct trampoline entry (X);
 *    the quiescent points between workload rounds (instants);
 *  - patcher: each update's plan (B/E, "register t1") and in it each step
 *    (X: the write with old and new words disassembled, the barrier, the
 *    cache maintenance, the IPI, the wait for quiescence), a step lasting
 *    from the end of the previous one until it was performed;
 *  - store buffer: each write as it becomes visible (X);
 *  - flow arrows (s, t, f with one id each) from the plan step that made a
 *    write, through the store buffer where it became visible, to the first
 *    fetch or load of it by each CPU;
 *  - every violation as an instant event on its CPU's track (the
 *    patcher's when it has no CPU), named by its kind, with the message.
 *
 * Time: the executor's scheduler step. One step is 1 ms of the timeline
 * (ts = step * 1000 us); the events of one step are spread over it in the
 * order they happened, 1 us apart (closer when a step has more than 999:
 * a CPU's turn may run many calls). So "step 154" of a report is at 154 ms.
 *
 *   cfg.timeline = 1;                      the world records its timeline
 *   ... world_new, operations, world_finish ...
 *   trace_json_write(w, "callops-basic", f);   0, or -1 on a write error
 *
 * or, for several worlds in one file, one process each:
 *   tj = trace_json_open(f);  (or trace_json_create(path, &err))
 *   ... trace_json_world(tj, w, name) per world ...
 *   trace_json_close(tj);     (or trace_json_finish(tj, &err))
 * scenario_run calls trace_json_world for every scenario whose
 * cfg.trace_json is set (which implies cfg.timeline). */
#ifndef FTV_VERIFY_TRACE_JSON_H
#define FTV_VERIFY_TRACE_JSON_H

#include <stdio.h>

#include "util/err.h"

struct world;
struct trace_json;

/* Starts the trace on f (the caller closes f after trace_json_close). */
struct trace_json *trace_json_open(FILE *f);
/* Creates the file at path and starts the trace on it; NULL with err
 * ("PATH: cannot write: ...") when it cannot. trace_json_finish ends the
 * trace and closes the file (-1 with err naming it on a write error); it
 * does nothing on NULL. */
struct trace_json *trace_json_create(const char *path, struct ftv_err *err);
int trace_json_finish(struct trace_json *tj, struct ftv_err *err);
/* Adds w's run as the next process. w must have been created with
 * cfg.timeline (or cfg.trace_json) set, else only the executor's events
 * are there: plans, drains, fetches, no functions nor tracer calls. */
int trace_json_world(struct trace_json *tj, struct world *w, const char *name);
/* Ends the JSON text and frees tj: 0, or -1 if a write failed. */
int trace_json_close(struct trace_json *tj);
/* All three for one world. */
int trace_json_write(struct world *w, const char *name, FILE *f);

#endif
