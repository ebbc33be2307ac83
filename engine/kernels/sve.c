/*
 * sve.c - the bandwidth kernels' loops for SVE (see sve.h).  Four
 * vectors a step where a loop reads (so that several loads are in flight
 * whatever the vector length), then whole vectors, then the predicated
 * rest.  STNT1 is SVE's non-temporal store: a hint that the line need not
 * be kept, which a core may follow or not (sve.h's callers say so).
 */
#include "kernels/sve.h"

#if ISA_SVE_BUILT

ISA_SVE_BEGIN
#include <arm_sve.h>

uint64_t sve_sum_int32(const int32_t *p, size_t n)
{
	const svbool_t all = svptrue_b64();
	const size_t vl = svcntd();	/* int32s per step of 64-bit lanes */
	svint64_t s0 = svdup_n_s64(0), s1 = s0, s2 = s0, s3 = s0;
	size_t i = 0;

	for (; n - i >= 4 * vl; i += 4 * vl) {
		s0 = svadd_s64_x(all, s0, svld1sw_s64(all, p + i));
		s1 = svadd_s64_x(all, s1, svld1sw_s64(all, p + i + vl));
		s2 = svadd_s64_x(all, s2, svld1sw_s64(all, p + i + 2 * vl));
		s3 = svadd_s64_x(all, s3, svld1sw_s64(all, p + i + 3 * vl));
	}
	for (; i < n; i += vl) {
		svbool_t pg = svwhilelt_b64_u64(i, n);

		s0 = svadd_s64_m(pg, s0, svld1sw_s64(pg, p + i));
	}
	s0 = svadd_s64_x(all, svadd_s64_x(all, s0, s1), svadd_s64_x(all, s2, s3));
	return (uint64_t)svaddv_s64(all, s0);
}

int sve_copy(char *restrict d, const char *restrict s, size_t n)
{
	const svbool_t all = svptrue_b8();
	const size_t vl = svcntb();
	const uint8_t *src = (const uint8_t *)s;
	uint8_t *dst = (uint8_t *)d;
	size_t i = 0;

	for (; n - i >= 4 * vl; i += 4 * vl) {
		svuint8_t a = svld1_u8(all, src + i);
		svuint8_t b = svld1_u8(all, src + i + vl);
		svuint8_t c = svld1_u8(all, src + i + 2 * vl);
		svuint8_t e = svld1_u8(all, src + i + 3 * vl);

		svst1_u8(all, dst + i, a);
		svst1_u8(all, dst + i + vl, b);
		svst1_u8(all, dst + i + 2 * vl, c);
		svst1_u8(all, dst + i + 3 * vl, e);
	}
	for (; i < n; i += vl) {
		svbool_t pg = svwhilelt_b8_u64(i, n);

		svst1_u8(pg, dst + i, svld1_u8(pg, src + i));
	}
	return 0;
}

int sve_fill(int32_t *p, size_t n, int32_t v, bool nt)
{
	const svint32_t vv = svdup_n_s32(v);
	const size_t vl = svcntw();
	size_t i;

	if (nt)
		for (i = 0; i < n; i += vl)
			svstnt1_s32(svwhilelt_b32_u64(i, n), p + i, vv);
	else
		for (i = 0; i < n; i += vl)
			svst1_s32(svwhilelt_b32_u64(i, n), p + i, vv);
	return 0;
}

/* One of STREAM's ops, op and nt constants where sve_stream calls it.
 * svmul then svadd: no fused multiply-add (the kernels are built with
 * -ffp-contract=off), so every level gives the scalar loop's bits. */
static inline __attribute__((always_inline))
void sve_stream_body(const enum stream_op op, const bool nt,
		     double *restrict a, const double *restrict b,
		     const double *restrict c, size_t n)
{
	const size_t vl = svcntd();
	size_t i;

	for (i = 0; i < n; i += vl) {
		svbool_t pg = svwhilelt_b64_u64(i, n);
		svfloat64_t x = svld1_f64(pg, b + i), r;

		switch (op) {
		case STREAM_COPY:
			r = x;
			break;
		case STREAM_SCALE:
			r = svmul_n_f64_x(pg, x, STREAM_Q);
			break;
		case STREAM_ADD:
			r = svadd_f64_x(pg, x, svld1_f64(pg, c + i));
			break;
		default:
			r = svadd_f64_x(pg, x, svmul_n_f64_x(pg,
				svld1_f64(pg, c + i), STREAM_Q));
			break;
		}
		if (nt)
			svstnt1_f64(pg, a + i, r);
		else
			svst1_f64(pg, a + i, r);
	}
}

#define SVE_STREAM_OP(o)						\
	(nt ? sve_stream_body(o, true, a, b, c, n) :			\
	      sve_stream_body(o, false, a, b, c, n))

int sve_stream(enum stream_op op, bool nt, double *restrict a,
	       const double *restrict b, const double *restrict c, size_t n)
{
	switch (op) {
	case STREAM_COPY:
		SVE_STREAM_OP(STREAM_COPY);
		break;
	case STREAM_SCALE:
		SVE_STREAM_OP(STREAM_SCALE);
		break;
	case STREAM_ADD:
		SVE_STREAM_OP(STREAM_ADD);
		break;
	default:
		SVE_STREAM_OP(STREAM_TRIAD);
		break;
	}
	return 0;
}

ISA_SVE_END

#endif
