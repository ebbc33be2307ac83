/*
 * kernel_memops.c - the simple kernels: none, sum, copy and fill.
 *
 * They are what a job does with its data when the question is about the
 * data's path rather than the arithmetic: none only moves it (the
 * default), sum reads every integer, copy makes the CPU move each block a
 * second time, and fill produces the data a write job writes (optionally
 * with non-temporal stores that bypass the caches).
 *
 * sum and fill view a block as len / 4 int32s; when len is not a multiple
 * of 4 the trailing 1..3 bytes are ignored (fill leaves them untouched).
 * Blocks are at least 4-byte aligned (the engine guarantees it).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ioengines/filegen.h"
#include "kernels/kernel.h"
#include "kernels/sve.h"
#include "kernels/vec.h"
#include "machine/isa.h"

#if ISA_SVE_BUILT	/* each loop's SVE level (isa.h) */
#define sum_int32_sve(p, n)		sve_sum_int32(p, n)
#define copy_vec_sve(d, s, n)		sve_copy(d, s, n)
#define fill_vec_sve(nt, p, n, x)	sve_fill(p, n, x, nt)
#endif

/* KERN_INT32 kernels: a block of bs bytes must hold whole integers. */
static int check_bs_int32(const struct job_spec *job, struct diag *d,
			  const char *kernel)
{
	if (job->bs % 4 == 0)
		return 0;
	diag_error(d, job_loc(job, "bs"), "bs",
		   "kernel=%s views blocks as 32-bit integers; bs must be a multiple of 4, got %llu",
		   kernel, (unsigned long long)job->bs);
	return -EINVAL;
}

/* ---- none ---------------------------------------------------------- */

const struct kernel_ops kernel_none_ops = {
	.name = "none",
	.help = "compute nothing: the data is only moved",
	.flags = 0,
	.init = kernel_init_result,
	.run = kernel_run_nothing,
	.fini = kernel_fini_nothing,
};

/* ---- sum ----------------------------------------------------------- */

static int sum_validate(const struct job_spec *job, struct diag *d)
{
	return check_bs_int32(job, d, "sum");
}

/*
 * Each int32 is sign-extended and added into 64 bits; the total wraps
 * modulo 2^64, so the result is the same whatever the order of addition.
 *
 * The loop widens nothing.  From memory, one core's read rate follows how
 * many instructions wait on each line's load (the fewer, the more lines
 * in flight): on the Zen 5 guest this was measured on, a loop of plain
 * 64-byte loads read 42-43 GB/s, and a widening loop (vpmovsxdq from
 * memory, an add) 39-40, at four instructions a line.  This one takes
 * each 64-bit lane of the data as a pair of int32s, h (the high one) and
 * l, and flips both sign bits in the load itself (an xor from memory):
 * q = hv * 2^32 + v, with hv = h + 2^31 and v = l + 2^31, both exactly,
 * both unsigned.  Two sums, each lane modulo 2^64:
 *	A = sum q        = 2^32 * sum hv + sum v
 *	H = sum (q >> 32) = sum hv	(a logical shift: every level has it)
 * and the total is sum h + sum l = sum hv + sum v - lanes * 2^32
 *	= A - (2^32 - 1) * H - lanes * 2^32,
 * exact modulo 2^64 whatever the data.  Three instructions a vector
 * beside the load, SUM_VECS(W) vectors a turn, each with its own two
 * sums (eight at AVX-512's 32 registers, four where there are 16);
 * count_x86.c's loop is built the same way, for the same reason.  memjob
 * sum read 40.0 GB/s with it at AVX-512, 38.0 with the widening loop,
 * likwid-bench's load_avx512 41.1 (medians of nine alternating rounds,
 * 768 MB, one thread).  At the lower levels it replaced widening loops
 * too (MEMJOB_ISA, seven alternating rounds, the host busier): AVX2 33.6
 * GB/s against 29.9, SSE2 29.1 against 15.7 (SSE2 has no widening load:
 * the compiler's conversion took several instructions a vector).  Once
 * a page it prefetches ahead (vec_read_ahead, vec.h).  Fewer
 * instructions were not faster (standalone loops at AVX-512, 768 MB,
 * four alternating rounds): int32 sums modulo 2^32 with the high 16
 * bits summed apart (vpaddd and vpsrad from memory, each line loaded
 * twice; exact over blocks of 2^16 vectors) read 21.7-29.1 GB/s, and
 * VNNI (vpaddd and vpdpwssd on one load: two a line) 37.6-38.8, against
 * 39.3-40.6 for this loop (once 33.6) and 40.9-41.3 for one xor and one
 * add a line (not a sum: the bound on what a loop of two could read).
 */
#define SUM_VECS(W)	((W) == 64 ? 8 : 4)
#define SUM_BIAS	0x8000000080000000ULL

#define SUM_VEC(W, u)							\
	do {								\
		sum_vu##W q;						\
									\
		__builtin_memcpy(&q, p + i + (u) * lanes * 2, sizeof(q)); \
		q ^= bias;						\
		a##u += q;						\
		h##u += q >> 32;					\
	} while (0)

#define SUM_BODY(W)							\
typedef uint64_t sum_vu##W __attribute__((vector_size(W)));		\
ISA_TARGET_W##W ISA_INLINE uint64_t sum_int32_body##W(const int32_t *p,	\
						      size_t n)		\
{									\
	const size_t lanes = (W) / sizeof(uint64_t);			\
	const size_t turn = SUM_VECS(W) * lanes * 2;	/* int32s */	\
	const sum_vu##W bias = (sum_vu##W){ 0 } + SUM_BIAS;		\
	sum_vu##W a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 },	\
		a4 = { 0 }, a5 = { 0 }, a6 = { 0 }, a7 = { 0 },		\
		h0 = { 0 }, h1 = { 0 }, h2 = { 0 }, h3 = { 0 },		\
		h4 = { 0 }, h5 = { 0 }, h6 = { 0 }, h7 = { 0 };		\
	uint64_t sa = 0, sh = 0, s;					\
	size_t i = 0;							\
									\
	for (; n - i >= turn; i += turn) {				\
		if (!(i % (VEC_READ_EVERY / sizeof(*p))))		\
			vec_read_ahead(p + i);				\
		SUM_VEC(W, 0);						\
		SUM_VEC(W, 1);						\
		SUM_VEC(W, 2);						\
		SUM_VEC(W, 3);						\
		if (SUM_VECS(W) == 8) {					\
			SUM_VEC(W, 4);					\
			SUM_VEC(W, 5);					\
			SUM_VEC(W, 6);					\
			SUM_VEC(W, 7);					\
		}							\
	}								\
	a0 += a1 + a2 + a3 + a4 + a5 + a6 + a7;				\
	h0 += h1 + h2 + h3 + h4 + h5 + h6 + h7;				\
	for (size_t j = 0; j < lanes; j++) {				\
		sa += a0[j];						\
		sh += h0[j];						\
	}								\
	/* i int32s make i / 2 lanes, each with two halves biased */	\
	s = sa - ((1ULL << 32) - 1) * sh - ((uint64_t)i << 31);		\
	for (; i < n; i++)						\
		s += (uint64_t)(int64_t)p[i];				\
	return s;							\
}
_Static_assert(SUM_VECS(64) == 8 && SUM_VECS(32) == 4 && SUM_VECS(16) == 4,
	       "SUM_BODY unrolls SUM_VEC 4 or 8 times");

SUM_BODY(16)
#ifdef __x86_64__
SUM_BODY(32)
SUM_BODY(64)
#endif

ISA_CLONES_WIDE(uint64_t, sum_int32, (const int32_t *p, size_t n), (p, n))

static void sum_run(struct kstate *k, void *buf, size_t len)
{
	k->result += sum_int32(buf, len / sizeof(int32_t));
}

/* The kernels whose every impl is one loop in ISA_CLONES. */
static const char *vector_variant(const struct kstate *k)
{
	(void)k;
	return isa_name(isa_level());
}

const struct kernel_ops kernel_sum_ops = {
	.name = "sum",
	.help = "add up the 32-bit integers (signed, into 64 bits that wrap)",
	.result_name = "sum",
	.flags = KERN_RESULT | KERN_INT32 | KERN_SIGNED,
	.validate = sum_validate,
	.init = kernel_init_result,
	.run = sum_run,
	.variant = vector_variant,
	.fini = kernel_fini_nothing,
};

/* ---- copy ---------------------------------------------------------- */

/*
 * One private buffer of bs bytes.  A read job copies each block into it;
 * a write job copies it into each block, so it holds the job's pattern
 * (from offset 0) and what is written is defined.  The buffer is filled
 * here, outside the timed part, which also faults its pages in.
 */
static int copy_init(struct kstate *k)
{
	const struct job_spec *job = k->job;
	size_t len, alloc;
	void *buf;

	if (!job || job->bs == 0 || job->bs > SIZE_MAX - 63)
		return -EINVAL;
	len = (size_t)job->bs;
	alloc = (len + 63) & ~(size_t)63;	/* aligned_alloc wants a multiple */
	buf = aligned_alloc(64, alloc);
	if (!buf)
		return -ENOMEM;
	if (RW_IS_WRITE(job->rw))
		pattern_fill(&job->pattern, job->pattern_seed, 0, buf, len);
	else
		memset(buf, 0, len);
	k->priv = buf;
	k->priv_len = len;
	k->result = 0;
	return 0;
}

/*
 * The copy loop, once per vector level at that level's register width
 * (16 bytes for the baseline, 32 for AVX2, 64 for AVX-512), four vectors
 * per step, in the compiler's generic vectors at any alignment.  Left as
 * a plain loop, GCC and clang recognise it and call memcpy (the C
 * library's choice of width and method, e.g. rep movsb), so an empty asm
 * makes the source pointer opaque at each step: it costs no instruction
 * and keeps the loop a loop.  objdump -d copy_vec_avx2: vmovdqu ymm
 * loads and stores.
 */
#define COPY_BODY(W)							\
typedef unsigned char copy_vec##W __attribute__((vector_size(W)));	\
ISA_INLINE int copy_vec_body##W(char *restrict d, const char *restrict s, \
				size_t n)				\
{									\
	const char *end = s + n;					\
									\
	while ((size_t)(end - s) >= 4 * (W)) {				\
		copy_vec##W a, b, c, e;					\
									\
		__builtin_memcpy(&a, s, (W));				\
		__builtin_memcpy(&b, s + (W), (W));			\
		__builtin_memcpy(&c, s + 2 * (W), (W));			\
		__builtin_memcpy(&e, s + 3 * (W), (W));			\
		__builtin_memcpy(d, &a, (W));				\
		__builtin_memcpy(d + (W), &b, (W));			\
		__builtin_memcpy(d + 2 * (W), &c, (W));			\
		__builtin_memcpy(d + 3 * (W), &e, (W));			\
		s += 4 * (W);						\
		d += 4 * (W);						\
		__asm__("" : "+r"(s));					\
	}								\
	while ((size_t)(end - s) >= (W)) {				\
		copy_vec##W a;						\
									\
		__builtin_memcpy(&a, s, (W));				\
		__builtin_memcpy(d, &a, (W));				\
		s += (W);						\
		d += (W);						\
		__asm__("" : "+r"(s));					\
	}								\
	while (s < end)		/* fewer than W bytes left */		\
		*d++ = *s++;						\
	return 0;							\
}

COPY_BODY(16)
#ifdef __x86_64__
COPY_BODY(32)
COPY_BODY(64)
#endif

/* int: ISA_CLONES returns what the body does */
ISA_CLONES_WIDE(int, copy_vec, (char *restrict d, const char *restrict s,
				size_t n), (d, s, n))

static void copy_run(struct kstate *k, void *buf, size_t len)
{
	size_t n = len < k->priv_len ? len : k->priv_len;

	if (RW_IS_WRITE(k->job->rw))
		copy_vec(buf, k->priv, n);
	else
		copy_vec(k->priv, buf, n);
}

const struct kernel_ops kernel_copy_ops = {
	.name = "copy",
	.help = "copy each block into a private buffer of bs bytes (writes: "
		"from it), a read of the data whose stores stay in the "
		"cache; bytes are the block's, once (STREAM's copy of one "
		"array into another is stream_copy)",
	.flags = 0,
	.init = copy_init,
	.run = copy_run,
	.variant = vector_variant,
	.fini = kernel_fini_free,
};

/* ---- fill ---------------------------------------------------------- */

enum fill_impl { FILL_PLAIN, FILL_NT };

static const char *const fill_impls[] = {
	[FILL_PLAIN] = "plain",
	[FILL_NT] = "nt",
	NULL,
};

static int fill_validate(const struct job_spec *job, struct diag *d)
{
	return check_bs_int32(job, d, "fill");
}

/*
 * fill_line##W: one 64-byte line of int32s, in vectors of W bytes,
 * stored plainly or streamed (p on a line boundary).  fill_pass##W: a
 * scalar head to the line boundary, whole lines four at a time, a scalar
 * tail; nt is a constant where fill_vec_body##W calls it (the fence is
 * fill_run's).  Streaming stores (vec.h) go around the
 * caches, so a large fill neither evicts the cache's contents nor reads
 * the lines it writes.  objdump -d fill_vec_avx512: vmovdqu64 zmm stores
 * (plain), vmovntdq zmm (nt), four lines a step; fill_vec_base on arm64:
 * two STNP a line (nt).  The SVE level is sve.c's sve_fill.
 */
#define FILL_LOOPS(W)							\
typedef int32_t fill_vi##W __attribute__((vector_size(W)));		\
ISA_TARGET_W##W ISA_INLINE void fill_line##W(const bool nt, int32_t *p,	\
					     fill_vi##W v)		\
{									\
	vec##W r[VEC_LINE / (W)];					\
									\
	for (size_t k = 0; k < VEC_LINE / (W); k++)			\
		if (nt)							\
			r[k] = (vec##W)v;				\
		else							\
			__builtin_memcpy((char *)p + k * (W), &v, (W));	\
	if (nt)								\
		vec_stream_line##W(p, r);				\
}									\
ISA_TARGET_W##W ISA_INLINE void fill_pass##W(const bool nt, int32_t *p,	\
					     size_t n, int32_t x)	\
{									\
	const size_t line = VEC_LINE / sizeof(*p);			\
	const fill_vi##W v = x - (fill_vi##W){ 0 };			\
	size_t i = 0, head = vec_to_line(p) / sizeof(*p);		\
									\
	for (; i < head && i < n; i++)					\
		p[i] = x;						\
	for (; n - i >= 4 * line; i += 4 * line) {			\
		fill_line##W(nt, p + i, v);				\
		fill_line##W(nt, p + i + line, v);			\
		fill_line##W(nt, p + i + 2 * line, v);			\
		fill_line##W(nt, p + i + 3 * line, v);			\
	}								\
	for (; n - i >= line; i += line)				\
		fill_line##W(nt, p + i, v);				\
	for (; i < n; i++)						\
		p[i] = x;						\
}									\
ISA_TARGET_W##W ISA_INLINE int fill_vec_body##W(bool nt, int32_t *p,	\
						size_t n, int32_t x)	\
{									\
	if (nt)								\
		fill_pass##W(true, p, n, x);				\
	else								\
		fill_pass##W(false, p, n, x);				\
	return 0;							\
}

FILL_LOOPS(16)
#ifdef __x86_64__
FILL_LOOPS(32)
FILL_LOOPS(64)
#endif

/* int: ISA_CLONES returns what the body does */
ISA_CLONES_WIDE(int, fill_vec, (bool nt, int32_t *p, size_t n, int32_t x),
		(nt, p, n, x))

/* Blocks are 4-byte aligned (the engine's promise; one that is not is
 * filled byte by byte, plainly). */
static void fill_run(struct kstate *k, void *buf, size_t len)
{
	size_t n = len / sizeof(int32_t);

	if ((uintptr_t)buf % sizeof(int32_t)) {
		for (size_t i = 0; i < n; i++)
			__builtin_memcpy((char *)buf + 4 * i, &k->value, 4);
		return;
	}
	fill_vec(k->impl == FILL_NT, buf, n, k->value);
	if (k->impl == FILL_NT && kernel_block_leaves(k))
		vec_stream_fence();
}

/* nt: what no block fenced is fenced before the job ends. */
static void fill_fini(struct kstate *k)
{
	if (k->impl == FILL_NT)
		vec_stream_fence();
}

/* What ran: the level, and for nt the streaming stores' width. */
static const char *fill_variant(const struct kstate *k)
{
	return k->impl == FILL_NT ? vec_nt_name(isa_level()) :
		isa_name(isa_level());
}

static const char *const fill_options[] = { "value", NULL };

const struct kernel_ops kernel_fill_ops = {
	.options = fill_options,
	.name = "fill",
	.help = "store value= into every 32-bit word of the block",
	.impls = fill_impls,
	.flags = KERN_STORES | KERN_INT32,
	.store_default = true,
	.validate = fill_validate,
	.init = kernel_init_result,
	.run = fill_run,
	.variant = fill_variant,
	.fini = fill_fini,
};
