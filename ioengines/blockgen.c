/*
 * blockgen.c - the offsets of one pass, in sequential or random order.
 *
 * Random order needs every block exactly once per pass without a table of
 * block numbers (a 1 TiB file in 4 KiB blocks would need 2 GiB of it).  A
 * balanced Feistel network is a bijection on [0, 2^bits) whatever its
 * round function, so it is one on the smallest even number of bits that
 * covers nblocks; "cycle-walking" (apply it again while the result is
 * >= nblocks) restricts it to a bijection on [0, nblocks).  The domain is
 * less than 4 * nblocks, so a block costs a few rounds on average.  The
 * round keys come from the seed and the pass number through splitmix64,
 * so every pass has its own order and the same (seed, pass) repeats it.
 */
#include "ioengines/blockgen.h"

#define GOLDEN		0x9e3779b97f4a7c15ULL
#define NO_PASS		UINT64_MAX	/* before the first rewind */

static uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += GOLDEN);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void blockgen_derive_keys(struct blockgen *g, uint64_t pass)
{
	uint64_t state = g->seed ^ (pass * 0xd1b54a32d192ed03ULL);

	for (unsigned i = 0; i < 4; i++)
		g->keys[i] = splitmix64_next(&state);
}

/* Smallest even bit count (at least 2) with 2^bits >= n. */
static unsigned blockgen_domain_bits(uint64_t n)
{
	unsigned bits = n > 1 ? 64 - (unsigned)__builtin_clzll(n - 1) : 0;

	bits += bits & 1;
	return bits < 2 ? 2 : bits;
}

void blockgen_init(struct blockgen *g, uint64_t offset, uint64_t size,
		   uint64_t bs, bool random, uint64_t seed)
{
	unsigned bits;

	/* bs 0 would divide by zero: take the whole range as one block. */
	if (bs == 0)
		bs = size ? size : 1;
	g->offset = offset;
	g->size = size;
	g->bs = bs;
	g->mixread = 100;
	g->last_write = false;
	g->nblocks = size / bs + (size % bs != 0);
	g->step = bs;
	g->run = 1;
	g->nplaces = g->nblocks;
	g->repeats = false;
	g->random = random;
	g->seed = seed;
	bits = blockgen_domain_bits(g->nplaces);
	g->half_bits = bits / 2;
	g->half_mask = (1ULL << g->half_bits) - 1;
	/*
	 * Ready to hand out pass 0 even without a rewind; the first rewind
	 * then starts pass 0 again (pass reads NO_PASS until it does).
	 */
	g->pass = NO_PASS;
	g->next = 0;
	g->handed = 0;
	blockgen_derive_keys(g, 0);
}

void blockgen_rewind(struct blockgen *g)
{
	g->pass++;		/* NO_PASS wraps to 0 */
	g->next = 0;
	g->handed = 0;
	if (g->random)
		blockgen_derive_keys(g, g->pass);
}

static uint64_t feistel_round(uint64_t half, uint64_t key, uint64_t mask)
{
	uint64_t h = (half ^ key) * GOLDEN;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return h & mask;
}

static uint64_t feistel(const struct blockgen *g, uint64_t x)
{
	uint64_t mask = g->half_mask;
	uint64_t l = x >> g->half_bits, r = x & mask;

	for (unsigned i = 0; i < 4; i++) {
		uint64_t t = l ^ feistel_round(r, g->keys[i], mask);

		l = r;
		r = t;
	}
	return (l << g->half_bits) | r;
}

uint64_t blockgen_permute(const struct blockgen *g, uint64_t i)
{
	uint64_t x;

	if (!g->random)
		return i;
	/* Terminates: i lies on a cycle of the permutation that holds i. */
	x = feistel(g, i);
	while (x >= g->nplaces)
		x = feistel(g, x);
	return x;
}

void blockgen_set_fio(struct blockgen *g, uint64_t skip, uint64_t run,
		      bool repeats)
{
	unsigned bits;

	g->step = g->bs + skip;
	g->nblocks = g->size / g->step + (g->size % g->step != 0);
	g->run = run > 1 ? run : 1;
	g->nplaces = g->nblocks / g->run + (g->nblocks % g->run != 0);
	g->repeats = repeats;
	bits = blockgen_domain_bits(g->nplaces);
	g->half_bits = bits / 2;
	g->half_mask = (1ULL << g->half_bits) - 1;
}

/* Block number i of the pass (i < nplaces * run; may be >= nblocks in
 * the last, partial run). */
static uint64_t block_of(const struct blockgen *g, uint64_t i)
{
	uint64_t place = i / g->run;

	if (g->random && g->repeats) {
		uint64_t st = g->keys[0] ^ (place * GOLDEN);

		place = splitmix64_next(&st) % g->nplaces;
	} else {
		place = blockgen_permute(g, place);
	}
	return place * g->run + i % g->run;
}

int blockgen_next(struct blockgen *g, uint64_t *off, size_t *len)
{
	uint64_t blk, start, left;

	if (g->next >= g->nblocks)
		return 0;
	if (g->run == 1 && !g->repeats) {
		blk = blockgen_permute(g, g->next);
	} else {
		/* the last run may be partial: its missing blocks are passed
		 * over, so a pass still hands out nblocks blocks */
		do
			blk = block_of(g, g->handed++);
		while (blk >= g->nblocks);
	}
	g->next++;
	start = blk * g->step;
	left = g->size - start;
	*off = g->offset + start;
	*len = (size_t)(left < g->bs ? left : g->bs);
	if (g->mixread < 100) {
		uint64_t st = g->seed ^ (g->pass * 0x9e3779b97f4a7c15ull) ^
			      (blk * 0xbf58476d1ce4e5b9ull);

		g->last_write = splitmix64_next(&st) % 100 >= g->mixread;
	}
	return 1;
}

void blockgen_set_mix(struct blockgen *g, unsigned pct)
{
	g->mixread = pct > 100 ? 100 : pct;
}
