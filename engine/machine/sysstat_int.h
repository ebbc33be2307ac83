/*
 * sysstat_int.h - helpers shared by the sysstat*.c modules only;
 * not part of the interface (that is sysstat.h).
 */
#ifndef MEMJOB_SYSSTAT_INT_H
#define MEMJOB_SYSSTAT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "util/sysfile.h"

#define SYSSTAT_LINE_LEN	512	/* longest proc/sysfs line we follow */

/* A sentence into err (which may be NULL). */
__attribute__((format(printf, 3, 4)))
void sysstat_set_err(char *err, size_t len, const char *fmt, ...);

/* The page size in KiB (4 when sysconf cannot say): vmstat counts pages. */
uint64_t sysstat_page_kb(void);
#endif
