/*
 * test_value.c - unit tests for the option value parsers (engine/value.c).
 *
 * Every parser is checked on what it must accept, what it must refuse,
 * and on the message it gives: a message must say why and quote what was
 * given.  Formatters are checked on exact text and on round trips through
 * the matching parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/value.h"

#define NBITS 1024
#define NWORDS (NBITS / 64)

/* A small deterministic generator for round-trip cases. */
static uint64_t next_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static void size_ok(const char *s, uint64_t want)
{
	const char *why = NULL;
	uint64_t v = 12345;
	int ret = value_size(s, &v, &why);

	if (ret)
		fail_msg("value_size('%s') failed: %s", s, why ? why : "(null)");
	if (v != want)
		fail_msg("value_size('%s') = %llu, want %llu", s,
			 (unsigned long long)v, (unsigned long long)want);
}

/* The parse fails, leaves *out alone, and why quotes s and says want. */
static void check_refused(int ret, const char *fn, const char *s,
			  const char *why, const char *want, bool quotes)
{
	char quoted[300];

	if (ret != -1)
		fail_msg("%s('%s') was accepted", fn, s);
	if (!why) {
		fail_msg("%s('%s') gave no reason", fn, s);
		return;
	}
	if (!strstr(why, want))
		fail_msg("%s('%s'): reason '%s' lacks '%s'", fn, s, why, want);
	snprintf(quoted, sizeof(quoted), "'%s'", s);
	if (quotes && !strstr(why, quoted))
		fail_msg("%s('%s'): reason '%s' does not quote the input",
			 fn, s, why);
}

static void size_bad(const char *s, const char *want)
{
	const char *why = NULL;
	uint64_t v = 777;
	int ret = value_size(s, &v, &why);

	check_refused(ret, "value_size", s, why, want, *s != '\0');
	assert_int_equal(v, 777);
}

static void test_size_accepts(void **state)
{
	(void)state;
	size_ok("0", 0);
	size_ok("1", 1);
	size_ok("4096", 4096);
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("4ki", 4096);
	size_ok("4KiB", 4096);
	size_ok("4kib", 4096);
	size_ok("4kb", 4096);
	size_ok("4KB", 4096);
	size_ok("16m", 16ULL << 20);
	size_ok("16Mi", 16ULL << 20);
	size_ok("16MiB", 16ULL << 20);
	size_ok("1g", 1ULL << 30);
	size_ok("1G", 1ULL << 30);
	size_ok("1GiB", 1ULL << 30);
	size_ok("2t", 2ULL << 40);
	size_ok("2tib", 2ULL << 40);
	size_ok("3p", 3ULL << 50);
	size_ok("3PiB", 3ULL << 50);
	size_ok("1e", 1ULL << 60);
	size_ok("15e", 15ULL << 60);
	size_ok("1b", 1);
	size_ok("10B", 10);
	size_ok("0k", 0);
	size_ok("0x10", 16);
	size_ok("0X1F", 31);
	size_ok("0x10k", 16 << 10);
	size_ok("0x1b", 27);	/* hex digits win over the b suffix */
	size_ok("1.5k", 1536);
	size_ok("0.5k", 512);
	size_ok("0.25k", 256);
	size_ok("1.5g", 3ULL << 29);
	size_ok("2.0", 2);
	size_ok("2.000", 2);
	size_ok("1.50000000000000000000000000000k", 1536);
	size_ok("0.0009765625k", 1);
	size_ok("18446744073709551615", UINT64_MAX);
	size_ok("0xffffffffffffffff", UINT64_MAX);
	size_ok("17179869183g", UINT64_MAX - ((1ULL << 30) - 1));
	size_ok("16383p", 16383ULL << 50);
	size_ok("15.5e", 31ULL << 59);
	size_ok("00012k", 12 << 10);
}

static void test_size_refuses(void **state)
{
	(void)state;
	size_bad("", "expected a size such as 4096, 4k");
	size_bad("12q", "expected a size such as 4096, 4k, 16m, 1g (suffixes are powers of 2)");
	size_bad("k", "expected a size");
	size_bad("4kk", "expected a size");
	size_bad("4kibb", "expected a size");
	size_bad("4kbi", "expected a size");
	size_bad("4 k", "expected a size");
	size_bad(" 4k", "expected a size");
	size_bad("4k ", "expected a size");
	size_bad("+4k", "expected a size");
	size_bad("1e5", "expected a size");
	size_bad("0x", "expected a size");
	size_bad("0x1.5k", "expected a size");
	size_bad("1.", "expected a size");
	size_bad(".5k", "expected a size");
	size_bad("1..5k", "expected a size");
	size_bad("4 096", "expected a size");
	size_bad("four", "expected a size");
	size_bad("-1", "negative");
	size_bad("-4k", "negative");
	size_bad("1.5", "not a whole number of bytes");
	size_bad("0.3", "not a whole number of bytes");
	size_bad("1.3k", "not a whole number of bytes");
	size_bad("0.00001k", "not a whole number of bytes");
	size_bad("1.00000000000000000001k", "too many decimal places");
	size_bad("18446744073709551616", "too large");
	size_bad("99999999999999999999999", "too large");
	size_bad("0x10000000000000000", "too large");
	size_bad("16e", "too large");
	size_bad("16384p", "too large");
	size_bad("17179869184g", "too large");
	size_bad("15.9999999999999999999e", "not a whole number");
	/* a syntax error is reported as such even when the number is huge */
	size_bad("99999999999999999999999q", "expected a size");
}

static void test_size_long_input_is_cut(void **state)
{
	char s[300];
	const char *why = NULL;
	uint64_t v;

	(void)state;
	memset(s, '7', sizeof(s) - 2);
	s[sizeof(s) - 2] = 'q';
	s[sizeof(s) - 1] = '\0';
	assert_int_equal(value_size(s, &v, &why), -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "..."));
	assert_true(strlen(why) < 200);
	/* why may be NULL */
	assert_int_equal(value_size("x", &v, NULL), -1);
}

static void time_ok(const char *s, uint64_t want)
{
	const char *why = NULL;
	uint64_t v = 12345;
	int ret = value_time_us(s, &v, &why);

	if (ret)
		fail_msg("value_time_us('%s') failed: %s", s, why ? why : "(null)");
	if (v != want)
		fail_msg("value_time_us('%s') = %llu, want %llu", s,
			 (unsigned long long)v, (unsigned long long)want);
}

static void time_bad(const char *s, const char *want)
{
	const char *why = NULL;
	uint64_t v = 777;
	int ret = value_time_us(s, &v, &why);

	check_refused(ret, "value_time_us", s, why, want, *s != '\0');
	assert_int_equal(v, 777);
}

static void test_time_accepts(void **state)
{
	(void)state;
	time_ok("0", 0);
	time_ok("1", 1000000);
	time_ok("10", 10000000);
	time_ok("1s", 1000000);
	time_ok("1S", 1000000);
	time_ok("5sec", 5000000);
	time_ok("500ms", 500000);
	time_ok("500MS", 500000);
	time_ok("5msec", 5000);
	time_ok("0.5ms", 500);
	time_ok("1.5s", 1500000);
	time_ok("1.5", 1500000);
	time_ok("0.000001", 1);
	time_ok("90us", 90);
	time_ok("90usec", 90);
	time_ok("2m", 120000000);
	time_ok("2min", 120000000);
	time_ok("0.5m", 30000000);
	time_ok("1h", 3600000000ULL);
	time_ok("1.5h", 5400000000ULL);
	time_ok("1d", 86400000000ULL);
	time_ok("0x10", 16000000);
	time_ok("18446744073709551615us", UINT64_MAX);
	time_ok("18446744073709s", 18446744073709000000ULL);
}

static void test_time_refuses(void **state)
{
	(void)state;
	time_bad("", "expected a time such as");
	time_bad("5x", "expected a time such as 500us, 10ms, 30s, 2m or 1h");
	time_bad("ms", "expected a time");
	time_bad("5 ms", "expected a time");
	time_bad("5ms ", "expected a time");
	time_bad("5mss", "expected a time");
	time_bad("1.s", "expected a time");
	time_bad("-1s", "negative");
	time_bad("1.5us", "not a whole number of microseconds");
	time_bad("0.0000001s", "not a whole number of microseconds");
	time_bad("0.0000001", "not a whole number of microseconds");
	time_bad("18446744073709551616us", "too large");
	time_bad("18446744073710s", "too large");
	time_bad("5124095576031m", "too large");
	time_bad("213503982335d", "too large");
}

static void uint_ok(const char *s, uint64_t want)
{
	const char *why = NULL;
	uint64_t v = 12345;

	if (value_uint(s, &v, &why))
		fail_msg("value_uint('%s') failed: %s", s, why ? why : "(null)");
	assert_int_equal(v, want);
}

static void uint_bad(const char *s, const char *want)
{
	const char *why = NULL;
	uint64_t v = 777;
	int ret = value_uint(s, &v, &why);

	check_refused(ret, "value_uint", s, why, want, *s != '\0');
	assert_int_equal(v, 777);
}

static void test_uint(void **state)
{
	(void)state;
	uint_ok("0", 0);
	uint_ok("42", 42);
	uint_ok("007", 7);
	uint_ok("0x10", 16);
	uint_ok("0XfF", 255);
	uint_ok("18446744073709551615", UINT64_MAX);
	uint_ok("0xffffffffffffffff", UINT64_MAX);
	uint_bad("", "expected a whole number");
	uint_bad("1k", "expected a whole number such as 8 or 0x10");
	uint_bad("1.5", "expected a whole number");
	uint_bad(" 1", "expected a whole number");
	uint_bad("1 ", "expected a whole number");
	uint_bad("+1", "expected a whole number");
	uint_bad("0x", "expected a whole number");
	uint_bad("0xg", "expected a whole number");
	uint_bad("abc", "expected a whole number");
	uint_bad("-1", "not negative");
	uint_bad("18446744073709551616", "too large");
	uint_bad("0x10000000000000000", "too large");
}

static void int_ok(const char *s, int64_t want)
{
	const char *why = NULL;
	int64_t v = 12345;

	if (value_int(s, &v, &why))
		fail_msg("value_int('%s') failed: %s", s, why ? why : "(null)");
	assert_true(v == want);
}

static void int_bad(const char *s, const char *want)
{
	const char *why = NULL;
	int64_t v = 777;
	int ret = value_int(s, &v, &why);

	check_refused(ret, "value_int", s, why, want, *s != '\0');
	assert_true(v == 777);
}

static void test_int(void **state)
{
	(void)state;
	int_ok("0", 0);
	int_ok("-0", 0);
	int_ok("-1", -1);
	int_ok("+5", 5);
	int_ok("-0x10", -16);
	int_ok("9223372036854775807", INT64_MAX);
	int_ok("-9223372036854775808", INT64_MIN);
	int_ok("0x7fffffffffffffff", INT64_MAX);
	int_ok("-0x8000000000000000", INT64_MIN);
	int_bad("", "expected a whole number");
	int_bad("-", "expected a whole number");
	int_bad("--1", "expected a whole number");
	int_bad("1x", "expected a whole number");
	int_bad("1.0", "expected a whole number");
	int_bad("9223372036854775808", "out of range");
	int_bad("-9223372036854775809", "out of range");
	int_bad("99999999999999999999", "out of range");
	int_bad("0x8000000000000000", "out of range");
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "1", "true", "TRUE", "True", "yes",
					   "Yes", "on", "ON", NULL };
	static const char *const no[] = { "0", "false", "FALSE", "no", "NO",
					  "off", "Off", NULL };
	static const char *const bad[] = { "", "2", "maybe", "truex", "y",
					   "n", " 1", "10", NULL };
	const char *why;
	bool v;
	int i;

	(void)state;
	for (i = 0; yes[i]; i++) {
		v = false;
		assert_int_equal(value_bool(yes[i], &v, &why), 0);
		assert_true(v);
	}
	for (i = 0; no[i]; i++) {
		v = true;
		assert_int_equal(value_bool(no[i], &v, &why), 0);
		assert_false(v);
	}
	for (i = 0; bad[i]; i++) {
		int ret;

		why = NULL;
		v = true;
		ret = value_bool(bad[i], &v, &why);
		check_refused(ret, "value_bool", bad[i], why,
			      "expected 1/0, true/false, yes/no or on/off", true);
		assert_true(v);
	}
}

static void test_word(void **state)
{
	static const char *const words[] = { "read", "write", "randread", NULL };
	static const char *const none[] = { NULL };

	(void)state;
	assert_int_equal(value_word("read", words), 0);
	assert_int_equal(value_word("write", words), 1);
	assert_int_equal(value_word("randread", words), 2);
	assert_int_equal(value_word("Read", words), -1);
	assert_int_equal(value_word("rea", words), -1);
	assert_int_equal(value_word("readx", words), -1);
	assert_int_equal(value_word("", words), -1);
	assert_int_equal(value_word("read", none), -1);
	assert_int_equal(value_word(NULL, words), -1);
}

/* Parse s into a fresh bitmap and compare with the ids in want (-1 ends). */
static void idlist_ok(const char *s, const int *want)
{
	uint64_t bits[NWORDS] = { 0 }, expect[NWORDS] = { 0 };
	const char *why = NULL;
	int i;

	for (i = 0; want[i] >= 0; i++)
		expect[want[i] / 64] |= 1ULL << (want[i] % 64);
	if (value_idlist(s, bits, NBITS, &why))
		fail_msg("value_idlist('%s') failed: %s", s, why ? why : "(null)");
	for (i = 0; i < NWORDS; i++)
		if (bits[i] != expect[i])
			fail_msg("value_idlist('%s'): word %d is %#llx, want %#llx",
				 s, i, (unsigned long long)bits[i],
				 (unsigned long long)expect[i]);
}

static void idlist_bad(const char *s, unsigned nbits, const char *want)
{
	uint64_t bits[NWORDS], before[NWORDS];
	const char *why = NULL;
	int i;

	for (i = 0; i < NWORDS; i++)
		bits[i] = before[i] = 0x5555555555555555ULL;
	if (value_idlist(s, bits, nbits, &why) != -1)
		fail_msg("value_idlist('%s') was accepted", s);
	if (!why || !strstr(why, want))
		fail_msg("value_idlist('%s'): reason '%s' lacks '%s'", s,
			 why ? why : "(null)", want);
	/* a refused list leaves the bitmap as it was */
	assert_memory_equal(bits, before, sizeof(bits));
}

static void test_idlist_accepts(void **state)
{
	(void)state;
	idlist_ok("0", (const int[]){ 0, -1 });
	idlist_ok("5", (const int[]){ 5, -1 });
	idlist_ok("0,2,4-7", (const int[]){ 0, 2, 4, 5, 6, 7, -1 });
	idlist_ok("0-15:2", (const int[]){ 0, 2, 4, 6, 8, 10, 12, 14, -1 });
	idlist_ok("1-10:3", (const int[]){ 1, 4, 7, 10, -1 });
	idlist_ok("1-11:3", (const int[]){ 1, 4, 7, 10, -1 });
	idlist_ok("3-3", (const int[]){ 3, -1 });
	idlist_ok("0-0:5", (const int[]){ 0, -1 });
	idlist_ok(" 1 , 3 ,\t5", (const int[]){ 1, 3, 5, -1 });
	idlist_ok("7,7,7", (const int[]){ 7, -1 });
	idlist_ok("4-7,0-5", (const int[]){ 0, 1, 2, 3, 4, 5, 6, 7, -1 });
	idlist_ok("63-65", (const int[]){ 63, 64, 65, -1 });
	idlist_ok("1023", (const int[]){ 1023, -1 });
	idlist_ok("1000-1023:23", (const int[]){ 1000, 1023, -1 });
}

static void test_idlist_ors_into_bitmap(void **state)
{
	uint64_t bits[2] = { 1ULL << 9, 0 };
	const char *why;

	(void)state;
	assert_int_equal(value_idlist("0,64", bits, 128, &why), 0);
	assert_true(bits[0] == ((1ULL << 9) | 1));
	assert_true(bits[1] == 1);
}

static void test_idlist_refuses(void **state)
{
	(void)state;
	idlist_bad("", NBITS, "expected a list such as 0,2,4-7");
	idlist_bad("  ", NBITS, "expected a list");
	idlist_bad("1,,2", NBITS, "empty item in the list '1,,2'");
	idlist_bad("1, ,2", NBITS, "empty item");
	idlist_bad("1,2,", NBITS, "empty item");
	idlist_bad(",1", NBITS, "empty item");
	idlist_bad("7-4", NBITS, "range 7-4 is reversed (did you mean 4-7?)");
	idlist_bad("0-15:0", NBITS, "step in '0-15:0' must be at least 1");
	idlist_bad("1024", NBITS, "id 1024 is beyond the limit of 1024");
	idlist_bad("2048", NBITS, "id 2048 is beyond the limit of 1024");
	idlist_bad("0-2048", NBITS, "id 2048 is beyond the limit of 1024");
	idlist_bad("4", 4, "id 4 is beyond the limit of 4");
	idlist_bad("0", 0, "id 0 is beyond the limit of 0");
	idlist_bad("99999999999999999999999", NBITS,
		   "'99999999999999999999999' names an id beyond the limit of 1024");
	idlist_bad("a", NBITS, "'a' in 'a' is not an id or a range");
	idlist_bad("0,x,2", NBITS, "'x' in '0,x,2' is not an id or a range");
	idlist_bad("1-", NBITS, "'1-' in");
	idlist_bad("-1", NBITS, "'-1' in");
	idlist_bad("1-2-3", NBITS, "'1-2-3' in");
	idlist_bad("1:2", NBITS, "'1:2' in");
	idlist_bad("1-5:", NBITS, "'1-5:' in");
	idlist_bad("1-5:2:1", NBITS, "'1-5:2:1' in");
	idlist_bad("1 2", NBITS, "'1 2' in");
	idlist_bad("1 - 2", NBITS, "'1 - 2' in");
	idlist_bad("0x1", NBITS, "'0x1' in");
	/* the first bad item is the one reported, good items do not land */
	idlist_bad("0,1,7-4,2048", NBITS, "range 7-4 is reversed");
}

static void format_idlist_is(const int *ids, unsigned nbits, const char *want)
{
	uint64_t bits[NWORDS] = { 0 };
	char buf[512];
	int i;

	for (i = 0; ids[i] >= 0; i++)
		bits[ids[i] / 64] |= 1ULL << (ids[i] % 64);
	memset(buf, 'Z', sizeof(buf));
	value_format_idlist(bits, nbits, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_format_idlist(void **state)
{
	uint64_t bits[NWORDS];
	char buf[8];

	(void)state;
	format_idlist_is((const int[]){ -1 }, NBITS, "");
	format_idlist_is((const int[]){ 0, -1 }, NBITS, "0");
	format_idlist_is((const int[]){ 0, 2, 4, 5, 6, 7, -1 }, NBITS, "0,2,4-7");
	format_idlist_is((const int[]){ 0, 1, -1 }, NBITS, "0-1");
	format_idlist_is((const int[]){ 63, 64, 65, 127, -1 }, NBITS, "63-65,127");
	format_idlist_is((const int[]){ 1022, 1023, -1 }, NBITS, "1022-1023");
	format_idlist_is((const int[]){ 0, 2, 4, 6, -1 }, NBITS, "0,2,4,6");
	/* bits beyond nbits are not looked at */
	format_idlist_is((const int[]){ 3, 70, -1 }, 64, "3");

	for (int i = 0; i < NWORDS; i++)
		bits[i] = UINT64_MAX;
	{
		char big[32];

		value_format_idlist(bits, NBITS, big, sizeof(big));
		assert_string_equal(big, "0-1023");
	}

	/* a short buffer is cut but always terminated */
	memset(bits, 0, sizeof(bits));
	bits[0] = 0x5555;	/* 0,2,4,...,14 */
	memset(buf, 'Z', sizeof(buf));
	value_format_idlist(bits, NBITS, buf, sizeof(buf));
	assert_true(memchr(buf, '\0', sizeof(buf)) != NULL);
	assert_true(strncmp(buf, "0,2,4,6", strlen(buf)) == 0);
	buf[0] = 'Z';
	value_format_idlist(bits, NBITS, buf, 0);
	assert_int_equal(buf[0], 'Z');
}

static void test_idlist_round_trip(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	uint64_t bits[NWORDS], back[NWORDS];
	char buf[8192];
	const char *why;
	int round, i;

	(void)state;
	for (round = 0; round < 500; round++) {
		for (i = 0; i < NWORDS; i++) {
			/* mix sparse, dense and runny words */
			uint64_t a = next_rand(&seed), b = next_rand(&seed);

			bits[i] = round % 3 == 0 ? a & b : round % 3 == 1 ? a | b : a;
		}
		value_format_idlist(bits, NBITS, buf, sizeof(buf));
		memset(back, 0, sizeof(back));
		if (value_idlist(buf, back, NBITS, &why))
			fail_msg("round %d: '%s' does not parse back: %s", round,
				 buf, why);
		assert_memory_equal(bits, back, sizeof(bits));
	}
}

static void test_format_size(void **state)
{
	static const struct {
		uint64_t v;
		const char *text;
	} cases[] = {
		{ 0, "0" }, { 1, "1" }, { 1023, "1023" }, { 1024, "1k" },
		{ 1025, "1025" }, { 1536, "1536" }, { 4096, "4k" },
		{ 16384, "16k" }, { 3 << 20, "3m" }, { 1 << 30, "1g" },
		{ 1536ULL << 20, "1536m" }, { 3ULL << 40, "3t" },
		{ 1ULL << 50, "1p" }, { 1ULL << 60, "1e" }, { 1ULL << 63, "8e" },
		{ UINT64_MAX, "18446744073709551615" },
		{ UINT64_MAX - 1023, "18014398509481983k" },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		value_format_size(cases[i].v, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].text);
	}
	/* a short buffer is cut but terminated; zero length writes nothing */
	value_format_size(1536, buf, 3);
	assert_string_equal(buf, "15");
	buf[0] = 'Z';
	value_format_size(1536, buf, 0);
	assert_int_equal(buf[0], 'Z');
}

static void size_round_trip(uint64_t v)
{
	char buf[64];
	const char *why;
	uint64_t back;

	value_format_size(v, buf, sizeof(buf));
	if (value_size(buf, &back, &why))
		fail_msg("'%s' (from %llu) does not parse: %s", buf,
			 (unsigned long long)v, why);
	if (back != v)
		fail_msg("%llu -> '%s' -> %llu", (unsigned long long)v, buf,
			 (unsigned long long)back);
}

static void test_size_round_trip(void **state)
{
	uint64_t seed = 12345;
	unsigned shift;
	int i;

	(void)state;
	for (shift = 0; shift < 64; shift++) {
		size_round_trip(1ULL << shift);
		size_round_trip((1ULL << shift) - 1);
		size_round_trip(3ULL << (shift < 62 ? shift : 62));
	}
	size_round_trip(UINT64_MAX);
	for (i = 0; i < 2000; i++) {
		uint64_t r = next_rand(&seed);

		size_round_trip(r);
		size_round_trip(r << (i % 64));
		size_round_trip(r >> (i % 64));
	}
}

static void test_format_time(void **state)
{
	static const struct {
		uint64_t us;
		const char *text;
	} cases[] = {
		{ 0, "0" }, { 1, "1us" }, { 90, "90us" }, { 1000, "1ms" },
		{ 1500, "1500us" }, { 500000, "500ms" }, { 1000000, "1s" },
		{ 10000000, "10s" }, { 90000000, "90s" }, { 120000000, "2m" },
		{ 3600000000ULL, "1h" }, { 129600000000ULL, "36h" },
		{ 5400000000ULL, "90m" },
		{ UINT64_MAX, "18446744073709551615us" },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		value_format_time(cases[i].us, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].text);
	}
}

static void time_round_trip(uint64_t us)
{
	char buf[64];
	const char *why;
	uint64_t back;

	value_format_time(us, buf, sizeof(buf));
	if (value_time_us(buf, &back, &why))
		fail_msg("'%s' (from %llu us) does not parse: %s", buf,
			 (unsigned long long)us, why);
	if (back != us)
		fail_msg("%llu us -> '%s' -> %llu us", (unsigned long long)us,
			 buf, (unsigned long long)back);
}

static void test_time_round_trip(void **state)
{
	static const uint64_t units[] = { 1, 1000, 1000000, 60000000ULL,
					  3600000000ULL };
	uint64_t seed = 777;
	size_t u;
	int i;

	(void)state;
	time_round_trip(0);
	time_round_trip(UINT64_MAX);
	for (i = 0; i < 2000; i++) {
		uint64_t r = next_rand(&seed);

		time_round_trip(r);
		for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
			time_round_trip((r % 100000) * units[u]);
	}
}

/* The label plots, knees and --topology print; what knee.c, plot.c and
 * topoprint.c each had as their own. */
static void test_format_bytes(void **state)
{
	static const struct {
		double v;
		const char *text;
	} cases[] = {
		{ 0, "0 B" }, { 0.5, "0.5 B" }, { 1023, "1023 B" },
		{ 1024, "1 KiB" }, { 1536, "1.5 KiB" }, { 48 * 1024, "48 KiB" },
		{ 1 << 20, "1 MiB" }, { 37486592, "35.75 MiB" },
		{ 1000000, "976.56 KiB" }, { 1099511627776.0 * 1.5, "1.5 TiB" },
		{ 1099511627776.0 * 4096, "4096 TiB" },
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(value_format_bytes(cases[i].v, buf,
						       sizeof(buf)),
				    cases[i].text);
	/* cut to the buffer, and nothing written into none */
	value_format_bytes(37486592, buf, 6);
	assert_string_equal(buf, "35.75");
	buf[0] = 'x';
	value_format_bytes(1024, buf, 0);
	assert_int_equal(buf[0], 'x');
}

static void test_distance(void **state)
{
	char a[101], b[102];

	(void)state;
	assert_int_equal(value_distance("bs", "bs"), 0);
	assert_int_equal(value_distance("bss", "bs"), 1);
	assert_int_equal(value_distance("bs", "bss"), 1);
	assert_int_equal(value_distance("", ""), 0);
	assert_int_equal(value_distance("", "abc"), 3);
	assert_int_equal(value_distance("abc", ""), 3);
	assert_int_equal(value_distance("kitten", "sitting"), 3);
	assert_int_equal(value_distance("sitting", "kitten"), 3);
	assert_int_equal(value_distance("numjob", "numjobs"), 1);
	assert_int_equal(value_distance("iodepht", "iodepth"), 1); /* a swap */
	assert_int_equal(value_distance("chaes", "chase"), 1);
	assert_int_equal(value_distance("ab", "ba"), 1);
	assert_int_equal(value_distance("abc", "ca"), 3);
	assert_int_equal(value_distance("flaw", "lawn"), 2);
	assert_int_equal(value_distance("runtime", "ramp_time"), 4);
	/* long enough to leave the stack row */
	memset(a, 'a', 100);
	a[100] = '\0';
	memset(b, 'a', 100);
	b[100] = 'b';
	b[101] = '\0';
	assert_int_equal(value_distance(a, b), 1);
	assert_int_equal(value_distance(b, a), 1);
	b[50] = 'c';
	assert_int_equal(value_distance(a, b), 2);
	assert_int_equal(value_distance("", b), 101);
}

static const char *nearest(const char *want, const char *const *words)
{
	struct value_near n;

	value_near_init(&n, want);
	for (unsigned i = 0; words[i]; i++)
		value_near_offer(&n, words[i]);
	return value_near_best(&n);
}

static void test_near(void **state)
{
	static const char *const cols[] = { "bs", "gbps", "host", "sweep_bs",
					    "lat_p99_ns", NULL };
	static const char *const none[] = { NULL };

	(void)state;
	assert_string_equal(nearest("gbsp", cols), "gbps");	/* not bs */
	assert_string_equal(nearest("hots", cols), "host");
	assert_string_equal(nearest("sweep_b", cols), "sweep_bs");
	assert_string_equal(nearest("lat_p9_ns", cols), "lat_p99_ns");
	assert_string_equal(nearest("bs", cols), "bs");
	assert_null(nearest("zzzzzzzzzzzz", cols));
	assert_null(nearest("xyz", cols));	/* 3 edits from "bs" */
	assert_null(nearest("bs", none));
	/* long names allow a third of their length */
	assert_string_equal(nearest("lat_p999", cols), "lat_p99_ns");
	/* 4 edits in 10 letters is another word, not a typo */
	{
		static const char *const opts[] = { "repeat", "rate", NULL };
		static const char *const kernels[] = { "none", "count", "sum",
						       "chase", "copy", NULL };

		assert_null(nearest("randrepeat", opts));
		assert_string_equal(nearest("chaes", kernels), "chase");
		assert_string_equal(nearest("cont", kernels), "count");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_accepts),
		cmocka_unit_test(test_size_refuses),
		cmocka_unit_test(test_size_long_input_is_cut),
		cmocka_unit_test(test_time_accepts),
		cmocka_unit_test(test_time_refuses),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_word),
		cmocka_unit_test(test_idlist_accepts),
		cmocka_unit_test(test_idlist_ors_into_bitmap),
		cmocka_unit_test(test_idlist_refuses),
		cmocka_unit_test(test_format_idlist),
		cmocka_unit_test(test_idlist_round_trip),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_size_round_trip),
		cmocka_unit_test(test_format_time),
		cmocka_unit_test(test_time_round_trip),
		cmocka_unit_test(test_format_bytes),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_near),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
