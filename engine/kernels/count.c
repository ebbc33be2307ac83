/*
 * kernel_count.c - "count": how many 32-bit integers in the data equal a
 * value (seed 003 counts the 10s among random integers 0..20).
 *
 * The point of the seed is that the same answer costs very different
 * amounts of CPU depending on how the loop is written, so the kernel has
 * several implementations (impl=), which must give exactly the same count:
 *
 *   simple    the plain "if (p[i] == v) n++" loop, kept scalar: it is
 *             instruction bound (the seed: 3.71 GiB/s, 3.98 GB/s) long before
 *             memory bandwidth is reached.
 *   unrolled  branch-free, independent counters in the compiler's generic
 *             vectors (vector compares: pcmpeqd and friends), built once
 *             per vector level (isa.h) at that level's register width.
 *   simd      explicit intrinsics, the widest of AVX-512 / AVX2 / SSE2
 *             the CPU supports, picked at run time.
 *   sse2, avx2, avx512
 *             the same intrinsics at one fixed width, to compare widths
 *             (seed 003 found 256-bit code slower than 128-bit on first
 *             generation EPYC); validate() refuses a width the CPU lacks.
 *
 * A block is viewed as len / 4 int32s in host byte order.  When len is not
 * a multiple of 4 the trailing 1..3 bytes are ignored (validate() makes bs
 * a multiple of 4, so only a short last block of a file can have them).
 * buf must be 4-byte aligned, which the engine guarantees (the intrinsic
 * implementations accept any alignment).  k->result accumulates over all
 * the blocks of the run.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "machine/isa.h"
#include "kernels/kernel.h"
#include "util/value.h"

enum count_impl {
	COUNT_SIMPLE, COUNT_UNROLLED, COUNT_SIMD,
	COUNT_SSE2, COUNT_AVX2, COUNT_AVX512,
};

static const char *const count_impls[] = {
	[COUNT_SIMPLE] = "simple",
	[COUNT_UNROLLED] = "unrolled",
	[COUNT_SIMD] = "simd",
	[COUNT_SSE2] = "sse2",
	[COUNT_AVX2] = "avx2",
	[COUNT_AVX512] = "avx512",
	NULL,
};

/*
 * The counters of the vector loops are 32 bits wide (so that one vector
 * compare adds to several of them at once); every COUNT_CHUNK elements
 * they are folded into a 64-bit total, long before any of them can wrap.
 */
#define COUNT_CHUNK	((size_t)1 << 20)

/*
 * The naive loop.  With -O3 the compiler would vectorise it (and then it
 * would no longer show what the seed shows), so vectorisation is switched
 * off for this one loop: GCC's optimize("no-tree-vectorize") on the
 * function (noinline keeps it out of callers that are vectorised), clang's
 * loop pragma.  objdump -d shows cmp/sete/add, no vector compare.
 */
#ifdef __clang__
#define SCALAR_FUNCTION		__attribute__((noinline))
#define SCALAR_LOOP		_Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define SCALAR_FUNCTION		__attribute__((noinline, optimize("no-tree-vectorize")))
#define SCALAR_LOOP
#endif

SCALAR_FUNCTION
static uint64_t count_simple(const int32_t *p, size_t n, int32_t v)
{
	uint64_t c = 0;
	size_t i;

	SCALAR_LOOP
	for (i = 0; i < n; i++)
		if (p[i] == v)
			c++;
	return c;
}

/*
 * Branch-free, with independent counters in four of the compiler's
 * generic vectors (GCC's and clang's vector extensions) as wide as the
 * variant's registers: 16 bytes for the baseline (SSE2, NEON), 32 for
 * AVX2, 64 for AVX-512, so 16, 32 or 64 counters.  A match compares to
 * all ones (-1), so subtracting the compare counts one.  Generic vectors
 * rather than sixteen scalar counters left to the auto-vectoriser: GCC
 * spilled those to the stack and spent ~100 ns setting up each call, a
 * tenth of a 16 KiB block in RAM, and clang hardly vectorised them.
 * objdump -d count_unrolled_avx2: a loop of vpcmpeqd and vpsubd on ymm.
 */
#define COUNT_UNROLLED_BODY(W)						\
typedef int32_t count_vec##W __attribute__((vector_size(W)));		\
typedef uint32_t count_uvec##W __attribute__((vector_size(W)));		\
ISA_INLINE uint64_t count_unrolled_body##W(const int32_t *p, size_t n,	\
					   int32_t v)			\
{									\
	const size_t lanes = (W) / sizeof(int32_t), step = 4 * lanes;	\
	const count_vec##W vv = v - (count_vec##W){ 0 };		\
	uint64_t total = 0;						\
	size_t i = 0, j;						\
									\
	while (n - i >= step) {						\
		size_t left = (n - i) / step * step;			\
		size_t stop = i + (left < COUNT_CHUNK ? left : COUNT_CHUNK); \
		count_uvec##W c0 = { 0 }, c1 = { 0 }, c2 = { 0 }, c3 = { 0 }; \
									\
		for (; i < stop; i += step) {				\
			count_vec##W a, b, c, d;			\
									\
			/* memcpy: loads at any alignment */		\
			__builtin_memcpy(&a, p + i, (W));		\
			__builtin_memcpy(&b, p + i + lanes, (W));	\
			__builtin_memcpy(&c, p + i + 2 * lanes, (W));	\
			__builtin_memcpy(&d, p + i + 3 * lanes, (W));	\
			c0 -= (count_uvec##W)(a == vv);			\
			c1 -= (count_uvec##W)(b == vv);			\
			c2 -= (count_uvec##W)(c == vv);			\
			c3 -= (count_uvec##W)(d == vv);			\
		}							\
		c0 += c1 + c2 + c3;					\
		for (j = 0; j < lanes; j++)				\
			total += c0[j];					\
	}								\
	for (; i < n; i++)						\
		total += (uint64_t)(p[i] == v);				\
	return total;							\
}

COUNT_UNROLLED_BODY(16)
#ifdef __x86_64__
COUNT_UNROLLED_BODY(32)
COUNT_UNROLLED_BODY(64)
#endif

ISA_CLONES_WIDE(uint64_t, count_unrolled,
		(const int32_t *p, size_t n, int32_t v), (p, n, v))

#ifdef __x86_64__

/* The last few elements of a vector loop (and the scalar fallback). */
static inline uint64_t count_tail(const int32_t *p, size_t n, int32_t v)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int32_t x;

		__builtin_memcpy(&x, p + i, sizeof(x));	/* any alignment */
		c += (uint64_t)(x == v);
	}
	return c;
}

/* 64 elements per step: four compares into masks, one popcount. */
__attribute__((target("avx512f,avx512bw,popcnt")))
static uint64_t count_avx512(const int32_t *p, size_t n, int32_t v)
{
	const __m512i vv = _mm512_set1_epi32(v);
	uint64_t c = 0;
	size_t i = 0;

	for (; n - i >= 64; i += 64) {
		uint64_t m0 = _mm512_cmpeq_epi32_mask(_mm512_loadu_si512(p + i), vv);
		uint64_t m1 = _mm512_cmpeq_epi32_mask(_mm512_loadu_si512(p + i + 16), vv);
		uint64_t m2 = _mm512_cmpeq_epi32_mask(_mm512_loadu_si512(p + i + 32), vv);
		uint64_t m3 = _mm512_cmpeq_epi32_mask(_mm512_loadu_si512(p + i + 48), vv);

		c += (uint64_t)__builtin_popcountll(m0 | m1 << 16 | m2 << 32 | m3 << 48);
	}
	for (; n - i >= 16; i += 16)
		c += (uint64_t)__builtin_popcount(
			_mm512_cmpeq_epi32_mask(_mm512_loadu_si512(p + i), vv));
	return c + count_tail(p + i, n - i, v);
}

/* The lanes of a vector of 32-bit counters, added up. */
__attribute__((target("avx2")))
static uint64_t hsum256(__m256i a)
{
	uint32_t lane[8];
	uint64_t s = 0;
	unsigned j;

	_mm256_storeu_si256((__m256i *)lane, a);
	for (j = 0; j < 8; j++)
		s += lane[j];
	return s;
}

/* A match compares to all ones (-1), so subtracting it counts one. */
__attribute__((target("avx2")))
static uint64_t count_avx2(const int32_t *p, size_t n, int32_t v)
{
	const __m256i vv = _mm256_set1_epi32(v);
	uint64_t c = 0;
	size_t i = 0;

	while (n - i >= 32) {
		size_t left = (n - i) / 32 * 32;
		size_t stop = i + (left < COUNT_CHUNK ? left : COUNT_CHUNK);
		/* The accumulators subtract as generic vectors of int32:
		 * with _mm256_sub_epi32 GCC 12 put each difference in the
		 * compare's register and copied it back, 4 vmovdqa a step. */
		count_vec32 a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };

		for (; i < stop; i += 32) {
			const __m256i *q = (const __m256i *)(p + i);

			a0 -= (count_vec32)_mm256_cmpeq_epi32(_mm256_loadu_si256(q + 0), vv);
			a1 -= (count_vec32)_mm256_cmpeq_epi32(_mm256_loadu_si256(q + 1), vv);
			a2 -= (count_vec32)_mm256_cmpeq_epi32(_mm256_loadu_si256(q + 2), vv);
			a3 -= (count_vec32)_mm256_cmpeq_epi32(_mm256_loadu_si256(q + 3), vv);
		}
		c += hsum256((__m256i)a0) + hsum256((__m256i)a1) +
		     hsum256((__m256i)a2) + hsum256((__m256i)a3);
	}
	return c + count_tail(p + i, n - i, v);
}

static uint64_t hsum128(__m128i a)
{
	uint32_t lane[4];

	_mm_storeu_si128((__m128i *)lane, a);
	return (uint64_t)lane[0] + lane[1] + lane[2] + lane[3];
}

/* SSE2 is part of x86-64, so this one needs no target attribute. */
static uint64_t count_sse2(const int32_t *p, size_t n, int32_t v)
{
	const __m128i vv = _mm_set1_epi32(v);
	uint64_t c = 0;
	size_t i = 0;

	while (n - i >= 16) {
		size_t left = (n - i) / 16 * 16;
		size_t stop = i + (left < COUNT_CHUNK ? left : COUNT_CHUNK);
		__m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;

		for (; i < stop; i += 16) {
			const __m128i *q = (const __m128i *)(p + i);

			a0 = _mm_sub_epi32(a0, _mm_cmpeq_epi32(_mm_loadu_si128(q + 0), vv));
			a1 = _mm_sub_epi32(a1, _mm_cmpeq_epi32(_mm_loadu_si128(q + 1), vv));
			a2 = _mm_sub_epi32(a2, _mm_cmpeq_epi32(_mm_loadu_si128(q + 2), vv));
			a3 = _mm_sub_epi32(a3, _mm_cmpeq_epi32(_mm_loadu_si128(q + 3), vv));
		}
		c += hsum128(a0) + hsum128(a1) + hsum128(a2) + hsum128(a3);
	}
	return c + count_tail(p + i, n - i, v);
}

static bool count_cpu_has(int impl)
{
	switch (impl) {
	case COUNT_AVX512:
		return isa_cpu_has(ISA_AVX512);
	case COUNT_AVX2:
		return isa_cpu_has(ISA_AVX2);
	default:
		return true;		/* SSE2 is part of x86-64 */
	}
}

/*
 * impl=simd: the vector level of the other kernels (isa_level(): the
 * widest the CPU has, or MEMJOB_ISA's).  A fixed width the CPU lacks
 * (which validate() refuses) also ends up here rather than in an illegal
 * instruction.
 */
static int count_width(int impl)
{
	if (impl != COUNT_SIMD && count_cpu_has(impl))
		return impl;
	switch (isa_level()) {
	case ISA_AVX512:
		return COUNT_AVX512;
	case ISA_AVX2:
		return COUNT_AVX2;
	default:
		return COUNT_SSE2;
	}
}

/*
 * A scalar head first brings p to a 64-byte boundary, so that no vector
 * load straddles two cache lines.
 */
static uint64_t count_vector(const int32_t *p, size_t n, int32_t v, int impl)
{
	uint64_t c;
	size_t head = 0;

	if (((uintptr_t)p & 3) == 0) {
		head = ((64 - ((uintptr_t)p & 63)) & 63) / sizeof(*p);
		if (head > n)
			head = n;
	}
	c = count_tail(p, head, v);
	p += head;
	n -= head;
	switch (count_width(impl)) {
	case COUNT_AVX512:
		return c + count_avx512(p, n, v);
	case COUNT_AVX2:
		return c + count_avx2(p, n, v);
	default:
		return c + count_sse2(p, n, v);
	}
}

#else /* !__x86_64__: no intrinsics here; the portable vector loop */

static bool count_cpu_has(int impl)
{
	return impl < COUNT_SSE2;
}

static uint64_t count_vector(const int32_t *p, size_t n, int32_t v, int impl)
{
	(void)impl;
	return count_unrolled(p, n, v);
}

#endif

static int count_validate(const struct job_spec *job, struct diag *d)
{
	int impl = job->impl_name ? value_word(job->impl_name, count_impls) : 0;
	int ret = 0;

	if (job->bs % 4) {
		diag_error(d, job_loc(job, "bs"), "bs",
			   "kernel=%s views blocks as 32-bit integers; bs must be a multiple of 4, got %llu",
			   "count", (unsigned long long)job->bs);
		ret = -EINVAL;
	}
	if (impl >= COUNT_SSE2 && impl <= COUNT_AVX512 &&
	    !count_cpu_has(impl)) {
		diag_error(d, job_loc(job, "impl"), "impl",
			   "kernel=count impl=%s: this CPU does not support it (impl=simd picks the widest it has)",
			   count_impls[impl]);
		ret = -EINVAL;
	}
	return ret;
}

static void count_run(struct kstate *k, void *buf, size_t len)
{
	const int32_t *p = buf;
	size_t n = len / sizeof(int32_t);

	switch (k->impl) {
	case COUNT_UNROLLED:
		k->result += count_unrolled(p, n, k->value);
		break;
	case COUNT_SIMD:
	case COUNT_SSE2:
	case COUNT_AVX2:
	case COUNT_AVX512:
		k->result += count_vector(p, n, k->value, k->impl);
		break;
	default:
		k->result += count_simple(p, n, k->value);
		break;
	}
}

/* What ran: the simple loop is scalar on purpose; the others vector. */
static const char *count_variant(const struct kstate *k)
{
	switch (k->impl) {
	case COUNT_SIMPLE:
		return "scalar";
#ifdef __x86_64__
	case COUNT_UNROLLED:
		return isa_name(isa_level());
	default:
		return count_impls[count_width(k->impl)];
#else
	default:			/* all the portable vector loop */
		return isa_name(isa_level());
#endif
	}
}

static const char *const count_options[] = { "value", NULL };

const struct kernel_ops kernel_count_ops = {
	.options = count_options,
	.name = "count",
	.help = "count the 32-bit integers equal to value= (seed 003 counts the 10s)",
	.result_name = "count",
	.impls = count_impls,
	.flags = KERN_RESULT | KERN_INT32,
	.validate = count_validate,
	.init = kernel_init_result,
	.run = count_run,
	.variant = count_variant,
	.fini = kernel_fini_nothing,
};
