/*
 * sysfile.c - the small files of /proc and /sys (see sysfile.h).
 */
#include "util/sysfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sysfile_path(char *buf, size_t len, const char *root, const char *fmt,
		 ...)
{
	size_t used = strlen(root);
	va_list ap;
	int n;

	if (used >= len)
		goto too_long;
	memcpy(buf, root, used + 1);	/* with its terminator */
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - used)
		goto too_long;
	return 0;
too_long:
	errno = ENAMETOOLONG;
	return -1;
}

int sysfile_hugepages(char *buf, size_t len, const char *root, uint64_t page,
		      const char *file)
{
	return sysfile_path(buf, len, root,
			    "/sys/kernel/mm/hugepages/hugepages-%llukB/%s",
			    (unsigned long long)(page >> 10), file);
}

int sysfile_text(const char *path, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (used + 1 < len) {
		n = read(fd, buf + used, len - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto out_err;
		if (!n)
			break;
		used += (size_t)n;
	}
	close(fd);
	while (used && strchr("\n \t", buf[used - 1]))
		used--;
	buf[used] = '\0';
	return 0;
out_err:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int sysfile_u64(const char *path, uint64_t *out)
{
	char buf[64], *s = buf, *end;

	if (sysfile_text(path, buf, sizeof(buf)))
		return -1;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

uint64_t sysfile_meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;
	size_t n = strlen(key);

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) &&
		    sscanf(line + n, " %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}
