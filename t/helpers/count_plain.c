/*
 * count_plain.c - the test oracle: count the int32s equal to VALUE in FILE.
 *
 *     count_plain FILE [VALUE]       (VALUE defaults to 10)
 *
 * Prints the count as a bare decimal number.  The file is read as native
 * int32 elements; 1..3 trailing bytes that do not make a whole element are
 * ignored.  It shares no code with memjob on purpose: end-to-end tests
 * compare memjob's count kernels against this plain loop.
 *
 * Exit status: 0 printed a count, 1 could not read FILE, 2 bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK (1u << 20) /* bytes; a multiple of 4 */

static uint64_t count_in(const int32_t *p, size_t n, int32_t value)
{
	uint64_t count = 0;
	size_t i;

	for (i = 0; i < n; i++)
		count += p[i] == value;
	return count;
}

/* The fallback for files that cannot be mapped (pipes, /proc). */
static int count_by_read(int fd, int32_t value, uint64_t *count)
{
	int32_t *buf;
	size_t have = 0;
	int ret = -1;

	buf = malloc(READ_CHUNK);
	if (!buf)
		return -1;
	*count = 0;
	for (;;) {
		ssize_t got = read(fd, (char *)buf + have, READ_CHUNK - have);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			goto out;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		*count += count_in(buf, have / 4, value);
		/* Carry a partial element over to the next read. */
		memmove(buf, (char *)buf + have / 4 * 4, have % 4);
		have %= 4;
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

static int count_by_mmap(int fd, size_t size, int32_t value, uint64_t *count)
{
	void *map;

	if (size < 4) {
		*count = 0;
		return 0;
	}
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -1;
	/* Advice only: a failure changes nothing we report. */
	(void)madvise(map, size, MADV_SEQUENTIAL);
	*count = count_in(map, size / 4, value);
	if (munmap(map, size) != 0)
		return -1;
	return 0;
}

static int parse_value(const char *s, int32_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < INT32_MIN || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	return 0;
}

int main(int argc, char **argv)
{
	int32_t value = 10;
	uint64_t count;
	struct stat st;
	int fd, ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: count_plain FILE [VALUE]\n");
		return 2;
	}
	if (argc == 3 && parse_value(argv[2], &value) != 0) {
		fprintf(stderr,
			"count_plain: VALUE must be an int32, got '%s'\n",
			argv[2]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "count_plain: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	if (fstat(fd, &st) != 0) {
		ret = -1;
	} else if (S_ISREG(st.st_mode) && st.st_size > 0 &&
		   (uint64_t)st.st_size <= SIZE_MAX) {
		ret = count_by_mmap(fd, (size_t)st.st_size, value, &count);
		if (ret != 0 && errno == ENODEV)
			ret = count_by_read(fd, value, &count);
	} else {
		ret = count_by_read(fd, value, &count);
	}
	if (ret != 0) {
		fprintf(stderr, "count_plain: %s: %s\n", argv[1],
			strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("%" PRIu64 "\n", count);
	return 0;
}
