/*
 * isolate.c - phase isolation between runs (see isolate.h).
 *
 * fsync rather than syncfs: it waits for the writeback of exactly the
 * files the previous phase used, whatever else the machine is writing.
 * Pages are not dropped here: a next job with invalidate=1 drops its
 * file's pages itself when it starts (worker.c), and POSIX_FADV_DONTNEED
 * drops only clean pages, which the fsync has made them; a next job that
 * reads warm on purpose keeps them.
 *
 * Waiting for the machine's level rather than calling syncfs: the
 * others' dirty pages are not the job's to write (a syncfs would make
 * this run wait for, and hurry, every other process's writes on the
 * file system); the kernel writes them back on its own once they expire,
 * so a bounded wait reaches a quiet level on a machine that is not
 * writing all the time, and says so when it is.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/isolate.h"
#include "util/value.h"
#include "util/clock.h"

#define POLL_MS		20

/* A file memjob made through the descriptor it holds (whatever its path
 * names now); a file of the user's as named. */
static void sync_file(const struct created_files *cf, const char *path)
{
	const struct created_file *made = files_made(cf, path);
	int fd;

	if (made) {
		if (made->fd >= 0 && fsync(made->fd))
			fprintf(stderr, "memjob: isolate_phases: fsync %s: "
				"%m\n", path);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;		/* a FIFO gone, a file removed: nothing left */
	if (fsync(fd))
		fprintf(stderr, "memjob: isolate_phases: fsync %s: %m\n",
			path);
	close(fd);
}

bool isolate_after(const struct created_files *cf, const struct segment *sg)
{
	const struct plan *p = cf->plan;
	bool isolated = true;

	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		const struct planned_job *pj = &p->jobs[i];

		if (!pj->paths)
			continue;
		if (!pj->spec->isolate_phases) {
			isolated = false;
			continue;
		}
		/* clones share a file or have one each */
		for (unsigned c = 0; c < pj->spec->numjobs; c++) {
			const char *path = pj->paths[c], *first = pj->paths[0];

			if (path && (c == 0 || !first || strcmp(path, first)))
				sync_file(cf, path);
		}
	}
	return isolated;
}

static bool job_uses(const struct planned_job *pj, const char *path)
{
	if (!pj->paths)
		return false;
	for (unsigned c = 0; c < pj->spec->numjobs; c++)
		if (pj->paths[c] && !strcmp(pj->paths[c], path))
			return true;
	return false;
}

/*
 * Who uses path in segment sg: .uses when a job does, .optout when one of
 * them has isolate_phases=0, .other when one of them is not named name
 * (NULL: any name counts as other).
 */
struct use {
	bool uses, optout, other;
};

static struct use uses_in(const struct plan *p, const struct segment *sg,
			  const char *path, const char *name)
{
	struct use u = { false, false, false };

	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		const struct planned_job *pj = &p->jobs[i];

		if (!job_uses(pj, path))
			continue;
		u.uses = true;
		if (!pj->spec->isolate_phases)
			u.optout = true;
		if (!name || strcmp(pj->spec->name, name))
			u.other = true;
	}
	return u;
}

/* The name of the job in sg that writes path (one of them). */
static const char *writer_of(const struct plan *p, const struct segment *sg,
			     const char *path)
{
	for (unsigned i = sg->first; i < sg->first + sg->count; i++)
		if (job_uses(&p->jobs[i], path) &&
		    RW_WRITES(p->jobs[i].spec->rw))
			return p->jobs[i].spec->name;
	return NULL;
}

/* File ci (path), which run order[pos] used: deleted when no later run
 * uses it; when the run wrote it, made afresh for the same job's next
 * run, kept for another job's. */
static void after_run(struct created_files *cf, unsigned ci, const char *path,
		       const struct run_ref *order, unsigned n, unsigned pos)
{
	const struct plan *p = cf->plan;
	const struct segment *sg = &p->segments[order[pos].seg];
	const char *name = writer_of(p, sg, path);
	unsigned k;
	struct use u = { false, false, false };

	for (k = pos + 1; k < n; k++) {
		/* the same segment again (its next repeat) counts too */
		u = uses_in(p, &p->segments[order[k].seg], path, name);
		if (u.uses)
			break;
	}
	if (k == n) {			/* no later run uses it */
		if (!p->creates[ci].by->keep_files)
			files_remove(cf, ci);
		return;
	}
	if (!name)			/* read only: as it was */
		return;
	if (u.other || u.optout) {	/* reused on purpose */
		cf->f[ci].kept_from = name;
		return;
	}
	if (!files_remove(cf, ci) && !files_create(cf, ci))
		cf->f[ci].fresh = true;
}

void isolate_files(struct created_files *cf, const struct run_ref *order,
		   unsigned n, unsigned pos)
{
	const struct plan *p = cf->plan;
	const struct segment *sg = &p->segments[order[pos].seg];

	for (unsigned i = 0; i < cf->n; i++) {	/* the last run's */
		cf->f[i].fresh = false;
		cf->f[i].kept_from = NULL;
	}
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		const struct planned_job *pj = &p->jobs[i];

		if (!pj->paths)
			continue;
		for (unsigned c = 0; c < pj->spec->numjobs; c++) {
			const char *path = pj->paths[c];
			int ci = path ? files_index(cf, path) : -1;
			struct use u;
			bool seen = false;

			if (ci < 0 || (unsigned)ci >= cf->n)
				continue;
			/* once per file: the first job and clone with it */
			for (unsigned j = sg->first; j < i && !seen; j++)
				seen = job_uses(&p->jobs[j], path);
			for (unsigned d = 0; d < c && !seen; d++)
				seen = pj->paths[d] &&
				       !strcmp(pj->paths[d], path);
			if (seen)
				continue;
			u = uses_in(p, sg, path, NULL);
			if (!u.optout)
				after_run(cf, (unsigned)ci, path, order, n,
					  pos);
		}
	}
}

/* The lowest isolate_dirty of segment sg's isolating file jobs (0: no
 * job asks for a wait), and their longest isolate_wait. */
static uint64_t wanted_level(const struct plan *p, const struct segment *sg,
			     uint64_t *wait_us)
{
	uint64_t level = 0;

	*wait_us = 0;
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		const struct job_spec *j = p->jobs[i].spec;

		if (!p->jobs[i].paths || !j->isolate_phases ||
		    !j->isolate_dirty)
			continue;
		if (!level || j->isolate_dirty < level)
			level = j->isolate_dirty;
		if (j->isolate_wait_us > *wait_us)
			*wait_us = j->isolate_wait_us;
	}
	return level;
}

struct isolate_wait isolate_wait_level(const struct plan *p,
				       const struct segment *sg,
				       bool isolated, uint64_t first,
				       atomic_int *stop)
{
	struct isolate_wait w = { false, false, 0, 0 };
	uint64_t wait_us, t0, level = wanted_level(p, sg, &wait_us);

	if (!isolated || !level)
		return w;
	if (first > level)	/* the machine was that busy to begin with */
		level = first;
	w.level = level;
	w.asked = true;
	t0 = mono_ns();
	for (;;) {
		struct dirty_level lv = dirty_level_now();
		struct timespec ts = { 0, POLL_MS * 1000000L };

		w.ns = mono_ns() - t0;
		if (!lv.have) {		/* nothing to wait for: say so */
			w.asked = false;
			return w;
		}
		if (lv.dirty + lv.writeback <= level) {
			w.reached = true;
			return w;
		}
		if (w.ns >= wait_us * 1000 || atomic_load(stop))
			return w;
		nanosleep(&ts, NULL);
	}
}

struct dirty_level dirty_level_now(void)
{
	struct dirty_level lv = { 0 };
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long long kib;
	unsigned found = 0;

	if (!f)
		return lv;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Dirty: %llu kB", &kib) == 1) {
			lv.dirty = kib * 1024;
			found |= 1;
		} else if (sscanf(line, "Writeback: %llu kB", &kib) == 1) {
			lv.writeback = kib * 1024;
			found |= 2;
		}
	}
	fclose(f);
	lv.have = found == 3;
	return lv;
}

static void append(char *info, size_t len, const char *text)
{
	size_t n = strlen(info);

	if (n + 1 < len)
		snprintf(info + n, len - n, "%s%s", n ? "; " : "", text);
}

/* What isolate_files did to clone c's file before this run, or "". */
static void file_state(const struct created_files *cf,
		       const struct planned_job *pj,
		       unsigned c, char *buf, size_t len)
{
	int ci = pj->paths[c] ? files_index(cf, pj->paths[c]) : -1;

	buf[0] = 0;
	if (ci < 0 || (unsigned)ci >= cf->n)
		return;
	if (cf->f[ci].fresh)
		snprintf(buf, len, "a fresh file");
	else if (cf->f[ci].kept_from)
		snprintf(buf, len, "reuses the file job '%s' wrote",
			 cf->f[ci].kept_from);
}

void isolate_note(struct results *r, const struct created_files *cf,
		  const struct segment *sg, unsigned repeat,
		  const struct dirty_level *lv, bool isolated,
		  const struct isolate_wait *w,
		  const struct isolate_warm *warm)
{
	const struct plan *p = r->plan;
	char text[256], d[32], b[32], wt[96] = "", st[160];

	if (w->asked && (!w->reached || w->ns >= 10000000)) {
		char lvl[32];

		value_format_bytes((double)w->level, lvl, sizeof(lvl));
		if (w->reached)
			snprintf(wt, sizeof(wt), " (after %.2f s waiting for "
				 "<= %s)", (double)w->ns / 1e9, lvl);
		else
			snprintf(wt, sizeof(wt), " (still above %s after "
				 "%.1f s)", lvl, (double)w->ns / 1e9);
	}
	snprintf(text, sizeof(text), "started with Dirty %s, Writeback %s%s%s",
		 value_format_bytes((double)lv->dirty, d, sizeof(d)),
		 value_format_bytes((double)lv->writeback, b, sizeof(b)), wt,
		 isolated ? "" : " (phases not isolated: isolate_phases=0)");
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		struct job_result *jr = results_get(r, i, repeat);

		if (p->jobs[i].spec->isolate_phases && warm->asked) {
			jr->start.warm_asked = true;
			jr->start.warm_bytes = warm->cost.bytes;
			jr->start.warm_ns = warm->cost.ns;
			isolate_warm_text(warm, jr->start.warm,
					  sizeof(jr->start.warm));
		}
		if (!p->jobs[i].paths || !lv->have)
			continue;
		jr->start.have = true;
		jr->start.isolated = isolated;
		jr->start.waited = w->asked;
		jr->start.reached = w->reached;
		jr->start.dirty = lv->dirty;
		jr->start.writeback = lv->writeback;
		jr->start.wait_ns = w->ns;
		for (unsigned c = 0; c < p->jobs[i].spec->numjobs; c++) {
			char *info = jr->threads[c].info;
			size_t len = sizeof(jr->threads[c].info);

			file_state(cf, &p->jobs[i], c, st, sizeof(st));
			if (st[0])
				append(info, len, st);
			append(info, len, text);
		}
	}
}
