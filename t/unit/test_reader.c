/*
 * test_reader.c - unit tests for the job-file line reader (engine/reader.c).
 *
 * The reader is driven the way memjob drives it: through inih's
 * ini_parse_stream(), with a handler that records every (section, key,
 * value) and the file:line the reader says it came from.  Job files are
 * written into a fresh directory per test; diagnostics go to a memstream
 * so the tests can check the exact text.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <ini.h>

#include "util/diag.h"
#include "parse/reader.h"
#include "scratch.h"

#define MAX_RECS 64

struct rec {
	char *section, *key, *value, *file;
	int line;
	bool was_long;		/* the value came as JOBREADER_LONG_MARK */
};

/* One test's directory and what one parse saw. */
struct fix {
	char dir[64];
	char path[512];
	struct jobreader *r;
	struct rec recs[MAX_RECS];
	int nrec;
	struct rec secs[MAX_RECS];
	int nsec;
	int ret;		/* ini_parse_stream() */
	unsigned errors;	/* jobreader_errors() */
	unsigned diag_errors;
	char *diag;		/* everything printed */
	const struct srcloc *(*map)(const struct jobreader *, int);
	char mapped[512];	/* file:line of inih's error line, if any */
};

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	assert_non_null(p);
	return p;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct fix *f = user;
	const struct srcloc *loc = jobreader_loc(f->r);
	struct rec *rec;

	assert_true(f->nrec < MAX_RECS);
	rec = &f->recs[f->nrec++];
	rec->was_long = value && !strcmp(value, JOBREADER_LONG_MARK);
	if (rec->was_long)
		value = jobreader_long_value(f->r);
	rec->section = xstrdup(section);
	rec->key = xstrdup(name);
	rec->value = xstrdup(value ? value : "(null)");
	rec->file = xstrdup(loc->file);
	rec->line = loc->line;
	return 1;
}

static int on_section(void *user, const char *name, const struct srcloc *loc)
{
	struct fix *f = user;
	struct rec *rec;

	assert_true(f->nsec < MAX_RECS);
	rec = &f->secs[f->nsec++];
	rec->section = xstrdup(name ? name : "(refused)");
	rec->file = xstrdup(loc->file);
	rec->line = loc->line;
	return 0;
}

static void free_recs(struct fix *f)
{
	int i;

	for (i = 0; i < f->nrec; i++) {
		free(f->recs[i].section);
		free(f->recs[i].key);
		free(f->recs[i].value);
		free(f->recs[i].file);
	}
	for (i = 0; i < f->nsec; i++) {
		free(f->secs[i].section);
		free(f->secs[i].file);
	}
	f->nrec = f->nsec = 0;
	free(f->diag);
	f->diag = NULL;
}

/* Path of name inside the test directory (valid until the next call). */
static const char *in_dir(struct fix *f, const char *name)
{
	snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, name);
	return f->path;
}

static void write_file(struct fix *f, const char *name, const char *text)
{
	FILE *fp = fopen(in_dir(f, name), "w");

	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

/* Parse with r already open or, if text is NULL, the file at path. */
static void run_parse(struct fix *f, const char *path, const char *text)
{
	struct diag d;
	size_t len;
	FILE *out;

	free_recs(f);
	f->mapped[0] = '\0';
	out = open_memstream(&f->diag, &len);
	assert_non_null(out);
	diag_init(&d, out);
	if (text)
		f->r = jobreader_open_string(path, text, &d, on_section, f);
	else
		f->r = jobreader_open(path, &d, on_section, f);
	if (f->r) {
		const struct srcloc *loc;

		f->ret = ini_parse_stream(jobreader_gets, f->r, handler, f);
		f->errors = jobreader_errors(f->r);
		loc = f->ret > 0 ? jobreader_line_loc(f->r, f->ret) : NULL;
		if (loc)
			snprintf(f->mapped, sizeof(f->mapped), "%s:%d",
				 loc->file, loc->line);
		jobreader_close(f->r);
		f->r = NULL;
	} else {
		f->ret = -100;
		f->errors = 0;
	}
	f->diag_errors = d.errors;
	assert_int_equal(fclose(out), 0);
}

static void parse_file(struct fix *f, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s", in_dir(f, name));
	run_parse(f, path, NULL);
}

static void parse_string(struct fix *f, const char *name, const char *text)
{
	run_parse(f, name, text);
}

/* want with every "@" replaced by the test directory. */
static void at_dir(struct fix *f, const char *want, char *buf, size_t len)
{
	const char *at;
	size_t used = 0;

	buf[0] = '\0';
	while ((at = strchr(want, '@')) && used < len) {
		used += (size_t)snprintf(buf + used, len - used, "%.*s%s",
					 (int)(at - want), want, f->dir);
		want = at + 1;
	}
	if (used < len)
		snprintf(buf + used, len - used, "%s", want);
}

/* Record i is section/key = value from file:line ("@" is the test dir). */
static void check_rec(struct fix *f, int i, const char *section,
		      const char *key, const char *value, const char *file,
		      int line)
{
	char want[512];

	if (i >= f->nrec)
		fail_msg("record %d missing (only %d); diagnostics:\n%s", i,
			 f->nrec, f->diag);
	assert_string_equal(f->recs[i].section, section);
	assert_string_equal(f->recs[i].key, key);
	assert_string_equal(f->recs[i].value, value);
	at_dir(f, file, want, sizeof(want));
	assert_string_equal(f->recs[i].file, want);
	assert_int_equal(f->recs[i].line, line);
}

static void check_sec(struct fix *f, int i, const char *name, int line)
{
	assert_true(i < f->nsec);
	assert_string_equal(f->secs[i].section, name);
	assert_int_equal(f->secs[i].line, line);
}

/* The diagnostics contain want ("@" is the test dir). */
static void check_diag(struct fix *f, const char *want)
{
	char buf[2048];

	at_dir(f, want, buf, sizeof(buf));
	if (!strstr(f->diag, buf))
		fail_msg("diagnostics lack '%s':\n%s", buf, f->diag);
}

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (scratch_dir(f->dir, sizeof(f->dir), "reader")) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	int ret;

	free_recs(f);
	ret = scratch_remove(f->dir);
	free(f);
	return ret;
}

/* ---- the tests ---- */

static void test_plain_file(void **state)
{
	struct fix *f = *state;

	write_file(f, "a.ini",
		   "; a job\n"
		   "[global]\n"
		   "bs=4k\n"
		   "\n"
		   "[job1]\n"
		   "  size = 1m  \n"
		   "rw: read\n"
		   "filename=/tmp/x ; inline comment\n"
		   "name=a#b\n"
		   "cpus=0 # other comment\n");
	parse_file(f, "a.ini");
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->nrec, 6);
	check_rec(f, 0, "global", "bs", "4k", "@/a.ini", 3);
	check_rec(f, 1, "job1", "size", "1m", "@/a.ini", 6);
	check_rec(f, 2, "job1", "rw", "read", "@/a.ini", 7);
	check_rec(f, 3, "job1", "filename", "/tmp/x", "@/a.ini", 8);
	check_rec(f, 4, "job1", "name", "a#b", "@/a.ini", 9);
	check_rec(f, 5, "job1", "cpus", "0", "@/a.ini", 10);
	assert_int_equal(f->nsec, 2);
	check_sec(f, 0, "global", 2);
	check_sec(f, 1, "job1", 5);
	assert_string_equal(f->diag, "");
}

static void test_include_locations(void **state)
{
	struct fix *f = *state;

	write_file(f, "a.ini",
		   "[global]\n"
		   "include b.ini\n"
		   "bs=4k\n"
		   "  include   c.ini   ; with a comment\n"
		   "[job]\n"
		   "size=1m\n");
	write_file(f, "b.ini",
		   "; b starts with a comment\n"
		   "ioengine=mem\n"
		   "\n"
		   "rw=read\n");
	write_file(f, "c.ini", "[c]\nk=v");
	parse_file(f, "a.ini");
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->nrec, 5);
	check_rec(f, 0, "global", "ioengine", "mem", "@/b.ini", 2);
	check_rec(f, 1, "global", "rw", "read", "@/b.ini", 4);
	check_rec(f, 2, "global", "bs", "4k", "@/a.ini", 3);
	check_rec(f, 3, "c", "k", "v", "@/c.ini", 2);
	check_rec(f, 4, "job", "size", "1m", "@/a.ini", 6);
	assert_int_equal(f->nsec, 3);
	check_sec(f, 0, "global", 1);
	check_sec(f, 1, "c", 1);
	assert_string_equal(f->secs[1].file, in_dir(f, "c.ini"));
	check_sec(f, 2, "job", 5);
}

static void test_nested_include_is_relative_to_includer(void **state)
{
	struct fix *f = *state;

	assert_int_equal(mkdir(in_dir(f, "sub"), 0700), 0);
	write_file(f, "a.ini", "[j]\ninclude sub/b.ini\nafter=a\n");
	write_file(f, "sub/b.ini", "b1=1\ninclude c.ini\nb3=3\n");
	write_file(f, "sub/c.ini", "c1=1\nc2=2\n");
	/* a c.ini next to a.ini must not be the one found */
	write_file(f, "c.ini", "wrong=1\n");
	parse_file(f, "a.ini");
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->nrec, 5);
	check_rec(f, 0, "j", "b1", "1", "@/sub/b.ini", 1);
	check_rec(f, 1, "j", "c1", "1", "@/sub/c.ini", 1);
	check_rec(f, 2, "j", "c2", "2", "@/sub/c.ini", 2);
	check_rec(f, 3, "j", "b3", "3", "@/sub/b.ini", 3);
	check_rec(f, 4, "j", "after", "a", "@/a.ini", 3);
}

static void test_absolute_include(void **state)
{
	struct fix *f = *state;
	char text[600];

	write_file(f, "abs.ini", "k=v\n");
	snprintf(text, sizeof(text), "[s]\ninclude %s\nz=1\n", in_dir(f, "abs.ini"));
	write_file(f, "a.ini", text);
	parse_file(f, "a.ini");
	assert_int_equal(f->errors, 0);
	check_rec(f, 0, "s", "k", "v", "@/abs.ini", 1);
	check_rec(f, 1, "s", "z", "1", "@/a.ini", 3);
}

static void test_include_cycle(void **state)
{
	struct fix *f = *state;

	write_file(f, "a.ini", "[s]\nk1=1\ninclude b.ini\nk4=4\n");
	write_file(f, "b.ini", "k2=2\ninclude a.ini\nk3=3\n");
	parse_file(f, "a.ini");
	assert_int_equal(f->errors, 1);
	assert_int_equal(f->diag_errors, 1);
	check_diag(f, "@/b.ini:2: include cycle: @/a.ini includes @/b.ini which includes @/a.ini\n");
	/* the reader goes on after the error */
	assert_int_equal(f->nrec, 4);
	check_rec(f, 0, "s", "k1", "1", "@/a.ini", 2);
	check_rec(f, 1, "s", "k2", "2", "@/b.ini", 1);
	check_rec(f, 2, "s", "k3", "3", "@/b.ini", 3);
	check_rec(f, 3, "s", "k4", "4", "@/a.ini", 4);
}

static void test_include_self(void **state)
{
	struct fix *f = *state;

	write_file(f, "a.ini", "k=1\ninclude ./a.ini\n");
	parse_file(f, "a.ini");
	assert_int_equal(f->errors, 1);
	check_diag(f, "@/a.ini:2: include cycle: @/a.ini includes @/a.ini\n");
	assert_int_equal(f->nrec, 1);
}

static void test_include_cycle_of_three(void **state)
{
	struct fix *f = *state;

	write_file(f, "top.ini", "include a.ini\n");
	write_file(f, "a.ini", "include b.ini\n");
	write_file(f, "b.ini", "include c.ini\n");
	write_file(f, "c.ini", "\n\ninclude a.ini\n");
	parse_file(f, "top.ini");
	assert_int_equal(f->errors, 1);
	check_diag(f, "@/c.ini:3: include cycle: @/a.ini includes @/b.ini which includes @/c.ini which includes @/a.ini\n");
}

/* A chain f0 -> f1 -> ... -> f<n>, each with one key after its include. */
static void write_chain(struct fix *f, int n)
{
	char name[32], text[64];
	int i;

	for (i = 0; i <= n; i++) {
		snprintf(name, sizeof(name), "f%d.ini", i);
		if (i < n)
			snprintf(text, sizeof(text), "include f%d.ini\nk%d=%d\n",
				 i + 1, i, i);
		else
			snprintf(text, sizeof(text), "k%d=%d\n", i, i);
		write_file(f, name, text);
	}
}

static void test_include_depth_limit(void **state)
{
	struct fix *f = *state;
	char key[16];
	int i;

	/* 16 nested includes are allowed */
	write_chain(f, JOBREADER_MAX_INCLUDE);
	parse_file(f, "f0.ini");
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->nrec, JOBREADER_MAX_INCLUDE + 1);
	for (i = 0; i <= JOBREADER_MAX_INCLUDE; i++) {
		snprintf(key, sizeof(key), "k%d", JOBREADER_MAX_INCLUDE - i);
		assert_string_equal(f->recs[i].key, key);
		assert_int_equal(f->recs[i].line, i ? 2 : 1);
	}

	/* the 17th is refused where it is asked for */
	write_chain(f, JOBREADER_MAX_INCLUDE + 1);
	parse_file(f, "f0.ini");
	assert_int_equal(f->errors, 1);
	check_diag(f, "@/f16.ini:1: include nesting deeper than 16\n");
	assert_int_equal(f->nrec, JOBREADER_MAX_INCLUDE + 1);
	assert_string_equal(f->recs[0].key, "k16");
}

static void test_include_missing(void **state)
{
	struct fix *f = *state;

	write_file(f, "x.ini", "[s]\nk=1\ninclude nope.ini\nk2=2\ninclude\ninclude   \n");
	parse_file(f, "x.ini");
	assert_int_equal(f->errors, 3);
	check_diag(f, "@/x.ini:3: cannot include '@/nope.ini': No such file or directory\n");
	check_diag(f, "@/x.ini:5: include needs a file name\n");
	check_diag(f, "@/x.ini:6: include needs a file name\n");
	assert_int_equal(f->nrec, 2);
	check_rec(f, 1, "s", "k2", "2", "@/x.ini", 4);
	/* nothing broken reached inih */
	assert_int_equal(f->ret, 0);
}

static void test_include_directory(void **state)
{
	struct fix *f = *state;

	assert_int_equal(mkdir(in_dir(f, "d"), 0700), 0);
	write_file(f, "x.ini", "include d\n");
	parse_file(f, "x.ini");
	assert_int_equal(f->errors, 1);
	check_diag(f, "@/x.ini:1: cannot include '@/d': Is a directory\n");
}

static void test_include_word_as_option(void **state)
{
	struct fix *f = *state;

	/* not include lines: an option named include, and a longer word */
	parse_string(f, "test.ini", "[s]\ninclude = x\ninclude_dir=y\ninclude: z\n");
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->nrec, 3);
	check_rec(f, 0, "s", "include", "x", "test.ini", 2);
	check_rec(f, 1, "s", "include_dir", "y", "test.ini", 3);
	check_rec(f, 2, "s", "include", "z", "test.ini", 4);
}

static void test_env_expansion(void **state)
{
	struct fix *f = *state;

	assert_int_equal(setenv("MJ_SIZE", "16m", 1), 0);
	assert_int_equal(setenv("MJ_EMPTY", "", 1), 0);
	assert_int_equal(setenv("MJ_SEC", "job2", 1), 0);
	assert_int_equal(unsetenv("MJ_UNSET"), 0);
	parse_string(f, "test.ini",
		     "[${MJ_SEC}]\n"
		     "size=${MJ_SIZE}\n"
		     "bs=${MJ_UNSET:-4k}\n"
		     "name=${MJ_UNSET:-a b  c}\n"
		     "e=${MJ_EMPTY}\n"
		     "f=${MJ_EMPTY:-dflt}\n"
		     "g=${MJ_SIZE:-dflt}\n"
		     "h=pre${MJ_SIZE}mid${MJ_SIZE}post\n"
		     "i=${MJ_UNSET:-}\n"
		     "j=$HOME costs $5 and $\n"
		     "${MJ_SEC}_key = v\n");
	assert_int_equal(f->errors, 0);
	assert_string_equal(f->diag, "");
	assert_int_equal(f->nrec, 10);
	check_sec(f, 0, "job2", 1);
	check_rec(f, 0, "job2", "size", "16m", "test.ini", 2);
	check_rec(f, 1, "job2", "bs", "4k", "test.ini", 3);
	check_rec(f, 2, "job2", "name", "a b  c", "test.ini", 4);
	check_rec(f, 3, "job2", "e", "", "test.ini", 5);
	check_rec(f, 4, "job2", "f", "dflt", "test.ini", 6);
	check_rec(f, 5, "job2", "g", "16m", "test.ini", 7);
	check_rec(f, 6, "job2", "h", "pre16mmid16mpost", "test.ini", 8);
	check_rec(f, 7, "job2", "i", "", "test.ini", 9);
	check_rec(f, 8, "job2", "j", "$HOME costs $5 and $", "test.ini", 10);
	check_rec(f, 9, "job2", "job2_key", "v", "test.ini", 11);
}

static void test_env_errors(void **state)
{
	struct fix *f = *state;

	assert_int_equal(unsetenv("MJ_UNSET"), 0);
	assert_int_equal(setenv("MJ_SIZE", "16m", 1), 0);
	write_file(f, "x.ini",
		   "[s]\n"
		   "ok=1\n"
		   "size=${MJ_UNSET}\n"
		   "; a comment is not expanded: ${MJ_UNSET}\n"
		   "  # nor is this one ${\n"
		   "a=${MJ_SIZE\n"
		   "b=${1BAD}\n"
		   "c=${MJ_SIZE:=x}\n"
		   "d=${}\n"
		   "ok2=2\n");
	parse_file(f, "x.ini");
	assert_int_equal(f->errors, 5);
	assert_int_equal(f->diag_errors, 5);
	check_diag(f, "@/x.ini:3: environment variable 'MJ_UNSET' is not set (use ${MJ_UNSET:-default} to give a default)\n");
	check_diag(f, "@/x.ini:6: '${' without a closing '}'\n");
	check_diag(f, "@/x.ini:7: cannot expand '${1BAD}': use ${NAME} or ${NAME:-default}\n");
	check_diag(f, "@/x.ini:8: cannot expand '${MJ_SIZE:=x}'");
	check_diag(f, "@/x.ini:9: cannot expand '${}'");
	/* the bad lines never reach the handler */
	assert_int_equal(f->nrec, 2);
	check_rec(f, 0, "s", "ok", "1", "@/x.ini", 2);
	check_rec(f, 1, "s", "ok2", "2", "@/x.ini", 10);
	assert_int_equal(f->ret, 0);
}

static void test_env_in_include(void **state)
{
	struct fix *f = *state;

	assert_int_equal(setenv("MJ_INC", "inc", 1), 0);
	write_file(f, "inc.ini", "k=v\n");
	write_file(f, "a.ini", "include ${MJ_INC}.ini\n");
	parse_file(f, "a.ini");
	assert_int_equal(f->errors, 0);
	check_rec(f, 0, "", "k", "v", "@/inc.ini", 1);
}

static void test_empty_sections(void **state)
{
	struct fix *f = *state;

	char text[512];

	snprintf(text, sizeof(text),
		 "[a]\n[b]\nk=v\n  [c]  \n[d] ; comment\n[ spaced ]\n"
		 "[e] ; %0250d\n", 0);
	parse_string(f, "test.ini", text);
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->nsec, 6);
	/* a long comment after a header is not a long line */
	check_sec(f, 5, "e", 7);
	check_sec(f, 0, "a", 1);
	check_sec(f, 1, "b", 2);
	check_sec(f, 2, "c", 4);
	check_sec(f, 3, "d", 5);
	/* the name is what inih will call the section */
	check_sec(f, 4, " spaced ", 6);
	assert_string_equal(f->secs[0].file, "test.ini");
	assert_int_equal(f->nrec, 1);
	check_rec(f, 0, "b", "k", "v", "test.ini", 3);
}

static void test_malformed_header_maps_back(void **state)
{
	struct fix *f = *state;

	write_file(f, "b.ini", "x=1\ny=2\nz=3\n");
	write_file(f, "a.ini", "[s]\ninclude b.ini\n[abc\nk=v\n");
	parse_file(f, "a.ini");
	/* inih counts the lines it was given: [s], x, y, z, [abc */
	assert_int_equal(f->ret, 5);
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->nsec, 1);
	{
		char want[600];

		snprintf(want, sizeof(want), "%s:3", in_dir(f, "a.ini"));
		assert_string_equal(f->mapped, want);
	}
	/* after a bad header inih keeps the previous section */
	check_rec(f, 3, "s", "k", "v", "@/a.ini", 4);
}

static void test_line_loc_range(void **state)
{
	struct fix *f = *state;
	struct diag d;
	struct jobreader *r;
	FILE *out;
	size_t len;

	out = open_memstream(&f->diag, &len);
	assert_non_null(out);
	diag_init(&d, out);
	r = jobreader_open_string("s.ini", "[a]\nk=v\n", &d, NULL, NULL);
	assert_non_null(r);
	f->r = r;
	assert_string_equal(jobreader_loc(r)->file, "s.ini");
	assert_int_equal(jobreader_loc(r)->line, 0);
	assert_int_equal(ini_parse_stream(jobreader_gets, r, handler, f), 0);
	assert_null(jobreader_line_loc(r, 0));
	assert_null(jobreader_line_loc(r, 3));
	assert_non_null(jobreader_line_loc(r, 2));
	assert_int_equal(jobreader_line_loc(r, 2)->line, 2);
	assert_string_equal(jobreader_line_loc(r, 1)->file, "s.ini");
	jobreader_close(r);
	f->r = NULL;
	assert_int_equal(fclose(out), 0);
	assert_int_equal(f->nrec, 1);
}

static void test_section_name_too_long(void **state)
{
	struct fix *f = *state;
	char text[256];

	snprintf(text, sizeof(text), "[%s]\nk=v\n[%.49s]\nk=w\n",
		 "this-section-name-is-far-too-long-for-inih-to-keep-whole",
		 "this-section-name-is-far-too-long-for-inih-to-keep-whole");
	parse_string(f, "test.ini", text);
	assert_int_equal(f->errors, 1);
	check_diag(f, "test.ini:1: section name 'this-section-name-is-far-too-long-for-inih-to-keep-whole' is longer than 49 characters\n");
	/* the refused header is reported as such, so that its options are
	 * known to belong to no job */
	assert_int_equal(f->nsec, 2);
	check_sec(f, 0, "(refused)", 1);
	check_sec(f, 1, "this-section-name-is-far-too-long-for-inih-to-kee", 3);
}

static void test_long_values(void **state)
{
	struct fix *f = *state;
	char value[301], v198[200], v199[200], text[2048];

	(void)state;
	memset(value, 'x', 300);
	value[300] = '\0';
	value[150] = ' ';
	/* "k=" + 196 chars is 198: the longest line inih can take whole */
	memset(v198, 'a', 196);
	v198[196] = '\0';
	memset(v199, 'b', 197);
	v199[197] = '\0';
	snprintf(text, sizeof(text),
		 "[s]\n"
		 "long = %s ; trailing comment\n"
		 "k=%s\n"
		 "k=%s\n"
		 "colon:   %s   \n"
		 "after=1\n",
		 value, v198, v199, value);
	parse_string(f, "test.ini", text);
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->nrec, 5);
	check_rec(f, 0, "s", "long", value, "test.ini", 2);
	check_rec(f, 1, "s", "k", v198, "test.ini", 3);
	check_rec(f, 2, "s", "k", v199, "test.ini", 4);
	check_rec(f, 3, "s", "colon", value, "test.ini", 5);
	check_rec(f, 4, "s", "after", "1", "test.ini", 6);
	/* 198 characters fit in inih's buffer, 199 do not */
	assert_true(f->recs[0].was_long);
	assert_false(f->recs[1].was_long);
	assert_true(f->recs[2].was_long);
	assert_true(f->recs[3].was_long);
	assert_false(f->recs[4].was_long);
}

static void test_long_value_from_env(void **state)
{
	struct fix *f = *state;
	char value[400];

	memset(value, 'q', sizeof(value) - 1);
	value[sizeof(value) - 1] = '\0';
	assert_int_equal(setenv("MJ_LONG", value, 1), 0);
	parse_string(f, "test.ini", "[s]\nfilename=${MJ_LONG}\n");
	assert_int_equal(f->errors, 0);
	check_rec(f, 0, "s", "filename", value, "test.ini", 2);
}

static void test_long_lines_refused(void **state)
{
	struct fix *f = *state;
	char junk[300], text[2048];

	memset(junk, 'j', sizeof(junk) - 1);
	junk[sizeof(junk) - 1] = '\0';
	snprintf(text, sizeof(text),
		 "[s]\n"
		 "%s\n"			/* no '=' at all */
		 "; %s\n"		/* a long comment is fine */
		 "[%s]\n"		/* a long header */
		 "%s=1\n"		/* a key too long to hand over */
		 "k=v\n",
		 junk, junk, junk, junk);
	parse_string(f, "test.ini", text);
	check_diag(f, "test.ini:2: expected option=value, got 'jjjj");
	check_diag(f, "test.ini:4: section name 'jjj");
	check_diag(f, "test.ini:5: option name longer than 195 characters\n");
	assert_int_equal(f->errors, 3);
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->nrec, 1);
	check_rec(f, 0, "s", "k", "v", "test.ini", 6);
}

static void test_crlf_bom_no_final_newline(void **state)
{
	struct fix *f = *state;

	write_file(f, "inc.ini", "\xEF\xBB\xBF[inc]\r\nq = 1\r\n");
	write_file(f, "a.ini",
		   "\xEF\xBB\xBF[global]\r\n"
		   "bs = 4k\r\n"
		   "include inc.ini\r\n"
		   "name=${MJ_CRLF:-x}\r\n"
		   "last=1");
	assert_int_equal(unsetenv("MJ_CRLF"), 0);
	parse_file(f, "a.ini");
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->nsec, 2);
	check_sec(f, 0, "global", 1);
	check_sec(f, 1, "inc", 1);
	assert_int_equal(f->nrec, 4);
	check_rec(f, 0, "global", "bs", "4k", "@/a.ini", 2);
	check_rec(f, 1, "inc", "q", "1", "@/inc.ini", 2);
	check_rec(f, 2, "inc", "name", "x", "@/a.ini", 4);
	check_rec(f, 3, "inc", "last", "1", "@/a.ini", 5);
}

static void test_empty_input(void **state)
{
	struct fix *f = *state;

	parse_string(f, "test.ini", "");
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->nrec + f->nsec + (int)f->errors, 0);
	write_file(f, "e.ini", "");
	parse_file(f, "e.ini");
	assert_int_equal(f->ret, 0);
	assert_int_equal(f->nrec + f->nsec + (int)f->errors, 0);
}

static void test_nul_byte(void **state)
{
	struct fix *f = *state;
	FILE *fp = fopen(in_dir(f, "bin.ini"), "w");

	assert_non_null(fp);
	assert_int_equal(fwrite("a=1\nb=\0x\nc=3\n", 1, 13, fp), 13);
	assert_int_equal(fclose(fp), 0);
	parse_file(f, "bin.ini");
	assert_int_equal(f->errors, 1);
	check_diag(f, "@/bin.ini:2: line contains a NUL byte");
	assert_int_equal(f->nrec, 2);
	check_rec(f, 1, "", "c", "3", "@/bin.ini", 3);
}

static void test_open_failure(void **state)
{
	struct fix *f = *state;

	parse_file(f, "missing.ini");
	assert_int_equal(f->ret, -100);
	assert_int_equal(f->diag_errors, 1);
	check_diag(f, "memjob: cannot open job file '@/missing.ini': No such file or directory\n");
	run_parse(f, f->dir, NULL);
	assert_int_equal(f->ret, -100);
	check_diag(f, "memjob: cannot open job file '@': Is a directory\n");
}

static void test_stdin(void **state)
{
	struct fix *f = *state;
	int saved, fd, cwd;

	write_file(f, "inc.ini", "k2=2\n");
	write_file(f, "job.ini", "[s]\nk1=1\ninclude inc.ini\nk3=3\n");
	/* includes from stdin are relative to the current directory */
	cwd = open(".", O_RDONLY | O_DIRECTORY);
	assert_true(cwd >= 0);
	assert_int_equal(chdir(f->dir), 0);
	saved = dup(0);		/* -1 if the runner closed stdin */
	fd = open("job.ini", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	clearerr(stdin);

	run_parse(f, "-", NULL);

	if (saved >= 0) {
		assert_int_equal(dup2(saved, 0), 0);
		close(saved);
	} else {
		close(0);
	}
	clearerr(stdin);
	assert_int_equal(fchdir(cwd), 0);
	close(cwd);

	assert_int_equal(f->errors, 0);
	assert_int_equal(f->nrec, 3);
	check_rec(f, 0, "s", "k1", "1", "<stdin>", 2);
	check_rec(f, 1, "s", "k2", "2", "inc.ini", 1);
}

static void test_string_includes_from_cwd(void **state)
{
	struct fix *f = *state;
	int cwd;

	write_file(f, "inc.ini", "k=v\n");
	cwd = open(".", O_RDONLY | O_DIRECTORY);
	assert_true(cwd >= 0);
	assert_int_equal(chdir(f->dir), 0);
	parse_string(f, "sub/dir/test.ini", "[s]\ninclude inc.ini\nz=1\n");
	assert_int_equal(fchdir(cwd), 0);
	close(cwd);
	assert_int_equal(f->errors, 0);
	assert_int_equal(f->nrec, 2);
	check_rec(f, 0, "s", "k", "v", "inc.ini", 1);
	check_rec(f, 1, "s", "z", "1", "sub/dir/test.ini", 3);
}

static void test_several_errors_are_all_reported(void **state)
{
	struct fix *f = *state;

	assert_int_equal(unsetenv("MJ_UNSET"), 0);
	write_file(f, "x.ini",
		   "[s]\n"
		   "a=${MJ_UNSET}\n"
		   "include missing1.ini\n"
		   "b=${MJ_UNSET}\n"
		   "include missing2.ini\n"
		   "c=3\n");
	parse_file(f, "x.ini");
	assert_int_equal(f->errors, 4);
	check_diag(f, "@/x.ini:2: environment variable 'MJ_UNSET'");
	check_diag(f, "@/x.ini:3: cannot include '@/missing1.ini'");
	check_diag(f, "@/x.ini:4: environment variable 'MJ_UNSET'");
	check_diag(f, "@/x.ini:5: cannot include '@/missing2.ini'");
	assert_int_equal(f->nrec, 1);
	check_rec(f, 0, "s", "c", "3", "@/x.ini", 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_plain_file),
		T(test_include_locations),
		T(test_nested_include_is_relative_to_includer),
		T(test_absolute_include),
		T(test_include_cycle),
		T(test_include_self),
		T(test_include_cycle_of_three),
		T(test_include_depth_limit),
		T(test_include_missing),
		T(test_include_directory),
		T(test_include_word_as_option),
		T(test_env_expansion),
		T(test_env_errors),
		T(test_env_in_include),
		T(test_empty_sections),
		T(test_malformed_header_maps_back),
		T(test_line_loc_range),
		T(test_section_name_too_long),
		T(test_long_values),
		T(test_long_value_from_env),
		T(test_long_lines_refused),
		T(test_crlf_bom_no_final_newline),
		T(test_empty_input),
		T(test_nul_byte),
		T(test_open_failure),
		T(test_stdin),
		T(test_string_includes_from_cwd),
		T(test_several_errors_are_all_reported),
#undef T
	};

	/* the knobs as memjob sets them */
	ini_allow_multiline = 0;
	ini_stop_on_first_error = 0;
	ini_inline_comment_prefixes = ";#";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
