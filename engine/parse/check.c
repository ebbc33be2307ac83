/*
 * check.c - whole-job checks and the choices that depend on several
 * options (see check.h).  Every failure names the option and the place it
 * was set.
 */

#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/check.h"
#include "parse/filenames.h"
#include "machine/cpuset.h"
#include "parse/fiocompat.h"
#include "machine/sizeexpr.h"
#include "machine/memcg.h"
#include "machine/sysstat.h"
#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "spec/options.h"
#include "parse/sweep.h"
#include "parse/optspace.h"
#include "util/value.h"

static void set_impl(struct job_spec *j, struct diag *d)
{
	const struct kernel_ops *k = j->kernel;
	char list[256] = "";
	size_t n = 0;
	int i;

	if (!j->impl_name)
		return;
	if (!k->impls) {
		diag_error(d, job_loc(j, "impl"), "impl", "kernel=%s has no "
			   "implementations to choose from", k->name);
		return;
	}
	if (value_word(j->impl_name, k->impls) >= 0)
		return;
	for (i = 0; k->impls[i] && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s",
			      i ? ", " : "", k->impls[i]);
	diag_error(d, job_loc(j, "impl"), "impl", "kernel=%s has %s; got '%s'",
		   k->name, list, j->impl_name);
}

int job_impl_of(const struct job_spec *j)
{
	int i = j->impl_name && j->kernel->impls ?
		value_word(j->impl_name, j->kernel->impls) : 0;

	return i < 0 ? 0 : i;
}

/* Whether the job sweeps numjobs: then counts beyond a CPU set are grid
 * points left out (sweep.c), not a reason to fall back to another set. */
static bool sweeps_numjobs(const struct job_spec *j)
{
	int numjobs = opt_index("numjobs");

	if (j->swept_numjobs)
		return true;
	for (unsigned i = 0; i < j->nsweeps; i++)
		if (j->sweeps[i].opt == numjobs)
			return true;
	return false;
}

/* How many CPUs a set must have: the clones' own CPUs; I/O threads only
 * need one. */
static unsigned cpus_wanted(const struct job_spec *j, const char *opt)
{
	return !strcmp(opt, "cpus_allowed") && j->cpus_policy == CPUS_SPLIT &&
	       j->numjobs && !j->numjobs_cpus && !sweeps_numjobs(j) ?
	       j->numjobs : 1;
}

int job_cpus_of(const struct job_spec *j, const struct topo *t,
		uint64_t *bits)
{
	char note[512], err[1024];

	memset(bits, 0, BITMAP_WORDS(MEMJOB_MAX_CPUS) * sizeof(*bits));
	if (!j->cpus_allowed)
		return 0;
	return cpuset_resolve(j->cpus_allowed, t,
			      cpus_wanted(j, "cpus_allowed"), bits, note,
			      sizeof(note), err, sizeof(err));
}

/* Resolve a CPU expression (lists, topology words, fallbacks) into
 * bits.  A split job with a fixed numjobs needs a CPU per clone, so a
 * set with fewer falls back.  The topology knows which CPUs this
 * process may use (cgroup cpusets, taskset); without it, check them
 * against the affinity. */
static int resolve_cpus(const struct job_spec *j, const char *opt,
			const char *expr, uint64_t *bits,
			struct job_cpus *jc, const struct topo *t,
			struct diag *d)
{
	unsigned want = cpus_wanted(j, opt);
	char have[256], err[1024], note[sizeof(jc->note)];
	uint64_t usable[BITMAP_WORDS(MEMJOB_MAX_CPUS)] = { 0 };
	size_t used = strlen(jc->note);
	cpu_set_t online;

	memset(bits, 0, BITMAP_WORDS(MEMJOB_MAX_CPUS) * sizeof(*bits));
	if (cpuset_resolve(expr, t, want, bits, note, sizeof(note), err,
			   sizeof(err))) {
		diag_error(d, job_loc(j, opt), opt, "%s", err);
		return -1;
	}
	if (note[0] && used + 1 < sizeof(jc->note) &&
	    snprintf(jc->note + used, sizeof(jc->note) - used,
		     "%s%s: %s", used ? "; " : "", opt, note) < 0)
		jc->note[used] = '\0';
	CPU_ZERO(&online);
	if (t || sched_getaffinity(0, sizeof(online), &online))
		return 0;
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &online))
			usable[c / 64] |= 1ULL << (c % 64);
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS; c++) {
		if (!(bits[c / 64] & (1ULL << (c % 64))) ||
		    usable[c / 64] & (1ULL << (c % 64)))
			continue;
		value_format_idlist(usable, MEMJOB_MAX_CPUS, have, sizeof(have));
		diag_error(d, job_loc(j, opt), opt, "CPU %u in '%s' does not "
			   "exist or is not available (this machine lets "
			   "memjob use CPUs %s)", c, expr, have);
		return -1;
	}
	return 0;
}

/* The CPU whose caches a relative size refers to: the job's first, else
 * the first this process may use. */
static unsigned first_cpu(const struct job_spec *j,
			  const struct job_cpus *jc, const struct topo *t)
{
	cpu_set_t set;

	if (j->cpus_allowed && cpuset_nth(jc->cpus, 0) >= 0)
		return (unsigned)cpuset_nth(jc->cpus, 0);
	if (t && cpuset_nth(t->allowed, 0) >= 0)
		return (unsigned)cpuset_nth(t->allowed, 0);
	CPU_ZERO(&set);
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (unsigned c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				return c;
	return 0;
}

static void check_cpus(struct job_spec *j, struct job_cpus *jc,
		       const struct topo *t, struct diag *d)
{
	char err[512];

	memset(jc, 0, sizeof(*jc));
	/* cpus_allowed first: the clones' CPUs, which the plan keeps (see
	 * job_cpus_of); then a source's own CPU lists, into its bitmaps */
	if (j->cpus_allowed)
		resolve_cpus(j, "cpus_allowed", j->cpus_allowed, jc->cpus, jc,
			     t, d);
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *o = &opt_table[i];
		const char *expr;

		if (o->type != OPT_CPUS || !strcmp(o->name, "cpus_allowed"))
			continue;
		expr = *(char *const *)opt_field(o, j);
		if (expr)
			resolve_cpus(j, o->name, expr, opt_aux(o, j), jc, t, d);
	}
	if (j->size_expr && sizeexpr_eval(j->size_expr, t,
					  first_cpu(j, jc, t), &j->size, err,
					  sizeof(err)))
		diag_error(d, job_loc(j, "size"), "size", "%s", err);
}

/*
 * numjobs=cpus: the CPUs of the job's set (cpus_allowed as resolved, else
 * every CPU this process may use), within numa_cpu_nodes, counted as the
 * plan and the worker bind them (planlist.c, prepare.c).
 */
static void count_numjobs(struct job_spec *j, const struct job_cpus *jc,
			  const struct topo *t, struct diag *d)
{
	uint64_t set[BITMAP_WORDS(MEMJOB_MAX_CPUS)] = { 0 };
	unsigned n = 0;

	if (j->cpus_allowed) {
		memcpy(set, jc->cpus, sizeof(set));
	} else if (t) {
		memcpy(set, t->allowed, sizeof(set) < sizeof(t->allowed) ?
		       sizeof(set) : sizeof(t->allowed));
	} else {
		cpu_set_t aff;

		CPU_ZERO(&aff);
		if (!sched_getaffinity(0, sizeof(aff), &aff))
			for (unsigned c = 0; c < MEMJOB_MAX_CPUS &&
			     c < CPU_SETSIZE; c++)
				if (CPU_ISSET(c, &aff))
					set[c / 64] |= 1ULL << (c % 64);
	}
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS; c++) {
		int node;

		if (!(set[c / 64] >> (c % 64) & 1))
			continue;
		node = t && c < t->ncpus ? t->cpus[c].node : -1;
		if (j->numa_cpu_nodes && t && (node < 0 ||
		    !(j->cpu_nodes[node / 64] >> (node % 64) & 1)))
			continue;
		n++;
	}
	if (!n) {
		diag_error(d, job_loc(j, "numjobs"), "numjobs", "cpus: the "
			   "job's CPU set has no CPU on this machine%s",
			   j->numa_cpu_nodes ? " within numa_cpu_nodes" : "");
		n = 1;
	}
	j->numjobs = n > 4096 ? 4096 : n;
}

static void check_nodes(const struct job_spec *j, const uint64_t *nodes,
			const char *opt, const struct topo *t, struct diag *d)
{
	char have[256];
	int max;

	if (t && t->from_file) {
		/* planning for a topology file: its nodes, not this machine's */
		value_format_idlist(t->nodes, MEMJOB_MAX_NODES, have,
				    sizeof(have));
		for (unsigned n = 0; n < MEMJOB_MAX_NODES; n++)
			if (nodes[n / 64] & (1ULL << (n % 64)) &&
			    !topo_has_node(t, n)) {
				diag_error(d, job_loc(j, opt), opt, "NUMA node "
					   "%u does not exist (the topology has "
					   "nodes %s)", n, have);
				return;
			}
		return;
	}
	if (numa_available() < 0) {
		diag_error(d, job_loc(j, opt), opt, "NUMA is not available "
			   "on this machine (libnuma: numa_available() failed)");
		return;
	}
	max = numa_max_node();
	for (unsigned n = 0; n < MEMJOB_MAX_NODES; n++) {
		if (!(nodes[n / 64] & (1ULL << (n % 64))))
			continue;
		if ((int)n > max || !numa_bitmask_isbitset(numa_nodes_ptr, n)) {
			diag_error(d, job_loc(j, opt), opt, "NUMA node %u does "
				   "not exist (this machine has nodes 0-%d)",
				   n, max);
			return;
		}
	}
}

/*
 * Options that only some data sources or kernels use ("owners" declare
 * them in their .options list): refused on a job whose own source or
 * kernel does not use them, when set to anything but the default, so
 * that no option is ever silently ignored.
 */
struct owner {
	const char *name;
	const char *const *options;
	const struct opt_group *group;	/* its own options: its too */
};

static bool listed(const struct owner *o, const char *opt)
{
	for (size_t i = 0; o->options && o->options[i]; i++)
		if (!strcmp(o->options[i], opt))
			return true;
	return false;
}

/* The i-th option an owner uses: its .options, then those of its own
 * that .options does not list; NULL past the end. */
static const char *used_option(const struct owner *o, size_t i)
{
	size_t n = 0;

	while (o->options && o->options[n])
		n++;
	if (i < n)
		return o->options[i];
	for (size_t k = 0; o->group && k < o->group->nopts; k++)
		if (!listed(o, o->group->opts[k].name) && n++ == i)
			return o->group->opts[k].name;
	return NULL;
}

static bool owns(const struct owner *o, const char *opt)
{
	const char *name;

	for (size_t i = 0; (name = used_option(o, i)); i++)
		if (!strcmp(name, opt))
			return true;
	return false;
}

/* Was opt set in the job's own section, not inherited from [global]? */
static bool set_here(const struct job_spec *j, const char *opt)
{
	const struct opt_def *o = opt_find(opt);

	return o && job_isset(j, opt) &&
	       !(j->inherited && j->inherited[o - opt_table]);
}

/*
 * isolate_dirty and isolate_wait act between the runs of a file job with
 * isolate_phases=1.  Set in a job's own section where they cannot act,
 * they are refused; a [global] setting is for the jobs it applies to.
 */
static void check_isolate_options(const struct job_spec *j,
				  const struct ioengine_ops *e, struct diag *d)
{
	static const char *const opts[] = { "isolate_dirty", "isolate_wait" };

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (!set_here(j, opts[i]))
			continue;
		if (!(e->flags & IOE_FILE) && !j->filename)
			diag_error(d, job_loc(j, opts[i]), opts[i],
				   "acts between the runs of a file job, and "
				   "ioengine=%s without filename has no file",
				   e->name);
		else if (!j->isolate_phases)
			diag_error(d, job_loc(j, opts[i]), opts[i],
				   "acts only with isolate_phases=1; this job "
				   "has isolate_phases=0");
	}
}

static void check_owned(const struct job_spec *j, const char *kind,
			const struct owner *owners, size_t n, size_t mine,
			const struct job_spec *defaults, struct diag *d)
{
	for (size_t r = 0; r < n; r++) {
		const char *name;

		for (size_t i = 0; (name = used_option(&owners[r], i)); i++) {
			const struct opt_def *o = opt_find(name);
			char have[128], def[128], users[128] = "";
			size_t len = 0;
			bool first = true;

			/* a [global] default that does not apply to this
			 * job is not an error; the job's own setting is */
			if (owns(&owners[mine], name) || !set_here(j, name))
				continue;
			opt_format(o, j, have, sizeof(have));
			opt_format(o, defaults, def, sizeof(def));
			for (size_t k = 0; k < r; k++)	/* report once */
				first &= !owns(&owners[k], name);
			if (!strcmp(have, def) || !first)
				continue;
			for (size_t k = 0; k < n; k++)
				if (owns(&owners[k], name) && len < sizeof(users))
					len += snprintf(users + len,
							sizeof(users) - len,
							"%s%s", len ? ", " : "",
							owners[k].name);
			diag_error(d, job_loc(j, name), name, "is used by "
				   "%s=%s only; this job has %s=%s", kind,
				   users, kind, owners[mine].name);
		}
	}
}

static void check_source_options(const struct job_spec *j, struct diag *d)
{
	const struct ioengine_ops *e = j->ioengine;
	struct owner owners[32];
	struct job_spec defaults;
	size_t n = 0, mine = 0, kmine = 0;

	if (job_init_defaults(&defaults))
		return;
	for (; n < 32 && ioengine_registry[n]; n++) {
		owners[n].name = ioengine_registry[n]->name;
		owners[n].options = ioengine_registry[n]->options;
		owners[n].group = ioengine_registry[n]->opts;
		if (ioengine_registry[n] == e)
			mine = n;
	}
	/* a sweep over the source (kernel) changes which options apply from
	 * point to point: each is checked where it applies */
	if (!job_swept(j, "ioengine") && !j->sweeps_owner[0])
		check_owned(j, "ioengine", owners, n, mine, &defaults, d);
	for (n = 0; n < 32 && kernel_registry[n]; n++) {
		owners[n].name = kernel_registry[n]->name;
		owners[n].options = kernel_registry[n]->options;
		owners[n].group = kernel_registry[n]->opts;
		if (kernel_registry[n] == j->kernel)
			kmine = n;
	}
	if (!job_swept(j, "kernel") && !j->sweeps_owner[1])
		check_owned(j, "kernel", owners, n, kmine, &defaults, d);
	job_free(&defaults);
	if (!j->direct || !ioe_honours(e, "direct"))
		return;
	if (j->bs % IOE_DIRECT_ALIGN)
		diag_error(d, job_loc(j, "bs"), "bs", "direct=1 needs a "
			   "multiple of %d, got %llu", IOE_DIRECT_ALIGN,
			   (unsigned long long)j->bs);
	if (j->offset % IOE_DIRECT_ALIGN)
		diag_error(d, job_loc(j, "offset"), "offset", "direct=1 needs "
			   "a multiple of %d, got %llu", IOE_DIRECT_ALIGN,
			   (unsigned long long)j->offset);
	if (RW_WRITES(j->rw) && j->size % IOE_DIRECT_ALIGN)
		diag_error(d, job_loc(j, "size"), "size", "direct=1 writes "
			   "need a multiple of %d, got %llu", IOE_DIRECT_ALIGN,
			   (unsigned long long)j->size);
}

static int find_job(const struct jobset *js, const char *name, size_t before)
{
	for (size_t i = 0; i < before; i++)
		if (!strcmp(js->jobs[i].name, name))
			return (int)i;
	return -1;
}

/*
 * fio's default data source is psync on the job's files.  memjob's is mem,
 * for compute experiments; but a job that names files, or asks for what
 * only files have (O_DIRECT, O_SYNC, fsync), and sets no ioengine is a
 * file job, as in fio: it must never run in memory unnoticed.
 */
static void default_ioengine(struct job_spec *j)
{
	if (job_isset(j, "ioengine") || job_swept(j, "ioengine") ||
	    j->sweeps_owner[0])
		return;
	if (j->filename || job_isset(j, "directory") ||
	    job_isset(j, "filename_format") || j->direct || j->sync ||
	    j->fsync_every || j->fdatasync_every || j->end_fsync)
		j->ioengine = ioengine_default_for(IOE_DEFAULT_FILES);
}

/* The checks of one job that need no other job. */
static void check_one(struct job_spec *j, struct job_cpus *jc,
		      const struct topo *t, struct diag *d)
{
	const struct ioengine_ops *e;
	char why[256];

	fio_resolve(j, d);
	default_ioengine(j);
	fio_defaults(j);
	e = j->ioengine;

	/* first: the sizes below may be relative to these CPUs' caches */
	check_cpus(j, jc, t, d);
	if (j->numjobs_cpus)
		count_numjobs(j, jc, t, d);
	if (RW_IS_WRITE(j->rw) && (e->flags & IOE_MAPPED) &&
	    !(j->kernel->flags & KERN_STORES)) {
		if (job_isset(j, "kernel"))
			diag_error(d, job_loc(j, "kernel"), "kernel", "with "
				   "ioengine=%s a write is what the kernel "
				   "stores, and kernel=%s stores nothing; use "
				   "a kernel that stores, such as fill", e->name,
				   j->kernel->name);
		else
			j->kernel = kernel_store_default();
	}
	if (e->resolve)
		e->resolve(j, d);
	set_impl(j, d);
	if (j->kernel->flags & KERN_PROGRAM) {
		if (j->rate || j->rate_pct > 0 || j->rate_iops) {
			const char *o = j->rate_iops ? "rate_iops" : "rate";

			diag_error(d, job_loc(j, o), o, "kernel=%s runs a "
				   "program, which moves no blocks for a rate "
				   "to pace", j->kernel->name);
		}
		if (!job_isset(j, "ioengine"))
			j->ioengine = e =
				ioengine_default_for(IOE_DEFAULT_PROGRAMS);
		if (!(e->flags & IOE_NODATA))
			diag_error(d, job_loc(j, "ioengine"), "ioengine",
				   "kernel=%s runs a program, not on data: "
				   "use ioengine=none", j->kernel->name);
	} else if (e->flags & IOE_NODATA) {
		diag_error(d, job_loc(j, "ioengine"), "ioengine", "ioengine=%s "
			   "has no data for kernel=%s", e->name,
			   j->kernel->name);
	}

	if (!(e->flags & (IOE_FILE | IOE_FILE_OPT)) && j->filename)
		diag_error(d, job_loc(j, "filename"), "filename",
			   "ioengine=%s does not use a file", e->name);
	if (e->flags & (IOE_FILE | IOE_FILE_OPT))
		check_inside_directory(j, d);
	/* the page-cache options act on the job's file */
	if (!(e->flags & IOE_FILE) && !j->filename &&
	    (j->invalidate || j->preread))
		diag_error(d, job_loc(j, j->preread ? "preread" : "invalidate"),
			   j->preread ? "preread" : "invalidate",
			   "acts on the page cache of the job's file, and "
			   "ioengine=%s without filename has none", e->name);
	check_isolate_options(j, e, d);
	if (j->preread && j->invalidate)
		diag_error(d, job_loc(j, "preread"), "preread", "warms the "
			   "file that invalidate=1 makes cold: choose one");
	else if (j->preread && j->direct && ioe_honours(e, "direct"))
		diag_error(d, job_loc(j, "preread"), "preread", "warms the "
			   "page cache, which direct=1 bypasses");
	if (!(e->flags & (IOE_FILE | IOE_NODATA)) && !j->filename &&
	    j->size == 0 && !job_swept(j, "size") && !j->size_expr)
		diag_error(d, job_loc(j, "size"), "size", "ioengine=%s without "
			   "a file needs size (e.g. size=64m)", e->name);
	if (j->time_based && j->runtime_us == 0)
		diag_error(d, job_loc(j, "time_based"), "time_based",
			   "needs runtime (e.g. runtime=10s)");
	if (j->numa_cpu_nodes)
		check_nodes(j, j->cpu_nodes, "numa_cpu_nodes", t, d);
	if (j->mem_policy.kind != MEMPOL_DEFAULT &&
	    j->mem_policy.kind != MEMPOL_LOCAL)
		check_nodes(j, j->mem_policy.nodes, "numa_mem_policy", t,
			    d);
	if ((j->fsync_every || j->fdatasync_every || j->end_fsync) &&
	    (!RW_WRITES(j->rw) || !e->sync)) {
		const char *o = j->end_fsync ? "end_fsync" : j->fsync_every ?
				"fsync" : "fdatasync";

		if (!RW_WRITES(j->rw))
			diag_error(d, job_loc(j, o), o, "applies to write "
				   "jobs; this one has rw=%s",
				   opt_find("rw")->words[j->rw]);
		else
			diag_error(d, job_loc(j, o), o, "ioengine=%s has no "
				   "file to sync", e->name);
	}
	if (j->drop_caches && sysstat_may_drop_caches(why, sizeof(why)))
		diag_error(d, job_loc(j, "drop_caches"), "drop_caches",
			   "%s; invalidate=1 drops one file's pages without "
			   "it", why);
	if (j->memory_limit && j->memory_limit < MEMCG_MIN_LIMIT) {
		char got[32];

		value_format_size(j->memory_limit, got, sizeof(got));
		diag_error(d, job_loc(j, "memory_limit"), "memory_limit",
			   "must be 0 (no limit) or at least 16m: memjob's "
			   "own threads are charged to it too, got %s", got);
	}
	if (RW_IS_MIXED(j->rw) && !(e->flags & IOE_MIXED)) {
		char can[128];

		ioengine_names_with(IOE_MIXED, can, sizeof(can));
		diag_error(d, job_loc(j, "rw"), "rw", "ioengine=%s cannot mix "
			   "reads and writes; rw=%s needs ioengine=%s", e->name,
			   opt_find("rw")->words[j->rw], can);
	}
	if (set_here(j, "rwmixread") && !RW_IS_MIXED(j->rw))
		diag_error(d, job_loc(j, "rwmixread"), "rwmixread", "applies "
			   "to rw=rw or randrw; this job has rw=%s",
			   opt_find("rw")->words[j->rw]);
	check_source_options(j, d);
	if (e->validate)
		e->validate(j, d);
	if (j->kernel->validate)
		j->kernel->validate(j, d);
}

static void check_job(struct jobset *js, size_t idx, const struct topo *t,
		      struct diag *d)
{
	struct job_spec *j = &js->jobs[idx];
	struct job_cpus jc;	/* the plan resolves them again */

	check_one(j, &jc, t, d);
	if (j->precision_pct > 0 && j->role == ROLE_NONE)
		diag_error(d, job_loc(j, "precision"), "precision", "narrows "
			   "the interval of a victim's slowdown, and job '%s' "
			   "is no victim or aggressor (role=none); set it in "
			   "the sections of a victim and its aggressors",
			   j->name);
	if (j->wait_for) {
		if (!strcmp(j->wait_for, j->name))
			diag_error(d, job_loc(j, "wait_for"), "wait_for",
				   "job '%s' cannot wait for itself", j->name);
		else if (find_job(js, j->wait_for, idx) < 0)
			diag_error(d, job_loc(j, "wait_for"), "wait_for",
				   "no job named '%s' before this one",
				   j->wait_for);
	}
}

/* Every point of a segment, checked then emitted; the first point with
 * an error stops (one bad point is enough to say). */
static int expand_segment(struct sweep_expander *x, const struct topo *t)
{
	struct job_cpus *cpus = calloc(x->count, sizeof(*cpus));
	int ret = -1;

	if (!cpus) {
		diag_plain(x->d, "out of memory");
		return -1;
	}
	for (uint64_t p = 0; p < x->npoints; p++) {
		unsigned before = x->d->errors;

		if (sweep_point(x, p))
			goto out;
		for (unsigned k = 0; k < x->count; k++)
			check_one(&x->mats[k], &cpus[k], t, x->d);
		if (x->d->errors != before) {
			sweep_drop(x);
			goto out;
		}
		if (sweep_emit(x, cpus))
			goto out;
	}
	ret = 0;
out:
	free(cpus);
	return ret;
}

unsigned jobs_expand(const struct jobset *in, struct jobset *out,
		     struct sweep_notes *notes, const struct topo *t,
		     struct diag *d)
{
	struct sweep_expander x;
	unsigned b;

	sweep_begin(&x, in, out, notes, t, d);
	for (unsigned a = 0; a < in->njobs; a = b) {
		int bad = sweep_segment(&x, a, &b) || expand_segment(&x, t);

		sweep_segment_done(&x);
		if (bad)
			break;
	}
	return sweep_end(&x);
}

unsigned jobs_check(struct jobset *js, const struct topo *t, struct diag *d)
{
	unsigned before = d->errors;

	if (js->njobs == 0) {
		diag_plain(d, "no jobs to run (give a job file, or --name=NAME "
			   "with options)");
		return d->errors - before;
	}
	for (size_t i = 0; i < js->njobs; i++)
		check_job(js, i, t, d);
	fio_notes(js, d);
	return d->errors - before;
}
