/*
 * firsttouch.c - touching a job's memory once from user space before it
 * is measured.
 *
 * A page the kernel filled (ioengine=mem reading its file with pread,
 * mmap with MAP_POPULATE) is mapped in the guest's page tables, but on a
 * virtual machine with shadow page tables the hypervisor builds its own
 * entry only at the first access from user space: that access costs like
 * a fault (about 0.6 s per GiB on such a guest) while the guest counts
 * none.  A job that means to measure memory bandwidth over data "already
 * in RAM" must not time that, and a user who wants to see it must be
 * able to: hence first_touch=untimed|phase|timed.  One access per 4 KiB
 * is enough, the hypervisor's and the kernel's unit being the page.
 */
#include <stdio.h>

#include "run/firsttouch.h"
#include "util/value.h"

#define TOUCH_STEP	4096

enum first_touch_mode first_touch_resolve(enum first_touch_mode mode,
					  bool resident)
{
	if (mode != TOUCH_AUTO)
		return mode;
	return resident ? TOUCH_UNTIMED : TOUCH_TIMED;
}

/* The first byte, then the first byte of every later page. */
void first_touch(void *p, size_t len, bool store)
{
	uintptr_t a = (uintptr_t)p, end = a + len;
	unsigned char sink = 0;

	while (a < end) {
		volatile unsigned char *q = (volatile unsigned char *)a;

		unsigned char v = *q;

		if (store)
			*q = v;
		sink ^= v;
		a = (a | (TOUCH_STEP - 1)) + 1;
	}
	__asm__ volatile("" : : "r"(sink));
}

void first_touch_describe(enum first_touch_mode mode,
			  const struct touch_figures *f, char *buf,
			  size_t len)
{
	char sz[32];

	switch (mode) {
	case TOUCH_PHASE:
		value_format_bytes((double)f->bytes, sz, sizeof(sz));
		snprintf(buf, len, "first touch of %s: %.3f s at %.2f GB/s "
			 "with %llu minor and %llu major faults and cpu usr "
			 "%.3f s sys %.3f s (its own phase; untimed in the "
			 "passes)", sz, (double)f->ns / 1e9,
			 f->ns ? (double)f->bytes / (double)f->ns : 0.0,
			 (unsigned long long)f->minflt,
			 (unsigned long long)f->majflt,
			 (double)f->usr_ns / 1e9, (double)f->sys_ns / 1e9);
		break;
	case TOUCH_UNTIMED:
		snprintf(buf, len, "first touch untimed (before the clock)");
		break;
	default:
		snprintf(buf, len, "first touch timed (in the first pass)");
		break;
	}
}

const char *first_touch_name(enum first_touch_mode mode)
{
	switch (mode) {
	case TOUCH_UNTIMED:
		return "untimed";
	case TOUCH_TIMED:
		return "timed";
	case TOUCH_PHASE:
		return "phase";
	default:
		return NULL;
	}
}

void first_touch_merge(struct touch_result *into,
		       const struct touch_result *from)
{
	struct touch_figures *a = &into->fig;
	const struct touch_figures *b = &from->fig;

	if (into->mode == TOUCH_AUTO)
		into->mode = from->mode;
	a->bytes += b->bytes;
	a->ns = b->ns > a->ns ? b->ns : a->ns;
	a->usr_ns += b->usr_ns;
	a->sys_ns += b->sys_ns;
	a->minflt += b->minflt;
	a->majflt += b->majflt;
}

void first_touch_report(FILE *f, const struct touch_result *t,
			uint64_t bytes, uint64_t size_all)
{
	const struct touch_figures *g = &t->fig;
	double passes = size_all ? (double)bytes / (double)size_all : 0;
	char sz[32];

	if (t->mode == TOUCH_AUTO)
		return;
	fprintf(f, "    timed: %.4g pass%s over the data, %s\n", passes,
		passes == 1 ? "" : "es", t->mode == TOUCH_TIMED ?
		"the first touch of each page in the first" :
		"after the first touch (not timed with them)");
	if (t->mode != TOUCH_PHASE)
		return;
	value_format_bytes((double)g->bytes, sz, sizeof(sz));
	fprintf(f, "    first touch of %s: %.3f s, %.2f GB/s; faults %llu "
		"minor, %llu major; cpu usr %.3f s, sys %.3f s (its own "
		"phase)\n", sz, (double)g->ns / 1e9,
		g->ns ? (double)g->bytes / (double)g->ns : 0.0,
		(unsigned long long)g->minflt, (unsigned long long)g->majflt,
		(double)g->usr_ns / 1e9, (double)g->sys_ns / 1e9);
}
