/*
 * reportcmd_json.c - memjob report's JSON documents (see
 * reportcmd_json.h).
 *
 * Nothing here computes or formats a figure: every object that a CSV
 * also has comes from the function that writes that CSV's rows
 * (cmp_cells, cmp_key_cells, csv_merge_rows), through the JSON emitter.
 * This file only says where each goes in the document.
 */
#include "config.h"
#include "util/version.h"
#include "subcommands/compareout.h"
#include "util/jsonout.h"
#include "subcommands/reportcmd_json.h"

/* The inputs as given, and the rows each holds. */
static json_t *inputs(const struct cmp_src *src, unsigned n)
{
	struct json_table t;

	json_table_start(&t);
	for (unsigned k = 0; k < n; k++) {
		row_str(&t.je.base, "file", src[k].run);
		row_u64(&t.je.base, "rows", src[k].t->nrows);
		row_end(&t.je.base);
	}
	return json_table_finish(&t);
}

/* memjob and the inputs: the first keys of either document. */
static void doc_start(struct json_doc *d, const struct cmp_src *src,
		      unsigned n)
{
	d->obj = json_object();
	d->failed = false;
	json_doc_put(d, "memjob", json_text(memjob_version));
	json_doc_put(d, "inputs", inputs(src, n));
}

/* The document, unless something was lost on the way; then nothing. */
static int doc_write(FILE *f, struct json_doc *d)
{
	int ret = -1;

	if (!d->failed)
		ret = json_write(f, d->obj);
	json_decref(d->obj);
	return ret;
}

/* s, or null for NULL and "" (as a cell is absent). */
static json_t *text_or_null(const char *s)
{
	return s && *s ? json_text(s) : json_null();
}

static json_t *key_names(const struct cmp *c)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < c->nkey; i++)
		if (json_array_append_new(a, json_text(c->key[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* The runs in the order the points list them, and their rows. */
static json_t *runs(const struct cmp *c)
{
	struct json_table t;

	json_table_start(&t);
	for (unsigned i = 0; i < c->nruns; i++) {
		unsigned j = cmp_run_at(c, i);

		row_str(&t.je.base, "run", c->run[j]);
		row_u64(&t.je.base, "rows", c->run_rows[j]);
		row_end(&t.je.base);
	}
	return json_table_finish(&t);
}

static json_t *point(const struct cmp *c, const struct cmp_point *p)
{
	struct json_doc d = { .obj = json_object() };
	const char *metric = cmp_point_metric(c, p);
	int dir = *metric ? cmp_direction(metric) : 0;
	struct json_emitter key;
	struct json_table t;

	json_emitter_init(&key, NULL);
	cmp_key_cells(&key.base, c, p);
	json_doc_put(&d, "key", json_emitter_take(&key));
	json_doc_put(&d, "metric_name", text_or_null(metric));
	json_doc_put(&d, "better", text_or_null(dir > 0 ? "higher" :
						dir < 0 ? "lower" : NULL));
	json_table_start(&t);
	for (unsigned i = 0; i < c->nruns; i++) {
		cmp_cells(&t.je.base, c, p, cmp_run_at(c, i));
		cmp_interval_cells(&t.je.base, p, cmp_run_at(c, i));
		row_end(&t.je.base);
	}
	json_doc_put(&d, "runs", json_table_finish(&t));
	if (d.failed) {
		json_decref(d.obj);
		return NULL;
	}
	return d.obj;
}

static json_t *points(const struct cmp *c)
{
	json_t *a = json_array();

	for (unsigned k = 0; a && k < c->npoints; k++)
		if (json_array_append_new(a, point(c, &c->point[k]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

int cmp_json(FILE *f, const struct cmp *c, const struct cmp_opts *o,
	     const struct cmp_src *src, unsigned n)
{
	struct json_doc d;

	doc_start(&d, src, n);
	json_doc_put(&d, "key", key_names(c));
	json_doc_put(&d, "by", json_text(o->by ? o->by : "file"));
	json_doc_put(&d, "metric", text_or_null(o->metric));
	json_doc_put(&d, "baseline", text_or_null(c->run[c->base]));
	json_doc_put(&d, "runs", runs(c));
	json_doc_put(&d, "points", points(c));
	return doc_write(f, &d);
}

int merge_json(FILE *f, const struct csv_merge *m, const struct cmp_src *src,
	       unsigned n)
{
	struct json_doc d;

	doc_start(&d, src, n);
	json_doc_put(&d, "results", json_rows(csv_merge_rows, m));
	return doc_write(f, &d);
}
