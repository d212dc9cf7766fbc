/* A tiny kernel module for ftv capture's tests: CALL_OPS callsites in
 * .text and .init.text, and the .modinfo strings modpost would add. */
#ifndef FTV_VERMAGIC
#define FTV_VERMAGIC "6.1.0-ftvtest SMP mod_unload aarch64"
#endif
static const char modinfo_name[] __attribute__((section(".modinfo"), used,
						aligned(1))) = "name=ftvmod";
static const char modinfo_vermagic[] __attribute__((section(".modinfo"), used,
						    aligned(1))) = "vermagic=" FTV_VERMAGIC;
int ftvmod_state;

__attribute__((noinline)) int ftvmod_work(int x)
{
	return x ^ 0x5a;
}

__attribute__((section(".init.text"), noinline)) int init_module(void)
{
	ftvmod_state = ftvmod_work(1);
	return 0;
}
