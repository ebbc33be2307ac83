/*
 * scratch.c - scratch directories for the unit tests (see scratch.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch.h"

int scratch_dir(char *buf, size_t len, const char *tag)
{
	const char *base = getenv("TEST_TMP");

	if (!base || !*base)
		base = getenv("TMPDIR");
	snprintf(buf, len, "%s/memjob-%s-XXXXXX",
		 base && *base ? base : "/tmp", tag);
	return mkdtemp(buf) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int scratch_remove(const char *dir)
{
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

void scratch_put(const char *root, const char *rel, const char *text)
{
	char path[4096], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		fail_msg("create %s: %s", path, strerror(errno));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

unsigned char *scratch_read(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	size_t done = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		fail_msg("open %s failed", path);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);

		assert_true(n > 0);
		done += (size_t)n;
	}
	close(fd);
	buf[done] = '\0';	/* so that a text file can be used as a string */
	*len = done;
	return buf;
}
