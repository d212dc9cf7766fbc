/* Default implementations an architecture or a driver may override, the
 * way the kernel writes its __weak hooks (arch_*, the generic versions of
 * lib helpers). When another object defines the same function, the linker
 * binds every call to that definition and keeps this one's code as dead
 * text; its patch-site entry still points at it, and scripts/sorttable
 * zeroes that entry in the kernel's table (Linux 6.14, commit
 * ef378c3b8233 "scripts/sorttable: Zero out weak functions in mcount_loc
 * table"). hooks.c overrides two of the three. */
#include "corpus.h"

__attribute__((weak)) long hook_clock_read(long base)
{
	return base * 1000 + 7;
}

__attribute__((weak)) long hook_scale(long v, long shift)
{
	return shift > 0 ? v << shift : v >> -shift;
}

__attribute__((weak)) long hook_limit(long v)
{
	return v > 4096 ? 4096 : v < -4096 ? -4096 : v;
}

long hooks_run(long v)
{
	return hook_limit(hook_scale(hook_clock_read(v), 2));
}
