/*
 * sve.h - the loops of the bandwidth kernels (sum, copy, fill, STREAM's,
 * rwmix) at the SVE level (isa.h), in SVE's own intrinsics (sve.c): one
 * loop for every vector length the CPU may have (128 to 2048 bits), the
 * last, partial vector under a WHILELT predicate, so no scalar tail.  Each
 * kernel's ISA_CLONES dispatcher calls its NAME_sve, which the kernel
 * maps onto these.  They exist where ISA_SVE_BUILT; the dispatcher runs
 * them only where HWCAP has SVE.
 */
#ifndef MEMJOB_KERNELS_SVE_H
#define MEMJOB_KERNELS_SVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/stream_op.h"
#include "machine/isa.h"

#if ISA_SVE_BUILT

/* The int32s of p[0..n), sign-extended and added into 64 bits that wrap. */
uint64_t sve_sum_int32(const int32_t *p, size_t n);
/* Copy n bytes; 0. */
int sve_copy(char *restrict d, const char *restrict s, size_t n);
/* Store v into p[0..n), with non-temporal stores (STNT1) when nt; 0. */
int sve_fill(int32_t *p, size_t n, int32_t v, bool nt);
/* STREAM's op over n doubles (c unread by copy and scale), a stored
 * non-temporally (STNT1) when nt; the product rounded before the sum, as
 * at every other level; 0. */
int sve_stream(enum stream_op op, bool nt, double *restrict a,
	       const double *restrict b, const double *restrict c, size_t n);
/* kernel=rwmix over lines 64-byte lines from p: of each group of r + w
 * lines, the r read and the w written with bytes of 0x5a (STNT1 when
 * nt); the XOR of every 64-bit word read. */
uint64_t sve_rwmix(char *p, size_t lines, unsigned r, unsigned w, bool nt);

#endif

#endif
