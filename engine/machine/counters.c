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
 * thread that opens that event (the probe table in counters_event.c,
 * under a lock), and
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
#include "machine/counters_int.h"

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

struct counters {
	unsigned n;
	bool enabled;
	int paranoid;		/* perf_event_paranoid, or COUNTERS_PARANOID_UNKNOWN */
	struct task_mode task;
	struct slot s[COUNTERS_MAX];
};

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

static void set_status(struct slot *s, int err, int paranoid)
{
	/* paranoid 2 lets a process count its own user space, 1 and below
	 * its kernel time too */
	s->status = counters_status_of(err, paranoid,
				       s->def.flags & EV_KERNEL_ONLY ? 2 : 3,
				       s->why, sizeof(s->why));
}

/*
 * Open slot s, in group's group or alone (group < 0), in the mode the
 * probe found (counters_open_probed()).  Returns the fd or -errno.
 */
static int open_event(struct slot *s, int group, const struct task_mode *t)
{
	bool user_only = false;
	int fd;

	s->user_only = false;
	fd = counters_open_probed(s->id, &s->def, group, t, &user_only);
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
		    !counters_event_of(ids[i], &s->def, &why))
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
