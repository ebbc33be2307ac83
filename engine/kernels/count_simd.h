/*
 * count_simd.h - kernel=count's explicit intrinsics, one file per CPU
 * architecture (count_x86.c: SSE2, AVX2, AVX-512; count_arm64.c: NEON,
 * SVE), behind the fixed widths impl= names and the widest one
 * impl=simd runs.  count.c keeps what is portable (simple, unrolled,
 * which width runs, the checks); where memjob knows no intrinsics for the
 * CPU, there is no width here and impl=simd runs the unrolled loop.
 */
#ifndef MEMJOB_COUNT_SIMD_H
#define MEMJOB_COUNT_SIMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum count_impl {
	COUNT_SIMPLE, COUNT_UNROLLED, COUNT_SIMD,
	COUNT_SSE2, COUNT_AVX2, COUNT_AVX512,		/* x86-64 */
	COUNT_NEON, COUNT_SVE,				/* arm64 */
	COUNT_IMPLS
};

/* The widths of one architecture: "x86-64" for sse2. */
const char *count_width_arch(int impl);
/* Whether this build has fixed width impl (an architecture's own). */
bool count_width_here(int impl);
/* Whether the CPU has it (and this build does). */
bool count_width_cpu_has(int impl);
/* The width impl=simd runs: the kernels' vector level's (isa.h); -1
 * where this build has no intrinsics. */
int count_width_widest(void);
/* Count v among p[0..n) at width (one this CPU has). */
uint64_t count_width_run(const int32_t *p, size_t n, int32_t v, int width);

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

/*
 * The counters of the vector loops are 32 bits wide (so that one vector
 * compare adds to several of them at once); every COUNT_CHUNK elements
 * they are folded into a 64-bit total, long before any of them can wrap.
 */
#define COUNT_CHUNK	((size_t)1 << 20)

#if defined(__aarch64__)
/* unrolled's loop at the SVE level (count_arm64.c) */
uint64_t count_unrolled_sve(const int32_t *p, size_t n, int32_t v);
#endif

#endif
