/*
 * isolate.c - phase isolation between runs (see isolate.h).
 *
 * fsync rather than syncfs: it waits for the writeback of exactly the
 * files the previous phase used, whatever else the machine is writing.
 * Pages are not dropped here: a next job with invalidate=1 drops its
 * file's pages itself when it starts (worker.c), and POSIX_FADV_DONTNEED
 * drops only clean pages, which the fsync has made them; a next job that
 * reads warm on purpose keeps them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/isolate.h"
#include "util/value.h"

static void sync_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;		/* a FIFO gone, a file removed: nothing left */
	if (fsync(fd))
		fprintf(stderr, "memjob: isolate_phases: fsync %s: %m\n",
			path);
	close(fd);
}

bool isolate_after(const struct plan *p, const struct segment *sg)
{
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
				sync_file(path);
		}
	}
	return isolated;
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

void isolate_note(struct results *r, const struct segment *sg,
		  unsigned repeat, const struct dirty_level *lv,
		  bool isolated)
{
	const struct plan *p = r->plan;
	char text[160], d[32], w[32];

	if (!lv->have)
		return;
	snprintf(text, sizeof(text), "started with Dirty %s, Writeback %s%s",
		 value_format_bytes((double)lv->dirty, d, sizeof(d)),
		 value_format_bytes((double)lv->writeback, w, sizeof(w)),
		 isolated ? "" : " (phases not isolated: isolate_phases=0)");
	for (unsigned i = sg->first; i < sg->first + sg->count; i++) {
		struct job_result *jr = results_get(r, i, repeat);

		if (!p->jobs[i].paths)
			continue;
		for (unsigned c = 0; c < p->jobs[i].spec->numjobs; c++)
			append(jr->threads[c].info,
			       sizeof(jr->threads[c].info), text);
	}
}
