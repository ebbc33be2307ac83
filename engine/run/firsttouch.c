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
 *
 * The first touch that costs on every machine is the page fault of a page
 * not yet mapped.  first_touch=phase times that where there is one to
 * time: a fresh anonymous region before its fill (the engine fills it
 * after the phase), a file mapping made without populate.  A region whose
 * pages the source mapped before the job (mmap populate=1) has no first
 * touch left: the walk is a re-touch, reported as such and without a rate.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "ioengines/ioengine.h"
#include "run/firsttouch.h"
#include "util/clock.h"
#include "util/row.h"
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

bool first_touch_gbps(const struct touch_result *t, double *gbps)
{
	if (t->mode != TOUCH_PHASE || t->present || !t->fig.ns)
		return false;
	*gbps = fig_fixed((double)t->fig.bytes / (double)t->fig.ns,
			  TOUCH_GBPS_DECIMALS);
	return true;
}

double first_touch_passes(uint64_t bytes, uint64_t size_all)
{
	return size_all ? fig_sig((double)bytes / (double)size_all,
				  TOUCH_PASSES_DIGITS) : 0.0;
}

void first_touch_describe(const struct touch_result *t, char *buf,
			  size_t len)
{
	const struct touch_figures *f = &t->fig;
	char sz[32], rate[48] = "";
	double gbps;

	switch (t->mode) {
	case TOUCH_PHASE:
		value_format_bytes((double)f->bytes, sz, sizeof(sz));
		if (first_touch_gbps(t, &gbps))
			snprintf(rate, sizeof(rate), " at %.2f GB/s", gbps);
		snprintf(buf, len, "first touch of %s%s: %.3f s%s with %llu "
			 "minor and %llu major faults and cpu usr %.3f s sys "
			 "%.3f s (%s; untimed in the passes)", sz, t->present ?
			 " not timed: the source mapped its pages before the "
			 "job and a walk over them" : " (pages not yet mapped)",
			 (double)f->ns / 1e9, rate,
			 (unsigned long long)f->minflt,
			 (unsigned long long)f->majflt,
			 (double)f->usr_ns / 1e9, (double)f->sys_ns / 1e9,
			 t->present ? "a re-touch" : "its own phase");
		break;
	case TOUCH_UNTIMED:
		snprintf(buf, len, "first touch untimed (before the clock)");
		break;
	default:
		snprintf(buf, len, t->present ?
			 "first touch before the clock (the source mapped the "
			 "pages before the job)" :
			 "first touch timed (in the first pass)");
		break;
	}
}

/* Walk the source's region once from user space, timed with the
 * thread's CPU time and faults: fresh (not yet mapped) memory of the
 * job's own gets a store of 0 per page (its bytes are 0), anything else
 * a load (and a store of the same byte into the job's own memory). */
static void touch_measure(const struct job_spec *j, const struct ioe *io,
			  bool fresh, struct touch_figures *f)
{
	struct rusage r0, r1;

	f->bytes = io->region_len;
	getrusage(RUSAGE_THREAD, &r0);
	f->ns = mono_ns();
	if (fresh && ioe_own_memory(j->ioengine))
		ioe_fault_in(io->region, io->region_len);
	else
		first_touch(io->region, io->region_len,
			    ioe_own_memory(j->ioengine));
	f->ns = mono_ns() - f->ns;
	getrusage(RUSAGE_THREAD, &r1);
	f->usr_ns = timeval_ns(&r1.ru_utime) - timeval_ns(&r0.ru_utime);
	f->sys_ns = timeval_ns(&r1.ru_stime) - timeval_ns(&r0.ru_stime);
	f->minflt = (uint64_t)(r1.ru_minflt - r0.ru_minflt);
	f->majflt = (uint64_t)(r1.ru_majflt - r0.ru_majflt);
}

/* Between setup and fill (ioengine.h): first_touch=phase times the
 * first touch of the fresh region here, the one moment it has one. */
void first_touch_fresh(const struct job_spec *j, const struct ioe *io,
		       struct touch_result *t)
{
	if (!io->region || first_touch_resolve(j->first_touch,
					       io->resident) != TOUCH_PHASE)
		return;
	touch_measure(j, io, true, &t->fig);
	t->mode = TOUCH_PHASE;
}

/* first_touch=: touch the source's region from user space now, before
 * the release (untimed, phase), or leave it to the first pass (timed);
 * what was done is added to extra for source_info.  filled: the source
 * had a fill, so a touch not done before it finds its pages mapped. */
void first_touch_region(const struct job_spec *j, const struct ioe *io,
			bool filled, char *extra, size_t len,
			struct touch_result *t)
{
	enum first_touch_mode mode = first_touch_resolve(j->first_touch,
							 io->resident);
	size_t n = strlen(extra);

	if (mode == TOUCH_UNTIMED) {
		struct touch_figures f;

		touch_measure(j, io, false, &f);
	} else if (mode == TOUCH_PHASE && t->mode != TOUCH_PHASE) {
		/* no fill to go before: the pages are as setup left them */
		t->present = io->resident;
		touch_measure(j, io, !io->resident, &t->fig);
	} else if (mode == TOUCH_TIMED) {
		t->present = io->resident || filled;
	}
	t->mode = mode;
	if (n && n + 2 < len) {
		memcpy(extra + n, "; ", 3);
		n += 2;
	}
	first_touch_describe(t, extra + n, len - n);
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
	into->present |= from->present;
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
	double passes = first_touch_passes(bytes, size_all);
	double gbps;
	char sz[32];

	if (t->mode == TOUCH_AUTO)
		return;
	fprintf(f, "    timed: %.4g pass%s over the data, %s\n", passes,
		passes == 1 ? "" : "es",
		t->mode != TOUCH_TIMED ?
		"after the first touch (not timed with them)" :
		t->present ? "after the first touch (the source mapped the "
			     "pages before the job)" :
		"the first touch of each page in the first");
	if (t->mode != TOUCH_PHASE)
		return;
	value_format_bytes((double)g->bytes, sz, sizeof(sz));
	if (first_touch_gbps(t, &gbps))
		fprintf(f, "    first touch of %s (pages not yet mapped): "
			"%.3f s, %.2f GB/s; ", sz, (double)g->ns / 1e9, gbps);
	else
		fprintf(f, "    first touch of %s: none to time, the source "
			"mapped its pages before the job; a walk over them: "
			"%.3f s; ", sz, (double)g->ns / 1e9);
	fprintf(f, "faults %llu minor, %llu major; cpu usr %.3f s, sys %.3f s "
		"(its own phase)\n", (unsigned long long)g->minflt,
		(unsigned long long)g->majflt, (double)g->usr_ns / 1e9,
		(double)g->sys_ns / 1e9);
}
