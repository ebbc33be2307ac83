/*
 * report_json.c - the run as one JSON document (man page: OUTPUT, JSON).
 *
 * Everything in it is written elsewhere as well: the header's facts as
 * the normal header has them, one object per CSV row from the same
 * report_row() (so its keys are the CSV columns), and the normal report's
 * derived tables (group totals, interference, knees) from the functions
 * that compute them for it.  This file only puts them in one object.
 *
 * The document is built whole and written at once, after the jobs have
 * stopped for whatever reason: an interrupted or failed run still ends
 * in a complete, valid document.
 */
#include "config.h"
#include "util/version.h"
#include "report/interference.h"
#include "util/jsonout.h"
#include "report/kneereport.h"
#include "report/noisereport.h"
#include "report/quirkreport.h"
#include "report/report_int.h"

static void group_row(void *user, const struct group_total *g)
{
	struct row_emitter *e = user;

	row_u64(e, "group", g->group);
	row_u64(e, "repeat", g->repeat + 1);
	row_u64(e, "jobs", g->jobs);
	row_u64(e, "threads", g->threads);
	/* the bytes of the jobs that measure a rate: none, null */
	if (g->data_jobs)
		row_u64(e, "bytes", g->bytes);
	else
		row_absent(e, "bytes");
	row_u64(e, "elapsed_ns", g->elapsed_ns);
	if (g->data_jobs)
		row_fixed(e, "gbps", g->gbps, RESULT_GBPS_DECIMALS);
	else
		row_absent(e, "gbps");
	row_end(e);
}

static void interference_cb(void *user, const struct interference_line *l)
{
	interference_row(user, l);
}

static void knee_cb(void *user, const struct knee_series *ks)
{
	knee_series_rows(user, ks);
}

/* memjob, host, cpus, linux, jobs and groups: the doc's first keys. */
static json_t *header(const struct report_ctx *rc)
{
	const struct report_facts *f = &rc->facts;
	struct json_emitter je;
	struct row_emitter *e = &je.base;

	json_emitter_init(&je, NULL);
	row_str(e, "memjob", memjob_version);
	row_str(e, "host", rc->host);
	if (f->cpus > 0)
		row_u64(e, "cpus", (uint64_t)f->cpus);
	else
		row_absent(e, "cpus");
	row_str(e, "linux", f->release);
	row_u64(e, "jobs", f->njobs);
	row_u64(e, "groups", f->ngroups);
	if (rc->machine)
		machine_id_cells(e, rc->machine);
	return json_emitter_take(&je);
}

static json_t *system_facts(const struct report_facts *f)
{
	struct json_emitter je;

	if (!f->have_info)
		return json_null();
	json_emitter_init(&je, NULL);
	sysstat_info_row(&f->info, &je.base);
	return json_emitter_take(&je);
}

/* The run's noise (noisereport.h): one object. */
static json_t *host_noise(const struct results *r)
{
	struct json_emitter je;
	struct noise_count c = { 0 };

	interference_noise_count(r, &c);
	json_emitter_init(&je, NULL);
	noise_run_row(&je.base, r, &c);
	return json_emitter_take(&je);
}

static json_t *notes(const struct sweep_notes *n)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && n && i < n->n; i++)
		if (json_array_append_new(a, json_text(n->text[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

int report_json(const struct report_ctx *rc, const struct results *r)
{
	struct json_doc d = { .obj = header(rc) };
	struct report_table rt = { .host = rc->host, .machine = rc->machine,
				   .r = r };
	struct json_table t;
	int ret = -1;

	if (!d.obj)
		return -1;
	json_doc_put(&d, "system", system_facts(&rc->facts));
	json_doc_put(&d, "quirks", quirks_json(rc->quirks));
	json_doc_put(&d, "host_noise", host_noise(r));
	json_doc_put(&d, "notes", notes(rc->notes));
	json_doc_put(&d, "stopped_by", rc->stopped_by
				       ? json_text(rc->stopped_by) : json_null());

	report_cols_init(&rt.cols, r);
	json_doc_put(&d, "results", json_rows(report_rows, &rt));
	report_cols_free(&rt.cols);

	json_table_start(&t);
	group_totals_each(r, group_row, &t.je.base);
	json_doc_put(&d, "group_totals", json_table_finish(&t));

	json_table_start(&t);
	interference_each(r, interference_cb, &t.je.base);
	json_doc_put(&d, "interference", json_table_finish(&t));

	json_table_start(&t);
	knee_series_each(r, rc->topo, knee_cb, &t.je.base);
	json_doc_put(&d, "knees", json_table_finish(&t));

	if (!d.failed)
		ret = json_write(rc->out, d.obj);
	json_decref(d.obj);
	return ret;
}
