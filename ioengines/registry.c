/*
 * registry.c - the list of data sources memjob knows.
 *
 * Adding a source is adding one file that exports one
 * `const struct ioengine_ops ioengine_<name>` and one line below; the
 * engine core only ever reaches a source through this table, and asks
 * its ops for what it needs (default_for, flags), never for a name.  The
 * order is the order of --cmdhelp and the man page.  A source with
 * options of its own declares them in its file (an opt_group in .opts,
 * see spec/options.h): the parser, --cmdhelp, --dump and the man page
 * find them there.  An optional source (one whose library configure may
 * not find) is one entry in configure instead of the line:
 * engine/config.h lists it as built or left out, and the Makefile builds
 * its file only in the first case.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "ioengines/ioengine.h"

#ifndef MEMJOB_IOENGINES_BUILT
#error "engine/config.h is older than configure: run ./configure"
#endif

extern const struct ioengine_ops ioengine_mem;
extern const struct ioengine_ops ioengine_mmap;
extern const struct ioengine_ops ioengine_psync;
extern const struct ioengine_ops ioengine_io_uring;
extern const struct ioengine_ops ioengine_dax;
extern const struct ioengine_ops ioengine_none;
extern const struct ioengine_ops ioengine_null;
/* The optional ones configure found (engine/config.h). */
#define IOE_DECLARE(name) extern const struct ioengine_ops ioengine_##name;
MEMJOB_IOENGINES_BUILT(IOE_DECLARE)
#define IOE_ENTRY(name) &ioengine_##name,

const struct ioengine_ops *const ioengine_registry[] = {
	&ioengine_mem,
	&ioengine_mmap,
	&ioengine_psync,
	&ioengine_io_uring,
	&ioengine_dax,
	&ioengine_none,
	MEMJOB_IOENGINES_BUILT(IOE_ENTRY)	/* where libaio always stood */
	&ioengine_null,
	NULL,
};

/* The optional ones configure left out: why, how to get one, and what
 * to use instead. */
struct left_out {
	const char *name, *why, *fix, *instead;
};
#define IOE_LEFT_OUT(name, why, fix, instead) { name, why, fix, instead },
static const struct left_out left_out[] = {
	MEMJOB_IOENGINES_LEFT_OUT(IOE_LEFT_OUT)
	{ NULL, NULL, NULL, NULL }
};

const char *ioengine_left_out(size_t i, char *why, size_t len)
{
	size_t n = sizeof(left_out) / sizeof(*left_out) - 1;

	if (i >= n)
		return NULL;
	snprintf(why, len, "not in this build: %s", left_out[i].why);
	return left_out[i].name;
}

bool ioengine_refuse_left_out(const char *name, char *msg, size_t len)
{
	for (const struct left_out *l = left_out; l->name; l++)
		if (!strcmp(l->name, name)) {
			snprintf(msg, len, "this memjob was built without %s "
				 "(%s): %s; or use %s", l->name, l->why,
				 l->fix, l->instead);
			return true;
		}
	return false;
}

const struct ioengine_ops *ioengine_find(const char *name)
{
	for (size_t i = 0; ioengine_registry[i]; i++)
		if (!strcmp(ioengine_registry[i]->name, name))
			return ioengine_registry[i];
	return NULL;
}

const struct ioengine_ops *ioengine_default_for(unsigned what)
{
	for (size_t i = 0; ioengine_registry[i]; i++)
		if (ioengine_registry[i]->default_for & what)
			return ioengine_registry[i];
	return NULL;
}

void ioengine_names_with(unsigned flag, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; ioengine_registry[i] && n < len; i++)
		if (ioengine_registry[i]->flags & flag)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "",
					      ioengine_registry[i]->name);
}
