/* A tiny "vmlinux" for ftv capture's tests, compiled the way arm64 builds
 * the kernel with CALL_OPS (-fpatchable-function-entry=4,2, functions
 * aligned to 8) and linked as a PIE like arch/arm64/Makefile does. */
const char linux_banner[] = "Linux version 6.1.0-ftvtest (ftv@test) #1 SMP\n";
int ftv_sink;

/* No return-address signing for a leaf: BTI C, then the two NOPs. */
__attribute__((noinline)) int ftv_leaf(int x)
{
	return x + 1;
}

/* A non-leaf signs its return address after the patchable NOPs. */
__attribute__((noinline)) int ftv_caller(int x)
{
	ftv_sink = ftv_leaf(x);
	return ftv_leaf(ftv_sink) * 2;
}

/* Built without branch protection: the plain CALL_OPS layout. */
__attribute__((noinline, target("branch-protection=none"))) int ftv_plain(int x)
{
	return x * 3;
}

/* Return-address signing without BTI (Debian's arm64 kernels): the
 * PACIASP follows the patchable NOPs. */
__attribute__((noinline, target("branch-protection=pac-ret"))) int ftv_signed(int x)
{
	return ftv_caller(x) + 1;
}
