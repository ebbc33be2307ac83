/*
 * kernel_validate.c - see kernel_validate.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/diag.h"
#include "kernel_validate.h"

unsigned kernel_validate_msg(const struct kernel_ops *ops,
			     const struct job_spec *job, char *msg,
			     size_t len)
{
	struct diag d;
	FILE *f = fmemopen(msg, len, "w");
	int ret = 0;

	assert_non_null(f);
	memset(msg, 0, len);
	diag_init(&d, f);
	if (ops->validate)
		ret = ops->validate(job, &d);
	fclose(f);
	assert_true(d.errors ? ret == -EINVAL : ret == 0);
	return d.errors;
}
