/*
 * test_check.c - job files through the parser and the whole-job checks:
 * the messages a user sees, with their file:line and option.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "parse/check.h"
#include "kernels/kernel.h"
#include "spec/options.h"
#include "parse/parse.h"

struct outcome {
	unsigned errors;
	char *text;
	struct jobset js;
	struct parser *ps;
};

static struct outcome run_checks(const char *ini)
{
	struct outcome o = { 0 };
	size_t len = 0;
	FILE *out = open_memstream(&o.text, &len);
	struct diag d;

	assert_non_null(out);
	diag_init(&d, out);
	o.ps = parser_new(&d);
	assert_non_null(o.ps);
	parser_add_string(o.ps, "t.ini", ini);
	if (!parser_finish(o.ps, NULL, 0, &o.js))
		jobs_check(&o.js, NULL, &d);
	o.errors = d.errors;
	fclose(out);
	return o;
}

static void done(struct outcome *o)
{
	jobset_free(&o->js);
	parser_free(o->ps);
	free(o->text);
}

static void expect_error(const char *ini, const char *needle)
{
	struct outcome o = run_checks(ini);

	if (o.errors != 1 || !strstr(o.text, needle))
		fail_msg("expected one error containing \"%s\"; got %u:\n%s",
			 needle, o.errors, o.text);
	done(&o);
}

static void expect_ok(const char *ini)
{
	struct outcome o = run_checks(ini);

	if (o.errors)
		fail_msg("expected no error, got:\n%s", o.text);
	done(&o);
}

static void test_source_options(void **state)
{
	(void)state;
	expect_ok("[a]\nioengine=psync\ndirect=1\nbs=4k\n");
	expect_ok("[a]\nioengine=mem\nsize=1m\ndirect=0\n");
	expect_error("[a]\nioengine=mem\nsize=1m\ndirect=1\n",
		     "t.ini:4: option 'direct': is used by ioengine=psync, "
		     "io_uring, libaio only; this job has ioengine=mem");
	expect_error("[a]\nioengine=mmap\nfilename=f\nsync=1\n",
		     "t.ini:4: option 'sync'");
	expect_error("[a]\nioengine=psync\nfilename=f\niodepth=8\n",
		     "t.ini:4: option 'iodepth': is used by ioengine=io_uring, "
		     "libaio only");
	expect_error("[a]\nioengine=psync\nfilename=f\nhugepage=thp\n",
		     "t.ini:4: option 'hugepage': is used by ioengine=mem");
	expect_error("[a]\nioengine=mem\nsize=1m\nmadvise=willneed\n",
		     "option 'madvise': is used by ioengine=mmap only");
	/* a [global] default that does not apply to a job is ignored for
	 * it; set on the job itself, it is an error */
	expect_ok("[global]\npopulate=1\n[a]\nioengine=psync\n"
		  "filename=f\n");
	expect_error("[a]\nioengine=psync\nfilename=f\npopulate=1\n",
		     "t.ini:4: option 'populate'");
	/* a sweep over the kernel: value applies to its count points */
	expect_ok("[a]\nsize=1m\nvalue=7\nsweep=kernel:count,sum\n");
}

static void test_direct_alignment(void **state)
{
	(void)state;
	expect_error("[a]\nioengine=psync\nfilename=f\ndirect=1\nbs=1000\n",
		     "t.ini:5: option 'bs': direct=1 needs a multiple of 512, "
		     "got 1000");
	expect_error("[a]\nioengine=psync\nfilename=f\ndirect=1\n"
		     "offset=100\n", "t.ini:5: option 'offset'");
	expect_error("[a]\nioengine=psync\nfilename=f\ndirect=1\n"
		     "rw=write\nsize=1000\n", "t.ini:6: option 'size'");
}

static void test_kernel_choices(void **state)
{
	struct outcome o;

	(void)state;
	expect_error("[a]\nsize=1m\nkernel=count\nimpl=fast\n",
		     "t.ini:4: option 'impl': kernel=count has simple, unrolled");
	expect_error("[a]\nsize=1m\nkernel=sum\nimpl=x\n",
		     "option 'impl': kernel=sum has no implementations");
	expect_error("[a]\nsize=1m\nrw=write\nkernel=none\n",
		     "t.ini:4: option 'kernel': with ioengine=mem a write is "
		     "what the kernel stores");
	/* a mapped write without a kernel gets fill */
	o = run_checks("[a]\nsize=1m\nrw=write\n");
	assert_int_equal(o.errors, 0);
	assert_string_equal(o.js.jobs[0].kernel->name, "fill");
	done(&o);
	/* impl resolves to its index */
	o = run_checks("[a]\nsize=1m\nkernel=count\nimpl=unrolled\n");
	assert_int_equal(o.errors, 0);
	assert_int_equal(job_impl_of(&o.js.jobs[0]), 1);
	done(&o);
}

static void test_run_control(void **state)
{
	(void)state;
	expect_error("[a]\nsize=1m\ntime_based=1\n",
		     "t.ini:3: option 'time_based': needs runtime");
	expect_error("[a]\nsize=1m\nwait_for=b\n[b]\nsize=1m\n",
		     "t.ini:3: option 'wait_for': no job named 'b' before");
	expect_error("[a]\nsize=1m\nwait_for=a\n", "cannot wait for itself");
	expect_ok("[a]\nsize=1m\n[b]\nsize=1m\nwait_for=a\n");
	expect_error("[a]\nioengine=mem\n", "t.ini:1: option 'size': "
		     "ioengine=mem without a file needs size");
	expect_error("[a]\nsize=1m\ncpus_allowed=1000\n",
		     "t.ini:3: option 'cpus_allowed': CPU 1000 in '1000' does "
		     "not exist");
}

static void test_no_jobs(void **state)
{
	(void)state;
	expect_error("[global]\nbs=4k\n", "no jobs to run");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source_options),
		cmocka_unit_test(test_direct_alignment),
		cmocka_unit_test(test_kernel_choices),
		cmocka_unit_test(test_run_control),
		cmocka_unit_test(test_no_jobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
