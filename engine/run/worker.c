/*
 * worker.c - one clone of one job, in its own thread.
 *
 * Setup (binding, memory policy, the file's page cache: prepare.c; then
 * the data source and the kernel) is done before the group's barrier;
 * after it, the thread moves blocks from the data source through the
 * kernel until its passes, its runtime or the stop flag end it.  Clock
 * and stop checks happen per batch of blocks, never per byte.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "run/busguard.h"
#include "run/deadline.h"
#include "run/files.h"
#include "machine/counters.h"
#include "machine/hostnoise.h"
#include "run/pace.h"
#include "run/prepare.h"
#include "run/worker.h"
#include "run/firsttouch.h"
#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "util/value.h"
#include "util/clock.h"

#define CHECK_BYTES	(1u << 20)	/* look at the clock every ~1 MiB */

/* A failure the data source or the program has already described (in
 * io->err, pr.err): the thread's result carries that text.  Returns -1. */
static int fail_as(struct thread_result *out, const char *why)
{
	out->status = RUN_FAILED;
	snprintf(out->err, sizeof(out->err), "%s", why);
	return -1;
}

/* The data source's setup or fill failed with ret (described in
 * io->err): interrupted where a stop woke it (a blocking open()),
 * failed otherwise. */
static void source_failed(struct thread_result *out, const struct ioe *io,
			  int ret, atomic_int *stop)
{
	fail_as(out, io->err);
	if (ret == -EINTR && atomic_load(stop))
		out->status = RUN_INTERRUPTED;
}

/* A SIGBUS in the job's mapped region (busguard.h): the job's error. */
static int fail_bus(struct thread_result *out)
{
	out->status = RUN_FAILED;
	busguard_describe(out->err, sizeof(out->err));
	return -1;
}

/* The job's source_info: what the source says, then the preread's, then
 * extra: the kernel's variant and where the first touch went (or ""). */
static void tell_info(struct thread_result *out, const struct ioe *io,
		      bool pre, uint64_t pre_bytes, uint64_t pre_ns,
		      const char *extra)
{
	char size[32];

	if (pre)	/* sizes in binary units, as everywhere in the report */
		snprintf(out->info, sizeof(out->info),
			 "%s%spreread %s in %.3f s%s%s",
			 io->info, io->info[0] ? "; " : "",
			 value_format_bytes((double)pre_bytes, size,
					    sizeof(size)),
			 (double)pre_ns / 1e9, extra[0] ? "; " : "", extra);
	else
		snprintf(out->info, sizeof(out->info), "%s%s%s", io->info,
			 io->info[0] && extra[0] ? "; " : "", extra);
}

/* The code the kernel runs ("count/unrolled: avx2") into extra, for
 * source_info; nothing when the kernel has no choice to tell. */
static void tell_variant(const struct job_spec *j, const struct kstate *ks,
			 char *extra, size_t len)
{
	const struct kernel_ops *k = j->kernel;
	const char *v = k->variant ? k->variant(ks) : NULL;

	if (v)
		snprintf(extra, len, "%s%s%s: %s", k->name,
			 k->impls ? "/" : "", k->impls ? k->impls[ks->impl] : "",
			 v);
}

struct meter {
	uint64_t t0;
	struct rusage ru0;
	struct ioe *io;			/* its I/O threads' CPU time, or NULL */
	uint64_t (*io_cpu)(struct ioe *io);
	uint64_t io_cpu0;
	uint64_t bytes0, ops0, items0, stored0;
	const struct kstate *ks;
	struct counters *ctr;		/* perf counters, or NULL */
};

/* The run-queue wait since the thread began its passes (hostnoise.h):
 * read again, outside the measured window, and kept only if both reads
 * worked. */
static void wait_end(const char *root, struct thread_result *out)
{
	uint64_t w1;

	if (!out->have_wait || hostnoise_thread_wait(root, &w1) ||
	    w1 < out->wait_ns) {
		out->have_wait = false;
		return;
	}
	out->wait_ns = w1 - out->wait_ns;
	out->wait_span_ns = mono_ns() - out->wait_span_ns;
}

static void meter_start(struct meter *m, uint64_t bytes, uint64_t ops,
			struct thread_result *out)
{
	getrusage(RUSAGE_THREAD, &m->ru0);
	if (m->io)
		m->io_cpu0 = m->io_cpu(m->io);
	m->t0 = mono_ns();
	m->bytes0 = bytes;
	m->ops0 = ops;
	m->items0 = m->ks->items;
	m->stored0 = m->ks->stored;
	if (out->lat)		/* the ramp's latencies are left out too */
		hist_init(out->lat);
	if (m->ctr)		/* last: inside the getrusage window */
		counters_start(m->ctr);
}

static void meter_stop(const struct meter *m, uint64_t bytes, uint64_t ops,
		       struct thread_result *out)
{
	struct rusage ru;

	if (m->ctr) {		/* first: inside the getrusage window */
		counters_stop(m->ctr);
		counters_read(m->ctr, out->counters, &out->ncounters);
	}
	out->end_ns = mono_ns();
	getrusage(RUSAGE_THREAD, &ru);
	if (m->io)
		out->io_cpu_ns = m->io_cpu(m->io) - m->io_cpu0;
	out->start_ns = m->t0;
	out->bytes = bytes - m->bytes0;
	out->ops = ops - m->ops0;
	out->items = m->ks->items - m->items0;
	out->usr_ns = timeval_ns(&ru.ru_utime) - timeval_ns(&m->ru0.ru_utime);
	out->sys_ns = timeval_ns(&ru.ru_stime) - timeval_ns(&m->ru0.ru_stime);
	out->minflt = (uint64_t)(ru.ru_minflt - m->ru0.ru_minflt);
	out->majflt = (uint64_t)(ru.ru_majflt - m->ru0.ru_majflt);
	out->vcsw = (uint64_t)(ru.ru_nvcsw - m->ru0.ru_nvcsw);
	out->ivcsw = (uint64_t)(ru.ru_nivcsw - m->ru0.ru_nivcsw);
}

/* fsync=/fdatasync=/end_fsync=: complete what is in flight, then sync. */
static int sync_now(const struct ioengine_ops *e, struct ioe *io,
		    bool data_only, struct thread_result *out)
{
	if ((e->drain && e->drain(io) < 0) || e->sync(io, data_only) < 0)
		return fail_as(out, io->err);
	return 0;
}

/* Whether a source gave up at the job's deadline (-ETIME): the pass ends
 * there, as runtime= says, and is no failure. */
static bool at_deadline(const struct ioe *io, int r)
{
	return r == -ETIME && ioe_past_deadline(io);
}

/* The deadline is known (the ramp over): the source's waits end there,
 * and from then the thread is woken from any wait (deadline.h). */
static void set_deadline(struct ioe *io, struct deadline *dl, uint64_t ns)
{
	io->deadline_ns = ns;
	deadline_arm(dl, ns);
}

/* The measured loop.  Returns 0, or -1 after recording a failure.
 * An aggressor running with victims ignores its loops and runtime: it
 * runs until the last victim is done (victims_left reaches 0). */
static int run_passes(const struct worker *w, const struct ioengine_ops *e,
		      struct ioe *io, struct kstate *ks, atomic_int *stop,
		      atomic_uint *victims_left, struct counters *ctr,
		      struct thread_result *out)
{
	const struct job_spec *j = w->pj->spec;
	const struct kernel_ops *k = j->kernel;
	/* a calibration of rate=N%: alone, unlimited, for its own time */
	const bool cal = w->calibrate_ns > 0;
	const bool until_victims = !cal && j->phase == PHASE_LOADED &&
				   j->role == ROLE_AGGRESSOR;
	const uint64_t ramp_us = cal ? w->ramp_ns / 1000 : j->ramp_us;
	const uint64_t runtime_us = cal ? w->calibrate_ns / 1000 :
				    j->runtime_us;
	const bool paced = !cal && (w->rate || j->rate_iops);
	const bool timed = runtime_us || ramp_us || until_victims;
	const bool endless = cal || j->time_based || until_victims;
	uint64_t rate_t0 = mono_ns();
	uint64_t every = j->bs >= CHECK_BYTES ? 1 : CHECK_BYTES / j->bs;
	uint64_t bytes = 0, ops = 0, countdown = every, wbytes = 0;
	uint64_t ramp_end = 0, deadline = UINT64_MAX;
	uint64_t win_t0 = rate_t0, win_bytes = 0;	/* ratemin's second */
	bool ramping = ramp_us > 0;
	struct meter m = { .ks = ks, .ctr = ctr,
			   .io = e->io_threads_cpu_ns ? io : NULL,
			   .io_cpu = e->io_threads_cpu_ns };
	struct io_unit u = { 0 };
	struct deadline dl = { .made = false };
	int ret = 0;

	meter_start(&m, 0, 0, out);
	if (ramping)
		ramp_end = m.t0 + ramp_us * 1000;
	else if (runtime_us)
		set_deadline(io, &dl, deadline = m.t0 + runtime_us * 1000);

	for (uint64_t pass = 0; endless || pass < j->loops; pass++) {
		uint64_t pass_bytes = bytes;

		/* between passes too: a pass may deliver nothing at all */
		if (pass && atomic_load_explicit(stop, memory_order_relaxed))
			goto stopped;
		if (pass && timed && !ramping && mono_ns() >= deadline)
			goto early;
		blockgen_rewind(io->gen);
		for (;;) {
			int r = e->get(io, &u);

			if (r == 0)
				break;
			/* a source waiting for I/O gave up: the stop flag */
			if (r == -EINTR && atomic_load(stop))
				goto stopped;
			if (at_deadline(io, r))
				goto early;
			if (r < 0) {
				ret = fail_as(out, io->err);
				goto out;
			}
			/* for a write, the kernel runs before the block is
			 * written, so a storing kernel makes the data */
			k->run(ks, u.buf, u.len);
			r = e->put(io, &u);
			if (r == -EINTR && atomic_load(stop))
				goto stopped;
			if (at_deadline(io, r))
				goto early;
			if (busguard_tripped()) {	/* in the kernel or put() */
				ret = fail_bus(out);
				goto out;
			}
			if (r < 0) {
				ret = fail_as(out, io->err);
				goto out;
			}
			bytes += u.len;
			wbytes += u.write ? u.len : 0;
			ops++;
			if ((j->fsync_every && ops % j->fsync_every == 0 &&
			     sync_now(e, io, false, out)) ||
			    (j->fdatasync_every &&
			     ops % j->fdatasync_every == 0 &&
			     sync_now(e, io, true, out))) {
				ret = -1;
				goto out;
			}
			if (atomic_load_explicit(stop, memory_order_relaxed))
				goto stopped;
			/* a nap up to the deadline or the ramp's end: the
			 * clock is looked at right after it */
			if (paced &&
			    pace_keep_rate(j, w->rate, rate_t0, bytes, ops,
					   ramping ? ramp_end : deadline, stop,
					   until_victims ? victims_left : NULL))
				countdown = 1;
			/* an aggressor stops with the last victim, however
			 * slowly it moves (rate=) */
			if (until_victims && !atomic_load_explicit(victims_left,
					memory_order_relaxed))
				goto early;
			if (--countdown)
				continue;
			countdown = every;
			atomic_store_explicit(&out->live_bytes, bytes,
					      memory_order_relaxed);
			if (j->ratemin && !ramping && !cal) {
				uint64_t now = mono_ns();

				if (now - win_t0 >= 1000000000ull) {
					if (pace_below_ratemin(j,
							bytes - win_bytes,
							now - win_t0, out)) {
						ret = -1;
						goto out;
					}
					win_t0 = now;
					win_bytes = bytes;
				}
			}
			if (!timed)
				continue;
			uint64_t t = mono_ns();

			if (ramping && t >= ramp_end) {
				ramping = false;
				meter_start(&m, bytes, ops, out);
				win_t0 = t;
				win_bytes = bytes;
				if (runtime_us)
					set_deadline(io, &dl, deadline = m.t0 +
						     runtime_us * 1000);
			} else if (t >= deadline) {
				goto early;
			}
		}
		/* A stream that ended has nothing more for any pass. */
		if (endless && bytes == pass_bytes)
			break;
	}
	goto finish;
stopped:
	out->status = RUN_INTERRUPTED;
early:
	/* what is in flight is waited for, a second at most past the
	 * deadline (ioe_drain_overdue) */
	if (e->drain && e->drain(io) < 0) {
		ret = fail_as(out, io->err);
		goto out;
	}
finish:
	/* inside the measured time: getting the data to the device */
	if (j->end_fsync && out->status != RUN_INTERRUPTED &&
	    sync_now(e, io, false, out))
		ret = -1;
out:
	deadline_disarm(&dl);
	io->deadline_ns = 0;
	meter_stop(&m, bytes, ops, out);
	out->write_bytes = RW_IS_WRITE(j->rw) ? out->bytes :
			   RW_IS_MIXED(j->rw) ? wbytes : 0;
	/* what a kernel wrote into blocks it was given to read (rwmix) */
	out->write_bytes += ks->stored - m.stored0;
	if (ramping && out->status == RUN_OK) {
		/* Stopped before the ramp ended: nothing was measured. */
		out->bytes = out->ops = out->items = 0;
	} else if (out->status == RUN_OK && !until_victims && !cal &&
		   pace_below_ratemin(j, out->bytes,
				      out->end_ns - out->start_ns, out)) {
		ret = -1;
	}
	return ret;
}

/* A program kernel runs the whole job; its figures are the program's. */
static void run_program(const struct job_spec *j, struct kstate *ks,
			atomic_int *stop, atomic_uint *victims_left,
			struct counters *ctr, const struct counter_list *ev,
			struct thread_result *out)
{
	struct program_run pr = { .stop = stop, .counters = out->counters };

	if (j->phase == PHASE_LOADED && j->role == ROLE_AGGRESSOR)
		pr.until_zero = victims_left;
	out->start_ns = mono_ns();
	if (ctr)		/* an in-thread program (codewalk) */
		counters_start(ctr);
	if (j->kernel->flags & KERN_SUBPROCESS) {	/* counted by program() */
		pr.ctr_ids = ev->ids;
		pr.nctr_ids = ev->n;
	}
	if (j->kernel->program(ks, &pr))
		fail_as(out, pr.err);
	else if (pr.stopped && atomic_load(stop)) {
		out->status = RUN_INTERRUPTED;
	}
	out->cut_short = pr.cut_short;
	if (ctr) {
		counters_stop(ctr);
		counters_read(ctr, out->counters, &out->ncounters);
	} else {
		out->ncounters = pr.ncounters;
	}
	out->end_ns = mono_ns();
	out->ops = 1;
	out->items = ks->items;		/* codewalk counts them */
	out->usr_ns = timeval_ns(&pr.ru.ru_utime);
	out->sys_ns = timeval_ns(&pr.ru.ru_stime);
	out->minflt = (uint64_t)pr.ru.ru_minflt;
	out->majflt = (uint64_t)pr.ru.ru_majflt;
	out->vcsw = (uint64_t)pr.ru.ru_nvcsw;
	out->ivcsw = (uint64_t)pr.ru.ru_nivcsw;
}

/* The file memjob made for this clone, if it did: the source opens it
 * only as that file.  A file lost since (not made again, or replaced by
 * another process) fails the clone with why. */
static int made_file(const struct worker *w, struct ioe *io)
{
	const struct created_file *cf = files_made(w->sh->files, io->path);

	if (!cf)
		return 0;
	if (cf->lost || cf->gone)
		return fail_as(w->out, cf->lost ? cf->lost :
			       "the file memjob made for the job is gone");
	io->made = &cf->st;
	return 0;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct planned_job *pj = w->pj;
	const struct job_spec *j = pj->spec;
	const struct ioengine_ops *e = j->ioengine;
	struct thread_result *out = w->out;
	atomic_int *stop = shared_stop(w->sh);
	struct blockgen gen;
	struct ioe io = { 0 };
	struct kstate ks = { 0 };
	struct bus_guard bus;
	bool io_up = false, k_up = false;
	struct counters *ctr = NULL;
	struct counter_list ev = { .n = 0 };
	uint64_t pre_bytes = 0, pre_ns = 0;
	bool pre = false;
	char extra[240] = "";	/* variant, first touch */
	int ret;

	out->status = RUN_OK;
	io.job = j;
	io.path = pj->paths ? pj->paths[w->clone] : NULL;
	io.clone = w->clone;
	io.gen = &gen;
	io.stop = stop;
	/* randrepeat=0: a new random order each run */
	blockgen_init(&gen, j->offset, pj->size, j->bs, RW_IS_RANDOM(j->rw),
		      (j->pattern_seed * 0x9e3779b97f4a7c15ull + w->clone) ^
		      (j->randrepeat ? 0 : mono_ns()));
	if (RW_IS_MIXED(j->rw))
		blockgen_set_mix(&gen, j->rwmixread);
	if (j->rw_skip || j->rw_run || (j->norandommap && RW_IS_RANDOM(j->rw)))
		blockgen_set_fio(&gen, j->rw_skip, j->rw_run, j->norandommap);
	ks.job = j;
	ks.impl = pj->impl;
	ks.value = j->value;
	ks.clone = w->clone;
	ks.shared = w->sh->sync[j->index].kernel_shared;
	if (j->latency) {
		out->lat = malloc(sizeof(*out->lat));
		if (!out->lat) {
			thread_fail(out, "latency histogram%s: %s", "", ENOMEM);
			goto setup_done;
		}
		hist_init(out->lat);
		io.lat = out->lat;
	}

	if (prepare_cpus(pj, w->clone, out) || prepare_mempolicy(j, out))
		goto setup_done;
	/* after binding, so the counters follow the thread where it runs;
	 * a program in another process (kernel=exec) counts itself, and
	 * perf_events=none makes no perf_event_open call */
	if (!j->perf_none) {
		ev = j->perf;
		if (!ev.n)
			ev.n = counters_default(ev.ids);
	}
	if (!(j->kernel->flags & KERN_SUBPROCESS) && ev.n) {
		ctr = counters_open(ev.ids, ev.n);
		if (!ctr) {
			thread_fail(out, "perf counters%s: %s", "", ENOMEM);
			goto setup_done;
		}
	}
	if (made_file(w, &io))
		goto setup_done;
	if (j->invalidate && io.path &&
	    prepare_invalidate(io.path, io.made, out))
		goto setup_done;
	pre = j->preread && prepare_first_on_file(pj, w->clone);
	if (pre && prepare_preread(io.path, io.made, j->offset, pj->size,
				   &pre_bytes, &pre_ns, out))
		goto setup_done;
	ret = e->setup(&io);
	if (ret < 0) {
		source_failed(out, &io, ret, stop);
		goto setup_done;
	}
	io_up = true;
	if (e->fill) {
		first_touch_fresh(j, &io, &out->touch);
		ret = e->fill(&io);
		if (ret < 0) {
			source_failed(out, &io, ret, stop);
			goto setup_done;
		}
	}
	if (io.region)
		busguard_arm(&bus, io.region, io.region_len,
			     e->flags & IOE_FILE ? io.path : NULL, j->offset);
	out->emulated = io.emulated;
	tell_info(out, &io, pre, pre_bytes, pre_ns, extra);
	if (j->kernel->init) {
		ret = j->kernel->init(&ks);
		if (ret < 0) {
			thread_fail(out, "kernel %s: %s", j->kernel->name, -ret);
			goto setup_done;
		}
	}
	k_up = true;
	tell_variant(j, &ks, extra, sizeof(extra));
	if (j->kernel->flags & KERN_REGION) {
		if (!io.region) {
			out->status = RUN_FAILED;
			snprintf(out->err, sizeof(out->err), "kernel=%s needs "
				 "a mapped data source (such as ioengine=mem)",
				 j->kernel->name);
			goto setup_done;
		}
		ret = j->kernel->prepare(&ks, io.region, io.region_len);
		if (ret < 0) {
			thread_fail(out, "kernel %s: prepare: %s", j->kernel->name,
			     -ret);
			goto setup_done;
		}
	}
	if (io.region)
		first_touch_region(j, &io, e->fill != NULL, extra,
				   sizeof(extra), &out->touch);
	tell_info(out, &io, pre, pre_bytes, pre_ns, extra);
setup_done:
	if (out->status == RUN_OK && busguard_tripped())
		fail_bus(out);		/* a kernel's prepare() touched it */
	shared_barrier_wait(w->sh);
	if (out->status != RUN_OK)
		goto out;
	job_sync_wait(w->sh, pj->wait_for);
	/* an aggressor's startdelay ends with its victims, as it would */
	if (j->startdelay_us && !w->calibrate_ns)
		pace_nap(stop, j->phase == PHASE_LOADED &&
			 j->role == ROLE_AGGRESSOR ?
			 shared_victims_left(w->sh) : NULL, j->startdelay_us);
	if (atomic_load(stop)) {
		out->status = RUN_INTERRUPTED;
		goto out;
	}
	out->have_wait = !hostnoise_thread_wait(w->sh->root, &out->wait_ns);
	out->wait_span_ns = mono_ns();
	if (j->kernel->flags & KERN_PROGRAM)
		run_program(j, &ks, stop, shared_victims_left(w->sh), ctr,
			    &ev, out);
	else
		run_passes(w, e, &io, &ks, stop, shared_victims_left(w->sh),
			   ctr, out);
	wait_end(w->sh->root, out);
	out->result = ks.result;
	/* what the source saw while running, after what it chose at setup */
	tell_info(out, &io, pre, pre_bytes, pre_ns, extra);
out:
	if (k_up && j->kernel->fini)
		j->kernel->fini(&ks);
	busguard_disarm();
	if (io_up && e->teardown)
		e->teardown(&io);
	if (ctr)
		counters_close(ctr);
	job_sync_done(w->sh, j->index);
	if (j->phase == PHASE_LOADED && j->role == ROLE_VICTIM)
		atomic_fetch_sub(shared_victims_left(w->sh), 1);
	return NULL;
}
