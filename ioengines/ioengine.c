/*
 * ioengine.c - the registry of data sources, and their error reporting.
 *
 * Adding a source is adding one file that exports one
 * `const struct ioengine_ops ioengine_<name>` and one line below; the
 * engine core only ever reaches a source through this table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ioengine.h"

extern const struct ioengine_ops ioengine_mem;
extern const struct ioengine_ops ioengine_mmap;
extern const struct ioengine_ops ioengine_psync;
extern const struct ioengine_ops ioengine_io_uring;

const struct ioengine_ops *const ioengine_registry[] = {
	&ioengine_mem,
	&ioengine_mmap,
	&ioengine_psync,
	&ioengine_io_uring,
	NULL,
};

/*
 * Returns -1, not an errno: the caller knows the errno it failed with and
 * returns that (-errno) itself, so a message can never turn an EIO into
 * an EPERM by accident.  The text is cut at sizeof(e->err).
 */
int ioe_error(struct ioe *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return -1;
}

const struct ioengine_ops *ioengine_find(const char *name)
{
	for (size_t i = 0; ioengine_registry[i]; i++)
		if (!strcmp(ioengine_registry[i]->name, name))
			return ioengine_registry[i];
	return NULL;
}
