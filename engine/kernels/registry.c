/*
 * registry.c - the list of compute kernels memjob knows.
 *
 * The engine core never names a kernel: it looks one up here by the name
 * the job gives ("kernel=count") and then only calls through its ops.
 * Adding a kernel is one new file and one line in the table below.  The
 * order is the order of --cmdhelp and the man page.  The ops that several
 * kernels share are in kernel.c: kernels call that file, and only the
 * stages above them call this one.
 */
#include <string.h>

#include "kernels/kernel.h"

extern const struct kernel_ops kernel_none_ops;
extern const struct kernel_ops kernel_count_ops;
extern const struct kernel_ops kernel_sum_ops;
extern const struct kernel_ops kernel_copy_ops;
extern const struct kernel_ops kernel_fill_ops;
extern const struct kernel_ops kernel_stream_copy_ops;
extern const struct kernel_ops kernel_stream_scale_ops;
extern const struct kernel_ops kernel_stream_add_ops;
extern const struct kernel_ops kernel_triad_ops;
extern const struct kernel_ops kernel_rwmix_ops;
extern const struct kernel_ops kernel_chase_ops;
extern const struct kernel_ops kernel_touch_ops;
extern const struct kernel_ops kernel_codewalk_ops;
extern const struct kernel_ops kernel_pingpong_ops;
extern const struct kernel_ops kernel_exec_ops;

const struct kernel_ops *const kernel_registry[] = {
	&kernel_none_ops,	/* the default: data is moved, not computed on */
	&kernel_count_ops,
	&kernel_sum_ops,
	&kernel_copy_ops,
	&kernel_fill_ops,
	&kernel_stream_copy_ops,	/* STREAM's four: stream.c */
	&kernel_stream_scale_ops,
	&kernel_stream_add_ops,
	&kernel_triad_ops,
	&kernel_rwmix_ops,
	&kernel_chase_ops,
	&kernel_touch_ops,
	&kernel_codewalk_ops,
	&kernel_pingpong_ops,
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
