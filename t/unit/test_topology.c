/*
 * test_topology.c - unit tests for engine/topology.c and topoprint.c.
 *
 * The topology is read through hwloc from the XML fixtures of
 * t/fixtures/topo (written by mktopo.sh from each machine's published
 * facts: the seed 004 server, the seed 000 laptop, an EPYC with four L3s,
 * a hybrid Alder Lake, the 2-vCPU VM with an L3 per vCPU, an arm64
 * server, a container limited by a cpuset cgroup), from synthetic
 * descriptions, from files that are neither (the load must fail and say
 * why), and from this machine, checked against what the C library says
 * by other routes.  Fixtures are found below $SRCDIR, or the current
 * directory (fixture.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <csv.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "fixture.h"
#include "scratch.h"
#include "machine/topology.h"

static void load_ok(struct topo *t, const char *file)
{
	char err[1024] = "";

	if (topo_load(t, file, err, sizeof(err)))
		fail_msg("topo_load(%s) failed: %s", file ? file : "(machine)",
			 err);
}

static bool has(const uint64_t *bits, unsigned cpu)
{
	return bits[cpu / 64] >> (cpu % 64) & 1;
}

static unsigned count(const uint64_t *bits)
{
	unsigned n = 0;

	for (unsigned c = 0; c < MEMJOB_MAX_CPUS; c++)
		n += has(bits, c);
	return n;
}

/* bits is exactly the CPUs first, first + step, ... up to last. */
static void assert_set(const uint64_t *bits, unsigned first, unsigned last,
		       unsigned step, const char *what)
{
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS; c++) {
		bool want = c >= first && c <= last && (c - first) % step == 0;

		if (has(bits, c) != want)
			fail_msg("%s: CPU %u is %s", what, c,
				 want ? "missing" : "there but should not be");
	}
}

static void assert_pair(const uint64_t *bits, unsigned a, unsigned b,
			const char *what)
{
	if (count(bits) != 2 || !has(bits, a) || !has(bits, b))
		fail_msg("%s: want exactly {%u,%u}, have %u CPUs", what, a, b,
			 count(bits));
}

static void assert_cache(const struct topo_cache *c, unsigned level,
			 char type, uint64_t size, unsigned ways,
			 unsigned sets)
{
	assert_non_null(c);
	assert_int_equal(c->level, level);
	assert_int_equal(c->type, type);
	assert_int_equal(c->size, size);
	assert_int_equal(c->line, 64);
	assert_int_equal(c->ways, ways);
	assert_int_equal(c->sets, sets);
}

/* ---- seed 004: the two-socket PM server ---- */

static void test_seed004_cpus(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "seed004");
	assert_int_equal(t.ncpus, 64);
	assert_set(t.online, 0, 63, 1, "online");
	for (unsigned c = 0; c < 64; c++) {
		const struct topo_cpu *p = &t.cpus[c];

		assert_true(p->present);
		assert_int_equal(p->package_id, c % 2);
		assert_int_equal(p->node, c % 2);
		assert_int_equal(p->core_id, (c % 32) / 2);
		assert_pair(p->siblings, c % 32, c % 32 + 32, "siblings");
		assert_int_equal(p->ncaches, 4);
	}
	assert_pair(t.cpus[2].siblings, 2, 34, "siblings of CPU 2");
	assert_true(topo_has_cpu(&t, 63));
	assert_false(topo_has_cpu(&t, 64));
	assert_false(topo_has_cpu(&t, 5000));
	topo_free(&t);
	assert_null(t.cpus);
}

static void test_seed004_caches(void **state)
{
	const struct topo_cache *c;
	struct topo t;
	char name[16];

	(void)state;
	fixture_load_topo(&t, "seed004");
	for (unsigned cpu = 0; cpu < 64; cpu++) {
		unsigned first = cpu % 32;

		c = topo_cache(&t, cpu, 1, 'd');
		assert_cache(c, 1, 'd', 32768, 8, 64);
		assert_pair(c->shared, first, first + 32, "L1d shared");
		assert_cache(topo_cache(&t, cpu, 1, 'i'), 1, 'i', 32768, 8, 64);
		c = topo_cache(&t, cpu, 2, 'd');
		assert_cache(c, 2, 'u', 1024 * 1024, 16, 1024);
		assert_pair(c->shared, first, first + 32, "L2 shared");
		c = topo_cache(&t, cpu, 3, 'd');
		assert_cache(c, 3, 'u', 22528 * 1024, 11, 32768);
		assert_set(c->shared, cpu % 2, 62 + cpu % 2, 2, "L3 shared");
		assert_ptr_equal(topo_llc(&t, cpu), c);
	}
	/* The seed's line: cpu0/cache/index3/shared_cpu_list */
	assert_set(topo_llc(&t, 0)->shared, 0, 62, 2, "cpu0 index3");
	/* kinds: a unified cache serves 'd' and 'i', not the other way */
	assert_ptr_equal(topo_cache(&t, 2, 2, 'i'), topo_cache(&t, 2, 2, 'd'));
	assert_ptr_equal(topo_cache(&t, 2, 2, 'u'), topo_cache(&t, 2, 2, 'd'));
	assert_null(topo_cache(&t, 2, 1, 'u'));
	assert_null(topo_cache(&t, 2, 4, 'd'));
	assert_null(topo_cache(&t, 64, 1, 'd'));
	assert_null(topo_llc(&t, 64));
	assert_string_equal(topo_cache_name(topo_cache(&t, 0, 1, 'd'), name,
					    sizeof(name)), "L1d");
	assert_string_equal(topo_cache_name(topo_cache(&t, 0, 1, 'i'), name,
					    sizeof(name)), "L1i");
	assert_string_equal(topo_cache_name(topo_llc(&t, 0), name,
					    sizeof(name)), "L3");
	topo_free(&t);
}

static void test_seed004_nodes_ram(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "seed004");
	assert_int_equal(t.nnodes, 2);
	assert_true(topo_has_node(&t, 0));
	assert_true(topo_has_node(&t, 1));
	assert_false(topo_has_node(&t, 2));
	assert_set(t.node_cpus[0], 0, 62, 2, "node 0");
	assert_set(t.node_cpus[1], 1, 63, 2, "node 1");
	assert_int_equal(t.ram, 192ULL << 30);
	assert_int_equal(t.node_mem[0], 96ULL << 30);
	assert_int_equal(t.node_mem[1], 96ULL << 30);
	/* the SLIT */
	assert_int_equal(t.distance[0], 10);
	assert_int_equal(t.distance[1], 21);
	assert_int_equal(t.distance[2], 21);
	assert_int_equal(t.distance[3], 10);
	topo_free(&t);
}

/* ---- seed 000: the 4-core laptop ---- */

static void test_seed000(void **state)
{
	const struct topo_cache *c;
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "seed000");
	assert_int_equal(t.ncpus, 8);
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(t.cpus[cpu].core_id, cpu % 4);
		assert_int_equal(t.cpus[cpu].package_id, 0);
		assert_int_equal(t.cpus[cpu].node, 0);
		assert_pair(t.cpus[cpu].siblings, cpu % 4, cpu % 4 + 4,
			    "siblings");
		c = topo_cache(&t, cpu, 1, 'd');
		assert_cache(c, 1, 'd', 48 * 1024, 12, 64);
		assert_pair(c->shared, cpu % 4, cpu % 4 + 4, "L1d shared");
		assert_cache(topo_cache(&t, cpu, 1, 'i'), 1, 'i', 32 * 1024,
			     8, 64);
		assert_cache(topo_cache(&t, cpu, 2, 'd'), 2, 'u', 512 * 1024,
			     8, 1024);
		c = topo_llc(&t, cpu);
		assert_cache(c, 3, 'u', 6 << 20, 12, 8192);
		assert_set(c->shared, 0, 7, 1, "L3 shared");
	}
	assert_int_equal(t.nnodes, 1);
	assert_set(t.node_cpus[0], 0, 7, 1, "node 0");
	assert_int_equal(t.ram, 7729028ULL * 1024);
	assert_int_equal(t.nkinds, 0);
	assert_false(t.from_file == false);
	assert_false(topo_restricted(&t));
	assert_string_equal(topo_llc(&t, 0)->source, "hwloc XML file");
	topo_free(&t);
}

static void run(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

/* ---- the other machine shapes ---- */

/* AMD EPYC 7313: four L3s in one package, one per CCD of 4 cores. */
static void test_epyc(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "epyc7313");
	assert_int_equal(t.ncpus, 32);
	for (unsigned c = 0; c < 32; c++) {
		unsigned ccd = (c % 16) / 4;
		const uint64_t *l3 = topo_llc(&t, c)->shared;

		assert_int_equal(t.cpus[c].package_id, 0);
		assert_pair(t.cpus[c].siblings, c % 16, c % 16 + 16, "siblings");
		assert_int_equal(count(l3), 8);
		for (unsigned k = 0; k < 4; k++) {
			assert_true(has(l3, 4 * ccd + k));
			assert_true(has(l3, 4 * ccd + k + 16));
		}
		assert_int_equal(topo_llc(&t, c)->size, 32 << 20);
	}
	topo_free(&t);
}

/* Intel i5-1235U: P-cores with SMT and their own L2, E-cores in
 * clusters of 4 sharing an L2, and the two kinds. */
static void test_hybrid(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "i5-1235u");
	assert_int_equal(t.ncpus, 12);
	assert_int_equal(t.nkinds, 2);
	for (unsigned c = 0; c < 12; c++) {
		const struct topo_kind *k = &t.kinds[t.cpus[c].kind];

		assert_string_equal(k->name, c < 4 ? "IntelCore" : "IntelAtom");
		assert_int_equal(k->efficiency, c < 4 ? 1 : 0);
		assert_int_equal(count(t.cpus[c].siblings), c < 4 ? 2 : 1);
		assert_int_equal(topo_cache(&t, c, 2, 'd')->size,
				 c < 4 ? 1280 * 1024 : 2 << 20);
		assert_int_equal(count(topo_cache(&t, c, 2, 'd')->shared),
				 c < 4 ? 2 : 4);
		assert_int_equal(topo_cache(&t, c, 1, 'i')->size,
				 c < 4 ? 32 * 1024 : 64 * 1024);
		assert_set(topo_llc(&t, c)->shared, 0, 11, 1, "L3");
	}
	topo_free(&t);
}

/* The VM of issue 9: an L3 per vCPU, as CPUID tells it; ways unknown. */
static void test_vm(void **state)
{
	const struct topo_cache *c;
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "vm-2cpu");
	assert_int_equal(t.ncpus, 2);
	for (unsigned cpu = 0; cpu < 2; cpu++) {
		c = topo_llc(&t, cpu);
		assert_int_equal(c->level, 3);
		assert_int_equal(c->size, 508ULL << 20);
		assert_int_equal(c->ways, 0);
		assert_int_equal(c->sets, 0);
		assert_set(c->shared, cpu, cpu, 1, "private L3");
		assert_set(t.cpus[cpu].siblings, cpu, cpu, 1, "no SMT");
	}
	topo_free(&t);
}

/* Graviton3: 64 arm64 cores, no SMT, one L3. */
static void test_arm64(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "graviton3");
	assert_int_equal(t.ncpus, 64);
	assert_int_equal(topo_cache(&t, 63, 1, 'd')->size, 64 * 1024);
	assert_int_equal(topo_cache(&t, 63, 1, 'd')->ways, 4);
	assert_set(topo_llc(&t, 5)->shared, 0, 63, 1, "L3");
	assert_set(t.cpus[5].siblings, 5, 5, 1, "no SMT");
	topo_free(&t);
}

/* A cpuset cgroup that leaves out CPUs 0 and 4: they exist, but are
 * not allowed. */
static void test_allowed(void **state)
{
	struct topo t;

	(void)state;
	fixture_load_topo(&t, "laptop-cgroup");
	assert_set(t.online, 0, 7, 1, "online");
	assert_int_equal(count(t.allowed), 6);
	assert_false(has(t.allowed, 0));
	assert_false(has(t.allowed, 4));
	assert_true(topo_has_cpu(&t, 4));
	assert_false(topo_cpu_allowed(&t, 4));
	assert_true(topo_cpu_allowed(&t, 5));
	assert_true(topo_restricted(&t));
	topo_free(&t);
}

/* A synthetic description, inline or in a file with comments. */
static void test_synthetic(void **state)
{
	char dir[4096], path[4200];
	struct topo t;
	FILE *f;

	(void)state;
	load_ok(&t, "synthetic:pack:2 [numa(memory=1GiB)] l3:1(size=8MiB) "
		"l2:4(size=1MiB) l1d:1(size=32KiB) core:1 pu:2");
	assert_int_equal(t.ncpus, 16);
	assert_int_equal(t.nnodes, 2);
	assert_int_equal(topo_llc(&t, 0)->size, 8 << 20);
	assert_int_equal(count(topo_llc(&t, 0)->shared), 8);
	assert_int_equal(count(t.cpus[0].siblings), 2);
	assert_string_equal(topo_llc(&t, 0)->source,
			    "hwloc synthetic description");
	assert_true(t.from_file);
	topo_free(&t);

	assert_int_equal(scratch_dir(dir, sizeof(dir), "topo"), 0);
	snprintf(path, sizeof(path), "%s/laptop.synth", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("# a 4-core laptop\n  pack:1 l3:1(size=6MiB)\n"
	      "# the cores\ncore:4 pu:2\n", f);
	assert_int_equal(fclose(f), 0);
	load_ok(&t, path);
	assert_int_equal(t.ncpus, 8);
	assert_int_equal(topo_llc(&t, 7)->size, 6 << 20);
	assert_non_null(strstr(t.src.origin, "laptop.synth"));
	topo_free(&t);
	assert_int_equal(scratch_remove(dir), 0);
}

/* Files that are not a topology: -1 and a sentence that says why. */
static void test_bad_files(void **state)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "", "is empty: expected hwloc XML or a synthetic" },
		{ "# only a comment\n", "is empty" },
		{ "pack:2 core:banana", "neither hwloc XML" },
		{ "<topology><object type=\"Nonsense\"", "not an hwloc XML "
		  "topology" },
		{ "<?xml version=\"1.0\"?>\n<nothing/>\n", "not an hwloc XML" },
	};
	char dir[4096], path[4200], err[1024];
	struct topo t;
	FILE *f;

	(void)state;
	assert_int_equal(scratch_dir(dir, sizeof(dir), "topo"), 0);
	snprintf(path, sizeof(path), "%s/missing.xml", dir);
	assert_int_equal(topo_load(&t, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read the topology file"));
	assert_non_null(strstr(err, "No such file"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), "%s/bad%zu", dir, i);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(bad[i].text, f);
		assert_int_equal(fclose(f), 0);
		err[0] = '\0';
		if (!topo_load(&t, path, err, sizeof(err)))
			fail_msg("'%s' was accepted", bad[i].text);
		if (!strstr(err, bad[i].want) || !strstr(err, path))
			fail_msg("'%s': '%s' lacks '%s' or the path",
				 bad[i].text, err, bad[i].want);
	}
	assert_int_equal(topo_load(&t, "synthetic:pack:x", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "neither hwloc XML"));
	assert_int_equal(scratch_remove(dir), 0);
}

/* ---- this machine ---- */

static void test_real_machine(void **state)
{
	cpu_set_t mine;
	struct topo t;
	long online;
	unsigned n = 0;

	(void)state;
	load_ok(&t, NULL);
	assert_false(t.from_file);
	online = sysconf(_SC_NPROCESSORS_ONLN);
	for (unsigned c = 0; c < t.ncpus; c++)
		n += t.cpus[c].present;
	assert_int_equal(n, online);
	/* the CPUs this process may use are exactly its affinity (no
	 * cgroup can allow more than that) */
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (unsigned c = 0; c < CPU_SETSIZE && c < MEMJOB_MAX_CPUS; c++)
		if (CPU_ISSET(c, &mine))
			assert_true(topo_has_cpu(&t, c));
		else
			assert_false(topo_cpu_allowed(&t, c));
	for (unsigned c = 0; c < t.ncpus; c++) {
		const struct topo_cpu *p = &t.cpus[c];

		if (!p->present)
			continue;
		assert_true(p->node >= 0 && (unsigned)p->node < t.nnodes);
		assert_true(has(t.node_cpus[p->node], c));
		assert_true(has(p->siblings, c));
		/* caches may be unknown here; those known are sane */
		for (unsigned k = 0; k < p->ncaches; k++) {
			const struct topo_cache *tc = &p->caches[k];

			assert_true(tc->level >= 1);
			assert_true(has(tc->shared, c));
			assert_non_null(tc->source);
			if (tc->ways && tc->sets && tc->line)
				assert_int_equal((uint64_t)tc->ways * tc->sets *
						 tc->line, tc->size);
		}
	}
	topo_free(&t);
}

/* ---- printing ---- */

static char *print_to_string(const struct topo *t, bool csv)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	topo_print(f, t, csv ? TOPO_CSV : TOPO_TEXT);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void want_line(const char *text, const char *line)
{
	if (!strstr(text, line))
		fail_msg("missing from the output: '%s'\n--- output:\n%s", line,
			 text);
}

static void test_print_normal(void **state)
{
	struct topo t;
	char *text;

	(void)state;
	fixture_load_topo(&t, "seed004");
	text = print_to_string(&t, false);
	want_line(text, "topology of the topology file ");
	want_line(text, "seed004.xml (hwloc XML file)\nsources: CPUs and cores from "
		  "hwloc XML file, NUMA nodes from hwloc XML file;\n  allowed "
		  "CPUs from hwloc XML file (its allowed CPUs)\n");
	want_line(text, "\n64 CPUs (0-63): 2 packages, 32 cores, 2 threads per core\n"
		  "CPUs this process may use: all\n");
	want_line(text, "\ncaches, from hwloc XML file:\n  L1d data 32 KiB, 64 B lines, 8-way, 64 sets: 32 instances, shared by\n"
		  "      0,32  1,33  2,34  3,35  4,36  5,37  6,38  7,39  8,40  9,41  10,42  11,43\n");
	want_line(text, "\n  L1i instruction 32 KiB, 64 B lines, 8-way, 64 sets: 32 instances");
	want_line(text, "\n  L2 unified 1 MiB, 64 B lines, 16-way, 1024 sets: 32 instances");
	want_line(text, "\n  L3 unified 22 MiB, 64 B lines, 11-way, 32768 sets: 2 instances, shared by\n"
		  "      0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,\n"
		  "        50,52,54,56,58,60,62\n"
		  "      1,3,5,");
	want_line(text, "\nSMT siblings:\n      0,32  1,33  2,34");
	want_line(text, "\n    34     1        0     0  2,34\n");
	want_line(text, "\n  node 1: 96 GiB, CPUs 1,3,5,7,");
	want_line(text, "\nNUMA distances (from\\to):\n          0    1\n     0   10   21\n     1   21   10\n");
	want_line(text, "\nRAM: 192 GiB (201326592 kB)\n");
	/* no line runs past 80 columns */
	for (const char *p = text, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		/* but the path of a topology file */
		if (nl - p > 80 && strncmp(p, "topology of ", 12))
			fail_msg("line too long: %.*s", (int)(nl - p), p);
	}
	free(text);
	topo_free(&t);

	fixture_load_topo(&t, "seed000");
	text = print_to_string(&t, false);
	want_line(text, "\n8 CPUs (0-7): 1 package, 4 cores, 2 threads per core\n");
	want_line(text, "\n  L1d data 48 KiB, 64 B lines, 12-way, 64 sets: 4 instances, shared by\n"
		  "      0,4  1,5  2,6  3,7\n");
	want_line(text, "\n  L3 unified 6 MiB, 64 B lines, 12-way, 8192 sets: 1 instance, shared by\n"
		  "      0-7\n");
	want_line(text, "\nRAM: 7.37 GiB (7729028 kB)\n");
	free(text);
	topo_free(&t);

	fixture_load_topo(&t, "laptop-cgroup");
	text = print_to_string(&t, false);
	want_line(text, "\nCPUs this process may use: 1-3,5-7 (the others are "
		  "outside its taskset or cgroup cpuset)\n");
	want_line(text, "\n     4     0        0     0  0,4  (not allowed to memjob)\n");
	free(text);
	topo_free(&t);

	fixture_load_topo(&t, "i5-1235u");
	text = print_to_string(&t, false);
	want_line(text, "\n   cpu  core  package  node  kind  siblings\n");
	want_line(text, "\nCPU kinds (hybrid; a higher efficiency is faster):\n"
		  "  kind 1 IntelCore, efficiency 1: CPUs 0-3\n"
		  "  kind 0 IntelAtom, efficiency 0: CPUs 4-11\n");
	free(text);
	topo_free(&t);

	/* no cache known anywhere: say so, and what to do */
	fixture_load_topo(&t, "vm-2cpu");
	for (unsigned c = 0; c < t.ncpus; c++)
		t.cpus[c].ncaches = 0;
	text = print_to_string(&t, false);
	want_line(text, "\ncaches: none known: neither sysfs nor CPUID lists a "
		  "cache for this machine; give the size in bytes");
	free(text);
	topo_free(&t);
}

/* CSV rows, read back with libcsv so the quoting is checked for real. */
struct csv_rows {
	unsigned rows;
	unsigned fields;	/* in the current row */
	bool ragged;
	char cell[16][256];
	char l3_of_2[16][256];	/* the row of CPU 2, level 3 */
	char header[16][256];
};

static void csv_field(void *s, size_t len, void *data)
{
	struct csv_rows *r = data;

	if (r->fields < 16)
		snprintf(r->cell[r->fields], sizeof(r->cell[0]), "%.*s",
			 (int)len, (const char *)s);
	r->fields++;
}

static void csv_row(int c, void *data)
{
	struct csv_rows *r = data;

	(void)c;
	if (r->fields != 15)
		r->ragged = true;
	if (!r->rows)
		memcpy(r->header, r->cell, sizeof(r->cell));
	if (!strcmp(r->cell[0], "2") && !strcmp(r->cell[5], "3"))
		memcpy(r->l3_of_2, r->cell, sizeof(r->cell));
	r->rows++;
	r->fields = 0;
}

static void test_print_csv(void **state)
{
	static const char *const header[] = {
		"cpu", "core", "package", "node", "siblings", "level", "type",
		"size", "line", "ways", "sets", "shared_cpus", "allowed",
		"kind", "source",
	};
	static const char *const want[] = {
		"2", "1", "0", "0", "2,34", "3", "unified", "23068672", "64",
		"11", "32768",
	};
	struct csv_rows r = { 0 };
	struct csv_parser p;
	struct topo t;
	char *text;
	size_t len;

	(void)state;
	fixture_load_topo(&t, "seed004");
	text = print_to_string(&t, true);
	len = strlen(text);
	assert_int_equal(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI), 0);
	assert_int_equal(csv_parse(&p, text, len, csv_field, csv_row, &r), len);
	assert_int_equal(csv_fini(&p, csv_field, csv_row, &r), 0);
	csv_free(&p);
	assert_int_equal(r.rows, 1 + 64 * 4);
	assert_false(r.ragged);
	for (unsigned i = 0; i < 15; i++)
		assert_string_equal(r.header[i], header[i]);
	for (unsigned i = 0; i < 11; i++)
		assert_string_equal(r.l3_of_2[i], want[i]);
	assert_string_equal(r.l3_of_2[11], "0,2,4,6,8,10,12,14,16,18,20,22,24,"
			    "26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62");
	/* a list without a comma is not quoted */
	assert_string_equal(r.l3_of_2[12], "1");
	assert_string_equal(r.l3_of_2[13], "");
	assert_string_equal(r.l3_of_2[14], "hwloc XML file");
	assert_non_null(strstr(text, "\n0,0,0,0,\"0,32\",1,data,32768,64,8,64,\"0,32\",1,,hwloc XML file\n"));
	free(text);
	topo_free(&t);
}

/* The committed XML files are what mktopo.sh writes. */
static void test_fixtures_current(void **state)
{
	static const char *const names[] = {
		"seed004", "seed000", "laptop-cgroup", "epyc7313", "i5-1235u",
		"vm-2cpu", "graviton3",
	};
	char dir[4096], script[4096], file[4096], rel[64];

	(void)state;
	assert_int_equal(scratch_dir(dir, sizeof(dir), "topo"), 0);
	fixture_path("topo/mktopo.sh", script, sizeof(script));
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(rel, sizeof(rel), "topo/%s.xml", names[i]);
		fixture_path(rel, file, sizeof(file));
		run("sh '%s' %s '%s'", script, names[i], dir);
		run("cmp '%s' '%s/%s.xml' >&2", file, dir, names[i]);
	}
	assert_int_equal(scratch_remove(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed004_cpus),
		cmocka_unit_test(test_seed004_caches),
		cmocka_unit_test(test_seed004_nodes_ram),
		cmocka_unit_test(test_seed000),
		cmocka_unit_test(test_epyc),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_vm),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_real_machine),
		cmocka_unit_test(test_print_normal),
		cmocka_unit_test(test_print_csv),
		cmocka_unit_test(test_fixtures_current),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
