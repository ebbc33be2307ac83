/*
 * parse.c - job files and command-line job options into a jobset.
 *
 * The reader (reader.c) feeds inih one line at a time and knows file:line;
 * this file turns inih's callbacks into jobs, applying each value through
 * the option table.  Errors are collected, not fatal, so one run reports
 * every mistake in a file; a line inih cannot parse at all stops that file.
 */
#include <ini.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "spec/options.h"
#include "parse/optspace.h"
#include "parse/optvalues.h"
#include "parse/sweepspec.h"
#include "parse/parse.h"
#include "parse/reader.h"

struct cli_override {
	const struct opt_def *opt;
	char *val;
	struct srcloc loc;
};

/* A job file's value that did not parse: reported at parser_finish()
 * unless a command-line override of the option replaces it (fio lets
 * --ioengine=io_uring rescue a file that says an engine it lacks). */
struct pending_error {
	const struct opt_def *opt;
	struct srcloc loc;
	char *msg;
};

struct parser {
	struct diag *d;
	struct job_spec *jobs;
	size_t njobs, cap;

	/* while reading a file */
	struct jobreader *r;
	struct job_spec global;
	struct job_spec *target;	/* &global, a job, or NULL */
	bool in_section;

	struct jobreader **readers;	/* kept: locations point into them */
	size_t nreaders;

	struct cli_override *over;	/* options before the first --name */
	size_t nover;
	struct pending_error *pending;	/* file values that did not parse */
	size_t npending;
	bool cli_job_open;		/* a --name has been seen */
	bool full;			/* MEMJOB_MAX_JOBS reached, said */
	bool fio_words;			/* the file being read used one */
};

static const char CMDLINE[] = "command line";

struct parser *parser_new(struct diag *d)
{
	struct parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->d = d;
	return p;
}

static struct job_spec *new_job(struct parser *p, const struct job_spec *base,
				const char *name, const struct srcloc *loc)
{
	struct job_spec *j;
	struct job_spec fresh;

	if (p->njobs == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct job_spec *n = realloc(p->jobs, cap * sizeof(*n));

		if (!n)
			return NULL;
		p->jobs = n;
		p->cap = cap;
	}
	j = &p->jobs[p->njobs];
	if (base) {
		if (job_copy(j, base))
			return NULL;
	} else {
		if (job_init_defaults(&fresh))
			return NULL;
		*j = fresh;
	}
	free(j->name);
	j->name = strdup(name);
	if (!j->name) {
		job_free(j);
		return NULL;
	}
	j->where = *loc;
	j->index = (unsigned)p->njobs;
	p->njobs++;
	return j;
}

/* Room for one more job, or false after saying (once) that there is
 * none. */
static bool room_for_job(struct parser *p, const struct srcloc *loc)
{
	if (p->njobs < MEMJOB_MAX_JOBS)
		return true;
	if (!p->full)
		diag_error(p->d, loc, NULL, "job %d is past memjob's limit of "
			   "%d jobs (one job with sweep= runs many points); "
			   "the rest is not read", MEMJOB_MAX_JOBS + 1,
			   MEMJOB_MAX_JOBS);
	p->full = true;
	return false;
}

static int valid_job_name(const char *name)
{
	if (!*name)
		return 0;
	for (const char *c = name; *c; c++)
		if (*c == ',' || *c == '"' || *c == '\n' || *c == '[' ||
		    *c == ']' || *c == '=')
			return 0;
	return 1;
}

static int on_section(void *user, const char *name, const struct srcloc *loc)
{
	struct parser *p = user;

	p->in_section = true;
	p->target = NULL;
	if (!name)		/* refused and reported by the reader */
		return 0;
	if (!strcmp(name, "global")) {
		p->target = &p->global;
		return 0;
	}
	if (!room_for_job(p, loc))
		return -1;
	if (!valid_job_name(name)) {
		diag_error(p->d, loc, NULL, "bad job name '%s': it must not be "
			   "empty or contain , \" = [ or ]", name);
		return 0;
	}
	p->target = new_job(p, &p->global, name, loc);
	if (!p->target) {
		diag_error(p->d, loc, NULL, "out of memory");
		return -1;
	}
	/* what [global] set is a default for this job, not its own word */
	memcpy(p->target->inherited, p->global.isset, opt_count);
	return 0;
}

/* 0 when the error is kept for parser_finish(), -1 (out of memory) when
 * it must be reported now. */
static int defer_error(struct parser *p, const struct opt_def *o,
		       const struct srcloc *loc, const char *msg)
{
	struct pending_error *n = realloc(p->pending, (p->npending + 1) *
					  sizeof(*n));

	if (!n)
		return -1;
	p->pending = n;
	n[p->npending].msg = strdup(msg);
	if (!n[p->npending].msg)
		return -1;
	n[p->npending].opt = o;
	n[p->npending].loc = *loc;
	p->npending++;
	return 0;
}

/* The file values that did not parse, but those a command-line override
 * replaces; once. */
void parser_report_pending(struct parser *p)
{
	for (size_t i = 0; i < p->npending; i++) {
		const struct pending_error *e = &p->pending[i];
		bool rescued = false;

		for (size_t k = 0; k < p->nover; k++)
			rescued |= p->over[k].opt == e->opt;
		if (!rescued)
			diag_error(p->d, &e->loc, e->opt->name, "%s", e->msg);
		free(e->msg);
	}
	p->npending = 0;
}

/* Set option key=val on job j; val NULL is a bare flag (bools only). */
static void apply(struct parser *p, struct job_spec *j, const char *key,
		  const char *val, const struct srcloc *loc)
{
	const struct opt_def *o = opt_find(key);
	const char *why;
	char buf[512];

	if (!o) {
		const char *near = opt_nearest(key);

		if (!*key)
			diag_error(p->d, loc, NULL, "expected option=value, got "
				   "'=%s'", val ? val : "");
		else if (strpbrk(key, " \t"))
			diag_error(p->d, loc, NULL, "expected option=value, "
				   "got '%s'", key);
		else if (near)
			diag_error(p->d, loc, NULL, "unknown option '%s'; did "
				   "you mean '%s'?", key, near);
		else
			diag_error(p->d, loc, NULL, "unknown option '%s' (see "
				   "memjob --cmdhelp)", key);
		return;
	}
	if (!val) {
		if (o->type != OPT_BOOL) {
			diag_error(p->d, loc, o->name, "needs a value (%s=%s)",
				   o->name, o->arg);
			return;
		}
		val = "1";
	}
	if (o->type == OPT_STR && !o->group &&
	    o->off == offsetof(struct job_spec, name) &&
	    !valid_job_name(val)) {
		diag_error(p->d, loc, o->name, "bad job name '%s': it must not "
			   "be empty or contain , \" = [ or ]", val);
		return;
	}
	if (opt_set(o, j, val, &why, buf, sizeof(buf))) {
		/* Every message says what it refused, once: a range check
		 * already ends in "got 0". */
		char quoted[256], msg[1024];

		snprintf(quoted, sizeof(quoted), "'%s'", val);
		if (*val && !strstr(why, quoted) && !strstr(why, "got "))
			snprintf(msg, sizeof(msg), "%s, got '%s'", why, val);
		else
			snprintf(msg, sizeof(msg), "%s", why);
		if (loc->file == CMDLINE || defer_error(p, o, loc, msg))
			diag_error(p->d, loc, o->name, "%s", msg);
		return;
	}
	if (loc->file != CMDLINE && opt_is_fio_word(key))
		p->fio_words = true;
	j->isset[o - opt_table] = 1;
	if (j->inherited)
		j->inherited[o - opt_table] = 0;
	j->locs[o - opt_table] = *loc;
	if (o->parse == optv_parse_sweep)	/* each sweep keeps its line */
		j->sweeps[j->nsweeps - 1].loc = *loc;
}

static int on_kv(void *user, const char *section, const char *name,
		 const char *value)
{
	struct parser *p = user;
	const struct srcloc *loc = jobreader_loc(p->r);

	(void)section;
	if (value && !strcmp(value, JOBREADER_LONG_MARK))
		value = jobreader_long_value(p->r);
	if (!p->in_section) {
		diag_error(p->d, loc, NULL, "option '%s' is outside any "
			   "section; put it under [global] or a [job]", name);
		return 1;
	}
	if (!p->target)		/* the section itself was bad */
		return 1;
	apply(p, p->target, name, value, loc);
	return 1;
}

/* A job file is read as fio's when its name says so or it uses a word
 * memjob takes only from fio; its jobs then get fio's defaults. */
static bool fio_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 4 && !strcmp(name + n - 4, ".fio");
}

static int parse_with(struct parser *p, struct jobreader *r,
		      const char *name)
{
	unsigned before = p->d->errors;
	size_t first = p->njobs;
	int ret;

	if (!r)
		return -1;
	p->r = r;
	if (job_init_defaults(&p->global)) {
		jobreader_close(r);
		return -1;
	}
	p->target = NULL;
	p->in_section = false;
	p->fio_words = false;

	ini_allow_multiline = 0;
	ini_allow_no_value = 1;
	ini_stop_on_first_error = 1;
	ini_inline_comment_prefixes = ";#";
	ret = ini_parse_stream(jobreader_gets, r, on_kv, p);
	if (ret > 0)		/* on_kv never fails: inih met a bad line */
		diag_error(p->d, jobreader_loc(r), NULL, "syntax error: "
			   "expected [section], option=value or include FILE");
	else if (ret < 0 && p->d->errors == before)
		diag_error(p->d, jobreader_loc(r), NULL, "cannot read the "
			   "job file (%s)", ret == -2 ? "out of memory"
						     : "I/O error");
	job_free(&p->global);
	for (size_t i = first; i < p->njobs; i++)
		p->jobs[i].fio_file = p->fio_words || fio_name(name);

	/* an array of pointers: sizeof(*n) is a pointer's size, as meant */
	struct jobreader **n = realloc(p->readers, (p->nreaders + 1) *
				       sizeof(*n)); /* NOLINT(bugprone-sizeof-expression) */
	if (!n) {
		jobreader_close(r);
		return -1;
	}
	p->readers = n;
	p->readers[p->nreaders++] = r;
	p->r = NULL;
	return p->d->errors == before ? 0 : -1;
}

int parser_add_file(struct parser *p, const char *path)
{
	return parse_with(p, jobreader_open(path, p->d, on_section, p), path);
}

int parser_add_string(struct parser *p, const char *name, const char *text)
{
	return parse_with(p, jobreader_open_string(name, text, p->d,
						   on_section, p), name);
}

int parser_add_cmdline(struct parser *p, const char *key, const char *val,
		       int argi)
{
	struct srcloc loc = { .file = CMDLINE, .line = argi };
	const struct opt_def *o;

	if (!strcmp(key, "name")) {
		if (!val || !*val) {
			diag_error(p->d, &loc, "name", "expected --name=NAME");
			return -1;
		}
		if (!valid_job_name(val)) {
			diag_error(p->d, &loc, "name", "bad job name '%s': it "
				   "must not contain , \" = [ or ]", val);
			return -1;
		}
		if (!room_for_job(p, &loc))
			return -1;
		if (!new_job(p, NULL, val, &loc)) {
			diag_error(p->d, &loc, NULL, "out of memory");
			return -1;
		}
		p->cli_job_open = true;
		return 0;
	}
	if (p->cli_job_open) {
		unsigned before = p->d->errors;

		apply(p, &p->jobs[p->njobs - 1], key, val, &loc);
		return p->d->errors == before ? 0 : -1;
	}
	/* Before any --name: an override for every job.  Check it now on a
	 * scratch job so the error points at the argument. */
	o = opt_find(key);
	{
		struct job_spec scratch;
		unsigned before = p->d->errors;
		struct cli_override *n;

		if (job_init_defaults(&scratch))
			return -1;
		apply(p, &scratch, key, val, &loc);
		job_free(&scratch);
		if (p->d->errors != before)
			return -1;
		n = realloc(p->over, (p->nover + 1) * sizeof(*n));
		if (!n)
			return -1;
		p->over = n;
		n[p->nover].opt = o;
		n[p->nover].val = val ? strdup(val) : NULL;
		n[p->nover].loc = loc;
		p->nover++;
	}
	return 0;
}

static bool wanted(const char *name, const char *const *sections, size_t n)
{
	if (!n)
		return true;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(sections[i], name))
			return true;
	return false;
}

/* Jobs by name, then in file order (the array's order). */
static int by_name(const void *a, const void *b)
{
	const struct job_spec *x = *(const struct job_spec *const *)a;
	const struct job_spec *y = *(const struct job_spec *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x > y) - (x < y);
}

/* A name given to two jobs, reported at the later one, in file order;
 * sorted, so that a file of many jobs takes n log n, not n^2. */
static void report_twice(struct parser *p)
{
	const struct job_spec **sorted, **first;

	if (p->njobs < 2)
		return;
	/* arrays of pointers: sizeof(*sorted) is a pointer's size, as meant */
	sorted = malloc(p->njobs * sizeof(*sorted)); /* NOLINT(bugprone-sizeof-expression) */
	first = calloc(p->njobs, sizeof(*first)); /* NOLINT(bugprone-sizeof-expression) */
	if (!sorted || !first) {
		diag_plain(p->d, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < p->njobs; i++)
		sorted[i] = &p->jobs[i];
	qsort(sorted, p->njobs, sizeof(*sorted), by_name); /* NOLINT(bugprone-sizeof-expression) */
	for (size_t i = 1, lead = 0; i < p->njobs; i++) {
		if (strcmp(sorted[i]->name, sorted[lead]->name))
			lead = i;
		else
			first[sorted[i] - p->jobs] = sorted[lead];
	}
	for (size_t i = 0; i < p->njobs; i++)
		if (first[i])
			diag_error(p->d, &p->jobs[i].where, NULL, "job '%s' is "
				   "defined twice (first at %s:%d)",
				   p->jobs[i].name, first[i]->where.file,
				   first[i]->where.line);
out:
	free(sorted);
	free(first);
}

unsigned parser_finish(struct parser *p, const char *const *sections,
		       size_t nsections, struct jobset *out)
{
	size_t kept = 0;

	out->jobs = NULL;
	out->njobs = 0;
	parser_report_pending(p);
	for (size_t i = 0; i < p->njobs; i++) {
		struct job_spec *j = &p->jobs[i];

		for (size_t k = 0; k < p->nover; k++) {
			int o = (int)(p->over[k].opt - opt_table);

			/* the job's own --opt after its --name is more
			 * specific than an override for every job */
			if (j->isset[o] && j->locs[o].file == CMDLINE &&
			    j->locs[o].line > p->over[k].loc.line)
				continue;
			apply(p, j, p->over[k].opt->name, p->over[k].val,
			      &p->over[k].loc);
		}
	}
	report_twice(p);
	for (size_t i = 0; i < p->njobs; i++) {
		if (wanted(p->jobs[i].name, sections, nsections)) {
			p->jobs[kept] = p->jobs[i];
			p->jobs[kept].index = (unsigned)kept;
			kept++;
		} else {
			job_free(&p->jobs[i]);
		}
	}
	out->jobs = p->jobs;
	out->njobs = kept;
	p->jobs = NULL;
	p->njobs = p->cap = 0;
	return p->d->errors;
}

void jobset_free(struct jobset *js)
{
	for (size_t i = 0; i < js->njobs; i++)
		job_free(&js->jobs[i]);
	free(js->jobs);
	js->jobs = NULL;
	js->njobs = 0;
}

int jobset_copy(struct jobset *dst, const struct jobset *src)
{
	dst->njobs = 0;
	dst->jobs = calloc(src->njobs ? src->njobs : 1, sizeof(*dst->jobs));
	if (!dst->jobs)
		return -1;
	for (; dst->njobs < src->njobs; dst->njobs++)
		if (job_copy(&dst->jobs[dst->njobs], &src->jobs[dst->njobs])) {
			jobset_free(dst);
			return -1;
		}
	return 0;
}

void parser_free(struct parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->njobs; i++)
		job_free(&p->jobs[i]);
	free(p->jobs);
	for (size_t i = 0; i < p->nreaders; i++)
		jobreader_close(p->readers[i]);
	free(p->readers);
	for (size_t i = 0; i < p->nover; i++)
		free(p->over[i].val);
	free(p->over);
	for (size_t i = 0; i < p->npending; i++)
		free(p->pending[i].msg);
	free(p->pending);
	free(p);
}
