/*
 * quirkreport.c - the host's quirks as header lines and JSON (see
 * quirkreport.h).  The sentences are made once, by quirk_lines(), for
 * both: the normal header prints them, JSON carries them as "text" next
 * to the figures they come from.
 */
#include <stdio.h>
#include <string.h>

#include "report/quirkreport.h"
#include "util/jsonout.h"
#include "util/value.h"

typedef void line_fn(void *user, const char *text);

/* an absent cell: null in JSON */
static const struct cell no_cell;

static double max_block(const struct mem_return *r)
{
	double most = 0;

	for (unsigned i = 0; i < r->nblocks; i++)
		if (r->block_ns[i] > most)
			most = r->block_ns[i];
	return most;
}

static const char *effect_word(enum flush_effect e)
{
	switch (e) {
	case FLUSH_KEEPS:
		return "keeps";
	case FLUSH_EVICTS:
		return "evicts";
	case FLUSH_UNCLEAR:
		return "unclear";
	default:
		return "not probed";
	}
}

/* "of 64 MiB of fresh memory probed, 40 MiB had gone back to it" */
static void probe_figures(const struct mem_return *r, char *buf, size_t len)
{
	char all[32], back[32];

	value_format_bytes((double)r->nblocks * MEMPROBE_HUGE, all,
			   sizeof(all));
	value_format_bytes((double)r->returned * MEMPROBE_HUGE, back,
			   sizeof(back));
	if (r->costly)
		snprintf(buf, len, "of %s of fresh memory probed, %s had gone "
			 "back to it, and faulting that in cost %.2f s per GiB "
			 "more than memory just freed (a 2 MiB block %.1f ms, "
			 "against %.2f ms)", all, back, r->extra_s_per_gib,
			 r->returned_ns / 1e6, r->fresh_ns / 1e6);
	else
		snprintf(buf, len, "none of the %s of fresh memory probed had "
			 "gone back to it yet (a 2 MiB block %.2f ms at the "
			 "most%s, just freed %.2f ms), so the cost shows where "
			 "a run pays it (warm_ms)", all,
			 max_block(r) / 1e6, r->returned ? ", once" : "",
			 r->fresh_ns / 1e6);
}

static void memory_line(const struct machine_quirks *q, line_fn *line,
			void *user)
{
	const struct mem_return *r = &q->ret;
	char text[768], fig[320], b[32];
	size_t n;

	if (!r->reporting && !r->costly && !r->balloon)
		return;
	if (!r->reporting && !r->costly) {
		snprintf(text, sizeof(text), "a balloon holds %s of this "
			 "machine's memory",
			 value_format_bytes((double)r->balloon, b, sizeof(b)));
		line(user, text);
		return;
	}
	probe_figures(r, fig, sizeof(fig));
	n = (size_t)snprintf(text, sizeof(text), "the host takes free memory "
			     "back (%s)", r->how[0] ? r->how : "no mechanism "
			     "named in sysfs");
	if (n < sizeof(text)) {
		if (r->probed)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      ": %s", fig);
		else
			n += (size_t)snprintf(text + n, sizeof(text) - n,
				": its cost not measured (%s)", r->why);
	}
	if (n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, "; memjob "
				      "faults each run's memory in first "
				      "(isolate_phases)%s",
				      q->thp.have && strcmp(q->thp.enabled,
							    "never") ? "" :
				      ", in 4 KiB pages only (transparent "
				      "huge pages are off), which brings "
				      "back little of the host's 2 MiB "
				      "blocks");
	if (r->balloon && n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, "; a balloon holds %s",
			 value_format_bytes((double)r->balloon, b, sizeof(b)));
	line(user, text);
}

static void machine_line(const struct machine_quirks *q, line_fn *line,
			 void *user)
{
	const struct flush_probe *fp = &q->flush;
	bool first = true;
	char text[640];
	size_t n = 0;

	if (q->thp.have)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "transparent "
				      "huge pages %s (defrag %s); ",
				      q->thp.enabled, q->thp.defrag);
	if (q->have_fault && n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, "a 4 KiB page "
				      "fault %.2f us; ", q->fault_ns / 1e3);
	if (!fp->ran && n < sizeof(text)) {
		snprintf(text + n, sizeof(text) - n, "flush instructions not "
			 "probed: %s", fp->why);
		line(user, text);
		return;
	}
	if (n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, "a load after "
				      "a flush, in ticks (a cached line %.0f, "
				      "an evicted one %.0f):", fp->cached,
				      fp->evicted);
	/* this architecture's, the newest first (clwb; DC CIVAC) */
	for (int i = FLUSH_KINDS - 1; i > FLUSH_NONE; i--) {
		enum flush_kind k = (enum flush_kind)i;
		const char *sep = first ? "" : ",";

		if (n >= sizeof(text))
			break;
		if (!flush_here(k))
			continue;
		first = false;
		if (!flush_cpu_has(k))
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "%s no %s", sep, flush_name(k));
		else if (fp->effect[k] == FLUSH_UNCLEAR)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "%s %s %.0f, unclear", sep,
					      flush_name(k), fp->after[k]);
		else
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "%s %s %.0f %s the line", sep,
					      flush_name(k), fp->after[k],
					      fp->effect[k] == FLUSH_KEEPS ?
					      "keeps" : "evicts");
	}
	line(user, text);
}

static const char *kind_word(int rotational)
{
	return rotational == 1 ? "rotational" :
	       rotational == 0 ? "non-rotational" : "kind unknown";
}

static void device_line(const struct dev_quirk *dq, line_fn *line,
			void *user)
{
	char text[640];
	int n;

	n = snprintf(text, sizeof(text), "%s (%s%s%s): ", dq->name,
		     dq->driver[0] ? dq->driver : "", dq->driver[0] ? ", " : "",
		     kind_word(dq->rotational));
	if (n < 0 || (size_t)n >= sizeof(text))
		return;
	if (!dq->probed)
		snprintf(text + n, sizeof(text) - (size_t)n, "O_DIRECT reads "
			 "not probed: %s", dq->why);
	else if (dq->fast)
		snprintf(text + n, sizeof(text) - (size_t)n, "O_DIRECT 4 KiB "
			 "random reads take %.0f us (median of %u, %s), far "
			 "less than a %s disk's medium allows: a cache below "
			 "this system (the host's, for a virtual disk) serves "
			 "them, and direct I/O figures are that cache's",
			 dq->median_us, dq->reads, dq->read_existing ?
			 "of the job's file" : "of a file just written",
			 dq->rotational == 1 ? "rotating" : "flash");
	else
		snprintf(text + n, sizeof(text) - (size_t)n, "O_DIRECT 4 KiB "
			 "random reads take %.0f us (median of %u, %s)",
			 dq->median_us, dq->reads, dq->read_existing ?
			 "of the job's file" : "of a file just written");
	line(user, text);
}

static void quirk_lines(const struct machine_quirks *q, line_fn *line,
			void *user)
{
	memory_line(q, line, user);
	machine_line(q, line, user);
	for (unsigned i = 0; i < q->ndev; i++)
		device_line(&q->dev[i], line, user);
}

static void print_line(void *user, const char *text)
{
	fprintf(user, "quirks: %s\n", text);
}

void quirks_print(FILE *f, const struct machine_quirks *q)
{
	if (q && q->probed)
		quirk_lines(q, print_line, f);
}

static void text_line(void *user, const char *text)
{
	json_t *a = user;

	json_array_append_new(a, json_text(text));
}

static void memory_cells(struct row_emitter *e, const struct mem_return *r)
{
	row_str(e, "memory_return", r->reporting || r->costly ? "yes" : "no");
	row_str(e, "memory_return_how", r->how);
	row_put(e, "reporting_order", r->order ? cell_u64(r->order) : no_cell);
	row_u64(e, "reported_bytes", r->reported);
	row_u64(e, "balloon_bytes", r->balloon);
	row_put(e, "memory_probe_bytes", r->probed ?
		cell_u64((uint64_t)r->nblocks * MEMPROBE_HUGE) : no_cell);
	row_put(e, "memory_returned_bytes", r->probed ?
		cell_u64((uint64_t)r->returned * MEMPROBE_HUGE) : no_cell);
	row_put(e, "memory_block_fresh_ms", r->probed ?
		cell_fixed(r->fresh_ns / 1e6, 3) : no_cell);
	row_put(e, "memory_block_returned_ms", r->returned ?
		cell_fixed(r->returned_ns / 1e6, 3) : no_cell);
	row_put(e, "memory_extra_s_per_gib", r->costly ?
		cell_fixed(r->extra_s_per_gib, 3) : no_cell);
}

static void flush_cells(struct row_emitter *e, const struct flush_probe *fp)
{
	char key[48];

	row_put(e, "flush_cached_ticks", fp->ran ? cell_fixed(fp->cached, 1) :
						  no_cell);
	row_put(e, "flush_evicted_ticks", fp->ran ?
		cell_fixed(fp->evicted, 1) : no_cell);
	/* this architecture's instructions: x86-64's columns as before */
	for (int k = FLUSH_NONE + 1; k < FLUSH_KINDS; k++) {
		if (!flush_here((enum flush_kind)k))
			continue;
		snprintf(key, sizeof(key), "%s_ticks", flush_name(k));
		row_put(e, key, fp->ran && fp->effect[k] != FLUSH_NOT_PROBED ?
			cell_fixed(fp->after[k], 1) : no_cell);
		snprintf(key, sizeof(key), "%s_effect", flush_name(k));
		row_str(e, key, effect_word(fp->effect[k]));
	}
}

static json_t *devices(const struct machine_quirks *q)
{
	struct json_table t;

	json_table_start(&t);
	for (unsigned i = 0; i < q->ndev; i++) {
		const struct dev_quirk *dq = &q->dev[i];
		struct row_emitter *e = &t.je.base;

		row_str(e, "device", dq->name);
		row_str(e, "driver", dq->driver);
		row_put(e, "rotational", dq->rotational >= 0 ?
			cell_u64((uint64_t)dq->rotational) : no_cell);
		row_u64(e, "reads", dq->reads);
		row_put(e, "median_us", dq->probed ?
			cell_fixed(dq->median_us, 1) : no_cell);
		row_str(e, "faster_than_its_kind", dq->fast ? "yes" : "no");
		row_str(e, "not_probed", dq->probed ? "" : dq->why);
		row_end(e);
	}
	return json_table_finish(&t);
}

json_t *quirks_json(const struct machine_quirks *q)
{
	struct json_emitter je;
	struct row_emitter *e = &je.base;
	json_t *obj, *text, *devs;

	if (!q || !q->probed)
		return json_null();
	json_emitter_init(&je, NULL);
	row_fixed(e, "probe_ms", (double)q->probe_ns / 1e6, 1);
	memory_cells(e, &q->ret);
	row_str(e, "thp_enabled", q->thp.have ? q->thp.enabled : "");
	row_str(e, "thp_defrag", q->thp.have ? q->thp.defrag : "");
	row_put(e, "page_fault_ns", q->have_fault ?
		cell_fixed(q->fault_ns, 1) : no_cell);
	flush_cells(e, &q->flush);
	obj = json_emitter_take(&je);
	text = json_array();
	devs = devices(q);
	if (!obj || !text || !devs ||
	    json_object_set_new(obj, "devices", devs)) {
		json_decref(obj);
		json_decref(text);
		return NULL;
	}
	quirk_lines(q, text_line, text);
	if (json_object_set_new(obj, "text", text)) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}
