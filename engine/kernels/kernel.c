/*
 * kernel.c - what several kernels share: the check that a kernel laying
 * its own data over the region has memory of the job's own, whether a
 * block goes on to a file or device after the kernel, and the trivial
 * init/run/fini ops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ioengines/ioengine.h"
#include "kernels/kernel.h"

/*
 * A KERN_REGION kernel whose prepare() lays its own data over the region
 * (chase's pointers, triad's arrays) needs memory of the job's own, never
 * a file's shared mapping: ioengine=mmap and dax map a read job's file
 * read-only, so the stores would fault, and a writable shared mapping
 * would change the file.  0, or -EINVAL with the error reported; what
 * says what the kernel writes ("its pointers").
 */
int kernel_check_own_memory(const struct job_spec *job, struct diag *d,
			    const char *what)
{
	const struct ioengine_ops *e = job->ioengine;

	if (!e || ioe_own_memory(e))
		return 0;
	diag_error(d, job_loc(job, "kernel"), "kernel",
		   "kernel=%s needs a mapped data source (ioengine=mem): it writes %s into the job's memory, which ioengine=%s %s",
		   job->kernel->name, what, e->name, (e->flags & IOE_MAPPED) ?
		   "maps from a file" : "does not map");
	return -EINVAL;
}

bool kernel_block_leaves(const struct kstate *k)
{
	const struct ioengine_ops *e = k->job ? k->job->ioengine : NULL;

	return !e || !ioe_own_memory(e);
}

int kernel_init_result(struct kstate *k)
{
	k->result = 0;
	return 0;
}

void kernel_run_nothing(struct kstate *k, void *buf, size_t len)
{
	(void)k;
	(void)buf;
	(void)len;
}

void kernel_fini_nothing(struct kstate *k)
{
	(void)k;
}

void kernel_fini_free(struct kstate *k)
{
	free(k->priv);
	k->priv = NULL;
	k->priv_len = 0;
}

void *kernel_shared_alloc(size_t len)
{
	size_t round = (len + KERN_SHARED_ALIGN - 1) &
		       ~(size_t)(KERN_SHARED_ALIGN - 1);
	void *p = round ? aligned_alloc(KERN_SHARED_ALIGN, round) : NULL;

	if (p)
		memset(p, 0, round);
	return p;
}
