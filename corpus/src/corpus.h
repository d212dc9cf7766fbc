/* Shared declarations of the ftv corpus: small freestanding C files, built
 * at several ftrace flag sets by mk/corpus.mk and loaded by ftv's loader.
 * No libc: klib.c provides the few helpers the compiler may call. */
#ifndef FTV_CORPUS_H
#define FTV_CORPUS_H

typedef unsigned long size_t;
typedef unsigned long uintptr_t;
typedef unsigned int u32;
typedef unsigned long u64;

#define NULL ((void *)0)

void *memset(void *s, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
char *strcpy(char *d, const char *s);
int k_utoa(u64 v, char *buf, unsigned base);
u32 k_hash(const char *s);

struct list_head {
	struct list_head *next, *prev;
};

void list_init(struct list_head *h);
void list_add(struct list_head *n, struct list_head *h);
void list_add_tail(struct list_head *n, struct list_head *h);
void list_del(struct list_head *n);
int list_empty(const struct list_head *h);
size_t list_count(const struct list_head *h);

struct htab;
struct htab *htab_create(void);
int htab_put(struct htab *t, const char *key, long val);
int htab_get(struct htab *t, const char *key, long *val);
int htab_del(struct htab *t, const char *key);
size_t htab_size(struct htab *t);

void *pool_alloc(size_t n);
void pool_reset(void);

int fsm_run(const char *input);
long fsm_tokens(const char *input, long *numbers, int max);

typedef long (*binop_fn)(long, long);
long apply_all(const binop_fn *ops, int n, long a, long b);
long fold(binop_fn f, const long *v, int n, long init);
binop_fn op_by_name(const char *name);
int notifier_call_chain(int event);
int notifier_register(int (*cb)(int event, void *data), void *data);

long fib(int n);
long ackermann(long m, long n);
int tree_depth_selftest(int n);
long sum_digits(long v);

int report_error(int code);
void handle_oom(size_t n);
int cold_recover(int state);

long corpus_selftest(void);

#endif
