/*
 * The workload of the kernel's ftrace-ops sample (seed 000's benchmark),
 * compiled for aarch64 at each scheme's flags and loaded by bench/overhead.c:
 * a trivial traced function called in a loop, and a second traced function
 * that the "irrelevant" ops filter on.
 *
 * noipa keeps GCC from deleting the calls: an empty function is otherwise
 * found const by IPA and a call to it whose result is unused disappears,
 * noinline or not. The loop itself is notrace (no patchable entry, no
 * mcount call), so it adds the same instructions to every row.
 */

#define notrace __attribute__((no_instrument_function, patchable_function_entry(0, 0)))

__attribute__((noipa)) void ftv_bench_tracee(void)
{
}

__attribute__((noipa)) void ftv_bench_other(void)
{
}

notrace __attribute__((noipa)) void ftv_bench_loop(unsigned long n)
{
	while (n--)
		ftv_bench_tracee();
}

/* Where ftv_bench_loop returns to: the host stops the engine here. */
notrace __attribute__((noipa)) void ftv_bench_stop(void)
{
	for (;;)
		__asm__ volatile("wfi" ::: "memory");
}
