/*
 * stream.c - STREAM's four kernels (McCalpin's STREAM benchmark), over
 * arrays of doubles laid in the job's memory:
 *
 *   stream_copy    a[i] = b[i]              2 arrays, 16 bytes per element
 *   stream_scale   a[i] = q * b[i]          2 arrays, 16 bytes per element
 *   stream_add     a[i] = b[i] + c[i]       3 arrays, 24 bytes per element
 *   triad          a[i] = b[i] + q * c[i]   3 arrays, 24 bytes per element
 *
 * with STREAM's scalar q = 3.  The bytes per element are STREAM's count
 * (each array read or written once); triad keeps the name it had before
 * the others joined it.  stream_copy is STREAM's copy of one array into
 * another in memory, unlike kernel=copy (memops.c), which copies each
 * block into a small private buffer: a read of the data with the stores
 * kept in the cache.
 *
 * prepare() splits the job's memory into the arrays, n = size / E
 * elements each (E the bytes per element above), one after the other as
 * STREAM declares them, and sets b[] = 2, c[] = 1 (a[] = 0), so the
 * arithmetic never meets denormals or NaNs whatever the job's pattern
 * was.  The engine then hands the kernel bs-sized blocks of the region
 * as for any other job: a block stands for its share of the elements,
 * whole 64-byte lines of a[] (stream_elem_at()), and the blocks of a
 * pass tile 0..n exactly whatever bs is, so a pass is one whole STREAM
 * kernel and the job's bytes (size per pass) are STREAM's count.
 * rw=randread visits the same element ranges in a random block order.
 *
 * Like STREAM, the figure does not count the read-for-ownership that a
 * plain store of a[] makes the cache do (8 more bytes of real traffic
 * per element); impl=nt writes a[] with streaming stores (vec.h), which
 * skip it, so the two impls side by side show what write-allocate costs.
 *
 * The loop is written once in the compiler's generic vectors and built
 * per vector level (isa.h): a scalar head brings a[] to a 64-byte line,
 * whole lines follow, four per step, and a scalar tail ends the range,
 * so no store splits a line and a streaming store always fills one
 * (vec.h: x86-64's movntdq at the level's width, arm64's STNP pairs).
 * The SVE level is sve.c's one loop for every vector length, STNT1 its
 * streaming store.  The products are rounded before the sums (the
 * kernels are built with -ffp-contract=off, no fused multiply-add), so
 * every level gives the same bits as the scalar loop.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "kernels/stream_op.h"
#include "kernels/sve.h"
#include "kernels/vec.h"
#include "machine/isa.h"

enum stream_impl { STREAM_PLAIN, STREAM_NT };

static const char *const stream_impls[] = {
	[STREAM_PLAIN] = "plain",
	[STREAM_NT] = "nt",
	NULL,
};

extern const struct kernel_ops kernel_stream_copy_ops;
extern const struct kernel_ops kernel_stream_scale_ops;
extern const struct kernel_ops kernel_stream_add_ops;
extern const struct kernel_ops kernel_triad_ops;

struct stream {
	enum stream_op op;
	size_t elem;			/* bytes per element: 8 per array */
	char *region;			/* where offsets are counted from */
	size_t len;			/* the region's bytes */
	size_t n;			/* elements per array */
	double *a, *b, *c;		/* c: NULL for copy and scale */
};

static enum stream_op stream_op_of(const struct kernel_ops *k)
{
	if (k == &kernel_stream_copy_ops)
		return STREAM_COPY;
	if (k == &kernel_stream_scale_ops)
		return STREAM_SCALE;
	if (k == &kernel_stream_add_ops)
		return STREAM_ADD;
	return STREAM_TRIAD;
}

static unsigned stream_arrays(enum stream_op op)
{
	return op == STREAM_COPY || op == STREAM_SCALE ? 2 : 3;
}

static int stream_validate(const struct job_spec *job, struct diag *d)
{
	unsigned arrays = stream_arrays(stream_op_of(job->kernel));
	const char *count = arrays == 2 ? "two" : "three";
	int ret = 0;

	if (job->size && job->size < arrays * sizeof(double)) {
		diag_error(d, job_loc(job, "size"), "size",
			   "kernel=%s needs room for one element of each of its %s arrays of doubles (%zu bytes), got %llu",
			   job->kernel->name, count, arrays * sizeof(double),
			   (unsigned long long)job->size);
		ret = -EINVAL;
	}
	/* prepare() overwrites the region with the arrays */
	if (kernel_check_own_memory(job, d, arrays == 2 ? "its two arrays" :
				    "its three arrays"))
		ret = -EINVAL;
	return ret;
}

static int stream_init(struct kstate *k)
{
	struct stream *s;

	if (!k->job)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->op = stream_op_of(k->job->kernel);
	s->elem = stream_arrays(s->op) * sizeof(double);
	k->priv = s;
	k->priv_len = sizeof(*s);
	k->result = 0;
	return 0;
}

static int stream_prepare(struct kstate *k, void *region, size_t len)
{
	struct stream *s = k->priv;
	size_t i;

	if (!s || !region || (uintptr_t)region % sizeof(double) ||
	    len < s->elem)
		return -EINVAL;
	s->region = region;
	s->len = len;
	s->n = len / s->elem;
	s->a = region;
	s->b = s->a + s->n;
	s->c = s->elem == 3 * sizeof(double) ? s->b + s->n : NULL;
	for (i = 0; i < s->n; i++) {
		s->a[i] = 0.0;
		s->b[i] = 2.0;
		if (s->c)
			s->c[i] = 1.0;
	}
	return 0;
}

/* One element: the heads and tails of the vector loops. */
static inline double stream_one(const enum stream_op op, const double *b,
				const double *c, size_t i)
{
	switch (op) {
	case STREAM_COPY:
		return b[i];
	case STREAM_SCALE:
		return STREAM_Q * b[i];
	case STREAM_ADD:
		return b[i] + c[i];
	default:
		return b[i] + STREAM_Q * c[i];
	}
}

/*
 * stream_line##W: one 64-byte line of a[] from b[] and c[], in vectors
 * of W bytes, stored plainly or streamed (a[] on a line boundary).
 * stream_pass##W: elements 0..n, the line loop between a scalar head and
 * tail (the fence is stream_fini's).  op and nt are constants
 * where stream_run_body##W calls it, so each of its eight loops is
 * straight code.  The empty asm keeps a copy a loop of vector moves:
 * GCC and clang would call memcpy for it otherwise (the C library's
 * choice of method, not this kernel's).
 * objdump -d stream_run_avx512: vmovupd zmm loads, vmovntdq zmm stores.
 */
#define STREAM_PASS_OF(W, o)						\
	(nt ? stream_pass##W(o, true, a, b, c, n) :			\
	      stream_pass##W(o, false, a, b, c, n))
#define STREAM_LOOPS(W)							\
typedef double stream_vd##W __attribute__((vector_size(W)));		\
ISA_TARGET_W##W ISA_INLINE void stream_line##W(const enum stream_op op,	\
	const bool nt, double *restrict a, const double *restrict b,	\
	const double *restrict c)					\
{									\
	const size_t lanes = (W) / sizeof(double);			\
	vec##W line[VEC_LINE / (W)];					\
									\
	for (size_t k = 0; k < VEC_LINE / (W); k++) {			\
		const size_t j = k * lanes;				\
		stream_vd##W x, y, r;					\
									\
		__builtin_memcpy(&x, b + j, (W));			\
		switch (op) {						\
		case STREAM_COPY:					\
			r = x;						\
			break;						\
		case STREAM_SCALE:					\
			r = STREAM_Q * x;				\
			break;						\
		case STREAM_ADD:					\
			__builtin_memcpy(&y, c + j, (W));		\
			r = x + y;					\
			break;						\
		default:						\
			__builtin_memcpy(&y, c + j, (W));		\
			r = x + STREAM_Q * y;				\
			break;						\
		}							\
		if (nt)							\
			line[k] = (vec##W)r;				\
		else							\
			__builtin_memcpy(a + j, &r, (W));		\
	}								\
	if (nt)								\
		vec_stream_line##W(a, line);				\
}									\
ISA_TARGET_W##W ISA_INLINE void stream_pass##W(const enum stream_op op,	\
	const bool nt, double *restrict a, const double *restrict b,	\
	const double *restrict c, size_t n)				\
{									\
	const size_t line = VEC_LINE / sizeof(double);			\
	size_t i = 0, head = vec_to_line(a) / sizeof(double);		\
									\
	for (; i < head && i < n; i++)					\
		a[i] = stream_one(op, b, c, i);				\
	for (; n - i >= 4 * line; i += 4 * line) {			\
		stream_line##W(op, nt, a + i, b + i, c + i);		\
		stream_line##W(op, nt, a + i + line, b + i + line,	\
			       c + i + line);				\
		stream_line##W(op, nt, a + i + 2 * line,		\
			       b + i + 2 * line, c + i + 2 * line);	\
		stream_line##W(op, nt, a + i + 3 * line,		\
			       b + i + 3 * line, c + i + 3 * line);	\
		__asm__("" : "+r"(b));					\
	}								\
	for (; n - i >= line; i += line)				\
		stream_line##W(op, nt, a + i, b + i, c + i);		\
	for (; i < n; i++)						\
		a[i] = stream_one(op, b, c, i);				\
}									\
ISA_TARGET_W##W ISA_INLINE int stream_run_body##W(enum stream_op op,	\
	bool nt, double *restrict a, const double *restrict b,		\
	const double *restrict c, size_t n)				\
{									\
	switch (op) {							\
	case STREAM_COPY:						\
		STREAM_PASS_OF(W, STREAM_COPY);				\
		break;							\
	case STREAM_SCALE:						\
		STREAM_PASS_OF(W, STREAM_SCALE);			\
		break;							\
	case STREAM_ADD:						\
		STREAM_PASS_OF(W, STREAM_ADD);				\
		break;							\
	default:							\
		STREAM_PASS_OF(W, STREAM_TRIAD);			\
		break;							\
	}								\
	return 0;							\
}

STREAM_LOOPS(16)
#ifdef __x86_64__
STREAM_LOOPS(32)
STREAM_LOOPS(64)
#endif

#if ISA_SVE_BUILT	/* the SVE level (isa.h) */
#define stream_run_sve(op, nt, a, b, c, n)	sve_stream(op, nt, a, b, c, n)
#endif

/* int: ISA_CLONES returns what the body does */
ISA_CLONES_WIDE(int, stream_run, (enum stream_op op, bool nt,
				  double *restrict a, const double *restrict b,
				  const double *restrict c, size_t n),
		(op, nt, a, b, c, n))

/*
 * The first element of the block at offset o of the region: the
 * elements of whole lines of a[] before it, 8 elements for each 8 * E
 * bytes (a multiply, E being a constant in each branch); n at the
 * region's end, so the blocks of a pass tile 0..n exactly.  A line of
 * a[] thus belongs to one block, and every block but the last starts
 * and ends on a line boundary (the region is page aligned): its stores
 * need no scalar head or tail, and no line is written by two blocks.
 */
static size_t stream_elem_at(const struct stream *s, size_t o)
{
	const size_t line = VEC_LINE / sizeof(double);

	if (o >= s->len)
		return s->n;
	if (s->elem == 2 * sizeof(double))
		return o / (2 * VEC_LINE) * line;
	return o / (3 * VEC_LINE) * line;
}

static void stream_kernel_run(struct kstate *k, void *buf, size_t len)
{
	struct stream *s = k->priv;
	size_t o, lo, hi;

	if (!s->region || (char *)buf < s->region)	/* no prepare() */
		return;
	o = (size_t)((char *)buf - s->region);
	lo = stream_elem_at(s, o);
	hi = stream_elem_at(s, o + len);
	if (lo >= hi)
		return;
	/* copy and scale read no c[]: b stands in, never read */
	stream_run(s->op, k->impl == STREAM_NT, s->a + lo, s->b + lo,
		   (s->c ? s->c : s->b) + lo, hi - lo);
}

/*
 * The arrays are the job's own memory, which nothing but this thread
 * reads while it runs (and its own loads see its streaming stores in
 * order): a fence after every block would only stall the stores (a
 * fifth of the rate with bs=16k), so the job's streaming stores are
 * fenced once, when it ends.
 */
static void stream_fini(struct kstate *k)
{
	if (k->impl == STREAM_NT)
		vec_stream_fence();
	kernel_fini_free(k);
}

/* What ran: the level, and for nt the streaming stores' width. */
static const char *stream_variant(const struct kstate *k)
{
	return k->impl == STREAM_NT ? vec_nt_name(isa_level()) :
		isa_name(isa_level());
}

/* The end of each help line: what a block is, what is counted. */
#define STREAM_HELP(arrays, bytes)					\
	": the job's memory (ioengine=mem) as " arrays " arrays of "	\
	"doubles, a block standing for its share of the elements; "	\
	"bytes are STREAM's " bytes " per element (not the 8 more that "	\
	"plain stores of a add, reading each line before writing it; "	\
	"impl nt has none)"

/* The four differ in name and help only; stream_op_of() tells them apart. */
#define STREAM_KERNEL(var, kname, khelp)				\
	const struct kernel_ops var = {					\
		.name = (kname),					\
		.help = (khelp),					\
		.impls = stream_impls,					\
		.flags = KERN_REGION,					\
		.validate = stream_validate,				\
		.init = stream_init,					\
		.prepare = stream_prepare,				\
		.run = stream_kernel_run,				\
		.variant = stream_variant,				\
		.fini = stream_fini,					\
	}

STREAM_KERNEL(kernel_stream_copy_ops, "stream_copy",
	      "STREAM copy a = b" STREAM_HELP("two", "16") ".  Not "
	      "kernel=copy, which copies each block into a private buffer");
STREAM_KERNEL(kernel_stream_scale_ops, "stream_scale",
	      "STREAM scale a = 3b" STREAM_HELP("two", "16"));
STREAM_KERNEL(kernel_stream_add_ops, "stream_add",
	      "STREAM add a = b + c" STREAM_HELP("three", "24"));
STREAM_KERNEL(kernel_triad_ops, "triad",
	      "STREAM triad a = b + 3c" STREAM_HELP("three", "24"));
