/*
 * counters.c - per-thread event counters through perf_event_open(2).
 *
 * Every open counter belongs to a group (a group may hold one event) and
 * is read through its leader with PERF_FORMAT_GROUP, so one code path
 * serves the hardware pairs, the lone hardware events and the software
 * group.  A window's value is the difference of two reads, with the time
 * enabled and running taken the same way: PERF_EVENT_IOC_RESET clears
 * counts but not times, and a ramp must be left out of both.
 *
 * Only leaders are enabled and disabled; members are opened enabled and
 * count whenever their leader is on the PMU.  PERF_IOC_FLAG_GROUP is not
 * used: on Linux 6.18 a disable/enable cycle with it loses the members of
 * a group that mixes task-clock with the other software events.
 *
 * Whether the machine has an event, and in which mode it may be counted,
 * is a fact of the machine: it is probed once per process, by the first
 * thread that opens that event (the probe table below, under a lock), and
 * every thread then opens only the events the probe found, in the mode it
 * found.  A run of 256 clones on a machine without hardware counters so
 * makes one failing perf_event_open per event, not one per clone.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "machine/counters.h"
#include "machine/pmu.h"

#define PARANOID_PATH	"/proc/sys/kernel/perf_event_paranoid"

/* Events of one family are opened as one group: their ratio is reported. */
enum family { FAM_NONE, FAM_IPC, FAM_CACHE, FAM_BRANCH, FAM_L1D, FAM_LLC,
	      FAM_SOFTWARE };

/* Context switches and migrations happen in the kernel only: counted in
 * user space alone they would read 0, so they are never retried so. */
#define EV_KERNEL_ONLY	1u
/* task-clock counts time whatever the mode: user-only changes nothing. */
#define EV_ANY_MODE	2u

#define CACHE(c, op, res) \
	((PERF_COUNT_HW_CACHE_##c) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

struct event_def {
	const char *name;
	uint32_t type;
	uint64_t config;
	enum family family;
	unsigned flags;
	uint64_t config1, config2;	/* named events' */
};

static const struct event_def events[CTR_NEVENTS] = {
	[CTR_CYCLES] = { "cycles", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_CPU_CYCLES, FAM_IPC, 0 },
	[CTR_INSTRUCTIONS] = { "instructions", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_INSTRUCTIONS, FAM_IPC, 0 },
	[CTR_CACHE_REFERENCES] = { "cache-references", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_CACHE_REFERENCES, FAM_CACHE, 0 },
	[CTR_CACHE_MISSES] = { "cache-misses", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_CACHE_MISSES, FAM_CACHE, 0 },
	[CTR_BRANCHES] = { "branches", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_BRANCH_INSTRUCTIONS, FAM_BRANCH, 0 },
	[CTR_BRANCH_MISSES] = { "branch-misses", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_BRANCH_MISSES, FAM_BRANCH, 0 },
	[CTR_L1D_LOADS] = { "L1-dcache-loads", PERF_TYPE_HW_CACHE,
		CACHE(L1D, READ, ACCESS), FAM_L1D, 0 },
	[CTR_L1D_LOAD_MISSES] = { "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(L1D, READ, MISS), FAM_L1D, 0 },
	[CTR_L1I_LOAD_MISSES] = { "L1-icache-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(L1I, READ, MISS), FAM_NONE, 0 },
	[CTR_LLC_LOADS] = { "LLC-loads", PERF_TYPE_HW_CACHE,
		CACHE(LL, READ, ACCESS), FAM_LLC, 0 },
	[CTR_LLC_LOAD_MISSES] = { "LLC-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(LL, READ, MISS), FAM_LLC, 0 },
	[CTR_DTLB_LOAD_MISSES] = { "dTLB-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(DTLB, READ, MISS), FAM_NONE, 0 },
	[CTR_ITLB_LOAD_MISSES] = { "iTLB-load-misses", PERF_TYPE_HW_CACHE,
		CACHE(ITLB, READ, MISS), FAM_NONE, 0 },
	[CTR_TASK_CLOCK] = { "task-clock", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_TASK_CLOCK, FAM_SOFTWARE, EV_ANY_MODE },
	[CTR_PAGE_FAULTS] = { "page-faults", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_PAGE_FAULTS, FAM_SOFTWARE, 0 },
	[CTR_MINOR_FAULTS] = { "minor-faults", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_PAGE_FAULTS_MIN, FAM_SOFTWARE, 0 },
	[CTR_MAJOR_FAULTS] = { "major-faults", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_PAGE_FAULTS_MAJ, FAM_SOFTWARE, 0 },
	[CTR_CONTEXT_SWITCHES] = { "context-switches", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_CONTEXT_SWITCHES, FAM_SOFTWARE, EV_KERNEL_ONLY },
	[CTR_CPU_MIGRATIONS] = { "cpu-migrations", PERF_TYPE_SOFTWARE,
		PERF_COUNT_SW_CPU_MIGRATIONS, FAM_SOFTWARE, EV_KERNEL_ONLY },
};

/* Duplicates are refused, so a parsed list always fits. */
_Static_assert(COUNTERS_MAX >= CTR_NEVENTS, "COUNTERS_MAX < CTR_NEVENTS");

/* A named event counted in user space only (":u"), or in the kernel
 * only (":k"). */
#define EV_USER_ONLY	4u
#define EV_EXCLUDE_USER	8u

/*
 * The definition of event id into *d: perf's generic events from the
 * table, named ones from their encoding (pmu.h).  false for an id no
 * event has; a named event whose PMU is not this machine's has type
 * PERF_TYPE_MAX and its reason in *why.
 */
static bool event_of(unsigned id, struct event_def *d, const char **why)
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

/* A read of a group: nr, time enabled, time running, {value, id}[nr]. */
#define GROUP_WORDS	(3 + 2 * COUNTERS_MAX)

struct sample {
	uint64_t raw, enabled, running;
};

struct slot {
	unsigned id;
	int fd;			/* -1 when it did not open */
	unsigned leader;	/* slot of its group's leader (itself) */
	uint64_t kid;		/* the kernel's id of the event */
	enum counter_status status;
	bool user_only;
	char why[160];
	struct event_def def;
	struct sample base;	/* at counters_start */
};

/* How a set of counters follows its task. */
struct task_mode {
	pid_t pid;		/* 0: the calling thread */
	bool on_exec;		/* a child before exec: enable_on_exec,
				   inherit, no trial runs */
};

struct counters {
	unsigned n;
	bool enabled;
	int paranoid;		/* perf_event_paranoid, or COUNTERS_PARANOID_UNKNOWN */
	struct task_mode task;
	struct slot s[COUNTERS_MAX];
};

const char *counters_name(unsigned id)
{
	return id < CTR_NEVENTS ? events[id].name : counters_named_name(id);
}

/* ---- reading groups ---- */

static bool is_leader(const struct counters *c, unsigned i)
{
	return c->s[i].fd >= 0 && c->s[i].leader == i;
}

/* One read of the group of leader; fills out[] at its members' slots. */
static int read_group(const struct counters *c, unsigned leader,
		      struct sample *out)
{
	uint64_t w[GROUP_WORDS];
	ssize_t got = read(c->s[leader].fd, w, sizeof(w));
	uint64_t nr;

	if (got < 0)
		return -errno;
	nr = w[0];
	if ((size_t)got < 3 * sizeof(w[0]) || nr > COUNTERS_MAX ||
	    (size_t)got < (3 + 2 * nr) * sizeof(w[0]))
		return -EIO;
	for (uint64_t k = 0; k < nr; k++) {
		uint64_t value = w[3 + 2 * k], id = w[4 + 2 * k];

		for (unsigned i = 0; i < c->n; i++) {
			if (c->s[i].fd < 0 || c->s[i].leader != leader ||
			    c->s[i].kid != id)
				continue;
			out[i].raw = value;
			out[i].enabled = w[1];
			out[i].running = w[2];
		}
	}
	return 0;
}

static void group_failed(struct counters *c, unsigned leader, const char *op,
			 int err)
{
	for (unsigned i = 0; i < c->n; i++) {
		if (c->s[i].fd < 0 || c->s[i].leader != leader)
			continue;
		c->s[i].status = COUNTER_FAILED;
		snprintf(c->s[i].why, sizeof(c->s[i].why), "%s: %s", op,
			 strerror(err));
	}
}

/* The current values become the start of the window. */
static int take_baseline(struct counters *c)
{
	struct sample smp[COUNTERS_MAX] = { { 0, 0, 0 } };
	int ret = 0, r;

	for (unsigned i = 0; i < c->n; i++) {
		if (!is_leader(c, i))
			continue;
		r = read_group(c, i, smp);
		if (r < 0) {
			group_failed(c, i, "read", -r);
			ret = -1;
			continue;
		}
		for (unsigned k = 0; k < c->n; k++)
			if (c->s[k].fd >= 0 && c->s[k].leader == i)
				c->s[k].base = smp[k];
	}
	return ret;
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

	if (!event_of(id, &d, &why) || why)
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
static int open_probed(unsigned id, const struct event_def *e, int group,
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

enum counter_status counters_status_of(int err, int paranoid, char *why,
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
		if (paranoid == COUNTERS_PARANOID_UNKNOWN)
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

static void set_status(struct slot *s, int err, int paranoid)
{
	s->status = counters_status_of(err, paranoid, s->why, sizeof(s->why));
}

/*
 * Open slot s, in group's group or alone (group < 0), in the mode the
 * probe found (open_probed()).  Returns the fd or -errno.
 */
static int open_event(struct slot *s, int group, const struct task_mode *t)
{
	bool user_only = false;
	int fd;

	s->user_only = false;
	fd = open_probed(s->id, &s->def, group, t, &user_only);
	if (fd < 0)
		return fd;
	s->user_only = (user_only || (s->def.flags & EV_USER_ONLY)) &&
		       !(s->def.flags & EV_ANY_MODE);
	return fd;
}

static void close_slot(struct slot *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/* Slot i is open: record its kernel id, and its leader. */
static void opened(struct counters *c, unsigned i, int fd, unsigned leader)
{
	struct slot *s = &c->s[i];

	s->fd = fd;
	s->leader = leader;
	s->status = COUNTER_OK;
	s->why[0] = '\0';
	if (ioctl(fd, PERF_EVENT_IOC_ID, &s->kid) < 0) {
		close_slot(s);
		set_status(s, errno == EINVAL ? EOPNOTSUPP : errno,
			   c->paranoid);
		return;
	}
	if (s->user_only && c->paranoid == COUNTERS_PARANOID_UNKNOWN)
		snprintf(s->why, sizeof(s->why), "user space only");
	else if (s->user_only)
		snprintf(s->why, sizeof(s->why), "user space only "
			 "(perf_event_paranoid=%d)", c->paranoid);
}

/* Open slot i alone, as the leader of its own group. */
static void open_alone(struct counters *c, unsigned i)
{
	int fd;

	if (c->s[i].def.type == PERF_TYPE_MAX)	/* not this machine's */
		return;
	fd = open_event(&c->s[i], -1, &c->task);

	if (fd < 0)
		set_status(&c->s[i], -fd, c->paranoid);
	else
		opened(c, i, fd, i);
}

/*
 * Does the group of leader ever get onto the PMU?  Open checks that the
 * group fits an empty PMU, not one holding pinned events (the NMI
 * watchdog's): enable it for a moment and see whether it ran.
 */
static bool group_runs(const struct counters *c, unsigned leader)
{
	struct sample smp[COUNTERS_MAX] = { { 0, 0, 0 } };
	int fd = c->s[leader].fd;
	int ret;

	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return false;
	ret = read_group(c, leader, smp);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return ret == 0 && smp[leader].running > 0;
}

/*
 * Open the slots of one family, from slot first on, as one group.  An
 * event that cannot join (the group would not fit the PMU) is opened
 * alone, so one event never costs the others; a group that never runs is
 * split into lone events, which the kernel multiplexes.
 */
static void open_family(struct counters *c, unsigned first, bool *done)
{
	enum family fam = c->s[first].def.family;
	int leader = -1, fd;
	unsigned members = 0;

	for (unsigned i = first; i < c->n; i++) {
		if (done[i] || c->s[i].def.family != fam)
			continue;
		done[i] = true;
		if (leader < 0) {
			open_alone(c, i);
			if (c->s[i].fd >= 0)
				leader = (int)i;
			continue;
		}
		fd = open_event(&c->s[i], c->s[leader].fd, &c->task);
		if (fd >= 0) {
			opened(c, i, fd, (unsigned)leader);
			members++;
		} else {
			open_alone(c, i);
		}
	}
	/* a child not yet running cannot be tried: its group is kept */
	if (!members || c->task.on_exec || group_runs(c, (unsigned)leader))
		return;
	for (unsigned i = (unsigned)leader; i < c->n; i++)
		if (c->s[i].fd >= 0 && c->s[i].leader == (unsigned)leader &&
		    i != (unsigned)leader)
			close_slot(&c->s[i]);
	close_slot(&c->s[leader]);
	for (unsigned i = (unsigned)leader; i < c->n; i++)
		if (c->s[i].def.family == fam &&
		    c->s[i].status == COUNTER_OK && c->s[i].fd < 0)
			open_alone(c, i);
}

static struct counters *open_set(const unsigned *ids, unsigned n,
				  const struct task_mode *t)
{
	struct counters *c = calloc(1, sizeof(*c));
	bool done[COUNTERS_MAX] = { false };
	const char *why;

	if (!c)
		return NULL;
	/* read now: with no fd left, the reason could not say it */
	c->paranoid = counters_paranoid();
	c->task = *t;
	for (unsigned i = 0; i < n && c->n < COUNTERS_MAX; i++) {
		struct slot *s = &c->s[c->n];

		if (counters_is_uncore(ids[i]) ||
		    !event_of(ids[i], &s->def, &why))
			continue;
		s->id = ids[i];
		s->fd = -1;
		s->leader = c->n++;
		if (why) {		/* a PMU this machine lacks */
			s->status = COUNTER_UNSUPPORTED;
			snprintf(s->why, sizeof(s->why), "%s", why);
		}
	}
	for (unsigned i = 0; i < c->n; i++) {
		if (done[i])
			continue;
		if (c->s[i].def.family == FAM_NONE) {
			done[i] = true;
			open_alone(c, i);
		} else {
			open_family(c, i, done);
		}
	}
	/* a read before any start is an empty window, whatever the trial
	 * runs of open_family() counted */
	take_baseline(c);
	return c;
}

struct counters *counters_open(const unsigned *ids, unsigned n)
{
	static const struct task_mode self = { 0, false };

	return open_set(ids, n, &self);
}

struct counters *counters_open_task(const unsigned *ids, unsigned n,
				    pid_t pid)
{
	struct task_mode t = { pid, true };

	return open_set(ids, n, &t);
}

unsigned counters_count(const struct counters *c)
{
	return c ? c->n : 0;
}

void counters_close(struct counters *c)
{
	if (!c)
		return;
	/* members first: closing a leader would make them lone events */
	for (unsigned i = 0; i < c->n; i++)
		if (c->s[i].leader != i)
			close_slot(&c->s[i]);
	for (unsigned i = 0; i < c->n; i++)
		close_slot(&c->s[i]);
	free(c);
}

/* ---- counting ---- */

int counters_start(struct counters *c)
{
	int ret = take_baseline(c);

	if (c->enabled)
		return ret;
	for (unsigned i = 0; i < c->n; i++) {
		if (!is_leader(c, i))
			continue;
		if (ioctl(c->s[i].fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
			group_failed(c, i, "enable", errno);
			ret = -1;
		}
	}
	c->enabled = true;
	return ret;
}

int counters_stop(struct counters *c)
{
	int ret = 0;

	for (unsigned i = 0; i < c->n; i++) {
		if (!is_leader(c, i))
			continue;
		if (ioctl(c->s[i].fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
			ret = -1;
	}
	c->enabled = false;
	return ret;
}

uint64_t counters_scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	unsigned __int128 v;

	if (!running)
		return 0;
	if (running >= enabled)
		return raw;
	v = (unsigned __int128)raw * enabled / running;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* The window's figures of slot i, from its baseline to now. */
static void window(const struct slot *s, const struct sample *now,
		   struct counter_value *v)
{
	uint64_t raw = now->raw - s->base.raw;
	uint64_t en = now->enabled - s->base.enabled;
	uint64_t run = now->running - s->base.running;

	v->raw = raw;
	if (!run) {
		v->status = COUNTER_NOT_COUNTED;
		snprintf(v->why, sizeof(v->why), "not counted");
		return;
	}
	v->value = counters_scale(raw, en, run);
	v->running = run >= en ? 1.0 : (double)run / (double)en;
}

int counters_read(const struct counters *c, struct counter_value *out,
		  unsigned *n)
{
	struct sample now[COUNTERS_MAX] = { { 0, 0, 0 } };
	int ret = 0, r;

	for (unsigned i = 0; i < c->n; i++) {
		const struct slot *s = &c->s[i];
		struct counter_value *v = &out[i];

		memset(v, 0, sizeof(*v));
		v->name = s->def.name;
		v->status = s->status;
		v->user_only = s->user_only;
		snprintf(v->why, sizeof(v->why), "%s", s->why);
	}
	for (unsigned i = 0; i < c->n; i++) {
		if (!is_leader(c, i) || c->s[i].status != COUNTER_OK)
			continue;
		r = read_group(c, i, now);
		for (unsigned k = 0; k < c->n; k++) {
			if (c->s[k].fd < 0 || c->s[k].leader != i ||
			    c->s[k].status != COUNTER_OK)
				continue;
			if (r == 0) {
				window(&c->s[k], &now[k], &out[k]);
				continue;
			}
			out[k].status = COUNTER_FAILED;
			snprintf(out[k].why, sizeof(out[k].why), "read: %s",
				 strerror(-r));
		}
		if (r < 0)
			ret = -1;
	}
	*n = c->n;
	return ret;
}
