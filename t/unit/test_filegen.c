/*
 * test_filegen.c - patterns (a pure function of the offset, uniform
 * randint, parse/format) and the files filegen_create() makes.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ioengines/filegen.h"
#include "scratch.h"

#define MIB	(1u << 20)

static const struct pattern randint_0_20 = {
	.kind = PATTERN_RANDINT, .lo = 0, .hi = 20,
};

static void test_fill_zero_byte(void **state)
{
	struct pattern z = { .kind = PATTERN_ZERO };
	struct pattern b = { .kind = PATTERN_BYTE, .byte = 0x5a };
	unsigned char buf[1000];

	(void)state;
	memset(buf, 0xff, sizeof(buf));
	pattern_fill(&z, 1, 12345, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
	pattern_fill(&b, 1, 3, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0x5a);
}

/* Filled in one go, or in odd pieces at odd offsets: the same bytes. */
static void test_fill_is_pure(void **state)
{
	unsigned char *whole = malloc(MIB), *pieces = malloc(MIB);
	const struct pattern wide = {
		.kind = PATTERN_RANDINT, .lo = INT32_MIN, .hi = INT32_MAX,
	};
	const struct pattern *pats[] = { &randint_0_20, &wide };

	(void)state;
	assert_non_null(whole);
	assert_non_null(pieces);
	for (size_t k = 0; k < 2; k++) {
		size_t off = 0, step = 1;

		pattern_fill(pats[k], 77, 0, whole, MIB);
		memset(pieces, 0xee, MIB);
		while (off < MIB) {
			size_t n = step < MIB - off ? step : MIB - off;

			pattern_fill(pats[k], 77, off, pieces + off, n);
			off += n;
			step = step * 7 % 1021 + 1;	/* 1, 8, 57, 400, ... */
		}
		assert_memory_equal(whole, pieces, MIB);
		/* An unaligned window starting in the middle of an int. */
		pattern_fill(pats[k], 77, 4099, pieces, 10);
		assert_memory_equal(whole + 4099, pieces, 10);
		/* A different seed gives different bytes. */
		pattern_fill(pats[k], 78, 0, pieces, 4096);
		assert_memory_not_equal(whole, pieces, 4096);
	}
	free(whole);
	free(pieces);
}

static void test_randint_range(void **state)
{
	enum { N = 1 << 20 };
	int32_t *v = malloc(N * sizeof(*v));
	unsigned hist[21] = { 0 };
	const struct pattern neg = { .kind = PATTERN_RANDINT, .lo = -5, .hi = 5 };
	const struct pattern one = { .kind = PATTERN_RANDINT, .lo = 7, .hi = 7 };
	int seen_lo = 0, seen_hi = 0;

	(void)state;
	assert_non_null(v);
	pattern_fill(&randint_0_20, 1, 0, v, N * sizeof(*v));
	for (size_t i = 0; i < N; i++) {
		assert_true(v[i] >= 0 && v[i] <= 20);
		hist[v[i]]++;
	}
	for (int x = 0; x <= 20; x++) {
		double share = (double)hist[x] / N;

		assert_true(share > 0.040 && share < 0.055);
	}

	pattern_fill(&neg, 9, 0, v, 100000 * sizeof(*v));
	for (size_t i = 0; i < 100000; i++) {
		assert_true(v[i] >= -5 && v[i] <= 5);
		seen_lo |= v[i] == -5;
		seen_hi |= v[i] == 5;
	}
	assert_true(seen_lo && seen_hi);

	pattern_fill(&one, 9, 0, v, 1000 * sizeof(*v));
	for (size_t i = 0; i < 1000; i++)
		assert_int_equal(v[i], 7);
	free(v);
}

static void check_parse(const char *text, enum pattern_kind kind, int byte,
			int32_t lo, int32_t hi, const char *canon)
{
	struct pattern p, q;
	const char *why = NULL;
	char buf[64];

	assert_int_equal(pattern_parse(text, &p, &why), 0);
	assert_int_equal(p.kind, kind);
	if (kind == PATTERN_BYTE)
		assert_int_equal(p.byte, byte);
	if (kind == PATTERN_RANDINT) {
		assert_int_equal(p.lo, lo);
		assert_int_equal(p.hi, hi);
	}
	pattern_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, canon);
	/* What format prints parses back to the same pattern. */
	assert_int_equal(pattern_parse(buf, &q, &why), 0);
	assert_int_equal(q.kind, p.kind);
	if (kind == PATTERN_BYTE)
		assert_int_equal(q.byte, p.byte);
	if (kind == PATTERN_RANDINT) {
		assert_int_equal(q.lo, p.lo);
		assert_int_equal(q.hi, p.hi);
	}
}

static void test_parse_format(void **state)
{
	(void)state;
	check_parse("zero", PATTERN_ZERO, 0, 0, 0, "zero");
	check_parse("zeros", PATTERN_ZERO, 0, 0, 0, "zero");
	check_parse("byte:0", PATTERN_BYTE, 0, 0, 0, "byte:0x00");
	check_parse("byte:90", PATTERN_BYTE, 90, 0, 0, "byte:0x5a");
	check_parse("byte:0x5a", PATTERN_BYTE, 0x5a, 0, 0, "byte:0x5a");
	check_parse("byte:0XFF", PATTERN_BYTE, 255, 0, 0, "byte:0xff");
	check_parse("randint:0-20", PATTERN_RANDINT, 0, 0, 20, "randint:0-20");
	check_parse("randint:-5-5", PATTERN_RANDINT, 0, -5, 5, "randint:-5-5");
	check_parse("randint:-10--3", PATTERN_RANDINT, 0, -10, -3, "randint:-10--3");
	check_parse("randint:7-7", PATTERN_RANDINT, 0, 7, 7, "randint:7-7");
	check_parse("randint:-2147483648-2147483647", PATTERN_RANDINT, 0,
		    INT32_MIN, INT32_MAX, "randint:-2147483648-2147483647");
}

static void test_parse_errors(void **state)
{
	static const char *const bad[] = {
		"", "x", "zer", "zeroes", "Zero", "byte", "byte:", "byte:256",
		"byte:-1", "byte:0x100", "byte:0x", "byte:1x", "byte: 5",
		"randint", "randint:", "randint:5", "randint:5-", "randint:-5",
		"randint:20-0", "randint:0-20x", "randint:0 - 20",
		"randint:--5-5", "randint:0-2147483648", "randint:-2147483649-0",
		"randint:0-99999999999999999999999", "randint:+1-2",
	};
	struct pattern p = { .kind = PATTERN_BYTE, .byte = 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = NULL;

		if (pattern_parse(bad[i], &p, &why) == 0)
			fail_msg("'%s' was accepted", bad[i]);
		assert_non_null(why);
		assert_true(strlen(why) > 10);
		/* A failed parse leaves the pattern alone. */
		assert_int_equal(p.kind, PATTERN_BYTE);
		assert_int_equal(p.byte, 1);
	}
}

static char tmpdir[256];

static int setup_dir(void **state)
{
	(void)state;
	return scratch_dir(tmpdir, sizeof(tmpdir), "filegen");
}

static int remove_dir(void **state)
{
	(void)state;
	return scratch_remove(tmpdir);
}

static void test_create(void **state)
{
	/* More than one 4 MiB chunk, and not a multiple of 4. */
	const uint64_t size = 9 * MIB + 4097 + 2;
	unsigned char *want = malloc(size);
	unsigned char *got;
	char path[320], err[256];
	size_t len;

	(void)state;
	assert_non_null(want);
	snprintf(path, sizeof(path), "%s/data", tmpdir);
	assert_int_equal(filegen_create(path, size, &randint_0_20, 5, err,
					sizeof(err)), 0);
	got = scratch_read(path, &len);
	assert_int_equal(len, size);
	pattern_fill(&randint_0_20, 5, 0, want, size);
	assert_memory_equal(got, want, size);
	free(got);
	assert_int_equal(unlink(path), 0);

	/* An empty file and a byte pattern. */
	{
		struct pattern b = { .kind = PATTERN_BYTE, .byte = 0xa5 };

		assert_int_equal(filegen_create(path, 0, &b, 5, err, sizeof(err)), 0);
		got = scratch_read(path, &len);
		assert_int_equal(len, 0);
		free(got);
		assert_int_equal(unlink(path), 0);
		assert_int_equal(filegen_create(path, 5 * MIB + 3, &b, 5, err,
						sizeof(err)), 0);
		got = scratch_read(path, &len);
		assert_int_equal(len, 5 * MIB + 3);
		for (size_t i = 0; i < len; i++)
			if (got[i] != 0xa5)
				fail_msg("byte %zu is 0x%02x", i, got[i]);
		free(got);
		assert_int_equal(unlink(path), 0);
	}
	free(want);
}

static void test_create_refuses_existing(void **state)
{
	char path[320], err[256] = "";
	unsigned char *got;
	size_t len;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/existing", tmpdir);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "precious", 8), 8);
	close(fd);

	assert_int_equal(filegen_create(path, MIB, &randint_0_20, 1, err,
					sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, strerror(EEXIST)));
	got = scratch_read(path, &len);
	assert_int_equal(len, 8);
	assert_memory_equal(got, "precious", 8);
	free(got);
	assert_int_equal(unlink(path), 0);
}

static void test_create_failures(void **state)
{
	struct rlimit old, small = { .rlim_cur = MIB + 100 };
	char path[320], err[256] = "";
	struct sigaction ign = { .sa_handler = SIG_IGN }, oldsa;
	struct stat st;
	int ret;

	(void)state;
	/* A directory that does not exist. */
	snprintf(path, sizeof(path), "%s/nodir/data", tmpdir);
	ret = filegen_create(path, MIB, &randint_0_20, 1, err, sizeof(err));
	assert_int_equal(ret, -ENOENT);
	assert_non_null(strstr(err, path));
	assert_int_equal(stat(path, &st), -1);

	/*
	 * A write that fails half-way (the file size limit, EFBIG): the
	 * partial file must go.
	 */
	snprintf(path, sizeof(path), "%s/partial", tmpdir);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	assert_int_equal(sigaction(SIGXFSZ, &ign, &oldsa), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	err[0] = 0;
	ret = filegen_create(path, 9 * MIB, &randint_0_20, 1, err, sizeof(err));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(sigaction(SIGXFSZ, &oldsa, NULL), 0);
	assert_int_equal(ret, -EFBIG);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, strerror(EFBIG)));
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_zero_byte),
		cmocka_unit_test(test_fill_is_pure),
		cmocka_unit_test(test_randint_range),
		cmocka_unit_test(test_parse_format),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_create_refuses_existing),
		cmocka_unit_test(test_create_failures),
	};

	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
