/*
 * fiocompat.h - fio's words resolved into memjob's own options, and the
 * notes a run of fio-style job files gets (see fiocompat.c).
 */
#ifndef MEMJOB_FIOCOMPAT_H
#define MEMJOB_FIOCOMPAT_H

#include "util/diag.h"
#include "spec/job.h"

/* Fold fio's words of job j into memjob's options (filesize into size,
 * bsrange into bs, buffered into direct...), refusing what disagrees or
 * what memjob does not do.  Idempotent: it runs again per sweep point. */
void fio_resolve(struct job_spec *j, struct diag *d);
/* fio's block size, which a job file read as fio's gets by default. */
#define FIO_DEFAULT_BS	4096

/* A job from a job file read as fio's (j->fio_file): the defaults fio
 * documents where memjob's differ and the job left them unset, as fio
 * has them: ioengine=psync, bs=4k, invalidate=1 on a file,
 * fadvise_hint=1 where the source gives advice, and
 * iodepth_batch_submit=1 where it batches.  After the data source
 * is chosen; nothing for other jobs.  Idempotent. */
void fio_defaults(struct job_spec *j);
/* Once per run: one note naming the fio options set that change nothing
 * in memjob, and a warning per [global] option that no job uses. */
void fio_notes(const struct jobset *js, struct diag *d);

#endif
