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

#include "cmdline.h"
#include "parse/check.h"
#include "config.h"
#include "parse/datadir.h"
#include "util/version.h"
#include "run/exec.h"
#include "run/hostquirks.h"
#include "machine/arch.h"
#include "machine/isa.h"
#include "machine/memcg.h"
#include "parse/help.h"
#include "report/machine.h"
#include "spec/options.h"
#include "parse/optspace.h"
#include "report/outname.h"
#include "parse/parse.h"
#include "plan/estimate.h"
#include "plan/plan.h"
#include "subcommands/plot.h"
#include "run/progress.h"
#include "report/report.h"
#include "subcommands/reportcmd.h"
#include "parse/sweep.h"
#include "machine/sysstat.h"
#include "machine/evlist.h"
#include "machine/evsets.h"
#include "machine/topology.h"
#include "plan/planlist.h"
#include "util/value.h"

enum { EXIT_RAN = 0, EXIT_JOBFAIL = 1, EXIT_USAGE = 2 };

/* The one piece of global state: the signal handler's only way out. */
static atomic_int stop_flag;

static void on_signal(int sig)
{
	atomic_store(&stop_flag, sig);
}

/*
 * Until the jobs are about to start, memjob holds nothing a signal could
 * leave behind (no file made, no cgroup, no thread), and some steps may
 * block or take long in a library (hwloc reading a topology, a FIFO as a
 * job file), where no flag would be looked at: a SIGINT or SIGTERM then
 * ends memjob at once, from the handler.  write(2) and _exit(2) are
 * async-signal-safe; stdio is not.
 */
static void on_startup_signal(int sig)
{
	static const char intr[] = "memjob: SIGINT: interrupted before any "
				   "job started; nothing was run\n";
	static const char term[] = "memjob: SIGTERM: interrupted before any "
				   "job started; nothing was run\n";
	const char *msg = sig == SIGINT ? intr : term;
	size_t len = sig == SIGINT ? sizeof(intr) - 1 : sizeof(term) - 1;

	if (write(STDERR_FILENO, msg, len) < 0)
		_exit(EXIT_JOBFAIL);
	_exit(EXIT_JOBFAIL);
}

static void set_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/*
 * MEMJOB_TEST_PAUSE=STEP, for tests: memjob says so on standard error
 * and waits before that step of its start-up (start, read, topology,
 * check, expand, plan, output) until a signal ends it, so that a test
 * can signal it at a known point instead of guessing with a sleep.
 */
static void startup_step(const char *step)
{
	const char *at = getenv("MEMJOB_TEST_PAUSE");

	if (!at || strcmp(at, step))
		return;
	fprintf(stderr, "memjob: paused before %s (MEMJOB_TEST_PAUSE)\n",
		step);
	for (;;)
		pause();
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

/* A SIGINT or SIGTERM after the start-up's handler gave way to the run's
 * (run()), before the jobs started: nothing has run. */
static bool interrupted_early(void)
{
	int sig = atomic_load(&stop_flag);

	if (!sig)
		return false;
	fprintf(stderr, "memjob: %s: interrupted before any job started; "
		"nothing was run\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
	return true;
}

/* The sample_log of the plan's first job with one that holds rows, or
 * NULL: a time series is what such a run is drawn as. */
static const char *sampled(const struct plan *p)
{
	for (unsigned i = 0; i < p->njobs; i++) {
		const char *path = p->jobs[i].sample_path;
		char line[2][64];
		FILE *f;
		bool rows;

		if (!path || !(f = fopen(path, "r")))
			continue;
		rows = fgets(line[0], sizeof(line[0]), f) &&
		       fgets(line[1], sizeof(line[1]), f);
		fclose(f);
		if (rows)
			return path;
	}
	return NULL;
}

/* --plot=FILE: the run's time series, or its CSV rows, drawn as memjob
 * plot would; 0, or -1 after a message. */
static int plot_run(const struct report_ctx *rc, const struct results *r,
		    const char *out)
{
	const char *samples = sampled(r->plan);
	struct report_ctx csv = *rc;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret = -1;

	if (samples) {
		f = fopen(samples, "r");
		if (f) {
			ret = plot_results(f, samples, out);
			fclose(f);
		}
		return ret ? -1 : 0;
	}
	f = open_memstream(&text, &len);
	if (!f)
		return -1;
	csv.out = f;
	csv.formats = REPORT_CSV;
	if (report_results(&csv, r) | fclose(f)) {
		free(text);
		return -1;
	}
	f = fmemopen(text, len, "r");
	if (f) {
		ret = plot_results(f, "the run's results", out);
		fclose(f);
	}
	free(text);
	return ret ? -1 : 0;
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
	struct run_estimate est;
	char host[256] = "";
	FILE *out = stdout;
	int status;

	startup_step("plan");
	if (plan_build(js, topo, d, &plan)) {
		plan_free(&plan);
		return EXIT_USAGE;
	}
	plan_estimate(&plan, &est);
	if (est.hi_s > ESTIMATE_SAY_S) {	/* a run worth waiting for */
		fputs("memjob: ", stderr);
		estimate_print(stderr, &plan, &est);
	}
	if (cl->parse_only) {
		plan_free(&plan);
		return EXIT_RAN;
	}
	/* the plan's descriptors, which its hard limit allows (checked) */
	if (plan_raise_nofile(&plan))
		diag_plain(d, "cannot raise RLIMIT_NOFILE to %llu: %m",
			   (unsigned long long)plan.nofile);
	startup_step("output");
	/* From here a signal stops the run: the report file is made, and
	 * the jobs look at stop_flag. */
	set_signals(on_signal);
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
	rc.details = cl->details;
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
	{
		static struct machine_quirks quirks;	/* large */

		run_probe_quirks(&quirks, &plan, x.ss, topo, x.root);
		x.quirks = &quirks;
		res.quirks = &quirks;
		rc.quirks = &quirks;
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
	if (cl->plot && plot_run(&rc, &res, cl->plot)) {
		diag_plain(d, "--plot=%s: no picture (see above)", cl->plot);
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

	set_signals(on_startup_signal);		/* first thing */
	/* the subcommands are filters, stopped as one */
	if (argc > 1 && !strcmp(argv[1], "plot")) {
		set_signals(SIG_DFL);
		return plot_main(argc - 1, argv + 1);
	}
	if (argc > 1 && !strcmp(argv[1], "report")) {
		set_signals(SIG_DFL);
		return report_main(argc - 1, argv + 1);
	}
	startup_step("start");
	diag_init(&d, stderr);
	if (isa_init(terr, sizeof(terr))) {	/* before any kernel runs */
		diag_plain(&d, "%s", terr);
		return EXIT_USAGE;
	}
	ps = parser_new(&d);
	startup_step("read");
	if (!ps || cmdline_parse(argc, argv, &cl, ps, &d)) {
		fputs("memjob: out of memory\n", stderr);
		goto out;
	}
	/* The topology, for CPU words, relative sizes and --topology; a
	 * machine hwloc cannot read still runs plain jobs, but a topology
	 * file the user named must be read. */
	tfile = cl.topology_file ? cl.topology_file : topo_env_file();
	startup_step("topology");
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
		cmdline_usage(stdout);
		status = EXIT_RAN;
		goto out;
	}
	if (cl.version) {
		isa_describe(terr, sizeof(terr));
		printf("memjob %s (%s%s%s) kernels: %s\n", memjob_version,
		       ARCH_NAME, MEMJOB_SANITIZE[0] ? ", sanitizers: " : "",
		       MEMJOB_SANITIZE, terr);
		status = EXIT_RAN;
		goto out;
	}
	if (cl.want_list_events) {
		int r = counters_list_events(stdout, cl.list_events);

		status = r ? EXIT_JOBFAIL : EXIT_RAN;
		if (r < 0) {
			char sets[128];

			evsets_names(sets, sizeof(sets));
			diag_plain(&d, "--list-events=%s: no such event set "
				   "(the sets: %s)", cl.list_events, sets);
			status = EXIT_USAGE;
		}
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
	/* The jobs as written, checked once, each error with the line that
	 * set it: what --dump shows and what the rows' job hash is of.  js
	 * itself stays as parsed; the checked values of what runs come with
	 * each point of the expansion (jobs_expand). */
	if (!d.errors && jobset_copy(&shown, &js))
		diag_plain(&d, "out of memory");
	startup_step("check");
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
	startup_step("expand");
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
	cmdline_free(&cl);
	return status;
}
