/*
 * test_ioengines.c - every data source, driven exactly as ioengine.h says
 * the engine core drives it, over a file made by filegen_create().
 *
 * For each source, order (sequential, random) and pass: every byte of the
 * range is delivered exactly once (a bitmap of blocks), each unit holds
 * the file's bytes at its offset, and the number of 10s counted over the
 * units equals the count from a plain read(2) loop over the file (seed
 * 003's check).  Write jobs: what was put is what the file holds after.
 * validate() is called with no parser bookkeeping (isset NULL), where
 * job_loc() falls back to the job's [section] line.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ioengines/blockgen.h"
#include "ioengines/filegen.h"
#include "ioengines/ioengine.h"
#include "ioengines/mmap.h"
#include "jobopts.h"
#include "scratch.h"

#define KIB		1024ULL
#define MIB		(1024 * KIB)
#define DATA_SIZE	(3 * MIB + 4 * KIB)	/* a short last 64 KiB block */
#define ODD_SIZE	(1 * MIB + 100)		/* not a multiple of 4096 */
#define DATA_SEED	3

static const struct pattern randint_0_20 = {
	.kind = PATTERN_RANDINT, .lo = 0, .hi = 20,
};

/* The files every test reads, and what a plain read(2) finds in them. */
static struct {
	char dir[256];
	char data[320], odd[320];
	unsigned char *data_bytes, *odd_bytes;
	uint64_t data_tens;
} fx;

/* One way of running a source. */
struct run {
	const char *engine;
	enum rw_mode rw;
	const char *path;		/* NULL: mem without a file */
	uint64_t file_size;		/* of path, or of mem's pattern buffer */
	const unsigned char *bytes;	/* what each block must hold */
	uint64_t bs, offset, size;	/* size 0: the file's, less offset */
	unsigned iodepth;
	bool direct, sync, populate;
	enum madvise_mode madvise;
	enum hugepage_mode hugepage;
	struct pattern pattern;
};

/* The oracle: the 10s in a file, counted over read(2) into a buffer. */
static uint64_t count_tens_read(const char *path)
{
	static int32_t buf[1 << 16];
	uint64_t tens = 0;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		assert_int_equal(n % 4, 0);
		for (ssize_t i = 0; i < n / 4; i++)
			tens += buf[i] == 10;
	}
	assert_int_equal(n, 0);
	close(fd);
	return tens;
}

static uint64_t count_tens(const void *buf, size_t len)
{
	const int32_t *v = buf;
	uint64_t tens = 0;

	for (size_t i = 0; i < len / 4; i++)
		tens += v[i] == 10;
	return tens;
}

static int setup_files(void **state)
{
	char err[512];
	size_t len;

	(void)state;
	if (scratch_dir(fx.dir, sizeof(fx.dir), "ioe"))
		return -1;
	snprintf(fx.data, sizeof(fx.data), "%s/data", fx.dir);
	snprintf(fx.odd, sizeof(fx.odd), "%s/odd", fx.dir);
	if (filegen_create(fx.data, DATA_SIZE, &randint_0_20, DATA_SEED, err,
			   sizeof(err)) ||
	    filegen_create(fx.odd, ODD_SIZE, &randint_0_20, DATA_SEED + 1, err,
			   sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	fx.data_bytes = scratch_read(fx.data, &len);
	fx.odd_bytes = scratch_read(fx.odd, &len);
	fx.data_tens = count_tens_read(fx.data);
	return 0;
}

static int remove_files(void **state)
{
	(void)state;
	free(fx.data_bytes);
	free(fx.odd_bytes);
	return scratch_remove(fx.dir);
}

static struct run data_run(const char *engine)
{
	return (struct run){
		.engine = engine, .rw = RW_READ, .path = fx.data,
		.file_size = DATA_SIZE, .bytes = fx.data_bytes,
		.bs = 64 * KIB, .iodepth = 1, .pattern = randint_0_20,
	};
}

/* mmap's options of the jobs made below: a few are alive at once. */
static struct mmap_held {
	struct mmap_opts opts;
	struct jobopts jo;
} mmap_held[8];

static void job_from_run(struct job_spec *job, const struct run *r)
{
	static char name[] = "test";
	static unsigned next;
	struct mmap_held *h = &mmap_held[next++ % 8];

	memset(job, 0, sizeof(*job));
	h->opts = (struct mmap_opts){ .populate = r->populate,
				      .madvise = r->madvise };
	jobopts_attach(job, &h->jo, &ioengine_mmap_opts, &h->opts);
	job->name = name;
	job->numjobs = 1;
	job->ioengine = ioengine_find(r->engine);
	assert_non_null(job->ioengine);
	job->rw = r->rw;
	job->bs = r->bs;
	job->size = r->size;
	job->offset = r->offset;
	job->iodepth = r->iodepth;
	job->direct = r->direct;
	job->sync = r->sync;
	job->hugepage = r->hugepage;
	job->pattern = r->pattern;
	job->pattern_seed = DATA_SEED;
	job->loops = 1;
}

/* Setup and fill (as the worker runs them, without a timed first touch
 * between), or skip the test when the machine cannot do it. */
static void setup_or_skip(const struct ioengine_ops *ops, struct ioe *e)
{
	int ret = ops->setup(e);

	if (!ret && ops->fill)
		ret = ops->fill(e);

	if (ret == -ENOSYS || ret == -EPERM ||
	    (ret == -EINVAL && e->job->direct && strstr(e->err, "O_DIRECT"))) {
		print_message("skipped: %s\n", e->err);
		skip();
	}
	if (ret)
		fail_msg("%s setup: %s (%d)", ops->name, e->err, ret);
}

/*
 * Drive a read source for passes passes.  Returns the 10s counted over
 * the last pass (when the blocks are int-aligned).
 */
static uint64_t drive_read(const struct run *r, bool random, unsigned passes)
{
	uint64_t size = r->size ? r->size : r->file_size - r->offset;
	uint64_t nblocks = (size + r->bs - 1) / r->bs, tens = 0;
	unsigned char *seen = calloc(nblocks ? nblocks : 1, 1);
	struct job_spec job;
	struct blockgen gen;
	struct ioe e;
	struct io_unit u;
	int ret;

	assert_non_null(seen);
	job_from_run(&job, r);
	blockgen_init(&gen, r->offset, size, r->bs, random, 17);
	memset(&e, 0, sizeof(e));
	e.job = &job;
	e.path = r->path;
	e.gen = &gen;
	setup_or_skip(job.ioengine, &e);

	for (unsigned pass = 0; pass < passes; pass++) {
		uint64_t total = 0;

		blockgen_rewind(&gen);
		memset(seen, 0, nblocks);
		tens = 0;
		while ((ret = job.ioengine->get(&e, &u)) == 1) {
			uint64_t blk = (u.off - r->offset) / r->bs;
			uint64_t want = size - blk * r->bs < r->bs ?
					size - blk * r->bs : r->bs;

			assert_true(u.off >= r->offset);
			assert_int_equal((u.off - r->offset) % r->bs, 0);
			assert_true(blk < nblocks);
			if (seen[blk])
				fail_msg("%s: block %llu delivered twice in pass %u",
					 r->engine, (unsigned long long)blk, pass);
			seen[blk] = 1;
			assert_int_equal(u.len, want);
			if (r->hugepage == HUGEPAGE_THP && u.off == r->offset)
				assert_int_equal((uintptr_t)u.buf % (2 * MIB), 0);
			if (memcmp(u.buf, r->bytes + u.off, u.len))
				fail_msg("%s: block at %llu does not hold the file's bytes",
					 r->engine, (unsigned long long)u.off);
			if (u.off % 4 == 0)
				tens += count_tens(u.buf, u.len);
			total += u.len;
			assert_int_equal(job.ioengine->put(&e, &u), 0);
		}
		if (ret)
			fail_msg("%s get: %s (%d)", r->engine, e.err, ret);
		assert_int_equal(total, size);
		for (uint64_t b = 0; b < nblocks; b++)
			assert_int_equal(seen[b], 1);
	}
	job.ioengine->teardown(&e);
	assert_null(e.priv);
	free(seen);
	return tens;
}

static void check_counts(const struct run *r)
{
	for (int random = 0; random < 2; random++)
		assert_int_equal(drive_read(r, random, 2), fx.data_tens);
}

static void test_mem(void **state)
{
	struct run r = data_run("mem");

	(void)state;
	check_counts(&r);		/* preloaded from the file */
	r.path = NULL;			/* the pattern, generated */
	r.size = DATA_SIZE;
	check_counts(&r);
	r.hugepage = HUGEPAGE_THP;
	check_counts(&r);
}

static void test_mmap(void **state)
{
	struct run r = data_run("mmap");

	(void)state;
	check_counts(&r);
	r.populate = true;
	r.madvise = MADV_MODE_SEQUENTIAL;
	check_counts(&r);
	r.populate = false;
	r.madvise = MADV_MODE_RANDOM;
	check_counts(&r);
}

static void test_psync(void **state)
{
	struct run r = data_run("psync");

	(void)state;
	check_counts(&r);
	r.direct = true;
	check_counts(&r);
}

static void test_io_uring(void **state)
{
	static const unsigned depths[] = { 1, 8, 64 };
	struct run r = data_run("io_uring");

	(void)state;
	for (int direct = 0; direct < 2; direct++) {
		for (size_t i = 0; i < 3; i++) {
			r.direct = direct;
			r.iodepth = depths[i];
			check_counts(&r);
		}
	}
	/* More in flight than there are blocks. */
	r.bs = 1 * MIB;
	r.iodepth = 8;
	check_counts(&r);
}

/* A region that starts inside a page and ends inside a block. */
static void test_unaligned_region(void **state)
{
	static const char *const engines[] = { "mem", "mmap", "psync", "io_uring" };

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		struct run r = data_run(engines[i]);

		r.offset = 4100;
		r.size = 100001;
		r.bs = 4096;
		r.iodepth = engines[i][0] == 'i' ? 4 : 1;
		drive_read(&r, false, 1);
		drive_read(&r, true, 2);
		if (i == 0) {		/* mem's pattern starts at offset too */
			r.path = NULL;
			drive_read(&r, true, 1);
		}
	}
}

/* A file whose size is no multiple of 4096: direct reads of the tail. */
static void test_odd_file_size(void **state)
{
	static const char *const engines[] = { "mmap", "psync", "io_uring" };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		for (int direct = 0; direct < 2; direct++) {
			struct run r = data_run(engines[i]);

			if (direct && i == 0)
				continue;
			r.path = fx.odd;
			r.file_size = ODD_SIZE;
			r.bytes = fx.odd_bytes;
			r.direct = direct;
			r.iodepth = i == 2 ? 8 : 1;
			drive_read(&r, false, 1);
			drive_read(&r, true, 1);
		}
	}
}

/*
 * A write job over a new file: the "kernel" stores the pattern of seed 11
 * into every unit, and the file must hold exactly that afterwards.
 */
static void drive_write(struct run *r, bool random)
{
	const struct pattern zero = { .kind = PATTERN_ZERO };
	const uint64_t size = 2 * MIB + 8 * KIB;
	unsigned char *want, *got;
	struct job_spec job;
	struct blockgen gen;
	struct io_unit u;
	struct ioe e;
	char path[400], err[512];
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/write", fx.dir);
	if (filegen_create(path, size, &zero, 1, err, sizeof(err)))
		fail_msg("%s", err);
	r->rw = random ? RW_RANDWRITE : RW_WRITE;
	job_from_run(&job, r);
	blockgen_init(&gen, 0, size, r->bs, random, 5);
	memset(&e, 0, sizeof(e));
	e.job = &job;
	e.path = path;
	e.gen = &gen;
	ret = job.ioengine->setup(&e);
	if (!ret && job.ioengine->fill)
		ret = job.ioengine->fill(&e);
	if (ret == -ENOSYS || ret == -EPERM) {
		unlink(path);
		print_message("skipped: %s\n", e.err);
		skip();
	}
	if (ret)
		fail_msg("%s setup: %s", r->engine, e.err);
	blockgen_rewind(&gen);
	while ((ret = job.ioengine->get(&e, &u)) == 1) {
		pattern_fill(&randint_0_20, 11, u.off, u.buf, u.len);
		assert_int_equal(job.ioengine->put(&e, &u), 0);
	}
	if (ret)
		fail_msg("%s get: %s", r->engine, e.err);
	job.ioengine->teardown(&e);

	got = scratch_read(path, &len);
	assert_int_equal(len, size);
	want = malloc(size);
	assert_non_null(want);
	pattern_fill(&randint_0_20, 11, 0, want, size);
	if (memcmp(got, want, size))
		fail_msg("%s%s: the file does not hold what was written",
			 r->engine, r->direct ? " direct" : "");
	free(got);
	free(want);
	assert_int_equal(unlink(path), 0);
}

static void test_writes(void **state)
{
	static const unsigned depths[] = { 1, 8, 64 };

	(void)state;
	for (int random = 0; random < 2; random++) {
		struct run r = data_run("mmap");

		drive_write(&r, random);
		r = data_run("psync");
		drive_write(&r, random);
		r.direct = true;
		drive_write(&r, random);
		for (int direct = 0; direct < 2; direct++) {
			for (size_t i = 0; i < 3; i++) {
				r = data_run("io_uring");
				r.direct = direct;
				r.iodepth = depths[i];
				drive_write(&r, random);
			}
		}
	}
}

/* A write that stores nothing writes the pattern (byte:N: all of it). */
static void test_write_pattern(void **state)
{
	static const char *const engines[] = { "psync", "io_uring" };
	const struct pattern zero = { .kind = PATTERN_ZERO };
	const uint64_t size = 1 * MIB;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct run r = data_run(engines[i]);
		struct job_spec job;
		struct blockgen gen;
		struct io_unit u;
		struct ioe e = { 0 };
		char path[400], err[512];
		unsigned char *got;
		size_t len;
		int ret;

		snprintf(path, sizeof(path), "%s/pat", fx.dir);
		assert_int_equal(filegen_create(path, size, &zero, 1, err,
						sizeof(err)), 0);
		r.rw = RW_WRITE;
		r.iodepth = 4;
		r.pattern = (struct pattern){ .kind = PATTERN_BYTE, .byte = 0x5a };
		job_from_run(&job, &r);
		blockgen_init(&gen, 0, size, r.bs, false, 5);
		e.job = &job;
		e.path = path;
		e.gen = &gen;
		setup_or_skip(job.ioengine, &e);
		blockgen_rewind(&gen);
		while ((ret = job.ioengine->get(&e, &u)) == 1)
			assert_int_equal(job.ioengine->put(&e, &u), 0);
		assert_int_equal(ret, 0);
		job.ioengine->teardown(&e);
		got = scratch_read(path, &len);
		assert_int_equal(len, size);
		for (size_t b = 0; b < len; b++)
			if (got[b] != 0x5a)
				fail_msg("%s: byte %zu is 0x%02x", engines[i], b, got[b]);
		free(got);
		assert_int_equal(unlink(path), 0);
	}
}

/* Stop a pass early, drain, and run a full pass after it. */
static void test_io_uring_drain(void **state)
{
	struct run r = data_run("io_uring");
	struct job_spec job;
	struct blockgen gen;
	struct io_unit u;
	struct ioe e = { 0 };
	uint64_t total = 0, tens = 0;
	int ret;

	(void)state;
	r.iodepth = 16;
	job_from_run(&job, &r);
	blockgen_init(&gen, 0, DATA_SIZE, r.bs, true, 9);
	e.job = &job;
	e.path = fx.data;
	e.gen = &gen;
	setup_or_skip(job.ioengine, &e);
	blockgen_rewind(&gen);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(job.ioengine->get(&e, &u), 1);
		assert_int_equal(job.ioengine->put(&e, &u), 0);
	}
	assert_int_equal(job.ioengine->drain(&e), 0);
	blockgen_rewind(&gen);
	while ((ret = job.ioengine->get(&e, &u)) == 1) {
		assert_memory_equal(u.buf, fx.data_bytes + u.off, u.len);
		tens += count_tens(u.buf, u.len);
		total += u.len;
		assert_int_equal(job.ioengine->put(&e, &u), 0);
	}
	assert_int_equal(ret, 0);
	assert_int_equal(total, DATA_SIZE);
	assert_int_equal(tens, fx.data_tens);
	/* Teardown with reads in flight must wait for them. */
	blockgen_rewind(&gen);
	assert_int_equal(job.ioengine->get(&e, &u), 1);
	assert_int_equal(job.ioengine->put(&e, &u), 0);
	job.ioengine->teardown(&e);
	assert_null(e.priv);
}

/* Setup failures come back as -errno with a message that says why. */
static void expect_setup_error(struct run *r, const char *needle)
{
	struct job_spec job;
	struct blockgen gen;
	struct ioe e = { 0 };
	int ret;

	job_from_run(&job, r);
	blockgen_init(&gen, r->offset, r->size ? r->size : 4096, r->bs, false, 1);
	e.job = &job;
	e.path = r->path;
	e.gen = &gen;
	ret = job.ioengine->setup(&e);
	if (ret == -ENOSYS || ret == -EPERM) {
		print_message("skipped: %s\n", e.err);
		skip();
	}
	if (ret >= 0)
		fail_msg("%s setup succeeded, expected '%s'", r->engine, needle);
	if (!strstr(e.err, needle))
		fail_msg("%s: '%s' does not say '%s'", r->engine, e.err, needle);
	assert_null(e.priv);
}

static void test_setup_errors(void **state)
{
	char missing[400];
	struct run r;

	(void)state;
	snprintf(missing, sizeof(missing), "%s/missing", fx.dir);
	r = data_run("mem");
	r.path = missing;
	expect_setup_error(&r, "No such file");
	r = data_run("psync");
	r.path = missing;
	expect_setup_error(&r, missing);
	r = data_run("mmap");
	r.size = 2 * DATA_SIZE;		/* past the end: would SIGBUS */
	expect_setup_error(&r, "offset+size");
	r = data_run("mem");
	r.offset = DATA_SIZE;		/* nothing left of the file */
	expect_setup_error(&r, "nothing after offset");
	r = data_run("io_uring");
	r.iodepth = 1u << 20;		/* more than io_uring allows */
	expect_setup_error(&r, "io_uring_queue_init");
}

/* Which source honours which of the source-specific options; check.c
 * refuses the rest (see test_check.c for the messages). */
static void test_options(void **state)
{
	struct job_spec job;
	struct run r = data_run("io_uring");
	struct diag d;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_true(ioe_honours(ioengine_find("mem"), "hugepage"));
	assert_false(ioe_honours(ioengine_find("mem"), "direct"));
	assert_true(ioe_honours(ioengine_find("mmap"), "populate"));
	assert_true(ioe_honours(ioengine_find("mmap"), "madvise"));
	assert_false(ioe_honours(ioengine_find("mmap"), "iodepth"));
	assert_true(ioe_honours(ioengine_find("psync"), "direct"));
	assert_false(ioe_honours(ioengine_find("psync"), "iodepth"));
	assert_true(ioe_honours(ioengine_find("io_uring"), "iodepth"));
	assert_true(ioe_honours(ioengine_find("io_uring"), "sync"));

	assert_non_null(out);
	r.iodepth = 40000;
	job_from_run(&job, &r);
	job.where = (struct srcloc){ "t.ini", 3 };
	diag_init(&d, out);
	assert_int_equal(job.ioengine->validate(&job, &d), -1);
	fclose(out);
	assert_non_null(strstr(text, "t.ini:3: option 'iodepth': io_uring "
			       "allows at most 32768"));
	free(text);
}

static void test_registry(void **state)
{
	static const char *const names[] = { "mem", "mmap", "psync", "io_uring" };
	struct ioe e = { 0 };
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const struct ioengine_ops *ops = ioengine_find(names[i]);

		assert_non_null(ops);
		assert_string_equal(ops->name, names[i]);
		assert_non_null(ops->help);
		assert_non_null(ops->setup);
		assert_non_null(ops->get);
		assert_non_null(ops->put);
		assert_non_null(ops->teardown);
	}
	/* later sources (dax...) follow; names are unique */
	while (ioengine_registry[n]) {
		for (size_t k = 0; k < n; k++)
			assert_string_not_equal(ioengine_registry[k]->name,
						ioengine_registry[n]->name);
		n++;
	}
	assert_true(n >= 4);
	assert_null(ioengine_find("sync"));
	assert_null(ioengine_find(""));
	assert_true(ioengine_find("mem")->flags & IOE_FILE_OPT);
	assert_true(ioengine_find("mmap")->flags & IOE_FILE);

	assert_int_equal(ioe_error(&e, "pread %s at offset %d: %s", "f", 4096,
				   "Input/output error"), -1);
	assert_string_equal(e.err, "pread f at offset 4096: Input/output error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_psync),
		cmocka_unit_test(test_io_uring),
		cmocka_unit_test(test_unaligned_region),
		cmocka_unit_test(test_odd_file_size),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_write_pattern),
		cmocka_unit_test(test_io_uring_drain),
		cmocka_unit_test(test_setup_errors),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests(tests, setup_files, remove_files);
}
