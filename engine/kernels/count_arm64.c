/*
 * count_arm64.c - kernel=count's explicit intrinsics on arm64 (see
 * count_simd.h): NEON (Advanced SIMD, every arm64 Linux CPU's), and SVE
 * where HWCAP says the CPU has it, in SVE's own intrinsics: the same
 * loop at whatever vector length the CPU has (128 to 2048 bits), with a
 * predicate for the last, partial vector.  Also unrolled's loop at the
 * SVE level, which generic vectors cannot express (isa.h).
 */
#ifdef __aarch64__

#include <arm_neon.h>

#include "kernels/count_simd.h"
#include "machine/isa.h"

bool count_width_here(int impl)
{
	return impl == COUNT_NEON || impl == COUNT_SVE;
}

bool count_width_cpu_has(int impl)
{
	return impl == COUNT_NEON ||
	       (impl == COUNT_SVE && isa_cpu_has(ISA_SVE));
}

int count_width_widest(void)
{
	return isa_level() == ISA_SVE ? COUNT_SVE : COUNT_NEON;
}

/* Four vectors of four 32-bit counters; a match compares to all ones, so
 * subtracting it counts one; folded (UADDLV) every COUNT_CHUNK. */
static uint64_t count_neon(const int32_t *p, size_t n, int32_t v)
{
	const int32x4_t vv = vdupq_n_s32(v);
	uint64_t c = 0;
	size_t i = 0;

	while (n - i >= 16) {
		size_t left = (n - i) / 16 * 16;
		size_t stop = i + (left < COUNT_CHUNK ? left : COUNT_CHUNK);
		uint32x4_t a0 = vdupq_n_u32(0), a1 = a0, a2 = a0, a3 = a0;

		for (; i < stop; i += 16) {
			a0 = vsubq_u32(a0, vceqq_s32(vld1q_s32(p + i), vv));
			a1 = vsubq_u32(a1, vceqq_s32(vld1q_s32(p + i + 4), vv));
			a2 = vsubq_u32(a2, vceqq_s32(vld1q_s32(p + i + 8), vv));
			a3 = vsubq_u32(a3, vceqq_s32(vld1q_s32(p + i + 12), vv));
		}
		c += vaddlvq_u32(vaddq_u32(vaddq_u32(a0, a1),
					   vaddq_u32(a2, a3)));
	}
	return c + count_tail(p + i, n - i, v);
}

#if ISA_SVE_BUILT
ISA_SVE_BEGIN
#include <arm_sve.h>

/* impl=sve: four whole vectors a step, each compare's matches counted
 * straight from its predicate (CNTP); the tail under WHILELT. */
ISA_SVE_FN uint64_t count_sve(const int32_t *p, size_t n, int32_t v)
{
	const svbool_t all = svptrue_b32();
	const size_t vl = svcntw();
	uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
	size_t i = 0;

	for (; n - i >= 4 * vl; i += 4 * vl) {
		c0 += svcntp_b32(all, svcmpeq_n_s32(all, svld1_s32(all, p + i), v));
		c1 += svcntp_b32(all, svcmpeq_n_s32(all, svld1_s32(all, p + i + vl), v));
		c2 += svcntp_b32(all, svcmpeq_n_s32(all, svld1_s32(all, p + i + 2 * vl), v));
		c3 += svcntp_b32(all, svcmpeq_n_s32(all, svld1_s32(all, p + i + 3 * vl), v));
	}
	for (; i < n; i += vl) {
		svbool_t pg = svwhilelt_b32_u64(i, n);

		c0 += svcntp_b32(pg, svcmpeq_n_s32(pg, svld1_s32(pg, p + i), v));
	}
	return c0 + c1 + c2 + c3;
}

/* impl=unrolled at the SVE level: its algorithm (four vectors of 32-bit
 * counters, each match adding one, folded every COUNT_CHUNK) in SVE. */
uint64_t count_unrolled_sve(const int32_t *p, size_t n, int32_t v)
{
	const svbool_t all = svptrue_b32();
	const size_t vl = svcntw(), step = 4 * vl;
	uint64_t total = 0;
	size_t i = 0;

	while (n - i >= step) {
		size_t left = (n - i) / step * step;
		size_t stop = i + (left < COUNT_CHUNK ? left : COUNT_CHUNK);
		svuint32_t c0 = svdup_n_u32(0), c1 = c0, c2 = c0, c3 = c0;

		for (; i < stop; i += step) {
			c0 = svadd_n_u32_m(svcmpeq_n_s32(all, svld1_s32(all, p + i), v), c0, 1);
			c1 = svadd_n_u32_m(svcmpeq_n_s32(all, svld1_s32(all, p + i + vl), v), c1, 1);
			c2 = svadd_n_u32_m(svcmpeq_n_s32(all, svld1_s32(all, p + i + 2 * vl), v), c2, 1);
			c3 = svadd_n_u32_m(svcmpeq_n_s32(all, svld1_s32(all, p + i + 3 * vl), v), c3, 1);
		}
		total += svaddv_u32(all, svadd_u32_x(all, svadd_u32_x(all, c0, c1),
						     svadd_u32_x(all, c2, c3)));
	}
	for (; i < n; i += vl) {
		svbool_t pg = svwhilelt_b32_u64(i, n);

		total += svcntp_b32(pg, svcmpeq_n_s32(pg, svld1_s32(pg, p + i), v));
	}
	return total;
}

ISA_SVE_END
#endif

uint64_t count_width_run(const int32_t *p, size_t n, int32_t v, int width)
{
#if ISA_SVE_BUILT
	if (width == COUNT_SVE)
		return count_sve(p, n, v);
#endif
	(void)width;
	return count_neon(p, n, v);
}

#endif
