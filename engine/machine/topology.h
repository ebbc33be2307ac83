/*
 * topology.h - the machine's caches, SMT siblings, cores, packages, NUMA
 * nodes, CPU kinds and RAM, read once through libhwloc.
 *
 * hwloc does the reading (Linux sysfs, CPUID on x86 where sysfs lists no
 * cache, cgroup cpusets, device tree); memjob keeps the facts it uses in
 * the plain structures below, so cpuset.c, sizeexpr.c and knee.c never
 * see hwloc.  The topology is this machine's, or that of a topology file
 * (topo_load's file): an hwloc XML file (`lstopo --of xml`) or an hwloc
 * synthetic description, for planning a job for a machine one does not
 * have, and for the tests (t/fixtures/topo/).
 *
 * Every fact carries where it came from (struct topo_sources, and per
 * cache topo_cache.source), for --topology and the run header.  A value
 * nobody knows is 0 for sizes and counts, -1 for ids and an empty set for
 * CPU lists.
 */
#ifndef MEMJOB_TOPOLOGY_H
#define MEMJOB_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "machine/limits.h"

#define TOPO_WORDS		BITMAP_WORDS(MEMJOB_MAX_CPUS)
#define TOPO_MAX_CACHES		8	/* caches kept per CPU */
#define TOPO_MAX_KINDS		4	/* CPU kinds (P and E cores...) */
#define TOPO_SRC_LEN		160

struct topo_cache {
	unsigned level;			/* 1, 2, 3...; 0 unknown */
	char type;			/* 'd' data, 'i' instruction,
					 * 'u' unified, '?' unknown */
	uint64_t size;			/* bytes */
	unsigned line;			/* line size, bytes */
	unsigned ways;
	unsigned sets;
	uint64_t shared[TOPO_WORDS];	/* CPUs sharing this instance */
	const char *source;		/* "sysfs", "CPUID (x86)", ... */
};

struct topo_cpu {
	bool present;			/* in the topology (online) */
	int core_id;			/* -1 unknown */
	int package_id;			/* -1 unknown */
	int node;			/* -1 unknown */
	int kind;			/* index in topo.kinds, -1 none */
	uint64_t siblings[TOPO_WORDS];	/* SMT siblings, the CPU included */
	unsigned ncaches;
	struct topo_cache caches[TOPO_MAX_CACHES];
};

/* A kind of core on a hybrid CPU (hwloc cpukinds): Intel's P and E
 * cores, Arm's big and LITTLE.  Higher efficiency is the faster kind. */
struct topo_kind {
	uint64_t cpus[TOPO_WORDS];
	int efficiency;			/* hwloc's rank, -1 unknown */
	char name[32];			/* "IntelCore", "IntelAtom", or "" */
};

/* Where the facts came from, as words for a reader. */
struct topo_sources {
	char origin[TOPO_SRC_LEN];	/* "this machine", or the file */
	char cpus[TOPO_SRC_LEN];	/* CPUs, cores, packages */
	char allowed[TOPO_SRC_LEN];	/* the CPUs memjob may use */
	char numa[TOPO_SRC_LEN];	/* nodes, their memory, distances */
};

struct topo {
	bool from_file;			/* not this machine: plan only */
	unsigned ncpus;			/* highest CPU id + 1 */
	struct topo_cpu *cpus;		/* ncpus entries; check present */
	uint64_t online[TOPO_WORDS];	/* the machine's CPUs */
	uint64_t allowed[TOPO_WORDS];	/* those this process may use */
	unsigned nnodes;		/* highest node id + 1 */
	uint64_t nodes[BITMAP_WORDS(MEMJOB_MAX_NODES)];	/* existing nodes */
	uint64_t (*node_cpus)[TOPO_WORDS];	/* nnodes entries */
	uint64_t *node_mem;		/* nnodes entries, bytes; 0 unknown */
	unsigned *distance;		/* nnodes x nnodes, 0 unknown */
	uint64_t ram;			/* bytes; 0 unknown */
	unsigned nkinds;		/* 0 or 1: not a hybrid CPU */
	struct topo_kind kinds[TOPO_MAX_KINDS];
	struct topo_sources src;
};

/*
 * Read the topology of this machine (file NULL), or of a topology file:
 * a path to an hwloc XML file, to a file holding an hwloc synthetic
 * description ('#' starts a comment line), or "synthetic:DESCRIPTION".
 * Returns 0, or -1 with a sentence in err (the file cannot be read, is
 * neither XML hwloc accepts nor a valid description).  On success the
 * caller owns *t and frees it with topo_free.
 */
int topo_load(struct topo *t, const char *file, char *err, size_t errlen);
void topo_free(struct topo *t);

/* The topology file the environment names (MEMJOB_TOPOLOGY_FILE), or
 * NULL: this machine. */
const char *topo_env_file(void);

/* Whether cpu exists in t; whether this process may run on it. */
bool topo_has_cpu(const struct topo *t, unsigned cpu);
bool topo_cpu_allowed(const struct topo *t, unsigned cpu);
bool topo_has_node(const struct topo *t, unsigned node);
/* Whether some CPU of the machine is not allowed (taskset, cgroup). */
bool topo_restricted(const struct topo *t);

/*
 * The cache of cpu at level: kind 'd' takes a Data or Unified cache,
 * 'i' an Instruction or Unified one, 'u' only a Unified one.  NULL when
 * the CPU has none.
 */
const struct topo_cache *topo_cache(const struct topo *t, unsigned cpu,
				    unsigned level, char kind);
/* The last-level cache of cpu: the highest level that holds data. */
const struct topo_cache *topo_llc(const struct topo *t, unsigned cpu);
/* Whether any CPU has any cache known. */
bool topo_any_cache(const struct topo *t);

/* "L1d", "L1i", "L2", "L3" (a unified or data cache above L1 has no
 * letter) into buf, for messages. */
const char *topo_cache_name(const struct topo_cache *c, char *buf, size_t len);

/* What to do when no cache is known: a sentence for error messages. */
#define TOPO_NO_CACHE_HINT "neither sysfs nor CPUID lists a cache for " \
	"this machine; give the size in bytes (e.g. 1m), or describe the " \
	"machine with --topology-file (hwloc XML from `lstopo --of xml`)"

/* One line for the run header: "topology: this machine (hwloc 2.9.0);
 * CPUs from sysfs, caches from CPUID (x86)". */
void topo_summary(const struct topo *t, char *buf, size_t len);

enum topo_format { TOPO_TEXT, TOPO_CSV, TOPO_JSON };

/*
 * --topology: a readable summary (where each fact came from, caches with
 * the CPUs sharing each instance, SMT siblings, each CPU's core, package,
 * node and kind, the CPUs this process may use, NUMA nodes with memory
 * and distances, RAM), or with TOPO_CSV one row per CPU per cache under
 * the header
 *	cpu,core,package,node,siblings,level,type,size,line,ways,sets,
 *	shared_cpus,allowed,kind,source
 * (a CPU without caches gets one row with the cache fields empty; unknown
 * values are empty fields; sizes in bytes; list fields are quoted when
 * they contain a comma; allowed is 1 or 0; source is the cache's), or
 * with TOPO_JSON an object with memjob (the version), origin, sources,
 * mem_total_kb and rows: the CSV rows as objects keyed by those columns,
 * unknown values null.  -1 when out of memory (nothing is written).
 */
int topo_print(FILE *f, const struct topo *t, enum topo_format fmt);

#endif
