#include "kernel/kevent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

int kev_push(struct kev_log *l, const struct kev *e)
{
	struct kev c = *e;

	if (e->text && !(c.text = strdup(e->text)))
		return -1;
	if (VEC_PUSH(l->v, l->n, l->cap, c)) {
		free(c.text);
		return -1;
	}
	return 0;
}

void kev_clear(struct kev_log *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	l->n = 0;
}

void kev_free(struct kev_log *l)
{
	kev_clear(l);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static const char *const names[] = {
	[KEV_STORE] = "str", [KEV_READ] = "read", [KEV_DSB] = "dsb",
	[KEV_DMB] = "dmb", [KEV_ISB] = "isb", [KEV_DC_CVAU] = "dc cvau",
	[KEV_IC_IVAU] = "ic ivau", [KEV_IC_IALLUIS] = "ic ialluis", [KEV_TLBI] = "tlbi vaale1is",
	[KEV_MAP] = "fixmap map", [KEV_UNMAP] = "fixmap clear",
	[KEV_LOCK] = "lock", [KEV_UNLOCK] = "unlock",
	[KEV_SCHED] = "preempt_schedule", [KEV_PRINT] = "printk",
	[KEV_BUG] = "BUG/WARN", [KEV_FAULT] = "fault",
};

const char *kev_kind_name(enum kev_kind k)
{
	return (unsigned)k < sizeof(names) / sizeof(names[0]) && names[k] ?
	       names[k] : "?";
}

/* Arm ARM C6.2.90: DSB/DMB option names by CRm. */
static const char *barrier_opt(unsigned crm)
{
	static const char *const o[16] = {
		[1] = "oshld", [2] = "oshst", [3] = "osh", [5] = "nshld",
		[6] = "nshst", [7] = "nsh", [9] = "ishld", [10] = "ishst",
		[11] = "ish", [13] = "ld", [14] = "st", [15] = "sy",
	};

	return crm < 16 && o[crm] ? o[crm] : "#?";
}

char *kev_format(const struct kev *e, char *buf, size_t n)
{
	switch (e->kind) {
	case KEV_STORE:
	case KEV_READ:
		snprintf(buf, n, "%s%u 0x%llx = 0x%llx", kev_kind_name(e->kind),
			 e->size * 8, (unsigned long long)e->addr,
			 (unsigned long long)e->value);
		break;
	case KEV_DSB:
	case KEV_DMB:
		snprintf(buf, n, "%s %s", kev_kind_name(e->kind),
			 barrier_opt(e->size));
		break;
	case KEV_DC_CVAU:
	case KEV_IC_IVAU:
	case KEV_MAP:
	case KEV_LOCK:
	case KEV_UNLOCK:
		snprintf(buf, n, "%s 0x%llx", kev_kind_name(e->kind),
			 (unsigned long long)e->addr);
		break;
	case KEV_PRINT:
	case KEV_BUG:
	case KEV_FAULT:
		snprintf(buf, n, "%s: %s", kev_kind_name(e->kind),
			 e->text ? e->text : "");
		break;
	default:
		snprintf(buf, n, "%s", kev_kind_name(e->kind));
	}
	return buf;
}
