/*
 * sysfile.h - reading the small files of /proc and /sys below a root
 * directory (which tests point at fixture trees): one path builder and
 * one reader for topology.c and the sysstat modules.
 */
#ifndef MEMJOB_SYSFILE_H
#define MEMJOB_SYSFILE_H

#include <stddef.h>
#include <stdint.h>

/* root followed by the formatted rest into buf; -1 (ENAMETOOLONG) when
 * it does not fit. */
__attribute__((format(printf, 4, 5)))
int sysfile_path(char *buf, size_t len, const char *root, const char *fmt,
		 ...);
/* The path of file (free_hugepages, nr_hugepages) of the hugetlb pool of
 * pages of page bytes: root/sys/kernel/mm/hugepages/hugepages-NkB/file. */
int sysfile_hugepages(char *buf, size_t len, const char *root, uint64_t page,
		      const char *file);
/* The whole of a small file, trailing blanks and newline removed; -1 with
 * errno set when it cannot be read. */
int sysfile_text(const char *path, char *buf, size_t len);
/* A file holding one decimal number (blanks before it allowed); -1 when
 * it cannot be read or holds anything else. */
int sysfile_u64(const char *path, uint64_t *out);
/* A line of this machine's /proc/meminfo in bytes (key "MemFree:"); 0
 * when it cannot be read. */
uint64_t sysfile_meminfo(const char *key);

#endif
