/* The memory a riscv64 instruction reads (encoders/memread.h), from the one
 * encoding table (riscv_table.c): a row with RV_CL_LOAD reads, at the address
 * its row decodes (x[base] + offset, `access` bytes); a load whose address
 * or width the table does not decode (vector loads, reserved or Zabha/Zacas
 * widths) is MR_UNKNOWN. Stores (SC included) read nothing. */
#include "encoders/memread.h"
#include "encoders/riscv.h"

int rv_memread(uint32_t w, struct memread *m)
{
	unsigned base, len;
	int64_t off;

	*m = (struct memread){ MR_NONE, 0, 0, MR_EXT_UXTX, 0, 0, 0 };
	if (!(rv_class(w) & RV_CL_LOAD))
		return 0;
	if (!rv_mem_address(w, &base, &off, &len) || !len) {
		m->kind = MR_UNKNOWN;
		return 1;
	}
	m->kind = MR_BASE;
	m->base = base;
	m->offset = off;
	m->len = len;
	return 1;
}
