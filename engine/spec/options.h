/*
 * options.h - the option table: one entry per job option.
 *
 * Each entry says where the value is stored in struct job_spec, its type,
 * default, range and help.  The same entry drives the job-file parser, the
 * command line, defaults, range checks, --dump, --cmdhelp and the OPTIONS
 * section of the man page (generated with --cmdhelp=roff), so the five can
 * never disagree.
 */
#ifndef MEMJOB_OPTIONS_H
#define MEMJOB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "spec/job.h"

enum opt_type {
	OPT_STR,	/* char *, strdup'ed */
	OPT_BOOL,	/* bool */
	OPT_UINT,	/* unsigned (width 4) or uint64_t (width 8) */
	OPT_INT,	/* int32_t */
	OPT_SIZE,	/* uint64_t bytes, binary suffixes */
	OPT_TIME,	/* uint64_t microseconds */
	OPT_ENUM,	/* int-sized enum, one of words[] */
	OPT_CUSTOM,	/* parse() and format() do the work */
	OPT_CPUS,	/* char *, a CPU list as written; check.c resolves
			   it against the topology into the bitmap at aux */
};

enum opt_cat {
	CAT_JOB, CAT_PLACEMENT, CAT_SOURCE, CAT_KERNEL, CAT_RUN, CAT_SAFETY,
	CAT_FIO, CAT_COUNT
};

struct opt_def;

typedef int (*opt_parse_fn)(const struct opt_def *o, struct job_spec *j,
			    const char *val, const char **why,
			    char *buf, size_t buflen);
typedef void (*opt_format_fn)(const struct opt_def *o,
			      const struct job_spec *j, char *buf, size_t len);

struct opt_def {
	const char *name;
	enum opt_type type;
	enum opt_cat cat;
	size_t off;			/* offsetof(struct job_spec, field) */
	size_t width;			/* sizeof the field (OPT_UINT) */
	const char *def;		/* default, as text; NULL = unset */
	uint64_t min, max;		/* OPT_UINT, OPT_SIZE, OPT_TIME */
	const char *const *words;	/* OPT_ENUM */
	const char *arg;		/* placeholder in help: SIZE, INT... */
	const char *help;		/* full description (man page) */
	opt_parse_fn parse;		/* OPT_CUSTOM */
	opt_format_fn format;		/* OPT_CUSTOM */
	size_t aux;			/* OPT_CPUS: offset of the bitmap */
	/* fio's other name for an option (timeout for runtime): the entry
	 * has only name, cat and alias; opt_find() returns the target. */
	const char *alias;
	unsigned flags;			/* OPTF_* */
};

/* fio's knob for fio's own overhead: accepted, changes nothing in memjob;
 * a run that sets one says so once (jobs_check). */
#define OPTF_NOOP	0x1

extern const struct opt_def opt_table[];
extern const size_t opt_count;
extern const char *const opt_cat_names[CAT_COUNT];

int opt_index(const char *name);	/* -1 if unknown */
const struct opt_def *opt_find(const char *name);
/* The valid option nearest to an unknown name, or NULL if none is close. */
const char *opt_nearest(const char *name);

/* Parse val into job j; on error *why completes "option 'x': ..." and
 * points into buf when the message had to be built. */
int opt_set(const struct opt_def *o, struct job_spec *j, const char *val,
	    const char **why, char *buf, size_t buflen);
/* Canonical text of the option's value in j (for --dump). */
void opt_format(const struct opt_def *o, const struct job_spec *j,
		char *buf, size_t len);

/* format() of an OPT_CUSTOM option stored as its text (a char *). */
void opt_format_text(const struct opt_def *o, const struct job_spec *j,
		     char *buf, size_t len);

/* A job with every option at its default (name NULL, nothing set). */
int job_init_defaults(struct job_spec *j);
/* Deep copy (strings and bookkeeping), for [global] inheritance. */
int job_copy(struct job_spec *dst, const struct job_spec *src);
/* The same without the sweeps: one point of a grid (a copy of a
 * 10,000-value sweep per point would make expansion quadratic). */
int job_copy_unswept(struct job_spec *dst, const struct job_spec *src);
void job_free(struct job_spec *j);

#endif
