/* One Capstone handle for the process, behind a mutex: cs_disasm on a
 * shared handle is not thread-safe, and opening one per call is slow. */
#include "encoders/disasm.h"
#include "encoders/a64.h"

#include <capstone/capstone.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t cs_lock = PTHREAD_MUTEX_INITIALIZER;
static csh cs_handle;
static int cs_state; /* 0 unopened, 1 open, -1 failed */

int disasm_capstone_a64(uint32_t word, uint64_t pc, char *buf, size_t n)
{
	uint8_t bytes[4] = { (uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16),
			     (uint8_t)(word >> 24) };
	cs_insn *insn;
	size_t count;
	int len = -1;

	pthread_mutex_lock(&cs_lock);
	if (!cs_state)
		cs_state = cs_open(CS_ARCH_ARM64, CS_MODE_LITTLE_ENDIAN, &cs_handle) == CS_ERR_OK
				   ? 1 : -1;
	if (cs_state == 1) {
		count = cs_disasm(cs_handle, bytes, sizeof(bytes), pc, 1, &insn);
		if (count == 1) {
			if (insn->op_str[0])
				len = snprintf(buf, n, "%s %s", insn->mnemonic, insn->op_str);
			else
				len = snprintf(buf, n, "%s", insn->mnemonic);
		}
		if (count)
			cs_free(insn, count);
	}
	pthread_mutex_unlock(&cs_lock);
	return len;
}

int a64_disasm(uint32_t word, uint64_t pc, char *buf, size_t n)
{
	struct a64_insn in;
	int len;

	if (!a64_decode(word, pc, &in) && (len = a64_format(&in, buf, n)) >= 0)
		return len;
	if ((len = disasm_capstone_a64(word, pc, buf, n)) >= 0)
		return len;
	return snprintf(buf, n, ".inst 0x%08x", word);
}
