/*
 * null.c - ioengine "null": blocks that cost nothing, as fio's null
 * engine: no file, no system call, no copy.  get() hands out the next
 * block's offset in one buffer of bs bytes (zeros, or whatever the kernel
 * left there), put() forgets it.  What a job measures on it is memjob's
 * own cost per block (the blockgen, the kernel call, the accounting):
 * the floor under every other data source.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ioengines/ioengine.h"

static int null_setup(struct ioe *e)
{
	void *buf;
	int ret = posix_memalign(&buf, 4096, e->job->bs);

	if (ret) {
		ioe_error(e, "cannot allocate a %llu-byte buffer: %s",
			  (unsigned long long)e->job->bs, strerror(ret));
		return -ret;
	}
	memset(buf, 0, e->job->bs);
	e->priv = buf;
	return 0;
}

static int null_get(struct ioe *e, struct io_unit *u)
{
	uint64_t off;
	size_t len;

	if (!blockgen_next(e->gen, &off, &len))
		return 0;
	u->buf = e->priv;
	u->off = off;
	u->len = len;
	u->slot = 0;
	u->write = RW_IS_WRITE(e->job->rw) ||
		   (RW_IS_MIXED(e->job->rw) && e->gen->last_write);
	return 1;
}

static void null_teardown(struct ioe *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct ioengine_ops ioengine_null = {
	.name = "null",
	.help = "no I/O at all: each block costs only memjob's own work, "
		"the floor under every data source (fio's null engine); "
		"needs size",
	.flags = IOE_MIXED,
	.setup = null_setup,
	.get = null_get,
	.put = ioe_put_nothing,
	.teardown = null_teardown,
};
