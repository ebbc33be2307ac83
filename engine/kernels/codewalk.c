/*
 * kernel_codewalk.c - "codewalk": the instruction cache and VPP-style
 * vectors (seed 001).
 *
 * A pass calls code_size / 64 distinct small functions (the generated
 * footprint of codewalk.h) once each, in a random order fixed by
 * pattern_seed, through a table of pointers.  Each call processes batch
 * items: with batch=1 every item runs through the whole footprint before
 * the next item starts, which is how a program handles one packet at a
 * time; with batch=N each function runs over N items before the next
 * function runs, as VPP runs a vector of packets through one graph node.
 * The instructions per item are the same either way; what changes is how
 * often each function's code must be fetched again once the footprint
 * outgrows the instruction cache: once per item, or once per N items.
 *
 * The items stay the same few (8 bytes each, batch of them), so the data
 * lives in L1d and only the code footprint grows with code_size.  The
 * job's figures: ns per item (what the engine prints) and the number of
 * calls (the result), from which ns per call = elapsed / calls.
 *
 * Batching also lets the CPU overlap the items of one call, which a
 * footprint that fits the cache shows on its own: compare how much the
 * cost rises with code_size at batch=1 and at batch=N, not the costs
 * themselves (jobs/icache-batch.ini explains).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "kernels/codewalk.h"
#include "kernels/kernel.h"
#include "util/clock.h"

/* Look at the clock and the stop flags about every this many items. */
#define CHECK_ITEMS	65536u

size_t codewalk_funcs_for(uint64_t code_size)
{
	uint64_t n = code_size / CODEWALK_FUNC_BYTES;

	return n > codewalk_nfuncs ? codewalk_nfuncs : (size_t)n;
}

uint64_t codewalk_item_start(unsigned i)
{
	return 0x9e3779b97f4a7c15ull * (i + 1);
}

/* splitmix64, as kernel_chase.c shuffles with. */
static uint64_t cw_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The first n functions of the table (the first n * 64 bytes of the
 * footprint), in a Fisher-Yates order drawn from seed. */
static void lay_order(codewalk_fn **order, size_t n, uint64_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = codewalk_table[i];
	for (i = n; i > 1; i--) {
		size_t j = (size_t)(cw_rand(&seed) % i);
		codewalk_fn *t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

static void reset_items(struct codewalk *cw)
{
	for (unsigned i = 0; i < cw->batch; i++)
		cw->items[i].v = codewalk_item_start(i);
}

/* The hot loop: n calls, one indirect call each, nothing else. */
static void walk(codewalk_fn *const *fn, size_t n,
		 struct codewalk_item *items, unsigned batch)
{
	for (size_t i = 0; i < n; i++)
		fn[i](items, batch);
}

static const struct codewalk_opts *opts_of(const struct job_spec *job)
{
	return job_opts(job, &kernel_codewalk_opts);
}

static int codewalk_validate(const struct job_spec *job, struct diag *d)
{
	const struct codewalk_opts *o = opts_of(job);
	uint64_t max = (uint64_t)codewalk_nfuncs * CODEWALK_FUNC_BYTES;

	if (!codewalk_nfuncs) {
		diag_error(d, job_loc(job, "kernel"), "kernel",
			   "kernel=codewalk's generated code exists on x86-64 only");
		return -EINVAL;
	}
	if (o->code_size < CODEWALK_FUNC_BYTES) {
		diag_error(d, job_loc(job, "code_size"), "code_size",
			   "kernel=codewalk needs at least one function (%d bytes), got %llu",
			   CODEWALK_FUNC_BYTES,
			   (unsigned long long)o->code_size);
		return -EINVAL;
	}
	if (o->code_size > max) {
		diag_error(d, job_loc(job, "code_size"), "code_size",
			   "kernel=codewalk has %llu bytes of code (%zu functions of %d bytes), got %llu",
			   (unsigned long long)max, codewalk_nfuncs,
			   CODEWALK_FUNC_BYTES,
			   (unsigned long long)o->code_size);
		return -EINVAL;
	}
	return 0;
}

static void codewalk_fini(struct kstate *k)
{
	struct codewalk *cw = k->priv;

	if (cw) {
		free(cw->order);
		free(cw->items);
		free(cw);
	}
	k->priv = NULL;
	k->priv_len = 0;
}

/*
 * Lays out the pass, then runs it once untimed: the text pages of the
 * footprint are faulted in here, not in the measured run.
 */
static int codewalk_init(struct kstate *k)
{
	const struct job_spec *j = k->job;
	const struct codewalk_opts *o = j ? opts_of(j) : NULL;
	size_t n = o ? codewalk_funcs_for(o->code_size) : 0;
	struct codewalk *cw;
	size_t isize;

	if (!n || !o->batch)
		return -EINVAL;
	cw = calloc(1, sizeof(*cw));
	if (!cw)
		return -ENOMEM;
	k->priv = cw;
	k->priv_len = sizeof(*cw);
	cw->nfuncs = n;
	cw->batch = o->batch;
	cw->order = malloc(n * sizeof(*cw->order));
	isize = ((size_t)o->batch * sizeof(*cw->items) + 63) / 64 * 64;
	cw->items = aligned_alloc(64, isize);
	if (!cw->order || !cw->items) {
		codewalk_fini(k);
		return -ENOMEM;
	}
	lay_order(cw->order, n, j->pattern_seed);
	reset_items(cw);
	walk(cw->order, n, cw->items, cw->batch);
	reset_items(cw);
	k->items = 0;
	k->result = 0;
	return 0;
}

/* The thread's resource use since *ru0, into *out. */
static void rusage_since(const struct rusage *ru0, struct rusage *out)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		memset(out, 0, sizeof(*out));
		return;
	}
	timersub(&ru.ru_utime, &ru0->ru_utime, &out->ru_utime);
	timersub(&ru.ru_stime, &ru0->ru_stime, &out->ru_stime);
	out->ru_minflt = ru.ru_minflt - ru0->ru_minflt;
	out->ru_majflt = ru.ru_majflt - ru0->ru_majflt;
	out->ru_nvcsw = ru.ru_nvcsw - ru0->ru_nvcsw;
	out->ru_nivcsw = ru.ru_nivcsw - ru0->ru_nivcsw;
}

/* Whether to end the run after this chunk of calls. */
static bool should_stop(struct program_run *pr, uint64_t deadline)
{
	if (atomic_load_explicit(pr->stop, memory_order_relaxed) ||
	    (pr->until_zero && !atomic_load_explicit(pr->until_zero,
						     memory_order_relaxed))) {
		pr->stopped = true;
		return true;
	}
	return deadline != UINT64_MAX && mono_ns() >= deadline;
}

/*
 * loops passes, or passes until runtime when time_based; runtime also
 * ends a job of loops passes early.  As an aggressor it runs until the
 * last victim is done.  The clock and the flags are looked at after
 * about CHECK_ITEMS items (across passes when a pass is shorter), never
 * inside the walk.
 */
static int codewalk_program(struct kstate *k, struct program_run *pr)
{
	const struct job_spec *j = k->job;
	struct codewalk *cw = k->priv;
	const bool endless = j->time_based || pr->until_zero;
	uint64_t deadline = UINT64_MAX;
	size_t chunk, n, since = 0;
	struct rusage ru0;

	if (!cw) {
		snprintf(pr->err, sizeof(pr->err), "kernel=codewalk: no state");
		return -1;
	}
	chunk = cw->batch >= CHECK_ITEMS ? 1 : CHECK_ITEMS / cw->batch;
	if (getrusage(RUSAGE_THREAD, &ru0)) {
		snprintf(pr->err, sizeof(pr->err), "getrusage: %s",
			 strerror(errno));
		return -1;
	}
	if (j->runtime_us)
		deadline = mono_ns() + j->runtime_us * 1000;
	for (uint64_t pass = 0; endless || pass < j->loops; pass++) {
		for (size_t i = 0; i < cw->nfuncs; i += n) {
			n = cw->nfuncs - i < chunk ? cw->nfuncs - i : chunk;
			walk(cw->order + i, n, cw->items, cw->batch);
			k->result += n;
			k->items += (uint64_t)n * cw->batch;
			since += n;
			if (since < chunk)
				continue;
			since = 0;
			if (should_stop(pr, deadline))
				goto out;
		}
	}
out:
	rusage_since(&ru0, &pr->ru);
	return 0;
}


#define F(field)	offsetof(struct codewalk_opts, field)

static const struct opt_def codewalk_opt_table[] = {
	{ .name = "code_size", .type = OPT_SIZE, .cat = CAT_KERNEL,
	  .off = F(code_size), .def = "256k", .min = 64, .max = 1ULL << 30,
	  .arg = "SIZE", .after = "stride",
	  .help = "kernel=codewalk: bytes of generated code one pass runs "
		  "through, rounded down to whole functions of 64 bytes (one "
		  "cache line each) and at most the 4 MiB that were generated. "
		  "Set it below, around and beyond the instruction cache and "
		  "L2 (see memjob --topology)." },
	{ .name = "batch", .type = OPT_UINT, .cat = CAT_KERNEL,
	  .off = F(batch), .width = sizeof(unsigned), .def = "1", .min = 1,
	  .max = 65536, .arg = "INT",
	  .help = "kernel=codewalk: items each function processes before "
		  "the next function runs, as VPP runs a vector of packets "
		  "through each graph node.  1 runs every item through the "
		  "whole code before the next; N fetches each function's code "
		  "once per N items.  The items are 8 bytes each and stay in "
		  "L1d up to a few thousand." },
};

const struct opt_group kernel_codewalk_opts =
	OPT_GROUP("codewalk", codewalk_opt_table, struct codewalk_opts);

const struct kernel_ops kernel_codewalk_ops = {
	.opts = &kernel_codewalk_opts,
	.name = "codewalk",
	.help = "call code_size bytes of generated functions in a random "
		"order, batch items per call (seed 001): ns per item; the "
		"result is the number of calls; ioengine=none",
	.result_name = "calls",
	.item_name = "item",
	.flags = KERN_PROGRAM | KERN_ITEMS | KERN_RESULT | KERN_NO_GBPS,
	.footprint_opt = "code_size",
	.footprint_cache = 'i',
	.per_call_opt = "batch",
	.validate = codewalk_validate,
	.init = codewalk_init,
	.run = kernel_run_nothing,
	.fini = codewalk_fini,
	.program = codewalk_program,
};
