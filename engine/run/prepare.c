/*
 * prepare.c - what a clone does before the group's barrier, apart from
 * its data source and kernel (see prepare.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioengines/ioengine.h"
#include "run/prepare.h"
#include "util/clock.h"

/* CPUs of the clone: cpus_allowed (or all) within numa_cpu_nodes; split
 * takes the clone's own CPU of that set. */
int prepare_cpus(const struct planned_job *pj, unsigned clone,
		 struct thread_result *out)
{
	const struct job_spec *j = pj->spec;
	cpu_set_t set;
	unsigned count = 0;

	out->cpu = -1;
	if (!j->cpus_allowed && !j->numa_cpu_nodes)
		return 0;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return thread_fail(out, "sched_getaffinity%s: %s", "", errno), -1;
	if (j->cpus_allowed)
		for (unsigned c = 0; c < CPU_SETSIZE; c++)
			if (!(pj->cpus[c / 64] & (1ULL << (c % 64))))
				CPU_CLR(c, &set);
	if (j->numa_cpu_nodes) {
		for (unsigned c = 0; c < CPU_SETSIZE; c++) {
			int node = numa_node_of_cpu((int)c);

			if (node < 0 || !(j->cpu_nodes[node / 64] &
					  (1ULL << (node % 64))))
				CPU_CLR(c, &set);
		}
	}
	count = (unsigned)CPU_COUNT(&set);
	if (!count) {
		out->status = RUN_FAILED;
		snprintf(out->err, sizeof(out->err), "no CPU is left in "
			 "cpus_allowed '%s' within numa_cpu_nodes '%s'",
			 j->cpus_allowed ? j->cpus_allowed : "all",
			 j->numa_cpu_nodes ? j->numa_cpu_nodes : "all");
		return -1;
	}
	if (j->cpus_policy == CPUS_SPLIT) {
		unsigned want = clone % count, seen = 0;

		for (unsigned c = 0; c < CPU_SETSIZE; c++) {
			if (!CPU_ISSET(c, &set))
				continue;
			if (seen++ == want) {
				CPU_ZERO(&set);
				CPU_SET(c, &set);
				out->cpu = (int)c;
				break;
			}
		}
	} else if (count == 1) {
		for (unsigned c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				out->cpu = (int)c;
	}
	if (sched_setaffinity(0, sizeof(set), &set))
		return thread_fail(out, "sched_setaffinity%s: %s", "", errno), -1;
	return 0;
}

int prepare_mempolicy(const struct job_spec *j, struct thread_result *out)
{
	const struct mempolicy *mp = &j->mem_policy;
	struct bitmask *nodes;
	int first = -1;

	if (mp->kind == MEMPOL_DEFAULT)
		return 0;
	if (mp->kind == MEMPOL_LOCAL) {
		numa_set_localalloc();
		return 0;
	}
	nodes = numa_allocate_nodemask();
	if (!nodes)
		return thread_fail(out, "numa_allocate_nodemask%s: %s", "", ENOMEM),
		       -1;
	for (unsigned n = 0; n < MEMJOB_MAX_NODES && n < nodes->size; n++)
		if (mp->nodes[n / 64] & (1ULL << (n % 64))) {
			numa_bitmask_setbit(nodes, n);
			if (first < 0)
				first = (int)n;
		}
	switch (mp->kind) {
	case MEMPOL_BIND:
		numa_set_membind(nodes);
		break;
	case MEMPOL_INTERLEAVE:
		numa_set_interleave_mask(nodes);
		break;
	case MEMPOL_PREFERRED:
		numa_set_preferred(first);
		break;
	default:
		break;
	}
	numa_free_nodemask(nodes);
	return 0;
}

/* path for reading, as ioe_open_as() opens it; -1 with out failed. */
static int open_read(const char *path, const struct stat *made,
		     const char *what, struct thread_result *out)
{
	char err[sizeof(out->err) - 16];
	int fd = ioe_open_as(path, O_RDONLY | O_CLOEXEC, made, err,
			     sizeof(err));

	if (fd >= 0)
		return fd;
	out->status = RUN_FAILED;
	snprintf(out->err, sizeof(out->err), "%s: %s", what, err);
	return -1;
}

int prepare_invalidate(const char *path, const struct stat *made,
		       struct thread_result *out)
{
	int fd = open_read(path, made, "invalidate", out);
	int err;

	if (fd < 0)
		return -1;
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (err)
		return thread_fail(out, "invalidate: posix_fadvise %s: %s", path,
			    err), -1;
	return 0;
}

/*
 * Whether clone is the first of its job on its file (clones share the
 * job's file unless filename_format gives each its own): a file shared
 * by several is preread once, by the first, before any clone starts.
 */
bool prepare_first_on_file(const struct planned_job *pj, unsigned clone)
{
	if (!pj->paths || !pj->paths[clone])
		return false;
	for (unsigned c = 0; c < clone; c++)
		if (pj->paths[c] && !strcmp(pj->paths[c], pj->paths[clone]))
			return false;
	return true;
}

/*
 * preread=1: read [off, off + len) of the file (to its end when len is
 * 0) once, through the page cache, so the job starts warm.  How many
 * bytes and how long go to *bytes and *ns for the report.
 */
int prepare_preread(const char *path, const struct stat *made, uint64_t off,
		    uint64_t len, uint64_t *bytes, uint64_t *ns,
		    struct thread_result *out)
{
	enum { CHUNK = 1 << 20 };
	int fd = open_read(path, made, "preread", out);
	uint64_t t0 = mono_ns(), done = 0;
	char *buf;

	if (fd < 0)
		return -1;
	buf = malloc(CHUNK);
	if (!buf) {
		close(fd);
		return thread_fail(out, "preread%s: %s", "", ENOMEM), -1;
	}
	while (!len || done < len) {
		size_t want = !len || len - done > CHUNK ? CHUNK :
			      (size_t)(len - done);
		ssize_t n = pread(fd, buf, want, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			free(buf);
			close(fd);
			out->status = RUN_FAILED;
			snprintf(out->err, sizeof(out->err),
				 "preread: %s at offset %" PRIu64 ": %s", path,
				 off + done, strerror(err));
			return -1;
		}
		if (n == 0)		/* end of file: a short file is read whole */
			break;
		done += (uint64_t)n;
	}
	free(buf);
	close(fd);
	*bytes = done;
	*ns = mono_ns() - t0;
	return 0;
}
