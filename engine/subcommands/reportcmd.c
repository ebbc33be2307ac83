/*
 * reportcmd.c - memjob report: the command line, the inputs, and where
 * the comparison or the merge goes (the command is described in
 * reportcmd.h).
 *
 * The one idea: read everything, check everything, then write.  Every
 * input is read and every option checked against the columns the inputs
 * really have before the output is opened, so a mistake costs nothing
 * but the message, and no file is truncated for it.  A comparison reads
 * its CSV inputs a row at a time, keeping only each row's value (inputs
 * of millions of rows take the memory of their points); a merge, which
 * writes every row, holds them, as does a run's JSON document.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "subcommands/compare.h"
#include "subcommands/compareout.h"
#include "subcommands/csvmerge.h"
#include "subcommands/csvtable.h"
#include "subcommands/fleet.h"
#include "report/report.h"
#include "subcommands/reportcmd.h"
#include "subcommands/reportcmd_json.h"
#include "util/value.h"

enum { REPORT_OK = 0, REPORT_WRITE = 1, REPORT_USAGE = 2 };

struct report_args {
	const char **files;
	unsigned nfiles;
	const char *key, *by, *metric, *baseline, *output;
	unsigned formats;	/* REPORT_NORMAL, REPORT_CSV, REPORT_JSON */
	bool formats_given, merge, help;
	const char **keys;	/* --key split at commas */
	char *key_buf;
	unsigned nkeys;
	unsigned errors;
};

/* The inputs, read: tables side by side (csv_table_nearest takes them
 * so), each with its name as given (src), and which file each is, to
 * never write over one.  For a comparison, the tables hold the headers,
 * and each input stays open, its rows read by cmp_build (src[k].rows). */
struct inputs {
	struct csv_table *t;
	struct cmp_src *src;
	struct stat *st;	/* st_ino 0: standard input */
	FILE **f;		/* open while rows are to be read */
	unsigned n;
};

static const char *const report_opts[] = {
	"key", "by", "metric", "baseline", "output-format", "output", "merge",
	"help", NULL
};

static void report_usage(FILE *f)
{
	fputs("usage: memjob report [OPTIONS] [FILE|-]...\n"
	      "       memjob report --merge [--output-format=csv|json]\n"
	      "                     [--output=FILE] [FILE|-]...\n"
	      "\n"
	      "Compares the runs in memjob result CSVs (no FILE, or -: standard\n"
	      "input): per point, the median, min and max of the metric in each\n"
	      "run, and each run's change against the baseline run.\n"
	      "\n"
	      "  --key=COL,...         what makes a point (default: job, phase\n"
	      "                        and every sweep_* column)\n"
	      "  --by=COL              what makes a run: a column, such as host\n"
	      "                        for a fleet's merged CSV (default: file,\n"
	      "                        each input is a run); with it, the\n"
	      "                        runs that stand out from the fleet's\n"
	      "                        median (MAD rule) are flagged\n"
	      "  --metric=COL          the column to compare (default: each\n"
	      "                        row's own metric, named by metric_name)\n"
	      "  --baseline=RUN        the run the others are set against\n"
	      "                        (default: the first)\n"
	      "  --output-format=LIST  normal (a table), csv (its rows), json\n"
	      "                        (a document), or several: normal,json\n"
	      "  --output=FILE         write there instead of standard output\n"
	      "  --merge               write every row of every input as one\n"
	      "                        CSV, under the union of their columns;\n"
	      "                        with --output-format=json, as the\n"
	      "                        results of a run's JSON document\n"
	      "\n"
	      "See memjob(1), REPORTS.\n", f);
}

__attribute__((format(printf, 2, 3)))
static void say(unsigned *errors, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("memjob report: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	(*errors)++;
}

/* --output-format: as memjob's own, a comma list of normal, csv, json. */
static void set_formats(struct report_args *a, const char *val)
{
	char why[512];

	a->formats_given = true;
	if (report_parse_formats(val, &a->formats, why, sizeof(why)))
		say(&a->errors, "--output-format=%s: %s", val, why);
}

/* --key=a,b,c into a->keys; an empty name is an error. */
static void split_keys(struct report_args *a)
{
	char *p, *save = NULL;
	size_t len = strlen(a->key);

	a->key_buf = strdup(a->key);
	a->keys = calloc(len / 2 + 2, sizeof(*a->keys));
	if (!a->key_buf || !a->keys) {
		say(&a->errors, "out of memory");
		return;
	}
	if (!len || a->key[0] == ',' || a->key[len - 1] == ',' ||
	    strstr(a->key, ",,")) {
		say(&a->errors, "--key=%s: expected column names separated "
		    "by commas", a->key);
		return;
	}
	for (p = strtok_r(a->key_buf, ",", &save); p;
	     p = strtok_r(NULL, ",", &save))
		a->keys[a->nkeys++] = p;
}

static void unknown_option(struct report_args *a, const char *s,
			   const char *name)
{
	struct value_near near;
	const char *best;

	value_near_init(&near, name);
	for (unsigned i = 0; report_opts[i]; i++)
		value_near_offer(&near, report_opts[i]);
	best = value_near_best(&near);
	if (best)
		say(&a->errors, "unknown option '%s'; did you mean '--%s'?", s,
		    best);
	else
		say(&a->errors, "unknown option '%s' (see memjob report "
		    "--help)", s);
}

static void set_option(struct report_args *a, const char *s)
{
	const char *eq = strchr(s + 2, '='), *val = eq ? eq + 1 : NULL;
	size_t len = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
	char name[32];
	int o;

	snprintf(name, sizeof(name), "%.*s", (int)len, s + 2);
	o = len < sizeof(name) ? value_word(name, report_opts) : -1;
	if (o < 0) {
		unknown_option(a, s, name);
		return;
	}
	if (!strcmp(name, "merge") || !strcmp(name, "help")) {
		if (val)
			say(&a->errors, "--%s takes no value, got '%s'", name,
			    s);
		else if (!strcmp(name, "merge"))
			a->merge = true;
		else
			a->help = true;
		return;
	}
	if (!val || !*val)
		say(&a->errors, "--%s needs a value: --%s=...", name, name);
	else if (!strcmp(name, "key"))
		a->key = val;
	else if (!strcmp(name, "by"))
		a->by = strcmp(val, "file") ? val : NULL;
	else if (!strcmp(name, "metric"))
		a->metric = val;
	else if (!strcmp(name, "baseline"))
		a->baseline = val;
	else if (!strcmp(name, "output"))
		a->output = val;
	else
		set_formats(a, val);
}

static void parse_args(int argc, char **argv, struct report_args *a)
{
	a->formats = REPORT_NORMAL;
	a->files = calloc((size_t)argc + 1, sizeof(*a->files));
	if (!a->files) {
		say(&a->errors, "out of memory");
		return;
	}
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (s[0] != '-' || !s[1])
			a->files[a->nfiles++] = s;
		else if (!strcmp(s, "-h"))
			a->help = true;
		else if (s[1] == '-' && s[2])
			set_option(a, s);
		else
			say(&a->errors, "unknown option '%s' (options are "
			    "--name=value; see memjob report --help)", s);
	}
	if (!a->nfiles)
		a->files[a->nfiles++] = "-";
	for (unsigned k = 0, std = 0; k < a->nfiles; k++)
		if (!strcmp(a->files[k], "-") && std++)
			say(&a->errors, "standard input is read once: '-' is "
			    "given twice");
	if (a->key)
		split_keys(a);
	if (a->merge && !a->formats_given)
		a->formats = REPORT_CSV;	/* what a merge is by default */
	if (a->merge) {
		const char *no = a->key ? "key" : a->by ? "by" :
				 a->metric ? "metric" :
				 a->baseline ? "baseline" :
				 a->formats & REPORT_NORMAL ?
				 "output-format=normal" : NULL;

		if (no)
			say(&a->errors, "--merge writes the rows as they are, "
			    "as CSV or JSON: --%s has no use with it", no);
	}
}

/* Read one input; a message and -1 when it cannot be used. */
static int load(struct report_args *a, struct inputs *in, unsigned k)
{
	const char *path = a->files[k];
	bool std = !strcmp(path, "-");
	static const char *const need[] = { "host", "job", NULL };
	char err[512];
	FILE *f = std ? stdin : fopen(path, "r");
	int ret;

	if (!f) {
		say(&a->errors, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!std && fstat(fileno(f), &in->st[k]))
		memset(&in->st[k], 0, sizeof(in->st[k]));
	/* a run's JSON document is read whole: it is one a run wrote */
	if (a->merge || csv_table_is_json(f)) {
		ret = csv_table_read(&in->t[k], f, std ? "<stdin>" : path,
				     need, err, sizeof(err));
	} else {
		in->src[k].rows = csv_rows_open(&in->t[k], f, std ? "<stdin>" :
						path, need, err, sizeof(err));
		ret = in->src[k].rows ? 0 : -1;
	}
	if (ret)
		say(&a->errors, "%s", err);
	if (!std && !in->src[k].rows)
		fclose(f);
	else
		in->f[k] = f;
	return ret;
}

static int load_all(struct report_args *a, struct inputs *in)
{
	in->t = calloc(a->nfiles, sizeof(*in->t));
	in->src = calloc(a->nfiles, sizeof(*in->src));
	in->st = calloc(a->nfiles, sizeof(*in->st));
	/* an array of pointers: sizeof(*in->f) is a pointer's size, as meant */
	in->f = calloc(a->nfiles, sizeof(*in->f)); /* NOLINT(bugprone-sizeof-expression) */
	if (!in->t || !in->src || !in->st || !in->f) {
		say(&a->errors, "out of memory");
		return -1;
	}
	in->n = a->nfiles;
	for (unsigned k = 0; k < a->nfiles; k++) {
		in->src[k] = (struct cmp_src){ &in->t[k], a->files[k], NULL };
		load(a, in, k);
	}
	return a->errors ? -1 : 0;
}

static void inputs_free(struct inputs *in)
{
	for (unsigned k = 0; in->t && k < in->n; k++) {
		if (in->src)
			csv_rows_close(in->src[k].rows);
		if (in->f && in->f[k] && in->f[k] != stdin)
			fclose(in->f[k]);
		csv_table_free(&in->t[k]);
	}
	free(in->f);
	free(in->t);
	free(in->src);
	free(in->st);
}

/* A column an option names must be in some input. */
static void need_col(struct report_args *a, const struct inputs *in,
		     const char *opt, const char *col)
{
	const char *near;

	for (unsigned k = 0; k < in->n; k++)
		if (csv_table_col(&in->t[k], col) >= 0)
			return;
	near = csv_table_nearest(in->t, in->n, col);
	say(&a->errors, "--%s: no column '%s' in %s%s%s%s", opt, col,
	    in->n == 1 ? in->t[0].name : "any input",
	    near ? "; did you mean '" : " (see memjob(1), CSV)",
	    near ? near : "", near ? "'?" : "");
}

static int check_cols(struct report_args *a, const struct inputs *in)
{
	if (a->by)
		need_col(a, in, "by", a->by);
	if (a->metric)
		need_col(a, in, "metric", a->metric);
	for (unsigned i = 0; i < a->nkeys; i++)
		need_col(a, in, "key", a->keys[i]);
	if (!a->merge && !a->metric) {
		bool any = false;

		for (unsigned k = 0; k < in->n; k++)
			any |= csv_table_col(&in->t[k], "metric") >= 0 ||
			       csv_table_col(&in->t[k], "ns_per_item") >= 0 ||
			       csv_table_col(&in->t[k], "gbps") >= 0;
		if (!any)
			say(&a->errors, "nothing to compare: no input has a "
			    "metric, ns_per_item or gbps column; name one "
			    "with --metric=COLUMN");
	}
	return a->errors ? -1 : 0;
}

/* --baseline names no run: say which runs there are. */
static void no_such_run(struct report_args *a, const struct cmp *c)
{
	char list[512] = "";
	size_t used = 0;

	for (unsigned i = 0; i < c->nruns && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s'%s'", i ? ", " : "", c->run[i]);
	say(&a->errors, "--baseline=%s: no run is called that; the runs "
	    "are %s", a->baseline, list);
}

/* Standard output, or --output: never one of the inputs. */
static FILE *open_output(struct report_args *a, const struct inputs *in)
{
	struct stat st;
	FILE *f;

	if (!a->output)
		return stdout;
	if (!stat(a->output, &st))
		for (unsigned k = 0; k < in->n; k++)
			if (in->st[k].st_ino && in->st[k].st_ino == st.st_ino &&
			    in->st[k].st_dev == st.st_dev) {
				say(&a->errors, "--output=%s is an input too: "
				    "it would be lost", a->output);
				return NULL;
			}
	f = fopen(a->output, "w");
	if (!f)
		say(&a->errors, "--output=%s: cannot write it: %s", a->output,
		    strerror(errno));
	return f;
}

/* Flush and close out; REPORT_WRITE, with a message, when that failed. */
static int close_output(struct report_args *a, FILE *out)
{
	const char *name = a->output ? a->output : "standard output";
	bool bad = fflush(out) || ferror(out);

	if ((out != stdout && fclose(out)) || bad) {
		say(&a->errors, "cannot write %s: %s", name, strerror(errno));
		return REPORT_WRITE;
	}
	return REPORT_OK;
}

static int merge(struct report_args *a, const struct inputs *in)
{
	struct csv_merge m;
	FILE *out;
	int ret;

	if (csv_merge_plan(&m, in->t, in->n, report_csv_leading_columns(),
			   report_column_is_text)) {
		say(&a->errors, "out of memory");
		return REPORT_WRITE;
	}
	out = open_output(a, in);
	if (!out) {
		csv_merge_free(&m);
		return REPORT_USAGE;
	}
	if (a->formats & REPORT_CSV)
		csv_table(out, csv_merge_rows, &m);
	if (a->formats & REPORT_JSON) {
		report_separate(out, a->formats, REPORT_JSON);
		if (merge_json(out, &m, in->src, in->n))
			say(&a->errors, "out of memory: no JSON written");
	}
	ret = close_output(a, out);
	csv_merge_free(&m);
	return a->errors ? REPORT_WRITE : ret;
}

static int print(struct report_args *a, const struct inputs *in,
		 const struct cmp *c, const struct cmp_opts *o)
{
	FILE *out = open_output(a, in);
	int ret;

	if (!out)
		return REPORT_USAGE;
	if ((a->formats & REPORT_NORMAL) && cmp_print_normal(out, c))
		say(&a->errors, "out of memory: no table written");
	if (a->formats & REPORT_CSV) {
		report_separate(out, a->formats, REPORT_CSV);
		csv_table(out, cmp_rows, c);
	}
	if (a->formats & REPORT_JSON) {
		report_separate(out, a->formats, REPORT_JSON);
		if (cmp_json(out, c, o, in->src, in->n))
			say(&a->errors, "out of memory: no JSON written");
	}
	ret = close_output(a, out);
	return a->errors ? REPORT_WRITE : ret;
}

static int compare(struct report_args *a, const struct inputs *in)
{
	struct cmp_opts o = { .key = a->keys, .nkey = a->nkeys, .by = a->by,
			      .metric = a->metric };
	struct cmp c;
	char err[512];
	int ret = REPORT_USAGE;

	if (cmp_build(&c, in->src, in->n, &o, err, sizeof(err))) {
		say(&a->errors, "%s", err);
		return REPORT_USAGE;
	}
	if (cmp_against(&c, a->baseline))
		no_such_run(a, &c);
	else if (a->by && fleet_judge(&c))
		say(&a->errors, "out of memory");
	else
		ret = print(a, in, &c, &o);
	cmp_free(&c);
	return ret;
}

int report_main(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct inputs in = { 0 };
	int ret = REPORT_USAGE;

	parse_args(argc, argv, &a);
	if (a.help && !a.errors) {
		report_usage(stdout);
		ret = REPORT_OK;
	} else if (!a.errors && !load_all(&a, &in) && !check_cols(&a, &in)) {
		ret = a.merge ? merge(&a, &in) : compare(&a, &in);
	}
	inputs_free(&in);
	free(a.files);
	free(a.keys);
	free(a.key_buf);
	return ret;
}
