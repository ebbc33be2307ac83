/*
 * planlist.c - memjob --plan (see planlist.h).
 *
 * The one idea: the same rule as the worker's bind_cpus() (the job's CPU
 * set within numa_cpu_nodes; split gives clone i the i-th CPU, wrapping),
 * computed on struct topo instead of the live affinity, so the answer is
 * the same for a topology file as for this machine.
 */
#include "plan/planlist.h"

#include <string.h>

#include "parse/check.h"
#include "util/value.h"

#define LIST_LEN	8192

static bool bit_test(const uint64_t *bits, unsigned i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

static void bit_set(uint64_t *bits, unsigned i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

/* The CPUs the job's clones share before split picks one. */
static void job_cpus(const struct job_spec *j, const struct topo *t,
		     uint64_t *set)
{
	uint64_t mine[TOPO_WORDS];
	unsigned w, c;

	job_cpus_of(j, t, mine);	/* as the check chose them */
	for (w = 0; w < TOPO_WORDS; w++)
		set[w] = j->cpus_allowed ? mine[w] :
			 t ? t->allowed[w] : ~0ULL;
	if (!j->numa_cpu_nodes || !t)
		return;
	for (c = 0; c < MEMJOB_MAX_CPUS; c++) {
		int node = c < t->ncpus ? t->cpus[c].node : -1;

		if (bit_test(set, c) && (node < 0 ||
		    !bit_test(j->cpu_nodes, (unsigned)node)))
			set[c / 64] &= ~(1ULL << (c % 64));
	}
}

static void clone_cpus(const struct job_spec *j, const uint64_t *all,
		       unsigned clone, uint64_t *out)
{
	unsigned count = 0, want, c;

	memcpy(out, all, TOPO_WORDS * sizeof(*out));
	if (j->cpus_policy != CPUS_SPLIT)
		return;
	for (c = 0; c < MEMJOB_MAX_CPUS; c++)
		count += bit_test(all, c);
	if (!count)
		return;
	memset(out, 0, TOPO_WORDS * sizeof(*out));
	want = clone % count;
	for (c = 0; c < MEMJOB_MAX_CPUS; c++)
		if (bit_test(all, c) && !want--) {
			bit_set(out, c);
			return;
		}
}

/* "node 0 (local)", "nodes 0-1 (interleave)" */
static void clone_memory(const struct job_spec *j, const struct topo *t,
			 const uint64_t *cpus, char *buf, size_t len)
{
	static const char *const how[] = {
		[MEMPOL_BIND] = "bind", [MEMPOL_INTERLEAVE] = "interleave",
		[MEMPOL_PREFERRED] = "preferred",
	};
	uint64_t nodes[BITMAP_WORDS(MEMJOB_MAX_NODES)] = { 0 };
	char list[LIST_LEN];
	unsigned c, ncpus = 0;

	for (c = 0; c < MEMJOB_MAX_CPUS; c++)
		ncpus += bit_test(cpus, c);
	if (j->mem_policy.kind != MEMPOL_DEFAULT &&
	    j->mem_policy.kind != MEMPOL_LOCAL) {
		value_format_idlist(j->mem_policy.nodes, MEMJOB_MAX_NODES,
				    list, sizeof(list));
		snprintf(buf, len, "node%s %s (%s)", strpbrk(list, ",-") ?
			 "s" : "", list, how[j->mem_policy.kind]);
		return;
	}
	for (c = 0; t && c < t->ncpus; c++)
		if (bit_test(cpus, c) && t->cpus[c].present &&
		    t->cpus[c].node >= 0)
			bit_set(nodes, (unsigned)t->cpus[c].node);
	value_format_idlist(nodes, MEMJOB_MAX_NODES, list, sizeof(list));
	if (!list[0])
		snprintf(buf, len, "node unknown (local)");
	else
		snprintf(buf, len, "node%s %s (local to its CPU%s)",
			 strpbrk(list, ",-") ? "s" : "", list,
			 ncpus == 1 ? "" : "s");
}

static const char *phase_word(enum job_phase p)
{
	switch (p) {
	case PHASE_ALONE:
		return " [alone]";
	case PHASE_LOADED:
		return " [loaded]";
	case PHASE_RUN:
		break;
	}
	return "";
}

int plan_list(FILE *f, const struct jobset *runs,
	      const struct sweep_notes *notes, const struct topo *t)
{
	uint64_t all[TOPO_WORDS], mine[TOPO_WORDS];
	char list[LIST_LEN], mem[LIST_LEN + 64], size[32];

	fprintf(f, "plan on %s\n", t ? t->src.origin : "an unknown topology");
	for (unsigned i = 0; notes && i < notes->n; i++)
		fprintf(f, "note: %s\n", notes->text[i]);
	for (size_t i = 0; i < runs->njobs; i++) {
		const struct job_spec *j = &runs->jobs[i];

		fprintf(f, "run %zu: %s%s", i + 1, j->name, phase_word(j->phase));
		if (j->point_label && j->point_label[0])
			fprintf(f, " {%s}", j->point_label);
		if (j->size)
			fprintf(f, ", size %s%s%s%s", value_format_bytes(
					j->size, size, sizeof(size)),
				j->size_expr ? " (" : "",
				j->size_expr ? j->size_expr : "",
				j->size_expr ? ")" : "");
		fputc('\n', f);
		job_cpus(j, t, all);
		for (unsigned k = 0; k < j->numjobs; k++) {
			clone_cpus(j, all, k, mine);
			value_format_idlist(mine, MEMJOB_MAX_CPUS, list,
					    sizeof(list));
			clone_memory(j, t, mine, mem, sizeof(mem));
			fprintf(f, "  clone %u: CPU%s %s%s, memory %s\n", k,
				strpbrk(list, ",-") ? "s" : "",
				list[0] ? list : "none",
				j->cpus_allowed || j->numa_cpu_nodes ? "" :
				" (unbound)", mem);
		}
	}
	return ferror(f) ? -1 : 0;
}
