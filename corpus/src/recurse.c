/* Recursion: plain, mutual and over a tree built in the pool. */
#include "corpus.h"

long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

long ackermann(long m, long n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

struct tnode {
	struct tnode *l, *r;
	long v;
};

static struct tnode *tree_insert(struct tnode *t, long v)
{
	if (!t) {
		t = pool_alloc(sizeof(*t));
		if (t) {
			t->l = t->r = NULL;
			t->v = v;
		}
		return t;
	}
	if (v < t->v)
		t->l = tree_insert(t->l, v);
	else
		t->r = tree_insert(t->r, v);
	return t;
}

static int tree_depth(const struct tnode *t)
{
	int l, r;

	if (!t)
		return 0;
	l = tree_depth(t->l);
	r = tree_depth(t->r);
	return 1 + (l > r ? l : r);
}

int tree_depth_selftest(int n)
{
	struct tnode *root = NULL;
	unsigned x = 12345;

	for (int i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		root = tree_insert(root, (x >> 8) % 1000);
	}
	return tree_depth(root) + is_even(n);
}

long sum_digits(long v)
{
	if (v < 0)
		return sum_digits(-v);
	return v < 10 ? v : v % 10 + sum_digits(v / 10);
}
