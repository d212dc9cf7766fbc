/* The world as the target of the ftrace verbs (patcher/ftrace_verbs.h):
 * what a scenario's operations do to it, and how an operation's words are
 * handed to its verb. */
#include "verify/scenario_int.h"

#include <string.h>

/* The operations (patcher/ftrace_verbs.h) performed on a world. */
static int w_ops_new(void *ctx, const char *name, char *const *args, int nargs,
		     struct ftv_err *err)
{
	(void)nargs;
	return world_ops(ctx, name, args[0], err) ? 0 : -1;
}

static struct ftrace_ops *w_ops_find(void *ctx, const char *name)
{
	return world_find_ops(ctx, name);
}

static int w_set_filter(void *ctx, struct ftrace_ops *ops, const char *spec, int reset,
			int notrace, struct ftv_err *err)
{
	return world_filter(ctx, ops, spec, reset, notrace, err);
}

static int w_register(void *ctx, struct ftrace_ops *ops, struct ftv_err *err)
{
	return world_register(ctx, ops, err);
}

static int w_unregister(void *ctx, struct ftrace_ops *ops, struct ftv_err *err)
{
	return world_unregister(ctx, ops, err);
}

static int w_direct(void *ctx, struct ftrace_ops *ops, const char *tramp, struct ftv_err *err)
{
	return world_direct(ctx, ops, tramp, err);
}

static int w_direct_modify(void *ctx, struct ftrace_ops *ops, const char *tramp,
			   struct ftv_err *err)
{
	return world_direct_modify(ctx, ops, tramp, err);
}

static int w_bpf_update(void *ctx, struct ftrace_ops *ops, const char *image,
			struct ftv_err *err)
{
	return world_bpf_update(ctx, ops, image, err);
}

static int w_direct_remove(void *ctx, struct ftrace_ops *ops, struct ftv_err *err)
{
	return world_direct_remove(ctx, ops, err);
}

static int w_direct_batch(void *ctx, struct ftrace_ops *ops, const char *spec,
			  const char *tramp, struct ftv_err *err)
{
	return world_direct_batch(ctx, ops, spec, tramp, err);
}

static int w_enable_modules(void *ctx, const char *module, struct ftv_err *err)
{
	return world_enable_modules(ctx, module, err);
}

static int w_load_module(void *ctx, const char *module, struct ftv_err *err)
{
	return world_load_module(ctx, module, err);
}

static int w_unload_module(void *ctx, const char *module, struct ftv_err *err)
{
	return world_unload_module(ctx, module, err);
}

static int w_static_key(void *ctx, int on, const char *key, struct ftv_err *err)
{
	return key ? world_jump_label_key(ctx, key, on, err) : world_static_key(ctx, on, err);
}

static int w_text_write(void *ctx, const char *at, const char *word, struct ftv_err *err)
{
	return world_text_write(ctx, at, word, err);
}

static int w_text_poke(void *ctx, const char *site, struct ftv_err *err)
{
	return world_text_poke(ctx, site, err);
}

static int w_run(void *ctx, uint64_t steps, struct ftv_err *err)
{
	return world_run(ctx, steps, err);
}

/* A graph ops is registered like any other: the world knows whether the
 * scheme patches ftrace_graph_call for it. */
static const struct ftrace_target world_target = {
	.name = "scenario",
	.ops_min = 1,
	.ops_max = 1,
	.ops_usage = "NAME TRACER",
	.ops_new = w_ops_new,
	.ops_find = w_ops_find,
	.set_filter = w_set_filter,
	.register_ops = w_register,
	.unregister_ops = w_unregister,
	.direct = w_direct,
	.direct_modify = w_direct_modify,
	.direct_remove = w_direct_remove,
	.bpf_update = w_bpf_update,
	.direct_batch = w_direct_batch,
	.enable_modules = w_enable_modules,
	.load_module = w_load_module,
	.unload_module = w_unload_module,
	.static_key = w_static_key,
	.text_poke = w_text_poke,
	.text_write = w_text_write,
	.run = w_run,
};

const struct ftrace_target *scenario_target(void)
{
	return &world_target;
}

int scenario_verb_ok(const struct ftrace_verb *v)
{
	struct ftv_err err;

	for (int n = v->min; n <= v->max; n++)
		if (!ftrace_verb_check(v, &world_target, n, &err))
			return 1;
	return 0;
}

int scenario_op_args(const struct scn_op *op, char **av)
{
	int n = 0;

	if (op->a[0])
		av[n++] = (char *)op->a;
	if (n == 1 && op->b[0])
		av[n++] = (char *)op->b;
	if (n == 2 && op->c[0])
		av[n++] = (char *)op->c;
	return n;
}
