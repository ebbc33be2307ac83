/*
 * vec.h - what the bandwidth kernels (fill, the stream kernels, rwmix) build
 * their loops from at each vector width W of isa.h's levels (64, 32 and
 * 16 bytes): a vector type of W bytes, the streaming (non-temporal)
 * store of one line from such vectors, the fence that orders those
 * stores before what follows.
 *
 * The loops themselves are plain C in the compiler's generic vectors;
 * only the streaming store is the CPU's own instruction, and each
 * architecture's are in a header of its own (vec_x86.h: movntdq at 16,
 * 32 and 64 bytes; vec_arm64.h: STNP, a pair of 16-byte NEON
 * registers; the SVE level's loops are sve.c's).  Where memjob knows no
 * streaming store for the CPU, the store is a plain one and
 * vec_nt_name() says so, so that no report claims streaming stores that
 * did not run.
 *
 * The line (64 bytes) is the unit of a streaming store's loop: a kernel
 * stores whole aligned lines with them, and what is left at either end
 * of its range (less than a line) with plain stores, so no line is
 * written both ways and none is split between two streaming stores.
 */
#ifndef MEMJOB_KERNELS_VEC_H
#define MEMJOB_KERNELS_VEC_H

#include <stddef.h>
#include <stdint.h>

#include "machine/isa.h"

#define VEC_LINE	64	/* bytes a streaming loop stores whole */

typedef unsigned char vec64 __attribute__((vector_size(64)));
typedef unsigned char vec32 __attribute__((vector_size(32)));
typedef unsigned char vec16 __attribute__((vector_size(16)));

/*
 * The read loops (sum, count): once every VEC_READ_EVERY bytes read, a
 * prefetch VEC_READ_AHEAD bytes ahead (prefetchnta on x86-64).  The
 * hardware prefetchers stop at each 4 KiB page, so the first lines of a
 * page waited for the page walk and for memory with little in flight;
 * one prefetch a page starts both two pages early.  sum at AVX-512 on
 * the Zen 5 guest this was measured on (768 MB on 4 KiB pages, one
 * thread, seven alternating rounds): 41.2 GB/s against 38.0 without it,
 * AVX2 35.8 against 34.9, SSE2 unchanged (30.8, 31.0); in standalone
 * loops, prefetchnta 8 KiB ahead read 41.2, prefetcht0 4 KiB ahead
 * 40.7 and 16 KiB 40.4, none 40.0.  A prefetch
 * every few lines instead (0.5 to 16 KiB ahead) made the loop slower:
 * each is one more instruction in the loop.
 */
#define VEC_READ_EVERY	4096	/* bytes */
#define VEC_READ_AHEAD	8192	/* bytes */

static inline void vec_read_ahead(const void *p)
{
	__builtin_prefetch((const char *)p + VEC_READ_AHEAD, 0, 0);
}

/* Bytes from p to the next line boundary (0 when p is on one). */
static inline size_t vec_to_line(const void *p)
{
	return (VEC_LINE - (uintptr_t)p % VEC_LINE) % VEC_LINE;
}

/*
 * Each architecture's header gives, for each width W its levels have:
 *   vec_stream_line##W(p, v)  the line at p (on a line boundary) from
 *                             the VEC_LINE / W vectors v[], streamed
 * and vec_stream_fence(), vec_nt_name(level).
 */
#if defined(__x86_64__)
#include "kernels/vec_x86.h"
#elif defined(__aarch64__)
#include "kernels/vec_arm64.h"
#else

/* No streaming store known here: the stores are plain ones. */
ISA_INLINE void vec_stream_line16(void *p, const vec16 *v)
{
	__builtin_memcpy(p, v, VEC_LINE);
}

static inline void vec_stream_fence(void)
{
}

static inline const char *vec_nt_name(enum isa_level l)
{
	(void)l;
	return "plain stores (memjob has no streaming store for this CPU)";
}

#endif

#endif
