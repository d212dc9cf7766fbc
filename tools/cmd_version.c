/* ftv version (also ftv --version): ftv's version and its libraries'. */
#include "tools/version.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/opt.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <unicorn/unicorn.h>

static int cmd_version(int argc, char **argv)
{
	struct ftv_getopt g;
	unsigned umaj, umin;
	int cmaj, cmin, o;

	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0)
		if (o == FTV_OPT_ARG)
			return ftv_usage_error(g.cmd, "unexpected argument '%s'", g.val);
	if (o < 0)
		return g.exit;
	uc_version(&umaj, &umin);
	cs_version(&cmaj, &cmin);
	printf("ftv %s (unicorn %u.%u, capstone %d.%d)\n", FTV_VERSION, umaj, umin, cmaj, cmin);
	return FTV_EXIT_OK;
}
FTV_COMMAND(version, cmd_version, .summary = "print ftv's version and its libraries'")
