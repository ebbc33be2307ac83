/*
 * test_uring.c - the io_uring source (ioengines/io_uring.c) driven as the
 * engine drives it, at depth 1 and deep, by the job's own ring and by I/O
 * threads (ordered and not), plus the latency it records (psync's too).
 *
 * The data is seed 003's: a file of int32 drawn from 0..20, whose 10s are
 * counted with a plain read(2) loop.  Every run must deliver every block
 * exactly once per pass with the file's bytes, count the same 10s, and,
 * with ordered=1, deliver in exactly the blockgen's order.
 *
 * Error completions come from two reliable sources: reading a directory
 * (the kernel completes each read with -EISDIR), and O_DIRECT at an
 * offset that is not sector-aligned (-EINVAL in the completion; skipped
 * on filesystems that do not check, such as tmpfs).  Each must come back
 * from get() as that -errno with the offset in the message.
 *
 * Short reads are made by a FIFO whose writer splits each block in two.
 *
 * Mixed reads and writes (rw=randrw, ioworkers=0) run over a copy of the
 * data file: each block comes once per pass, as read or written where
 * the blockgen says; a read holds the file's bytes, and a written block's
 * buffer holds them too before the "kernel" runs (the pattern at its
 * offset).  The kernel then stores pattern seed 11 into the written ones,
 * and the file must end up with exactly those blocks changed.
 *
 * The stop flag (SIGINT): a source blocked on I/O that never completes (a
 * FIFO that has a writer who writes nothing, or that nobody reads) must
 * give up with -EINTR once the flag is set, by the job's ring and by I/O
 * threads, and drain() and teardown() must cancel what is in flight.
 * The bound is generous (10 s against a wait of 1 s): load cannot fail it.
 *
 * Short submissions (io_uring_enter taking fewer SQEs than were queued)
 * happen in the field when the kernel cannot allocate requests, which no
 * test can cause on purpose.  The other cause is real and reliable: an
 * SQE the kernel refuses at submission (an unknown opcode) ends the
 * submission there, without IORING_SETUP_SUBMIT_ALL, and the SQEs behind
 * it stay in the queue.  One such SQE, put ahead of a ring's reads, must
 * be counted, its completion ignored, and the reads behind it submitted
 * again and delivered.  The limit on waits (never more completions than
 * the kernel holds) is checked in isolation: the branch that waits
 * without submitting needs the kernel to take nothing at all.
 *
 * Latency is checked against the test's own clock: the source reads a
 * FIFO that a thread here writes one block into every 2 ms, at depth 1,
 * and the test times each get() after a put(); the histogram's median
 * must agree with the median of those times within 2% + 20 us, and lie
 * near 2 ms (a generous band: the VM's timers add jitter to both alike).
 *
 * When io_uring is refused (kernel.io_uring_disabled, seccomp, an old
 * kernel), setup must fail with the reason.  That is tested in a forked
 * child under a seccomp filter that fails io_uring_setup(), which cannot
 * leave the machine changed (seccomp_deny.h; t/t0600-uring.sh runs
 * memjob so with build/t/lockdown).
 *
 * sync() (fsync=, fdatasync=, end_fsync=), for io_uring and psync: after
 * drain() it returns 0 and the file's pages are on the device (none dirty
 * or under writeback, as cachestat(2) tells, where the kernel has it);
 * io_uring refuses it while writes are in flight.  That it really is
 * fsync(2), or fdatasync(2) for data_only, is tested in a child whose
 * seccomp filter fails each with its own errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "ioengines/blockgen.h"
#include "ioengines/filegen.h"
#include "util/hist.h"
#include "ioengines/ioengine.h"
#include "ioengines/uring.h"
#include "jobopts.h"
#include "seccomp_deny.h"

#define KIB		1024ULL
#define MIB		(1024 * KIB)
#define DATA_SIZE	(8 * MIB + 12 * KIB)	/* a short last block */
#define DATA_SEED	3
#define FIFO_BLOCKS	40
#define FIFO_GAP_NS	2000000ULL		/* the writer's pace: 2 ms */

static const struct pattern randint_0_20 = {
	.kind = PATTERN_RANDINT, .lo = 0, .hi = 20,
};

static struct {
	char dir[256];
	char data[320];
	unsigned char *bytes;
	uint64_t tens;
} fx;

/* How to run the source. */
struct run {
	const char *engine;		/* NULL: io_uring */
	enum rw_mode rw;
	const char *path;
	uint64_t bs, offset, size;
	unsigned iodepth, ioworkers, batch_submit, batch_complete;
	bool direct, ordered, fixedbufs, registerfiles, sqpoll;
	bool latency;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t count_tens(const void *buf, size_t len)
{
	const int32_t *v = buf;
	uint64_t n = 0;

	for (size_t i = 0; i < len / 4; i++)
		n += v[i] == 10;
	return n;
}

/* The oracle: the file through read(2), and its 10s. */
static unsigned char *slurp(const char *path, uint64_t *tens)
{
	unsigned char *buf = malloc(DATA_SIZE);
	size_t done = 0;
	int fd = open(path, O_RDONLY);

	assert_non_null(buf);
	assert_true(fd >= 0);
	while (done < DATA_SIZE) {
		ssize_t n = read(fd, buf + done, DATA_SIZE - done);

		assert_true(n > 0);
		done += (size_t)n;
	}
	close(fd);
	*tens = count_tens(buf, DATA_SIZE);
	return buf;
}

static int setup_files(void **state)
{
	const char *base = getenv("TMPDIR");
	char err[512];

	(void)state;
	snprintf(fx.dir, sizeof(fx.dir), "%s/memjob-uring-XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(fx.dir))
		return -1;
	snprintf(fx.data, sizeof(fx.data), "%s/data", fx.dir);
	if (filegen_create(fx.data, DATA_SIZE, &randint_0_20, DATA_SEED, err,
			   sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	fx.bytes = slurp(fx.data, &fx.tens);
	return fx.tens ? 0 : -1;	/* ~1/21 of the ints are 10 */
}

static int remove_files(void **state)
{
	static const char *const names[] = { "data", "write", "fifo", "dir" };
	char path[400];

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", fx.dir, names[i]);
		if (unlink(path) && errno == EISDIR)
			rmdir(path);
	}
	free(fx.bytes);
	return rmdir(fx.dir);
}

static struct run data_run(unsigned depth)
{
	return (struct run){
		.rw = RW_READ, .path = fx.data, .bs = 64 * KIB,
		.iodepth = depth,
	};
}

/* io_uring's options of the jobs made below: a few are alive at once. */
static struct uring_held {
	struct uring_opts opts;
	struct jobopts jo;
} uring_held[8];

/* A job's own: job_from_run() attached it */
static struct uring_opts *uo(const struct job_spec *job)
{
	return (struct uring_opts *)job_opts(job, &ioengine_io_uring_opts);
}

static void job_from_run(struct job_spec *job, const struct run *r)
{
	static char name[] = "test";
	static unsigned next;
	struct uring_held *h = &uring_held[next++ % 8];

	memset(job, 0, sizeof(*job));
	memset(h, 0, sizeof(*h));
	jobopts_attach(job, &h->jo, &ioengine_io_uring_opts, &h->opts);
	job->name = name;
	job->numjobs = 1;
	job->ioengine = ioengine_find(r->engine ? r->engine : "io_uring");
	assert_non_null(job->ioengine);
	job->rw = r->rw;
	job->bs = r->bs;
	job->size = r->size;
	job->offset = r->offset;
	job->iodepth = r->iodepth;
	job->direct = r->direct;
	job->iodepth_batch_submit = r->batch_submit;
	job->iodepth_batch_complete = r->batch_complete;
	uo(job)->fixedbufs = r->fixedbufs;
	uo(job)->registerfiles = r->registerfiles;
	uo(job)->sqpoll = r->sqpoll;
	uo(job)->sqpoll_cpu = -1;
	uo(job)->ioworkers = r->ioworkers;
	uo(job)->ordered = r->ordered;
	job->latency = r->latency;
	job->pattern = randint_0_20;
	job->pattern_seed = DATA_SEED;
	job->loops = 1;
}

/* A source set up over run r; skips when the machine cannot do it. */
struct src {
	struct job_spec job;
	struct blockgen gen;
	struct ioe e;
	struct hist *lat;
	uint64_t size;
};

static void src_setup(struct src *s, const struct run *r, bool random)
{
	const struct ioengine_ops *ops;
	int ret;

	memset(s, 0, sizeof(*s));
	job_from_run(&s->job, r);
	ops = s->job.ioengine;
	s->size = r->size ? r->size : DATA_SIZE - r->offset;
	blockgen_init(&s->gen, r->offset, s->size, r->bs, random, 17);
	s->e.job = &s->job;
	s->e.path = r->path;
	s->e.gen = &s->gen;
	if (r->latency) {
		s->lat = malloc(sizeof(*s->lat));
		assert_non_null(s->lat);
		hist_init(s->lat);
		s->e.lat = s->lat;
	}
	ret = ops->setup(&s->e);
	if (ret == -ENOSYS || ret == -EPERM ||
	    (ret == -EINVAL && r->direct && strstr(s->e.err, "O_DIRECT"))) {
		print_message("skipped: %s\n", s->e.err);
		free(s->lat);
		skip();
	}
	if (ret)
		fail_msg("setup: %s (%d)", s->e.err, ret);
	assert_non_null(s->e.priv);
	if (!r->engine)
		assert_non_null(strstr(s->e.info, r->ioworkers ?
				       " (one per I/O thread), iodepth " :
				       "ring: depth "));
}

static void src_teardown(struct src *s)
{
	/* A ring that stalled and recovered passes; it says so. */
	if (strstr(s->e.info, "nudge"))
		print_message("stalled: %s\n", s->e.info);
	s->job.ioengine->teardown(&s->e);
	assert_null(s->e.priv);
	free(s->lat);
}

/*
 * Read passes passes; check every block once, the bytes, the order when
 * ordered, and the count of 10s against the oracle.  Returns the blocks
 * delivered over all passes.
 */
static uint64_t drive_read(const struct run *r, bool random, unsigned passes)
{
	const struct ioengine_ops *ops;
	struct blockgen order;
	uint64_t nblocks, delivered = 0;
	unsigned char *seen;
	struct io_unit u;
	struct src s;
	int ret;

	src_setup(&s, r, random);
	ops = s.job.ioengine;
	nblocks = (s.size + r->bs - 1) / r->bs;
	seen = calloc(nblocks, 1);
	assert_non_null(seen);
	order = s.gen;			/* the same offsets, to check the order */
	for (unsigned pass = 0; pass < passes; pass++) {
		uint64_t tens = 0, total = 0;

		blockgen_rewind(&s.gen);
		blockgen_rewind(&order);
		memset(seen, 0, nblocks);
		while ((ret = ops->get(&s.e, &u)) == 1) {
			uint64_t blk = (u.off - r->offset) / r->bs;

			assert_true(blk < nblocks);
			if (seen[blk]++)
				fail_msg("block %llu twice in pass %u",
					 (unsigned long long)blk, pass);
			if (r->ordered) {
				uint64_t off;
				size_t len;

				assert_true(blockgen_next(&order, &off, &len));
				if (off != u.off)
					fail_msg("ordered: got offset %llu, the "
						 "blockgen's next is %llu",
						 (unsigned long long)u.off,
						 (unsigned long long)off);
			}
			if (memcmp(u.buf, fx.bytes + u.off, u.len))
				fail_msg("block at %llu does not hold the file's "
					 "bytes", (unsigned long long)u.off);
			tens += count_tens(u.buf, u.len);
			total += u.len;
			delivered++;
			assert_int_equal(ops->put(&s.e, &u), 0);
		}
		if (ret)
			fail_msg("get: %s (%d)", s.e.err, ret);
		assert_int_equal(total, s.size);
		if (!r->offset && !r->size)
			assert_int_equal(tens, fx.tens);
	}
	if (r->latency) {
		assert_int_equal(s.lat->count, delivered);
		assert_true(s.lat->min > 0);
	}
	src_teardown(&s);
	free(seen);
	return delivered;
}

static void both_orders(const struct run *r)
{
	drive_read(r, false, 2);
	drive_read(r, true, 2);
}

static void test_depths(void **state)
{
	static const unsigned depths[] = { 1, 2, 64, 512 };

	(void)state;
	for (int direct = 0; direct < 2; direct++) {
		for (size_t i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
			struct run r = data_run(depths[i]);

			r.direct = direct;
			r.latency = i % 2;
			both_orders(&r);
		}
	}
	/* Deeper than the file has blocks, in 4 KiB blocks: 2 ring sizes. */
	struct run r = data_run(4096);

	r.bs = 4 * KIB;
	r.direct = true;
	both_orders(&r);
}

static void test_batches(void **state)
{
	struct run r = data_run(64);

	(void)state;
	r.batch_submit = 16;
	both_orders(&r);
	r.batch_complete = 8;
	both_orders(&r);
	r.batch_submit = 0;
	r.batch_complete = 64;	/* all of them: the last batch is short */
	r.direct = true;
	r.latency = true;
	both_orders(&r);
}

static void test_registered(void **state)
{
	struct run r = data_run(32);

	(void)state;
	r.fixedbufs = true;
	both_orders(&r);
	r.registerfiles = true;
	r.direct = true;
	both_orders(&r);
	r.fixedbufs = false;
	both_orders(&r);
}

static void test_sqpoll(void **state)
{
	struct run r = data_run(16);

	(void)state;
	r.sqpoll = true;
	r.direct = true;
	r.latency = true;
	both_orders(&r);
	r.ioworkers = 2;		/* the second ring shares the thread */
	r.ordered = true;
	both_orders(&r);
}

static void test_ioworkers(void **state)
{
	static const unsigned workers[] = { 1, 2, 3 };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		for (int ordered = 0; ordered < 2; ordered++) {
			struct run r = data_run(16);

			r.ioworkers = workers[i];
			r.ordered = ordered;
			r.direct = i != 1;
			r.latency = ordered;
			both_orders(&r);
		}
	}
}

/* Small pools: depth 1 per thread, slots reused all the time; a pool
 * deeper than the file; registered buffers and file in every ring. */
static void test_ioworkers_edges(void **state)
{
	struct run r = data_run(2);

	(void)state;
	r.ioworkers = 2;
	r.bs = 4 * KIB;
	r.ordered = true;
	both_orders(&r);
	r.ordered = false;
	both_orders(&r);
	r = data_run(1024);
	r.ioworkers = 2;
	r.fixedbufs = r.registerfiles = r.direct = true;
	r.latency = true;
	both_orders(&r);
	r.batch_complete = 4;
	r.ordered = true;
	both_orders(&r);
}

/* A region that starts inside a page and ends inside a block. */
static void test_unaligned_region(void **state)
{
	struct run r = data_run(8);

	(void)state;
	r.offset = 4100;
	r.size = 100001;
	r.bs = 4096;
	both_orders(&r);
	r.ioworkers = 2;
	r.ordered = true;
	both_orders(&r);
}

/* A file shorter than offset + size (it shrank after the plan): the
 * blocks inside it may be delivered, then get() fails and says where the
 * file ends, as psync does; it never spins on reads that return nothing. */
static void test_past_eof(void **state)
{
	const struct ioengine_ops *ops;
	struct run r = data_run(8);
	struct io_unit u;
	struct src s;
	uint64_t total = 0;
	int ret;

	(void)state;
	for (unsigned w = 0; w < 2; w++) {
		r.size = DATA_SIZE + 1 * MIB;	/* 1 MiB of it is missing */
		r.ioworkers = w;
		r.ordered = w;
		src_setup(&s, &r, true);
		ops = s.job.ioengine;
		total = 0;
		blockgen_rewind(&s.gen);
		while ((ret = ops->get(&s.e, &u)) == 1) {
			assert_true(u.off + u.len <= DATA_SIZE);
			total += u.len;
			assert_int_equal(ops->put(&s.e, &u), 0);
		}
		/* the file ends inside the region: an error, as psync's */
		assert_int_equal(ret, -EIO);
		assert_non_null(strstr(s.e.err, "ends at offset "));
		assert_non_null(strstr(s.e.err, "inside the job's region"));
		assert_true(total <= DATA_SIZE);
		if (ops->drain)
			ops->drain(&s.e);
		src_teardown(&s);
	}
}

/* Stop early, drain, then run a whole pass; teardown with I/O in flight. */
static void test_drain(void **state)
{
	(void)state;
	for (unsigned w = 0; w < 3; w++) {
		struct run r = data_run(16);
		const struct ioengine_ops *ops;
		uint64_t total = 0, tens = 0;
		struct io_unit u;
		struct src s;
		int ret;

		r.ioworkers = w;
		r.ordered = w == 1;
		r.latency = true;
		src_setup(&s, &r, true);
		ops = s.job.ioengine;
		blockgen_rewind(&s.gen);
		for (int i = 0; i < 5; i++) {
			assert_int_equal(ops->get(&s.e, &u), 1);
			assert_int_equal(ops->put(&s.e, &u), 0);
		}
		assert_int_equal(ops->drain(&s.e), 0);
		/* Everything that was read counted, nothing more than read. */
		assert_true(s.lat->count >= 5 && s.lat->count <= 5 + 16 + 32);
		blockgen_rewind(&s.gen);
		while ((ret = ops->get(&s.e, &u)) == 1) {
			assert_memory_equal(u.buf, fx.bytes + u.off, u.len);
			tens += count_tens(u.buf, u.len);
			total += u.len;
			assert_int_equal(ops->put(&s.e, &u), 0);
		}
		assert_int_equal(ret, 0);
		assert_int_equal(total, DATA_SIZE);
		assert_int_equal(tens, fx.tens);
		blockgen_rewind(&s.gen);
		assert_int_equal(ops->get(&s.e, &u), 1);
		assert_int_equal(ops->put(&s.e, &u), 0);
		src_teardown(&s);	/* must wait for what is in flight */
	}
}

/* The file holds what the writers' "kernel" stored: pattern seed 11. */
/* The file's first size bytes must be want's. */
static void check_file(const char *path, const void *want, uint64_t size,
		       const char *what)
{
	unsigned char *got = malloc(size);
	int fd = open(path, O_RDONLY);

	assert_non_null(got);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, got, size, 0), (ssize_t)size);
	close(fd);
	if (memcmp(got, want, size))
		fail_msg("the file does not hold %s", what);
	free(got);
}

static void check_written(const char *path, uint64_t size)
{
	unsigned char *want = malloc(size);

	assert_non_null(want);
	pattern_fill(&randint_0_20, 11, 0, want, size);
	check_file(path, want, size, "what was written");
	free(want);
}

/* Writes at depth, sequential and random, buffered and direct: the file
 * holds what the "kernel" stored into each unit. */
static void drive_write(struct run *r, bool random)
{
	const struct pattern zero = { .kind = PATTERN_ZERO };
	const uint64_t size = 4 * MIB + 8 * KIB;
	const struct ioengine_ops *ops;
	char path[400], err[512];
	struct io_unit u;
	struct src s;
	int ret;

	snprintf(path, sizeof(path), "%s/write", fx.dir);
	if (filegen_create(path, size, &zero, 1, err, sizeof(err)))
		fail_msg("%s", err);
	r->rw = random ? RW_RANDWRITE : RW_WRITE;
	r->path = path;
	r->size = size;
	src_setup(&s, r, random);
	ops = s.job.ioengine;
	blockgen_rewind(&s.gen);
	while ((ret = ops->get(&s.e, &u)) == 1) {
		pattern_fill(&randint_0_20, 11, u.off, u.buf, u.len);
		assert_int_equal(ops->put(&s.e, &u), 0);
	}
	if (ret)
		fail_msg("get: %s", s.e.err);
	if (r->latency)
		assert_int_equal(s.lat->count, (size + r->bs - 1) / r->bs);
	src_teardown(&s);
	check_written(path, size);
	assert_int_equal(unlink(path), 0);
}

static void test_writes(void **state)
{
	static const unsigned depths[] = { 1, 8, 256 };

	(void)state;
	for (int random = 0; random < 2; random++) {
		for (int direct = 0; direct < 2; direct++) {
			for (size_t i = 0; i < 3; i++) {
				struct run r = data_run(depths[i]);

				r.direct = direct;
				r.bs = 16 * KIB;
				r.latency = true;
				r.fixedbufs = i == 2;
				r.registerfiles = i == 2;
				r.batch_submit = i == 1 ? 4 : 0;
				drive_write(&r, random);
			}
		}
	}
}

/* ---- mixed reads and writes -------------------------------------------- */

#define MIX_SIZE	(2 * MIB + 4 * KIB)	/* a short last block */

static void drive_mixed(struct run *r, bool random, unsigned pct)
{
	const uint64_t nblocks = (MIX_SIZE + r->bs - 1) / r->bs;
	const struct ioengine_ops *ops;
	unsigned char *want, *seen;
	uint64_t written = 0, reads = 0;
	struct blockgen order;
	char *dir;
	size_t len;
	char path[400], err[512];
	struct io_unit u;
	struct src s;
	int ret;

	snprintf(path, sizeof(path), "%s/write", fx.dir);
	unlink(path);
	if (filegen_create(path, MIX_SIZE, &randint_0_20, DATA_SEED, err,
			   sizeof(err)))
		fail_msg("%s", err);
	r->rw = random ? RW_RANDRW : RW_RW;
	r->path = path;
	r->size = MIX_SIZE;
	src_setup(&s, r, random);
	blockgen_set_mix(&s.gen, pct);
	order = s.gen;
	ops = s.job.ioengine;
	want = malloc(MIX_SIZE);
	seen = calloc(nblocks, 1);
	dir = calloc(nblocks, 1);
	assert_non_null(dir);
	assert_non_null(want);
	assert_non_null(seen);
	memcpy(want, fx.bytes, MIX_SIZE);
	/* what the blockgen says of each block: a copy of it, walked */
	blockgen_rewind(&order);
	for (uint64_t off; blockgen_next(&order, &off, &len);)
		dir[off / r->bs] = order.last_write ? 'w' : 'r';
	blockgen_rewind(&s.gen);
	while ((ret = ops->get(&s.e, &u)) == 1) {
		uint64_t blk = u.off / r->bs;

		assert_true(blk < nblocks);
		if (seen[blk]++)
			fail_msg("block %llu twice", (unsigned long long)blk);
		if (u.write != (dir[blk] == 'w'))
			fail_msg("block %llu: %s, but the blockgen says %c",
				 (unsigned long long)blk,
				 u.write ? "written" : "read", dir[blk]);
		if (memcmp(u.buf, fx.bytes + u.off, u.len))
			fail_msg("%s block at %llu does not hold the file's "
				 "bytes", u.write ? "written" : "read",
				 (unsigned long long)u.off);
		if (u.write) {
			pattern_fill(&randint_0_20, 11, u.off, u.buf, u.len);
			memcpy(want + u.off, u.buf, u.len);
			written++;
		} else {
			reads++;
		}
		assert_int_equal(ops->put(&s.e, &u), 0);
	}
	if (ret)
		fail_msg("get: %s (%d)", s.e.err, ret);
	assert_int_equal(written + reads, nblocks);
	if (r->latency)
		assert_int_equal(s.lat->count, nblocks);
	print_message("depth %u%s%s: %llu reads, %llu writes (%u%% reads "
		      "asked)\n", r->iodepth, r->direct ? " direct" : "",
		      random ? " random" : "", (unsigned long long)reads,
		      (unsigned long long)written, pct);
	src_teardown(&s);
	check_file(path, want, MIX_SIZE, "what was written, and only that");
	assert_true(written > 0 && reads > 0);
	free(want);
	free(seen);
	free(dir);
	assert_int_equal(unlink(path), 0);
}

static void test_mixed(void **state)
{
	static const unsigned depths[] = { 1, 8, 64 };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		for (int direct = 0; direct < 2; direct++) {
			struct run r = data_run(depths[i]);

			r.bs = 4 * KIB;
			r.direct = direct;
			r.latency = true;
			r.fixedbufs = i == 2;
			r.batch_submit = i == 1 ? 4 : 0;
			drive_mixed(&r, true, 70);
			drive_mixed(&r, false, 30);
		}
	}
}

/* get() must fail with -want, naming the offset of the failed read. */
static void expect_read_error(struct run *r, int want, const char *what)
{
	const struct ioengine_ops *ops;
	char needle[128];
	struct io_unit u;
	struct src s;
	int ret;

	src_setup(&s, r, false);
	ops = s.job.ioengine;
	blockgen_rewind(&s.gen);
	while ((ret = ops->get(&s.e, &u)) == 1)
		assert_int_equal(ops->put(&s.e, &u), 0);
	if (ret == 0 && want == EINVAL) {
		src_teardown(&s);	/* the filesystem does not check */
		print_message("skipped: %s reads misaligned O_DIRECT\n", fx.dir);
		skip();
	}
	if (ret != -want)
		fail_msg("%s: get returned %d (%s), expected -%d", what, ret,
			 s.e.err, want);
	snprintf(needle, sizeof(needle), "at offset %llu: %s",
		 (unsigned long long)r->offset, strerror(want));
	if (!strstr(s.e.err, needle) && r->ioworkers == 0)
		fail_msg("%s: '%s' does not say '%s'", what, s.e.err, needle);
	if (!strstr(s.e.err, strerror(want)) || !strstr(s.e.err, "at offset"))
		fail_msg("%s: '%s' does not name the offset and error", what,
			 s.e.err);
	/* Errors are not I/Os done: nothing recorded for them. */
	if (s.lat)
		assert_int_equal(s.lat->count, 0);
	src_teardown(&s);
}

static void test_error_completions(void **state)
{
	char dir[400];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/dir", fx.dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	for (unsigned w = 0; w < 3; w++) {
		struct run r = data_run(8);

		r.path = dir;
		r.size = 1 * MIB;
		r.ioworkers = w;
		r.ordered = w == 2;
		r.latency = true;
		expect_read_error(&r, EISDIR, "a directory");
	}
	assert_int_equal(rmdir(dir), 0);
	for (unsigned w = 0; w < 2; w++) {
		struct run r = data_run(8);

		r.direct = true;
		r.offset = 100;		/* no sector starts there */
		r.bs = 4096;
		r.size = 64 * KIB;
		r.ioworkers = w;
		expect_read_error(&r, EINVAL, "misaligned O_DIRECT");
	}
}

/* ---- latency against the test's own clock ------------------------------ */

struct pacer {
	char path[400];
	uint64_t gap_ns;
	size_t split;			/* >0: write a block in two pieces */
	unsigned blocks;		/* how many; 0: FIFO_BLOCKS */
	int ret;
};

static unsigned char fifo_byte(unsigned block, size_t i)
{
	return (unsigned char)(block * 7 + i);
}

static void add_ns(struct timespec *t, uint64_t ns)
{
	t->tv_nsec += (long)ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write FIFO_BLOCKS blocks of 4 KiB into the FIFO, one every gap_ns, on
 * an absolute schedule (no drift), then close it (the reader's EOF).
 * With split, the block's first split bytes go 200 us before the rest,
 * so that the reader gets a short read and has to continue it. */
static void *pacer_main(void *arg)
{
	struct pacer *pc = arg;
	unsigned char buf[4096];
	struct timespec t;
	int fd = open(pc->path, O_WRONLY);

	if (fd < 0) {
		pc->ret = -errno;
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (unsigned b = 0; b < (pc->blocks ? pc->blocks : FIFO_BLOCKS) &&
			     !pc->ret; b++) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = fifo_byte(b, i);
		/* from the last write, not a fixed schedule: a writer that
		 * was held up must not catch up in a burst */
		clock_gettime(CLOCK_MONOTONIC, &t);
		add_ns(&t, pc->gap_ns);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
			;
		if (pc->split) {
			struct timespec later = t;

			pc->ret = write_all(fd, buf, pc->split);
			add_ns(&later, 200000);
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					       &later, NULL) == EINTR)
				;
		}
		if (!pc->ret)
			pc->ret = write_all(fd, buf + pc->split,
					    sizeof(buf) - pc->split);
	}
	close(fd);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Start pc's writer on a new FIFO and set up a depth-1 read of it by
 * blocks of 4 KiB, one more than the writer writes (that one finds EOF). */
static void fifo_source(struct pacer *pc, const char *name, unsigned ioworkers,
			pthread_t *tid, struct src *s)
{
	struct run r = data_run(1);

	snprintf(pc->path, sizeof(pc->path), "%s/%s", fx.dir, name);
	unlink(pc->path);
	assert_int_equal(mkfifo(pc->path, 0600), 0);
	assert_int_equal(pthread_create(tid, NULL, pacer_main, pc), 0);
	r.path = pc->path;
	r.bs = 4096;
	r.size = ((pc->blocks ? pc->blocks : FIFO_BLOCKS) + 1) * 4096ULL;
	r.latency = true;
	r.ioworkers = ioworkers;
	src_setup(s, &r, false);	/* opens the FIFO: the writer starts */
	blockgen_rewind(&s->gen);
}

/*
 * At depth 1 the job's thread submits the next read as get() starts and
 * has it when get() returns, so the time around get() (after the first,
 * which waits for the writer to open) is the read's latency plus a few
 * microseconds of the source's own work.
 */
static void run_paced(unsigned ioworkers, size_t split, uint64_t *p50_hist,
		      uint64_t *p50_own)
{
	uint64_t own[FIFO_BLOCKS];
	const struct ioengine_ops *ops;
	struct pacer pc = { .gap_ns = FIFO_GAP_NS, .split = split };
	struct io_unit u;
	pthread_t tid;
	struct src s;
	unsigned n = 0;
	int ret;

	fifo_source(&pc, "fifo", ioworkers, &tid, &s);
	ops = s.job.ioengine;
	for (;;) {
		uint64_t t0 = now_ns();

		ret = ops->get(&s.e, &u);
		if (ret != 1)
			break;
		own[n] = now_ns() - t0;
		/* Whole blocks, in order, even when they came in pieces. */
		assert_int_equal(u.len, 4096);
		assert_int_equal(u.off, n * 4096ULL);
		for (size_t i = 0; i < u.len; i++)
			if (((unsigned char *)u.buf)[i] != fifo_byte(n, i))
				fail_msg("block %u byte %zu is wrong", n, i);
		n++;
		assert_int_equal(ops->put(&s.e, &u), 0);
	}
	assert_int_equal(ret, 0);
	pthread_join(tid, NULL);
	assert_int_equal(pc.ret, 0);
	assert_int_equal(n, FIFO_BLOCKS);
	/* Every read, and the last one that found the end, is an I/O. */
	assert_int_equal(s.lat->count, FIFO_BLOCKS + 1);
	qsort(own + 1, n - 1, sizeof(own[0]), cmp_u64);
	*p50_own = own[1 + (n - 1) / 2];
	*p50_hist = hist_percentile(s.lat, 50);
	src_teardown(&s);
	assert_int_equal(unlink(pc.path), 0);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

/* The histogram's median must agree with the test's own timing of get()
 * and with the writer's pace.  Both are timing claims that a busy host
 * bends (a thread preempted between the completion and get()'s return;
 * a writer held up), so of three runs one must show them; a histogram in
 * the wrong unit or of the wrong interval fails all three.  A sanitizer
 * build's instrumentation bends the pace for good: there the agreement
 * with the test's own timing is what is checked. */
static bool paced_ok(unsigned ioworkers, const char *what)
{
	const double gap = (double)FIFO_GAP_NS;
	uint64_t hist, own;
	bool ok = true;

	run_paced(ioworkers, 0, &hist, &own);
	print_message("%s: histogram p50 %.1f us, test's own %.1f us, writer's "
		      "pace %.1f us\n", what, hist / 1e3, own / 1e3, gap / 1e3);
	/* an I/O thread reads ahead: get() does not wait for its reads */
	if (ioworkers == 0 &&
	    fabs((double)hist - (double)own) > 0.02 * (double)own + 20000) {
		print_message("p50 %llu ns, but the test timed %llu ns\n",
			      (unsigned long long)hist, (unsigned long long)own);
		ok = false;
	}
	if (!SANITIZED && (hist < 0.8 * gap || hist > 1.5 * gap)) {
		print_message("p50 %llu ns is off the writer's pace\n",
			      (unsigned long long)hist);
		ok = false;
	}
	return ok;
}

static void test_latency_paced(void **state)
{
	(void)state;
	if (!paced_ok(0, "paced reads") && !paced_ok(0, "again") &&
	    !paced_ok(0, "again"))
		fail_msg("3 times the p50 disagreed (see above)");
	/* An I/O thread's reads wait for the writer alike. */
	if (!paced_ok(1, "with an I/O thread") && !paced_ok(1, "again") &&
	    !paced_ok(1, "again"))
		fail_msg("ioworkers=1: 3 times the p50 was off the writer's pace");
}

/*
 * A device slower than the ring's longest wait (a second): a read that
 * takes 2.5 s outlasts two timed-out waits, and arrives whole, with its
 * latency counted from its submission, by the job's thread and by an I/O
 * thread alike.
 */
static void test_slower_than_a_wait(void **state)
{
	(void)state;
	for (unsigned ioworkers = 0; ioworkers < 2; ioworkers++) {
		struct pacer pc = { .gap_ns = 2500ull * 1000 * 1000,
				    .blocks = 1 };
		const struct ioengine_ops *ops;
		struct io_unit u;
		pthread_t tid;
		struct src s;
		uint64_t t0, took;

		fifo_source(&pc, "slow", ioworkers, &tid, &s);
		ops = s.job.ioengine;
		t0 = now_ns();
		assert_int_equal(ops->get(&s.e, &u), 1);
		took = now_ns() - t0;
		assert_int_equal(u.len, 4096);
		for (size_t i = 0; i < u.len; i++)
			if (((unsigned char *)u.buf)[i] != fifo_byte(0, i))
				fail_msg("byte %zu is wrong", i);
		assert_int_equal(ops->put(&s.e, &u), 0);
		assert_int_equal(ops->get(&s.e, &u), 0);
		pthread_join(tid, NULL);
		assert_int_equal(pc.ret, 0);
		print_message("ioworkers=%u: the read took %.2f s, histogram max "
			      "%.2f s\n", ioworkers, took / 1e9,
			      hist_percentile(s.lat, 100) / 1e9);
		assert_true(took >= 2400ull * 1000 * 1000);
		assert_true(hist_percentile(s.lat, 100) >= 2400ull * 1000 * 1000);
		src_teardown(&s);
		assert_int_equal(unlink(pc.path), 0);
	}
}

/* A read that returns part of a block is continued where it stopped, and
 * the block counts as one I/O (the FIFO's writer splits every block). */
static void test_short_reads(void **state)
{
	uint64_t hist, own;

	(void)state;
	run_paced(0, 1000, &hist, &own);
	run_paced(1, 3000, &hist, &own);
}

/* psync: the clock around each pread is inside get(), so each latency is
 * at most the time around get(), and for 1 MiB reads most of it. */
static void test_latency_psync(void **state)
{
	const struct ioengine_ops *ops = ioengine_find("psync");
	struct hist *h = malloc(sizeof(*h));
	struct job_spec job;
	struct blockgen gen;
	struct io_unit u;
	struct ioe e;
	uint64_t own = 0, n = 0;
	int ret;

	(void)state;
	assert_non_null(ops);
	assert_non_null(h);
	hist_init(h);
	job_from_run(&job, &(struct run){ .rw = RW_READ, .bs = 1 * MIB });
	job.ioengine = ops;
	blockgen_init(&gen, 0, DATA_SIZE, job.bs, true, 5);
	memset(&e, 0, sizeof(e));
	e.job = &job;
	e.path = fx.data;
	e.gen = &gen;
	e.lat = h;
	assert_int_equal(ops->setup(&e), 0);
	for (int pass = 0; pass < 3; pass++) {
		blockgen_rewind(&gen);
		for (;;) {
			uint64_t t0 = now_ns();

			ret = ops->get(&e, &u);
			if (ret != 1)
				break;
			own += now_ns() - t0;
			n++;
			assert_int_equal(ops->put(&e, &u), 0);
		}
		assert_int_equal(ret, 0);
	}
	ops->teardown(&e);
	assert_int_equal(h->count, n);
	assert_true(h->sum <= own);
	assert_true(h->sum >= own / 2);
	assert_true(h->min > 0);
	free(h);
}

/* ---- the stop flag ----------------------------------------------------- */

struct stopper {
	atomic_int *flag;
	uint64_t after_ns;
};

static void *stopper_main(void *arg)
{
	struct stopper *st = arg;
	struct timespec t = { 0, (long)st->after_ns };

	nanosleep(&t, NULL);
	atomic_store(st->flag, 2);	/* SIGINT */
	return NULL;
}

/*
 * A source over a FIFO whose I/O never completes: reads of a FIFO that
 * the test holds open for writing and never writes, or writes into one
 * that nobody reads (the first 64 KiB fill the pipe).  The stop flag is
 * set 300 ms into get(): get() must give up with -EINTR, drain() must
 * cancel and return 0, teardown must not hang.
 */
static void stop_blocked(unsigned ioworkers, bool write)
{
	struct run r = data_run(8);
	struct stopper st = { .after_ns = 300ull * 1000 * 1000 };
	const struct ioengine_ops *ops;
	atomic_int flag = 0;
	char path[400];
	struct io_unit u;
	pthread_t tid;
	struct src s;
	uint64_t t0, took;
	int holder, ret;

	snprintf(path, sizeof(path), "%s/fifo", fx.dir);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	holder = open(path, O_RDWR);	/* a writer that never writes */
	assert_true(holder >= 0);
	r.path = path;
	r.bs = 16 * KIB;
	r.size = 4 * MIB;
	r.ioworkers = ioworkers;
	r.rw = write ? RW_WRITE : RW_READ;
	src_setup(&s, &r, false);
	ops = s.job.ioengine;
	s.e.stop = &flag;
	st.flag = &flag;
	blockgen_rewind(&s.gen);
	t0 = now_ns();
	assert_int_equal(pthread_create(&tid, NULL, stopper_main, &st), 0);
	while ((ret = ops->get(&s.e, &u)) == 1)	/* writes: until full */
		assert_int_equal(ops->put(&s.e, &u), 0);
	took = now_ns() - t0;
	pthread_join(tid, NULL);
	print_message("ioworkers=%u %s: get() gave up after %.2f s: %s\n",
		      ioworkers, write ? "write" : "read", took / 1e9, s.e.err);
	assert_int_equal(ret, -EINTR);
	assert_non_null(strstr(s.e.err, "stopped"));
	assert_true(took < 10ull * 1000 * 1000 * 1000);
	t0 = now_ns();
	assert_int_equal(ops->drain(&s.e), 0);
	src_teardown(&s);
	took = now_ns() - t0;
	print_message("drain and teardown took %.2f s\n", took / 1e9);
	assert_true(took < 10ull * 1000 * 1000 * 1000);
	close(holder);
	assert_int_equal(unlink(path), 0);
}

static void test_stop(void **state)
{
	(void)state;
	stop_blocked(0, false);
	stop_blocked(0, true);
	stop_blocked(1, false);
	stop_blocked(2, false);
}

/* ---- short submissions ------------------------------------------------- */

/* Queue an SQE that the kernel refuses at submission (no such opcode):
 * it completes with -EINVAL, and the submission stops after it. */
static void queue_refused_sqe(struct ring *r)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);

	assert_non_null(sqe);
	io_uring_prep_nop(sqe);
	sqe->opcode = 0xff;
	io_uring_sqe_set_data64(sqe, RING_NOSLOT);
}

static void test_wait_limit(void **state)
{
	(void)state;
	assert_int_equal(ring_wait_limit(4, 4, 0), 4);	/* all submitted */
	assert_int_equal(ring_wait_limit(4, 4, 3), 1);	/* 3 not taken */
	assert_int_equal(ring_wait_limit(1, 4, 3), 1);
	assert_int_equal(ring_wait_limit(4, 4, 4), 0);	/* none taken */
	assert_int_equal(ring_wait_limit(8, 2, 0), 2);
	/* more queued than in flight (a cancellation is queued too) */
	assert_int_equal(ring_wait_limit(2, 2, 3), 0);
	assert_int_equal(ring_wait_limit(0, 5, 1), 0);
}

/* One ring over 4 slots: a refused SQE, then 4 reads behind it (the
 * ring has room for all 5 in its submission queue). */
static void test_short_submission_ring(void **state)
{
	enum { N = 4, BS = 4096 };
	struct run run = data_run(N);
	struct slot slots[N];
	struct job_spec job;
	struct ring r;
	char err[400];
	unsigned char *bufs = NULL;
	unsigned got = 0;
	int fd;

	(void)state;
	job_from_run(&job, &run);
	fd = open(fx.data, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(posix_memalign((void **)&bufs, BS, N * BS), 0);
	memset(slots, 0, sizeof(slots));
	struct ring_cfg c = {
		.job = &job, .path = fx.data, .depth = 2 * N, .slots = slots,
		.nslots = N, .stride = BS, .fd = fd, .attach_fd = -1,
		.err = err, .errlen = sizeof(err),
	};
	if (ring_init(&r, &c)) {
		print_message("skipped: %s\n", err);
		ring_exit(&r);
		free(bufs);
		close(fd);
		skip();
	}
	queue_refused_sqe(&r);
	for (unsigned s = 0; s < N; s++) {
		slots[s].buf = bufs + s * BS;
		slots[s].off = (uint64_t)(3 - s) * 65536;
		slots[s].len = slots[s].want = BS;
		slot_set(&slots[s], ST_BUSY);
		assert_int_equal(ring_prep(&r, s, true), 0);
	}
	assert_int_equal(io_uring_sq_ready(&r.ring), N + 1);
	while (r.inflight) {
		assert_int_equal(ring_reap(&r, r.inflight), 0);
		got += r.ndone;
	}
	assert_int_equal(got, N);
	assert_int_equal(atomic_load(&r.short_submits), 1);
	for (unsigned s = 0; s < N; s++) {
		assert_int_equal(slot_state(&slots[s]), ST_DATA);
		assert_memory_equal(slots[s].buf, fx.bytes + slots[s].off, BS);
	}
	ring_exit(&r);
	free(bufs);
	close(fd);
}

/* Through the source: the short submission reaches the job's source_info
 * when the pass ends, and the pass is whole; a pass without one says
 * nothing of them. */
static void test_short_submission_info(void **state)
{
	struct run r = data_run(8);
	const struct ioengine_ops *ops;
	struct uring_priv *p;
	struct io_unit u;
	struct src s;
	uint64_t total = 0;
	int ret;

	(void)state;
	src_setup(&s, &r, true);
	ops = s.job.ioengine;
	p = s.e.priv;
	for (int pass = 0; pass < 2; pass++) {
		total = 0;
		blockgen_rewind(&s.gen);
		if (pass == 1)
			queue_refused_sqe(&p->r);
		while ((ret = ops->get(&s.e, &u)) == 1) {
			assert_memory_equal(u.buf, fx.bytes + u.off, u.len);
			total += u.len;
			assert_int_equal(ops->put(&s.e, &u), 0);
		}
		assert_int_equal(ret, 0);
		assert_int_equal(total, DATA_SIZE);
		print_message("pass %d: %s\n", pass, s.e.info);
		if (pass == 0)
			assert_null(strstr(s.e.info, "short submission"));
		else
			assert_non_null(strstr(s.e.info, "; 1 short submission"));
	}
	src_teardown(&s);
}

/* ---- stalls: nudged, and lost ------------------------------------------ */

/* Shorten ring r's stalls for a test: waits of 20 ms, a nudge after 3. */
#define STALL_WAIT_MS	20
#define STALL_WAITS	3

static void short_stalls(struct ring *r)
{
	r->wait_ms = STALL_WAIT_MS;
	r->stall_waits = STALL_WAITS;
}

struct feeder {
	const struct ring *r;
	int fd;
	unsigned long after;		/* resubmissions to wait for */
	int ret;
};

/* Write one block into the FIFO once the ring has resubmitted its read
 * f->after times (at most 10 s from now). */
static void *feeder_main(void *arg)
{
	struct feeder *f = arg;
	unsigned char buf[4096];
	struct timespec t = { 0, 1000000 };

	for (unsigned i = 0; i < 10000 &&
	     atomic_load(&f->r->resubmits) < f->after; i++)
		nanosleep(&t, NULL);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = fifo_byte(0, i);
	f->ret = write_all(f->fd, buf, sizeof(buf));
	return NULL;
}

/*
 * A read of a FIFO whose writer writes nothing for a while stalls: the
 * kernel holds the read (in its poll), so each nudge finds it, it comes
 * back ECANCELED and is submitted again, and a stream is never failed.
 * Once the writer writes, the read completes with its bytes, and the
 * job's source_info says how many were resubmitted.  each: the kernel's
 * CANCEL_ANY taken as refused, one cancellation per busy slot instead.
 */
static void nudge_fifo(bool each)
{
	struct run r = data_run(1);
	const struct ioengine_ops *ops;
	struct feeder f = { .after = 2 };
	struct uring_priv *p;
	char path[400];
	struct io_unit u;
	pthread_t tid;
	struct src s;
	unsigned long nudges, resubmits;

	snprintf(path, sizeof(path), "%s/fifo", fx.dir);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	f.fd = open(path, O_RDWR);	/* a writer, silent until fed */
	assert_true(f.fd >= 0);
	r.path = path;
	r.bs = 4096;
	r.size = 4096;
	src_setup(&s, &r, false);
	ops = s.job.ioengine;
	p = s.e.priv;
	short_stalls(&p->r);
	p->r.cancel_each = each;
	f.r = &p->r;
	blockgen_rewind(&s.gen);
	assert_int_equal(pthread_create(&tid, NULL, feeder_main, &f), 0);
	assert_int_equal(ops->get(&s.e, &u), 1);
	pthread_join(tid, NULL);
	assert_int_equal(f.ret, 0);
	nudges = atomic_load(&p->r.nudges);
	resubmits = atomic_load(&p->r.resubmits);
	print_message("%s: %lu nudges, %lu resubmitted\n",
		      each ? "one per slot" : "CANCEL_ANY", nudges, resubmits);
	assert_true(resubmits >= 2);
	assert_true(resubmits <= nudges);
	assert_int_equal(u.len, 4096);
	for (size_t i = 0; i < u.len; i++)
		if (((unsigned char *)u.buf)[i] != fifo_byte(0, i))
			fail_msg("byte %zu is wrong", i);
	assert_int_equal(ops->put(&s.e, &u), 0);
	assert_int_equal(ops->get(&s.e, &u), 0);	/* the pass is over */
	print_message("source_info: %s\n", s.e.info);
	assert_non_null(strstr(s.e.info, " requests got no completion for "
			       "0.06 s and were resubmitted ("));
	src_teardown(&s);
	close(f.fd);
	assert_int_equal(unlink(path), 0);
}

static void test_nudge_fifo(void **state)
{
	(void)state;
	nudge_fifo(false);
	nudge_fifo(true);
}

/*
 * A request the kernel does not hold, as the ring sees one that was
 * lost: a slot counted in flight that was never submitted.  Nothing can
 * complete it, and no cancellation finds it.  A file's ring nudges once,
 * then fails, after two stalls, saying so; a stream's only nudges.
 */
static void nudge_lost(bool stream, bool each)
{
	struct run run = data_run(1);
	struct job_spec job;
	struct slot slot;
	struct ring r;
	char err[400] = "";
	unsigned char *buf = NULL;
	uint64_t t0, took;
	int fd, ret = 0;

	job_from_run(&job, &run);
	fd = open(fx.data, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(posix_memalign((void **)&buf, 4096, 4096), 0);
	memset(&slot, 0, sizeof(slot));
	slot.buf = buf;
	slot.len = slot.want = 4096;
	struct ring_cfg c = {
		.job = &job, .path = fx.data, .depth = 1, .slots = &slot,
		.nslots = 1, .stride = 4096, .fd = fd, .attach_fd = -1,
		.stream = stream, .err = err, .errlen = sizeof(err),
	};
	if (ring_init(&r, &c)) {
		print_message("skipped: %s\n", err);
		ring_exit(&r);
		free(buf);
		close(fd);
		skip();
	}
	if (!(r.ring.features & IORING_FEAT_EXT_ARG)) {
		ring_exit(&r);
		free(buf);
		close(fd);
		print_message("skipped: no IORING_FEAT_EXT_ARG (Linux 5.11): "
			      "waits are not bounded, stalls not seen\n");
		skip();
	}
	short_stalls(&r);
	r.cancel_each = each;
	slot_set(&slot, ST_BUSY);
	r.inflight = 1;			/* the phantom */
	t0 = now_ns();
	for (unsigned i = 0; i < 100 && !ret; i++) {
		ret = ring_reap(&r, 1);
		if (stream && atomic_load(&r.nudges) >= 3)
			break;
	}
	took = now_ns() - t0;
	print_message("%s%s: %.3f s, %lu nudges: %s\n", stream ? "stream" : "file",
		      each ? ", one per slot" : "", took / 1e9,
		      (unsigned long)atomic_load(&r.nudges), ret ? err : "-");
	assert_int_equal(atomic_load(&r.resubmits), 0);
	assert_int_equal(r.ndone, 0);
	if (stream) {
		assert_int_equal(ret, 0);
		assert_int_equal(atomic_load(&r.nudges), 3);
	} else {
		assert_int_equal(ret, -ETIMEDOUT);
		assert_true(r.cancelling);	/* given up on */
		assert_int_equal(atomic_load(&r.nudges), 1);
		assert_non_null(strstr(err, "io_uring: no completion in 0.12 s "
				       "for 1 request in flight, and the kernel "
				       "holds none of them (lost)"));
		assert_true(took >= 2ull * STALL_WAITS * STALL_WAIT_MS * 1000000);
	}
	r.inflight = 0;
	ring_exit(&r);
	free(buf);
	close(fd);
}

/* Through the source: a write pass whose ring holds a lost request ends
 * with get() failing with the ring's message, and drain() and teardown
 * give the lost request up within a few waits. */
static void nudge_lost_source(void)
{
	const struct pattern zero = { .kind = PATTERN_ZERO };
	struct run r = data_run(4);
	const struct ioengine_ops *ops;
	struct uring_priv *p;
	char path[400], err[512];
	struct io_unit u;
	struct src s;
	uint64_t t0, took;
	unsigned phantom;
	int ret;

	snprintf(path, sizeof(path), "%s/write", fx.dir);
	if (filegen_create(path, 256 * KIB, &zero, 1, err, sizeof(err)))
		fail_msg("%s", err);
	r.rw = RW_WRITE;
	r.path = path;
	r.size = 256 * KIB;
	src_setup(&s, &r, false);
	ops = s.job.ioengine;
	p = s.e.priv;
	if (!(p->r.ring.features & IORING_FEAT_EXT_ARG)) {
		src_teardown(&s);
		unlink(path);
		print_message("skipped: no IORING_FEAT_EXT_ARG (Linux 5.11)\n");
		skip();
	}
	short_stalls(&p->r);
	phantom = p->freelist[--p->nfree];	/* in flight, never submitted */
	slot_set(&p->slots[phantom], ST_BUSY);
	p->r.inflight++;
	blockgen_rewind(&s.gen);
	t0 = now_ns();
	while ((ret = ops->get(&s.e, &u)) == 1)
		assert_int_equal(ops->put(&s.e, &u), 0);
	print_message("get: %d: %s\n", ret, s.e.err);
	assert_int_equal(ret, -ETIMEDOUT);
	assert_non_null(strstr(s.e.err, "1 request in flight, and the kernel "
			       "holds none of them (lost)"));
	assert_int_equal(ops->drain(&s.e), 0);
	src_teardown(&s);
	took = now_ns() - t0;
	print_message("failed, drained and torn down in %.3f s\n", took / 1e9);
	assert_true(took < 5ull * 1000 * 1000 * 1000);
	assert_int_equal(unlink(path), 0);
}

static void test_nudge_lost(void **state)
{
	(void)state;
	nudge_lost(false, false);
	nudge_lost(false, true);
	nudge_lost(true, false);
	nudge_lost_source();
}

/* ---- setup, validation, refusal ---------------------------------------- */

static void test_info(void **state)
{
	struct run r = data_run(8);
	struct src s;

	(void)state;
	src_setup(&s, &r, false);
	print_message("info: %s\n", s.e.info);
	assert_non_null(strstr(s.e.info, "ring: depth 8, flags "));
	src_teardown(&s);
	r.ioworkers = 2;
	r.ordered = true;
	r.fixedbufs = true;
	src_setup(&s, &r, false);
	print_message("info: %s\n", s.e.info);
	assert_non_null(strstr(s.e.info, "2 rings (one per I/O thread), "
			       "iodepth 8 in all, 4 each, flags "));
	assert_non_null(strstr(s.e.info, "fixedbufs"));
	assert_non_null(strstr(s.e.info, "; ordered, pool 16 x 64 KiB"));
	src_teardown(&s);
}

static void expect_invalid(struct job_spec *job, const char *needle)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct diag d;

	assert_non_null(out);
	job->where = (struct srcloc){ "u.ini", 7 };
	diag_init(&d, out);
	assert_int_equal(job->ioengine->validate(job, &d), -1);
	fclose(out);
	if (!strstr(text, needle))
		fail_msg("'%s' does not say '%s'", text, needle);
	free(text);
}

static void test_validate(void **state)
{
	struct run r = data_run(64);
	struct job_spec job;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	struct diag d;
	char cpus[] = "0";

	(void)state;
	job_from_run(&job, &r);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	diag_init(&d, out);
	assert_int_equal(job.ioengine->validate(&job, &d), 0);
	uo(&job)->ioworkers = 2;
	uo(&job)->ordered = true;
	uo(&job)->sqpoll = true;
	uo(&job)->sqpoll_cpu = 0;
	uo(&job)->ioworkers_cpus = cpus;
	uo(&job)->ioworkers_cpuset[0] = 1;
	assert_int_equal(job.ioengine->validate(&job, &d), 0);
	fclose(out);
	free(text);

	job_from_run(&job, &r);
	job.iodepth = 40000;
	expect_invalid(&job, "u.ini:7: option 'iodepth': io_uring allows at most 32768");
	job_from_run(&job, &r);
	job.iodepth_batch_submit = 65;
	expect_invalid(&job, "option 'iodepth_batch_submit': must not exceed iodepth (64)");
	job_from_run(&job, &r);
	job.iodepth_batch_complete = 100;
	expect_invalid(&job, "option 'iodepth_batch_complete': must not exceed iodepth (64)");
	job_from_run(&job, &r);
	uo(&job)->sqpoll_cpu = 0;
	expect_invalid(&job, "option 'sqpoll_cpu': needs sqpoll=1");
	uo(&job)->sqpoll = true;
	uo(&job)->sqpoll_cpu = MEMJOB_MAX_CPUS - 1;
	expect_invalid(&job, "option 'sqpoll_cpu': CPU 1023 does not exist");
	job_from_run(&job, &r);
	uo(&job)->ordered = true;
	expect_invalid(&job, "option 'ordered': needs ioworkers > 0");
	job_from_run(&job, &r);
	uo(&job)->ioworkers_cpus = cpus;
	expect_invalid(&job, "option 'ioworkers_cpus': needs ioworkers > 0");
	uo(&job)->ioworkers = 1;
	uo(&job)->ioworkers_cpuset[(MEMJOB_MAX_CPUS - 1) / 64] = 1ULL << 63;
	expect_invalid(&job, "option 'ioworkers_cpus': CPU 1023 in '0' does not exist");
	job_from_run(&job, &r);
	uo(&job)->ioworkers = 65;
	expect_invalid(&job, "option 'ioworkers': each I/O thread needs an I/O in flight");
	job_from_run(&job, &r);
	uo(&job)->ioworkers = 2;
	job.rw = RW_RANDWRITE;
	expect_invalid(&job, "option 'ioworkers': I/O threads read ahead");
	job.rw = RW_RANDRW;
	expect_invalid(&job, "need rw=read or randread (a written block needs "
		       "the kernel's data first; to mix reads and writes, use "
		       "ioworkers=0)");
}

/* Make system call nr fail with err in this process and its children. */
static int deny_syscall(long nr, int err)
{
	const struct syscall_denial d = { nr, err };

	return seccomp_deny(&d, 1);
}

static int deny_io_uring(int err)
{
	return deny_syscall(__NR_io_uring_setup, err);
}

/* In a child without io_uring: setup fails with the reason. */
static int refused_child(int err, unsigned ioworkers)
{
	struct run r = data_run(8);
	struct job_spec job;
	struct blockgen gen;
	struct ioe e = { 0 };
	int ret;

	if (deny_io_uring(err))
		return 3;
	r.ioworkers = ioworkers;
	job_from_run(&job, &r);
	blockgen_init(&gen, 0, DATA_SIZE, r.bs, false, 1);
	e.job = &job;
	e.path = fx.data;
	e.gen = &gen;
	ret = job.ioengine->setup(&e);
	if (ret != -err) {
		fprintf(stderr, "setup returned %d: %s\n", ret, e.err);
		return 1;
	}
	if (!strstr(e.err, "io_uring unavailable") ||
	    !strstr(e.err, strerror(err)) ||
	    !strstr(e.err, "kernel.io_uring_disabled or a seccomp filter")) {
		fprintf(stderr, "setup says: %s\n", e.err);
		return 2;
	}
	if (e.priv != NULL)
		return 4;
	/* the check that refuses such a job before anything runs */
	if (uring_available(e.err, sizeof(e.err)) != -err ||
	    !strstr(e.err, "io_uring is unavailable here: io_uring_setup: ") ||
	    !strstr(e.err, strerror(err)) || !strstr(e.err, "seccomp") ||
	    !strstr(e.err, "ioengine=psync")) {
		fprintf(stderr, "uring_available says: %s\n", e.err);
		return 5;
	}
	return 0;
}

static void test_refused(void **state)
{
	static const int errs[] = { ENOSYS, EPERM };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		for (unsigned w = 0; w < 3; w += 2) {
			int status;
			pid_t pid = fork();

			assert_true(pid >= 0);
			if (pid == 0)
				_exit(refused_child(errs[i], w));
			assert_int_equal(waitpid(pid, &status, 0), pid);
			assert_true(WIFEXITED(status));
			if (WEXITSTATUS(status) == 3) {
				print_message("skipped: no seccomp filter "
					      "here\n");
				skip();
			}
			assert_int_equal(WEXITSTATUS(status), 0);
		}
	}
}

/* ---- sync: fsync=, fdatasync=, end_fsync= ------------------------------ */

#define SYNC_SIZE	(4 * MIB)
#define SYNC_BS		(16 * KIB)

#ifndef __NR_cachestat
#define __NR_cachestat	451		/* Linux 6.5; the same on every arch */
#endif

/* cachestat(2)'s arguments (linux/mman.h has them from 6.5 on). */
struct cstat_range {
	uint64_t off, len;
};

struct cstat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted;
	uint64_t nr_recently_evicted;
};

/* Pages of path that are not on the device yet (dirty, or under
 * writeback), or -1 when the kernel cannot tell: no cachestat(2), or
 * tmpfs, whose pages have no device to go to. */
static long long unwritten_pages(const char *path)
{
	struct cstat_range range = { 0, 0 };	/* len 0: to the end */
	struct cstat cs;
	struct statfs sf;
	long long n = -1;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	if (!fstatfs(fd, &sf) && sf.f_type != TMPFS_MAGIC &&
	    !syscall(__NR_cachestat, fd, &range, &cs, 0))
		n = (long long)(cs.nr_dirty + cs.nr_writeback);
	close(fd);
	return n;
}

static void make_write_file(char *path, size_t len)
{
	const struct pattern zero = { .kind = PATTERN_ZERO };
	char err[512];

	snprintf(path, len, "%s/write", fx.dir);
	unlink(path);			/* left by a test that failed */
	if (filegen_create(path, SYNC_SIZE, &zero, 1, err, sizeof(err)))
		fail_msg("%s", err);
}

/* Write up to n blocks as the engine does; returns how many (fewer when
 * the pass ends). */
static unsigned write_blocks(struct src *s, unsigned n)
{
	const struct ioengine_ops *ops = s->job.ioengine;
	struct io_unit u;
	unsigned done = 0;
	int ret = 1;

	while (done < n && (ret = ops->get(&s->e, &u)) == 1) {
		pattern_fill(&randint_0_20, 11, u.off, u.buf, u.len);
		assert_int_equal(ops->put(&s->e, &u), 0);
		done++;
	}
	if (ret < 0)
		fail_msg("get: %s (%d)", s->e.err, ret);
	return done;
}

/* What the worker does (engine/worker.c, sync_now): drain, then sync. */
static void drain_and_sync(struct src *s, bool data_only, const char *when)
{
	const struct ioengine_ops *ops = s->job.ioengine;
	long long before = unwritten_pages(s->e.path), after;
	int ret;

	if (ops->drain)
		assert_int_equal(ops->drain(&s->e), 0);
	ret = ops->sync(&s->e, data_only);
	if (ret)
		fail_msg("%s: sync: %s (%d)", when, s->e.err, ret);
	after = unwritten_pages(s->e.path);
	print_message("%s %s: pages not on the device: %lld before, %lld "
		      "after (-1: cannot tell)\n", s->job.ioengine->name, when,
		      before, after);
	if (after > 0)
		fail_msg("%s: %lld pages of %s are still not on the device",
			 when, after, s->e.path);
}

static void test_sync(void **state)
{
	static const struct {
		const char *engine;
		unsigned depth, batch;
		bool direct;
	} cases[] = {
		{ NULL, 16, 4, false },
		{ NULL, 1, 0, false },
		{ "psync", 0, 0, false },
		{ NULL, 64, 0, true },	/* last: it may skip (tmpfs) */
	};
	const unsigned nblocks = SYNC_SIZE / SYNC_BS;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r = data_run(cases[i].depth);
		const struct ioengine_ops *ops;
		char path[400];
		unsigned n;
		struct src s;
		int ret;

		make_write_file(path, sizeof(path));
		r.engine = cases[i].engine;
		r.rw = RW_WRITE;
		r.path = path;
		r.size = SYNC_SIZE;
		r.bs = SYNC_BS;
		r.batch_submit = cases[i].batch;
		r.direct = cases[i].direct;
		src_setup(&s, &r, false);
		ops = s.job.ioengine;
		assert_non_null(ops->sync);
		blockgen_rewind(&s.gen);
		n = write_blocks(&s, nblocks / 2);
		assert_int_equal(n, nblocks / 2);
		if (!r.engine) {
			/* The last put()'s write at least is still in flight. */
			ret = ops->sync(&s.e, false);
			assert_int_equal(ret, -EBUSY);
			assert_non_null(strstr(s.e.err, "in flight (not drained)"));
		}
		drain_and_sync(&s, false, "fsync mid-pass");
		n += write_blocks(&s, UINT32_MAX);
		assert_int_equal(n, nblocks);	/* the drain lost no block */
		drain_and_sync(&s, true, "fdatasync at the end");
		src_teardown(&s);
		check_written(path, SYNC_SIZE);
		assert_int_equal(unlink(path), 0);
	}
}

/* In a child where fsync(2) fails with EDQUOT and fdatasync(2) with
 * ENOSPC: sync() must make the one data_only asks for, and report it. */
static int sync_calls_child(const char *engine, const char *path)
{
	struct run r = data_run(8);
	const struct ioengine_ops *ops;
	struct job_spec job;
	struct blockgen gen;
	struct ioe e = { 0 };
	struct io_unit u;
	char want[600];
	int ret, rc = 0;

	if (deny_syscall(__NR_fsync, EDQUOT) ||
	    deny_syscall(__NR_fdatasync, ENOSPC))
		return 3;
	r.engine = engine;
	r.rw = RW_WRITE;
	r.bs = SYNC_BS;
	r.size = SYNC_SIZE;
	job_from_run(&job, &r);
	ops = job.ioengine;
	blockgen_init(&gen, 0, SYNC_SIZE, SYNC_BS, false, 1);
	e.job = &job;
	e.path = path;
	e.gen = &gen;
	if (ops->setup(&e)) {
		fprintf(stderr, "setup: %s\n", e.err);
		return 1;
	}
	blockgen_rewind(&gen);
	for (int i = 0; i < 10 && rc == 0; i++)
		if (ops->get(&e, &u) != 1 || ops->put(&e, &u))
			rc = 2;
	if (!rc && ops->drain && ops->drain(&e))
		rc = 2;
	if (rc) {
		fprintf(stderr, "writing: %s\n", e.err);
		goto out;
	}
	ret = ops->sync(&e, false);
	snprintf(want, sizeof(want), "fsync %s: %s", path, strerror(EDQUOT));
	if (ret != -EDQUOT || strcmp(e.err, want)) {
		fprintf(stderr, "sync: %d '%s', want '%s'\n", ret, e.err, want);
		rc = 4;
	}
	ret = ops->sync(&e, true);
	snprintf(want, sizeof(want), "fdatasync %s: %s", path, strerror(ENOSPC));
	if (ret != -ENOSPC || strcmp(e.err, want)) {
		fprintf(stderr, "data_only: %d '%s', want '%s'\n", ret, e.err,
			want);
		rc = 5;
	}
out:
	ops->teardown(&e);
	return rc;
}

static void test_sync_calls(void **state)
{
	static const char *const engines[] = { "io_uring", "psync" };
	char path[400];

	(void)state;
	make_write_file(path, sizeof(path));
	for (size_t i = 0; i < 2; i++) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0)
			_exit(sync_calls_child(engines[i], path));
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status) == 3) {
			print_message("skipped: no seccomp filter here\n");
			skip();
		}
		if (WEXITSTATUS(status))
			fail_msg("%s: child failed with %d", engines[i],
				 WEXITSTATUS(status));
	}
	assert_int_equal(unlink(path), 0);
}

/* Where no ring can be had (a kernel without io_uring, io_uring_disabled,
 * a seccomp filter, qemu-user), the engine is not tested, and says why. */
static void test_no_uring(void **state)
{
	char why[256];

	(void)state;
	if (uring_available(why, sizeof(why)) == 0)
		fail_msg("io_uring came back");
	print_message("skipped: %s\n", why);
	skip();
}

int main(void)
{
	const struct CMUnitTest none[] = { cmocka_unit_test(test_no_uring) };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depths),
		cmocka_unit_test(test_batches),
		cmocka_unit_test(test_registered),
		cmocka_unit_test(test_sqpoll),
		cmocka_unit_test(test_ioworkers),
		cmocka_unit_test(test_ioworkers_edges),
		cmocka_unit_test(test_unaligned_region),
		cmocka_unit_test(test_past_eof),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_error_completions),
		cmocka_unit_test(test_latency_paced),
		cmocka_unit_test(test_slower_than_a_wait),
		cmocka_unit_test(test_short_reads),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_wait_limit),
		cmocka_unit_test(test_short_submission_ring),
		cmocka_unit_test(test_short_submission_info),
		cmocka_unit_test(test_nudge_fifo),
		cmocka_unit_test(test_nudge_lost),
		cmocka_unit_test(test_latency_psync),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_sync),
		cmocka_unit_test(test_sync_calls),
	};

	char why[256];

	if (uring_available(why, sizeof(why)))
		return cmocka_run_group_tests(none, NULL, NULL);
	return cmocka_run_group_tests(tests, setup_files, remove_files);
}
