/*
 * main.c - the memjob command: arguments, then parse -> check -> plan ->
 * execute -> report, each stage handing the next a finished value.
 *
 * Exit status: 0 every job ran to completion; 1 a job failed or the run
 * was stopped by a signal; 2 the job file or the command line is wrong
 * (nothing was started, nothing was created).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/check.h"
#include "config.h"
#include "parse/datadir.h"
#include "util/version.h"
#include "run/exec.h"
#include "machine/isa.h"
#include "machine/memcg.h"
#include "parse/help.h"
#include "report/machine.h"
#include "spec/options.h"
#include "parse/optspace.h"
#include "report/outname.h"
#include "parse/parse.h"
#include "plan/plan.h"
#include "subcommands/plot.h"
#include "run/progress.h"
#include "report/report.h"
#include "subcommands/reportcmd.h"
#include "parse/sweep.h"
#include "machine/sysstat.h"
#include "machine/topology.h"
#include "plan/planlist.h"
#include "util/value.h"

enum { EXIT_RAN = 0, EXIT_JOBFAIL = 1, EXIT_USAGE = 2 };

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
	const char *output;
	int output_arg;
	int cmdhelp_arg;
	bool parse_only, dump, version, help, topology, plan;
	const char *topology_file;	/* --topology-file, or NULL */
	const char *cmdhelp;
	bool want_cmdhelp;
	enum progress_when progress;
};

/* The one piece of global state: the signal handler's only way out. */
static atomic_int stop_flag;

static void on_signal(int sig)
{
	atomic_store(&stop_flag, sig);
}

static const char *const program_opts[] = {
	"output-format", "output", "section", "parse-only", "dump", "cmdhelp",
	"version", "help", "topology", "progress", "topology-file", "plan",
	NULL
};

static void usage(FILE *f)
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
	      "  --section=NAME        run only this job (repeatable)\n"
	      "  --parse-only          check the jobs and exit\n"
	      "  --dump                print the resolved jobs as a job file\n"
	      "  --cmdhelp[=OPTION]    list job options, or explain one\n"
	      "  --topology            print caches, SMT siblings, NUMA nodes\n"
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
	       !strcmp(key, "topology") || !strcmp(key, "plan");
}

/* Program options are handled here; job options go to the parser. */
static int parse_args(int argc, char **argv, struct cmdline *cl,
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
		} else if (!strcmp(key, "topology")) {
			cl->topology = true;
		} else if (!strcmp(key, "plan")) {
			cl->plan = true;
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

/* The identity of the run's rows: the machine, and the jobs as --dump
 * prints them (before the sweeps expand them). */
static void machine_of_run(struct machine_id *m, const struct topo *t,
			   const struct jobset *js)
{
	const char *root = getenv("MEMJOB_SYSROOT");
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	machine_id_init(m, t, root ? root : "/");
	f = open_memstream(&text, &len);
	if (f) {
		help_dump(f, js);
		fclose(f);
	}
	machine_job_hash(m, text ? text : "", text ? len : 0);
	free(text);
}

/* --topology in each format asked for, in the order of the report. */
static int print_topology(const struct topo *t, unsigned formats,
			  struct diag *d)
{
	static const struct { unsigned bit; enum topo_format as; } in[] = {
		{ REPORT_NORMAL, TOPO_TEXT }, { REPORT_CSV, TOPO_CSV },
		{ REPORT_JSON, TOPO_JSON },
	};

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		if (!(formats & in[i].bit))
			continue;
		report_separate(stdout, formats, in[i].bit);
		if (topo_print(stdout, t, in[i].as)) {
			diag_plain(d, "out of memory: no JSON topology");
			return EXIT_JOBFAIL;
		}
	}
	return EXIT_RAN;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/*
 * --output: FILE as given (truncated), or the name its pattern makes for
 * this host and task, created and never written over (outname.h).  NULL
 * after a message.
 */
static FILE *open_output(const struct cmdline *cl, const char *host,
			 struct diag *d)
{
	struct srcloc loc = { "command line", cl->output_arg };
	char name[4096], why[512];
	const char *path = cl->output;
	int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, fd;
	FILE *f;

	if (outname_is_pattern(cl->output)) {
		if (outname_expand(cl->output, host, name, sizeof(name), why,
				   sizeof(why))) {
			diag_error(d, &loc, "output", "%s", why);
			return NULL;
		}
		path = name;
		flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
	}
	fd = open(path, flags, 0666);
	if (fd < 0 && errno == EEXIST) {
		diag_error(d, &loc, "output", "'%s' (from '%s') exists: "
			   "memjob does not write over a file it did not "
			   "create; remove it or change the pattern", path,
			   cl->output);
		return NULL;
	}
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		diag_error(d, &loc, "output", "cannot write '%s': %m", path);
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/* A SIGINT or SIGTERM while the jobs were read, checked and planned (the
 * handlers are installed first thing): nothing has run, nothing made. */
static bool interrupted_early(void)
{
	int sig = atomic_load(&stop_flag);

	if (!sig)
		return false;
	fprintf(stderr, "memjob: %s: interrupted before any job started; "
		"nothing was run\n", strsignal(sig));
	return true;
}

/* Does a job of the plan ask for memory_limit? */
static bool memory_limited(const struct plan *p)
{
	for (unsigned i = 0; i < p->njobs; i++)
		if (p->jobs[i].spec->memory_limit)
			return true;
	return false;
}

static int run(struct cmdline *cl, struct jobset *js,
	       const struct sweep_notes *notes, const struct topo *topo,
	       const struct machine_id *machine, struct diag *d)
{
	struct plan plan;
	struct results res;
	struct exec_ctx x = { 0 };
	struct report_ctx rc = { 0 };
	char host[256] = "";
	FILE *out = stdout;
	int status;

	if (plan_build(js, topo, d, &plan)) {
		plan_free(&plan);
		return interrupted_early() ? EXIT_JOBFAIL : EXIT_USAGE;
	}
	if (cl->parse_only) {
		plan_free(&plan);
		return EXIT_RAN;
	}
	gethostname(host, sizeof(host) - 1);
	if (cl->output) {
		out = open_output(cl, host, d);
		if (!out) {
			plan_free(&plan);
			return EXIT_USAGE;
		}
	}
	if (results_init(&res, &plan)) {
		diag_plain(d, "out of memory");
		status = EXIT_JOBFAIL;
		goto out_plan;
	}
	rc.out = out;
	rc.formats = cl->formats;
	rc.host = host;
	rc.machine = machine;
	rc.notes = notes;
	rc.topo = topo;
	x.plan = &plan;
	x.res = &res;
	{
		static struct sysstat ss;	/* large: not on the stack */
		char err[256];
		const char *root = getenv("MEMJOB_SYSROOT");

		x.root = root;
		if (!sysstat_init(&ss, root ? root : "/", err, sizeof(err))) {
			x.ss = &ss;
			res.ss = &ss;
			rc.ss = &ss;
		}
	}
	x.stop = &stop_flag;
	x.progress = cl->progress == PROGRESS_ALWAYS ||
		     (cl->progress == PROGRESS_AUTO && isatty(STDERR_FILENO))
		     ? stderr : NULL;

	if (interrupted_early()) {
		status = EXIT_JOBFAIL;
		goto out_results;
	}
	if (memory_limited(&plan)) {
		static struct memcg mcg;	/* PATH_MAX twice */
		char err[1024];

		/* plan_build found it; it may be gone since */
		if (memcg_locate(&mcg, err, sizeof(err))) {
			fprintf(stderr, "memjob: memory_limit: %s; nothing was "
				"run\n", err);
			status = EXIT_JOBFAIL;
			goto out_results;
		}
		x.memcg = &mcg;
		rc.memcg = &mcg;
	}
	report_header(&rc, &plan);
	status = exec_run(&x) ? EXIT_JOBFAIL : EXIT_RAN;
	if (atomic_load(&stop_flag) > 0) {
		int sig = atomic_load(&stop_flag);

		fprintf(stderr, "memjob: stopped by %s; the report covers "
			"what was measured until then\n", strsignal(sig));
		rc.stopped_by = sig == SIGINT ? "SIGINT" : "SIGTERM";
	}
	if (report_results(&rc, &res)) {
		diag_plain(d, "out of memory: the JSON report is left out");
		status = EXIT_JOBFAIL;
	}
	exec_cleanup(&x);
out_results:
	results_free(&res);
out_plan:
	/* a report that could not be written (a full disk) is a failure */
	if (out == stdout && (fflush(out) || ferror(out))) {
		diag_plain(d, "writing the report to standard output: %m");
		status = EXIT_JOBFAIL;
	}
	if (out != stdout && (ferror(out) | fclose(out))) {
		diag_plain(d, "--output=%s: %m", cl->output);
		status = EXIT_JOBFAIL;
	}
	plan_free(&plan);
	return status;
}

int main(int argc, char **argv)
{
	struct cmdline cl = { 0 };
	struct diag d;
	struct parser *ps;
	struct jobset js = { 0 }, shown = { 0 }, runs = { 0 };
	struct sweep_notes notes = { 0 };
	struct topo topo, *t = NULL;
	struct machine_id machine;
	const char *tfile;
	char terr[1024];
	int status = EXIT_USAGE;

	if (argc > 1 && !strcmp(argv[1], "plot"))
		return plot_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_main(argc - 1, argv + 1);
	install_signals();	/* before anything that may take a while */
	diag_init(&d, stderr);
	if (isa_init(terr, sizeof(terr))) {	/* before any kernel runs */
		diag_plain(&d, "%s", terr);
		return EXIT_USAGE;
	}
	ps = parser_new(&d);
	if (!ps || parse_args(argc, argv, &cl, ps, &d)) {
		fputs("memjob: out of memory\n", stderr);
		goto out;
	}
	/* The topology, for CPU words, relative sizes and --topology; a
	 * machine hwloc cannot read still runs plain jobs, but a topology
	 * file the user named must be read. */
	tfile = cl.topology_file ? cl.topology_file : topo_env_file();
	if (!topo_load(&topo, tfile, terr, sizeof(terr)))
		t = &topo;
	else if (tfile)
		diag_plain(&d, "%s: %s", cl.topology_file ? "--topology-file" :
			   "MEMJOB_TOPOLOGY_FILE", terr);
	if (cl.topology) {
		if (d.errors) {
			diag_plain(&d, "%u error%s; nothing was run", d.errors,
				   d.errors == 1 ? "" : "s");
			goto out;
		}
		if (!t) {
			diag_plain(&d, "cannot read the topology: %s", terr);
			goto out;
		}
		status = print_topology(t, cl.formats, &d);
		goto out;
	}
	if (cl.help) {
		usage(stdout);
		status = EXIT_RAN;
		goto out;
	}
	if (cl.version) {
		isa_describe(terr, sizeof(terr));
		printf("memjob %s%s%s%s kernels: %s\n", memjob_version,
		       MEMJOB_SANITIZE[0] ? " (sanitizers: " : "",
		       MEMJOB_SANITIZE, MEMJOB_SANITIZE[0] ? ")" : "", terr);
		status = EXIT_RAN;
		goto out;
	}
	if (cl.want_cmdhelp) {
		status = EXIT_RAN;
		if (help_cmdhelp(stdout, cl.cmdhelp)) {
			struct srcloc loc = { "command line", cl.cmdhelp_arg };
			const char *near = opt_nearest(cl.cmdhelp);

			diag_error(&d, &loc, "cmdhelp", "no option '%s'%s%s%s",
				   cl.cmdhelp, near ? "; did you mean '" : "",
				   near ? near : "", near ? "'?" : "");
			status = EXIT_USAGE;
		}
		goto out;
	}
	parser_report_pending(ps);
	if (d.errors) {
		diag_plain(&d, "%u error%s; nothing was run", d.errors,
			   d.errors == 1 ? "" : "s");
		goto out;
	}
	if (!parser_finish(ps, cl.sections, cl.nsections, &js))
		for (size_t i = 0; i < cl.nsections; i++) {
			struct srcloc loc = { "command line",
					      cl.section_args[i] };
			bool found = false;

			for (size_t k = 0; k < js.njobs; k++)
				found |= !strcmp(js.jobs[k].name,
						 cl.sections[i]);
			if (!found)
				diag_error(&d, &loc, "section", "no job named "
					   "'%s'", cl.sections[i]);
		}
	if (interrupted_early()) {	/* (a read of stdin returned early) */
		status = EXIT_JOBFAIL;
		goto out;
	}
	/* The jobs as written, checked once, each error with the line that
	 * set it: what --dump shows and what the rows' job hash is of.  js
	 * itself stays as parsed; the checked values of what runs come with
	 * each point of the expansion (jobs_expand). */
	if (!d.errors && jobset_copy(&shown, &js))
		diag_plain(&d, "out of memory");
	if (d.errors || jobs_check(&shown, t, &d)) {
		diag_plain(&d, "%u error%s; nothing was run", d.errors,
			   d.errors == 1 ? "" : "s");
		goto out;
	}
	if (cl.dump) {
		help_dump(stdout, &shown);
		status = EXIT_RAN;
		goto out;
	}
	if (interrupted_early()) {
		status = EXIT_JOBFAIL;
		goto out;
	}
	if (jobs_expand(&js, &runs, &notes, t, &d)) {
		diag_plain(&d, "%u error%s; nothing was run", d.errors,
			   d.errors == 1 ? "" : "s");
		goto out;
	}
	if (cl.plan) {
		status = plan_list(stdout, &runs, &notes, t) ? EXIT_JOBFAIL :
			 EXIT_RAN;
		goto out;
	}
	if (t && t->from_file && !cl.parse_only) {
		diag_plain(&d, "the topology comes from %s: memjob plans jobs "
			   "for it (--plan, --dump, --parse-only, --topology) "
			   "but runs them only on this machine's own",
			   t->src.origin);
		goto out;
	}
	machine_of_run(&machine, t, &shown);
	status = run(&cl, &runs, &notes, t, &machine, &d);
	if (status == EXIT_USAGE)
		diag_plain(&d, "%u error%s; nothing was run", d.errors,
			   d.errors == 1 ? "" : "s");
out:
	jobset_free(&runs);
	sweep_notes_free(&notes);
	jobset_free(&shown);
	jobset_free(&js);
	if (t)
		topo_free(t);
	parser_free(ps);
	free(cl.files);
	for (size_t i = 0; i < cl.nshipped; i++)
		free(cl.shipped[i]);
	free(cl.shipped);
	free(cl.file_args);
	free(cl.sections);
	free(cl.section_args);
	return status;
}
