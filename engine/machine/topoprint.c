/*
 * topoprint.c - memjob --topology: the topology read by topology.c, as a
 * readable summary, or as CSV or JSON rows (see topo_print in
 * topology.h).
 *
 * The one idea: struct topo lists each cache once per CPU, but a reader
 * wants each physical cache once, with the CPUs that share it (that is
 * what decides which CPUs make a noisy neighbour).  collect_instances()
 * folds the per-CPU copies into instances by their sharing CPUs.  Every
 * fact says where it came from (sysfs, CPUID, a topology file).
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "util/version.h"
#include "util/jsonout.h"
#include "machine/topology.h"
#include "util/value.h"

#define TEXT_LEN	8192	/* a list of 1024 CPUs fits */
#define WRAP_COLS	78

static bool bit_test(const uint64_t *bits, unsigned i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

static void bit_set(uint64_t *bits, unsigned i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

static const char *type_word(char type)
{
	switch (type) {
	case 'd':
		return "data";
	case 'i':
		return "instruction";
	case 'u':
		return "unified";
	default:
		return "";
	}
}

static void fmt_list(const uint64_t *bits, char *buf, size_t len)
{
	value_format_idlist(bits, MEMJOB_MAX_CPUS, buf, len);
	if (!buf[0])
		snprintf(buf, len, "unknown");
}

/* Items separated by two blanks, wrapped under an indent; an item longer
 * than a line is broken after its commas.  fresh: nothing on this line yet
 * that needs a separator. */
struct wrap {
	FILE *f;
	size_t indent;
	size_t col;
	bool fresh;
};

static void wrap_start(struct wrap *w, size_t col)
{
	w->col = col;
	w->fresh = true;
}

/* extra: deeper, for the rest of an item broken across lines. */
static void wrap_newline(struct wrap *w, size_t extra)
{
	fprintf(w->f, "\n%*s", (int)(w->indent + extra), "");
	wrap_start(w, w->indent + extra);
}

static void wrap_item(struct wrap *w, const char *item)
{
	size_t n = strlen(item), piece;
	const char *comma;
	bool started = false;

	if (!w->fresh && w->col + 2 + n > WRAP_COLS)
		wrap_newline(w, 0);
	else if (!w->fresh)
		w->col += (size_t)fprintf(w->f, "  ");
	while (*item) {
		comma = strchr(item, ',');
		piece = comma && w->col + n > WRAP_COLS ?
			(size_t)(comma - item) + 1 : n;
		if (started && w->col + piece > WRAP_COLS)
			wrap_newline(w, 2);
		started = true;
		fwrite(item, 1, piece, w->f);
		w->col += piece;
		item += piece;
		n -= piece;
	}
	w->fresh = false;
}

/* One cache instance: the first CPU that has it, and which of its caches. */
struct instance {
	unsigned cpu;
	const struct topo_cache *c;
};

static bool same_instance(const struct topo_cache *a, const struct topo_cache *b,
			  unsigned cpu)
{
	unsigned w;
	bool empty = true;

	if (a->level != b->level || a->type != b->type)
		return false;
	for (w = 0; w < TOPO_WORDS; w++)
		if (a->shared[w])
			empty = false;
	/* Unknown sharing: every CPU's cache counts as its own. */
	return !empty && bit_test(a->shared, cpu);
}

static bool same_geometry(const struct topo_cache *a, const struct topo_cache *b)
{
	return a->level == b->level && a->type == b->type &&
	       a->size == b->size && a->line == b->line &&
	       a->ways == b->ways && a->sets == b->sets &&
	       !strcmp(a->source, b->source);
}

static int instance_cmp(const void *pa, const void *pb)
{
	const struct instance *a = pa, *b = pb;

	if (a->c->level != b->c->level)
		return a->c->level < b->c->level ? -1 : 1;
	if (a->c->type != b->c->type)
		return a->c->type < b->c->type ? -1 : 1;
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

/* Every distinct cache instance, ordered by level, type and first CPU. */
static struct instance *collect_instances(const struct topo *t, size_t *count)
{
	struct instance *in, *grown;
	size_t n = 0, cap = 16, i;
	unsigned c, k;

	in = malloc(cap * sizeof(*in));
	if (!in)
		return NULL;
	for (c = 0; c < t->ncpus; c++) {
		for (k = 0; t->cpus[c].present && k < t->cpus[c].ncaches; k++) {
			const struct topo_cache *tc = &t->cpus[c].caches[k];

			for (i = 0; i < n; i++)
				if (same_instance(in[i].c, tc, c))
					break;
			if (i < n)
				continue;
			if (n == cap) {
				grown = realloc(in, 2 * cap * sizeof(*in));
				if (!grown)
					goto out_free;
				in = grown;
				cap *= 2;
			}
			in[n].cpu = c;
			in[n++].c = tc;
		}
	}
	qsort(in, n, sizeof(*in), instance_cmp);
	*count = n;
	return in;
out_free:
	free(in);
	return NULL;
}

static void print_geometry(FILE *f, const struct topo_cache *c, bool mixed)
{
	char size[32], name[16];

	fprintf(f, "  %s %s", topo_cache_name(c, name, sizeof(name)),
		c->type == '?' ? "(type unknown)" : type_word(c->type));
	if (c->size)
		fprintf(f, " %s",
			value_format_bytes(c->size, size, sizeof(size)));
	else
		fprintf(f, ", size unknown");
	if (c->line)
		fprintf(f, ", %u B lines", c->line);
	if (c->ways)
		fprintf(f, ", %u-way", c->ways);
	else
		fprintf(f, ", ways unknown");
	if (c->sets)
		fprintf(f, ", %u sets", c->sets);
	if (mixed)
		fprintf(f, "; from %s", c->source);
}

static void print_caches(FILE *f, const struct topo *t)
{
	struct wrap w = { .f = f, .indent = 6 };
	char list[TEXT_LEN];
	struct instance *in;
	size_t n = 0, i, j;
	bool mixed = false;

	in = collect_instances(t, &n);
	if (!in) {
		fprintf(f, "caches: (out of memory)\n");
		return;
	}
	for (i = 1; i < n; i++)
		mixed |= strcmp(in[i].c->source, in[0].c->source) != 0;
	if (!n)
		fprintf(f, "caches: none known: " TOPO_NO_CACHE_HINT "\n");
	else if (mixed)
		fprintf(f, "caches:\n");
	else
		fprintf(f, "caches, from %s:\n", in[0].c->source);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_geometry(in[i].c, in[j].c); j++)
			;
		print_geometry(f, in[i].c, mixed);
		fprintf(f, ": %zu instance%s, shared by\n%*s", j - i,
			j - i == 1 ? "" : "s", (int)w.indent, "");
		wrap_start(&w, w.indent);
		for (; i < j; i++) {
			fmt_list(in[i].c->shared, list, sizeof(list));
			wrap_item(&w, list);
		}
		fputc('\n', f);
	}
	free(in);
}

static void print_siblings(FILE *f, const struct topo *t)
{
	struct wrap w = { .f = f, .indent = 6 };
	uint64_t seen[TOPO_WORDS] = { 0 };
	char list[TEXT_LEN];
	unsigned c, wd;

	fprintf(f, "SMT siblings:\n%*s", (int)w.indent, "");
	wrap_start(&w, w.indent);
	for (c = 0; c < t->ncpus; c++) {
		if (!t->cpus[c].present || bit_test(seen, c))
			continue;
		fmt_list(t->cpus[c].siblings, list, sizeof(list));
		wrap_item(&w, list);
		for (wd = 0; wd < TOPO_WORDS; wd++)
			seen[wd] |= t->cpus[c].siblings[wd];
		bit_set(seen, c);
	}
	fputc('\n', f);
}

static void print_id(FILE *f, int width, int id)
{
	if (id < 0)
		fprintf(f, "%*s", width, "-");
	else
		fprintf(f, "%*d", width, id);
}

static void print_cpus(FILE *f, const struct topo *t)
{
	char list[TEXT_LEN];
	unsigned c;

	fprintf(f, "CPUs:\n   cpu  core  package  node%s  siblings\n",
		t->nkinds > 1 ? "  kind" : "");
	for (c = 0; c < t->ncpus; c++) {
		const struct topo_cpu *p = &t->cpus[c];

		if (!p->present)
			continue;
		fprintf(f, "  %4u", c);
		print_id(f, 6, p->core_id);
		print_id(f, 9, p->package_id);
		print_id(f, 6, p->node);
		if (t->nkinds > 1)
			print_id(f, 6, p->kind);
		fmt_list(p->siblings, list, sizeof(list));
		fprintf(f, "  %s%s\n", list, topo_cpu_allowed(t, c) ? "" :
			"  (not allowed to memjob)");
	}
}

/* The NUMA distance matrix, when there are several nodes and it is
 * known. */
static void print_distances(FILE *f, const struct topo *t)
{
	unsigned a, b;
	bool known = false;

	for (a = 0; a < t->nnodes * t->nnodes; a++)
		known |= t->distance[a] != 0;
	if (!known || t->nnodes < 2)
		return;
	fprintf(f, "NUMA distances (from\\to):\n      ");
	for (b = 0; b < t->nnodes; b++)
		if (topo_has_node(t, b))
			fprintf(f, "%5u", b);
	fputc('\n', f);
	for (a = 0; a < t->nnodes; a++) {
		if (!topo_has_node(t, a))
			continue;
		fprintf(f, "  %4u", a);
		for (b = 0; b < t->nnodes; b++)
			if (topo_has_node(t, b))
				fprintf(f, "%5u", t->distance[a * t->nnodes + b]);
		fputc('\n', f);
	}
}

/* Hybrid CPUs: each kind with its CPUs, the fastest first. */
static void print_kinds(FILE *f, const struct topo *t)
{
	struct wrap w = { .f = f, .indent = 6 };
	char list[TEXT_LEN];

	if (t->nkinds < 2)
		return;
	fprintf(f, "CPU kinds (hybrid; a higher efficiency is faster):\n");
	for (unsigned k = t->nkinds; k-- > 0;) {
		value_format_idlist(t->kinds[k].cpus, MEMJOB_MAX_CPUS, list,
				    sizeof(list));
		wrap_start(&w, (size_t)fprintf(f, "  kind %u %s, efficiency "
					       "%d: CPUs ", k,
					       t->kinds[k].name[0] ?
					       t->kinds[k].name : "(unnamed)",
					       t->kinds[k].efficiency));
		wrap_item(&w, list);
		fputc('\n', f);
	}
}

static void print_nodes(FILE *f, const struct topo *t)
{
	struct wrap w = { .f = f, .indent = 6 };
	char list[TEXT_LEN], size[32];
	unsigned n;

	fprintf(f, "NUMA nodes:\n");
	for (n = 0; n < t->nnodes; n++) {
		if (!topo_has_node(t, n))
			continue;
		value_format_idlist(t->node_cpus[n], MEMJOB_MAX_CPUS, list,
				    sizeof(list));
		int col;

		if (t->node_mem[n])
			col = fprintf(f, "  node %u: %s", n, value_format_bytes(
					t->node_mem[n], size, sizeof(size)));
		else
			col = fprintf(f, "  node %u: memory unknown", n);
		col += fprintf(f, ", CPUs ");
		wrap_start(&w, col > 0 ? (size_t)col : 0);
		wrap_item(&w, list[0] ? list : "none");
		fputc('\n', f);
	}
	print_distances(f, t);
	if (t->ram)
		fprintf(f, "RAM: %s (%llu kB)\n",
			value_format_bytes(t->ram, size, sizeof(size)),
			(unsigned long long)(t->ram / 1024));
	else
		fprintf(f, "RAM: unknown (the topology gives no memory "
			"sizes)\n");
}

/* "64 CPUs (0-63): 2 packages, 32 cores, 2 threads per core" */
static void print_summary(FILE *f, const struct topo *t)
{
	unsigned c, d, ncpu = 0, npkg = 0, ncore = 0, smt = 0, n;
	bool known = true;
	char list[TEXT_LEN];

	for (c = 0; c < t->ncpus; c++) {
		const struct topo_cpu *p = &t->cpus[c];

		if (!p->present)
			continue;
		ncpu++;
		if (p->package_id < 0 || p->core_id < 0)
			known = false;
		for (d = 0; d < c; d++)
			if (t->cpus[d].present &&
			    t->cpus[d].package_id == p->package_id)
				break;
		npkg += d == c;
		for (d = 0; d < c; d++)
			if (t->cpus[d].present &&
			    t->cpus[d].package_id == p->package_id &&
			    t->cpus[d].core_id == p->core_id)
				break;
		ncore += d == c;
		for (n = 0, d = 0; d < t->ncpus; d++)
			n += bit_test(p->siblings, d);
		if (n > smt)
			smt = n;
	}
	value_format_idlist(t->online, MEMJOB_MAX_CPUS, list, sizeof(list));
	fprintf(f, "topology of %s\n", t->src.origin);
	fprintf(f, "sources: CPUs and cores from %s, NUMA nodes from %s;\n"
		"  allowed CPUs from %s\n", t->src.cpus, t->src.numa,
		t->src.allowed);
	fprintf(f, "%u CPU%s (%s)", ncpu, ncpu == 1 ? "" : "s", list);
	if (known)
		fprintf(f, ": %u package%s, %u core%s", npkg,
			npkg == 1 ? "" : "s", ncore, ncore == 1 ? "" : "s");
	if (known && smt)
		fprintf(f, ", %u thread%s per core", smt, smt == 1 ? "" : "s");
	fputc('\n', f);
	value_format_idlist(t->allowed, MEMJOB_MAX_CPUS, list, sizeof(list));
	if (topo_restricted(t))
		fprintf(f, "CPUs this process may use: %s (the others are "
			"outside its taskset or cgroup cpuset)\n",
			list[0] ? list : "none");
	else
		fprintf(f, "CPUs this process may use: all\n");
}

static void print_normal(FILE *f, const struct topo *t)
{
	print_summary(f, t);
	print_caches(f, t);
	print_siblings(f, t);
	print_cpus(f, t);
	print_kinds(f, t);
	print_nodes(f, t);
}

/* A list of CPUs as a cell, absent when empty. */
static void cell_list(struct row_emitter *e, const char *name,
		      const uint64_t *bits)
{
	char list[TEXT_LEN];

	value_format_idlist(bits, MEMJOB_MAX_CPUS, list, sizeof(list));
	row_str(e, name, list);
}

/* A figure, absent unless positive (0 and -1 mean unknown). */
static void cell_num(struct row_emitter *e, const char *name, long long v)
{
	if (v > 0)
		row_u64(e, name, (uint64_t)v);
	else
		row_absent(e, name);
}

/* An id (core, package, node), absent when unknown (-1). */
static void cell_id(struct row_emitter *e, const char *name, int id)
{
	if (id >= 0)
		row_u64(e, name, (uint64_t)id);
	else
		row_absent(e, name);
}

/* One row per CPU per cache; a CPU without caches gets one, with the
 * cache's cells absent. */
static void topo_rows(struct row_emitter *e, const void *arg)
{
	const struct topo *t = arg;

	for (unsigned c = 0; c < t->ncpus; c++) {
		const struct topo_cpu *p = &t->cpus[c];

		for (unsigned k = 0;
		     p->present && k < (p->ncaches ? p->ncaches : 1); k++) {
			const struct topo_cache *tc =
				p->ncaches ? &p->caches[k] : NULL;

			row_u64(e, "cpu", c);
			cell_id(e, "core", p->core_id);
			cell_id(e, "package", p->package_id);
			cell_id(e, "node", p->node);
			cell_list(e, "siblings", p->siblings);
			cell_num(e, "level", tc ? tc->level : 0);
			row_str(e, "type", tc ? type_word(tc->type) : NULL);
			cell_num(e, "size", tc ? (long long)tc->size : 0);
			cell_num(e, "line", tc ? tc->line : 0);
			cell_num(e, "ways", tc ? tc->ways : 0);
			cell_num(e, "sets", tc ? tc->sets : 0);
			if (tc)
				cell_list(e, "shared_cpus", tc->shared);
			else
				row_absent(e, "shared_cpus");
			row_u64(e, "allowed", topo_cpu_allowed(t, c));
			cell_id(e, "kind", t->nkinds > 1 ? p->kind : -1);
			row_str(e, "source", tc ? tc->source : NULL);
			row_end(e);
		}
	}
}

/* {"memjob", "origin", "sources", "mem_total_kb", "rows": [the CSV rows]} */
static int print_json(FILE *f, const struct topo *t)
{
	struct json_emitter je;
	json_t *doc, *rows = json_array();
	int ret = -1;

	json_emitter_init(&je, NULL);
	row_str(&je.base, "memjob", memjob_version);
	row_str(&je.base, "origin", t->src.origin);
	row_str(&je.base, "cpus_source", t->src.cpus);
	row_str(&je.base, "numa_source", t->src.numa);
	row_str(&je.base, "allowed_source", t->src.allowed);
	cell_num(&je.base, "mem_total_kb", (long long)(t->ram / 1024));
	doc = json_emitter_take(&je);
	json_emitter_init(&je, rows);
	topo_rows(&je.base, t);
	if (!json_emitter_finish(&je) && doc && rows &&
	    !json_object_set(doc, "rows", rows))
		ret = json_write(f, doc);
	json_decref(rows);
	json_decref(doc);
	return ret;
}

int topo_print(FILE *f, const struct topo *t, enum topo_format fmt)
{
	switch (fmt) {
	case TOPO_CSV:
		csv_table(f, topo_rows, t);
		return 0;
	case TOPO_JSON:
		return print_json(f, t);
	case TOPO_TEXT:
		break;
	}
	print_normal(f, t);
	return 0;
}
