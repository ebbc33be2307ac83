/*
 * sve.c - the bandwidth kernels' loops for SVE (see sve.h).  Four
 * vectors a step where a loop reads (so that several loads are in flight
 * whatever the vector length), then whole vectors, then the predicated
 * rest.  STNT1 is SVE's non-temporal store: a hint that the line need not
 * be kept, which a core may follow or not (sve.h's callers say so).
 */
#include "kernels/sve.h"
#include "kernels/vec.h"

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

/*
 * rwmix: a group's r lines read are one run of bytes, and its w lines
 * written the next, so each run is streamed in whole vectors and a
 * predicated rest, whatever the vector length is next to a 64-byte line
 * (a 2048-bit vector holds four; a 128-bit one a quarter).  The loads
 * are bytes folded with EOR: byte lanes at the same place in the vector
 * are the same bytes of 64-bit words (a vector is a whole number of
 * them), so the XOR of the accumulators' 64-bit lanes is the XOR of
 * every word read, the checksum of every other level.
 */
static inline __attribute__((always_inline))
svuint8_t sve_rwmix_read(svuint8_t acc, const uint8_t *p, size_t n)
{
	const svbool_t all = svptrue_b8();
	const size_t vl = svcntb();
	svuint8_t acc1 = svdup_n_u8(0), acc2 = acc1, acc3 = acc1;
	size_t i = 0;

	for (; n - i >= 4 * vl; i += 4 * vl) {
		acc = sveor_u8_x(all, acc, svld1_u8(all, p + i));
		acc1 = sveor_u8_x(all, acc1, svld1_u8(all, p + i + vl));
		acc2 = sveor_u8_x(all, acc2, svld1_u8(all, p + i + 2 * vl));
		acc3 = sveor_u8_x(all, acc3, svld1_u8(all, p + i + 3 * vl));
	}
	for (; i < n; i += vl) {
		svbool_t pg = svwhilelt_b8_u64(i, n);

		acc = sveor_u8_m(pg, acc, svld1_u8(pg, p + i));
	}
	acc1 = sveor_u8_x(all, acc1, sveor_u8_x(all, acc2, acc3));
	return sveor_u8_x(all, acc, acc1);
}

/* The w lines' run: nt constant where sve_rwmix calls it. */
static inline __attribute__((always_inline))
void sve_rwmix_write(const bool nt, uint8_t *p, size_t n)
{
	const svuint8_t line = svdup_n_u8(0x5a);
	const size_t vl = svcntb();
	size_t i;

	for (i = 0; i < n; i += vl) {
		svbool_t pg = svwhilelt_b8_u64(i, n);

		if (nt)
			svstnt1_u8(pg, p + i, line);
		else
			svst1_u8(pg, p + i, line);
	}
}

/* The XOR of the accumulator's 64-bit lanes. */
static inline __attribute__((always_inline))
uint64_t sve_rwmix_fold(svuint8_t acc)
{
	return sveorv_u64(svptrue_b64(), svreinterpret_u64_u8(acc));
}

static inline __attribute__((always_inline))
uint64_t sve_rwmix_body(const bool nt, uint8_t *p, size_t lines, unsigned r,
			unsigned w)
{
	svuint8_t acc = svdup_n_u8(0);
	size_t i = 0, n;

	while (i < lines) {
		n = lines - i < r ? lines - i : r;
		if (n)
			acc = sve_rwmix_read(acc, p + i * VEC_LINE,
					     n * VEC_LINE);
		i += n;
		n = lines - i < w ? lines - i : w;
		sve_rwmix_write(nt, p + i * VEC_LINE, n * VEC_LINE);
		i += n;
	}
	return sve_rwmix_fold(acc);
}

uint64_t sve_rwmix(char *p, size_t lines, unsigned r, unsigned w, bool nt)
{
	uint8_t *b = (uint8_t *)p;

	if (!w)		/* all reads: one run over the block */
		return sve_rwmix_fold(sve_rwmix_read(svdup_n_u8(0), b,
						     lines * VEC_LINE));
	return nt ? sve_rwmix_body(true, b, lines, r, w) :
		    sve_rwmix_body(false, b, lines, r, w);
}

ISA_SVE_END

#endif
