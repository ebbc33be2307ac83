/*
 * help.h - the option table turned into text: --cmdhelp, the man page's
 * OPTIONS section (--cmdhelp=roff) and --dump of resolved jobs.
 */
#ifndef MEMJOB_HELP_H
#define MEMJOB_HELP_H

#include <stdio.h>

#include "spec/job.h"

/* what: NULL or "all" for the list, an option name, or "roff".
 * Returns 0, or -1 when what names no option (nothing printed). */
int help_cmdhelp(FILE *f, const char *what);
/* The jobs as an ini file that memjob reads back to the same jobs. */
void help_dump(FILE *f, const struct jobset *js);

#endif
