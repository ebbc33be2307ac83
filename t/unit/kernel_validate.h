/*
 * kernel_validate.h - a compute kernel's validate() run by a unit test,
 * with what it printed kept for the test to compare.
 */
#ifndef MEMJOB_T_KERNEL_VALIDATE_H
#define MEMJOB_T_KERNEL_VALIDATE_H

#include <stddef.h>

#include "kernels/kernel.h"

/* Run ops->validate on job (a kernel without one refuses nothing), its
 * diagnostics in msg (cut at len).  Fails the test unless it returned
 * -EINVAL exactly when it reported an error.  Returns the error count. */
unsigned kernel_validate_msg(const struct kernel_ops *ops,
			     const struct job_spec *job, char *msg,
			     size_t len);

#endif
