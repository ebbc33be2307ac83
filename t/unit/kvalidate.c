/*
 * kvalidate.c - see kvalidate.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kvalidate.h"

unsigned kvalidate(const struct job_spec *job, char *msg, size_t len)
{
	struct diag d;
	FILE *f = fmemopen(msg, len, "w");
	int ret;

	assert_non_null(f);
	assert_non_null(job->kernel);
	assert_non_null(job->kernel->validate);
	memset(msg, 0, len);
	diag_init(&d, f);
	ret = job->kernel->validate(job, &d);
	fclose(f);
	assert_true(d.errors ? ret == -EINVAL : ret == 0);
	return d.errors;
}
