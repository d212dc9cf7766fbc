/* The reduced walk's internals (exec_dpor.c), shared with its stateful
 * part (exec_dpor_cache.c). */
#ifndef FTV_EXECUTOR_EXEC_DPOR_INT_H
#define FTV_EXECUTOR_EXEC_DPOR_INT_H

#include "executor/exec_dpor.h"
#include "executor/exec_dpor_state.h"
#include "util/rng.h"

enum { N_REDUCED, N_NAIVE, N_SPLIT };

/* A transition: an agent and a value, with the footprint of its step. */
struct xdtr {
	unsigned agent, val, nval;
	size_t off, len;          /* in the node's pool */
};

struct xdnode {
	uint64_t ready, backtrack, done;
	int agent;                /* being explored, -1: none */
	unsigned val, nval;       /* nval 0: not known yet (1: no choice) */
	int vset;                 /* val is decided */
	uint64_t vdone;           /* values of agent explored */
	unsigned ord;             /* agent-branching nodes above */
	int kind;
	int owned;                /* in a subtree this shard explores */
	struct xdtr *sleep;
	size_t nsleep, capsleep;
	struct xdtr *expl;
	size_t nexpl, capexpl;
	uint64_t *pool;
	size_t npool, cappool;
	/* stateful (xd_set_stateful): the state hashed here, if it was
	 * (hashed), the visible steps before it, the summary of its
	 * explored subtree, and whether the run was cut here at a state
	 * the table knew (its summary is the table's) */
	uint64_t h[2];
	int hashed, cutn;
	/* under symmetry (xd_state_sym): h is canonical, pi the node's
	 * permutation (CPU c at canonical position pi[c]) */
	int sym;
	uint8_t pi[XD_SYM_MAX];
	uint32_t vdepth;
	struct xdsum sum;
};

struct xdstep {
	unsigned agent, val, nval;
	unsigned nchoices;
	uint64_t ready;
	size_t off, len;          /* footprint in d->pool */
	uint32_t seq;             /* its place among its agent's steps, from 1 */
	int norm;                 /* footprint sorted and merged */
	int vis;                  /* touches a visible location */
	uint64_t rd, wr;          /* locations read / written, hashed to
				     one bit each (a quick no-conflict test) */
};

/* The summary's agents by location (rd, wr: agent masks), in an open
 * table of d->rloc (loc + 1, 0: empty). */
struct xdrloc {
	uint32_t loc1;
	int closed;
	uint64_t rd, wr;
};

struct xdpor {
	unsigned nagents, split, shard, nshards;
	int reduce;
	struct xdnode *node;
	size_t nnode, capnode;
	struct xdstep *st;
	size_t nst, capst;
	uint64_t *pool;           /* footprints: loc << 2 | mode */
	size_t npool, cappool;
	uint32_t *vc;             /* nst x vw clocks */
	unsigned vw;              /* the clocks' width: 1 + the highest agent
				     of the run analysed */
	size_t capvc;
	int cut;
	size_t last_nst;          /* the steps of the run xd_end_run analysed
				     last (xd_resume may keep up to these) */
	int split_seen;           /* the run passed a split node */
	uint64_t prefix_next;
	int random;
	struct ftv_rng rng;
	int oom;
	struct xd_stats s;
	/* stateful DPOR (exec_dpor_state.h): the table, the state the next
	 * fresh node is in (xd_state), the node a run was cut at (+ 1) */
	struct xdss *ss;
	uint64_t next_h[2];
	int next_hashed;
	unsigned next_sym;        /* CPUs of next_pi, 0: no symmetry */
	uint8_t next_pi[XD_SYM_MAX];
	size_t cut_at;
	uint16_t *slbuf;
	size_t capslbuf;
	struct xdrloc *rloc;
	size_t caprloc;
};

static inline uint64_t bit(unsigned a)
{
	return 1ULL << a;
}

/* Every value of agent sleeps at n (known only when one does). */
static inline int fully_asleep(const struct xdnode *n, unsigned agent)
{
	unsigned cnt = 0, nval = 0;

	for (size_t i = 0; i < n->nsleep; i++)
		if (n->sleep[i].agent == agent) {
			cnt++;
			nval = n->sleep[i].nval ? n->sleep[i].nval : 1;
		}
	return cnt && cnt >= nval;
}

static inline uint32_t *clock_of(const struct xdpor *d, size_t k)
{
	return d->vc + k * d->vw;
}

/* exec_dpor_cache.c: stateful DPOR (exec_dpor_state.h). The fresh node n
 * (index k) is in a state the table finished: 1, the run is cut there;
 * node k is finished (leaving the path); after a run cut at node k, the
 * races between its prefix and the summary reversed. */
int xdc_known_state(struct xdpor *d, struct xdnode *n, size_t k);
void xdc_finish_node(struct xdpor *d, size_t k);
void xdc_reverse_summary(struct xdpor *d, size_t k);

#endif
