/*
 * test_counters.c - unit tests for the perf event counters
 * (engine/counters.c, engine/counters_list.c).
 *
 * The software events are checked against what the kernel reports
 * through getrusage(RUSAGE_THREAD) and CLOCK_THREAD_CPUTIME_ID over the
 * same window.  Hardware events are checked against a perf_event_open of
 * our own: where the machine has none they must come back "not supported"
 * while the software events of the same request still count; where it
 * has them they must count.  The software events are read as one group,
 * through the same code as the hardware pairs, so the group path is run
 * here even on a machine without a PMU.  Scaling is pure and tested on
 * numbers.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <cmocka.h>

#include "machine/counters.h"
#include "seccomp_deny.h"

#define PAGE		4096ul
#define ERRLEN		256

/* ---- helpers ---- */

/* Whether this thread may open event (type, config) in user space,
 * asked of the kernel directly; errno says why not. */
static bool kernel_opens(unsigned type, unsigned long long config)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	a.exclude_hv = 1;
	a.exclude_kernel = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Can this thread count cycles at all? */
static bool machine_has_cycles(void)
{
	return kernel_opens(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
}

/* The tests that count need perf_event_open for software events at
 * least: a kernel without perf events, or an emulator (qemu-user), has
 * none, and those tests skip, saying why. */
static void need_perf(void)
{
	if (kernel_opens(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK))
		return;
	print_message("skipped: perf_event_open(task-clock): %s (no perf "
		      "events here: a kernel without them, seccomp, or an "
		      "emulator)\n", strerror(errno));
	skip();
}

static struct counters *open_list(const char *list, unsigned *n)
{
	struct counter_list l;
	char err[ERRLEN];
	struct counters *c;

	need_perf();
	if (counters_parse(list, &l, err, sizeof(err)))
		fail_msg("counters_parse('%s'): %s", list, err);
	*n = l.n;
	c = counters_open(l.ids, *n);
	assert_non_null(c);
	assert_int_equal(counters_count(c), *n);
	return c;
}

static const struct counter_value *value_of(const struct counter_value *v,
					    unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	fail_msg("no value for '%s'", name);
	return NULL;
}

static void expect_ok(const struct counter_value *v)
{
	if (v->status != COUNTER_OK)
		fail_msg("%s: status %s (%s), want ok", v->name,
			 counters_status_name(v->status), v->why);
	assert_true(v->running > 0.999 && v->running <= 1.0);
	assert_int_equal(v->value, v->raw);	/* software: never scaled */
}

/* May this process count kernel-side events (perf_event_paranoid)?
 * Context switches and migrations happen only there. */
static bool kernel_denied(void)
{
	unsigned id = CTR_CONTEXT_SWITCHES;
	struct counter_value v[1];
	struct counters *c = counters_open(&id, 1);
	unsigned n;
	bool denied;

	assert_non_null(c);
	assert_int_equal(counters_read(c, v, &n), 0);
	denied = v[0].status == COUNTER_DENIED;
	counters_close(c);
	return denied;
}

/* A software event: counted, or (kernel-only ones, for a user who may
 * not count the kernel) denied with the reason. */
static void expect_counted(const struct counter_value *v, bool denied)
{
	if (denied && (!strcmp(v->name, "context-switches") ||
		       !strcmp(v->name, "cpu-migrations"))) {
		assert_int_equal(v->status, COUNTER_DENIED);
		assert_non_null(strstr(v->why, "perf_event_paranoid"));
		return;
	}
	expect_ok(v);
}

/* count fresh anonymous pages, without transparent huge pages */
static char *fresh_pages(size_t count)
{
	char *p = mmap(NULL, count * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	assert_int_equal(madvise(p, count * PAGE, MADV_NOHUGEPAGE), 0);
	return p;
}

static void touch(volatile char *p, size_t count)
{
	for (size_t i = 0; i < count; i++)
		p[i * PAGE] = 1;
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts), 0);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- parsing ---- */

static void parse_ok(const char *list, const unsigned *want, unsigned nwant)
{
	struct counter_list l;
	char err[ERRLEN] = "";

	if (counters_parse(list, &l, err, sizeof(err)))
		fail_msg("counters_parse('%s') refused: %s", list, err);
	assert_int_equal(l.n, nwant);
	for (unsigned i = 0; i < l.n; i++)
		if (l.ids[i] != want[i])
			fail_msg("counters_parse('%s'): item %u is %s, want %s",
				 list, i, counters_name(l.ids[i]),
				 counters_name(want[i]));
}

static void parse_bad(const char *list, const char *want)
{
	struct counter_list l;
	char err[ERRLEN] = "";

	if (!counters_parse(list, &l, err, sizeof(err)))
		fail_msg("counters_parse('%s') was accepted", list);
	if (!strstr(err, want))
		fail_msg("counters_parse('%s'): '%s' lacks '%s'", list, err,
			 want);
}

static void test_parse_names(void **state)
{
	(void)state;
	parse_ok("cycles,instructions,page-faults", (const unsigned[]){
		 CTR_CYCLES, CTR_INSTRUCTIONS, CTR_PAGE_FAULTS }, 3);
	parse_ok("cpu-cycles,branch-instructions,faults,cs,migrations",
		 (const unsigned[]){ CTR_CYCLES, CTR_BRANCHES,
		 CTR_PAGE_FAULTS, CTR_CONTEXT_SWITCHES,
		 CTR_CPU_MIGRATIONS }, 5);
	parse_ok(" l1-dcache-LOADS , LLC-load-misses,dtlb-load-misses ",
		 (const unsigned[]){ CTR_L1D_LOADS, CTR_LLC_LOAD_MISSES,
		 CTR_DTLB_LOAD_MISSES }, 3);
	parse_ok("task-clock", (const unsigned[]){ CTR_TASK_CLOCK }, 1);
	/* none, alone: the empty list */
	parse_ok("none", NULL, 0);
	parse_ok(" NONE ", NULL, 0);
	/* every event by its own name */
	for (unsigned id = 0; id < CTR_NEVENTS; id++)
		parse_ok(counters_name(id), &id, 1);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_bad("cylces", "unknown event 'cylces' (did you mean 'cycles'?)");
	parse_bad("cycles,L1-icache-load-miss",
		  "did you mean 'L1-icache-load-misses'?");
	parse_bad("llc-loads-misses", "did you mean 'LLC-load-misses'?");
	parse_bad("pagefaults", "did you mean 'page-faults'?");
	parse_bad("bogus", "event 'bogus'");
	parse_bad("cycles:k", "modifiers such as ':u' are not supported");
	parse_bad("cycles:u", "modifiers such as ':u' are not supported");
	parse_bad("", "no event given");
	parse_bad("  ", "no event given");
	parse_bad("cycles,,instructions", "an empty event name");
	parse_bad("cycles,", "an empty event name");
	parse_bad(",cycles", "an empty event name");
	parse_bad("cycles,instructions,cycles",
		  "event 'cycles' is listed twice");
	parse_bad("context-switches,cs",
		  "event 'cs' is 'context-switches', which is listed already");
	parse_bad("CYCLES,cycles", "event 'cycles' is listed twice");
	parse_bad("none,cycles", "'none' turns every counter off and stands "
		  "alone, not in a list ('none,cycles')");
	parse_bad("cycles,none", "stands alone");
	parse_bad("none,none", "stands alone");
}

static void test_format_and_default(void **state)
{
	struct counter_list l;
	char err[ERRLEN], buf[512], small[10];
	bool seen[CTR_NEVENTS] = { false };

	(void)state;
	assert_int_equal(counters_parse("cs,CYCLES,faults", &l, err,
					 sizeof(err)), 0);
	counters_format(&l, buf, sizeof(buf));
	assert_string_equal(buf, "context-switches,cycles,page-faults");
	counters_format(&l, small, sizeof(small));
	assert_string_equal(small, "context-s");		/* truncated */

	memset(&l, 0, sizeof(l));
	l.n = counters_default(l.ids);
	assert_int_equal(l.n, CTR_NEVENTS);
	for (unsigned i = 0; i < l.n; i++) {
		assert_true(l.ids[i] < CTR_NEVENTS);
		assert_false(seen[l.ids[i]]);
		seen[l.ids[i]] = true;
	}
	/* the default set formats to a list that parses back to itself */
	counters_format(&l, buf, sizeof(buf));
	parse_ok(buf, l.ids, l.n);
	assert_null(counters_name(CTR_NEVENTS));
	assert_string_equal(counters_name(CTR_L1I_LOAD_MISSES),
			    "L1-icache-load-misses");
	assert_string_equal(counters_status_name(COUNTER_UNSUPPORTED),
			    "not-supported");
	assert_string_equal(counters_status_name(COUNTER_NOT_COUNTED),
			    "not-counted");
}

/* ---- scaling, derived figures, merging: pure ---- */

static void test_scale(void **state)
{
	(void)state;
	assert_int_equal(counters_scale(100, 10, 10), 100);	/* all time */
	assert_int_equal(counters_scale(100, 10, 5), 200);	/* half */
	assert_int_equal(counters_scale(7, 3, 2), 10);		/* 10.5 */
	assert_int_equal(counters_scale(100, 10, 0), 0);	/* never ran */
	assert_int_equal(counters_scale(0, 10, 3), 0);
	assert_int_equal(counters_scale(100, 10, 12), 100);	/* no skew up */
	/* no overflow in the product */
	assert_int_equal(counters_scale(UINT64_MAX / 2, 4000000000ull,
					2000000000ull), UINT64_MAX - 1);
	assert_int_equal(counters_scale(1ull << 62, 1ull << 40, 1ull << 38),
			 UINT64_MAX);				/* saturates */
	assert_int_equal(counters_scale(1000000, 3000000007ull,
					1000000000ull), 3000000);
}

static struct counter_value cv(const char *name, uint64_t value,
			       enum counter_status st)
{
	struct counter_value v = { .name = name, .value = value, .raw = value,
				   .running = 1.0, .status = st };

	if (st != COUNTER_OK)
		snprintf(v.why, sizeof(v.why), "%s", counters_status_name(st));
	return v;
}

static double derived_of(const char **names, const double *values,
			 unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return values[i];
	return -1;
}

static void test_derived(void **state)
{
	struct counter_value v[] = {
		cv("cycles", 1000, COUNTER_OK),
		cv("instructions", 2500, COUNTER_OK),
		cv("cache-references", 200, COUNTER_OK),
		cv("cache-misses", 50, COUNTER_OK),
		cv("branches", 400, COUNTER_UNSUPPORTED),
		cv("branch-misses", 4, COUNTER_OK),
		cv("L1-dcache-loads", 0, COUNTER_OK),
		cv("L1-dcache-load-misses", 0, COUNTER_OK),
		cv("LLC-loads", 100, COUNTER_OK),
		cv("LLC-load-misses", 10, COUNTER_OK),
	};
	const unsigned nv = sizeof(v) / sizeof(v[0]);
	const char *names[COUNTERS_DERIVED_MAX];
	double values[COUNTERS_DERIVED_MAX];
	unsigned n;

	(void)state;
	v[9].user_only = true;	/* LLC misses user-only, loads not */
	n = counters_derived(v, nv, names, values, COUNTERS_DERIVED_MAX);
	assert_int_equal(n, 2);
	assert_true(derived_of(names, values, n, "ipc") == 2.5);
	assert_true(derived_of(names, values, n, "cache-miss-rate") == 0.25);
	/* no branch rate (an input unsupported), no L1 rate (0 loads), no
	 * LLC rate (modes differ) */
	assert_true(derived_of(names, values, n, "branch-miss-rate") < 0);

	v[9].user_only = false;
	v[4].status = COUNTER_OK;
	n = counters_derived(v, nv, names, values, COUNTERS_DERIVED_MAX);
	assert_int_equal(n, 4);
	assert_true(derived_of(names, values, n, "branch-miss-rate") == 0.01);
	assert_true(derived_of(names, values, n, "LLC-load-miss-rate") == 0.1);
	/* a not-counted input gives no figure; max is respected */
	v[0].status = COUNTER_NOT_COUNTED;
	n = counters_derived(v, nv, names, values, COUNTERS_DERIVED_MAX);
	assert_int_equal(n, 3);
	assert_true(derived_of(names, values, n, "ipc") < 0);
	assert_int_equal(counters_derived(v, nv, names, values, 1), 1);
	/* only one of a pair present */
	assert_int_equal(counters_derived(v + 1, 1, names, values, 8), 0);
}

static void test_merge(void **state)
{
	struct counter_value a[] = {
		cv("page-faults", 10, COUNTER_OK),
		cv("cycles", 0, COUNTER_UNSUPPORTED),
		cv("task-clock", 100, COUNTER_OK),
		cv("minor-faults", 5, COUNTER_OK),
	};
	struct counter_value b[] = {
		cv("page-faults", 32, COUNTER_OK),
		cv("cycles", 0, COUNTER_UNSUPPORTED),
		cv("task-clock", 50, COUNTER_NOT_COUNTED),
		cv("major-faults", 7, COUNTER_OK),	/* not the same */
	};

	(void)state;
	a[0].running = 0.75;
	b[0].running = 0.5;
	b[0].raw = 16;
	counters_merge(a, b, 4);
	assert_int_equal(a[0].value, 42);
	assert_int_equal(a[0].raw, 26);
	assert_true(a[0].running == 0.5);
	assert_int_equal(a[0].status, COUNTER_OK);
	assert_int_equal(a[1].status, COUNTER_UNSUPPORTED);
	assert_string_equal(a[1].why, "not-supported");
	/* a clone that did not count makes the sum incomplete */
	assert_int_equal(a[2].status, COUNTER_NOT_COUNTED);
	assert_string_equal(a[2].why, "not-counted");
	assert_int_equal(a[3].value, 5);
	assert_string_equal(a[3].name, "minor-faults");
}

/* ---- the real thing, on this thread ---- */

/* Hardware events: "not supported" where the machine has none, counted
 * where it has them; the software events of the request count anyway. */
static void test_hardware_events(void **state)
{
	const bool hw = machine_has_cycles();
	struct counter_value v[COUNTERS_MAX];
	const char *names[COUNTERS_DERIVED_MAX];
	double values[COUNTERS_DERIVED_MAX];
	const char *hwnames[] = { "cycles", "instructions",
				  "L1-icache-load-misses", "LLC-load-misses" };
	struct counters *c;
	unsigned n, nd;
	char *p = fresh_pages(64);

	(void)state;
	c = open_list("cycles,page-faults,instructions,L1-icache-load-misses,"
		      "context-switches,LLC-load-misses,LLC-loads", &n);
	assert_int_equal(counters_start(c), 0);
	touch(p, 64);
	assert_int_equal(counters_stop(c), 0);
	assert_int_equal(counters_read(c, v, &n), 0);
	assert_int_equal(n, 7);
	/* request order is kept */
	assert_string_equal(v[0].name, "cycles");
	assert_string_equal(v[1].name, "page-faults");
	assert_string_equal(v[6].name, "LLC-loads");
	for (size_t i = 0; i < sizeof(hwnames) / sizeof(hwnames[0]); i++) {
		const struct counter_value *h = value_of(v, n, hwnames[i]);

		if (!hw) {
			assert_int_equal(h->status, COUNTER_UNSUPPORTED);
			assert_string_equal(h->why, "not supported");
			assert_int_equal(h->value, 0);
		} else if (h->status != COUNTER_OK &&
			   h->status != COUNTER_UNSUPPORTED) {
			fail_msg("%s: %s (%s)", h->name,
				 counters_status_name(h->status), h->why);
		}
	}
	if (hw) {
		assert_int_equal(v[0].status, COUNTER_OK);
		assert_true(v[0].value > 0);
	}
	expect_ok(value_of(v, n, "page-faults"));
	assert_true(value_of(v, n, "page-faults")->value >= 64);
	expect_counted(value_of(v, n, "context-switches"), kernel_denied());
	nd = counters_derived(v, n, names, values, COUNTERS_DERIVED_MAX);
	if (!hw)
		assert_int_equal(nd, 0);
	else if (!nd || strcmp(names[0], "ipc"))
		fail_msg("no IPC from cycles and instructions");
	counters_close(c);
	munmap(p, 64 * PAGE);
}

/* Touching fresh pages: the fault counters equal getrusage's. */
static void test_faults_agree_with_getrusage(void **state)
{
	const size_t pages = 1000;
	struct counter_value v[COUNTERS_MAX];
	struct rusage r0, r1;
	struct counters *c;
	unsigned n;
	char *p = fresh_pages(pages);

	(void)state;
	c = open_list("page-faults,minor-faults,major-faults", &n);
	/* a first window, so the second touches no fresh stack of ours */
	assert_int_equal(counters_start(c), 0);
	assert_int_equal(counters_stop(c), 0);
	assert_int_equal(counters_read(c, v, &n), 0);

	assert_int_equal(getrusage(RUSAGE_THREAD, &r0), 0);
	assert_int_equal(counters_start(c), 0);
	touch(p, pages);
	assert_int_equal(counters_stop(c), 0);
	assert_int_equal(getrusage(RUSAGE_THREAD, &r1), 0);
	assert_int_equal(counters_read(c, v, &n), 0);
	for (unsigned i = 0; i < n; i++)
		expect_ok(&v[i]);
	assert_true(v[1].value >= pages);
	assert_int_equal(v[1].value, (uint64_t)(r1.ru_minflt - r0.ru_minflt));
	assert_int_equal(v[2].value, (uint64_t)(r1.ru_majflt - r0.ru_majflt));
	assert_int_equal(v[0].value, v[1].value + v[2].value);

	/* stopped: faults after the window are not counted */
	p[0] = 2;
	munmap(p, pages * PAGE);
	p = fresh_pages(10);
	touch(p, 10);
	{
		struct counter_value again[COUNTERS_MAX];

		assert_int_equal(counters_read(c, again, &n), 0);
		assert_int_equal(again[1].value, v[1].value);
	}
	counters_close(c);
	munmap(p, 10 * PAGE);
}

/* Major faults: a file's pages dropped from the page cache, then read. */
static void test_major_faults(void **state)
{
	const size_t pages = 32;
	char path[] = "/var/tmp/memjob-counters-XXXXXX";
	struct counter_value v[COUNTERS_MAX];
	struct rusage r0, r1;
	struct counters *c;
	unsigned n;
	char *buf, *map;
	volatile char sink;
	int fd;

	(void)state;
	fd = mkstemp(path);
	if (fd < 0) {
		print_message("skipped: mkstemp(%s): %s\n", path,
			      strerror(errno));
		skip();
	}
	unlink(path);
	buf = calloc(pages, PAGE);
	assert_non_null(buf);
	memset(buf, 'x', pages * PAGE);
	assert_int_equal(write(fd, buf, pages * PAGE), (ssize_t)(pages * PAGE));
	free(buf);
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	map = mmap(NULL, pages * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(madvise(map, pages * PAGE, MADV_RANDOM), 0);

	c = open_list("major-faults,minor-faults,page-faults", &n);
	assert_int_equal(counters_start(c), 0);
	assert_int_equal(counters_stop(c), 0);
	assert_int_equal(getrusage(RUSAGE_THREAD, &r0), 0);
	assert_int_equal(counters_start(c), 0);
	for (size_t i = 0; i < pages; i++)
		sink = map[i * PAGE];
	assert_int_equal(counters_stop(c), 0);
	assert_int_equal(getrusage(RUSAGE_THREAD, &r1), 0);
	(void)sink;
	assert_int_equal(counters_read(c, v, &n), 0);
	counters_close(c);
	munmap(map, pages * PAGE);
	close(fd);
	if (r1.ru_majflt == r0.ru_majflt) {
		print_message("skipped: the file's pages were not dropped "
			      "(no major fault to count)\n");
		skip();
	}
	expect_ok(&v[0]);
	assert_int_equal(v[0].value, (uint64_t)(r1.ru_majflt - r0.ru_majflt));
	assert_int_equal(v[1].value, (uint64_t)(r1.ru_minflt - r0.ru_minflt));
	assert_int_equal(v[2].value, v[0].value + v[1].value);
}

/* Sleeping switches context: the counter equals getrusage's. */
static void test_context_switches_agree(void **state)
{
	const int k = 20;
	struct counter_value v[COUNTERS_MAX];
	struct timespec ms = { 0, 1000000 };
	struct rusage r0, r1;
	struct counters *c;
	unsigned n;
	uint64_t ru;

	(void)state;
	if (kernel_denied()) {
		print_message("skipped: perf_event_paranoid keeps kernel-side "
			      "events from this process\n");
		skip();
	}
	c = open_list("cs", &n);
	assert_int_equal(getrusage(RUSAGE_THREAD, &r0), 0);
	assert_int_equal(counters_start(c), 0);
	for (int i = 0; i < k; i++) {
		sched_yield();
		nanosleep(&ms, NULL);
	}
	assert_int_equal(counters_stop(c), 0);
	assert_int_equal(getrusage(RUSAGE_THREAD, &r1), 0);
	assert_int_equal(counters_read(c, v, &n), 0);
	expect_ok(&v[0]);
	ru = (uint64_t)(r1.ru_nvcsw - r0.ru_nvcsw + r1.ru_nivcsw -
			r0.ru_nivcsw);
	assert_true(v[0].value >= (uint64_t)k);
	if (v[0].value > ru || ru - v[0].value > 2)
		fail_msg("context-switches %llu, getrusage %llu",
			 (unsigned long long)v[0].value,
			 (unsigned long long)ru);
	counters_close(c);
}

/*
 * Nanoseconds the kernel keeps out of a thread's CPU time, summed over all
 * CPUs: time stolen by the hypervisor and time spent in interrupts (with
 * CONFIG_PARAVIRT_TIME_ACCOUNTING and CONFIG_IRQ_TIME_ACCOUNTING), from
 * the "cpu" line of /proc/stat.  Returns 0 and sets *ticks_ns to one tick
 * times the CPU count (the rounding of one read) when it can be read.
 */
static int excluded_ns(uint64_t *ns, uint64_t *ticks_ns)
{
	unsigned long long f[8];
	const long hz = sysconf(_SC_CLK_TCK);
	const long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	FILE *fp = fopen("/proc/stat", "r");
	int got;

	if (fp == NULL)
		return -1;
	/* user nice system idle iowait irq softirq steal */
	got = fscanf(fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0],
		     &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]);
	fclose(fp);
	if (got != 8 || hz <= 0 || ncpu <= 0)
		return -1;
	*ns = (f[5] + f[6] + f[7]) * (1000000000ull / (uint64_t)hz);
	*ticks_ns = (uint64_t)ncpu * (1000000000ull / (uint64_t)hz);
	return 0;
}

/*
 * task-clock counts the time the thread is on a CPU as the guest sees it,
 * so on a virtual machine it includes time stolen by the hypervisor (and,
 * with IRQ time accounting, interrupts taken while it ran), which the
 * thread's CPU time (CLOCK_THREAD_CPUTIME_ID, getrusage) leaves out.  It is
 * always between the CPU time and the wall-clock time.  Where /proc/stat
 * tells how much was stolen or spent in interrupts during the window
 * (`excl`, with rounding `slack`), task-clock must not exceed the CPU time
 * by more than that plus 10%.
 */
static void task_clock_within(uint64_t tc, uint64_t cpu, uint64_t wall,
			      const uint64_t *excl, uint64_t slack)
{
	if ((double)tc < 0.9 * (double)cpu ||
	    (double)tc > 1.02 * (double)wall + 100000)
		fail_msg("task-clock %llu ns is outside [CPU time %llu ns, "
			 "wall-clock %llu ns]", (unsigned long long)tc,
			 (unsigned long long)cpu, (unsigned long long)wall);
	if (excl != NULL &&
	    (double)tc > 1.1 * (double)cpu + (double)(*excl + slack))
		fail_msg("task-clock %llu ns exceeds CPU time %llu ns by more "
			 "than 10%% plus the %llu ns (+/- %llu) stolen or spent "
			 "in interrupts", (unsigned long long)tc,
			 (unsigned long long)cpu, (unsigned long long)*excl,
			 (unsigned long long)slack);
}

static void test_task_clock(void **state)
{
	struct counter_value v[COUNTERS_MAX];
	struct counters *c;
	uint64_t t0, t1, w0, w1, x0 = 0, x1 = 0, slack = 0, excl;
	unsigned n;
	bool have_excl;

	(void)state;
	c = open_list("task-clock,page-faults", &n);
	have_excl = excluded_ns(&x0, &slack) == 0;
	w0 = wall_ns();
	t0 = thread_cpu_ns();
	assert_int_equal(counters_start(c), 0);
	while (thread_cpu_ns() < t0 + 50 * 1000000ull)
		;
	assert_int_equal(counters_stop(c), 0);
	t1 = thread_cpu_ns();
	w1 = wall_ns();
	have_excl = have_excl && excluded_ns(&x1, &slack) == 0;
	assert_int_equal(counters_read(c, v, &n), 0);
	expect_ok(&v[0]);
	excl = x1 > x0 ? x1 - x0 : 0;
	print_message("# task-clock %llu ns, thread CPU %llu ns, wall %llu ns, "
		      "steal+irq %s%llu ns\n", (unsigned long long)v[0].value,
		      (unsigned long long)(t1 - t0),
		      (unsigned long long)(w1 - w0),
		      have_excl ? "" : "(unreadable) ",
		      (unsigned long long)excl);
	task_clock_within(v[0].value, t1 - t0, w1 - w0,
			  have_excl ? &excl : NULL, 2 * slack);
	counters_close(c);
}

/*
 * Several windows on one set, whose software group mixes task-clock with
 * the other software events, led by either: every window counts every
 * member.  (With PERF_IOC_FLAG_GROUP, Linux 6.18 loses the members after
 * the first disable.)
 */
static void windows_repeat(const char *list, unsigned fault, unsigned clock)
{
	const bool denied = kernel_denied();
	const size_t pages = 50;
	struct counter_value v[COUNTERS_MAX];
	struct rusage r0, r1;
	struct counters *c;
	uint64_t t0, t1, w0, w1;
	unsigned n;

	c = open_list(list, &n);
	for (int w = 0; w < 3; w++) {
		char *p = fresh_pages(pages);

		assert_int_equal(getrusage(RUSAGE_THREAD, &r0), 0);
		w0 = wall_ns();
		t0 = thread_cpu_ns();
		assert_int_equal(counters_start(c), 0);
		touch(p, pages);
		while (thread_cpu_ns() < t0 + 5 * 1000000ull)
			;
		assert_int_equal(counters_stop(c), 0);
		t1 = thread_cpu_ns();
		w1 = wall_ns();
		assert_int_equal(getrusage(RUSAGE_THREAD, &r1), 0);
		assert_int_equal(counters_read(c, v, &n), 0);
		for (unsigned i = 0; i < n; i++)
			expect_counted(&v[i], denied);
		if (v[fault].value < pages ||
		    v[fault].value != (uint64_t)(r1.ru_minflt - r0.ru_minflt))
			fail_msg("%s, window %d: %s %llu, getrusage %ld",
				 list, w, v[fault].name,
				 (unsigned long long)v[fault].value,
				 r1.ru_minflt - r0.ru_minflt);
		task_clock_within(v[clock].value, t1 - t0, w1 - w0, NULL, 0);
		munmap(p, pages * PAGE);
	}
	counters_close(c);
}

static void test_windows_repeat(void **state)
{
	(void)state;
	windows_repeat("page-faults,task-clock,cs", 0, 1);
	windows_repeat("task-clock,minor-faults,cs", 1, 0);
	windows_repeat("cs,task-clock,faults", 2, 1);
}

/* Moving the thread to another CPU is a migration. */
static void test_migrations(void **state)
{
	struct counter_value v[COUNTERS_MAX];
	cpu_set_t old, one;
	struct counters *c;
	int cpus[2], found = 0;
	unsigned n;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	for (int i = 0; i < CPU_SETSIZE && found < 2; i++)
		if (CPU_ISSET(i, &old))
			cpus[found++] = i;
	if (found < 2) {
		print_message("skipped: %d CPU allowed, 2 needed to migrate\n",
			      found);
		skip();
	}
	if (kernel_denied()) {
		print_message("skipped: perf_event_paranoid keeps kernel-side "
			      "events from this process\n");
		skip();
	}
	CPU_ZERO(&one);
	CPU_SET(cpus[0], &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	c = open_list("migrations,cs", &n);
	assert_int_equal(counters_start(c), 0);
	CPU_ZERO(&one);
	CPU_SET(cpus[1], &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	assert_int_equal(sched_getcpu(), cpus[1]);
	assert_int_equal(counters_stop(c), 0);
	assert_int_equal(counters_read(c, v, &n), 0);
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
	expect_ok(&v[0]);
	assert_true(v[0].value >= 1);
	counters_close(c);
}

/* A second start (the end of a ramp) moves the baseline; a read before
 * any start finds nothing counted. */
static void test_restart_moves_baseline(void **state)
{
	struct counter_value v[COUNTERS_MAX];
	struct rusage r0, r1;
	struct counters *c;
	unsigned n;
	char *p = fresh_pages(300);

	(void)state;
	c = open_list("minor-faults,task-clock", &n);
	assert_int_equal(counters_read(c, v, &n), 0);
	assert_int_equal(v[0].status, COUNTER_NOT_COUNTED);
	assert_string_equal(v[0].why, "not counted");

	assert_int_equal(counters_start(c), 0);
	touch(p, 100);				/* the ramp */
	assert_int_equal(getrusage(RUSAGE_THREAD, &r0), 0);
	assert_int_equal(counters_start(c), 0);
	touch(p + 100 * PAGE, 200);		/* the measured part */
	assert_int_equal(counters_stop(c), 0);
	assert_int_equal(getrusage(RUSAGE_THREAD, &r1), 0);
	assert_int_equal(counters_read(c, v, &n), 0);
	expect_ok(&v[0]);
	/* at least the 200 measured pages (a sanitizer's shadow memory
	 * faults too), and exactly what getrusage saw */
	assert_true(v[0].value >= 200);
	assert_int_equal(v[0].value, (uint64_t)(r1.ru_minflt - r0.ru_minflt));
	counters_close(c);
	munmap(p, 300 * PAGE);
}

/* Every event of the default set opens or says why not; none fails. */
static void test_default_set(void **state)
{
	const bool hw = machine_has_cycles(), denied = kernel_denied();
	struct counter_value v[COUNTERS_MAX];
	unsigned ids[COUNTERS_MAX], n;
	struct counters *c;
	char *p = fresh_pages(4);

	(void)state;
	need_perf();
	n = counters_default(ids);
	c = counters_open(ids, n);
	assert_non_null(c);
	assert_int_equal(counters_start(c), 0);
	touch(p, 4);
	assert_int_equal(counters_stop(c), 0);
	munmap(p, 4 * PAGE);
	assert_int_equal(counters_read(c, v, &n), 0);
	assert_int_equal(n, CTR_NEVENTS);
	for (unsigned i = 0; i < n; i++) {
		if (ids[i] >= CTR_TASK_CLOCK)
			expect_counted(&v[i], denied);
		else if (!hw)
			assert_int_equal(v[i].status, COUNTER_UNSUPPORTED);
		else if (v[i].status != COUNTER_OK &&
			 v[i].status != COUNTER_UNSUPPORTED)
			fail_msg("%s: %s", v[i].name, v[i].why);
	}
	counters_close(c);
}

/*
 * Out of file descriptors (a job with hundreds of threads meets the limit):
 * the events that opened count, the others say why, nothing fails.  The
 * third event fails to join its group and then to open alone.
 */
static int few_fds_child(void)
{
	struct rlimit lim = { 5, 5 };	/* fds 3 and 4 are left */
	struct counter_value v[COUNTERS_MAX];
	struct counter_list l;
	unsigned n;
	char err[ERRLEN];
	struct counters *c;
	char *p;

	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	if (setrlimit(RLIMIT_NOFILE, &lim))
		return 77;
	if (counters_parse("page-faults,minor-faults,cs,task-clock", &l,
			   err, sizeof(err)))
		return 2;
	c = counters_open(l.ids, l.n);
	p = mmap(NULL, 8 * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!c || p == MAP_FAILED || counters_start(c))
		return 3;
	touch(p, 8);
	if (counters_stop(c) || counters_read(c, v, &n) || n != 4)
		return 4;
	for (unsigned i = 0; i < n; i++)
		fprintf(stderr, "# few fds: %s %s %llu (%s)\n", v[i].name,
			counters_status_name(v[i].status),
			(unsigned long long)v[i].value, v[i].why);
	if (v[0].status != COUNTER_OK || v[1].status != COUNTER_OK ||
	    v[1].value < 8 || v[0].value != v[1].value)
		return 5;
	/* (an ordinary user is denied context switches before the fd) */
	if (v[2].status == COUNTER_DENIED ?
	    !strstr(v[2].why, "perf_event_paranoid=") :
	    v[2].status != COUNTER_FAILED ||
	    !strstr(v[2].why, strerror(EMFILE)))
		return 6;
	if (v[3].status != COUNTER_FAILED ||
	    !strstr(v[3].why, strerror(EMFILE)))
		return 7;
	counters_close(c);
	return 0;
}

static void test_few_fds(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	need_perf();
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(few_fds_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("skipped: the child could not set itself up "
			      "(setrlimit, setresuid or a seccomp filter "
			      "refused)\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * As an ordinary user with perf_event_paranoid >= 2, kernel space may not
 * be counted: faults are counted in user space only (and say so), context
 * switches (kernel-only) are denied with the reason, task-clock is whole.
 */
static int unprivileged_child(void)
{
	struct counter_value v[COUNTERS_MAX];
	struct counters *c;
	struct counter_list l;
	unsigned n;
	char err[ERRLEN];
	char *p;

	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		return 77;
	if (counters_parse("task-clock,page-faults,context-switches,cycles",
			   &l, err, sizeof(err)))
		return 2;
	c = counters_open(l.ids, l.n);
	if (!c)
		return 3;
	p = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || counters_start(c))
		return 4;
	touch(p, 16);
	if (counters_stop(c) || counters_read(c, v, &n) || n != 4)
		return 5;
	for (unsigned i = 0; i < n; i++)
		fprintf(stderr, "# unprivileged: %s %s %llu user_only=%d "
			"(%s)\n", v[i].name, counters_status_name(v[i].status),
			(unsigned long long)v[i].value, v[i].user_only,
			v[i].why);
	if (v[0].status != COUNTER_OK || v[0].user_only || !v[0].value)
		return 6;
	if (v[1].status != COUNTER_OK || !v[1].user_only ||
	    v[1].value < 16 || !strstr(v[1].why, "user space only"))
		return 7;
	if (v[2].status != COUNTER_DENIED ||
	    !strstr(v[2].why, "permission denied") ||
	    !strstr(v[2].why, "/proc/sys/kernel/perf_event_paranoid"))
		return 8;
	if (v[3].status == COUNTER_UNSUPPORTED ?
	    strcmp(v[3].why, "not supported") :
	    v[3].status != COUNTER_OK || !v[3].user_only)
		return 9;
	counters_close(c);
	return 0;
}

static int paranoid_now(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = -100;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = -100;
		fclose(f);
	}
	return level;
}

/* fn(arg) in a forked child, which must exit 0; 77: it could not set
 * itself up (no seccomp, no user to become), a skip. */
static void in_child(int (*fn)(int), int arg)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid)
		_exit(fn(arg));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("skipped: the child could not set itself up "
			      "(setrlimit, setresuid or a seccomp filter "
			      "refused)\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

static int unprivileged_child_of(int level)
{
	(void)level;
	return unprivileged_child();
}

static void test_unprivileged(void **state)
{
	int level = paranoid_now();

	(void)state;
	need_perf();
	if (level == -100) {
		print_message("skipped: no /proc/sys/kernel/"
			      "perf_event_paranoid to read\n");
		skip();
	}
	if (geteuid() != 0 || level < 2) {
		print_message("skipped: cannot become a user who is denied "
			      "(not root, or perf_event_paranoid %d < 2)\n",
			      level);
		skip();
	}
	in_child(unprivileged_child_of, level);
}

/*
 * A container's seccomp profile refuses perf_event_open with EACCES while
 * perf_event_paranoid would allow the event: the reason must name the
 * filter, not the sysctl (whose value allows it).  task-clock may be
 * counted in user space at paranoid 2; context-switches (kernel only) at
 * 1 and below.
 */
static int seccomp_child(int level)
{
	const struct syscall_denial deny = { __NR_perf_event_open, EACCES };
	struct counter_value v[COUNTERS_MAX];
	struct counter_list l;
	struct counters *c;
	unsigned n;
	char err[ERRLEN];

	if (seccomp_deny(&deny, 1))
		return 77;
	if (counters_parse("task-clock,context-switches", &l, err,
			   sizeof(err)))
		return 2;
	n = l.n;
	c = counters_open(l.ids, n);
	if (!c || counters_read(c, v, &n) || n != 2)
		return 3;
	for (unsigned i = 0; i < n; i++) {
		bool allowed = level < (i == 0 ? 3 : 2);

		fprintf(stderr, "# under seccomp: %s %s (%s)\n", v[i].name,
			counters_status_name(v[i].status), v[i].why);
		if (v[i].status != COUNTER_DENIED)
			return 4;
		if (allowed != (strstr(v[i].why, "denied by seccomp or an "
				       "LSM (perf_event_paranoid=") != NULL))
			return 5;
	}
	counters_close(c);
	return 0;
}

static void test_seccomp_denied(void **state)
{
	int level = paranoid_now();

	(void)state;
	need_perf();
	if (level == -100) {
		print_message("skipped: no /proc/sys/kernel/"
			      "perf_event_paranoid to read\n");
		skip();
	}
	in_child(seccomp_child, level);	/* 77: no seccomp (qemu-user) */
}

/*
 * The machine's events are probed once per process: however many threads
 * (clones) open the default set, the probe makes at most four
 * perf_event_open calls per event (in its group, then alone; all modes,
 * then user space only each time), and
 * every opening reports the same status for each event.
 */
static void test_probed_once(void **state)
{
	struct counter_value first[COUNTERS_MAX], v[COUNTERS_MAX];
	unsigned ids[CTR_NEVENTS], n, m, probes;
	struct counters *c;

	(void)state;
	need_perf();
	n = counters_default(ids);
	c = counters_open(ids, n);
	assert_non_null(c);
	assert_int_equal(counters_read(c, first, &m), 0);
	counters_close(c);
	probes = counters_probe_opens();
	assert_true(probes >= 1 && probes <= 4 * CTR_NEVENTS);
	for (int clone = 0; clone < 256; clone++) {
		c = counters_open(ids, n);
		assert_non_null(c);
		counters_read(c, v, &m);
		for (unsigned i = 0; i < m; i++)
			if (v[i].status != first[i].status &&
			    v[i].status != COUNTER_NOT_COUNTED)
				fail_msg("clone %d: %s is %s, first %s", clone,
					 v[i].name,
					 counters_status_name(v[i].status),
					 counters_status_name(first[i].status));
		counters_close(c);
	}
	assert_int_equal(counters_probe_opens(), probes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_names),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_format_and_default),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_hardware_events),
		cmocka_unit_test(test_faults_agree_with_getrusage),
		cmocka_unit_test(test_major_faults),
		cmocka_unit_test(test_context_switches_agree),
		cmocka_unit_test(test_task_clock),
		cmocka_unit_test(test_windows_repeat),
		cmocka_unit_test(test_migrations),
		cmocka_unit_test(test_restart_moves_baseline),
		cmocka_unit_test(test_default_set),
		cmocka_unit_test(test_few_fds),
		cmocka_unit_test(test_unprivileged),
		cmocka_unit_test(test_seccomp_denied),
		cmocka_unit_test(test_probed_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
