/*
 * kernel_triad.c - "triad": STREAM's triad, a[i] = b[i] + q * c[i], the
 * sustainable memory bandwidth of two read streams and one write stream.
 *
 * prepare() splits the job's memory into three arrays of n doubles
 * (n = size / 24), a, b and c one after the other as STREAM declares
 * them, and sets b[] = 2, c[] = 1 (a[] = 0), so the arithmetic never
 * meets denormals or NaNs whatever the job's pattern was.  The engine
 * then hands the kernel bs-sized blocks of the region as for any other
 * job: the block at offset o of the region stands for the elements
 * [o / 24, (o + len) / 24), which tile 0..n exactly over a pass whatever
 * bs is, so a pass is one whole triad and the job's bytes (size per
 * pass) are STREAM's count: 24 bytes per element, 16 read and 8 written.
 * rw=randread visits the same element ranges in a random block order.
 *
 * Like STREAM, the figure does not count the read-for-ownership that a
 * plain store of a[] makes the cache do (the real traffic is 32 bytes
 * per element); impl=nt writes a[] with non-temporal stores, which skip
 * it, so the two impls side by side show what write-allocate costs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

#include "ioengines/ioengine.h"
#include "machine/isa.h"
#include "kernels/kernel.h"
#include "kernels/sve.h"

#define TRIAD_Q		3.0	/* STREAM's scalar */
#define TRIAD_ELEM	(3 * sizeof(double))

enum triad_impl { TRIAD_PLAIN, TRIAD_NT };

static const char *const triad_impls[] = {
	[TRIAD_PLAIN] = "plain",
	[TRIAD_NT] = "nt",
	NULL,
};

struct triad {
	char *region;			/* where offsets are counted from */
	size_t n;			/* elements per array */
	double *a, *b, *c;
};

static int triad_validate(const struct job_spec *job, struct diag *d)
{
	int ret = 0;

	if (job->size && job->size < TRIAD_ELEM) {
		diag_error(d, job_loc(job, "size"), "size",
			   "kernel=triad needs room for one element of each of its three arrays of doubles (24 bytes), got %llu",
			   (unsigned long long)job->size);
		ret = -EINVAL;
	}
	/* prepare() overwrites the region with the three arrays */
	if (kernel_check_own_memory(job, d, "its three arrays"))
		ret = -EINVAL;
	return ret;
}

static int triad_init(struct kstate *k)
{
	struct triad *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	k->priv = t;
	k->priv_len = sizeof(*t);
	k->result = 0;
	return 0;
}

static int triad_prepare(struct kstate *k, void *region, size_t len)
{
	struct triad *t = k->priv;
	size_t i;

	if (!t || !region || (uintptr_t)region % sizeof(double) ||
	    len < TRIAD_ELEM)
		return -EINVAL;
	t->region = region;
	t->n = len / TRIAD_ELEM;
	t->a = region;
	t->b = t->a + t->n;
	t->c = t->b + t->n;
	for (i = 0; i < t->n; i++) {
		t->a[i] = 0.0;
		t->b[i] = 2.0;
		t->c[i] = 1.0;
	}
	return 0;
}

ISA_INLINE int triad_plain_body(double *restrict a, const double *restrict b,
				const double *restrict c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		a[i] = b[i] + TRIAD_Q * c[i];
	return 0;
}

#if ISA_SVE_BUILT	/* the SVE level (isa.h) */
#define triad_plain_sve(a, b, c, n)	sve_triad(a, b, c, n, TRIAD_Q, false)
#endif

/* int: ISA_CLONES returns what the body does */
ISA_CLONES(int, triad_plain, (double *restrict a, const double *restrict b,
			      const double *restrict c, size_t n), (a, b, c, n))

#ifdef __x86_64__

/*
 * Streaming stores of a[] (16 bytes, SSE2, part of x86-64: as in fill's
 * nt, wider ones fill the write-combining buffers no faster), after a
 * plain element when a[] is not on a 16-byte boundary; the sfence orders
 * them before whatever the engine does next.
 */
static void triad_nt(double *restrict a, const double *restrict b,
		     const double *restrict c, size_t n)
{
	const __m128d q = _mm_set1_pd(TRIAD_Q);
	size_t i = 0;

	if (n && (uintptr_t)a % 16) {
		a[0] = b[0] + TRIAD_Q * c[0];
		i = 1;
	}
	for (; i + 2 <= n; i += 2) {
		__m128d v = _mm_add_pd(_mm_loadu_pd(b + i),
				       _mm_mul_pd(q, _mm_loadu_pd(c + i)));

		_mm_stream_pd(a + i, v);
	}
	if (i < n)
		a[i] = b[i] + TRIAD_Q * c[i];
	_mm_sfence();
}

#elif defined(__aarch64__)

/*
 * a[] by STNP, arm64's non-temporal pair store (two 16-byte NEON
 * registers), or SVE's STNT1 at the SVE level: hints, which a core may
 * heed or not (fill's nt says more), and ordered as ordinary stores.
 * Plain elements until a[] is on a 32-byte boundary, and for the tail.
 */
static void triad_nt(double *restrict a, const double *restrict b,
		     const double *restrict c, size_t n)
{
	const float64x2_t q = vdupq_n_f64(TRIAD_Q);
	size_t i = 0;

#if ISA_SVE_BUILT
	if (isa_level() == ISA_SVE) {
		sve_triad(a, b, c, n, TRIAD_Q, true);
		return;
	}
#endif
	for (; i < n && (uintptr_t)(a + i) % 32; i++)
		a[i] = b[i] + TRIAD_Q * c[i];
	for (; i + 4 <= n; i += 4) {
		float64x2_t x = vfmaq_f64(vld1q_f64(b + i), q, vld1q_f64(c + i));
		float64x2_t y = vfmaq_f64(vld1q_f64(b + i + 2), q,
					  vld1q_f64(c + i + 2));

		__asm__ __volatile__("stnp %q0, %q1, [%2]"
				     :: "w"(x), "w"(y), "r"(a + i) : "memory");
	}
	for (; i < n; i++)
		a[i] = b[i] + TRIAD_Q * c[i];
}

#else /* no non-temporal store known for this CPU */

static void triad_nt(double *restrict a, const double *restrict b,
		     const double *restrict c, size_t n)
{
	triad_plain(a, b, c, n);
}

#endif

static void triad_run(struct kstate *k, void *buf, size_t len)
{
	struct triad *t = k->priv;
	size_t o, lo, hi;

	if (!t->region || (char *)buf < t->region)	/* no prepare() */
		return;
	o = (size_t)((char *)buf - t->region);
	lo = o / TRIAD_ELEM;
	hi = (o + len) / TRIAD_ELEM;
	if (hi > t->n)
		hi = t->n;
	if (lo >= hi)
		return;
	if (k->impl == TRIAD_NT)
		triad_nt(t->a + lo, t->b + lo, t->c + lo, hi - lo);
	else
		triad_plain(t->a + lo, t->b + lo, t->c + lo, hi - lo);
}

/* nt: the architecture's non-temporal stores (kernel_nt_stores) */
static const char *triad_variant(const struct kstate *k)
{
	return k->impl == TRIAD_NT ? kernel_nt_stores() : isa_name(isa_level());
}

const struct kernel_ops kernel_triad_ops = {
	.name = "triad",
	.help = "STREAM triad a = b + 3c: the job's memory (ioengine=mem) "
		"as three arrays of doubles, a block standing for its share "
		"of the elements; bytes are STREAM's 24 per element (not the "
		"read of a that plain stores add; impl nt has none)",
	.impls = triad_impls,
	.flags = KERN_REGION,
	.validate = triad_validate,
	.init = triad_init,
	.prepare = triad_prepare,
	.run = triad_run,
	.variant = triad_variant,
	.fini = kernel_fini_free,
};
