/*
 * planlimits.c - the limits this process lives under, against what each
 * segment of the plan holds at once (see plan.h): the memory
 * cgroups above it (a container's, a Slurm job's) and the one
 * memory_limit makes, RLIMIT_AS, RLIMIT_DATA, RLIMIT_MEMLOCK and
 * RLIMIT_NOFILE.
 *
 * The one idea: a limit found only at run time ends a run as the OOM
 * killer's SIGKILL (no message, no report), as a failed mmap or open in
 * the middle of a job, or as counters silently missing; found here, it
 * is one error with both figures, before anything starts.  Each figure
 * is what the plan asks for itself (regions, buffers, files, rings); the
 * limit is what is left of it now (less what the cgroup or the process
 * already holds).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ioengines/ioengine.h"
#include "machine/counters.h"
#include "machine/memcg.h"
#include "plan/plan.h"
#include "util/value.h"

#define CAP_IPC_LOCK_BIT	14	/* linux/capability.h */
/* What memjob itself may open besides the jobs' own: the report, the
 * /proc and /sys files it samples, the cgroup files. */
#define OWN_FDS		16

/* Bytes of a thread's stack, as pthread_create gives it. */
static uint64_t thread_stack(void)
{
	pthread_attr_t a;
	size_t s = 8u << 20;

	if (!pthread_getattr_default_np(&a)) {
		pthread_attr_getstacksize(&a, &s);
		pthread_attr_destroy(&a);
	}
	return s;
}

/* The descriptors a clone's perf counters take: worker.c opens them in
 * the clone's thread, kernel=exec on its program, both in memjob.  An
 * uncore event takes none in a clone; it stands in for its instances
 * (one per socket or L3), which the run opens once for the job. */
static unsigned counter_fds(const struct job_spec *j)
{
	unsigned ids[CTR_NEVENTS];

	if (j->perf_none)
		return 0;
	return j->perf.n ? j->perf.n : counters_default(ids);
}

void plan_needs_of(const struct plan *p, unsigned s, struct plan_needs *n)
{
	const struct segment *sg = &p->segments[s];
	uint64_t stack = thread_stack(), most = 0, most_fds = 0, most_lck = 0;

	memset(n, 0, sizeof(*n));
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		const struct planned_job *pj = &p->jobs[i];
		const struct job_spec *j = pj->spec;
		const struct ioengine_ops *e;
		uint64_t bufs, own, mapped, locked = 0, fds;
		unsigned ring_fds = 0, io_threads;

		if (!j)		/* not planned: an earlier error */
			continue;
		e = j->ioengine;
		bufs = j->bs * j->iodepth;
		own = ioe_own_memory(e) ? pj->size : 0;
		mapped = (e->flags & IOE_MAPPED) && !own ? pj->size : 0;
		io_threads = e->io_threads ? e->io_threads(j) : 0;
		if (e->holds)
			e->holds(j, &ring_fds, &locked);
		/* hugetlb pages are charged to their pool, not to the
		 * memory cgroup nor to MemAvailable (check_hugepages) */
		n->mem += (bufs + (hugepage_bytes(j->hugepage) ? 0 : own)) *
			  j->numjobs;
		n->data += (bufs + own) * j->numjobs;
		n->as += (bufs + own + mapped + stack) * j->numjobs +
			 (uint64_t)io_threads * j->numjobs * stack;
		n->locked += locked * j->numjobs;
		fds = (uint64_t)(ring_fds + counter_fds(j)) * j->numjobs +
		      (pj->sample_path ? 1 : 0);
		for (unsigned c = 0; pj->paths && c < j->numjobs; c++)
			fds += pj->paths[c] != NULL;
		n->fds += fds;
		if (!n->big || pj->size * j->numjobs > most) {
			n->big = j;
			most = pj->size * j->numjobs;
		}
		if (!n->most_fds || fds > most_fds) {
			n->most_fds = j;
			most_fds = fds;
		}
		if (!n->most_locked || locked * j->numjobs > most_lck) {
			n->most_locked = j;
			most_lck = locked * j->numjobs;
		}
	}
}

/* A "Key:   N kB" line of /proc/self/status, in bytes (a number for
 * CapEff, in hex); 0 when it has none. */
static uint64_t own_status(const char *key)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long v = 0;
	size_t n = strlen(key);
	bool hex = !strcmp(key, "CapEff:");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) &&
		    sscanf(line + n, hex ? " %llx" : " %llu", &v) == 1)
			break;
	fclose(f);
	return hex ? v : v * 1024;
}

static uint64_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	uint64_t n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n > 2 ? n - 3 : 0;	/* ., .. and the one opendir holds */
}

/* "1 GiB (1073741824 bytes)" */
static const char *both(uint64_t bytes, char *buf, size_t len)
{
	char h[32];

	value_format_bytes((double)bytes, h, sizeof(h));
	snprintf(buf, len, "%s (%llu bytes)", h, (unsigned long long)bytes);
	return buf;
}

/* What the process holds now, and the limits it lives under: read once
 * for all the segments. */
struct limits {
	struct memcg_room home;	/* the cgroups above memjob */
	struct memcg_room run;	/* above memory_limit's cgroup */
	bool run_found;		/* memory_limit's cgroup could be placed */
	uint64_t vm_size, vm_data, vm_lck, fds;
	bool ipc_lock;		/* CAP_IPC_LOCK: no memlock limit */
	struct rlimit as, data, memlock, nofile;
};

static void read_limits(struct limits *l)
{
	const char *root = getenv("MEMJOB_SYSROOT");
	char home[PATH_MAX], top[PATH_MAX], err[1024];
	struct memcg m;
	int v;

	memset(l, 0, sizeof(*l));
	l->home.room = l->run.room = UINT64_MAX;
	v = memcg_where_at(root ? root : "", home, top, sizeof(home), err,
			   sizeof(err));
	if (v > 0) {		/* else no memory cgroup: nothing limits */
		memcg_room_of(home, top, v, &l->home);
		/* memory_limit's cgroup: below m.dir's parent (where
		 * check_memory_limit says why there is none) */
		if (!memcg_locate(&m, err, sizeof(err))) {
			char *slash = strrchr(m.dir, '/');

			if (slash)
				*slash = '\0';
			memcg_room_of(m.dir, top, v, &l->run);
			l->run_found = true;
		}
	}
	l->vm_size = own_status("VmSize:");
	l->vm_data = own_status("VmData:");
	l->vm_lck = own_status("VmLck:");
	l->ipc_lock = own_status("CapEff:") >> CAP_IPC_LOCK_BIT & 1;
	l->fds = open_fds();
	if (getrlimit(RLIMIT_AS, &l->as))
		l->as.rlim_cur = RLIM_INFINITY;
	if (getrlimit(RLIMIT_DATA, &l->data))
		l->data.rlim_cur = RLIM_INFINITY;
	if (getrlimit(RLIMIT_MEMLOCK, &l->memlock))
		l->memlock.rlim_cur = RLIM_INFINITY;
	if (getrlimit(RLIMIT_NOFILE, &l->nofile))
		l->nofile.rlim_max = RLIM_INFINITY;
}

/*
 * The memory cgroups: the tightest limit on the cgroup the jobs run in
 * and each one above it, less what is charged there and cannot be
 * reclaimed.  With memory_limit the jobs run in a cgroup of their own,
 * limited to it, below the run's parent.
 */
static int check_memcg(const struct plan_needs *n, uint64_t memory_limit,
		       const struct limits *l, struct diag *d)
{
	const struct memcg_room *r = &l->home;
	char a[64], b[64], c[64];

	if (memory_limit) {
		if (!l->run_found)
			return 0;	/* check_memory_limit says why */
		r = &l->run;
		if (n->mem > memory_limit) {
			diag_error(d, job_loc(n->big, "memory_limit"),
				   "memory_limit", "the jobs that start with "
				   "'%s' need %s of memory at once, but "
				   "memory_limit gives them %s: memjob would "
				   "be killed for memory", n->big->name,
				   both(n->mem, a, sizeof(a)),
				   both(memory_limit, b, sizeof(b)));
			return -1;
		}
	}
	if (n->mem <= r->room)
		return 0;
	diag_error(d, job_loc(n->big, "size"), "size", "the jobs that start "
		   "with '%s' need %s of memory at once, but %s limits the "
		   "memory cgroup memjob runs in to %s, of which %s is in use "
		   "(file cache aside): memjob would be %s", n->big->name,
		   both(n->mem, a, sizeof(a)), r->file,
		   both(r->limit, b, sizeof(b)), both(r->used, c, sizeof(c)),
		   strstr(r->file, "memory.high") ? "throttled and its memory "
		   "reclaimed while it runs" : "killed for memory (the OOM "
		   "killer)");
	return -1;
}

/* RLIMIT_AS or RLIMIT_DATA (rl) against need, less what the process
 * uses now. */
static int check_rlimit(const struct rlimit *rl, uint64_t now,
			const char *name, const char *ulimit, const char *what,
			uint64_t need, const struct job_spec *big,
			struct diag *d)
{
	uint64_t room;
	char a[64], b[64], c[64];

	if (rl->rlim_cur == RLIM_INFINITY)
		return 0;
	room = rl->rlim_cur > now ? rl->rlim_cur - now : 0;
	if (need <= room)
		return 0;
	diag_error(d, job_loc(big, "size"), "size", "the jobs that start with "
		   "'%s' need %s of %s at once, but %s (%s) is %s, of which "
		   "memjob uses %s already", big->name,
		   both(need, a, sizeof(a)), what, name, ulimit,
		   both(rl->rlim_cur, b, sizeof(b)), both(now, c, sizeof(c)));
	return -1;
}

/* Registered buffers are pinned, and counted against RLIMIT_MEMLOCK
 * unless the process may lock memory at will (CAP_IPC_LOCK, as root). */
static int check_memlock(const struct plan_needs *n, const struct limits *l,
			 struct diag *d)
{
	char a[64], b[64], c[64];

	if (!n->locked || l->ipc_lock || l->memlock.rlim_cur == RLIM_INFINITY ||
	    n->locked + l->vm_lck <= l->memlock.rlim_cur)
		return 0;
	diag_error(d, job_loc(n->most_locked, "fixedbufs"), "fixedbufs",
		   "the jobs that start with '%s' register %s of buffers at "
		   "once, which the kernel locks in memory, but RLIMIT_MEMLOCK "
		   "(ulimit -l) is %s, of which %s is locked already: raise it "
		   "(ulimit -l, or limits.conf's memlock), or leave fixedbufs "
		   "off", n->most_locked->name, both(n->locked, a, sizeof(a)),
		   both(l->memlock.rlim_cur, b, sizeof(b)),
		   both(l->vm_lck, c, sizeof(c)));
	return -1;
}

/* The hard limit bounds the descriptors; the soft one memjob raises
 * (plan_raise_nofile), as a program that needs many should. */
static int check_nofile(const struct plan_needs *n, const struct limits *l,
			struct diag *d)
{
	uint64_t need = n->fds + l->fds + OWN_FDS;

	if (l->nofile.rlim_max == RLIM_INFINITY || need <= l->nofile.rlim_max)
		return 0;
	diag_error(d, job_loc(n->most_fds, "numjobs"), "numjobs", "the jobs "
		   "that start with '%s' hold %llu files, rings and perf "
		   "counters open at once (with memjob's own %llu), but the "
		   "hard RLIMIT_NOFILE (ulimit -Hn) is %llu: fewer clones, "
		   "perf_events=none, or a higher limit",
		   n->most_fds->name, (unsigned long long)need,
		   (unsigned long long)l->fds + OWN_FDS,
		   (unsigned long long)l->nofile.rlim_max);
	return -1;
}

void plan_check_limits(struct plan *p, struct diag *d)
{
	struct limits l;

	read_limits(&l);
	p->nofile = 0;
	for (unsigned s = 0; s < p->nsegments; s++) {
		const struct job_spec *first = p->jobs[p->segments[s].first].spec;
		struct plan_needs n;

		plan_needs_of(p, s, &n);
		if (!n.big)
			continue;
		if (n.fds + l.fds + OWN_FDS > p->nofile)
			p->nofile = n.fds + l.fds + OWN_FDS;
		if (check_memcg(&n, first->memory_limit, &l, d) ||
		    check_rlimit(&l.as, l.vm_size, "RLIMIT_AS", "ulimit -v",
				 "address space (regions, mapped files, buffers "
				 "and thread stacks)", n.as, n.big, d) ||
		    check_rlimit(&l.data, l.vm_data, "RLIMIT_DATA",
				 "ulimit -d", "private memory (regions and "
				 "buffers)", n.data, n.big, d) ||
		    check_memlock(&n, &l, d) || check_nofile(&n, &l, d))
			return;
	}
}

int plan_raise_nofile(const struct plan *p)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -1;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= p->nofile)
		return 0;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || p->nofile < rl.rlim_max
		      ? p->nofile : rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl);
}
