/*
 * vec_arm64.h - arm64's streaming stores for vec.h, at the NEON level
 * (16-byte vectors): STNP, the non-temporal store of a pair of 16-byte
 * registers, two to a line.  It is a hint that the line need not be
 * kept in the cache, which a core may follow or not: many (Neoverse N1
 * and later) already write a long run of whole lines without reading
 * them first, whatever the store, so nt may change little there.
 * Ordinary memory ordering holds for STNP stores, so no fence is
 * needed.  The SVE level's loops, with STNT1, are sve.c's.
 *
 * Included by vec.h only.
 */
#ifndef MEMJOB_KERNELS_VEC_ARM64_H
#define MEMJOB_KERNELS_VEC_ARM64_H

/* p: on a line boundary; v: the line's four vectors */
ISA_INLINE void vec_stream_line16(void *p, const vec16 *v)
{
	__asm__ __volatile__("stnp %q1, %q2, [%0]\n\t"
			     "stnp %q3, %q4, [%0, #32]"
			     :: "r"(p), "w"(v[0]), "w"(v[1]), "w"(v[2]),
				"w"(v[3]) : "memory");
}

static inline void vec_stream_fence(void)
{
}

/* What the streaming stores of level l are, for source_info. */
static inline const char *vec_nt_name(enum isa_level l)
{
	return l == ISA_SVE ? "sve non-temporal stores (STNT1)" :
		"neon non-temporal pair stores (STNP)";
}

#endif
