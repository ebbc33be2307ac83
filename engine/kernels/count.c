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
 *             (x86-64) or SVE / NEON (arm64) the CPU supports, picked at
 *             run time (count_simd.h: one file per architecture).
 *   sse2, avx2, avx512, neon, sve
 *             the same intrinsics at one fixed width, to compare widths
 *             (seed 003 found 256-bit code slower than 128-bit on first
 *             generation EPYC); validate() refuses a width the CPU lacks,
 *             and another architecture's with this one's.
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
#include <stdio.h>

#include "machine/arch.h"
#include "machine/isa.h"
#include "kernels/count_simd.h"
#include "kernels/kernel.h"
#include "util/value.h"

static const char *const count_impls[] = {
	[COUNT_SIMPLE] = "simple",
	[COUNT_UNROLLED] = "unrolled",
	[COUNT_SIMD] = "simd",
	[COUNT_SSE2] = "sse2",
	[COUNT_AVX2] = "avx2",
	[COUNT_AVX512] = "avx512",
	[COUNT_NEON] = "neon",
	[COUNT_SVE] = "sve",
	NULL,
};
_Static_assert(sizeof(count_impls) / sizeof(*count_impls) == COUNT_IMPLS + 1,
	       "a name for every impl");

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

const char *count_width_arch(int impl)
{
	return impl >= COUNT_NEON ? "arm64" : "x86-64";
}

#if !defined(__x86_64__) && !defined(__aarch64__)
/* No intrinsics for this CPU: no fixed width, and impl=simd runs the
 * unrolled loop. */
bool count_width_here(int impl)
{
	(void)impl;
	return false;
}

bool count_width_cpu_has(int impl)
{
	(void)impl;
	return false;
}

int count_width_widest(void)
{
	return -1;
}

uint64_t count_width_run(const int32_t *p, size_t n, int32_t v, int width)
{
	(void)width;
	return count_tail(p, n, v);
}
#endif

/*
 * impl=simd: the vector level of the other kernels (isa_level(): the
 * widest the CPU has, or MEMJOB_ISA's).  A fixed width the CPU lacks
 * (which validate() refuses) also ends up here rather than in an illegal
 * instruction.
 */
static int count_width(int impl)
{
	if (impl != COUNT_SIMD && count_width_cpu_has(impl))
		return impl;
	return count_width_widest();
}

/*
 * A scalar head first brings p to a 64-byte boundary, so that no vector
 * load straddles two cache lines.
 */
static uint64_t count_vector(const int32_t *p, size_t n, int32_t v, int impl)
{
	uint64_t c;
	size_t head = 0;
	int width = count_width(impl);

	if (width < 0)		/* no intrinsics here: the portable loop */
		return count_unrolled(p, n, v);
	if (((uintptr_t)p & 3) == 0) {
		head = ((64 - ((uintptr_t)p & 63)) & 63) / sizeof(*p);
		if (head > n)
			head = n;
	}
	c = count_tail(p, head, v);
	return c + count_width_run(p + head, n - head, v, width);
}

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
	if (impl > COUNT_SIMD && !count_width_here(impl)) {
		char here[64] = "";
		size_t n = 0;

		for (int w = COUNT_SIMD + 1; w < COUNT_IMPLS; w++)
			if (count_width_here(w))
				n += (size_t)snprintf(here + n, sizeof(here) - n,
						      "%s%s", n ? ", " : "",
						      count_impls[w]);
		diag_error(d, job_loc(job, "impl"), "impl",
			   "kernel=count impl=%s is an %s width; this %s build "
			   "has %s (impl=simd picks the widest the CPU has)",
			   count_impls[impl], count_width_arch(impl), ARCH_NAME,
			   n ? here : "none");
		ret = -EINVAL;
	} else if (impl > COUNT_SIMD && !count_width_cpu_has(impl)) {
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
	case COUNT_SIMPLE:
		k->result += count_simple(p, n, k->value);
		break;
	default:		/* simd, or a fixed width */
		k->result += count_vector(p, n, k->value, k->impl);
		break;
	}
}

/* What ran: the simple loop is scalar on purpose; the others vector. */
static const char *count_variant(const struct kstate *k)
{
	switch (k->impl) {
	case COUNT_SIMPLE:
		return "scalar";
	case COUNT_UNROLLED:
		return isa_name(isa_level());
	default:		/* without intrinsics: the unrolled loop */
		return count_width(k->impl) < 0 ? isa_name(isa_level()) :
			count_impls[count_width(k->impl)];
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
