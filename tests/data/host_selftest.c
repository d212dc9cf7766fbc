/* Runs the corpus selftest natively on the host, so the emulated run of
 * the arm64 builds (tests/test_loader_run.c) has an independent expected
 * value. Built by mk/corpus.mk with the corpus sources. */
#include <stdio.h>

long corpus_selftest(void);

int main(void)
{
	printf("%ld\n", corpus_selftest());
	return 0;
}
