/*
 * cmdline.c - memjob's command line (see cmdline.h): each argument is a
 * program option, a job file, or a job option for the parser.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"
#include "parse/datadir.h"
#include "parse/optspace.h"
#include "report/outname.h"
#include "report/report.h"
#include "spec/options.h"
#include "subcommands/plot.h"
#include "util/value.h"

static const char *const program_opts[] = {
	"output-format", "output", "section", "parse-only", "dump", "cmdhelp",
	"version", "help", "topology", "progress", "topology-file", "plan",
	"verbose", "details", "plot", "list-events", NULL
};

void cmdline_usage(FILE *f)
{
	fputs("usage: memjob [OPTIONS] [JOBFILE...] [--name=JOB --OPT=VALUE...]\n"
	      "       memjob report [OPTIONS] CSV...   compare runs' results\n"
	      "       memjob plot [OPTIONS] CSV...     plot results with gnuplot\n"
	      "\n"
	      "Runs the jobs of the job files (- reads standard input) and of\n"
	      "the command line, and reports what they measured.  A JOBFILE\n"
	      "that is no file here names a shipped job (llc-noisy,\n"
	      "jobs/count10.ini) in the data directory ($MEMJOB_DATADIR).\n"
	      "\n"
	      "  --output-format=LIST  normal, csv, json, or several: normal,json\n"
	      "  --output=FILE         write the report to FILE; %h (host),\n"
	      "                        %j, %A, %a, %t (Slurm job, array job,\n"
	      "                        array task, task rank), %p (pid), %%\n"
	      "                        make a new file per host or task\n"
	      "  --verbose             the normal report with every run's\n"
	      "                        details below its answer\n"
	      "  --details=LIST        some of them: runs, counters, system,\n"
	      "                        clones, groups (all: --verbose)\n"
	      "  --plot=FILE           also draw the results with gnuplot\n"
	      "                        into FILE (.png or .svg), as memjob\n"
	      "                        plot would from the CSV\n"
	      "  --section=NAME        run only this job (repeatable)\n"
	      "  --parse-only          check the jobs and exit\n"
	      "  --dump                print the resolved jobs as a job file\n"
	      "  --cmdhelp[=OPTION]    list job options, or explain one\n"
	      "  --topology            print caches, SMT siblings, NUMA nodes\n"
	      "  --list-events[=PATTERN]  the events this machine can count\n"
	      "                        (perf_events=), or one event's encoding\n"
	      "  --topology-file=FILE  plan for the machine FILE describes (hwloc\n"
	      "                        XML or synthetic:DESC), not this one\n"
	      "  --plan                per run and clone, the CPUs and memory\n"
	      "                        node it would get; nothing is run\n"
	      "  --version             print the version\n"
	      "  --progress=WHEN       a progress line on standard error: auto\n"
	      "                        (when it is a terminal), always, never\n"
	      "  --OPT=VALUE           a job option (see --cmdhelp); before any\n"
	      "                        --name it applies to every job\n"
	      "\n"
	      "See memjob(1).\n", f);
	fprintf(f, "data directory: %s\n", datadir());
}

static const char *nearest_program_opt(const char *name)
{
	struct value_near n;

	value_near_init(&n, name);
	for (size_t i = 0; program_opts[i]; i++)
		value_near_offer(&n, program_opts[i]);
	return value_near_best(&n);
}

static bool is_flag(const char *key)
{
	return !strcmp(key, "parse-only") || !strcmp(key, "dump") ||
	       !strcmp(key, "version") || !strcmp(key, "help") ||
	       !strcmp(key, "topology") || !strcmp(key, "plan") ||
	       !strcmp(key, "verbose");
}

int cmdline_parse(int argc, char **argv, struct cmdline *cl,
		      struct parser *ps, struct diag *d)
{
	cl->formats = REPORT_NORMAL;
	cl->files = calloc((size_t)argc, sizeof(*cl->files));
	cl->file_args = calloc((size_t)argc, sizeof(*cl->file_args));
	cl->sections = calloc((size_t)argc, sizeof(*cl->sections));
	cl->section_args = calloc((size_t)argc, sizeof(*cl->section_args));
	cl->shipped = calloc((size_t)argc, sizeof(*cl->shipped));
	if (!cl->files || !cl->sections || !cl->file_args ||
	    !cl->section_args || !cl->shipped)
		return -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		struct srcloc loc = { "command line", i };
		char shipped[4096];
		char key[128];
		const char *eq, *val;
		size_t klen;

		if (a[0] != '-' || !strcmp(a, "-")) {
			/* in command-line order, among --name jobs; a name
			 * that is no file here may be a shipped job */
			if (strcmp(a, "-") && access(a, R_OK) &&
			    !datadir_find_job(a, shipped, sizeof(shipped)) &&
			    (cl->shipped[cl->nshipped] = strdup(shipped)))
				a = cl->shipped[cl->nshipped++];
			if (strcmp(a, "-") && access(a, R_OK))
				diag_error(d, &loc, NULL, "cannot open job "
					   "file '%s': %m (nor is it a job "
					   "shipped in %s)", a, datadir());
			else
				parser_add_file(ps, a);
			cl->file_args[cl->nfiles] = i;
			cl->files[cl->nfiles++] = a;
			continue;
		}
		if (!strcmp(a, "-h")) {
			cl->help = true;
			continue;
		}
		if (a[1] != '-') {
			diag_error(d, &loc, NULL, "unknown option '%s' (options "
				   "are --name=value; see memjob --help)", a);
			continue;
		}
		a += 2;
		eq = strchr(a, '=');
		klen = eq ? (size_t)(eq - a) : strlen(a);
		val = eq ? eq + 1 : NULL;
		if (klen == 0 || klen >= sizeof(key)) {
			diag_error(d, &loc, NULL, "bad option '%s'", argv[i]);
			continue;
		}
		memcpy(key, a, klen);
		key[klen] = '\0';

		if (!strcmp(key, "output-format")) {
			char why[512];

			if (report_parse_formats(val, &cl->formats, why,
						 sizeof(why)))
				diag_error(d, &loc, "output-format", "%s", why);
		} else if (!strcmp(key, "output")) {
			char why[512];

			if (!val || !*val)
				diag_error(d, &loc, "output", "expected "
					   "--output=FILE");
			else if (outname_check(val, why, sizeof(why)))
				diag_error(d, &loc, "output", "%s", why);
			cl->output = val;
			cl->output_arg = i;
		} else if (!strcmp(key, "details")) {
			char why[512];

			if (report_parse_details(val, &cl->details, why,
						 sizeof(why)))
				diag_error(d, &loc, "details", "%s", why);
		} else if (!strcmp(key, "plot")) {
			char why[512];

			if (!val || !*val)
				diag_error(d, &loc, "plot", "expected "
					   "--plot=FILE.png or FILE.svg");
			else if (plot_check_output(val, why, sizeof(why)))
				diag_error(d, &loc, "plot", "%s", why);
			cl->plot = val;
			cl->plot_arg = i;
		} else if (!strcmp(key, "progress")) {
			static const char *const when[] = { "auto", "always",
							    "never", NULL };
			int w = val ? value_word(val, when) : -1;

			if (w < 0)
				diag_error(d, &loc, "progress", "expected auto, "
					   "always or never, got '%s'",
					   val ? val : "");
			else
				cl->progress = (enum progress_when)w;
		} else if (!strcmp(key, "section")) {
			if (!val || !*val) {
				diag_error(d, &loc, "section", "expected "
					   "--section=NAME");
			} else {
				cl->section_args[cl->nsections] = i;
				cl->sections[cl->nsections++] = val;
			}
		} else if (is_flag(key) && val) {
			diag_error(d, &loc, key, "takes no value, got '--%s=%s'",
				   key, val);
		} else if (!strcmp(key, "parse-only")) {
			cl->parse_only = true;
		} else if (!strcmp(key, "dump")) {
			cl->dump = true;
		} else if (!strcmp(key, "cmdhelp")) {
			cl->want_cmdhelp = true;
			cl->cmdhelp = val;
			cl->cmdhelp_arg = i;
		} else if (!strcmp(key, "version")) {
			cl->version = true;
		} else if (!strcmp(key, "list-events")) {
			cl->want_list_events = true;
			cl->list_events = val ? val : "";
		} else if (!strcmp(key, "topology")) {
			cl->topology = true;
		} else if (!strcmp(key, "plan")) {
			cl->plan = true;
		} else if (!strcmp(key, "verbose")) {
			cl->details = REPORT_DETAIL_ALL;
		} else if (!strcmp(key, "topology-file")) {
			if (!val || !*val)
				diag_error(d, &loc, "topology-file", "expected "
					   "--topology-file=FILE (hwloc XML, or "
					   "a synthetic description)");
			cl->topology_file = val;
		} else if (!strcmp(key, "help")) {
			cl->help = true;
		} else if (opt_find(key)) {
			parser_add_cmdline(ps, key, val, i);
		} else {
			const char *near = opt_nearest(key);
			const char *pnear = nearest_program_opt(key);

			if (pnear)
				near = pnear;
			if (near)
				diag_error(d, &loc, NULL, "unknown option "
					   "'--%s'; did you mean '--%s'?", key,
					   near);
			else
				diag_error(d, &loc, NULL, "unknown option "
					   "'--%s' (see memjob --help and "
					   "--cmdhelp)", key);
		}
	}
	return 0;
}

void cmdline_free(struct cmdline *cl)
{
	free(cl->files);
	for (size_t i = 0; i < cl->nshipped; i++)
		free(cl->shipped[i]);
	free(cl->shipped);
	free(cl->file_args);
	free(cl->sections);
	free(cl->section_args);
}
