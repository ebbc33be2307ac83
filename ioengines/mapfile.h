/*
 * mapfile.h - what the mapped data sources (mmap, dax, mem) share: the
 * state of one mapping that holds the job's region of the file, setting it
 * up from a file, and the get/sync/teardown that follow from it.
 *
 * A source whose e->priv is, or begins with, a struct mapfile uses
 * mapfile_get, mapfile_sync and mapfile_teardown as its ops directly.
 */
#ifndef MEMJOB_MAPFILE_H
#define MEMJOB_MAPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ioengines/ioengine.h"

struct mapfile {
	void *map;			/* what munmap() gets back */
	size_t maplen;
	unsigned char *buf;		/* the byte at file offset base */
	uint64_t base, size;		/* the job's region, in file offsets */
	uint64_t align;			/* of the mapping's start and end */
	bool write;			/* mapped for writing too */
};

/* How a source maps its file; see mapfile_setup(). */
struct mapfile_ops {
	/* The file's size in *fsize, and m->align if the page size is not
	 * enough.  NULL: mapfile_file_size().  0 or -errno, described. */
	int (*geometry)(struct ioe *e, struct mapfile *m, int fd,
			uint64_t *fsize);
	/* Map [start, start + len) of fd (whole units of m->align) into
	 * *map.  0 or -errno, described with ioe_error(). */
	int (*map)(struct ioe *e, struct mapfile *m, int fd, uint64_t start,
		   size_t len, void **map);
};

/*
 * Open e->path (read-write when m->write), check that the job's region
 * (offset, size; size 0: the rest of the file) lies inside the file, map
 * it with ops->map and point e->region at it.  The file is closed again:
 * the mapping holds it.  0 or -errno, described with ioe_error(); on
 * failure nothing is mapped.
 */
int mapfile_setup(struct ioe *e, struct mapfile *m,
		  const struct mapfile_ops *ops);

/* Size of the open file e->path: 0 or -errno, described. */
int mapfile_file_size(struct ioe *e, int fd, uint64_t *fsize);

/* Unmap m (if mapped) and clear e->region. */
void mapfile_unmap(struct ioe *e, struct mapfile *m);

/* ioengine_ops for sources whose e->priv begins with a struct mapfile:
 * get() points the unit into the mapping, sync() is msync(MS_SYNC),
 * teardown() unmaps and frees e->priv. */
int mapfile_get(struct ioe *e, struct io_unit *u);
int mapfile_sync(struct ioe *e, bool data_only);
void mapfile_teardown(struct ioe *e);

#endif
