/*
 * topology.h - the machine's caches, SMT siblings, packages, NUMA nodes and
 * RAM, read once from sysfs and procfs.
 *
 * Everything is read below a root directory that the caller passes in:
 * "/" on a real run.  memjob takes the root from the environment variable
 * MEMJOB_SYSROOT when it is set (tests point it at the fixture trees in
 * t/fixtures/, which are copies of the seed machines' sysfs), so a 64-CPU
 * two-socket machine can be examined on a laptop.  The files read are
 *
 *	ROOT/sys/devices/system/cpu/online (or present)
 *	ROOT/sys/devices/system/cpu/cpuN/topology/{core_id,physical_package_id,
 *		thread_siblings_list (or core_cpus_list)}
 *	ROOT/sys/devices/system/cpu/cpuN/cache/indexM/{level,type,size,
 *		coherency_line_size,ways_of_associativity,number_of_sets,
 *		shared_cpu_list}
 *	ROOT/sys/devices/system/node/nodeN/cpulist
 *	ROOT/proc/meminfo (MemTotal)
 *
 * Only the CPU list is required.  Any other file may be missing (VMs leave
 * out ways, containers hide caches, non-NUMA kernels have no node
 * directory): the value is then recorded as unknown, which is 0 for sizes
 * and counts, -1 for ids and an empty set for CPU lists, and loading goes
 * on.  Without a node directory every CPU is on node 0.
 */
#ifndef MEMJOB_TOPOLOGY_H
#define MEMJOB_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "job.h"

#define TOPO_WORDS		BITMAP_WORDS(MEMJOB_MAX_CPUS)
#define TOPO_MAX_CACHES		8	/* cache indexes kept per CPU */

struct topo_cache {
	unsigned level;			/* 1, 2, 3...; 0 unknown */
	char type;			/* 'd' data, 'i' instruction,
					 * 'u' unified, '?' unknown */
	uint64_t size;			/* bytes */
	unsigned line;			/* coherency_line_size, bytes */
	unsigned ways;
	unsigned sets;
	uint64_t shared[TOPO_WORDS];	/* CPUs sharing this instance */
};

struct topo_cpu {
	bool present;			/* online (or present) */
	int core_id;			/* -1 unknown */
	int package_id;			/* -1 unknown */
	int node;			/* -1 unknown */
	uint64_t siblings[TOPO_WORDS];	/* SMT siblings, the CPU included */
	unsigned ncaches;
	struct topo_cache caches[TOPO_MAX_CACHES];
};

struct topo {
	char *root;			/* as passed to topo_load */
	unsigned ncpus;			/* highest CPU id + 1 */
	struct topo_cpu *cpus;		/* ncpus entries; check present */
	uint64_t online[TOPO_WORDS];	/* the present CPUs as a set */
	unsigned nnodes;		/* highest node id + 1 */
	uint64_t nodes[BITMAP_WORDS(MEMJOB_MAX_NODES)];	/* existing nodes */
	uint64_t (*node_cpus)[TOPO_WORDS];	/* nnodes entries */
	uint64_t ram;			/* MemTotal in bytes; 0 unknown */
};

/*
 * Read the topology below root ("/" for this machine).  Returns 0, or -1
 * with a sentence in err (e.g. when ROOT/sys/devices/system/cpu cannot be
 * read).  On success the caller owns *t and frees it with topo_free.
 */
int topo_load(struct topo *t, const char *root, char *err, size_t errlen);
void topo_free(struct topo *t);

/* Whether cpu exists in t. */
bool topo_has_cpu(const struct topo *t, unsigned cpu);
bool topo_has_node(const struct topo *t, unsigned node);

/*
 * The cache of cpu at level: kind 'd' takes a Data or Unified cache,
 * 'i' an Instruction or Unified one, 'u' only a Unified one.  NULL when
 * the CPU has none.
 */
const struct topo_cache *topo_cache(const struct topo *t, unsigned cpu,
				    unsigned level, char kind);
/* The last-level cache of cpu: the highest level that holds data. */
const struct topo_cache *topo_llc(const struct topo *t, unsigned cpu);

/* "L1d", "L1i", "L2", "L3" (a unified or data cache above L1 has no
 * letter) into buf, for messages. */
const char *topo_cache_name(const struct topo_cache *c, char *buf, size_t len);

enum topo_format { TOPO_TEXT, TOPO_CSV, TOPO_JSON };

/*
 * --topology: a readable summary (caches with the CPUs sharing each
 * instance, SMT siblings, each CPU's core, package and node, NUMA nodes,
 * RAM), or with TOPO_CSV one row per CPU per cache under the header
 *	cpu,core,package,node,siblings,level,type,size,line,ways,sets,shared_cpus
 * (a CPU without caches gets one row with the cache fields empty; unknown
 * values are empty fields; sizes in bytes; list fields are quoted when
 * they contain a comma), or with TOPO_JSON an object with memjob (the
 * version), root, mem_total_kb and rows: the CSV rows as objects keyed by
 * those columns, unknown values null.  -1 when out of memory (nothing is
 * written).
 */
int topo_print(FILE *f, const struct topo *t, enum topo_format fmt);

#endif
