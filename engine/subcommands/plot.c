/*
 * plot.c - memjob plot: read a result CSV, group its rows into series and
 * have gnuplot draw them into a PNG (the command is described in plot.h).
 *
 * The one idea: memjob draws nothing itself.  It reads the CSV with
 * libcsv, does what gnuplot cannot (group rows into series by their sweep
 * point, fold repeats into medians, know the machine's cache sizes) and
 * writes a gnuplot script holding the data inline; gnuplot does the rest.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/knee.h"
#include "subcommands/plot.h"
#include "subcommands/plotdata.h"
#include "machine/topology.h"
#include "util/value.h"

enum { PLOT_OK = 0, PLOT_TOOL = 1, PLOT_USAGE = 2 };

#define PLOT_MAX_TICS	10

struct plot_args {
	const char *csv;
	const char *x, *y;
	const char *output;
	const char *script;	/* write the script here, run nothing */
	bool force, help;
	bool y_given;
};

static void plot_usage(FILE *f)
{
	fputs("usage: memjob plot [--x=COLUMN] [--y=COLUMN] [--output=FILE.png] "
	      "[--script=FILE.gp] [--force] [CSV|-]\n"
	      "\n"
	      "Draws a memjob result CSV (- or nothing: standard input) as a PNG\n"
	      "with gnuplot, one line per job and sweep point.\n"
	      "\n"
	      "  --x=COLUMN     the x axis (default: size)\n"
	      "  --y=COLUMN     the y axis (default: ns_per_item, else metric)\n"
	      "  --output=FILE  the PNG (default: the CSV's name with .png;\n"
	      "                 needed when reading standard input)\n"
	      "  --script=FILE  write the gnuplot script (data included) to\n"
	      "                 FILE instead: gnuplot FILE draws the PNG later,\n"
	      "                 on a machine that has gnuplot\n"
	      "  --force        replace the PNG (or script) if it exists\n"
	      "\n"
	      "See memjob(1).\n", f);
}

/* Whether s is one of the options that take a value, without one. */
static bool needs_value(const char *s)
{
	static const char *const valued[] = { "--x", "--y", "--output",
					      "--script", NULL };

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

/* s as a gnuplot single-quoted string ('' is a quote inside). */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else if ((unsigned char)*s < ' ')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* Tics at powers of two, labelled in binary units, at most PLOT_MAX_TICS. */
static void put_size_tics(FILE *f, double lo, double hi)
{
	int a = (int)ceil(log2(lo)), b = (int)floor(log2(hi)), step = 1, e;
	bool first = true;
	char buf[32];

	if (a > b)		/* no power of two in range: gnuplot's tics */
		return;
	while ((b - a) / step + 1 > PLOT_MAX_TICS)
		step++;
	fputs("set xtics (", f);
	for (e = a; e <= b; e += step) {
		double v = ldexp(1, e);

		fprintf(f, "%s\"%s\" %.17g", first ? "" : ", ",
			value_format_bytes(v, buf, sizeof(buf)), v);
		first = false;
	}
	fputs(")\n", f);
}

/* The dashed lines at the cache sizes of this machine's first CPU. */
static void put_caches(FILE *f, const struct plot_data *pd, double lo,
		       double hi)
{
	const struct topo_cache *lv[KNEE_MAX_LEVELS];
	const char *root = topo_env_file();
	char err[512], name[16], size[32], host[256] = "";
	struct topo t;
	unsigned cpu, n, i;

	if (topo_load(&t, root, err, sizeof(err))) {
		fprintf(stderr, "memjob plot: no cache sizes to mark: %s\n",
			err);
		return;
	}
	if (!root && pd->host && !gethostname(host, sizeof(host) - 1) &&
	    strcmp(host, pd->host))
		fprintf(stderr, "memjob plot: the rows come from host '%s'; "
			"the dashed cache sizes are this machine's ('%s')\n",
			pd->host, host);
	for (cpu = 0; cpu < t.ncpus && !t.cpus[cpu].present; cpu++)
		;
	n = cpu < t.ncpus ? knee_levels(&t, cpu, lv, KNEE_MAX_LEVELS) : 0;
	for (i = 0; i < n; i++) {
		double s = (double)lv[i]->size;

		if (s < lo || s > hi)
			continue;
		topo_cache_name(lv[i], name, sizeof(name));
		value_format_bytes(s, size, sizeof(size));
		fprintf(f, "set arrow from %.17g, graph 0 to %.17g, graph 1 "
			"nohead dashtype 2 linewidth 1.5 linecolor rgb "
			"'#707070'\n", s, s);
		fprintf(f, "set label '%s %s' at %.17g, graph 0.98 right "
			"rotate by 90 offset -1.2,0 textcolor rgb '#505050'\n",
			name, size, s);
	}
	topo_free(&t);
}

static void put_data(FILE *f, const struct plot_data *pd)
{
	for (unsigned s = 0; s < pd->nseries; s++) {
		const struct plot_series *ps = &pd->series[s];

		fprintf(f, "$d%u << EOD\n", s);
		for (unsigned i = 0; i < ps->n; i++)
			fprintf(f, "%.17g %.17g\n", ps->x[i], ps->y[i]);
		fputs("EOD\n", f);
	}
}

/* The whole gnuplot script: data, axes, caches, plot. */
static void put_script(FILE *f, const struct plot_data *pd,
		       const struct plot_args *a, const char *png,
		       const char *title)
{
	double xlo = pd->xmin, xhi = pd->xmax;

	put_data(f, pd);
	fputs("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
	      "\tset terminal pngcairo size 1100,700 noenhanced font ',10'\n"
	      "} else {\n"
	      "\tset terminal png size 1100,700 noenhanced\n"
	      "}\n", f);
	fputs("set output ", f);
	put_quoted(f, png);
	fputs("\nset title ", f);
	put_quoted(f, title);
	fputs("\nset grid\nset key bottom right box opaque\n", f);
	if (pd->size_axis) {
		if (xlo == xhi) {
			xlo /= 2;
			xhi *= 2;
		} else {
			xlo /= 1.2;
			xhi *= 1.2;
		}
		fputs("set logscale x 2\n", f);
		fprintf(f, "set xrange [%.17g:%.17g]\n", xlo, xhi);
		put_size_tics(f, xlo, xhi);
		put_caches(f, pd, xlo, xhi);
		fputs("set xlabel ", f);
		put_quoted(f, a->x);
		fputs(" . ' (bytes, log scale)'\n", f);
	} else {
		if (pd->xmin > 0 && pd->xmax >= 100 * pd->xmin)
			fputs("set logscale x 10\n", f);
		fputs("set xlabel ", f);
		put_quoted(f, a->x);
		fputc('\n', f);
	}
	if (pd->ymin > 0 && pd->ymax >= 8 * pd->ymin)
		fputs("set logscale y 10\n", f);
	fputs("set ylabel ", f);
	put_quoted(f, pd->ylabel);
	fputs("\nplot ", f);
	for (unsigned s = 0; s < pd->nseries; s++) {
		fprintf(f, "%s$d%u using 1:2 with linespoints pointtype 7 "
			"pointsize 0.8 linewidth 2 title ", s ? ", \\\n     " : "",
			s);
		put_quoted(f, pd->series[s].title);
	}
	fputs("\n", f);
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

/* Whether path holds a PNG (its 8-byte signature) of some size. */
static bool is_png(const char *path)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r',
					      '\n', 0x1a, '\n' };
	unsigned char buf[8];
	FILE *f = fopen(path, "rb");
	bool ok;

	if (!f)
		return false;
	ok = fread(buf, 1, sizeof(buf), f) == sizeof(buf) &&
	     !memcmp(buf, sig, sizeof(sig));
	fclose(f);
	return ok;
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

static void make_title(const struct plot_data *pd, const char *csv,
		       char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", strcmp(csv, "-") ? csv : "standard input",
		 pd->host ? " on " : "", pd->host ? pd->host : "");
}

/* --script: the script that draws out, into a->script. */
static int save_script(const struct plot_data *pd, const struct plot_args *a,
		       const char *out)
{
	int flags = O_WRONLY | O_CREAT | (a->force ? O_TRUNC : O_EXCL);
	char title[512];
	FILE *f;
	int fd;

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
	make_title(pd, a->csv, title, sizeof(title));
	put_script(f, pd, a, out, title);
	if (fclose(f)) {
		fprintf(stderr, "memjob plot: cannot write '%s': %s\n",
			a->script, strerror(errno));
		unlink(a->script);
		return PLOT_TOOL;
	}
	return PLOT_OK;
}

/* Write the script, run gnuplot into a temporary PNG, move it to out. */
static int draw(const struct plot_data *pd, const struct plot_args *a,
		const char *out)
{
	const char *tmpdir = getenv("TMPDIR");
	char sp[4096], title[512];
	char *png = NULL;
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
	png = temp_beside(out);
	if (!png) {
		close(fd);
		ret = PLOT_USAGE;
		goto out_script;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		goto out_png;
	}
	make_title(pd, a->csv, title, sizeof(title));
	put_script(f, pd, a, png, title);
	if (fclose(f)) {
		fprintf(stderr, "memjob plot: cannot write the script: %s\n",
			strerror(errno));
		goto out_png;
	}
	if (run_gnuplot(sp))
		goto out_png;
	if (!is_png(png)) {
		fprintf(stderr, "memjob plot: gnuplot wrote no PNG\n");
		goto out_png;
	}
	if (publish(png, out, a->force)) {
		ret = PLOT_USAGE;
		goto out_png;
	}
	ret = PLOT_OK;
out_png:
	unlink(png);		/* gone already when published */
	free(png);
out_script:
	unlink(sp);
	return ret;
}

/* The PNG's name: --output, or beside the script or the CSV. */
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

int plot_main(int argc, char **argv)
{
	struct plot_args a = { 0 };
	struct plot_data pd;
	char err[512], *out;
	const char *target;
	int ret = PLOT_USAGE;

	if (parse_plot_args(argc, argv, &a))
		return PLOT_USAGE;
	if (a.help) {
		plot_usage(stdout);
		return PLOT_OK;
	}
	if (!a.output && !a.script && !strcmp(a.csv, "-")) {
		fprintf(stderr, "memjob plot: reading standard input: say "
			"where the PNG goes with --output=FILE.png\n");
		return PLOT_USAGE;
	}
	out = output_name(&a);
	if (!out) {
		fprintf(stderr, "memjob plot: out of memory\n");
		return PLOT_TOOL;
	}
	if (plot_data_load(&pd, a.csv, a.x, a.y, !a.y_given, err,
			   sizeof(err))) {
		fprintf(stderr, "memjob plot: %s\n", err);
		goto out;
	}
	target = a.script ? a.script : out;
	if (!a.force && !access(target, F_OK)) {
		fprintf(stderr, "memjob plot: '%s' exists; --force replaces "
			"it\n", target);
	} else if (a.script) {
		ret = save_script(&pd, &a, out);
	} else if (!on_path("gnuplot")) {
		fprintf(stderr, "memjob plot: gnuplot is not installed "
			"(apt-get install gnuplot-nox)\n");
		ret = PLOT_TOOL;
	} else {
		ret = draw(&pd, &a, out);
	}
	plot_data_free(&pd);
out:
	free(out);
	return ret;
}
