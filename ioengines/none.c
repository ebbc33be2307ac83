/*
 * none.c - the data source with no data, for jobs whose work is not done
 * on blocks (kernel=exec runs a program).  get() ends every pass at once.
 */
#include "ioengines/ioengine.h"

static int none_setup(struct ioe *e)
{
	(void)e;
	return 0;
}

static int none_get(struct ioe *e, struct io_unit *u)
{
	(void)e;
	(void)u;
	return 0;
}

static void none_teardown(struct ioe *e)
{
	(void)e;
}

const struct ioengine_ops ioengine_none = {
	.name = "none",
	.help = "no data: for kernels that do not work on blocks (exec)",
	.flags = IOE_NODATA,
	.default_for = IOE_DEFAULT_PROGRAMS,
	.setup = none_setup,
	.get = none_get,
	.put = ioe_put_nothing,
	.teardown = none_teardown,
};
