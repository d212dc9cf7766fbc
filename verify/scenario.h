/* Conformance scenarios are data, herd-style: a file names the scheme, the
 * corpus objects, the CPUs and scheduler, a sequence of ftrace operations
 * and the expected verdict; one runner executes them all.
 *
 *   # a comment
 *   name     callops-two-tracers
 *   scheme   callops                 callops | tramp | mcount (arm64),
 *                                    pair | atomic (riscv64)
 *   arch     arm64                   optional: the scheme implies it; when
 *                                    both are given they must agree, and
 *                                    `arch riscv64` alone means its
 *                                    default scheme (atomic)
 *   objects  rand1 rand2             build/corpus/[random-]<set>/NAME.o
 *   modules  rand3                   loaded as modules at boot (optional)
 *   late-modules rand3               linked, loaded by `module-load` while
 *                                    the CPUs run (optional)
 *   object   /path/to/mymod.ko.xz    any object by path (repeatable; the rest
 *                                    of the line, relative to the file's
 *                                    directory): .o loaded with the kernel,
 *                                    .ko/.ko.xz/.ko.zst/.ko.gz as a module
 *                                    at boot (enable-modules enables it);
 *                                    undefined symbols bound to trap stubs
 *   call     myfunc1,myfunc2         the functions of those objects the
 *                                    workload calls (repeatable); without
 *                                    it, every one the call probe accepts
 *                                    (verify/world_probe.c)
 *   far-modules                      modules > 128 MiB from kernel text
 *   vacuous                          the scenario means to reach nothing
 *                                    (an ops on sites not enabled, no
 *                                    tracer call): without this line such
 *                                    a run is "vacuous: ..." and exit 2,
 *                                    a verdict on nothing (world_vacuous)
 *   symmetric                        every CPU gets the same call list
 *                                    and arguments (drawn once): the
 *                                    stateful walk may then treat the
 *                                    CPUs as interchangeable
 *   cpus     4
 *   policy   random                  random | quantum | pct (default random),
 *                                    or exhaustive: every execution is
 *                                    explored (ftv verify; verify/verify.h)
 *   quantum  200                     (quantum and pct)
 *   drain-hold 400                   the patcher's buffered stores are,
 *                                    half of them, held back for up to
 *                                    400 steps each (exec_config; not
 *                                    under exhaustive)
 *   cachetype DIC IDC                CTR_EL0.DIC and/or IDC of the cores
 *                                    (default neither; exec_config)
 *   seed     1
 *   rounds   30                      workload rounds per CPU
 *   calls    16                      calls per round per CPU
 *   steps    100000                  scheduler step budget to finish
 *                                    (default: 100000, or 4 per call per
 *                                    round per CPU when more: the
 *                                    budget grows with the world;
 *                                    running out is "budget exhausted",
 *                                    exit 3)
 *   mutate   bl-before-literal       a backend (of the scheme's arch) or
 *                                    core mutant (default none)
 *   expect   ok                      or: expect violation KIND [KIND...]
 *                                    (verify/violation_kind.h), or expect
 *                                    verified: explored completely, no
 *                                    violation; optional (ftv scenario
 *                                    then just reports; conform needs it)
 *   workload r1_f3 r1_f5             each CPU's round calls these traced
 *                                    functions (instead of `calls` random
 *                                    ones)
 *   max-executions 100000            exhaustive: stop (incomplete) after
 *                                    this many executions
 *   preempt  ftrace_caller+0x10      exhaustive: a CPU's turn also ends
 *                                    before this instruction (what ftv
 *                                    verify found loading watched data)
 *   observe  0xffff800011c30140      exhaustive replay: the CPUs read this
 *                                    data (8 bytes) that the patcher
 *                                    writes; its other stores to data are
 *                                    no steps (ftv verify writes them)
 *   channels 0xffff800011c30140      exhaustive replay: the addresses of
 *                                    the store buffer's channels in the
 *                                    walk's order (sbuf:N is the N-th;
 *                                    ftv verify writes them)
 *   schedule cpu0 patcher sbuf:1 ... exhaustive: replay this one
 *                                    execution (each step's agent: cpuN,
 *                                    patcher, text (the text_poke
 *                                    patcher) or sbuf; after ':' the
 *                                    write a fetch saw, or for sbuf the
 *                                    channel that drained: the Nth
 *                                    address the patcher buffered a store
 *                                    to; then the first ready agent):
 *                                    ftv verify's counterexamples; may
 *                                    span lines
 *   ops      t1 tracer_a             then operations, in order: the ftrace
 *   filter   t1 r1_f3,r1_f7          verbs (patcher/ftrace_verbs.h, the
 *   notrace  t1 r1_f5                language of the core scripts too);
 *   register t1                      `ops NAME TRACER` names tracer_a,
 *   run      20000                   tracer_b, graph or direct
 *   unregister t1
 *   direct   d1 ftv_direct_tramp     (d1 created with `ops d1 direct`)
 *   direct-modify d1 ftrace_stub_direct_tramp
 *   direct-remove d1
 *   enable-modules                   the boot modules' ftrace_module_enable
 *   module-load rand3                a late module: init_nop, enable, called
 *   module-unload rand3              no longer called, released, freed
 *   static-key on                    another task patches a jump label
 *                                    (ftv_static_key) while ftrace does
 *   static-key on ftv_key_a          static_key_enable(&ftv_key_a): every
 *                                    jump label of the key in the objects'
 *                                    __jump_table; once it returns, a CPU
 *                                    executing one must see the new
 *                                    instruction (else "not-visible")
 *   text-poke ftv_poke_site          patch_text: the word swapped with
 *                                    ftv_poke_site_alt's under
 *                                    stop_machine(); the same contract
 *   settle                           between operations (before every
 *                                    `run`): those above are applied at
 *                                    once, each to completion, before any
 *                                    CPU runs (cache maintenance done,
 *                                    every CPU synchronised since, grace
 *                                    periods over); those below are queued
 *
 * Under policy exhaustive the operations are all queued before any step
 * (`run` lines take no steps: every interleaving is explored anyway), but
 * for those a `settle` line follows: the walk starts from the world they
 * leave, and explores only the updates after it.
 *
 * scenario_lang.c reads and writes the files from one table of keywords
 * (scenario_keyword_at: arguments, parse, write, help; the ftv-scenario(5)
 * man page is printed from it too); scenario.c builds each run's world
 * configuration afresh from a scenario (scenario_world_config), runs and
 * judges it. Fuzz findings and replays, and ftv verify's counterexamples,
 * are written in the same format.
 */
#ifndef FTV_VERIFY_SCENARIO_H
#define FTV_VERIFY_SCENARIO_H

#include <stdio.h>

#include "verify/verify.h"
#include "verify/world.h"

struct ftv_mutant;

#define SCN_MAX_OPS 256
#define SCN_MAX_KINDS 8
#define SCN_MAX_SCHED 4096
#define SCN_MAX_PREEMPT 64
#define SCN_MAX_OBSERVE 256
#define SCN_MAX_CHANNELS 64 /* (executor/exec_sbuf.h XB_MAX_CHAN) */
#define SCN_MAX_USER 16       /* `object PATH` lines */
#define SCN_CALLS_MAX 4096    /* the `call` lists, joined */
#define SCN_MAX_ROUNDS 1000000u            /* `rounds`: some 23 M steps per CPU */
#define SCN_MAX_CALLS 4096u                /* `calls` per round (ftv replay's bound) */
#define SCN_MAX_STEPS 10000000000ull       /* `steps`: hours of emulation */

/* One operation: the verb's name and up to three arguments ("" when
 * absent; c is filter's "add"). */
struct scn_op {
	char verb[24];
	char a[64], b[1024], c[64];
	int line;
};

struct scenario {
	char path[1024];
	char name[128];
	struct world_config cfg;
	char objects[WORLD_MAX_OBJECTS][64];
	char modules[WORLD_MAX_OBJECTS][64];
	/* objects by path (`object`), as absolute paths where the file was
	 * found, and the functions to call (`call`, comma separated, "" for
	 * the probe's choice) */
	char user_objects[SCN_MAX_USER][1024];
	unsigned nuser;
	char call_list[SCN_CALLS_MAX];
	uint64_t steps;
	int expect_ok;
	char expect[SCN_MAX_KINDS][24];
	unsigned nexpect;
	struct scn_op ops[SCN_MAX_OPS];
	unsigned nops;
	int mutate_set, seed_set, cpus_set, steps_set;
	int vacuous_ok; /* `vacuous`: it means to reach nothing (world_vacuous) */
	int arch_line, scheme_line, mutate_line; /* where they were set, or 0 */
	enum ftv_arch arch;
	const struct ftv_mutant *mutant;         /* NULL: none */
	/* exhaustive exploration (policy exhaustive, expect verified) */
	int explore;
	int expect_verified;
	uint64_t max_executions;
	char call[WORLD_MAX_CALLS][64];
	char preempt[SCN_MAX_PREEMPT][96];
	unsigned npreempt;
	uint64_t observe[SCN_MAX_OBSERVE];
	unsigned nobserve;
	/* the walk's store buffer channels, in its order (exec_drain_channels) */
	uint64_t channels[SCN_MAX_CHANNELS];
	unsigned nchannels;
	struct exec_choice sched[SCN_MAX_SCHED];
	size_t nsched;
	/* `settle`: 1 + the number of operations before it, which are
	 * applied at once before any CPU runs; 0: no settle line */
	unsigned settle;
	/* Not from the file: the run's scn_result.trace_hash is left 0
	 * (ftv fuzz's iterations, where nobody reads it: hashing every
	 * event cost 2% of a campaign). */
	int no_trace_hash;
};

/* Parses a scenario file; a malformed line is one error naming file:line. */
int scenario_load(const char *path, struct scenario *s, struct ftv_err *err);
/* The same from an open stream (closed on return), path naming it in
 * errors: a replay text in memory (fmemopen), a fuzz harness' input. */
int scenario_read(FILE *f, const char *path, struct scenario *s, struct ftv_err *err);
/* Writes s as a scenario file scenario_load reads back to the same
 * scenario; header (may be NULL) is written first as '#' comment lines. */
void scenario_write(FILE *f, const struct scenario *s, const char *header);

/* The language's keywords (verify/scenario_lang.c), in the order
 * scenario_write writes them: what scenario_read, scenario_write and the
 * ftv-scenario(5) man page all read. The entry named "VERB" stands for
 * the operations (patcher/ftrace_verbs.h). */
struct scn_reader;
struct scn_keyword {
	const char *name;
	const char *args;          /* "NAME", "N", "FUNC...", "" for none */
	int min, max;              /* how many arguments; max -1: any */
	int (*parse)(struct scn_reader *r);
	/* its lines for s (none when s has the default); NULL: written by
	 * another keyword's (settle, among the operations) or implied
	 * (arch, by the scheme) */
	void (*write)(FILE *f, const char *kw, const struct scenario *s);
	const char *help;          /* one paragraph, for the man page */
};
/* The i-th keyword, NULL past the end. */
const struct scn_keyword *scenario_keyword_at(size_t i);
/* Whether a scenario's world performs verb v (patcher/ftrace_verbs.h):
 * the operations a scenario may list. */
struct ftrace_verb;
int scenario_verb_ok(const struct ftrace_verb *v);

/* The corpus object NAME of flag set `set` (ftv_scheme_corpus_set):
 * corpus_dir/<set>/NAME.o for the hand-written sources, else
 * corpus_dir/random-<set>/NAME.o for the random units. Writes the path
 * into buf; 0 if that file exists, -1 if neither does. */
int scenario_corpus_object(char *buf, size_t n, const char *corpus_dir, const char *set,
			   const char *name);
/* Whether an object given by path is loaded as a module (.ko, .ko.xz,
 * .ko.zst, .ko.gz) or with the kernel (anything else). */
int scenario_path_is_module(const char *path);
/* Adds an object by path (made absolute against dir, the scenario file's
 * directory, when relative; "" for the current one); -1 with err when
 * there are too many or the file cannot be read. */
int scenario_add_object(struct scenario *s, const char *dir, const char *path,
			struct ftv_err *err);
/* Appends names ("f1,f2" or "f1 f2") to the call list; -1 with err when it
 * is full. */
int scenario_add_calls(struct scenario *s, const char *names, struct ftv_err *err);
/* A world's configuration made afresh from s for one run (s is not
 * touched): its corpus objects and modules found under corpus_dir, the
 * objects given by path after them (probed for the workload's calls), the
 * `call` list and `workload` functions, tramp_dir, and when explore the
 * exhaustive policy. cfg points into sw->paths and into s, which must
 * outlive the world. -1 with err when s names no object, or calls
 * functions without objects by path. */
struct scenario_paths {
	char objects[WORLD_MAX_OBJECTS][1200];
	char modules[WORLD_MAX_OBJECTS][1200];
};
struct scenario_world {
	struct world_config cfg;
	struct scenario_paths paths;
};
int scenario_world_config(const struct scenario *s, const char *corpus_dir,
			  const char *tramp_dir, int explore, struct scenario_world *sw,
			  struct ftv_err *err);

struct scn_result {
	int verdict_ok;           /* the verdict matches the expectation */
	int explored;             /* exhaustive: a verification's verdict */
	int complete;             /* ... every execution explored */
	uint64_t executions;      /* ... how many */
	size_t cx_steps;          /* ... the shortest counterexample's steps */
	int violated;             /* violations were found */
	char kinds[256];          /* kinds found, space separated */
	size_t nviolations;
	struct world_stats stats;
	uint64_t trace_hash;        /* exec_trace_hash: equal for equal runs
				       (0 with scenario.no_trace_hash) */
	/* the step budget ran out with work left (world_budget_exhausted):
	 * no verdict on what did not run, exit 3, never a finding */
	int budget_out;
	char budget[160];
	/* nothing was verified (world_vacuous) and the file does not say it
	 * means that (`vacuous`): exit 2, vacuous_why says what */
	int vacuous;
	char vacuous_why[200];
};

/* Builds the world for s (objects under corpus_dir/<set>/, trampolines in
 * tramp_dir), runs its operations and judges the outcome; the report of
 * violations goes to out (may be NULL). */
int scenario_run(const struct scenario *s, const char *corpus_dir,
		 const char *tramp_dir, FILE *out, struct scn_result *res,
		 struct ftv_err *err);

/* Explores s exhaustively (whatever its policy) within vc's bounds: vr gets
 * the verdict (free it with verify_result_free). On a violation the
 * shortest counterexample is replayed in a fresh world, its report goes to
 * out (may be NULL), and *cx (may be NULL) becomes its replay scenario: s
 * with the schedule, the scheduling points and the kinds it shows. res
 * (may be NULL) is judged against s's expectation. */
int scenario_verify(const struct scenario *s, const char *corpus_dir,
		    const char *tramp_dir, const struct verify_config *vc,
		    FILE *out, struct verify_result *vr, struct scenario *cx,
		    struct scn_result *res, struct ftv_err *err);
/* The verdict in words: the scheduling points, "verified: N executions,
 * complete (...)", "incomplete after N executions (bound hit: ...)" or
 * "counterexample: K visible steps ..." with its schedule, and what the
 * reduction did. */
void scenario_verify_print(FILE *out, const struct scenario *s,
			   const struct verify_config *vc, const struct verify_result *vr);
/* The bounds a scenario file gives exhaustive exploration (its steps, its
 * max-executions, the reduction on). */
void scenario_verify_config(const struct scenario *s, struct verify_config *vc);

/* The step budget of a world when the file names none: 100000, or what
 * its CPUs x rounds x calls need when that is more: SCN_STEPS_PER_CALL
 * per call of a round (cfg's workload list, else its calls, else 16),
 * SCN_STEPS_PER_ROUND at least. A call is some ten instructions at most
 * a quantum apart (measured: 23 steps per CPU per round of 16 calls at 32
 * CPUs and 580 rounds), so the budget never ends a run that makes
 * progress. */
#define SCN_STEPS_PER_CALL 4
#define SCN_STEPS_PER_ROUND 64
uint64_t scenario_default_steps(const struct world_config *cfg);

/* A scenario's configuration as keys of the JSON object being written
 * (scheme, arch, cpus, policy, seed, mutate: verify/scenario_json.c), for
 * the commands' --json. */
struct json;
void scenario_json_config(struct json *j, const struct scenario *s);

#endif
