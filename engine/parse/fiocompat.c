/*
 * fiocompat.c - fio's words, with fio's meaning, in memjob's terms.
 *
 * The option table stores fio's words in fields of their own; this file
 * folds each into the memjob option that has the concept (filesize is
 * size, bsrange=4k-4k is bs, buffered=0 is direct=1, rwmixwrite is 100 -
 * rwmixread), and refuses, with the reason, a value that asks for what
 * memjob does not do.  Nothing a fio job file says is dropped silently:
 * the words that change nothing are named once per run (fio_notes).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <unistd.h>

#include "parse/fiocompat.h"
#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "spec/options.h"
#include "parse/optspace.h"
#include "util/sysfile.h"

/* Set by the job itself or by its [global] (not the built-in default). */
static bool given(const struct job_spec *j, const char *opt)
{
	return job_isset(j, opt);
}

/* A fixed block size from bsrange or bssplit: bs, unless bs disagrees. */
static void fixed_bs(struct job_spec *j, const char *opt, uint64_t bs,
		     struct diag *d)
{
	if (!bs)
		return;
	if (given(j, "bs") && j->bs != bs && !j->inherited[opt_index("bs")])
		diag_error(d, job_loc(j, opt), opt, "gives blocks of %llu "
			   "bytes, but bs=%llu: set one of them",
			   (unsigned long long)bs, (unsigned long long)j->bs);
	else
		j->bs = bs;
}

/* The active scheduler of the block device holding path: "[mq-deadline]
 * none" gives mq-deadline.  0, or -1 with why. */
static int device_scheduler(const char *path, char *sched, size_t len,
			    char *why, size_t wlen)
{
	struct stat st;
	char file[256], text[256], *open_b, *close_b;
	unsigned ma, mi;

	if (stat(path, &st)) {
		snprintf(why, wlen, "cannot find the device of %.300s: %m", path);
		return -1;
	}
	ma = major(st.st_dev);
	mi = minor(st.st_dev);
	snprintf(file, sizeof(file), "/sys/dev/block/%u:%u/queue/scheduler",
		 ma, mi);
	if (sysfile_text(file, text, sizeof(text))) {
		/* a partition: its disk's queue */
		snprintf(file, sizeof(file),
			 "/sys/dev/block/%u:%u/../queue/scheduler", ma, mi);
		if (sysfile_text(file, text, sizeof(text))) {
			snprintf(why, wlen, "%.300s is on device %u:%u, which has "
				 "no I/O scheduler (not a block device: tmpfs, "
				 "overlay, a network file system?)", path, ma,
				 mi);
			return -1;
		}
	}
	open_b = strchr(text, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (close_b)
		*close_b = '\0';
	snprintf(sched, len, "%.63s", close_b ? open_b + 1 : text);
	return 0;
}

static void check_scheduler(const struct job_spec *j, struct diag *d)
{
	char path[1024], sched[64], why[512];

	if (!j->ioscheduler)
		return;
	if (j->filename && j->filename[0] != '/')
		snprintf(path, sizeof(path), "%s/%s", j->directory ?
			 j->directory : ".", j->filename);
	else
		snprintf(path, sizeof(path), "%s", j->filename ? j->filename :
			 j->directory ? j->directory : ".");
	/* the file may be made later: its directory's device then */
	if (access(path, F_OK) && j->filename) {
		char *slash = strrchr(path, '/');

		if (slash)
			*slash = '\0';
	}
	if (device_scheduler(path, sched, sizeof(sched), why, sizeof(why))) {
		diag_error(d, job_loc(j, "ioscheduler"), "ioscheduler", "%s",
			   why);
		return;
	}
	if (strcmp(sched, j->ioscheduler))
		diag_error(d, job_loc(j, "ioscheduler"), "ioscheduler", "the "
			   "device of %.300s uses the %s scheduler; memjob does not "
			   "change the machine's settings: set it as root "
			   "(echo %s > /sys/block/DEVICE/queue/scheduler) or "
			   "leave ioscheduler out", path, sched, j->ioscheduler);
}

void fio_resolve(struct job_spec *j, struct diag *d)
{
	if (given(j, "filesize")) {
		if (given(j, "size") && (j->size_expr ||
					 j->size != j->filesize))
			diag_error(d, job_loc(j, "filesize"), "filesize",
				   "memjob's job has one file of size bytes "
				   "per clone: filesize=%llu and size must "
				   "agree (or set one of them)",
				   (unsigned long long)j->filesize);
		else
			j->size = j->filesize;
	}
	fixed_bs(j, "bsrange", j->bsrange_bs, d);
	fixed_bs(j, "bssplit", j->bssplit_bs, d);
	if (given(j, "rwmixwrite")) {
		if (!RW_IS_MIXED(j->rw) &&
		    !j->inherited[opt_index("rwmixwrite")])
			diag_error(d, job_loc(j, "rwmixwrite"), "rwmixwrite",
				   "applies to rw=rw or randrw; this job has "
				   "rw=%s", opt_find("rw")->words[j->rw]);
		else if (given(j, "rwmixread") &&
		    j->rwmixread + j->rwmixwrite != 100)
			diag_error(d, job_loc(j, "rwmixwrite"), "rwmixwrite",
				   "rwmixread=%u and rwmixwrite=%u do not add "
				   "up to 100: set one of them", j->rwmixread,
				   j->rwmixwrite);
		else
			j->rwmixread = 100 - j->rwmixwrite;
	}
	if (given(j, "buffered")) {
		if (given(j, "direct") && j->direct == j->buffered)
			diag_error(d, job_loc(j, "buffered"), "buffered",
				   "buffered=%d and direct=%d disagree: set "
				   "one of them", j->buffered, j->direct);
		else
			j->direct = !j->buffered;
	}
	if (j->direct && j->rw_skip % IOE_DIRECT_ALIGN)
		diag_error(d, job_loc(j, "rw"), "rw", "direct=1 needs blocks "
			   "at multiples of %d, and rw=...:%llu skips to "
			   "others", IOE_DIRECT_ALIGN,
			   (unsigned long long)j->rw_skip);
	if (j->rate && j->rate_iops)
		diag_error(d, job_loc(j, "rate_iops"), "rate_iops", "limits "
			   "blocks per second, and rate bytes: set one of them");
	if (j->unit_base == 2)		/* "8" */
		diag_error(d, job_loc(j, "unit_base"), "unit_base", "memjob "
			   "reports bytes (GB/s, bytes); bits (8) are not "
			   "offered");
	if (j->kb_base == 1)		/* "1000" */
		diag_error(d, job_loc(j, "kb_base"), "kb_base", "memjob's k, "
			   "m and g are powers of 1024 everywhere; write "
			   "decimal sizes as plain numbers (size=1000000)");
	if (j->io_submit_mode == 1)	/* "offload" */
		diag_error(d, job_loc(j, "io_submit_mode"), "io_submit_mode",
			   "memjob's job threads submit their own I/O "
			   "(inline); offload is not supported");
	check_scheduler(j, d);
}

/* Set by the job, its [global] or a sweep: not left to a default. */
static bool chosen(const struct job_spec *j, const char *opt)
{
	return job_isset(j, opt) || job_swept(j, opt);
}

void fio_defaults(struct job_spec *j)
{
	const struct ioengine_ops *e;

	if (!j->fio_file)
		return;
	/* fio has no memory of its own to run in: every job does I/O on
	 * its files, psync unless it says otherwise */
	if (!chosen(j, "ioengine") && !j->sweeps_owner[0])
		j->ioengine = ioengine_default_for(IOE_DEFAULT_FILES);
	e = j->ioengine;
	if (!chosen(j, "bs"))
		j->bs = FIO_DEFAULT_BS;
	/* fio drops the file's cached pages before the job, unless it
	 * preads them (pre_read) */
	if (((e->flags & IOE_FILE) || j->filename) &&
	    !chosen(j, "invalidate") && !j->preread)
		j->invalidate = true;
	if (!chosen(j, "fadvise_hint") && ioe_honours(e, "fadvise_hint"))
		j->fadvise_hint = FADVISE_BY_RW;
	/* fio submits each I/O as soon as it has it */
	if (!chosen(j, "iodepth_batch_submit") &&
	    ioe_honours(e, "iodepth_batch_submit"))
		j->iodepth_batch_submit = 1;
}

static bool listed(const char *const *list, const char *n)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(list[i], n))
			return true;
	return false;
}

/* Options that only some data sources or kernels use (their own, and
 * those they list). */
static bool owned(const char *n)
{
	const struct opt_def *o = opt_find(n);

	if (o && o->group)
		return true;
	for (size_t i = 0; ioengine_registry[i]; i++)
		if (listed(ioengine_registry[i]->options, n))
			return true;
	for (size_t i = 0; kernel_registry[i]; i++)
		if (listed(kernel_registry[i]->options, n))
			return true;
	return false;
}

/* Whether a [global] option applies to job j (which inherited it). */
static bool applies(const struct job_spec *j, const struct opt_def *o)
{
	const char *n = o->name;

	if (!strcmp(n, "rwmixread") || !strcmp(n, "rwmixwrite"))
		return RW_IS_MIXED(j->rw);
	if (!strcmp(n, "fsync") || !strcmp(n, "fdatasync") ||
	    !strcmp(n, "end_fsync"))
		return RW_WRITES(j->rw);
	if (!strcmp(n, "norandommap") || !strcmp(n, "randrepeat"))
		return RW_IS_RANDOM(j->rw);
	return !owned(n) || listed(j->ioengine->options, n) ||
	       listed(j->kernel->options, n) ||
	       opt_group_has(j->ioengine->opts, n) ||
	       opt_group_has(j->kernel->opts, n);
}

void fio_notes(const struct jobset *js, struct diag *d)
{
	char list[1024];
	size_t n = 0;

	list[0] = '\0';
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *o = &opt_table[i];
		const struct job_spec *by = NULL;
		bool used = false;

		for (size_t k = 0; k < js->njobs; k++) {
			const struct job_spec *j = &js->jobs[k];

			if (!j->isset[i])
				continue;
			if (!by)
				by = j;
			if (!j->inherited[i] || applies(j, o))
				used = true;
		}
		if (!by)
			continue;
		/* fio too names each job after its section */
		if (((o->flags & OPTF_NOOP) || (!strcmp(o->name, "name") &&
						by->inherited[i])) &&
		    n < sizeof(list)) {
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%s%s (%s:%d)", n ? ", " : "",
					      o->name, o->off ? "" : " in [global]",
					      by->locs[i].file,
					      by->locs[i].line);
		} else if (!used) {
			diag_warn(d, &by->locs[i], o->name, "set in [global] "
				  "but applies to no job of this run");
		}
	}
	if (n)
		fprintf(d->out, "memjob: note: fio options accepted that "
			"change nothing in memjob (see memjob(1), FIO "
			"COMPATIBILITY): %s\n", list);
}
