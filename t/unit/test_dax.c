/*
 * test_dax.c - ioengine "dax", driven as ioengine.h says the engine core
 * drives it, over files in a fresh mkdtemp() directory.
 *
 * Most machines (this one included) have no DAX: MAP_SYNC fails there,
 * and the tests check that the job then fails with a reason that names
 * the file, MAP_SYNC, the errno and dax_emulate, and that with
 * dax_emulate=1 every flush and fence setting writes exactly the bytes
 * stored (read back with pread(2) after teardown) and reads see the file.
 * Where the directory is on DAX after all, the refusal test skips and the
 * others run on the real thing.  A timing test checks that put() really
 * flushes: after clflush or clflushopt the line's next load misses
 * (x86-64, where rdtscp times one load).  Every architecture's flush
 * instructions are tried: this build's must write the bytes stored, the
 * other's are refused with this one's as the way out.  device-dax is
 * tested read-only, and only where a /dev/daxX.Y exists.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef __x86_64__
#include <x86intrin.h>
#include <cpuid.h>
#endif
#ifdef __aarch64__
#include <sys/auxv.h>
#endif
#include <cmocka.h>

#include "ioengines/blockgen.h"
#include "ioengines/dax.h"
#include "ioengines/ioengine.h"
#include "jobopts.h"
#include "scratch.h"

#define KIB		1024ULL
#define FILE_SIZE	(1024 * KIB + 4 * KIB)
/* A write region that starts and ends inside cache lines and pages. */
#define W_OFFSET	100ULL
#define W_SIZE		(256 * KIB + 36)
#define W_BS		1000ULL
#define TRIALS		301

static struct {
	char dir[256];
	char data[320];			/* FILE_SIZE random int32s in [0, 20] */
	char write[320];		/* rewritten by each write test */
	unsigned char *bytes;		/* what data holds */
	bool dax;			/* MAP_SYNC works in dir */
} fx;

/* This architecture's fence: the one a job may name here. */
static enum fence_kind arch_fence(void)
{
	return fence_here(FENCE_SFENCE) ? FENCE_SFENCE : FENCE_DSB;
}

static int write_all(const char *path, const unsigned char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	return close(fd);
}

static bool map_sync_works(const char *path)
{
	int fd = open(path, O_RDWR);
	void *p;

	if (fd < 0)
		return false;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return false;
	munmap(p, 4096);
	return true;
}

static int setup_files(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	if (scratch_dir(fx.dir, sizeof(fx.dir), "dax"))
		return -1;
	snprintf(fx.data, sizeof(fx.data), "%s/data", fx.dir);
	snprintf(fx.write, sizeof(fx.write), "%s/write", fx.dir);
	fx.bytes = malloc(FILE_SIZE);
	if (!fx.bytes)
		return -1;
	for (size_t i = 0; i < FILE_SIZE / 4; i++) {
		int32_t v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (int32_t)(x % 21);
		memcpy(fx.bytes + 4 * i, &v, 4);
	}
	if (write_all(fx.data, fx.bytes, FILE_SIZE))
		return -1;
	fx.dax = map_sync_works(fx.data);
	return 0;
}

static int remove_files(void **state)
{
	(void)state;
	free(fx.bytes);
	return scratch_remove(fx.dir);
}

/* The job's dax options: one job at a time is alive in these tests. */
static struct dax_opts dax_opts;
static struct jobopts jobopts;

static void job_init(struct job_spec *job, enum rw_mode rw)
{
	static char name[] = "test";

	memset(job, 0, sizeof(*job));
	memset(&dax_opts, 0, sizeof(dax_opts));
	jobopts_attach(job, &jobopts, &ioengine_dax_opts, &dax_opts);
	job->name = name;
	job->where = (struct srcloc){ "t.ini", 3 };
	job->numjobs = 1;
	job->ioengine = ioengine_find("dax");
	assert_non_null(job->ioengine);
	job->rw = rw;
	job->bs = 64 * KIB;
	job->loops = 1;
}

static void ioe_init(struct ioe *e, const struct job_spec *job,
		     struct blockgen *gen, const char *path, uint64_t size)
{
	memset(e, 0, sizeof(*e));
	e->job = job;
	e->path = path;
	e->gen = gen;
	blockgen_init(gen, job->offset, size, job->bs, RW_IS_RANDOM(job->rw),
		      17);
}

/* validate(); returns its result and leaves what it printed in *text. */
static int validate(const struct job_spec *job, char **text)
{
	struct diag d;
	size_t len = 0;
	FILE *out;
	int ret;

	*text = NULL;
	out = open_memstream(text, &len);
	assert_non_null(out);
	diag_init(&d, out);
	ret = job->ioengine->validate(job, &d);
	fclose(out);
	return ret;
}

#ifdef __x86_64__
/* Whether /proc/cpuinfo lists flag; -1 when there is no flags line. */
static int cpuinfo_has(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	int has = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *w;

		if (strncmp(line, "flags", 5))
			continue;
		has = 0;
		for (w = strtok_r(strchr(line, ':'), " :\n", &save); w;
		     w = strtok_r(NULL, " \n", &save))
			if (!strcmp(w, flag))
				has = 1;
		break;
	}
	fclose(f);
	return has;
}
#endif

/* ---- no DAX: refused, unless emulated ------------------------------- */

static void test_not_dax(void **state)
{
	static const enum rw_mode modes[] = { RW_WRITE, RW_READ };
	struct job_spec job;
	struct blockgen gen;
	struct ioe e;

	(void)state;
	if (fx.dax) {
		print_message("skipped: %s is on DAX\n", fx.dir);
		skip();
	}
	for (size_t i = 0; i < 2; i++) {
		int ret;

		job_init(&job, modes[i]);
		ioe_init(&e, &job, &gen, fx.data, FILE_SIZE);
		ret = job.ioengine->setup(&e);
		if (ret != -EOPNOTSUPP && ret != -EINVAL)
			fail_msg("setup returned %d: %s", ret, e.err);
		assert_non_null(strstr(e.err, fx.data));
		assert_non_null(strstr(e.err, "is not on DAX"));
		assert_non_null(strstr(e.err, "MAP_SYNC"));
		assert_non_null(strstr(e.err, strerror(-ret)));
		assert_non_null(strstr(e.err, "dax_emulate=1"));
		assert_false(e.emulated);
		assert_null(e.priv);
		assert_null(e.region);
		assert_int_equal(e.region_len, 0);
	}
}

static uint8_t tag(uint64_t off, unsigned combo)
{
	return (uint8_t)(off * 7 + combo * 13 + 1);
}

/* One emulated write run; what the file holds after must be the stores. */
static void write_run(enum flush_kind flush, enum fence_kind fence,
		      enum fence_scope scope, bool random, unsigned combo)
{
	unsigned char *after = malloc(FILE_SIZE);
	struct job_spec job;
	struct blockgen gen;
	struct io_unit u;
	struct ioe e;
	uint64_t total = 0;
	char *text;
	int fd, ret;

	assert_non_null(after);
	assert_int_equal(write_all(fx.write, fx.bytes, FILE_SIZE), 0);
	job_init(&job, random ? RW_RANDWRITE : RW_WRITE);
	job.offset = W_OFFSET;
	job.size = W_SIZE;
	job.bs = W_BS;
	dax_opts.flush = flush;
	dax_opts.fence = fence;
	dax_opts.fence_scope = scope;
	dax_opts.dax_emulate = true;
	assert_int_equal(validate(&job, &text), 0);
	assert_string_equal(text, "");
	free(text);

	ioe_init(&e, &job, &gen, fx.write, W_SIZE);
	ret = job.ioengine->setup(&e);
	if (ret)
		fail_msg("setup: %s (%d)", e.err, ret);
	assert_int_equal(e.emulated, !fx.dax);
	if (e.emulated)
		assert_non_null(strstr(e.info, "emulated: MAP_SYNC failed ("));
	assert_non_null(e.region);
	assert_int_equal(e.region_len, W_SIZE);

	blockgen_rewind(&gen);
	while ((ret = job.ioengine->get(&e, &u)) == 1) {
		assert_ptr_equal(u.buf, (unsigned char *)e.region +
				 (u.off - W_OFFSET));
		for (size_t i = 0; i < u.len; i++)
			((unsigned char *)u.buf)[i] = tag(u.off + i, combo);
		total += u.len;
		assert_int_equal(job.ioengine->put(&e, &u), 0);
	}
	assert_int_equal(ret, 0);
	assert_int_equal(total, W_SIZE);
	job.ioengine->teardown(&e);
	assert_null(e.priv);
	assert_null(e.region);

	fd = open(fx.write, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, after, FILE_SIZE, 0), FILE_SIZE);
	close(fd);
	assert_memory_equal(after, fx.bytes, W_OFFSET);
	for (uint64_t off = W_OFFSET; off < W_OFFSET + W_SIZE; off++)
		if (after[off] != tag(off, combo))
			fail_msg("flush=%s fence=%d scope=%d random=%d: byte "
				 "%llu is %u, stored %u", flush_name(flush),
				 fence, scope, random, (unsigned long long)off,
				 after[off], tag(off, combo));
	assert_memory_equal(after + W_OFFSET + W_SIZE,
			    fx.bytes + W_OFFSET + W_SIZE,
			    FILE_SIZE - W_OFFSET - W_SIZE);
	free(after);
}

static void test_emulated_writes(void **state)
{
	enum fence_kind fence = arch_fence();
	unsigned combo = 0, ran = 0;

	(void)state;
	for (int f = FLUSH_NONE; f < FLUSH_KINDS; f++) {
		if (!flush_here(f))
			continue;	/* refused: test_other_arch */
		if (f != FLUSH_NONE && !flush_cpu_has(f)) {
			print_message("no %s on this CPU (%s): not run\n",
				      flush_name(f), flush_feature(f));
			continue;
		}
		for (int random = 0; random < 2; random++) {
			write_run(f, FENCE_NONE, FENCE_PER_BLOCK, random, ++combo);
			write_run(f, fence, FENCE_PER_BLOCK, random, ++combo);
			if (f != FLUSH_NONE)
				write_run(f, fence, FENCE_PER_LINE, random,
					  ++combo);
		}
		ran += f != FLUSH_NONE;
	}
#if defined(__x86_64__) || defined(__aarch64__)
	assert_true(ran >= 1);	/* clflush, DC CVAC: every CPU of these */
#endif
}

static void read_run(enum rw_mode rw, uint64_t offset, uint64_t size)
{
	uint64_t want = size ? size : FILE_SIZE - offset;
	uint64_t tens = 0, oracle = 0, total = 0;
	struct job_spec job;
	struct blockgen gen;
	struct io_unit u;
	struct ioe e;
	int ret;

	for (uint64_t i = offset; i + 4 <= offset + want; i += 4) {
		int32_t v;

		memcpy(&v, fx.bytes + i, 4);
		oracle += v == 10;
	}
	job_init(&job, rw);
	job.offset = offset;
	job.size = size;
	dax_opts.dax_emulate = true;
	ioe_init(&e, &job, &gen, fx.data, want);
	ret = job.ioengine->setup(&e);
	if (ret)
		fail_msg("setup: %s (%d)", e.err, ret);
	assert_int_equal(e.emulated, !fx.dax);
	assert_int_equal(e.region_len, want);
	blockgen_rewind(&gen);
	while ((ret = job.ioengine->get(&e, &u)) == 1) {
		const unsigned char *p = u.buf;

		assert_memory_equal(p, fx.bytes + u.off, u.len);
		for (size_t i = 0; i + 4 <= u.len; i += 4) {
			int32_t v;

			memcpy(&v, p + i, 4);
			tens += v == 10;
		}
		total += u.len;
		assert_int_equal(job.ioengine->put(&e, &u), 0);
	}
	assert_int_equal(ret, 0);
	assert_int_equal(total, want);
	assert_int_equal(tens, oracle);
	job.ioengine->teardown(&e);
	assert_null(e.priv);
}

static void test_emulated_reads(void **state)
{
	(void)state;
	read_run(RW_READ, 0, 0);
	read_run(RW_RANDREAD, 0, 0);
	read_run(RW_READ, 8 * KIB + 100, 300 * KIB);	/* inside a page */
	read_run(RW_RANDREAD, 8 * KIB + 100, 300 * KIB);
}

/* ---- put() really flushes ------------------------------------------- */

#ifdef __x86_64__

static uint64_t load_cycles(volatile const unsigned char *p)
{
	unsigned aux;
	uint64_t t0, t1;

	_mm_mfence();
	_mm_lfence();
	t0 = __rdtscp(&aux);
	_mm_lfence();
	(void)*p;
	_mm_lfence();
	t1 = __rdtscp(&aux);
	return t1 - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The median cycles of a load of the last byte of a 64-byte block just
 * stored and put().  At offset 100 the block spans two lines, and the
 * load is from the second: put() must flush from the line the block
 * starts in to the one it ends in.
 */
static uint64_t load_after_put(enum flush_kind flush, uint64_t offset)
{
	uint64_t t[TRIALS];
	struct job_spec job;
	struct blockgen gen;
	struct io_unit u;
	struct ioe e;
	int ret;

	job_init(&job, RW_WRITE);
	job.bs = 64;
	job.size = 64;
	job.offset = offset;
	dax_opts.flush = flush;
	dax_opts.dax_emulate = true;
	assert_int_equal(write_all(fx.write, fx.bytes, 4096), 0);
	ioe_init(&e, &job, &gen, fx.write, 64);
	ret = job.ioengine->setup(&e);
	if (ret)
		fail_msg("setup: %s (%d)", e.err, ret);
	for (int i = 0; i < TRIALS; i++) {
		blockgen_rewind(&gen);
		assert_int_equal(job.ioengine->get(&e, &u), 1);
		*(volatile unsigned char *)u.buf = (unsigned char)i;
		assert_int_equal(job.ioengine->put(&e, &u), 0);
		t[i] = load_cycles((unsigned char *)u.buf + u.len - 1);
	}
	job.ioengine->teardown(&e);
	qsort(t, TRIALS, sizeof(t[0]), cmp_u64);
	return t[TRIALS / 2];
}

static void test_put_flushes(void **state)
{
	unsigned a, b, c, d;
	uint64_t hit, miss;

	(void)state;
	if (!__get_cpuid(0x80000001, &a, &b, &c, &d) || !(d & (1u << 27))) {
		print_message("skipped: no rdtscp to time a load\n");
		skip();
	}
	hit = load_after_put(FLUSH_NONE, 0);
	/* clflush and clflushopt evict the line; clwb may keep it. */
	for (int f = FLUSH_CLFLUSH; f <= FLUSH_CLFLUSHOPT; f++) {
		if (cpuinfo_has(flush_name(f)) != 1)
			continue;
		for (uint64_t off = 0; off <= W_OFFSET; off += W_OFFSET) {
			miss = load_after_put(f, off);
			print_message("load after put: %llu cycles; after %s "
				      "at offset %llu: %llu\n",
				      (unsigned long long)hit, flush_name(f),
				      (unsigned long long)off,
				      (unsigned long long)miss);
			if (miss < 2 * hit)
				fail_msg("flush=%s, block at offset %llu: its "
					 "last line still loads like a hit",
					 flush_name(f),
					 (unsigned long long)off);
		}
	}
}

#else

static void test_put_flushes(void **state)
{
	(void)state;
	print_message("skipped: no cycle counter user space may read to "
		      "time one load on this architecture\n");
	skip();
}

#endif

/* ---- parse-time checks ---------------------------------------------- */

/* Whether the CPU has instruction k, as the kernel tells it apart from
 * memjob: /proc/cpuinfo's flags on x86-64, HWCAP on arm64; -1 where
 * neither says. */
static int cpu_says(enum flush_kind k)
{
#if defined(__x86_64__)
	return cpuinfo_has(flush_name(k));
#elif defined(__aarch64__)
	if (k == FLUSH_DC_CVAP)
		return (getauxval(AT_HWCAP) & (1UL << 16)) != 0;  /* DCPOP */
	return 1;
#else
	(void)k;
	return -1;
#endif
}

static void test_cpuid(void **state)
{
	struct job_spec job;
	char *text;
	int checked = 0;

	(void)state;
	for (int f = FLUSH_NONE + 1; f < FLUSH_KINDS; f++) {
		int says = cpu_says(f);
		char want[64];
		int ret;

		if (!flush_here(f) || says < 0)
			continue;
		job_init(&job, RW_WRITE);
		dax_opts.flush = f;
		ret = validate(&job, &text);
		snprintf(want, sizeof(want), "this CPU has no %s (%s",
			 flush_name(f), flush_feature(f));
		if (says && ret == -EINVAL &&
		    strstr(text, "undefined here: an emulator")) {
			/* HWCAP says so, but the instruction traps */
			print_message("%s: %s\n", flush_name(f), text);
		} else if (says) {
			assert_int_equal(ret, 0);
			assert_string_equal(text, "");
		} else {
			assert_int_equal(ret, -EINVAL);
			assert_non_null(strstr(text, "t.ini:3: option 'flush': "));
			assert_non_null(strstr(text, want));
			assert_non_null(strstr(text, "; it has "));
		}
		free(text);
		checked++;
	}
	if (!checked) {
		print_message("skipped: the kernel does not say which flush "
			      "instructions this CPU has\n");
		skip();
	}
}

/* Another architecture's instruction or fence: refused, with this one's. */
static void test_other_arch(void **state)
{
	char here[96], want[160];
	struct job_spec job;
	char *text;
	int refused = 0;

	(void)state;
	flush_list_here(here, sizeof(here));
	for (int f = FLUSH_NONE + 1; f < FLUSH_KINDS; f++) {
		if (flush_here(f))
			continue;
		job_init(&job, RW_WRITE);
		dax_opts.flush = f;
		assert_int_equal(validate(&job, &text), -EINVAL);
		snprintf(want, sizeof(want), "t.ini:3: option 'flush': %s is "
			 "an %s instruction; this ", flush_name(f),
			 flush_arch(f));
		assert_non_null(strstr(text, want));
		snprintf(want, sizeof(want), " build flushes with %s\n", here);
		assert_non_null(strstr(text, want));
		free(text);
		refused++;
	}
	for (int k = FENCE_NONE + 1; k < FENCE_KINDS; k++) {
		if (fence_here(k))
			continue;
		job_init(&job, RW_WRITE);
		dax_opts.fence = k;
		assert_int_equal(validate(&job, &text), -EINVAL);
		snprintf(want, sizeof(want), "option 'fence': %s is an ",
			 fence_name(k));
		assert_non_null(strstr(text, want));
		snprintf(want, sizeof(want), " build fences with %s\n",
			 fence_name(arch_fence()));
		assert_non_null(strstr(text, want));
		free(text);
		refused++;
	}
	assert_true(refused >= 3);	/* the other architecture's, at least */
}

static void expect_refused(const struct job_spec *job, const char *msg)
{
	char *text;

	assert_int_equal(validate(job, &text), -EINVAL);
	if (!strstr(text, msg))
		fail_msg("wanted '%s' in: %s", msg, text);
	free(text);
}

static void test_validate(void **state)
{
	enum flush_kind flush = FLUSH_CLFLUSH;
	enum fence_kind fence = arch_fence();
	struct job_spec job;
	char want[200];
	char *text;

	(void)state;
	while (flush < FLUSH_KINDS && !flush_here(flush))
		flush++;		/* this architecture's first */
	if (flush == FLUSH_KINDS) {
		print_message("skipped: no flush instruction on this "
			      "architecture\n");
		skip();
	}
	job_init(&job, RW_READ);
	assert_int_equal(validate(&job, &text), 0);
	assert_string_equal(text, "");
	free(text);

	dax_opts.flush = flush;
	expect_refused(&job, "t.ini:3: option 'flush': flush applies to writes");
	job_init(&job, RW_RANDREAD);
	dax_opts.fence = fence;
	expect_refused(&job, "t.ini:3: option 'fence': fence applies to writes");
	job_init(&job, RW_READ);
	dax_opts.nt = true;
	expect_refused(&job, "t.ini:3: option 'nt': nt applies to writes");

	job_init(&job, RW_WRITE);
	dax_opts.flush = flush;
	dax_opts.fence_scope = FENCE_PER_LINE;
	snprintf(want, sizeof(want), "option 'fence_scope': fence_scope=line "
		 "fences after each line's flush, and needs fence=%s and a "
		 "flush (this job has fence=none, flush=%s)", fence_name(fence),
		 flush_name(flush));
	expect_refused(&job, want);
	dax_opts.flush = FLUSH_NONE;
	dax_opts.fence = fence;
	snprintf(want, sizeof(want), "(this job has fence=%s, flush=none)",
		 fence_name(fence));
	expect_refused(&job, want);
	/* A block-scoped fence with no flush orders nt stores: allowed. */
	dax_opts.fence_scope = FENCE_PER_BLOCK;
	dax_opts.nt = true;
	assert_int_equal(validate(&job, &text), 0);
	free(text);
}

/* ---- setup failures, device-dax, the registry ----------------------- */

static void test_setup_errors(void **state)
{
	struct stat st;
	char missing[400];
	struct job_spec job;
	struct blockgen gen;
	struct ioe e;

	(void)state;
	snprintf(missing, sizeof(missing), "%s/missing", fx.dir);
	job_init(&job, RW_READ);
	dax_opts.dax_emulate = true;
	ioe_init(&e, &job, &gen, missing, 4096);
	assert_int_equal(job.ioengine->setup(&e), -ENOENT);
	assert_non_null(strstr(e.err, "open "));
	assert_non_null(strstr(e.err, missing));
	assert_null(e.priv);

	job.offset = FILE_SIZE - 4096;
	job.size = 8192;
	ioe_init(&e, &job, &gen, fx.data, 8192);
	assert_int_equal(job.ioengine->setup(&e), -EINVAL);
	assert_non_null(strstr(e.err, "less than offset+size"));
	assert_null(e.priv);
	assert_null(e.region);

	job.offset = FILE_SIZE;
	job.size = 0;
	ioe_init(&e, &job, &gen, fx.data, 4096);
	assert_int_equal(job.ioengine->setup(&e), -EINVAL);
	assert_non_null(strstr(e.err, "nothing to map"));

	/* A character device is sized from sysfs, as device-dax is. */
	if (stat("/dev/zero", &st) || !S_ISCHR(st.st_mode))
		return;
	job.offset = 0;
	job.size = 4096;
	ioe_init(&e, &job, &gen, "/dev/zero", 4096);
	assert_int_equal(job.ioengine->setup(&e), -ENOENT);
	snprintf(missing, sizeof(missing), "/dev/zero is a character device "
		 "but not device-dax (no size in /sys/dev/char/%u:%u)",
		 major(st.st_rdev), minor(st.st_rdev));
	assert_non_null(strstr(e.err, missing));
	assert_null(e.priv);
}

static void test_devdax(void **state)
{
	struct job_spec job;
	struct blockgen gen;
	struct ioe e;
	glob_t g;
	int ret;

	(void)state;
	if (glob("/dev/dax*", 0, NULL, &g)) {
		print_message("skipped: no /dev/daxX.Y on this machine\n");
		skip();
	}
	/* Read-only: a unit test never writes to someone's pmem. */
	job_init(&job, RW_READ);
	job.size = 2 * 1024 * KIB;
	ioe_init(&e, &job, &gen, g.gl_pathv[0], job.size);
	ret = job.ioengine->setup(&e);
	if (ret == -EACCES || ret == -EPERM) {
		print_message("skipped: %s\n", e.err);
		globfree(&g);
		skip();
	}
	if (ret)
		fail_msg("setup %s: %s (%d)", g.gl_pathv[0], e.err, ret);
	assert_false(e.emulated);
	assert_string_equal(e.info, "MAP_SYNC mapping");
	assert_int_equal(e.region_len, job.size);
	job.ioengine->teardown(&e);
	globfree(&g);
}

static void test_registry_entry(void **state)
{
	static const char *const mine[] = {
		"flush", "fence", "fence_scope", "nt", "dax_emulate",
	};
	const struct ioengine_ops *ops = ioengine_find("dax");

	(void)state;
	assert_non_null(ops);
	assert_string_equal(ops->name, "dax");
	assert_int_equal(ops->flags, IOE_FILE | IOE_MAPPED);
	for (size_t i = 0; i < sizeof(mine) / sizeof(mine[0]); i++)
		assert_true(ioe_honours(ops, mine[i]));
	assert_false(ioe_honours(ops, "populate"));
	assert_false(ioe_honours(ops, "direct"));
	assert_false(ioe_honours(ioengine_find("mmap"), "flush"));
	assert_non_null(ops->validate);
	assert_null(ops->drain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_entry),
		cmocka_unit_test(test_not_dax),
		cmocka_unit_test(test_emulated_writes),
		cmocka_unit_test(test_emulated_reads),
		cmocka_unit_test(test_put_flushes),
		cmocka_unit_test(test_cpuid),
		cmocka_unit_test(test_other_arch),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_setup_errors),
		cmocka_unit_test(test_devdax),
	};

	return cmocka_run_group_tests(tests, setup_files, remove_files);
}
