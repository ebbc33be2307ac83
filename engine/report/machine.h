/*
 * machine.h - what a result row says about the machine and the task that
 * measured it, so that a fleet's rows can be told apart and compared only
 * with their like: the CPU model, a short topology summary, the kernel,
 * memjob's version, a hash of the resolved jobs, a machine type derived
 * from the model and the summary, and the Slurm context of the task.
 *
 * The one idea: two rows are comparable when their machine_type and
 * job_hash are equal.  machine_type is a hash of "model|summary" (two
 * nodes of the same model, sockets, cores, threads and cache sizes are one
 * type, whatever their names); job_hash is a hash of the jobs as --dump
 * prints them, without its comment lines (those say what a relative size
 * came to on this machine), so the same job file and options give the
 * same hash on any machine.
 *
 * The summary reads only struct topo's public fields (topology.h), so it
 * does not care how the topology was loaded.  The CPU model comes from
 * ROOT/proc/cpuinfo (ROOT as the topology's: MEMJOB_SYSROOT or "/"):
 * "model name" (x86 and most others), else arm64's "CPU implementer" and
 * "CPU part", else "unknown".  The Slurm fields are the environment's
 * SLURM_JOB_ID, SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID, SLURM_PROCID and
 * SLURMD_NODENAME, empty when unset.
 */
#ifndef MEMJOB_MACHINE_H
#define MEMJOB_MACHINE_H

#include <stddef.h>
#include <stdio.h>

#include "util/row.h"
#include "machine/topology.h"

#define MACHINE_HASH_LEN	12	/* hex digits of the two hashes */

struct machine_id {
	char cpu_model[128];
	char topology[160];	/* "2s/32c/64t L1d 48k L1i 32k L2 1m L3 32m" */
	char kernel_release[65];
	char machine_type[MACHINE_HASH_LEN + 1];
	char job_hash[MACHINE_HASH_LEN + 1];
	char slurm_job_id[64];		/* each slurm_* is 64 bytes */
	char slurm_array_job_id[64];
	char slurm_array_task_id[64];
	char slurm_procid[64];
	char slurm_nodename[64];
};

/* Everything but job_hash; t may be NULL (no topology: summary
 * "unknown"), root is where /proc/cpuinfo is read below. */
void machine_id_init(struct machine_id *m, const struct topo *t,
		     const char *root);
/* job_hash from the text of --dump (comment lines left out). */
void machine_job_hash(struct machine_id *m, const char *dump, size_t len);
/* The summary of t alone, into buf: sockets, cores, threads, then the
 * caches of the first CPU by level ("unknown" parts as '?'). */
void machine_topo_summary(const struct topo *t, char *buf, size_t len);

/* The run header's lines about the machine and the Slurm task. */
void machine_id_print(FILE *f, const struct machine_id *m);
/* The same facts as cells named as the CSV columns (cpu_model ...
 * slurm_nodename), for the JSON document's header. */
void machine_id_cells(struct row_emitter *e, const struct machine_id *m);

#endif
