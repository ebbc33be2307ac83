/*
 * jsonout.c - the JSON emitter and helpers (see jsonout.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonout.h"

json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	char *copy;

	if (j || !s)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p > 0x7f)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

/* A number read as text: an integer where it is one and fits, as
 * cell_u64 and cell_i64 make them, else the double it reads as. */
static json_t *numtext_json(const char *s)
{
	const char *digits = s + (*s == '+' || *s == '-');
	double d;

	if (!digits[strspn(digits, "0123456789")]) {
		long long i;
		unsigned long long u;

		errno = 0;
		if (*s == '-') {
			i = strtoll(s, NULL, 10);
			if (!errno)
				return json_integer((json_int_t)i);
		} else {
			u = strtoull(s, NULL, 10);
			if (!errno && u <= (unsigned long long)INT64_MAX)
				return json_integer((json_int_t)u);
		}
	}
	d = strtod(s, NULL);
	return isfinite(d) ? json_real(d) : json_null();
}

static json_t *cell_json(const struct cell *c)
{
	double d;

	switch (c->type) {
	case CELL_STR:
		return json_text(c->v.s);
	case CELL_NUMTEXT:
		return numtext_json(c->v.s);
	case CELL_U64:
		/* jansson's integers are signed: a count past 2^63 (none
		 * that memjob measures) stays a number, rounded */
		if (c->v.u > (uint64_t)INT64_MAX)
			return json_real((double)c->v.u);
		return json_integer((json_int_t)c->v.u);
	case CELL_I64:
		return json_integer((json_int_t)c->v.i);
	case CELL_DBL:
		d = cell_rounded(c);
		return isfinite(d) ? json_real(d) : json_null();
	case CELL_ABSENT:
		break;
	}
	return json_null();
}

/* Should a row name a column twice, the second is "name#2", as the
 * test helpers read a CSV header that does. */
static int set_unique(json_t *obj, const char *name, json_t *v)
{
	char key[256];

	if (!json_object_get(obj, name))
		return json_object_set_new(obj, name, v);
	for (unsigned k = 2; k < 1000; k++) {
		snprintf(key, sizeof(key), "%s#%u", name, k);
		if (!json_object_get(obj, key))
			return json_object_set_new(obj, key, v);
	}
	json_decref(v);
	return -1;
}

static void json_cell(struct row_emitter *e, const char *name,
		      const struct cell *c)
{
	struct json_emitter *je = (struct json_emitter *)e;

	if (!je->obj)
		je->obj = json_object();
	if (!je->obj || set_unique(je->obj, name, cell_json(c)))
		je->failed = true;
}

static void json_end_row(struct row_emitter *e)
{
	struct json_emitter *je = (struct json_emitter *)e;

	if (!je->rows)
		return;		/* a single object: json_emitter_take's */
	if (!je->obj)
		je->obj = json_object();
	if (json_array_append_new(je->rows, je->obj))
		je->failed = true;
	je->obj = NULL;
}

static const struct row_emitter_ops json_ops = {
	.cell = json_cell,
	.end_row = json_end_row,
};

void json_emitter_init(struct json_emitter *je, json_t *rows)
{
	je->base.ops = &json_ops;
	je->obj = NULL;
	je->rows = rows;
	je->failed = false;
}

json_t *json_emitter_take(struct json_emitter *je)
{
	json_t *o = je->obj ? je->obj : json_object();

	je->obj = NULL;
	if (je->failed) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int json_emitter_finish(struct json_emitter *je)
{
	json_decref(je->obj);
	je->obj = NULL;
	return je->failed ? -1 : 0;
}

void json_table_start(struct json_table *t)
{
	t->rows = json_array();
	json_emitter_init(&t->je, t->rows);
}

json_t *json_table_finish(struct json_table *t)
{
	if (json_emitter_finish(&t->je) || !t->rows) {
		json_decref(t->rows);
		return NULL;
	}
	return t->rows;
}

json_t *json_rows(void (*rows)(struct row_emitter *e, const void *arg),
		  const void *arg)
{
	struct json_table t;

	json_table_start(&t);
	if (t.rows)
		rows(&t.je.base, arg);
	return json_table_finish(&t);
}

void json_doc_put(struct json_doc *d, const char *key, json_t *v)
{
	if (!d->obj || !v || json_object_set_new(d->obj, key, v))
		d->failed = true;
}

int json_write(FILE *f, const json_t *doc)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			     JSON_REAL_PRECISION(15));

	if (!s)
		return -1;
	fputs(s, f);
	fputc('\n', f);
	free(s);
	return 0;
}
