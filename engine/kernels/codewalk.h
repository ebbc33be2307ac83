/*
 * codewalk.h - kernel=codewalk's generated code footprint (seed 001).
 *
 * engine/gen-codewalk.sh writes build/gen/codewalk_funcs.c at build time:
 * CODEWALK_NFUNCS distinct functions, each exactly CODEWALK_FUNC_BYTES
 * long (one cache line, padded) and laid out back to back in table order,
 * so n functions are n * CODEWALK_FUNC_BYTES bytes of code, no more and no
 * less.  Function k turns every item of the array it is given into
 *
 *	rotl((v ^ a_k) * b_k, r_k) + c_k
 *
 * with its own constants, so no two functions compute the same thing and
 * every one of them is a bijection of the 64-bit value.  The items are
 * independent of each other: within one call the CPU may overlap them.
 *
 * The functions are written in assembly (inside the generated C file) for
 * two reasons: a C compiler takes minutes over tens of thousands of
 * functions, and the assembler cannot reorder, merge, inline, unroll or
 * vectorise them, so every function is the same instructions at a known
 * address.  They exist for x86-64 and arm64 (sixteen instructions there,
 * the constants built in registers); elsewhere codewalk_nfuncs is 0 and
 * kernel=codewalk refuses to run.
 *
 * The generator reads the two numbers below from this file.
 */
#ifndef MEMJOB_CODEWALK_H
#define MEMJOB_CODEWALK_H

#include <stddef.h>
#include <stdint.h>

#include "spec/options.h"

#define CODEWALK_NFUNCS		65536	/* 4 MiB of code in all */
#define CODEWALK_FUNC_BYTES	64

/* Its options (code_size, batch), parsed into its own struct. */
struct codewalk_opts {
	uint64_t code_size;		/* bytes of code per pass */
	unsigned batch;			/* items per function call */
};

extern const struct opt_group kernel_codewalk_opts;

struct codewalk_item {
	uint64_t v;
};

typedef void codewalk_fn(struct codewalk_item *items, unsigned n);

/* From the generated file: the functions in address order. */
extern codewalk_fn *const codewalk_table[];
extern const size_t codewalk_nfuncs;	/* CODEWALK_NFUNCS, or 0 */

/*
 * The kernel's private state (kstate.priv), here so that the unit test
 * can check the pass it set up.
 */
struct codewalk {
	codewalk_fn **order;		/* one pass: nfuncs functions */
	size_t nfuncs;
	struct codewalk_item *items;	/* batch items, 64-byte aligned */
	unsigned batch;
};

/* Functions a pass over code_size bytes of code calls: code_size rounded
 * down to whole functions (0 when it is below one function). */
size_t codewalk_funcs_for(uint64_t code_size);

/* Item i's value before the first pass (and after init's warm-up). */
uint64_t codewalk_item_start(unsigned i);

#endif
