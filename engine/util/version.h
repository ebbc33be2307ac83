/*
 * version.h - memjob's version: git describe of the source it was built
 * from (build/gen/version.c, written by make at every build), or
 * configure's when the source is not a git checkout.
 */
#ifndef MEMJOB_VERSION_H
#define MEMJOB_VERSION_H

extern const char memjob_version[];

#endif
