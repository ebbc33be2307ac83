/*
 * csvtable.c - read a result CSV with libcsv into a table of strings (see
 * csvtable.h).
 *
 * The one idea: libcsv does not count lines, so the file is handed to it a
 * line at a time; a row ends on the line that was being handed over when
 * libcsv said so, and that is the line an error names.
 *
 * A memjob JSON document reads as the same table: its "results" objects
 * are keyed by the CSV columns, null where the CSV has an empty field,
 * so memjob report and memjob plot take a run's JSON wherever they take
 * its CSV.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <csv.h>
#include <inttypes.h>
#include <jansson.h>

#include "subcommands/csvtable.h"
#include "util/value.h"

struct reader {
	struct csv_table *t;
	const char *const *need;
	char **cur;		/* the row being read */
	unsigned ncur, curcap;
	unsigned line;		/* the line being handed to libcsv */
	bool failed;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static void fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	r->failed = true;
}

static void free_row(char **row, unsigned n)
{
	for (unsigned i = 0; row && i < n; i++)
		free(row[i]);
	free(row);
}

static void on_field(void *s, size_t len, void *data)
{
	struct reader *r = data;
	char *v;

	if (r->failed)
		return;
	if (r->ncur == r->curcap) {
		unsigned cap = r->curcap ? r->curcap * 2 : 64;
		char **c = realloc(r->cur, cap * sizeof(*c));

		if (!c) {
			fail(r, "out of memory");
			return;
		}
		r->cur = c;
		r->curcap = cap;
	}
	v = strndup(s ? (const char *)s : "", len);
	if (!v) {
		fail(r, "out of memory");
		return;
	}
	r->cur[r->ncur++] = v;
}

static bool same_as_head(const struct csv_table *t, char **row, unsigned n)
{
	if (!t->head || n != t->ncols)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(row[i], t->head[i]))
			return false;
	return true;
}

/* A row that starts as the header does: another CSV's header. */
static bool looks_like_head(const struct csv_table *t, char **row,
			    unsigned n)
{
	return n >= 2 && t->ncols >= 2 && !strcmp(row[0], t->head[0]) &&
	       !strcmp(row[1], t->head[1]);
}

static void take_head(struct reader *r)
{
	struct csv_table *t = r->t;

	t->head = r->cur;
	t->ncols = r->ncur;
	t->head_line = r->line;
	for (unsigned i = 0; r->need && r->need[i]; i++)
		if (csv_table_col(t, r->need[i]) < 0) {
			fail(r, "%s:%u: not a memjob result CSV: its header "
			     "has no '%s' column", t->name, r->line,
			     r->need[i]);
			return;
		}
}

static void take_row(struct reader *r)
{
	struct csv_table *t = r->t;

	if (t->nrows == t->cap) {
		unsigned cap = t->cap ? t->cap * 2 : 256;
		char ***rows = realloc(t->rows, cap * sizeof(*rows));
		unsigned *line;

		if (!rows) {
			fail(r, "out of memory");
			return;
		}
		t->rows = rows;
		line = realloc(t->line, cap * sizeof(*line));
		if (!line) {
			fail(r, "out of memory");
			return;
		}
		t->line = line;
		t->cap = cap;
	}
	t->rows[t->nrows] = r->cur;
	t->line[t->nrows++] = r->line;
	r->cur = NULL;
}

static void on_row(int c, void *data)
{
	struct reader *r = data;
	struct csv_table *t = r->t;

	(void)c;
	if (r->failed || same_as_head(t, r->cur, r->ncur)) {
		/* nothing more to read, or a repeated header */
	} else if (!t->head) {
		take_head(r);
		r->cur = NULL;
	} else if (looks_like_head(t, r->cur, r->ncur)) {
		fail(r, "%s:%u: a second header, unlike the one on line %u: "
		     "CSVs with other columns go in as files of their own",
		     t->name, r->line, t->head_line);
	} else if (r->ncur != t->ncols) {
		fail(r, "%s:%u: %u field%s, but the header on line %u has %u",
		     t->name, r->line, r->ncur, r->ncur == 1 ? "" : "s",
		     t->head_line, t->ncols);
	} else {
		take_row(r);
	}
	free_row(r->cur, r->ncur);
	r->cur = NULL;
	r->ncur = r->curcap = 0;
}

/* ---- a memjob JSON document: its "results" as the rows -------------- */

__attribute__((format(printf, 3, 4)))
static int json_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* A JSON value as the text of a CSV field; NULL out of memory. */
static char *cell_text(const json_t *v)
{
	char buf[64];

	if (!v || json_is_null(v))
		return strdup("");
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%.15g", json_real_value(v));
	else if (json_is_true(v))
		snprintf(buf, sizeof(buf), "1");
	else if (json_is_false(v))
		snprintf(buf, sizeof(buf), "0");
	else
		return json_dumps(v, JSON_COMPACT);
	return strdup(buf);
}

/* The header: every key of every row, in the order first met. */
static int json_head(struct csv_table *t, const json_t *rows)
{
	size_t i;
	const json_t *row;

	json_array_foreach(rows, i, row) {
		const char *key;
		const json_t *v;

		json_object_foreach((json_t *)row, key, v) {
			char **h;

			(void)v;
			if (csv_table_col(t, key) >= 0)
				continue;
			h = realloc(t->head, (t->ncols + 1) * sizeof(*h));
			if (!h)
				return -1;
			t->head = h;
			if (!(h[t->ncols] = strdup(key)))
				return -1;
			t->ncols++;
		}
	}
	return 0;
}

static int json_rows(struct csv_table *t, const json_t *rows)
{
	size_t n = json_array_size(rows), i;
	const json_t *row;

	t->rows = calloc(n + 1, sizeof(*t->rows));
	t->line = calloc(n + 1, sizeof(*t->line));
	if (!t->rows || !t->line)
		return -1;
	t->cap = (unsigned)n;
	json_array_foreach(rows, i, row) {
		char **cells = calloc(t->ncols + 1, sizeof(*cells));

		if (!cells)
			return -1;
		t->rows[t->nrows] = cells;
		t->line[t->nrows++] = (unsigned)i + 1;
		for (unsigned c = 0; c < t->ncols; c++)
			if (!(cells[c] = cell_text(json_object_get(row,
							t->head[c]))))
				return -1;
	}
	return 0;
}

int csv_table_from_json(struct csv_table *t, FILE *f, const char *name,
			const char *const *need, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc, *rows;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	doc = json_loadf(f, 0, &je);
	if (!doc)
		return json_fail(err, errlen, "%s:%d: not a JSON document: %s",
			    name, je.line, je.text);
	rows = json_object_get(doc, "results");
	if (!json_is_array(rows)) {
		json_fail(err, errlen, "%s: a JSON document without \"results\": "
		     "not one memjob wrote (--output-format=json)", name);
		goto out;
	}
	if (!json_array_size(rows)) {
		json_fail(err, errlen, "%s has no results", name);
		goto out;
	}
	for (size_t i = 0; i < json_array_size(rows); i++)
		if (!json_is_object(json_array_get(rows, i))) {
			json_fail(err, errlen, "%s: result %zu is not an object",
			     name, i + 1);
			goto out;
		}
	t->name = strdup(name);
	if (!t->name || json_head(t, rows) || json_rows(t, rows)) {
		json_fail(err, errlen, "out of memory");
		goto out;
	}
	t->head_line = 0;
	for (unsigned i = 0; need && need[i]; i++)
		if (csv_table_col(t, need[i]) < 0) {
			json_fail(err, errlen, "%s: not memjob results: no '%s' in "
			     "them", name, need[i]);
			goto out;
		}
	ret = 0;
out:
	if (ret)
		csv_table_free(t);
	json_decref(doc);
	return ret;
}

int csv_table_read(struct csv_table *t, FILE *f, const char *name,
		   const char *const *need, char *err, size_t errlen)
{
	struct reader r = { .t = t, .need = need, .err = err,
			    .errlen = errlen };
	struct csv_parser p;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int c;

	while ((c = getc(f)) == ' ' || c == '\n' || c == '\t' || c == '\r')
		;
	if (c != EOF)
		ungetc(c, f);
	if (c == '{')
		return csv_table_from_json(t, f, name, need, err, errlen);
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	if (!t->name || csv_init(&p, CSV_APPEND_NULL)) {
		free(t->name);
		t->name = NULL;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (!r.failed && (n = getline(&buf, &cap, f)) > 0) {
		r.line++;
		if (csv_parse(&p, buf, (size_t)n, on_field, on_row, &r) !=
		    (size_t)n)
			fail(&r, "%s:%u: %s", name, r.line,
			     csv_strerror(csv_error(&p)));
	}
	if (!r.failed && ferror(f))
		fail(&r, "cannot read %s: %s", name, strerror(errno));
	if (!r.failed && csv_fini(&p, on_field, on_row, &r))
		fail(&r, "%s:%u: %s", name, r.line,
		     csv_strerror(csv_error(&p)));
	if (!r.failed && !t->head)
		fail(&r, "%s is empty: no CSV header", name);
	if (!r.failed && !t->nrows)
		fail(&r, "%s has a header but no rows", name);
	csv_free(&p);
	free(buf);
	free_row(r.cur, r.ncur);
	if (r.failed) {
		csv_table_free(t);
		return -1;
	}
	return 0;
}

int csv_table_load(struct csv_table *t, const char *path,
		   const char *const *need, char *err, size_t errlen)
{
	bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "r");
	int ret;

	if (!f) {
		memset(t, 0, sizeof(*t));
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	ret = csv_table_read(t, f, in ? "<stdin>" : path, need, err, errlen);
	if (!in)
		fclose(f);
	return ret;
}

void csv_table_free(struct csv_table *t)
{
	free_row(t->head, t->ncols);
	for (unsigned i = 0; i < t->nrows; i++)
		free_row(t->rows[i], t->ncols);
	free(t->rows);
	free(t->line);
	free(t->name);
	memset(t, 0, sizeof(*t));
}

int csv_table_col(const struct csv_table *t, const char *name)
{
	for (unsigned i = 0; i < t->ncols; i++)
		if (!strcmp(t->head[i], name))
			return (int)i;
	return -1;
}

const char *csv_table_cell(const struct csv_table *t, unsigned r, int col)
{
	return col >= 0 ? t->rows[r][col] : "";
}

const char *csv_table_nearest(const struct csv_table *t, unsigned n,
			      const char *name)
{
	struct value_near near;

	value_near_init(&near, name);
	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < t[k].ncols; i++)
			value_near_offer(&near, t[k].head[i]);
	return value_near_best(&near);
}
