/*
 * options.h - option tables: one entry per job option.
 *
 * Each entry says where the value is stored, its type, default, range and
 * help.  The same entry drives the job-file parser, the command line,
 * defaults, range checks, --dump, --cmdhelp and the OPTIONS section of the
 * man page (generated with --cmdhelp=roff), so the five can never disagree.
 *
 * The core table (parse/options.c) holds what every job has, stored in
 * struct job_spec.  A data source or kernel with options of its own
 * declares them in an opt_group in its own file, stored in a private
 * struct of the group's size that the job carries for it (job_opts()).
 * The parse stage joins the core table and every registered group into
 * one option space (parse/optspace.c); a job points at it, so the
 * functions here work on any option without knowing the registries.
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
	size_t off;			/* offsetof(struct job_spec, field), or
				   into its group's struct */
	size_t width;			/* sizeof the field (OPT_UINT) */
	const char *def;		/* default, as text; NULL = unset */
	uint64_t min, max;		/* OPT_UINT, OPT_SIZE, OPT_TIME */
	const char *const *words;	/* OPT_ENUM */
	/* OPT_ENUM: NULL if this build, on this machine, offers words[i];
	 * else why not, after a list of words: "arm64's" (another CPU
	 * architecture's instruction is parsed, to be refused with the
	 * reason, but --cmdhelp and OPTION:* sweeps leave it out).  A NULL
	 * function: every word is offered. */
	const char *(*unavailable)(int word);
	const char *arg;		/* placeholder in help: SIZE, INT... */
	const char *help;		/* full description (man page) */
	opt_parse_fn parse;		/* OPT_CUSTOM */
	opt_format_fn format;		/* OPT_CUSTOM */
	size_t aux;			/* OPT_CPUS: offset of the bitmap */
	/* fio's other name for an option (timeout for runtime): the entry
	 * has only name, cat and alias; opt_find() returns the target. */
	const char *alias;
	unsigned flags;			/* OPTF_* */
	/* A group's option: listed (--cmdhelp, --dump) right after this
	 * option; NULL: after the group's previous option. */
	const char *after;
	/* Set in the option space: the group the entry came from (0: the
	 * core table, whose fields are in struct job_spec). */
	unsigned group;
};

/* A data source's or kernel's own options (ioengine_ops.opts,
 * kernel_ops.opts), as fio's ioengine_ops carries its option table and
 * option_struct_size. */
struct opt_group {
	const char *name;		/* the source or kernel */
	const struct opt_def *opts;	/* .off is into the private struct */
	size_t nopts;
	size_t size;			/* sizeof the private struct */
};

/* const struct opt_group x = OPT_GROUP("io_uring", table, struct t); */
#define OPT_GROUP(gname, table, type) {				\
	.name = (gname), .opts = (table),				\
	.nopts = sizeof(table) / sizeof((table)[0]),			\
	.size = sizeof(type),						\
}

/* Every option a job can have: the core table, then every registered
 * group's, in the order of --cmdhelp and --dump (parse/optspace.c). */
struct opt_space {
	const struct opt_def *opts;
	size_t count;
	const struct opt_group *const *groups;	/* [0] NULL: the core */
	unsigned ngroups;
	/* opts' indices in strcmp order of their names, for lookups by
	 * name (a check asks hundreds of times per job); NULL: search
	 * opts in turn */
	const unsigned short *by_name;
};

/* fio's knob for fio's own overhead: accepted, changes nothing in memjob;
 * a run that sets one says so once (jobs_check). */
#define OPTF_NOOP	0x1
/* A command for /bin/sh -c (kernel=exec's command): a job file's ${VAR}
 * in it is left for the shell, quoted, so a value is data and never
 * shell syntax (env_expand_shell). */
#define OPTF_SHELL	0x2
/* A word memjob takes only from fio (filesize, bsrange, thread, timeout):
 * a job file that uses one is read as fio's, and its jobs get fio's
 * defaults (parse/fiocompat.c). */
#define OPTF_FIO	0x4

/* The core table (parse/options.c): what every job has. */
extern const struct opt_def opt_core[];
extern const size_t opt_core_count;
extern const char *const opt_cat_names[CAT_COUNT];

/* Where option o of job j is stored: in j, or in its group's struct. */
void *opt_field(const struct opt_def *o, const struct job_spec *j);
/* Whether group g (may be NULL) has an option called name. */
bool opt_group_has(const struct opt_group *g, const char *name);
/* Where OPT_CPUS option o of job j keeps its resolved bitmap. */
void *opt_aux(const struct opt_def *o, const struct job_spec *j);
/* The private struct of group g in job j (a data source's or kernel's
 * own options).  A job made without the parser (a unit test's) has none
 * attached: it reads zeros, as its fields in struct job_spec would have
 * been (NULL only for a group larger than OPT_GROUP_ZEROS). */
const void *job_opts(const struct job_spec *j, const struct opt_group *g);
#define OPT_GROUP_ZEROS	1024

/* Lookups in a space (NULL: an empty one).  The index of option name,
 * -1 if unknown; an alias (fio's timeout for runtime) is the option it
 * names. */
int opt_space_index(const struct opt_space *sp, const char *name);
const struct opt_def *opt_space_find(const struct opt_space *sp,
				     const char *name);
/* The valid option nearest to an unknown name, or NULL if none is close. */
const char *opt_space_nearest(const struct opt_space *sp, const char *name);
/* The flags (OPTF_*) of the entry called name itself, an alias's own
 * rather than those of the option it names; 0 when unknown. */
unsigned opt_space_word_flags(const struct opt_space *sp, const char *name);

/* A job with every option of space sp at its default (name NULL, nothing
 * set), each group's struct allocated; -1 (and said why when a default
 * is refused) if not. */
int job_init_space(struct job_spec *j, const struct opt_space *sp);

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

/* Deep copy (strings and bookkeeping), for [global] inheritance. */
int job_copy(struct job_spec *dst, const struct job_spec *src);
/* The same without the sweeps: one point of a grid (a copy of a
 * 10,000-value sweep per point would make expansion quadratic). */
int job_copy_unswept(struct job_spec *dst, const struct job_spec *src);
void job_free(struct job_spec *j);

#endif
