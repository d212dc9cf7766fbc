/* Functions calling each other across the corpus: a selftest that drives
 * every other file and returns a checksum. */
#include "corpus.h"

static int counting_notifier(int event, void *data)
{
	*(long *)data += event;
	return 0;
}

static int stopping_notifier(int event, void *data)
{
	(void)data;
	return event == 42;
}

static long selftest_list(void)
{
	struct htab *t = htab_create();
	char key[24];
	long v, sum = 0;

	if (!t)
		return -1;
	for (int i = 0; i < 20; i++) {
		strcpy(key, "k");
		k_utoa(i, key + 1, 10);
		htab_put(t, key, i * i);
	}
	htab_del(t, "k3");
	for (int i = 0; i < 20; i++) {
		strcpy(key, "k");
		k_utoa(i, key + 1, 10);
		if (htab_get(t, key, &v))
			sum += v;
	}
	return sum + (long)htab_size(t);
}

static long selftest_ops(void)
{
	static const long v[] = { 3, 1, 4, 1, 5, 9, 2, 6 };
	binop_fn fns[3] = { op_by_name("add"), op_by_name("mul"),
			    op_by_name("max") };
	static long counter;

	notifier_register(counting_notifier, &counter);
	notifier_register(stopping_notifier, NULL);
	notifier_call_chain(7);
	return apply_all(fns, 3, 6, 7) + fold(op_by_name("max"), v, 8, 0) +
	       counter + notifier_call_chain(42);
}

long corpus_selftest(void)
{
	long nums[4];
	long r;

	pool_reset();
	r = selftest_list();
	r += selftest_ops();
	r += fsm_run("x = 12 + y3 * 7") + fsm_tokens("1 22 333", nums, 4);
	r += nums[2];
	r += fib(10) + ackermann(2, 3) + tree_depth_selftest(31);
	r += sum_digits(-98765);
	return r;
}
