/* The fuzz campaign engine: iteration seeds, forked workers and their
 * messages, findings written the moment they are found, signals.
 * tools/cmd_fuzz.c parses the options, calls fuzz_campaign_run and prints
 * what the engine reports (fuzz_campaign.report).
 *
 *   fuzz_campaign_catch_signals(1);     before the campaign
 *   fuzz_campaign_run(&c);              the campaign: report() per message
 *   fuzz_campaign_signal();             SIGINT, SIGTERM or 0
 *
 * Iteration i's seed is fuzz_iter_seed(seed, i); shard I of N runs the
 * iterations i with i % N == I, the k-th one this process runs being
 * i = I + k * N; J workers (forked when J > 1) run the k-th ones with
 * k % J == w.
 *
 * Nothing found is lost. A worker that finds a violation sends its replay
 * text at once, before shrinking, and the engine writes it to `out` (or
 * the first free suffixed name: a file there is kept); each smaller case
 * the shrink keeps replaces that file (outfile_replace: whole at every
 * instant), and the shrunk one replaces it last. A file that cannot be
 * written is printed on errout. So a campaign killed mid-shrink leaves
 * the smallest case so far on disk.
 *
 * Signals. SIGINT and SIGTERM (timeout(1)'s default, a CI job cancelled)
 * are one request: every worker ends after the scenario run in progress,
 * a shrink is cut short and its case written, the caller prints the
 * summary. A terminal's Ctrl-C and timeout(1) deliver the signal to the
 * whole process group, and timeout(1) to the child as well: a signal
 * within FUZZ_SIGNAL_SAME_NS of the first is the same request, not "the
 * second Ctrl-C". A later one kills the campaign process (its finding is
 * on disk already). Workers never die of the request: their parent waits
 * for their finding.
 */
#ifndef FTV_VERIFY_FUZZ_CAMPAIGN_H
#define FTV_VERIFY_FUZZ_CAMPAIGN_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "verify/fuzz.h"

#define FUZZ_MAX_JOBS 64
/* Two deliveries of one request (process group and child) land within
 * microseconds; a person's second Ctrl-C comes a good fraction of a
 * second later. */
#define FUZZ_SIGNAL_SAME_NS 250000000L

enum fuzz_msg_type { FUZZ_M_ITER, FUZZ_M_SHRINK, FUZZ_M_TEXT, FUZZ_M_FOUND, FUZZ_M_ERROR };

/* Why a shrink was cut short (fuzz_msg.cut). */
enum { FUZZ_CUT_NONE, FUZZ_CUT_TIME, FUZZ_CUT_SIGNAL };

/* What a worker tells the campaign; small enough (< PIPE_BUF) that writes
 * from several workers into one pipe never interleave. */
struct fuzz_msg {
	int type;
	unsigned worker;
	uint64_t iter, iter_seed;
	int violated;
	int budget;    /* FUZZ_M_ITER: out of steps, not judged (scn_result.budget_out) */
	int final;     /* FUZZ_M_FOUND: the shrink is over (else: a case so far) */
	uint64_t transitions, steps, plans;
	uint64_t nviolations;
	unsigned tried, accepted;
	unsigned ops_before, ops_after, cpus_before, cpus_after;
	unsigned rounds_before, rounds_after;
	int cut;       /* FUZZ_CUT_*: the shrink was cut short */
	unsigned len;  /* FUZZ_M_TEXT: bytes of text */
	char kinds[260]; /* FUZZ_M_ITER: the kinds found, or why the budget ran out */
	char kind[24];   /* the kind the shrink kept */
	char text[1500]; /* FUZZ_M_TEXT: a piece of the replay file; FUZZ_M_ERROR: the error */
};

struct fuzz_campaign;

/* A message for the caller to print. FUZZ_M_FOUND comes once per final
 * finding, with its replay text and the file it is in (NULL: it could not
 * be written, and went to errout); first: the one that ends the campaign
 * (the others were finished by workers before they stopped). */
typedef void (*fuzz_report_fn)(void *ctx, struct fuzz_campaign *c, const struct fuzz_msg *m,
			       const char *text, const char *path, int first);

struct fuzz_campaign {
	/* set by the caller */
	const char *corpus_dir, *tramp_dir;
	struct fuzz_gen g;
	uint64_t seed;
	uint64_t iterations;     /* per process (this shard), 0: time_s */
	double time_s;
	unsigned jobs, shard, nshards, shrink_budget;
	char out[1024];          /* the replay file (outfile rules) */
	char cmdline[2048];      /* in the replay file's header */
	struct timespec start;   /* the command's: time_s counts from here */
	FILE *errout;            /* notes on the replay files */
	fuzz_report_fn report;
	void *ctx;

	/* the outcome */
	struct timespec t0;      /* the campaign's start (fuzz_campaign_run) */
	uint64_t done, transitions, steps, violations;
	uint64_t budget; /* iterations that ran out of steps (not findings) */
	int found, error;

	/* the engine's */
	pid_t pids[FUZZ_MAX_JOBS];
	/* worker w is shrinking a finding (its violating ITER came, its
	 * final FOUND not yet) */
	unsigned char shrinking[FUZZ_MAX_JOBS];
	int stopped, forwarded; /* the workers were told to stop; the signal sent on */
	int fd; /* a worker's pipe, -1 in-process */
	/* the replay text each worker is sending (FUZZ_M_TEXT pieces), and
	 * the file its finding is in ("" until written) */
	char *text[FUZZ_MAX_JOBS];
	size_t text_len[FUZZ_MAX_JOBS];
	char written[FUZZ_MAX_JOBS][1100];
};

/* Installs the handlers of SIGINT and SIGTERM: the campaign process
 * (campaign 1) dies of a second request, a worker (0) never does. */
void fuzz_campaign_catch_signals(int campaign);
/* The signal that asked the campaign to stop (SIGINT or SIGTERM), or 0. */
int fuzz_campaign_signal(void);

/* Runs the campaign: c's configuration set, the rest zeroed. Returns 0, or
 * -1 when the workers could not be started (c->error set). */
int fuzz_campaign_run(struct fuzz_campaign *c);
/* Seconds since the campaign started. */
double fuzz_campaign_elapsed(const struct fuzz_campaign *c);
/* Frees what the campaign holds. */
void fuzz_campaign_free(struct fuzz_campaign *c);

#endif
