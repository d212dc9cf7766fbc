/* Traced functions for tests/test_riscv64_tramp.c, compiled like the riscv64
 * corpus (-fpatchable-function-entry=8,4 -falign-functions=8): each result
 * depends on every argument, so a trampoline that loses one shows. */
typedef unsigned long u64;

__attribute__((noinline)) u64 ftv_test_traced(u64 a, u64 b, u64 c)
{
	return a * 7 + (b ^ 0x55) - (c << 3);
}

__attribute__((noinline)) u64 ftv_test_traced2(u64 a, u64 b, u64 c)
{
	return ftv_test_traced(c, a, b) + 1;
}
