/*
 * touch.c - "touch": one access every touch_stride bytes of each block, in
 * address order, the loop of seed 000's own cache experiment (sequential
 * stride-64 stores over a working set, timed in ns per access).
 *
 * Where kernel=chase makes every load wait for the one before (the
 * latency of a level), touch's accesses are independent: the CPU overlaps
 * them and the prefetchers see the stride, so the curve against the
 * working set is the cost of streaming through each level, a few times
 * lower than the chase's and with softer steps.  The two set side by
 * side are what the author's figures (0.3-4 ns) and memjob's cache sweep
 * (1-230 ns) each measure.
 *
 *   touch_op=store  writes the byte 0 at each access (the author's
 *                   `*p = 0`): the line is read for ownership, then
 *                   written back when evicted.
 *   touch_op=load   reads the byte and adds it into a sum, so the loads
 *                   cannot be dropped (the sum is the kernel's own check,
 *                   not reported: see the unit test).
 *
 * The accesses go through a volatile pointer: one byte access per stride,
 * never merged, vectorised or hoisted out of the repeats below.
 *
 * A block that is the job's whole working set (bs >= size: one block per
 * pass) and holds fewer than TOUCH_MIN accesses is walked several times
 * per call, as if the engine had made that many passes: the engine spends
 * tens of ns on each block, which would be most of the time of a 4 KiB
 * walk at 0.3 ns per access.  A block smaller than the working set is
 * walked once, so that the reuse distance stays the working set.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ioengines/ioengine.h"
#include "kernels/kernel.h"

enum touch_op { TOUCH_STORE, TOUCH_LOAD };

struct touch_opts {
	uint64_t touch_stride;		/* bytes between accesses */
	enum touch_op touch_op;
};

/* Accesses below which a one-block pass is walked several times. */
#define TOUCH_MIN	16384

struct touch {
	size_t stride;
	enum touch_op op;
	uint64_t whole;			/* the job's size: a block this long is
					   the whole working set (0: unknown) */
};

static const char *const op_words[] = { "store", "load", NULL };

#define F(field)	offsetof(struct touch_opts, field)

static const struct opt_def touch_opt_table[] = {
	{ .name = "touch_stride", .type = OPT_SIZE, .cat = CAT_KERNEL,
	  .off = F(touch_stride), .def = "64", .min = 1, .max = 1ULL << 30,
	  .arg = "SIZE",
	  .help = "kernel=touch: bytes between its accesses (one per cache "
		  "line by default).  At most the block (bs, or size where "
		  "smaller), and bs must be a multiple of it when a pass has "
		  "several blocks." },
	{ .name = "touch_op", .type = OPT_ENUM, .cat = CAT_KERNEL,
	  .off = F(touch_op), .def = "store", .words = op_words,
	  .arg = "store|load",
	  .help = "kernel=touch: store writes the byte 0 at each access "
		  "(seed 000's loop); load reads the byte and adds it into a "
		  "sum.  A read job on a file's mapping (ioengine=mmap, dax) "
		  "can only load, a write job there only store." },
};

static const struct opt_group kernel_touch_opts =
	OPT_GROUP("touch", touch_opt_table, struct touch_opts);

static const struct touch_opts *opts_of(const struct job_spec *job)
{
	return job_opts(job, &kernel_touch_opts);
}

/*
 * The blocks must be able to hold a stride (a block is bs bytes, or the
 * whole working set where that is smaller), the walk must keep its stride
 * from one block to the next, and a store needs blocks it may write.
 */
static int touch_validate(const struct job_spec *job, struct diag *d)
{
	const struct touch_opts *o = opts_of(job);
	const struct ioengine_ops *e = job->ioengine;
	uint64_t block = job->bs;
	/* blame the stride where the job set it, else the block */
	const char *at = job_isset(job, "touch_stride") ? "touch_stride" :
			 "bs";
	int ret = 0;

	if (job->size && job->size < block) {
		block = job->size;
		if (!job_isset(job, "touch_stride"))
			at = "size";
	}
	if (o->touch_stride > block) {
		diag_error(d, job_loc(job, at), at,
			   "kernel=touch makes one access every touch_stride bytes of each block; touch_stride=%llu is larger than the block (%s=%llu)",
			   (unsigned long long)o->touch_stride,
			   block == job->bs ? "bs" : "size",
			   (unsigned long long)block);
		ret = -EINVAL;
	} else if (block == job->bs && job->size > job->bs &&
		   job->bs % o->touch_stride) {
		diag_error(d, job_loc(job, at), at,
			   "kernel=touch walks the blocks one after another, so bs must be a multiple of touch_stride for the stride to hold across blocks; got bs=%llu touch_stride=%llu",
			   (unsigned long long)job->bs,
			   (unsigned long long)o->touch_stride);
		ret = -EINVAL;
	}
	if (!e || !(e->flags & IOE_MAPPED))
		return ret;
	at = job_isset(job, "touch_op") ? "touch_op" : "kernel";
	/* in memory, what the kernel stores is the data of a write job; a
	 * file's mapping is read-only for a read job */
	if (o->touch_op == TOUCH_LOAD && RW_IS_WRITE(job->rw)) {
		diag_error(d, job_loc(job, at), at,
			   "with ioengine=%s a write is what the kernel stores, and touch_op=load stores nothing; use touch_op=store or rw=read",
			   e->name);
		ret = -EINVAL;
	} else if (o->touch_op == TOUCH_STORE && !RW_IS_WRITE(job->rw) &&
		   !ioe_own_memory(e)) {
		diag_error(d, job_loc(job, at), at,
			   "touch_op=store writes into each block, and ioengine=%s maps a read job's file read-only; use touch_op=load, rw=write or ioengine=mem",
			   e->name);
		ret = -EINVAL;
	}
	return ret;
}

static int touch_init(struct kstate *k)
{
	const struct touch_opts *o = k->job ? opts_of(k->job) : NULL;
	struct touch *t;

	if (!o || o->touch_stride == 0 || o->touch_stride > SIZE_MAX)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->stride = (size_t)o->touch_stride;
	t->op = o->touch_op;
	t->whole = k->job->size;
	k->priv = t;
	k->priv_len = sizeof(*t);
	k->result = 0;
	k->items = 0;
	return 0;
}

static void touch_stores(volatile uint8_t *p, size_t n, size_t stride,
			 size_t reps)
{
	for (size_t r = 0; r < reps; r++)
		for (size_t i = 0; i < n; i++)
			p[i * stride] = 0;
}

static uint64_t touch_loads(const volatile uint8_t *p, size_t n,
			    size_t stride, size_t reps)
{
	uint64_t s = 0;

	for (size_t r = 0; r < reps; r++)
		for (size_t i = 0; i < n; i++)
			s += p[i * stride];
	return s;
}

static void touch_run(struct kstate *k, void *buf, size_t len)
{
	const struct touch *t = k->priv;
	/* offsets 0, stride, 2 * stride ... below len */
	size_t n = (len + t->stride - 1) / t->stride;
	size_t reps = 1;

	if (len == t->whole && n < TOUCH_MIN)
		reps = (TOUCH_MIN + n - 1) / n;
	if (t->op == TOUCH_STORE)
		touch_stores(buf, n, t->stride, reps);
	else
		k->result += touch_loads(buf, n, t->stride, reps);
	k->items += (uint64_t)n * reps;
}

const struct kernel_ops kernel_touch_ops = {
	.opts = &kernel_touch_opts,
	.name = "touch",
	.help = "one store (or load) every touch_stride bytes of each block, in address order: ns per access",
	.item_name = "access",
	.flags = KERN_STORES | KERN_ITEMS | KERN_NO_GBPS,
	.validate = touch_validate,
	.init = touch_init,
	.run = touch_run,
	.fini = kernel_fini_free,
};
