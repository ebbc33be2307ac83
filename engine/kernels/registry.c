/*
 * kernel_registry.c - the list of compute kernels memjob knows.
 *
 * The engine core never names a kernel: it looks one up here by the name
 * the job gives ("kernel=count") and then only calls through its ops.
 * Adding a kernel is one new file and one line in the table below.  The
 * order is the order of --cmdhelp and the man page.  The trivial ops that
 * several kernels share live here too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ioengines/ioengine.h"
#include "kernels/kernel.h"

extern const struct kernel_ops kernel_none_ops;
extern const struct kernel_ops kernel_count_ops;
extern const struct kernel_ops kernel_sum_ops;
extern const struct kernel_ops kernel_copy_ops;
extern const struct kernel_ops kernel_fill_ops;
extern const struct kernel_ops kernel_triad_ops;
extern const struct kernel_ops kernel_chase_ops;
extern const struct kernel_ops kernel_codewalk_ops;
extern const struct kernel_ops kernel_exec_ops;

const struct kernel_ops *const kernel_registry[] = {
	&kernel_none_ops,	/* the default: data is moved, not computed on */
	&kernel_count_ops,
	&kernel_sum_ops,
	&kernel_copy_ops,
	&kernel_fill_ops,
	&kernel_triad_ops,
	&kernel_chase_ops,
	&kernel_codewalk_ops,
	&kernel_exec_ops,
	NULL,
};

/* The kernel called name, or NULL if there is none. */
const struct kernel_ops *kernel_find(const char *name)
{
	const struct kernel_ops *const *k;

	if (!name)
		return NULL;
	for (k = kernel_registry; *k; k++)
		if (strcmp((*k)->name, name) == 0)
			return *k;
	return NULL;
}

const struct kernel_ops *kernel_store_default(void)
{
	for (const struct kernel_ops *const *k = kernel_registry; *k; k++)
		if ((*k)->store_default)
			return *k;
	return NULL;
}

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
