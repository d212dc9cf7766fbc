#include "util/cmd.h"
#include "util/err.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <unicorn/unicorn.h>

static int cmd_version(int argc, char **argv)
{
	unsigned umaj, umin;
	int cmaj, cmin;

	(void)argv;
	if (argc != 1)
		return ftv_usage("version");
	uc_version(&umaj, &umin);
	cs_version(&cmaj, &cmin);
	printf("ftv 0.1 (unicorn %u.%u, capstone %d.%d)\n", umaj, umin, cmaj, cmin);
	return FTV_EXIT_OK;
}
FTV_COMMAND(version, "print ftv's version and its libraries'", "", cmd_version)
