/*
 * kvalidate.h - what the kernels' unit tests share for their parse-time
 * checks: run job->kernel->validate() and keep what it printed.
 */
#ifndef MEMJOB_T_KVALIDATE_H
#define MEMJOB_T_KVALIDATE_H

#include <stddef.h>

#include "kernel.h"

/* Validate job with its kernel's validate(); the errors it printed go to
 * msg (len bytes, NUL-terminated), their number is returned.  Fails the
 * test unless validate() returned -EINVAL with errors, 0 without. */
unsigned kvalidate(const struct job_spec *job, char *msg, size_t len);

#endif
