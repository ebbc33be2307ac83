/*
 * machine.c - the machine and task identity of a run's rows (see
 * machine.h): CPU model, topology summary, kernel, the two hashes, and
 * the Slurm context.
 *
 * The hashes are FNV-1a over 64 bits, printed as their first 48 bits in
 * hex: enough to tell a fleet's machine types and job files apart, short
 * enough for a column, and the same on every host and build.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "report/machine.h"
#include "util/sysfile.h"
#include "util/value.h"
#include "util/version.h"

static uint64_t fnv1a(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

#define FNV_BASIS	0xcbf29ce484222325ULL

static void hash_text(uint64_t h, char *out)
{
	snprintf(out, MACHINE_HASH_LEN + 1, "%012" PRIx64, h >> 16);
}

/* The value of "key : value" in a cpuinfo line, or NULL. */
static const char *cpuinfo_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != '\t' &&
				      line[n] != ':'))
		return NULL;
	line = strchr(line, ':');
	if (!line)
		return NULL;
	line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static void cpu_model(char *buf, size_t len, const char *root)
{
	char path[4096], line[512], impl[32] = "", part[32] = "";
	FILE *f;

	snprintf(buf, len, "unknown");
	if (sysfile_path(path, sizeof(path), root, "/proc/cpuinfo"))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *v;

		line[strcspn(line, "\n")] = '\0';
		if ((v = cpuinfo_value(line, "model name")) && *v) {
			snprintf(buf, len, "%s", v);
			fclose(f);
			return;
		}
		if ((v = cpuinfo_value(line, "CPU implementer")) && !impl[0])
			snprintf(impl, sizeof(impl), "%s", v);
		if ((v = cpuinfo_value(line, "CPU part")) && !part[0])
			snprintf(part, sizeof(part), "%s", v);
	}
	fclose(f);
	if (impl[0] && part[0])
		snprintf(buf, len, "arm64 implementer %s part %s", impl, part);
}

/* How many distinct values of id (of the present CPUs) there are, where
 * cores pair it with the package; 0 when some CPU's is unknown. */
static unsigned distinct(const struct topo *t, bool cores)
{
	unsigned n = 0;

	for (unsigned c = 0; c < t->ncpus; c++) {
		const struct topo_cpu *x = &t->cpus[c];
		bool seen = false;

		if (!x->present)
			continue;
		if (x->package_id < 0 || (cores && x->core_id < 0))
			return 0;
		for (unsigned d = 0; d < c && !seen; d++)
			seen = t->cpus[d].present &&
			       t->cpus[d].package_id == x->package_id &&
			       (!cores || t->cpus[d].core_id == x->core_id);
		n += !seen;
	}
	return n;
}

static void put_count(char *buf, size_t len, size_t *at, unsigned n,
		      char what)
{
	if (*at >= len)
		return;
	if (n)
		*at += (size_t)snprintf(buf + *at, len - *at, "%s%u%c",
					what == 's' ? "" : "/", n, what);
	else
		*at += (size_t)snprintf(buf + *at, len - *at, "%s?%c",
					what == 's' ? "" : "/", what);
}

void machine_topo_summary(const struct topo *t, char *buf, size_t len)
{
	const struct topo_cpu *first = NULL;
	size_t at = 0;
	unsigned threads = 0;

	if (!t) {
		snprintf(buf, len, "unknown");
		return;
	}
	for (unsigned c = 0; c < t->ncpus; c++)
		if (t->cpus[c].present) {
			threads++;
			if (!first)
				first = &t->cpus[c];
		}
	buf[0] = '\0';
	put_count(buf, len, &at, distinct(t, false), 's');
	put_count(buf, len, &at, distinct(t, true), 'c');
	put_count(buf, len, &at, threads, 't');
	/* the first CPU's caches, by level, data before instruction */
	for (unsigned level = 1; first && level <= 4; level++)
		for (const char *k = "diu?"; *k; k++)
			for (unsigned i = 0; i < first->ncaches; i++) {
				const struct topo_cache *c = &first->caches[i];
				char name[16], size[32];

				if (c->level != level || c->type != *k ||
				    at >= len)
					continue;
				value_format_size(c->size, size, sizeof(size));
				at += (size_t)snprintf(buf + at, len - at,
					" %s %s", topo_cache_name(c, name,
								  sizeof(name)),
					c->size ? size : "?");
			}
}

/* The Slurm task's context: its column, its variable, its field. */
#define SLURM_FIELD(col, env) { #col, env, offsetof(struct machine_id, col) }
static const struct {
	const char *col, *env;
	size_t off;
} slurm_fields[] = {
	SLURM_FIELD(slurm_job_id, "SLURM_JOB_ID"),
	SLURM_FIELD(slurm_array_job_id, "SLURM_ARRAY_JOB_ID"),
	SLURM_FIELD(slurm_array_task_id, "SLURM_ARRAY_TASK_ID"),
	SLURM_FIELD(slurm_procid, "SLURM_PROCID"),
	SLURM_FIELD(slurm_nodename, "SLURMD_NODENAME"),
};
#undef SLURM_FIELD

#define NSLURM	(sizeof(slurm_fields) / sizeof(slurm_fields[0]))
#define SLURM_LEN	64	/* every slurm_* field's size */

void machine_id_init(struct machine_id *m, const struct topo *t,
		     const char *root)
{
	struct utsname u;
	char both[sizeof(m->cpu_model) + sizeof(m->topology) + 2];

	memset(m, 0, sizeof(*m));
	cpu_model(m->cpu_model, sizeof(m->cpu_model), root ? root : "/");
	machine_topo_summary(t, m->topology, sizeof(m->topology));
	if (!uname(&u))
		snprintf(m->kernel_release, sizeof(m->kernel_release), "%s",
			 u.release);
	snprintf(both, sizeof(both), "%s|%s", m->cpu_model, m->topology);
	hash_text(fnv1a(FNV_BASIS, both, strlen(both)), m->machine_type);
	for (size_t i = 0; i < NSLURM; i++) {
		const char *v = getenv(slurm_fields[i].env);

		snprintf((char *)m + slurm_fields[i].off, SLURM_LEN, "%s",
			 v ? v : "");
	}
}

void machine_job_hash(struct machine_id *m, const char *dump, size_t len)
{
	uint64_t h = FNV_BASIS;
	const char *end = dump + len;

	for (const char *p = dump; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;

		if (*p != ';')
			h = fnv1a(h, p, (size_t)(next - p));
		p = next;
	}
	hash_text(h, m->job_hash);
}

void machine_id_print(FILE *f, const struct machine_id *m)
{
	fprintf(f, "machine: %s, %s (type %s); job hash %s\n", m->cpu_model,
		m->topology, m->machine_type, m->job_hash);
	if (!m->slurm_job_id[0])
		return;
	fprintf(f, "slurm: job %s", m->slurm_job_id);
	if (m->slurm_array_job_id[0])
		fprintf(f, ", array %s_%s", m->slurm_array_job_id,
			m->slurm_array_task_id);
	if (m->slurm_procid[0])
		fprintf(f, ", task %s", m->slurm_procid);
	if (m->slurm_nodename[0])
		fprintf(f, ", node %s", m->slurm_nodename);
	fputc('\n', f);
}

void machine_id_cells(struct row_emitter *e, const struct machine_id *m)
{
	row_str(e, "cpu_model", m->cpu_model);
	row_str(e, "cpu_topology", m->topology);
	row_str(e, "kernel_release", m->kernel_release);
	row_str(e, "memjob_version", memjob_version);
	row_str(e, "job_hash", m->job_hash);
	row_str(e, "machine_type", m->machine_type);
	for (size_t i = 0; i < NSLURM; i++)
		row_str(e, slurm_fields[i].col,
			(const char *)m + slurm_fields[i].off);
}
