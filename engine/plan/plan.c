/*
 * plan.c - segments, groups and files (see plan.h); whether the machine
 * has room for them is planroom.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ioengines/filemark.h"
#include "ioengines/ioengine.h"
#include "parse/check.h"
#include "parse/filenames.h"
#include "spec/options.h"
#include "parse/optspace.h"
#include "plan/plan.h"
#include "util/path.h"
#include "util/value.h"

static char *join_path(const char *dir, const char *name)
{
	char *p;

	if (name[0] == '/' || !dir || !strcmp(dir, "."))
		return strdup(name);
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

static struct file_to_create *find_create(struct plan *p, const char *path)
{
	for (unsigned i = 0; i < p->ncreates; i++)
		if (!strcmp(p->creates[i].path, path))
			return &p->creates[i];
	return NULL;
}

static int add_create(struct plan *p, const char *path, uint64_t size,
		      const struct job_spec *j)
{
	struct file_to_create *n = realloc(p->creates,
					   (p->ncreates + 1) * sizeof(*n));

	if (!n)
		return -1;
	p->creates = n;
	n += p->ncreates;
	memset(n, 0, sizeof(*n));
	n->path = strdup(path);
	if (!n->path)
		return -1;
	n->size = size;
	n->pattern = j->pattern;
	n->seed = j->pattern_seed;
	n->sparse = RW_IS_WRITE(j->rw);
	n->by = j;
	p->ncreates++;
	return 0;
}

static uint64_t device_size(const char *path)
{
	uint64_t bytes = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		bytes = 0;
	close(fd);
	return bytes;
}

/* /sys/dev/char/MAJ:MIN/size, as device-dax has it; 0 if none. */
static uint64_t chardev_size(const struct stat *st)
{
	char path[64];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/size",
		 major(st->st_rdev), minor(st->st_rdev));
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/*
 * A file at path that carries memjob's mark (filemark.h): a leftover of a
 * run that is gone is planned to be replaced (true); a live run's is
 * refused (true); one of another host's run is refused for a writer with
 * how to recover (true).  false: no mark to go by, the path is judged as
 * any other file.
 */
static bool plan_marked(struct plan *p, struct planned_job *pj,
			const char *path, const char *fopt, struct diag *d)
{
	const struct job_spec *j = pj->spec;
	struct filemark_seen seen;
	struct file_to_create *c;
	uint64_t size;
	char dir[4096];

	filemark_judge(path, &seen);
	switch (seen.verdict) {
	case MARK_NONE:
		return false;
	case MARK_LIVE:
		diag_error(d, job_loc(j, fopt), fopt, "'%s' belongs to %s, "
			   "which is still running; memjob leaves it alone",
			   path, seen.who);
		return true;
	case MARK_ELSEWHERE:
		if (!RW_WRITES(j->rw) || j->overwrite)
			return false;
		diag_error(d, job_loc(j, fopt), fopt, "'%s' was made by %s; "
			   "from this host memjob cannot tell whether that "
			   "run is over: remove the file if it is (or set "
			   "overwrite=1)", path, seen.who);
		return true;
	case MARK_LEFTOVER:
		break;
	}
	size = j->size ? j->offset + j->size : (uint64_t)seen.st.st_size;
	if (size <= j->offset)
		return false;	/* nothing to read in it: said as usual */
	path_dir(path, dir, sizeof(dir));
	if (access(dir, W_OK | X_OK)) {
		diag_error(d, job_loc(j, fopt), fopt, "'%s' was left by %s, "
			   "and memjob cannot replace it: directory '%s' is "
			   "not writable: %s", path, seen.who, dir,
			   strerror(errno));
		return true;
	}
	if (add_create(p, path, size, j)) {
		diag_plain(d, "out of memory");
		return true;
	}
	c = &p->creates[p->ncreates - 1];
	c->replace = true;
	c->left = seen.st;
	snprintf(c->left_by, sizeof(c->left_by), "%s", seen.who);
	pj->size = size - j->offset;
	return true;
}

/* Resolve one clone's file: existence, type, size; plan its creation. */
static void plan_file(struct plan *p, struct planned_job *pj, const char *path,
		      struct diag *d)
{
	const struct job_spec *j = pj->spec;
	const char *fopt = j->filename ? "filename" : "directory";
	struct file_to_create *c = find_create(p, path);
	struct stat st;
	uint64_t have;
	char dir[4096], sz[32], off[32];

	if (c) {		/* another job creates it first */
		/* a writer grows it: the readers after it find it larger */
		if (RW_IS_WRITE(j->rw) && c->sparse &&
		    j->offset + j->size > c->size)
			c->size = j->offset + j->size;
		have = c->size;
		goto sized;
	}
	if (plan_marked(p, pj, path, fopt, d))
		return;
	if (stat(path, &st)) {
		struct stat ds;

		if (errno != ENOENT) {
			diag_error(d, job_loc(j, fopt), fopt, "cannot use '%s': "
				   "%s", path, strerror(errno));
			return;
		}
		/* a link to nothing: memjob makes its files itself, never
		 * through a link (the create would fail, or write elsewhere) */
		if (!lstat(path, &ds) && S_ISLNK(ds.st_mode)) {
			char to[4096];
			ssize_t n = readlink(path, to, sizeof(to) - 1);

			to[n > 0 ? n : 0] = '\0';
			diag_error(d, job_loc(j, fopt), fopt, "'%s' is a "
				   "symbolic link to '%s', which does not exist; "
				   "memjob creates its files itself and not "
				   "through a link: remove the link, or name the "
				   "file it points to", path, to);
			return;
		}
		path_dir(path, dir, sizeof(dir));
		if (stat(dir, &ds) || !S_ISDIR(ds.st_mode)) {
			diag_error(d, job_loc(j, fopt), fopt, "cannot create "
				   "'%s': directory '%s' does not exist", path,
				   dir);
			return;
		}
		/* found now, not when the job runs (EROFS included) */
		if (access(dir, W_OK | X_OK)) {
			diag_error(d, job_loc(j, fopt), fopt, "cannot create "
				   "'%s': directory '%s' is not writable: %s",
				   path, dir, strerror(errno));
			return;
		}
		if (j->size == 0) {
			diag_error(d, job_loc(j, "size"), "size", "'%s' does "
				   "not exist; memjob creates it, and needs size "
				   "to know how large", path);
			return;
		}
		if (add_create(p, path, j->offset + j->size, j)) {
			diag_plain(d, "out of memory");
			return;
		}
		pj->size = j->size;
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		diag_error(d, job_loc(j, fopt), fopt, "'%s' is a directory",
			   path);
		return;
	}
	if ((S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) && !j->allow_devices) {
		diag_error(d, job_loc(j, fopt), fopt, "'%s' is a %s device; "
			   "memjob uses devices only with allow_devices=1",
			   path, S_ISBLK(st.st_mode) ? "block" : "character");
		return;
	}
	if (RW_WRITES(j->rw) && !j->overwrite) {
		diag_error(d, job_loc(j, "rw"), "rw", "rw=%s would write into "
			   "'%s', which memjob did not create (it has no mark "
			   "of a memjob run); set overwrite=1 to allow it",
			   opt_find("rw")->words[j->rw], path);
		return;
	}
	if (S_ISFIFO(st.st_mode)) {	/* a stream: no size, no offsets */
		char can[128];

		ioengine_names_with(IOE_STREAM, can, sizeof(can));
		if (!(j->ioengine->flags & IOE_STREAM))
			diag_error(d, job_loc(j, fopt), fopt, "'%s' is a FIFO, "
				   "which ioengine=%s cannot use (it needs "
				   "offsets); ioengine=%s can", path,
				   j->ioengine->name, can);
		else if (!j->size)
			diag_error(d, job_loc(j, "size"), "size", "'%s' is a "
				   "FIFO, whose size memjob cannot know: set "
				   "size", path);
		pj->size = j->size;
		return;
	}
	have = S_ISBLK(st.st_mode) ? device_size(path) : (uint64_t)st.st_size;
	if (S_ISCHR(st.st_mode))	/* device-dax says its size in sysfs */
		have = chardev_size(&st);
	if (S_ISCHR(st.st_mode) && !have) { /* a stream: size not known */
		if (!j->size)
			diag_error(d, job_loc(j, "size"), "size", "'%s' is a "
				   "character device, whose size memjob cannot "
				   "know: set size", path);
		pj->size = j->size;
		return;
	}
sized:
	if (j->size) {
		pj->size = j->size;
		if (!RW_IS_WRITE(j->rw) && j->offset + j->size > have) {
			value_format_size(j->size, sz, sizeof(sz));
			value_format_size(j->offset, off, sizeof(off));
			diag_error(d, job_loc(j, "size"), "size", "'%s' holds "
				   "%llu bytes, fewer than offset %s + size %s",
				   path, (unsigned long long)have, off, sz);
		}
		return;
	}
	if (j->offset >= have) {
		diag_error(d, job_loc(j, j->offset ? "offset" : "size"),
			   j->offset ? "offset" : "size", "'%s' holds %llu "
			   "bytes: nothing to do from offset %llu; set size",
			   path, (unsigned long long)have,
			   (unsigned long long)j->offset);
		return;
	}
	pj->size = have - j->offset;
}

static void plan_files(struct plan *p, struct planned_job *pj, struct diag *d)
{
	const struct job_spec *j = pj->spec;
	const struct ioengine_ops *e = j->ioengine;
	unsigned n = j->numjobs;

	pj->size = j->size;
	if (!(e->flags & IOE_FILE) && !j->filename)
		return;
	pj->paths = calloc(n, sizeof(*pj->paths));
	if (!pj->paths) {
		diag_plain(d, "out of memory");
		return;
	}
	for (unsigned c = 0; c < n; c++) {
		char *name = NULL;

		if (j->filename) {
			pj->paths[c] = join_path(j->directory, j->filename);
		} else if ((name = job_file_name(j, c))) {
			pj->paths[c] = join_path(j->directory, name);
			free(name);
		}
		if (!pj->paths[c]) {
			diag_plain(d, "out of memory");
			return;
		}
		if (c == 0 || !j->filename) {
			unsigned before = d->errors;

			plan_file(p, pj, pj->paths[c], d);
			/* one clone's error is every clone's: say it once */
			if (d->errors != before && n - c > 1) {
				diag_plain(d, "(job '%s': the same check was not "
					   "repeated for its %u other clone "
					   "files)", j->name, n - c - 1);
				d->errors--;	/* a note, not an error */
				return;
			}
		}
	}
}

/* sample_interval's rows: a file of the user's, so never one that exists
 * unless overwrite=1; jobs repeated by sweeps share their job's file. */
static void plan_sample_log(struct plan *p, struct planned_job *pj,
			    struct diag *d)
{
	const struct job_spec *j = pj->spec;
	const char *opt = j->sample_log ? "sample_log" : "sample_interval";
	struct stat st;
	char *path;

	if (!j->sample_us)
		return;
	if (j->sample_log)
		path = strdup(j->sample_log);
	else if (asprintf(&path, "%s.samples.csv", j->name) < 0)
		path = NULL;
	if (!path) {
		diag_plain(d, "out of memory");
		return;
	}
	pj->sample_path = path;
	for (struct planned_job *o = p->jobs; o < pj; o++)
		if (o->sample_path && !strcmp(o->sample_path, path)) {
			if (strcmp(o->spec->name, j->name))
				diag_error(d, job_loc(j, opt), opt, "jobs '%s' "
					   "and '%s' would both write '%s'",
					   o->spec->name, j->name, path);
			return;
		}
	if (!stat(path, &st) && !j->overwrite)
		diag_error(d, job_loc(j, opt), opt, "'%s' exists; memjob does "
			   "not overwrite it unless overwrite=1", path);
}

/* Jobs that run together are repeated together, and so stop together:
 * one target and one budget for them. */
static void check_same_precision(const struct job_spec *j,
				 const struct job_spec *first, struct diag *d)
{
	const char *o = j->precision_pct != first->precision_pct ?
			"precision" : j->precision_budget_us !=
			first->precision_budget_us ? "precision_budget" : NULL;

	if (o)
		diag_error(d, job_loc(j, o), o, "job '%s' runs at the same "
			   "time as job '%s' and is repeated with it, so they "
			   "take the same precision and precision_budget (set "
			   "them in [global])", j->name, first->name);
}

/* The array doubles as it fills: a file of 65536 stonewalled jobs is as
 * many segments, and growing it by one each time copies it each time
 * where the allocator cannot grow it in place (ASan's, TSan's). */
static int add_segment(struct plan *p, unsigned first, unsigned repeat)
{
	struct segment *n;

	if (p->nsegments == p->segments_cap) {
		unsigned cap = p->segments_cap ? 2 * p->segments_cap : 16;

		n = realloc(p->segments, cap * sizeof(*n));
		if (!n)
			return -1;
		p->segments = n;
		p->segments_cap = cap;
	}
	n = &p->segments[p->nsegments++];
	n->first = first;
	n->count = 0;
	n->repeat = repeat;
	return 0;
}

/* Whether segment s has a job with precision=: its rounds are adaptive
 * and its budget its own, so it joins no block by repeat_order. */
static bool seg_precise(const struct plan *p, unsigned s)
{
	const struct segment *sg = &p->segments[s];

	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		if (p->jobs[i].spec->precision_pct > 0)
			return true;
	return false;
}

/* Whether segment s joins the block of s - 1 by repeat_order: both
 * interleaved, neither with precision=. */
static bool order_joins(const struct plan *p, unsigned s)
{
	const struct job_spec *a = p->jobs[p->segments[s - 1].first].spec;
	const struct job_spec *b = p->jobs[p->segments[s].first].spec;

	return a->repeat_order == ORDER_INTERLEAVED &&
	       b->repeat_order == ORDER_INTERLEAVED &&
	       !seg_precise(p, s - 1) && !seg_precise(p, s);
}

/* A loaded victim joins its baseline's block, with every segment between
 * them: overlapping spans (a victim x aggressor grid) make one block.
 * Segments that repeat_order interleaves join the block before them. */
static void plan_blocks(struct plan *p)
{
	bool *joined = calloc(p->nsegments, sizeof(*joined));

	for (unsigned i = 0; joined && i < p->njobs; i++) {
		const struct job_spec *j = p->jobs[i].spec;
		unsigned a, b;

		if (j->phase != PHASE_LOADED || j->baseline < 0)
			continue;
		a = p->jobs[j->baseline].segment;
		b = p->jobs[i].segment;
		for (unsigned s = (a < b ? a : b) + 1; s <= (a < b ? b : a); s++)
			joined[s] = true;
	}
	for (unsigned s = 1; joined && s < p->nsegments; s++)
		joined[s] |= order_joins(p, s);
	for (unsigned s = 0; s < p->nsegments; s++)
		p->segments[s].block = s && joined && joined[s] ?
				       p->segments[s - 1].block : s;
	free(joined);
}

bool plan_interleaved(const struct plan *p, unsigned seg)
{
	unsigned b = p->segments[seg].block;

	return (b + 1 < p->nsegments && p->segments[b + 1].block == b);
}

unsigned plan_build(const struct jobset *js, const struct topo *t,
		    struct diag *d, struct plan *p)
{
	unsigned before = d->errors;
	unsigned group = 0;

	memset(p, 0, sizeof(*p));
	p->jobs = calloc(js->njobs, sizeof(*p->jobs));
	if (!p->jobs) {
		diag_plain(d, "out of memory");
		return 1;
	}
	p->njobs = (unsigned)js->njobs;
	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job_spec *j = &js->jobs[i];
		struct planned_job *pj = &p->jobs[i];
		struct segment *sg;

		pj->spec = j;
		pj->wait_for = -1;
		job_cpus_of(j, t, pj->cpus);	/* as the check chose them */
		pj->impl = job_impl_of(j);
		if (i == 0 || j->stonewall) {
			if (add_segment(p, i, j->repeat)) {
				diag_plain(d, "out of memory");
				return d->errors - before;
			}
		}
		if (i > 0 && (j->stonewall || j->new_group))
			group++;
		pj->group = group;
		pj->segment = p->nsegments - 1;
		sg = &p->segments[pj->segment];
		if (sg->repeat != j->repeat)
			diag_error(d, job_loc(j, "repeat"), "repeat", "job '%s' "
				   "runs at the same time as job '%s' and must be "
				   "repeated with it: repeat=%u here, %u there "
				   "(set repeat in [global], or separate the jobs "
				   "with stonewall)", j->name,
				   js->jobs[sg->first].name, j->repeat,
				   sg->repeat);
		if (sg->count)
			check_same_precision(j, &js->jobs[sg->first], d);
		if (sg->count && j->repeat_order !=
		    js->jobs[sg->first].repeat_order)
			diag_error(d, job_loc(j, "repeat_order"), "repeat_order",
				   "job '%s' runs at the same time as job '%s' "
				   "and is repeated with it, so they take the "
				   "same repeat_order (set it in [global])",
				   j->name, js->jobs[sg->first].name);
		sg->count++;
		/* the nearest earlier job of that name: sweeps repeat names */
		if (j->wait_for)
			for (unsigned k = i; k-- > 0;)
				if (!strcmp(js->jobs[k].name, j->wait_for)) {
					pj->wait_for = (int)k;
					break;
				}
		plan_files(p, pj, d);
		plan_sample_log(p, pj, d);
	}
	p->ngroups = group + 1;
	plan_blocks(p);
	for (unsigned s = 0; s < p->nsegments; s++) {
		unsigned t = 0;

		for (unsigned i = 0; i < p->segments[s].count; i++)
			t += p->jobs[p->segments[s].first + i].spec->numjobs;
		if (t > p->max_threads)
			p->max_threads = t;
	}
	if (d->errors == before)
		plan_check_machine(p, d);
	return d->errors - before;
}

void plan_free(struct plan *p)
{
	for (unsigned i = 0; i < p->njobs; i++) {
		free(p->jobs[i].sample_path);
		if (!p->jobs[i].paths)
			continue;
		for (unsigned c = 0; c < p->jobs[i].spec->numjobs; c++)
			free(p->jobs[i].paths[c]);
		free(p->jobs[i].paths);
	}
	free(p->jobs);
	free(p->segments);
	for (unsigned i = 0; i < p->ncreates; i++)
		free(p->creates[i].path);
	free(p->creates);
	memset(p, 0, sizeof(*p));
}
