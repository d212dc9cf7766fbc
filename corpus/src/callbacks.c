/* Function pointers: an operations table looked up by name, folds over
 * arrays, and a notifier chain in the style of the kernel's. */
#include "corpus.h"

static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b; }
static long op_max(long a, long b) { return a > b ? a : b; }
static long op_min(long a, long b) { return a < b ? a : b; }

static const struct {
	const char *name;
	binop_fn fn;
} ops[] = {
	{ "add", op_add }, { "sub", op_sub }, { "mul", op_mul },
	{ "max", op_max }, { "min", op_min },
};

binop_fn op_by_name(const char *name)
{
	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(ops[i].name, name))
			return ops[i].fn;
	return NULL;
}

long apply_all(const binop_fn *fns, int n, long a, long b)
{
	long acc = 0;

	for (int i = 0; i < n; i++)
		acc += fns[i](a, b);
	return acc;
}

long fold(binop_fn f, const long *v, int n, long init)
{
	for (int i = 0; i < n; i++)
		init = f(init, v[i]);
	return init;
}

struct notifier {
	int (*cb)(int event, void *data);
	void *data;
};

static struct notifier chain[8];
static int nchain;

int notifier_register(int (*cb)(int event, void *data), void *data)
{
	if (nchain == 8)
		return -1;
	chain[nchain].cb = cb;
	chain[nchain].data = data;
	return nchain++;
}

/* Calls every notifier until one returns non-zero ("NOTIFY_STOP"). */
int notifier_call_chain(int event)
{
	int ret = 0;

	for (int i = 0; i < nchain && !ret; i++)
		ret = chain[i].cb(event, chain[i].data);
	return ret;
}
