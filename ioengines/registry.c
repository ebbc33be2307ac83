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
 * find them there.
 */
#include <stdio.h>
#include <string.h>

#include "ioengines/ioengine.h"

extern const struct ioengine_ops ioengine_mem;
extern const struct ioengine_ops ioengine_mmap;
extern const struct ioengine_ops ioengine_psync;
extern const struct ioengine_ops ioengine_io_uring;
extern const struct ioengine_ops ioengine_dax;
extern const struct ioengine_ops ioengine_none;
extern const struct ioengine_ops ioengine_libaio;
extern const struct ioengine_ops ioengine_null;

const struct ioengine_ops *const ioengine_registry[] = {
	&ioengine_mem,
	&ioengine_mmap,
	&ioengine_psync,
	&ioengine_io_uring,
	&ioengine_dax,
	&ioengine_none,
	&ioengine_libaio,
	&ioengine_null,
	NULL,
};

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
