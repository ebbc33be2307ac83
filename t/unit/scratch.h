/*
 * scratch.h - the unit tests' scratch directories and the files in them:
 * made fresh, written, read back whole, removed with everything inside.
 */
#ifndef MEMJOB_T_SCRATCH_H
#define MEMJOB_T_SCRATCH_H

#include <stddef.h>

/* A fresh directory memjob-TAG-XXXXXX in buf, below $TEST_TMP (which
 * t/run-tests.sh makes for each test binary and removes after it), else
 * $TMPDIR, else /tmp.  0, or -1 with errno set. */
int scratch_dir(char *buf, size_t len, const char *tag);

/* Remove dir and everything below it: 0, or -1 with errno set. */
int scratch_remove(const char *dir);

/* Write text to root/rel, making the directories on the way (a sysfs or
 * procfs tree for a test); fails the test when it cannot. */
void scratch_put(const char *root, const char *rel, const char *text);

/* The whole file (malloc'ed, with a NUL after it) and its length in
 * *len; fails the test when it cannot be read. */
unsigned char *scratch_read(const char *path, size_t *len);

#endif
