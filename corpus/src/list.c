/* A doubly linked list in the kernel's style and a chained hash table built
 * on it, allocating from a static bump pool. */
#include "corpus.h"

static unsigned char pool[16384] __attribute__((aligned(16)));
static size_t pool_used;

void *pool_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~15ul;
	if (n > sizeof(pool) - pool_used)
		return NULL;
	p = pool + pool_used;
	pool_used += n;
	return p;
}

void pool_reset(void)
{
	pool_used = 0;
}

void list_init(struct list_head *h)
{
	h->next = h->prev = h;
}

static void __list_add(struct list_head *n, struct list_head *prev,
		       struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

void list_add(struct list_head *n, struct list_head *h)
{
	__list_add(n, h, h->next);
}

void list_add_tail(struct list_head *n, struct list_head *h)
{
	__list_add(n, h->prev, h);
}

void list_del(struct list_head *n)
{
	n->next->prev = n->prev;
	n->prev->next = n->next;
	n->next = n->prev = n;
}

int list_empty(const struct list_head *h)
{
	return h->next == h;
}

size_t list_count(const struct list_head *h)
{
	size_t n = 0;

	for (const struct list_head *p = h->next; p != h; p = p->next)
		n++;
	return n;
}

#define HBITS 5

struct hnode {
	struct list_head link;
	char key[24];
	long val;
};

struct htab {
	struct list_head bucket[1 << HBITS];
	size_t n;
};

struct htab *htab_create(void)
{
	struct htab *t = pool_alloc(sizeof(*t));

	if (!t)
		return NULL;
	for (int i = 0; i < (1 << HBITS); i++)
		list_init(&t->bucket[i]);
	t->n = 0;
	return t;
}

static struct hnode *htab_find(struct htab *t, const char *key)
{
	struct list_head *b = &t->bucket[k_hash(key) & ((1 << HBITS) - 1)];

	for (struct list_head *p = b->next; p != b; p = p->next) {
		struct hnode *n = (struct hnode *)p;

		if (!strcmp(n->key, key))
			return n;
	}
	return NULL;
}

int htab_put(struct htab *t, const char *key, long val)
{
	struct hnode *n = htab_find(t, key);

	if (n) {
		n->val = val;
		return 0;
	}
	if (strlen(key) >= sizeof(n->key))
		return -1;
	n = pool_alloc(sizeof(*n));
	if (!n)
		return -1;
	strcpy(n->key, key);
	n->val = val;
	list_add_tail(&n->link, &t->bucket[k_hash(key) & ((1 << HBITS) - 1)]);
	t->n++;
	return 1;
}

int htab_get(struct htab *t, const char *key, long *val)
{
	struct hnode *n = htab_find(t, key);

	if (!n)
		return 0;
	*val = n->val;
	return 1;
}

int htab_del(struct htab *t, const char *key)
{
	struct hnode *n = htab_find(t, key);

	if (!n)
		return 0;
	list_del(&n->link);
	t->n--;
	return 1;
}

size_t htab_size(struct htab *t)
{
	return t->n;
}
