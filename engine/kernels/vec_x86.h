/*
 * vec_x86.h - x86-64's streaming stores for vec.h, one per vector level:
 * SSE2's movntdq (16 bytes, part of x86-64), AVX's 32-byte and
 * AVX-512's 64-byte vmovntdq.  They go to the write-combining buffers
 * instead of the caches, so a line stored whole is never read first
 * (no read-for-ownership) and evicts nothing; sfence makes them visible,
 * in order, before any store that follows it.
 *
 * Included by vec.h only; the 32- and 64-byte stores carry their
 * level's target attribute, so they are inlined into that level's
 * variant (isa.h's ISA_TARGET_W32, _W64) and nowhere else.
 */
#ifndef MEMJOB_KERNELS_VEC_X86_H
#define MEMJOB_KERNELS_VEC_X86_H

#include <immintrin.h>

/* p: on a line boundary; v: the line's VEC_LINE / W vectors */
ISA_INLINE void vec_stream_line16(void *p, const vec16 *v)
{
	for (size_t k = 0; k < VEC_LINE / 16; k++)
		_mm_stream_si128((__m128i *)p + k, (__m128i)v[k]);
}

ISA_TARGET_W32 ISA_INLINE void vec_stream_line32(void *p, const vec32 *v)
{
	for (size_t k = 0; k < VEC_LINE / 32; k++)
		_mm256_stream_si256((__m256i *)p + k, (__m256i)v[k]);
}

ISA_TARGET_W64 ISA_INLINE void vec_stream_line64(void *p, const vec64 *v)
{
	_mm512_stream_si512(p, (__m512i)v[0]);
}

static inline void vec_stream_fence(void)
{
	_mm_sfence();
}

/* What the streaming stores of level l are, for source_info. */
static inline const char *vec_nt_name(enum isa_level l)
{
	switch (l) {
	case ISA_AVX512:
		return "avx512 64-byte streaming stores";
	case ISA_AVX2:
		return "avx2 32-byte streaming stores";
	default:
		return "sse2 16-byte streaming stores";
	}
}

#endif
