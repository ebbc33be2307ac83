/*
 * rwmix.c - "rwmix": memory traffic of a given read:write mix, as MLC's
 * peak injection bandwidth runs it (all reads, 3:1, 2:1, 1:1): of each
 * group of R + W cache lines of a block (rwmix_ratio=R:W), the first R
 * are read and the next W written, in order, so a pass reads R/(R+W) of
 * the job's bytes and writes the rest, and the job's GB/s is the two
 * together (MLC's count).  rw=read: the kernel does the writing, into the
 * job's own memory (ioengine=mem); write_bytes says how much it wrote.
 *
 * Reads are wide loads folded into an accumulator (the widest vectors
 * the CPU has, ISA_CLONES_WIDE), so they cost what a plain load loop
 * costs; writes store a constant with plain stores (impl=plain: the
 * cache first reads each line it will own, so memory moves the line in
 * and later out) or with non-temporal stores (impl=nt: no read for
 * ownership, the lines go around the caches; a fence at the end of the
 * block orders them).  rwmix_ratio=1:0 is all reads, 0:1 all writes.
 * The figure does not count the read for ownership (like STREAM and MLC,
 * it counts what the program moves).  At the SVE level the loop is
 * sve.c's (sve_rwmix, STNT1 for nt), the same reads, bytes and checksum.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "kernels/rwmix.h"
#include "kernels/sve.h"
#include "kernels/vec.h"
#include "machine/isa.h"

#define LINE		VEC_LINE
#define RWMIX_MAX	64	/* lines read or written a group, at most */

enum rwmix_impl { RWMIX_PLAIN, RWMIX_NT };

static const char *const rwmix_impls[] = {
	[RWMIX_PLAIN] = "plain",
	[RWMIX_NT] = "nt",
	NULL,
};

struct rwmix {
	unsigned reads, writes;		/* lines of each group */
};

int rwmix_parse(const char *s, unsigned *reads, unsigned *writes,
		const char **why)
{
	char *end;
	unsigned long r, w;

	*why = "expected R:W, the cache lines read and written of each "
	       "group (3:1; 1:0 is all reads, 0:1 all writes), each 0 to 64 "
	       "and not both 0";
	if (!s || *s < '0' || *s > '9')
		return -1;
	r = strtoul(s, &end, 10);
	if (*end != ':' || end[1] < '0' || end[1] > '9')
		return -1;
	w = strtoul(end + 1, &end, 10);
	if (*end || r > RWMIX_MAX || w > RWMIX_MAX || r + w == 0)
		return -1;
	*reads = (unsigned)r;
	*writes = (unsigned)w;
	return 0;
}

static const struct rwmix_opts *opts_of(const struct job_spec *job)
{
	return job_opts(job, &kernel_rwmix_opts);
}

static int rwmix_validate(const struct job_spec *job, struct diag *d)
{
	unsigned r, w;
	const char *why;
	int ret = 0;

	if (rwmix_parse(opts_of(job)->ratio, &r, &w, &why)) {
		diag_error(d, job_loc(job, "rwmix_ratio"), "rwmix_ratio",
			   "%s; got '%s'", why, opts_of(job)->ratio);
		ret = -EINVAL;
	}
	if (job->bs % LINE) {
		diag_error(d, job_loc(job, "bs"), "bs",
			   "kernel=rwmix reads and writes whole cache lines: bs must be a multiple of %d, got %llu",
			   LINE, (unsigned long long)job->bs);
		ret = -EINVAL;
	}
	if (RW_IS_WRITE(job->rw) || RW_IS_MIXED(job->rw)) {
		diag_error(d, job_loc(job, "rw"), "rw",
			   "kernel=rwmix mixes the reads and writes itself (rwmix_ratio): use rw=read or randread");
		ret = -EINVAL;
	}
	/* the writes go into the job's own memory */
	if (kernel_check_own_memory(job, d, "its writes"))
		ret = -EINVAL;
	return ret;
}

static int rwmix_init(struct kstate *k)
{
	struct rwmix *m;
	const char *why;

	if (!k->job)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	if (rwmix_parse(opts_of(k->job)->ratio, &m->reads, &m->writes,
			&why)) {
		free(m);
		return -EINVAL;
	}
	k->priv = m;
	k->priv_len = sizeof(*m);
	k->result = 0;
	k->stored = 0;
	return 0;
}

/*
 * One body per vector width W: a line is LINE / W vectors.  The loads
 * are folded into two accumulators (no chain longer than half the
 * loads), returned so that no load can be dropped; the stores write a
 * constant line, plainly or with the CPU's streaming stores (vec.h:
 * plain ones where memjob knows none, and the variant says so).
 */
#define RWMIX_BODY(W)							\
typedef uint64_t rwmix_v##W __attribute__((vector_size(W)));		\
ISA_TARGET_W##W ISA_INLINE uint64_t rwmix_vec_body##W(char *p, size_t lines, \
				  unsigned r, unsigned w, int nt)	\
{									\
	rwmix_v##W acc0 = { 0 }, acc1 = { 0 }, val = { 0 }, x;		\
	vec##W line[LINE / (W)];					\
	uint64_t sum = 0;						\
	size_t i = 0;							\
									\
	val += 0x5a5a5a5a5a5a5a5aull;					\
	for (size_t k = 0; k < LINE / (W); k++)				\
		line[k] = (vec##W)val;					\
	if (!w) {		/* all reads: a plain load loop */	\
		rwmix_v##W acc2 = { 0 }, acc3 = { 0 };			\
		const char *l = p, *end = p + lines * LINE;		\
									\
		for (; end - l >= 4 * (W); l += 4 * (W)) {		\
			__builtin_memcpy(&x, l, (W));			\
			acc0 ^= x;					\
			__builtin_memcpy(&x, l + (W), (W));		\
			acc1 ^= x;					\
			__builtin_memcpy(&x, l + 2 * (W), (W));		\
			acc2 ^= x;					\
			__builtin_memcpy(&x, l + 3 * (W), (W));		\
			acc3 ^= x;					\
		}							\
		for (; l < end; l += (W)) {				\
			__builtin_memcpy(&x, l, (W));			\
			acc0 ^= x;					\
		}							\
		acc1 ^= acc2 ^ acc3;					\
		i = lines;						\
	}								\
	while (i < lines) {						\
		for (unsigned k = 0; k < r && i < lines; k++, i++) {	\
			const char *l = p + i * LINE;			\
									\
			for (unsigned v = 0; v < LINE / (W); v += 2) {	\
				__builtin_memcpy(&x, l + v * (W), (W));	\
				acc0 ^= x;				\
				if ((W) < LINE) {			\
					__builtin_memcpy(&x, l + (v + 1) * (W), (W)); \
					acc1 ^= x;			\
				}					\
			}						\
		}							\
		for (unsigned k = 0; k < w && i < lines; k++, i++) {	\
			if (nt)						\
				vec_stream_line##W(p + i * LINE, line);	\
			else						\
				__builtin_memcpy(p + i * LINE, line, LINE); \
		}							\
	}								\
	acc0 ^= acc1;							\
	for (unsigned v = 0; v < (W) / 8; v++)				\
		sum ^= acc0[v];						\
	return sum;							\
}

RWMIX_BODY(16)
#ifdef __x86_64__
RWMIX_BODY(32)
RWMIX_BODY(64)
#endif
/* the SVE level: sve.c's loop, for any vector length */
#define rwmix_vec_sve(p, lines, r, w, nt)	sve_rwmix(p, lines, r, w, nt)

ISA_CLONES_WIDE(uint64_t, rwmix_vec, (char *p, size_t lines, unsigned r,
				       unsigned w, int nt),
		(p, lines, r, w, nt))

/* A block: whole lines (validate: bs % 64 == 0; a short last block's
 * partial line is left alone); each block starts a new group. */
static void rwmix_run(struct kstate *k, void *buf, size_t len)
{
	const struct rwmix *m = k->priv;
	size_t lines = len / LINE, group = m->reads + m->writes;
	size_t full = lines / group, rest = lines % group;
	int nt = k->impl == RWMIX_NT;

	k->result ^= rwmix_vec(buf, lines, m->reads, m->writes, nt);
	k->stored += (full * m->writes +
		      (rest > m->reads ? rest - m->reads : 0)) * LINE;
	if (nt && m->writes && kernel_block_leaves(k))
		vec_stream_fence();
}

/* nt: what no block fenced (ioengine=mem: the job's own memory, where a
 * fence a block would only stall the stores) is fenced before the job
 * ends, as fill's and STREAM's are. */
static void rwmix_fini(struct kstate *k)
{
	const struct rwmix *m = k->priv;

	if (m && k->impl == RWMIX_NT && m->writes)
		vec_stream_fence();
	kernel_fini_free(k);
}

static const char *rwmix_variant(const struct kstate *k)
{
	return k->impl == RWMIX_NT ? vec_nt_name(isa_level()) :
	       isa_name(isa_level());
}

#define F(field)	offsetof(struct rwmix_opts, field)

static const struct opt_def rwmix_opt_table[] = {
	{ .name = "rwmix_ratio", .type = OPT_STR, .cat = CAT_KERNEL,
	  .off = F(ratio), .def = "1:1", .arg = "R:W",
	  .after = "chase_layout",
	  .help = "kernel=rwmix: of each group of R + W cache lines, the "
		  "first R are read and the next W written: 1:0 all reads, "
		  "3:1, 2:1 and 1:1 MLC's read:write mixes, 0:1 all writes "
		  "(each 0 to 64)." },
};

const struct opt_group kernel_rwmix_opts =
	OPT_GROUP("rwmix", rwmix_opt_table, struct rwmix_opts);

const struct kernel_ops kernel_rwmix_ops = {
	.opts = &kernel_rwmix_opts,
	.name = "rwmix",
	.help = "read and write the block's cache lines in the ratio "
		"rwmix_ratio=R:W (MLC's peak injection mixes), writes plain or "
		"non-temporal (impl=nt); GB/s counts both, write_bytes the "
		"writes",
	.impls = rwmix_impls,
	.flags = 0,
	.validate = rwmix_validate,
	.init = rwmix_init,
	.run = rwmix_run,
	.variant = rwmix_variant,
	.fini = rwmix_fini,
};
