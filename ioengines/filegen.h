/*
 * filegen.h - data patterns, and the files memjob creates with them.
 *
 * Pattern content is a pure function of (pattern, seed, byte offset): the
 * 32-bit integer at file offset 4*i is the same whether it is written by
 * file creation or generated into anonymous memory, so a count over any
 * data source gives the same exact answer.  (A write job's buffer is
 * filled once, with the pattern's first bs bytes, and written at every
 * offset: regenerating it per block would cost more than the write.)
 */
#ifndef MEMJOB_FILEGEN_H
#define MEMJOB_FILEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "spec/job.h"

/* Fill buf with the pattern's bytes for [offset, offset + len).  offset
 * and len need not be multiples of 4. */
void pattern_fill(const struct pattern *p, uint64_t seed, uint64_t offset,
		  void *buf, size_t len);

/* "zero", "byte:0x5a", "randint:0-20": parse and format (for --dump). */
int pattern_parse(const char *s, struct pattern *p, const char **why);
void pattern_format(const struct pattern *p, char *buf, size_t len);

/*
 * Create path (which must not exist, nor be a symbolic link:
 * O_CREAT|O_EXCL|O_NOFOLLOW) holding size bytes of
 * the pattern, written in large sequential chunks and fsync'ed so that its
 * pages are clean and can be dropped from the page cache.  On failure the
 * partial file is removed and err describes why.
 */
int filegen_create(const char *path, uint64_t size, const struct pattern *p,
		   uint64_t seed, char *err, size_t errlen);
/* The same, keeping the file open: on success *fdp is its descriptor
 * (write-only), which the caller holds as long as the file is its. */
int filegen_create_held(const char *path, uint64_t size,
			const struct pattern *p, uint64_t seed, int *fdp,
			char *err, size_t errlen);

/* Create path (O_EXCL) with size bytes for a job that writes it, its
 * blocks reserved (fallocate) but not written: 0, -1 with err saying why
 * (a full disk), or 1 with a note in err when the file system cannot
 * reserve blocks (the file is then sparse, made by the job's writes).
 * On 0 and 1, *fdp holds the file open (write-only). */
int filegen_create_sparse(const char *path, uint64_t size, int *fdp,
			  char *err, size_t errlen);

#endif
