/*
 * optspace.h - every option a job can have: the core table joined with the
 * option groups of every registered data source and kernel.
 *
 * The parser, --cmdhelp, --dump and sweeps work on this one space; an
 * option's index in it is the index of its isset/locs bookkeeping and of
 * struct sweep.opt.  Here, above the registries, is the only place that
 * knows which groups exist.
 */
#ifndef MEMJOB_OPTSPACE_H
#define MEMJOB_OPTSPACE_H

#include "spec/options.h"

/* Built on first use, then never changed. */
const struct opt_space *opt_space(void);

/* The space's entries, in the order of --cmdhelp and --dump. */
#define opt_table	(opt_space()->opts)
#define opt_count	(opt_space()->count)

int opt_index(const char *name);	/* -1 if unknown */
/* An alias (fio's timeout for runtime) is the option it names. */
const struct opt_def *opt_find(const char *name);
/* The valid option nearest to an unknown name, or NULL if none is close. */
const char *opt_nearest(const char *name);
/* Whether name is a word memjob takes only from fio (OPTF_FIO). */
bool opt_is_fio_word(const char *name);

/* A job with every option of the space at its default (name NULL,
 * nothing set), each group's struct allocated. */
int job_init_defaults(struct job_spec *j);

#endif
