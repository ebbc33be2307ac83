/*
 * pmusys.c - what the kernel says of its PMUs in sysfs, with or without
 * libpfm4 (pmu.h): the event sources it lists, an uncore PMU's name by
 * its perf type, and the CPUs its events are opened on (cpumask: one per
 * socket, or per LLC for AMD's L3 PMU), all below a root directory that
 * tests point at a fixture tree.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "machine/pmu.h"
#include "util/sysfile.h"
#include "util/value.h"

#define DEVICES		"/sys/bus/event_source/devices"

static const char *root_or_empty(const char *root)
{
	return root && strcmp(root, "/") ? root : "";
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void pmu_sysfs_list(const char *root, char *buf, size_t len)
{
	char dir[4096], *names[256];
	unsigned n = 0;
	size_t used = 0;
	struct dirent *de;
	DIR *d;

	buf[0] = '\0';
	if (sysfile_path(dir, sizeof(dir), root_or_empty(root), DEVICES) ||
	    !(d = opendir(dir)))
		return;
	while ((de = readdir(d)) && n < sizeof(names) / sizeof(names[0]))
		if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	for (unsigned i = 0; i < n; i++) {
		int w = used < len ? snprintf(buf + used, len - used, "%s%s",
					      i ? " " : "", names[i]) : 0;

		if (w > 0)
			used += (size_t)w;
		free(names[i]);
	}
}

int pmu_sysfs_name(const char *root, uint32_t type, char *buf, size_t len)
{
	char dir[4096], path[4096];
	struct dirent *de;
	uint64_t t;
	int ret = -1;
	DIR *d;

	if (sysfile_path(dir, sizeof(dir), root_or_empty(root), DEVICES) ||
	    !(d = opendir(dir)))
		return -1;
	while (ret < 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    sysfile_path(path, sizeof(path), root_or_empty(root),
				 DEVICES "/%s/type", de->d_name) ||
		    sysfile_u64(path, &t) || t != type)
			continue;
		snprintf(buf, len, "%s", de->d_name);
		ret = 0;
	}
	closedir(d);
	return ret;
}

int pmu_cpumask(const char *root, const char *perf_pmu, uint64_t *bits,
		unsigned words)
{
	char path[4096], text[4096];
	const char *why;
	int n = 0;

	memset(bits, 0, words * sizeof(*bits));
	if (sysfile_path(path, sizeof(path), root_or_empty(root),
			 DEVICES "/%s/cpumask", perf_pmu) ||
	    sysfile_text(path, text, sizeof(text)) || !text[0] ||
	    value_idlist(text, bits, words * 64, &why))
		return -1;
	for (unsigned w = 0; w < words; w++)
		n += __builtin_popcountll(bits[w]);
	return n;
}
