/*
 * count_x86.c - kernel=count's explicit intrinsics on x86-64 (see
 * count_simd.h): SSE2 (part of x86-64), AVX2 and AVX-512, each in a
 * function of its own target, run only where cpuid has it.
 */
#ifdef __x86_64__

#include <immintrin.h>

#include "kernels/count_simd.h"
#include "kernels/vec.h"
#include "machine/isa.h"

typedef int32_t count_vec32 __attribute__((vector_size(32)));
typedef int32_t count_vec64 __attribute__((vector_size(64)));

/* The lanes of a vector of 32-bit counters, added up. */
__attribute__((target("avx512f")))
static uint64_t hsum512(__m512i a)
{
	uint32_t lane[16];
	uint64_t s = 0;
	unsigned j;

	_mm512_storeu_si512(lane, a);
	for (j = 0; j < 16; j++)
		s += lane[j];
	return s;
}

/*
 * 64 elements per step, without masks: x ^ v is 0 where x matches, and
 * its unsigned minimum with 1 is 1 where it does not, so four
 * accumulators count the misses and a chunk's matches are its elements
 * less those.  Each load feeds two operations (xor folded into it, min,
 * add), no mask register: comparing into masks, with a masked subtract or
 * a popcount of the masks moved to general registers, read 256 MiB 3 to
 * 9% slower than this loop (alternating, 300 rounds): every uop that
 * waits on a load in flight holds a scheduler slot that could have sent
 * a later load.
 */
__attribute__((target("avx512f,avx512bw")))
static uint64_t count_avx512(const int32_t *p, size_t n, int32_t v)
{
	const __m512i vv = _mm512_set1_epi32(v), one = _mm512_set1_epi32(1);
	uint64_t c = 0;
	size_t i = 0;

	while (n - i >= 64) {
		size_t left = (n - i) / 64 * 64;
		size_t chunk = left < COUNT_CHUNK ? left : COUNT_CHUNK;
		size_t stop = i + chunk;
		/* generic vectors: see count_avx2 */
		count_vec64 m0 = { 0 }, m1 = { 0 }, m2 = { 0 }, m3 = { 0 };

		for (; i < stop; i += 64) {
			if (!(i % (VEC_READ_EVERY / sizeof(*p))))
				vec_read_ahead(p + i);
			m0 += (count_vec64)_mm512_min_epu32(_mm512_xor_si512(
				_mm512_loadu_si512(p + i), vv), one);
			m1 += (count_vec64)_mm512_min_epu32(_mm512_xor_si512(
				_mm512_loadu_si512(p + i + 16), vv), one);
			m2 += (count_vec64)_mm512_min_epu32(_mm512_xor_si512(
				_mm512_loadu_si512(p + i + 32), vv), one);
			m3 += (count_vec64)_mm512_min_epu32(_mm512_xor_si512(
				_mm512_loadu_si512(p + i + 48), vv), one);
		}
		c += chunk - hsum512((__m512i)(m0 + m1 + m2 + m3));
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

			if (!(i % (VEC_READ_EVERY / sizeof(*p))))
				vec_read_ahead(q);

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

			if (!(i % (VEC_READ_EVERY / sizeof(*p))))
				vec_read_ahead(q);

			a0 = _mm_sub_epi32(a0, _mm_cmpeq_epi32(_mm_loadu_si128(q + 0), vv));
			a1 = _mm_sub_epi32(a1, _mm_cmpeq_epi32(_mm_loadu_si128(q + 1), vv));
			a2 = _mm_sub_epi32(a2, _mm_cmpeq_epi32(_mm_loadu_si128(q + 2), vv));
			a3 = _mm_sub_epi32(a3, _mm_cmpeq_epi32(_mm_loadu_si128(q + 3), vv));
		}
		c += hsum128(a0) + hsum128(a1) + hsum128(a2) + hsum128(a3);
	}
	return c + count_tail(p + i, n - i, v);
}

bool count_width_here(int impl)
{
	return impl == COUNT_SSE2 || impl == COUNT_AVX2 || impl == COUNT_AVX512;
}

bool count_width_cpu_has(int impl)
{
	switch (impl) {
	case COUNT_AVX512:
		return isa_cpu_has(ISA_AVX512);
	case COUNT_AVX2:
		return isa_cpu_has(ISA_AVX2);
	default:
		return impl == COUNT_SSE2;	/* part of x86-64 */
	}
}

int count_width_widest(void)
{
	switch (isa_level()) {
	case ISA_AVX512:
		return COUNT_AVX512;
	case ISA_AVX2:
		return COUNT_AVX2;
	default:
		return COUNT_SSE2;
	}
}

uint64_t count_width_run(const int32_t *p, size_t n, int32_t v, int width)
{
	switch (width) {
	case COUNT_AVX512:
		return count_avx512(p, n, v);
	case COUNT_AVX2:
		return count_avx2(p, n, v);
	default:
		return count_sse2(p, n, v);
	}
}

#endif
