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

/*
 * The fields of the rows libcsv has finished, one after the other in one
 * buffer, and of the row it is in the middle of (from row_start on);
 * done lists the finished rows not yet handed out.
 */
struct done_row {
	unsigned first;		/* its first field in off[] */
	unsigned line;		/* the line it ends on */
};

struct csv_rows {
	struct csv_table *t;
	FILE *f;
	const char *const *need;
	struct csv_parser p;
	char *buf;		/* the line being handed to libcsv */
	size_t bufcap;
	unsigned line;
	char *arena;		/* fields, each ending in '\0' */
	size_t used, arenacap;
	size_t *off;		/* where each field starts in arena */
	unsigned noff, offcap, row_start;
	struct done_row *done;
	unsigned ndone, donecap, next;
	const char **row;	/* the row handed out */
	bool failed, fini;
	char err[640];
};

__attribute__((format(printf, 2, 3)))
static void fail(struct csv_rows *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->failed = true;
}

/* Room for n more of size each at *p, which holds *cap. */
static bool grow(void **p, unsigned *cap, size_t need, size_t size)
{
	unsigned c = *cap ? *cap : 64;
	void *n;

	if (need <= *cap)
		return true;
	while (c < need)
		c *= 2;
	n = realloc(*p, (size_t)c * size);
	if (!n)
		return false;
	*p = n;
	*cap = c;
	return true;
}

static void on_field(void *s, size_t len, void *data)
{
	struct csv_rows *r = data;

	if (r->failed)
		return;
	if (r->used + len + 1 > r->arenacap) {
		size_t cap = r->arenacap ? r->arenacap : 4096;
		char *a;

		while (cap < r->used + len + 1)
			cap *= 2;
		a = realloc(r->arena, cap);
		if (!a) {
			fail(r, "out of memory");
			return;
		}
		r->arena = a;
		r->arenacap = cap;
	}
	if (!grow((void **)&r->off, &r->offcap, r->noff + 1, sizeof(*r->off))) {
		fail(r, "out of memory");
		return;
	}
	if (len)
		memcpy(r->arena + r->used, s, len);
	r->arena[r->used + len] = '\0';
	r->off[r->noff++] = r->used;
	r->used += len + 1;
}

/* The i-th field of the row that starts at field first. */
static const char *field(const struct csv_rows *r, unsigned first,
			 unsigned i)
{
	return r->arena + r->off[first + i];
}

static bool same_as_head(const struct csv_rows *r, unsigned n)
{
	const struct csv_table *t = r->t;

	if (!t->head || n != t->ncols)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(field(r, r->row_start, i), t->head[i]))
			return false;
	return true;
}

/* A row that starts as the header does: another CSV's header. */
static bool looks_like_head(const struct csv_rows *r, unsigned n)
{
	const struct csv_table *t = r->t;

	return n >= 2 && t->ncols >= 2 &&
	       !strcmp(field(r, r->row_start, 0), t->head[0]) &&
	       !strcmp(field(r, r->row_start, 1), t->head[1]);
}

static void take_head(struct csv_rows *r, unsigned n)
{
	struct csv_table *t = r->t;

	t->head = calloc(n ? n : 1, sizeof(*t->head));
	if (!t->head) {
		fail(r, "out of memory");
		return;
	}
	t->ncols = n;
	for (unsigned i = 0; i < n; i++)
		if (!(t->head[i] = strdup(field(r, r->row_start, i)))) {
			fail(r, "out of memory");
			return;
		}
	t->head_line = r->line;
	for (unsigned i = 0; r->need && r->need[i]; i++)
		if (csv_table_col(t, r->need[i]) < 0) {
			fail(r, "%s:%u: not a memjob result CSV: its header "
			     "has no '%s' column", t->name, r->line,
			     r->need[i]);
			return;
		}
}

/* The fields from row_start on are a row: the header, a row to hand
 * out (kept), or one passed over or refused (dropped). */
static void on_row(int c, void *data)
{
	struct csv_rows *r = data;
	struct csv_table *t = r->t;
	unsigned n = r->noff - r->row_start;

	(void)c;
	if (r->failed || same_as_head(r, n)) {
		/* nothing more to read, or a repeated header */
	} else if (!t->head) {
		take_head(r, n);
	} else if (looks_like_head(r, n)) {
		fail(r, "%s:%u: a second header, unlike the one on line %u: "
		     "CSVs with other columns go in as files of their own",
		     t->name, r->line, t->head_line);
	} else if (n != t->ncols) {
		fail(r, "%s:%u: %u field%s, but the header on line %u has %u",
		     t->name, r->line, n, n == 1 ? "" : "s", t->head_line,
		     t->ncols);
	} else if (!grow((void **)&r->done, &r->donecap, r->ndone + 1,
			 sizeof(*r->done))) {
		fail(r, "out of memory");
	} else {
		r->done[r->ndone++] = (struct done_row){ r->row_start,
							 r->line };
		r->row_start = r->noff;
		return;
	}
	/* dropped: its fields are the last in the arena */
	if (r->noff > r->row_start)
		r->used = r->off[r->row_start];
	r->noff = r->row_start;
}

/* Every finished row handed out: make room by moving the row libcsv is
 * in the middle of to the front. */
static void compact(struct csv_rows *r)
{
	size_t from = r->noff > r->row_start ? r->off[r->row_start] : r->used;

	memmove(r->arena, r->arena + from, r->used - from);
	for (unsigned i = r->row_start; i < r->noff; i++)
		r->off[i - r->row_start] = r->off[i] - from;
	r->used -= from;
	r->noff -= r->row_start;
	r->row_start = 0;
	r->ndone = r->next = 0;
}

/* Hand libcsv the next line; false at the end of the input (after the
 * last row libcsv kept back) or on failure. */
static bool feed(struct csv_rows *r)
{
	const char *name = r->t->name;
	ssize_t n;

	if (r->failed || r->fini)
		return false;
	n = getline(&r->buf, &r->bufcap, r->f);
	if (n > 0) {
		r->line++;
		if (csv_parse(&r->p, r->buf, (size_t)n, on_field, on_row, r) !=
		    (size_t)n)
			fail(r, "%s:%u: %s", name, r->line,
			     csv_strerror(csv_error(&r->p)));
		return !r->failed;
	}
	r->fini = true;
	if (ferror(r->f))
		fail(r, "cannot read %s: %s", name, strerror(errno));
	else if (csv_fini(&r->p, on_field, on_row, r))
		fail(r, "%s:%u: %s", name, r->line,
		     csv_strerror(csv_error(&r->p)));
	return !r->failed;
}

struct csv_rows *csv_rows_open(struct csv_table *t, FILE *f, const char *name,
			       const char *const *need, char *err,
			       size_t errlen)
{
	struct csv_rows *r = calloc(1, sizeof(*r));

	memset(t, 0, sizeof(*t));
	if (!r || !(t->name = strdup(name)) || csv_init(&r->p, CSV_APPEND_NULL)) {
		free(t->name);
		t->name = NULL;
		free(r);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->t = t;
	r->f = f;
	r->need = need;
	while (!t->head && feed(r))
		;
	if (!r->failed && !t->head)
		fail(r, "%s is empty: no CSV header", name);
	if (!r->failed &&
	    !(r->row = calloc(t->ncols ? t->ncols : 1, sizeof(*r->row))))
		fail(r, "out of memory");
	if (r->failed) {
		snprintf(err, errlen, "%s", r->err);
		csv_rows_close(r);
		csv_table_free(t);
		return NULL;
	}
	return r;
}

int csv_rows_next(struct csv_rows *r, const char *const **row,
		  unsigned *line)
{
	const struct done_row *d;

	if (r->next == r->ndone) {
		compact(r);
		while (!r->ndone && feed(r))
			;
	}
	if (r->failed)
		return -1;
	if (r->next == r->ndone) {
		if (r->t->nrows)
			return 0;
		fail(r, "%s has a header but no rows", r->t->name);
		return -1;
	}
	d = &r->done[r->next++];
	for (unsigned i = 0; i < r->t->ncols; i++)
		r->row[i] = field(r, d->first, i);
	*row = r->row;
	*line = d->line;
	r->t->nrows++;
	return 1;
}

const char *csv_rows_error(const struct csv_rows *r)
{
	return r->err;
}

void csv_rows_close(struct csv_rows *r)
{
	if (!r)
		return;
	csv_free(&r->p);
	free(r->buf);
	free(r->arena);
	free(r->off);
	free(r->done);
	free(r->row);
	free(r);
}

static void free_row(char **row, unsigned n)
{
	for (unsigned i = 0; row && i < n; i++)
		free(row[i]);
	free(row);
}

/* A copy of a row handed out, kept in t. */
static int keep_row(struct csv_table *t, const char *const *row,
		    unsigned line)
{
	char **copy;

	if (t->nrows > t->cap) {
		unsigned cap = t->cap ? t->cap * 2 : 256;
		char ***rows = realloc(t->rows, cap * sizeof(*rows));
		unsigned *lines;

		if (!rows)
			return -1;
		t->rows = rows;
		lines = realloc(t->line, cap * sizeof(*lines));
		if (!lines)
			return -1;
		t->line = lines;
		t->cap = cap;
	}
	copy = calloc(t->ncols ? t->ncols : 1, sizeof(*copy));
	if (!copy)
		return -1;
	for (unsigned i = 0; i < t->ncols; i++)
		if (!(copy[i] = strdup(row[i]))) {
			free_row(copy, i);
			return -1;
		}
	t->rows[t->nrows - 1] = copy;
	t->line[t->nrows - 1] = line;
	return 0;
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

bool csv_table_is_json(FILE *f)
{
	int c;

	while ((c = getc(f)) == ' ' || c == '\n' || c == '\t' || c == '\r')
		;
	if (c != EOF)
		ungetc(c, f);
	return c == '{';
}

int csv_table_read(struct csv_table *t, FILE *f, const char *name,
		   const char *const *need, char *err, size_t errlen)
{
	struct csv_rows *r;
	const char *const *row;
	unsigned line;
	int ret;

	if (csv_table_is_json(f))
		return csv_table_from_json(t, f, name, need, err, errlen);
	r = csv_rows_open(t, f, name, need, err, errlen);
	if (!r)
		return -1;
	while ((ret = csv_rows_next(r, &row, &line)) > 0)
		if (keep_row(t, row, line)) {
			t->nrows--;	/* not kept */
			snprintf(err, errlen, "out of memory");
			break;
		}
	if (ret < 0)
		snprintf(err, errlen, "%s", csv_rows_error(r));
	csv_rows_close(r);
	if (ret) {
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
	for (unsigned i = 0; t->rows && i < t->nrows; i++)
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
