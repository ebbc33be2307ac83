/*
 * plot.c - memjob plot: read a result CSV (or JSON, or a sample_log),
 * write the gnuplot script of the chart that fits it (plotchart.h,
 * plotlines.h) and have gnuplot draw it into a PNG or SVG (the command
 * is described in plot.h).
 *
 * The one idea: memjob draws nothing itself.  It reads the rows, does
 * what gnuplot cannot (choose the chart from what was varied, group rows
 * into series, fold repeats into medians and intervals, know the
 * machine's cache sizes) and writes a script holding the data inline;
 * gnuplot does the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "subcommands/csvtable.h"
#include "subcommands/plot.h"
#include "subcommands/plotchart.h"
#include "subcommands/plotdata.h"
#include "subcommands/plotlines.h"
#include "subcommands/plotloaded.h"
#include "subcommands/plotseries.h"

enum { PLOT_OK = 0, PLOT_TOOL = 1, PLOT_USAGE = 2 };

struct plot_args {
	const char *csv;
	const char *x, *y;
	const char *output;	/* "-": standard output */
	const char *script;	/* write the script here, run nothing */
	const char *format;	/* "png" or "svg" */
	enum plot_kind chart;	/* --chart, where chart_given */
	bool force, help;
	bool x_given, y_given, chart_given;
};


static void plot_usage(FILE *f)
{
	fputs("usage: memjob plot [--chart=KIND] [--x=COLUMN] [--y=COLUMN] "
	      "[--output=FILE|-]\n"
	      "                   [--format=png|svg] [--script=FILE.gp] "
	      "[--force] [CSV|JSON|-]\n"
	      "\n"
	      "Draws memjob's results (a CSV or JSON report, or a sample_log;\n"
	      "- or nothing: standard input) with gnuplot, in the chart that\n"
	      "fits what the run varied: the victim's latency against its\n"
	      "aggressors' bandwidth for a loaded-latency run (a sweep of their\n"
	      "rate=), lines for a sweep over numbers or sizes, the victim's\n"
	      "slowdown with its 95% interval for an interference run, bars\n"
	      "per job for phases, lines over time for a time series.\n"
	      "\n"
	      "  --chart=KIND   this chart instead of the one that fits:\n"
	      "                 loaded-latency, slowdown, lines, bars, series,\n"
	      "                 or auto (the default)\n"
	      "  --x=COLUMN     a line chart with this x axis (default: what\n"
	      "                 was swept)\n"
	      "  --y=COLUMN     a line chart of this column (default:\n"
	      "                 ns_per_item, else metric)\n"
	      "  --output=FILE  the picture, PNG or SVG by its name (default:\n"
	      "                 the input's name with .png; needed when\n"
	      "                 reading standard input); - writes it to\n"
	      "                 standard output\n"
	      "  --format=FMT   png or svg, whatever the name says\n"
	      "  --script=FILE  write the gnuplot script (data included) to\n"
	      "                 FILE instead: gnuplot FILE draws the picture\n"
	      "                 later, on a machine that has gnuplot\n"
	      "  --force        replace the picture (or script) if it exists\n"
	      "\n"
	      "See memjob(1).\n", f);
}

/* Whether s is one of the options that take a value, without one. */
static bool needs_value(const char *s)
{
	static const char *const valued[] = { "--x", "--y", "--output",
					      "--script", "--format", "--chart",
					      NULL };

	for (unsigned i = 0; valued[i]; i++) {
		size_t n = strlen(valued[i]);

		if (!strncmp(s, valued[i], n) &&
		    (!s[n] || (s[n] == '=' && !s[n + 1])))
			return true;
	}
	return false;
}

static int parse_plot_args(int argc, char **argv, struct plot_args *a)
{
	a->x = "size";
	a->y = "ns_per_item";
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!strncmp(s, "--x=", 4) && s[4]) {
			a->x = s + 4;
			a->x_given = true;
		} else if (!strncmp(s, "--format=", 9) && s[9]) {
			a->format = s + 9;
			if (strcmp(a->format, "png") &&
			    strcmp(a->format, "svg")) {
				fprintf(stderr, "memjob plot: --format: "
					"expected png or svg, got '%s'\n",
					a->format);
				return -1;
			}
		} else if (!strncmp(s, "--chart=", 8) && s[8]) {
			a->chart_given = strcmp(s + 8, "auto") != 0;
			if (a->chart_given && plot_kind_parse(s + 8, &a->chart)) {
				fprintf(stderr, "memjob plot: --chart: expected "
					"auto, %s, got '%s'\n", PLOT_KIND_WORDS,
					s + 8);
				return -1;
			}
		} else if (!strncmp(s, "--y=", 4) && s[4]) {
			a->y = s + 4;
			a->y_given = true;
		} else if (!strncmp(s, "--output=", 9) && s[9]) {
			a->output = s + 9;
		} else if (!strncmp(s, "--script=", 9) && s[9]) {
			a->script = s + 9;
		} else if (!strcmp(s, "--force")) {
			a->force = true;
		} else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			a->help = true;
		} else if (s[0] == '-' && s[1]) {
			fprintf(stderr, "memjob plot: %s option '%s' (see "
				"memjob plot --help)\n", needs_value(s) ?
				"a value is missing in" : "unknown", s);
			return -1;
		} else if (a->csv) {
			fprintf(stderr, "memjob plot: one CSV at a time, got "
				"'%s' and '%s'\n", a->csv, s);
			return -1;
		} else {
			a->csv = s;
		}
	}
	if (a->chart_given && a->chart != PLOT_LINES &&
	    (a->x_given || a->y_given)) {
		fprintf(stderr, "memjob plot: --x and --y choose a line chart's "
			"columns; --chart=%s draws no line chart (drop one or "
			"the other)\n", plot_kind_word(a->chart));
		return -1;
	}
	if (!a->csv)
		a->csv = "-";
	return 0;
}

/* The default PNG beside a file: NAME.csv or NAME.gp -> NAME.png,
 * anything else + .png. */
static char *default_output(const char *path)
{
	size_t n = strlen(path);
	char *out;

	if (n > 4 && !strcmp(path + n - 4, ".csv"))
		n -= 4;
	else if (n > 3 && !strcmp(path + n - 3, ".gp"))
		n -= 3;
	out = malloc(n + 5);
	if (out)
		snprintf(out, n + 5, "%.*s.png", (int)n, path);
	return out;
}

/* Whether an executable named prog is on PATH. */
static bool on_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[4096];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		size_t len;

		end = strchr(p, ':');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0)
			snprintf(buf, sizeof(buf), "./%s", prog);
		else
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, p, prog);
		if (!access(buf, X_OK))
			return true;
		if (!end)
			return false;
	}
}

/* Run gnuplot on script; 0 when it exits with 0. */
static int run_gnuplot(const char *script)
{
	char *argv[] = { "gnuplot", (char *)script, NULL };
	pid_t pid;
	int st, r;

	r = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
	if (r) {
		fprintf(stderr, "memjob plot: cannot run gnuplot: %s\n",
			strerror(r));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			perror("memjob plot: waitpid");
			return -1;
		}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		fprintf(stderr, "memjob plot: gnuplot failed (exit status "
			"%d)\n", WEXITSTATUS(st));
	else
		fprintf(stderr, "memjob plot: gnuplot was killed by signal "
			"%d\n", WTERMSIG(st));
	return -1;
}

/* Whether path holds a PNG (its 8-byte signature) or an SVG (an XML
 * file with an <svg element near its start). */
static bool is_picture(const char *path, bool svg)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r',
					      '\n', 0x1a, '\n' };
	unsigned char buf[512];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (svg)
		return n > 5 && strstr((const char *)buf, "<svg");
	return n >= sizeof(sig) && !memcmp(buf, sig, sizeof(sig));
}

/* Move tmp to out; without force never over an existing file. */
static int publish(const char *tmp, const char *out, bool force)
{
	if (force) {
		if (!rename(tmp, out))
			return 0;
	} else if (!link(tmp, out)) {
		unlink(tmp);
		return 0;
	} else if (errno == EEXIST) {
		fprintf(stderr, "memjob plot: '%s' exists; --force replaces "
			"it\n", out);
		return -1;
	} else if (access(out, F_OK) && !rename(tmp, out)) {
		/* a file system without hard links */
		return 0;
	}
	fprintf(stderr, "memjob plot: cannot write '%s': %s\n", out,
		strerror(errno));
	return -1;
}

/* A temporary file next to path (same directory, so rename is atomic),
 * readable as the umask allows.  Returns its malloc'd name, or NULL. */
static char *temp_beside(const char *path)
{
	const char *slash = strrchr(path, '/');
	int dlen = slash ? (int)(slash - path + 1) : 0;
	size_t len = strlen(path) + 16;
	char *tmp = malloc(len);
	mode_t um;
	int fd;

	if (!tmp)
		return NULL;
	snprintf(tmp, len, "%.*s.%s.XXXXXX", dlen, path, path + dlen);
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "memjob plot: cannot write in the directory "
			"of '%s': %s\n", path, strerror(errno));
		free(tmp);
		return NULL;
	}
	um = umask(022);
	umask(um);
	if (fchmod(fd, 0666 & ~um))
		perror("memjob plot: fchmod");
	close(fd);
	return tmp;
}

/* Whether the picture is an SVG: --format, else the output's name. */
static bool want_svg(const struct plot_args *a, const char *out)
{
	size_t n = out ? strlen(out) : 0;

	if (a->format)
		return !strcmp(a->format, "svg");
	return n > 4 && !strcasecmp(out + n - 4, ".svg");
}

/* The terminal and output lines: pngcairo where gnuplot has it. */
static void put_terminal(FILE *f, bool svg, const char *path)
{
	if (svg)
		fputs("set terminal svg size 1100,700 noenhanced font "
		      "'sans,11' background rgb 'white'\n", f);
	else
		fputs("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		      "\tset terminal pngcairo size 1100,700 noenhanced "
		      "font ',10'\n"
		      "} else {\n"
		      "\tset terminal png size 1100,700 noenhanced\n"
		      "}\n", f);
	fputs("set output ", f);
	plot_put_quoted(f, path);
	fputc('\n', f);
}

/* The whole script for the table: the chart a asks for (--chart; --x,
 * --y: lines) or the one the rows call for, a loaded-latency curve first
 * (plotloaded.h), else plot_choose's.  0, or -1 with a sentence in err. */
static int put_script(FILE *f, const struct csv_table *t,
		      const struct plot_args *a, const char *path, bool svg,
		      char *err, size_t errlen)
{
	char x[128];
	enum plot_kind k = PLOT_LINES;
	struct plot_data pd;

	snprintf(x, sizeof(x), "%s", a->x);
	if (a->chart_given) {
		k = a->chart;
		if (k == PLOT_LINES && !a->x_given && !a->y_given)
			plot_choose(t, x, sizeof(x));	/* its x, if lines */
		if (k == PLOT_SERIES && (csv_table_col(t, "t_s") < 0 ||
					 csv_table_col(t, "job_mbps") < 0)) {
			snprintf(err, errlen, "--chart=series: %s has no "
				 "columns t_s and job_mbps (a sample_log's)",
				 t->name);
			return -1;
		}
	} else if (!a->x_given && !a->y_given) {
		k = plot_loaded_curve(t) ? PLOT_LOADED :
		    plot_choose(t, x, sizeof(x));
	}
	fprintf(f, "# memjob plot: a %s chart of %s\n", plot_kind_name(k),
		t->name);
	put_terminal(f, svg, path);
	if (k == PLOT_SERIES)
		return plot_series_script(f, t, err, errlen);
	if (k == PLOT_SLOWDOWN)
		return plot_slowdown_script(f, t, err, errlen);
	if (k == PLOT_LOADED)
		return plot_loaded_script(f, t, err, errlen);
	if (k == PLOT_BARS)
		return plot_bars_script(f, t, err, errlen);
	if (plot_data_build(&pd, t, x, a->y, !a->y_given, err, errlen))
		return -1;
	plot_put_title(f, t);
	plot_lines_script(f, &pd, x);
	plot_data_free(&pd);
	return 0;
}

/* --script: the script that draws out, into a->script. */
static int save_script(const struct csv_table *t, const struct plot_args *a,
		       const char *out)
{
	int flags = O_WRONLY | O_CREAT | (a->force ? O_TRUNC : O_EXCL);
	char err[512];
	FILE *f;
	int fd, ret = PLOT_OK;

	fd = open(a->script, flags, 0666);
	if (fd < 0) {
		fprintf(stderr, "memjob plot: cannot write '%s': %s%s\n",
			a->script, strerror(errno),
			errno == EEXIST ? "; --force replaces it" : "");
		return PLOT_USAGE;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(a->script);
		return PLOT_TOOL;
	}
	if (put_script(f, t, a, out, want_svg(a, out), err, sizeof(err))) {
		fprintf(stderr, "memjob plot: %s\n", err);
		ret = PLOT_USAGE;
	}
	if (fclose(f) && !ret) {
		fprintf(stderr, "memjob plot: cannot write '%s': %s\n",
			a->script, strerror(errno));
		ret = PLOT_TOOL;
	}
	if (ret)
		unlink(a->script);
	return ret;
}

/* The picture at pic to standard output. */
static int copy_out(const char *pic)
{
	char buf[65536];
	FILE *f = fopen(pic, "rb");
	size_t n;
	int ret = 0;

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			ret = -1;
	fclose(f);
	if (fflush(stdout) || ret) {
		fprintf(stderr, "memjob plot: writing the picture to standard "
			"output: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* A temporary file for the picture: beside out (so that the rename is
 * atomic), or in TMPDIR when it goes to standard output. */
static char *temp_picture(const char *out)
{
	const char *tmpdir = getenv("TMPDIR");
	char path[4096];

	if (strcmp(out, "-"))
		return temp_beside(out);
	snprintf(path, sizeof(path), "%s/memjob-picture",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	return temp_beside(path);
}

/* Write the script, run gnuplot into a temporary picture, move it to out
 * (or copy it to standard output). */
static int draw(const struct csv_table *t, const struct plot_args *a,
		const char *out)
{
	const char *tmpdir = getenv("TMPDIR");
	bool svg = want_svg(a, out);
	char sp[4096], err[512];
	char *pic = NULL;
	FILE *f = NULL;
	int fd, ret = PLOT_TOOL;

	snprintf(sp, sizeof(sp), "%s/memjob-plot.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(sp);
	if (fd < 0) {
		fprintf(stderr, "memjob plot: cannot create a temporary "
			"script: %s\n", strerror(errno));
		return PLOT_TOOL;
	}
	pic = temp_picture(out);
	if (!pic) {
		close(fd);
		ret = PLOT_USAGE;
		goto out_script;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		goto out_pic;
	}
	if (put_script(f, t, a, pic, svg, err, sizeof(err))) {
		fprintf(stderr, "memjob plot: %s\n", err);
		fclose(f);
		ret = PLOT_USAGE;
		goto out_pic;
	}
	if (fclose(f)) {
		fprintf(stderr, "memjob plot: cannot write the script: %s\n",
			strerror(errno));
		goto out_pic;
	}
	if (run_gnuplot(sp))
		goto out_pic;
	if (!is_picture(pic, svg)) {
		fprintf(stderr, "memjob plot: gnuplot wrote no %s\n",
			svg ? "SVG" : "PNG");
		goto out_pic;
	}
	if (!strcmp(out, "-"))
		ret = copy_out(pic) ? PLOT_TOOL : PLOT_OK;
	else
		ret = publish(pic, out, a->force) ? PLOT_USAGE : PLOT_OK;
out_pic:
	unlink(pic);		/* gone already when published */
	free(pic);
out_script:
	unlink(sp);
	return ret;
}

/* The picture's name: --output, or beside the script or the input. */
static char *output_name(const struct plot_args *a)
{
	if (a->output)
		return strdup(a->output);
	if (a->script)
		return default_output(a->script);
	if (strcmp(a->csv, "-"))
		return default_output(a->csv);
	return NULL;
}

/* What the command does once its input is read: script or picture. */
static int plot_table(const struct csv_table *t, const struct plot_args *a,
		      const char *out)
{
	const char *target = a->script ? a->script : out;

	if (!a->force && strcmp(target, "-") && !access(target, F_OK)) {
		fprintf(stderr, "memjob plot: '%s' exists; --force replaces "
			"it\n", target);
		return PLOT_USAGE;
	}
	if (a->script)
		return save_script(t, a, out);
	if (!on_path("gnuplot")) {
		fprintf(stderr, "memjob plot: gnuplot is not installed "
			"(apt-get install gnuplot-nox)\n");
		return PLOT_TOOL;
	}
	return draw(t, a, out);
}

int plot_check_output(const char *path, char *why, size_t len)
{
	size_t n = strlen(path);

	if (n < 5 || (strcasecmp(path + n - 4, ".png") &&
		      strcasecmp(path + n - 4, ".svg"))) {
		snprintf(why, len, "expected a name ending in .png or .svg, "
			 "got '%s'", path);
		return -1;
	}
	if (!access(path, F_OK)) {
		snprintf(why, len, "'%s' exists: memjob does not write over a "
			 "file it did not create; remove it or name another",
			 path);
		return -1;
	}
	return 0;
}

int plot_results(FILE *in, const char *name, const char *out)
{
	struct plot_args a = { .x = "size", .y = "ns_per_item", .csv = name };
	struct csv_table t;
	char err[512];
	int ret;

	if (csv_table_read(&t, in, name, NULL, err, sizeof(err))) {
		fprintf(stderr, "memjob: --plot: %s\n", err);
		return PLOT_USAGE;
	}
	ret = plot_table(&t, &a, out);
	csv_table_free(&t);
	return ret;
}

int plot_main(int argc, char **argv)
{
	struct plot_args a = { 0 };
	struct csv_table t;
	char err[512], *out;
	int ret = PLOT_USAGE;

	if (parse_plot_args(argc, argv, &a))
		return PLOT_USAGE;
	if (a.help) {
		plot_usage(stdout);
		return PLOT_OK;
	}
	if (!a.output && !a.script && !strcmp(a.csv, "-")) {
		fprintf(stderr, "memjob plot: reading standard input: say "
			"where the picture goes with --output=FILE.png (or - "
			"for standard output)\n");
		return PLOT_USAGE;
	}
	out = output_name(&a);
	if (!out) {
		fprintf(stderr, "memjob plot: out of memory\n");
		return PLOT_TOOL;
	}
	if (csv_table_load(&t, a.csv, NULL, err, sizeof(err))) {
		fprintf(stderr, "memjob plot: %s\n", err);
		goto out;
	}
	ret = plot_table(&t, &a, out);
	csv_table_free(&t);
out:
	free(out);
	return ret;
}
