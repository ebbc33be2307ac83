/*
 * isa_levels.c - see isa_levels.h.  The failures of every level add up;
 * the level is named in the group's name, so a failure says which
 * variant broke.
 */
#include <stdio.h>
#include <stdlib.h>

#include "machine/isa.h"
#include "isa_levels.h"

int run_at_each_isa(const char *group, const struct CMUnitTest *tests,
		    size_t n)
{
	int failed = 0, l;

	for (l = 0; l < ISA_LEVELS; l++) {
		char name[256], err[256];

		if (!isa_cpu_has((enum isa_level)l)) {
			printf("# SKIP %s at %s: this CPU does not support %s\n",
			       group, isa_name((enum isa_level)l),
			       isa_name((enum isa_level)l));
			continue;
		}
		setenv("MEMJOB_ISA", isa_name((enum isa_level)l), 1);
		if (isa_init(err, sizeof(err)) ||
		    isa_level() != (enum isa_level)l) {
			printf("# %s: cannot force %s: %s\n", group,
			       isa_name((enum isa_level)l), err);
			failed++;
			continue;
		}
		snprintf(name, sizeof(name), "%s at %s", group,
			 isa_name((enum isa_level)l));
		failed += _cmocka_run_group_tests(name, tests, n, NULL, NULL);
	}
	unsetenv("MEMJOB_ISA");
	return failed;
}
