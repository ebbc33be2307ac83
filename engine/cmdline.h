/*
 * cmdline.h - memjob's own command line: the program options (--output,
 * --section, --verbose, --plot...), the job files, and the job options
 * handed on to the parser; usage text.
 */
#ifndef MEMJOB_CMDLINE_H
#define MEMJOB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "parse/parse.h"
#include "run/progress.h"
#include "util/diag.h"

struct cmdline {
	const char **files;
	int *file_args;			/* argv index of each, for errors */
	size_t nfiles;
	char **shipped;			/* paths found in the data directory */
	size_t nshipped;
	const char **sections;
	int *section_args;
	size_t nsections;
	unsigned formats;
	unsigned details;		/* --details, --verbose: REPORT_DETAIL_* */
	const char *output;
	int output_arg;
	const char *plot;		/* --plot=FILE, or NULL */
	int plot_arg;
	int cmdhelp_arg;
	bool parse_only, dump, version, help, topology, plan;
	const char *topology_file;	/* --topology-file, or NULL */
	const char *cmdhelp;
	bool want_cmdhelp;
	const char *list_events;	/* --list-events's PATTERN, or "" */
	bool want_list_events;
	enum progress_when progress;
};

/* The arguments into cl (program options, files, sections) and ps (job
 * options); each mistake an error in d.  -1 only when out of memory. */
int cmdline_parse(int argc, char **argv, struct cmdline *cl,
		  struct parser *ps, struct diag *d);
void cmdline_usage(FILE *f);
void cmdline_free(struct cmdline *cl);

#endif
