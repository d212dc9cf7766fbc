/* How a callsite was compiled: the one site-kind enum. The loader (sim/)
 * classifies every patch site into one of these (sim/image.h describes each
 * layout word by word); the ftrace core and its arch backends (patcher/)
 * patch a site by its kind; a world's scheme (verify/) names the kind of
 * sites it patches. */
#ifndef FTV_UTIL_SITE_KIND_H
#define FTV_UTIL_SITE_KIND_H

enum ftv_site_kind {
	/* arm64 -fpatchable-function-entry=4,2: ops literal at func-8, then
	 * at the entry [BTI C] MOV X9, LR; NOP<->BL (CALL_OPS, Linux 6.3+) */
	FTV_SITE_CALL_OPS,
	/* arm64 -fpatchable-function-entry=2: MOV X9, LR; NOP<->BL, no
	 * literal (DYNAMIC_FTRACE_WITH_ARGS without CALL_OPS) */
	FTV_SITE_ARGS,
	/* arm64 -pg: BL _mcount turned into NOP at boot (the 2014 scheme) */
	FTV_SITE_MCOUNT,
	/* riscv64: AUIPC t0 written at init, JALR<->NOP patched, literal at
	 * func-8 (Linux 6.16 CALL_OPS) */
	FTV_SITE_RISCV_CALL_OPS,
};
#define FTV_SITE_NKINDS 4

/* "call_ops", "args", "mcount", "riscv_call_ops"; "?" for anything else. */
const char *ftv_site_kind_name(enum ftv_site_kind k);

#endif
