/*
 * fixture.c - the unit tests' way to t/fixtures (see fixture.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fixture.h"

void fixture_path(const char *name, char *buf, size_t len)
{
	const char *src = getenv("SRCDIR");

	if (src && *src)
		snprintf(buf, len, "%s/t/fixtures/%s", src, name);
	else
		snprintf(buf, len, "t/fixtures/%s", name);
}

void fixture_load_topo(struct topo *t, const char *name)
{
	char root[256], path[4096], err[1024] = "";

	snprintf(root, sizeof(root), "topo/%s.xml", name);
	fixture_path(root, path, sizeof(path));
	if (topo_load(t, path, err, sizeof(err)))
		fail_msg("topo_load(%s) failed: %s", path, err);
}

int fixture_setup_seed004(void **state)
{
	struct topo *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	fixture_load_topo(t, "seed004");
	*state = t;
	return 0;
}

int fixture_teardown_topo(void **state)
{
	topo_free(*state);
	free(*state);
	return 0;
}
