/* Names of the site kinds (util/site_kind.h), as `ftv load` prints them. */
#include "util/site_kind.h"

const char *ftv_site_kind_name(enum ftv_site_kind k)
{
	switch (k) {
	case FTV_SITE_CALL_OPS:
		return "call_ops";
	case FTV_SITE_ARGS:
		return "args";
	case FTV_SITE_MCOUNT:
		return "mcount";
	case FTV_SITE_RISCV_CALL_OPS:
		return "riscv_call_ops";
	}
	return "?";
}
