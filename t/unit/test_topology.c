/*
 * test_topology.c - unit tests for engine/topology.c and topoprint.c.
 *
 * The topology is read from the fixture sysfs trees of the two seed
 * machines (t/fixtures/seed004: 2 sockets, 64 CPUs; t/fixtures/seed000: a
 * 4-core laptop), from copies of them with files taken away (the load must
 * go on and say "unknown"), from trees with no CPU list (the load must
 * fail and say where it looked), and from this machine's own /sys, checked
 * against what the C library and the kernel say by other routes.
 * Fixtures are found below $SRCDIR, or the current directory (fixture.c).
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
#include "topology.h"

#define CPU_DIR	"/sys/devices/system/cpu"

static void load_ok(struct topo *t, const char *root)
{
	char err[512] = "";

	if (topo_load(t, root, err, sizeof(err)))
		fail_msg("topo_load(%s) failed: %s", root, err);
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
	topo_free(&t);
}

/* A root with a trailing slash reads the same tree. */
static void test_root_slash(void **state)
{
	char root[4096];
	struct topo t;

	(void)state;
	fixture_path("seed000/", root, sizeof(root));
	load_ok(&t, root);
	assert_int_equal(t.ncpus, 8);
	assert_int_equal(t.cpus[7].caches[3].size, 6 << 20);
	assert_string_equal(t.root, root);
	topo_free(&t);
}

/* ---- trees built for the test ---- */

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

static void rm(const char *root, const char *rel)
{
	run("rm -r '%s/%s'", root, rel);
}

/* A copy of seed000 with files taken away: every loss is "unknown". */
static void test_degraded(void **state)
{
	char dir[4096], src[4096], err[512];
	struct topo t;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(scratch_dir(dir, sizeof(dir), "topo"), 0);
	fixture_path("seed000", src, sizeof(src));
	run("cp -r '%s/sys' '%s/proc' '%s/'", src, src, dir);
	rm(dir, CPU_DIR "/online");	/* present is read instead */
	rm(dir, CPU_DIR "/cpu1/cache/index0/ways_of_associativity");
	rm(dir, CPU_DIR "/cpu1/cache/index0/number_of_sets");
	rm(dir, CPU_DIR "/cpu3/cache");
	rm(dir, CPU_DIR "/cpu5/topology/thread_siblings_list");
	scratch_put(dir, CPU_DIR "/cpu5/topology/core_cpus_list", "1,5\n");
	rm(dir, CPU_DIR "/cpu6/topology");
	rm(dir, CPU_DIR "/cpu7/cache/index3/shared_cpu_list");
	scratch_put(dir, CPU_DIR "/cpu2/cache/index2/size", "lots\n");
	rm(dir, "sys/devices/system/node");
	rm(dir, "proc/meminfo");

	assert_int_equal(topo_load(&t, dir, err, sizeof(err)), 0);
	assert_int_equal(t.ncpus, 8);
	assert_int_equal(t.cpus[1].caches[0].ways, 0);
	assert_int_equal(t.cpus[1].caches[0].sets, 0);
	assert_int_equal(t.cpus[1].caches[0].size, 48 * 1024);
	assert_int_equal(t.cpus[1].caches[1].ways, 8);
	assert_int_equal(t.cpus[3].ncaches, 0);
	assert_null(topo_llc(&t, 3));
	assert_true(t.cpus[3].present);
	assert_pair(t.cpus[5].siblings, 1, 5, "core_cpus_list");
	assert_int_equal(t.cpus[6].core_id, -1);
	assert_int_equal(t.cpus[6].package_id, -1);
	assert_int_equal(count(t.cpus[6].siblings), 0);
	assert_int_equal(t.cpus[6].ncaches, 4);
	assert_int_equal(count(t.cpus[7].caches[3].shared), 0);
	assert_int_equal(t.cpus[7].caches[3].size, 6 << 20);
	assert_int_equal(t.cpus[2].caches[2].size, 0);
	assert_int_equal(t.cpus[2].caches[2].ways, 8);
	/* no node directory: one node 0 with every CPU */
	assert_int_equal(t.nnodes, 1);
	assert_set(t.node_cpus[0], 0, 7, 1, "node 0");
	for (unsigned c = 0; c < 8; c++)
		assert_int_equal(t.cpus[c].node, 0);
	assert_int_equal(t.ram, 0);

	/* and it still prints, saying what it does not know */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	topo_print(f, &t, TOPO_TEXT);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "ways unknown"));
	assert_non_null(strstr(text, "size unknown"));
	assert_non_null(strstr(text, "RAM: unknown"));
	assert_non_null(strstr(text, "     6     -        -     0  unknown"));
	assert_non_null(strstr(text, "8 CPUs (0-7)\n"));
	free(text);
	topo_free(&t);
	assert_int_equal(scratch_remove(dir), 0);
}

/* Holes in the CPU list, a memory-only node, sparse node ids. */
static void test_holes(void **state)
{
	char dir[4096], err[512];
	struct topo t;

	(void)state;
	assert_int_equal(scratch_dir(dir, sizeof(dir), "topo"), 0);
	scratch_put(dir, CPU_DIR "/online", "0,2\n");
	scratch_put(dir, CPU_DIR "/cpu0/topology/core_id", "0\n");
	scratch_put(dir, CPU_DIR "/cpu2/topology/core_id", "7\n");
	scratch_put(dir, "sys/devices/system/node/node0/cpulist", "0-2\n");
	scratch_put(dir, "sys/devices/system/node/node3/cpulist", "\n");
	scratch_put(dir, "proc/meminfo", "MemFree: 5 kB\nMemTotal:  1024 kB\n");
	assert_int_equal(topo_load(&t, dir, err, sizeof(err)), 0);
	assert_int_equal(t.ncpus, 3);
	assert_true(topo_has_cpu(&t, 2));
	assert_false(topo_has_cpu(&t, 1));
	assert_int_equal(t.cpus[2].core_id, 7);
	assert_int_equal(t.cpus[2].package_id, -1);
	assert_int_equal(t.cpus[2].ncaches, 0);
	assert_int_equal(t.nnodes, 4);
	assert_true(topo_has_node(&t, 3));
	assert_false(topo_has_node(&t, 1));
	/* node lists are cut to the online CPUs */
	assert_int_equal(count(t.node_cpus[0]), 2);
	assert_int_equal(count(t.node_cpus[3]), 0);
	assert_int_equal(t.cpus[0].node, 0);
	assert_int_equal(t.ram, 1024 * 1024);
	topo_free(&t);
	assert_int_equal(scratch_remove(dir), 0);
}

/* No CPU list: an error that says where memjob looked. */
static void test_missing_tree(void **state)
{
	char dir[4096], err[512], want[4200], slash[4200];
	struct topo t;

	(void)state;
	assert_int_equal(scratch_dir(dir, sizeof(dir), "topo"), 0);
	memset(&t, 0x5a, sizeof(t));
	assert_int_equal(topo_load(&t, dir, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s" CPU_DIR "/online", dir);
	if (!strstr(err, "cannot read the CPU topology") || !strstr(err, want) ||
	    !strstr(err, "No such file"))
		fail_msg("unclear error: %s", err);
	assert_null(t.cpus);
	assert_null(t.root);
	topo_free(&t);		/* harmless after a failed load */
	/* the same path in the message when the root ends in '/' */
	snprintf(slash, sizeof(slash), "%s/", dir);
	assert_int_equal(topo_load(&t, slash, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s' lacks '%s'", err, want);

	/* a CPU list that lists nothing, or garbage */
	scratch_put(dir, CPU_DIR "/online", "\n");
	assert_int_equal(topo_load(&t, dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read the CPU topology"));
	scratch_put(dir, CPU_DIR "/online", "zero-one\n");
	assert_int_equal(topo_load(&t, dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "zero-one"));
	scratch_put(dir, CPU_DIR "/online", "0-1\n");
	assert_int_equal(topo_load(&t, dir, err, sizeof(err)), 0);
	assert_int_equal(t.ncpus, 2);
	topo_free(&t);
	assert_int_equal(scratch_remove(dir), 0);
}

/* ---- this machine ---- */

static uint64_t sysfs_size(const char *path)
{
	char buf[64], *end;
	uint64_t v;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	v = strtoull(buf, &end, 10);
	if (*end == 'K')
		v *= 1024;
	else if (*end == 'M')
		v *= 1024 * 1024;
	return v;
}

/* MemTotal in bytes, read the simple way. */
static uint64_t meminfo_total(void)
{
	char line[256];
	uint64_t kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "MemTotal:", 9))
			kb = strtoull(line + 9, NULL, 10);
	fclose(f);
	return kb * 1024;
}

static void test_real_machine(void **state)
{
	struct sysinfo si;
	cpu_set_t mine;
	struct topo t;
	char path[256];
	long online;
	unsigned n = 0;

	(void)state;
	if (access(CPU_DIR "/online", R_OK) || access(CPU_DIR "/cpu0", R_OK))
		skip();
	load_ok(&t, "/");
	online = sysconf(_SC_NPROCESSORS_ONLN);
	for (unsigned c = 0; c < t.ncpus; c++)
		n += t.cpus[c].present;
	assert_int_equal(n, online);
	/* every CPU this process may use is one memjob knows */
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (unsigned c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &mine))
			assert_true(topo_has_cpu(&t, c));
	/* MemTotal is the kernel's totalram, which sysinfo() also gives;
	 * in a container /proc/meminfo may be virtualised, so compare with
	 * the file when the two disagree */
	assert_int_equal(sysinfo(&si), 0);
	if (t.ram != (uint64_t)si.totalram * si.mem_unit)
		assert_int_equal(t.ram, meminfo_total());
	assert_true(t.ram > 0);
	for (unsigned c = 0; c < t.ncpus; c++) {
		const struct topo_cpu *p = &t.cpus[c];

		if (!p->present)
			continue;
		assert_true(p->node >= 0 && (unsigned)p->node < t.nnodes);
		assert_true(has(t.node_cpus[p->node], c));
		if (count(p->siblings))
			assert_true(has(p->siblings, c));
		for (unsigned k = 0; k < p->ncaches; k++) {
			const struct topo_cache *tc = &p->caches[k];

			snprintf(path, sizeof(path),
				 CPU_DIR "/cpu%u/cache/index%u/size", c, k);
			assert_int_equal(tc->size, sysfs_size(path));
			assert_true(tc->level >= 1);
			if (count(tc->shared))
				assert_true(has(tc->shared, c));
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
	want_line(text, "\n64 CPUs (0-63): 2 packages, 32 cores, 2 threads per core\n");
	want_line(text, "\n  L1 data 32 KiB, 64 B lines, 8-way, 64 sets: 32 instances, shared by\n"
		  "      0,32  1,33  2,34  3,35  4,36  5,37  6,38  7,39  8,40  9,41  10,42  11,43\n");
	want_line(text, "\n  L1 instruction 32 KiB, 64 B lines, 8-way, 64 sets: 32 instances");
	want_line(text, "\n  L2 unified 1 MiB, 64 B lines, 16-way, 1024 sets: 32 instances");
	want_line(text, "\n  L3 unified 22 MiB, 64 B lines, 11-way, 32768 sets: 2 instances, shared by\n"
		  "      0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,\n"
		  "        50,52,54,56,58,60,62\n"
		  "      1,3,5,");
	want_line(text, "\nSMT siblings:\n      0,32  1,33  2,34");
	want_line(text, "\n    34     1        0     0  2,34\n");
	want_line(text, "\n  node 1: CPUs 1,3,5,7,");
	want_line(text, "\nRAM: 192 GiB (MemTotal 201326592 kB)\n");
	/* no line runs past 80 columns */
	for (const char *p = text, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		if (nl - p > 80)
			fail_msg("line too long: %.*s", (int)(nl - p), p);
	}
	free(text);
	topo_free(&t);

	fixture_load_topo(&t, "seed000");
	text = print_to_string(&t, false);
	want_line(text, "\n8 CPUs (0-7): 1 package, 4 cores, 2 threads per core\n");
	want_line(text, "\n  L1 data 48 KiB, 64 B lines, 12-way, 64 sets: 4 instances, shared by\n"
		  "      0,4  1,5  2,6  3,7\n");
	want_line(text, "\n  L3 unified 6 MiB, 64 B lines, 12-way, 8192 sets: 1 instance, shared by\n"
		  "      0-7\n");
	want_line(text, "\nRAM: 7.37 GiB (MemTotal 7729028 kB)\n");
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
	if (r->fields != 12)
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
		"size", "line", "ways", "sets", "shared_cpus",
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
	for (unsigned i = 0; i < 12; i++)
		assert_string_equal(r.header[i], header[i]);
	for (unsigned i = 0; i < 11; i++)
		assert_string_equal(r.l3_of_2[i], want[i]);
	assert_string_equal(r.l3_of_2[11], "0,2,4,6,8,10,12,14,16,18,20,22,24,"
			    "26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62");
	/* a list without a comma is not quoted */
	assert_non_null(strstr(text, "\n0,0,0,0,\"0,32\",1,data,32768,64,8,64,\"0,32\"\n"));
	free(text);
	topo_free(&t);
}

/* The committed trees are what mkfixture.sh writes. */
static void test_fixtures_current(void **state)
{
	char dir[4096], script[4096], tree[4096];
	static const char *const names[] = { "seed004", "seed000" };

	(void)state;
	assert_int_equal(scratch_dir(dir, sizeof(dir), "topo"), 0);
	fixture_path("mkfixture.sh", script, sizeof(script));
	for (unsigned i = 0; i < 2; i++) {
		fixture_path(names[i], tree, sizeof(tree));
		run("sh '%s' %s '%s/%s'", script, names[i], dir, names[i]);
		run("diff -r '%s' '%s/%s' >&2", tree, dir, names[i]);
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
		cmocka_unit_test(test_root_slash),
		cmocka_unit_test(test_degraded),
		cmocka_unit_test(test_holes),
		cmocka_unit_test(test_missing_tree),
		cmocka_unit_test(test_real_machine),
		cmocka_unit_test(test_print_normal),
		cmocka_unit_test(test_print_csv),
		cmocka_unit_test(test_fixtures_current),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
