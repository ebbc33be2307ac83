/*
 * counters_event.c - what each event is and how it is opened: perf's
 * generic events (the table), the named ones (their encoding, pmu.h),
 * the perf_event_attr memjob gives perf_event_open(2), and the probe
 * that learns once per process whether this machine has an event and in
 * which mode this user may count it (see counters.c).
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "machine/counters.h"
#include "machine/counters_int.h"
#include "machine/pmu.h"

#define PARANOID_PATH	"/proc/sys/kernel/perf_event_paranoid"

#define CACHE(c, op, res) \
	((PERF_COUNT_HW_CACHE_##c) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

/* A generic event: perf's own type and number (named events get config1
 * and config2 from libpfm4). */
#define GENERIC(n, t, c, fam, fl) \
	{ .name = (n), .type = (t), .config = (c), .family = (fam), \
	  .flags = (fl) }

static const struct event_def events[CTR_NEVENTS] = {
	[CTR_CYCLES] = GENERIC("cycles", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_CPU_CYCLES, FAM_IPC, 0),
	[CTR_INSTRUCTIONS] = GENERIC("instructions", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_INSTRUCTIONS, FAM_IPC, 0),
	[CTR_CACHE_REFERENCES] = GENERIC("cache-references", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_CACHE_REFERENCES, FAM_CACHE, 0),
	[CTR_CACHE_MISSES] = GENERIC("cache-misses", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_CACHE_MISSES, FAM_CACHE, 0),
	[CTR_BRANCHES] = GENERIC("branches", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_BRANCH_INSTRUCTIONS, FAM_BRANCH, 0),
	[CTR_BRANCH_MISSES] = GENERIC("branch-misses", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_BRANCH_MISSES, FAM_BRANCH, 0),
	[CTR_L1D_LOADS] = GENERIC("L1-dcache-loads", PERF_TYPE_HW_CACHE,
		CACHE(L1D, READ, ACCESS), FAM_L1D, 0),
	[CTR_L1D_LOAD_MISSES] = GENERIC("L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(L1D, READ, MISS), FAM_L1D, 0),
	[CTR_L1I_LOAD_MISSES] = GENERIC("L1-icache-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(L1I, READ, MISS), FAM_NONE, 0),
	[CTR_LLC_LOADS] = GENERIC("LLC-loads", PERF_TYPE_HW_CACHE,
		CACHE(LL, READ, ACCESS), FAM_LLC, 0),
	[CTR_LLC_LOAD_MISSES] = GENERIC("LLC-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(LL, READ, MISS), FAM_LLC, 0),
	[CTR_DTLB_LOAD_MISSES] = GENERIC("dTLB-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(DTLB, READ, MISS), FAM_NONE, 0),
	[CTR_ITLB_LOAD_MISSES] = GENERIC("iTLB-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(ITLB, READ, MISS), FAM_NONE, 0),
	[CTR_TASK_CLOCK] = GENERIC("task-clock", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_TASK_CLOCK, FAM_SOFTWARE, EV_ANY_MODE),
	[CTR_PAGE_FAULTS] = GENERIC("page-faults", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_PAGE_FAULTS, FAM_SOFTWARE, 0),
	[CTR_MINOR_FAULTS] = GENERIC("minor-faults", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_PAGE_FAULTS_MIN, FAM_SOFTWARE, 0),
	[CTR_MAJOR_FAULTS] = GENERIC("major-faults", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_PAGE_FAULTS_MAJ, FAM_SOFTWARE, 0),
	[CTR_CONTEXT_SWITCHES] = GENERIC("context-switches", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_CONTEXT_SWITCHES, FAM_SOFTWARE, EV_KERNEL_ONLY),
	[CTR_CPU_MIGRATIONS] = GENERIC("cpu-migrations", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_CPU_MIGRATIONS, FAM_SOFTWARE, EV_KERNEL_ONLY),
};

/* Duplicates are refused, so a parsed list always fits. */
_Static_assert(COUNTERS_MAX >= CTR_NEVENTS, "COUNTERS_MAX < CTR_NEVENTS");


bool counters_event_of(unsigned id, struct event_def *d, const char **why)
{
	const struct pmu_event *ev;

	*why = NULL;
	if (id < CTR_NEVENTS) {
		*d = events[id];
		return true;
	}
	ev = counters_named(id);
	if (!ev)
		return false;
	memset(d, 0, sizeof(*d));
	d->name = counters_named_name(id);
	d->family = FAM_NONE;
	d->type = ev->present ? ev->type : PERF_TYPE_MAX;
	d->config = ev->config;
	d->config1 = ev->config1;
	d->config2 = ev->config2;
	if (ev->exclude_kernel)
		d->flags |= EV_USER_ONLY;
	if (ev->exclude_user)
		d->flags |= EV_EXCLUDE_USER | EV_KERNEL_ONLY;
	if (!ev->present)
		*why = ev->why;
	return true;
}

const char *counters_name(unsigned id)
{
	return id < CTR_NEVENTS ? events[id].name : counters_named_name(id);
}

/* ---- opening ---- */

/* The attr of event e as memjob opens it (in group's group, or alone
 * when group < 0, for task t). */
static void fill_attr(const struct event_def *e, bool user_only, int group,
		      const struct task_mode *t, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = e->type;
	a->config = e->config;
	a->config1 = e->config1;
	a->config2 = e->config2;
	a->disabled = group < 0;	/* members follow their leader */
	a->exclude_hv = 1;
	a->exclude_kernel = user_only || (e->flags & EV_USER_ONLY);
	a->exclude_user = !!(e->flags & EV_EXCLUDE_USER);
	if (t->on_exec) {
		a->enable_on_exec = group < 0;
		a->inherit = 1;
	}
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			 PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
}

static int perf_open(const struct event_def *e, bool user_only, int group,
		     const struct task_mode *t)
{
	struct perf_event_attr a;

	fill_attr(e, user_only, group, t, &a);
	return (int)syscall(SYS_perf_event_open, &a, t->pid, -1, group,
			    PERF_FLAG_FD_CLOEXEC);
}

int counters_attr_text(unsigned id, char *buf, size_t len)
{
	static const struct task_mode self = { 0, false };
	struct perf_event_attr a;
	struct event_def d;
	const char *why;

	if (!counters_event_of(id, &d, &why) || why)
		return -1;
	fill_attr(&d, false, -1, &self, &a);
	snprintf(buf, len, "type=%u config=%#llx config1=%#llx config2=%#llx "
		 "exclude_user=%u exclude_kernel=%u exclude_hv=%u", a.type,
		 (unsigned long long)a.config, (unsigned long long)a.config1,
		 (unsigned long long)a.config2, a.exclude_user,
		 a.exclude_kernel, a.exclude_hv);
	return 0;
}

/* ---- the probe: which events open, and how, once per process ---- */

enum probe_state { PROBE_UNKNOWN, PROBE_FULL, PROBE_USER, PROBE_FAILED };

static struct probe {
	pthread_mutex_t lock;
	enum probe_state state[CTR_IDS];
	int err[CTR_IDS];		/* PROBE_FAILED: why */
	unsigned opens;			/* perf_event_open calls it made */
	uid_t uid;			/* whose rights the states are */
	bool valid;
} probe = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* An error that says nothing about the event (a limit of the moment):
 * not remembered, the next thread tries again. */
static bool transient(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM ||
	       err == EBUSY || err == EINTR || err == EAGAIN;
}

/*
 * Open event id (defined by e) in group's group (alone when group < 0)
 * for the calling thread, or for the task t says.  The first thread to ask for an event probes it, under the
 * lock (so only one thread does), always alone: in user and kernel
 * space, else in user space only when kernel space is denied (as perf
 * stat falls back), and the probe table keeps the mode that worked, or
 * the error of an event that would not open.  So an event the machine
 * lacks costs one failed system call per run, whatever the clones and
 * groups; one that opens costs one more, the probe's, closed again when
 * the event is wanted in a group.  Every later open uses that mode at
 * once, or fails at once without a system call.  A failure inside a
 * group is not kept: the group may be what the PMU refused, and the
 * caller then tries the event alone.  The probe is always of the
 * calling thread; another task's events are opened once more for it.
 * Returns the fd (*user_only set) or -errno.
 */
int counters_open_probed(unsigned id, const struct event_def *e, int group,
			 const struct task_mode *t, bool *user_only)
{
	static const struct task_mode self = { 0, false };
	enum probe_state st;
	int fd, err = 0;

	pthread_mutex_lock(&probe.lock);
	if (!probe.valid || probe.uid != geteuid()) {	/* rights changed */
		memset(probe.state, 0, sizeof(probe.state));
		probe.uid = geteuid();
		probe.valid = true;
	}
	st = probe.state[id];
	if (st != PROBE_UNKNOWN) {
		err = probe.err[id];
		pthread_mutex_unlock(&probe.lock);
		if (st == PROBE_FAILED)
			return -err;
		*user_only = st == PROBE_USER;
		fd = perf_open(e, *user_only, group, t);
		return fd < 0 ? -errno : fd;
	}
	*user_only = false;
	probe.opens++;
	fd = perf_open(e, false, -1, &self);
	if (fd < 0) {
		err = errno;
		if ((err == EACCES || err == EPERM) &&
		    !(e->flags & EV_KERNEL_ONLY)) {
			probe.opens++;
			fd = perf_open(e, true, -1, &self);
			*user_only = fd >= 0;
			/* still denied, or the machine lacks it anyway */
			if (fd < 0 && errno != EACCES && errno != EPERM)
				err = errno;
		}
	}
	if (fd >= 0) {
		probe.state[id] = *user_only ? PROBE_USER : PROBE_FULL;
	} else if (!transient(err)) {
		probe.state[id] = PROBE_FAILED;
		probe.err[id] = err;
	}
	pthread_mutex_unlock(&probe.lock);
	if (fd < 0)
		return -err;
	if (group < 0 && !t->pid && !t->on_exec)
		return fd;
	close(fd);		/* the probe's: now in its group, or another
				   task's */
	fd = perf_open(e, *user_only, group, t);
	return fd < 0 ? -errno : fd;
}

unsigned counters_probe_opens(void)
{
	unsigned n;

	pthread_mutex_lock(&probe.lock);
	n = probe.opens;
	pthread_mutex_unlock(&probe.lock);
	return n;
}

int counters_paranoid(void)
{
	FILE *f = fopen(PARANOID_PATH, "re");
	int level;

	if (!f)
		return COUNTERS_PARANOID_UNKNOWN;
	if (fscanf(f, "%d", &level) != 1)
		level = COUNTERS_PARANOID_UNKNOWN;
	fclose(f);
	return level;
}

enum counter_status counters_status_of(int err, int paranoid,
				       int allowed_below, char *why,
				       size_t len)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
	case EINVAL:
	case ENOSYS:
		snprintf(why, len, "not supported");
		return COUNTER_UNSUPPORTED;
	case EACCES:
	case EPERM:
		if (paranoid != COUNTERS_PARANOID_UNKNOWN &&
		    paranoid < allowed_below)
			snprintf(why, len, "denied by seccomp or an LSM "
				 "(perf_event_paranoid=%d allows it)",
				 paranoid);
		else if (paranoid == COUNTERS_PARANOID_UNKNOWN)
			snprintf(why, len, "permission denied (see %s)",
				 PARANOID_PATH);
		else
			snprintf(why, len, "permission denied (%s=%d)",
				 PARANOID_PATH, paranoid);
		return COUNTER_DENIED;
	default:
		snprintf(why, len, "perf_event_open: %s", strerror(err));
		return COUNTER_FAILED;
	}
}
