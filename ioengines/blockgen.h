/*
 * blockgen.h - the offsets of one pass, in sequential or random order.
 *
 * A pass covers [offset, offset + size) in blocks of bs; the last block is
 * short when bs does not divide size.  Random order visits every block
 * exactly once per pass, in an order drawn from a keyed bijection on the
 * block numbers (no per-block memory, so a 1 TiB file costs nothing), and
 * each pass draws a new order from the seed and the pass number.
 */
#ifndef MEMJOB_BLOCKGEN_H
#define MEMJOB_BLOCKGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct blockgen {
	uint64_t offset, size, bs;
	uint64_t nblocks;
	uint64_t next;			/* blocks handed out this pass */
	uint64_t pass;
	bool random;
	uint64_t seed;
	/* permutation state */
	unsigned half_bits;
	uint64_t half_mask;
	uint64_t keys[4];
	/* rw, randrw: the % of blocks read, and the last block's direction */
	unsigned mixread;		/* 100: every block is read */
	bool last_write;
	/* fio's order modifiers (blockgen_set_fio): bytes between blocks,
	 * blocks in a row per random place, places drawn with repeats */
	uint64_t step;			/* bs + skip */
	uint64_t run;			/* 1: each block its own place */
	uint64_t nplaces;		/* what the permutation permutes */
	bool repeats;
	uint64_t handed;		/* indexes used this pass (runs) */
};

void blockgen_init(struct blockgen *g, uint64_t offset, uint64_t size,
		   uint64_t bs, bool random, uint64_t seed);
/* Start a new pass (the first call starts pass 0). */
void blockgen_rewind(struct blockgen *g);
/* 1 and the next block, or 0 when this pass is done. */
int blockgen_next(struct blockgen *g, uint64_t *off, size_t *len);
/* Mix reads and writes: pct% of the blocks are reads, the others writes,
 * drawn per block from the seed, the pass and the block number (the same
 * job writes the same blocks).  blockgen_next() then sets last_write. */
void blockgen_set_mix(struct blockgen *g, unsigned pct);

/* fio's rw=read:SKIP (SKIP bytes left out after each block), rw=randread:
 * RUN (RUN blocks in a row from each random place) and norandommap
 * (random places drawn independently, so some repeat): call after init. */
void blockgen_set_fio(struct blockgen *g, uint64_t skip, uint64_t run,
		      bool repeats);

/* The permutation itself, exposed for the tests: block i of the pass. */
uint64_t blockgen_permute(const struct blockgen *g, uint64_t i);

#endif
