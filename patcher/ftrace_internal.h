/* Private to patcher/ftrace_*.c: the host-side state of the ftrace core
 * model. Users go through patcher/ftrace_core.h. */
#ifndef FTV_PATCHER_FTRACE_INTERNAL_H
#define FTV_PATCHER_FTRACE_INTERNAL_H

#include "patcher/ftrace_core.h"

/* A sorted set of record ips (the kernel's ftrace_hash). */
struct ipset {
	uint64_t *v;
	size_t n, cap;
};

int ipset_has(const struct ipset *s, uint64_t ip);
int ipset_add(struct ipset *s, uint64_t ip);
void ipset_clear(struct ipset *s);
void ipset_release(struct ipset *s);
int ipset_copy(struct ipset *dst, const struct ipset *src);

/* An emulated sorted-ip table (see FTV_TABLE_COUNT). */
struct emu_table {
	uint64_t ptr;  /* what ops->filter holds: first ip, or 0 */
	uint64_t n;
};

struct ftrace_ops {
	struct ftrace_core *core;
	char *name;
	int id;
	uint64_t func;
	unsigned flags;
	uint64_t private_data;
	uint64_t trampoline, trampoline_size;
	uint64_t direct_call;
	struct ipset filter, notrace;
	uint64_t addr; /* struct ftv_ops in emulated memory */
	struct emu_table filter_tbl, notrace_tbl;
	int tables_owned; /* 0: tables borrowed from another ops */
	int registered;
	int dead; /* unregistered and freed: may not come back */
	/* Records whose site calls this ops' trampoline after the last
	 * update (the kernel's tramp_hash). */
	struct ipset tramp_hash;
	struct ftrace_ops *next;     /* registered list, head first */
	struct ftrace_ops *all_next; /* every ops, for ftrace_core_free */
};

struct pending_free {
	uint64_t addr, len;
	const char *what;
};

struct ftrace_core {
	struct ftrace_core_config cfg;
	struct ftrace_rec *recs;
	size_t nrecs, cap;
	struct ftrace_ops *list; /* registered ops, head first */
	struct ftrace_ops *all;
	int next_id;
	uint64_t list_ops, nop_ops, list_head, trace_op;
	uint64_t trace_func; /* what ftrace_call calls now */
	int graph_enabled;
	struct ftrace_ops *graph_ops;
	struct ftrace_ops *removed_ops;
	struct ftrace_ops *tmp_direct;
	struct pending_free *frees; /* released at the end of the update */
	size_t nfrees, capfrees;
	char *bug;
	int no_stop_machine; /* this update patches code nobody runs yet */
	/* update_ftrace_direct_add/del is moving a registered direct ops'
	 * filter (ftrace_update_ops): set_hash lets it (ftrace_direct_batch.c) */
	int direct_batch;
};

/* What ftrace_modify_all_code must do besides the calls. */
enum { GRAPH_KEEP, GRAPH_START, GRAPH_STOP };

/* ftrace_core.c */
int core_check_alive(struct ftrace_core *c, struct ftv_err *err);
int core_oom(struct ftv_err *err);
void core_name(struct ftrace_core *c, uint64_t addr, uint64_t size,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* ftrace_bug(): r (may be NULL) is left FAILED|DISABLED and ftrace is
 * killed (the first bug is kept). */
void core_bug(struct ftrace_core *c, struct ftrace_rec *r,
	      const char *verb, const char *msg);

/* ftrace_update.c */
int core_update(struct ftrace_core *c, int graph_cmd, struct plan *p,
		struct ftv_err *err);
int core_queue_free(struct ftrace_core *c, uint64_t addr, uint64_t len,
		    const char *what);
int core_finish_frees(struct ftrace_core *c, struct plan *p);

/* ftrace_addr.c */
int ops_traces(const struct ftrace_ops *op, uint64_t ip);

/* ftrace_ops.c */
/* ftrace_set_filter's SPEC as record ips, added to *out */
int ops_parse_spec(struct ftrace_core *c, const char *spec, struct ipset *out,
		   struct ftv_err *err);
int ops_write_tables(struct ftrace_core *c, struct ftrace_ops *ops,
		     struct plan *p, struct ftv_err *err);
int ops_write_struct(struct ftrace_ops *ops, uint64_t next, struct plan *p);
int ops_link(struct ftrace_core *c, struct ftrace_ops *ops, struct plan *p,
	     struct ftv_err *err);
int ops_unlink(struct ftrace_core *c, struct ftrace_ops *ops, struct plan *p);
int ops_queue_release(struct ftrace_core *c, struct ftrace_ops *ops);

/* ftrace_emu.c */
int emu_w64(struct plan *p, uint64_t addr, uint64_t val, const char *what);
int emu_publish_barrier(struct ftrace_core *c, struct plan *p);

#endif
