/*
 * filegen.c - data patterns, and the files memjob creates with them.
 *
 * The one idea: a pattern's bytes are a pure function of (seed, offset).
 * randint's 32-bit integer number i is lo + (h * (hi - lo + 1)) >> 32,
 * where h is one half of the splitmix64 mix of seed ^ (i / 2) * golden (a
 * multiply-shift range reduction); there is no generator state to carry,
 * so any range of any file can be produced on its own (by file creation,
 * a write job or anonymous memory) and all of them agree byte for byte.  Integers are stored
 * little-endian; a range that cuts an integer takes the bytes it covers.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioengines/filegen.h"

#define GOLDEN		0x9e3779b97f4a7c15ULL
#define CHUNK		(4u << 20)	/* bytes per write() */
/* Made here, now, by this open: never an existing file, never through a
 * symbolic link (O_EXCL refuses one too; O_NOFOLLOW says so twice). */
#define CREATE_FLAGS	(O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC)

static inline uint64_t mix64(uint64_t z)
{
	z += GOLDEN;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * One mix gives two integers: number 2j + k takes the 32-bit half k of
 * mix64(seed ^ j * golden), scaled into [lo, hi] by a multiply-shift.
 * Half the mixing of one mix per integer, and still no state.
 */
static inline uint32_t randint_scale(uint64_t half, int32_t lo, uint64_t range)
{
	return (uint32_t)((int64_t)lo + (int64_t)((half * range) >> 32));
}

static inline uint32_t randint_at(uint64_t seed, uint64_t i, int32_t lo,
				  uint64_t range)
{
	uint64_t m = mix64(seed ^ ((i / 2) * GOLDEN));

	return randint_scale(i & 1 ? m >> 32 : m & 0xffffffffu, lo, range);
}

static inline void store_le32(unsigned char *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, 4);
}

static void randint_fill(const struct pattern *p, uint64_t seed,
			 uint64_t offset, unsigned char *out, size_t len)
{
	uint64_t range = (uint64_t)((int64_t)p->hi - p->lo + 1);
	uint64_t i = offset / 4;
	unsigned skip = (unsigned)(offset % 4);
	unsigned char tmp[4];

	if (skip) {			/* the tail of a cut integer */
		size_t n = 4 - skip < len ? 4 - skip : len;

		store_le32(tmp, randint_at(seed, i++, p->lo, range));
		memcpy(out, tmp + skip, n);
		out += n;
		len -= n;
	}
	if (len >= 4 && (i & 1)) {	/* to an even integer */
		store_le32(out, randint_at(seed, i++, p->lo, range));
		out += 4;
		len -= 4;
	}
	for (uint64_t key = (i / 2) * GOLDEN; len >= 8;
	     len -= 8, out += 8, i += 2, key += GOLDEN) {
		uint64_t m = mix64(seed ^ key);

		store_le32(out, randint_scale(m & 0xffffffffu, p->lo, range));
		store_le32(out + 4, randint_scale(m >> 32, p->lo, range));
	}
	for (; len >= 4; len -= 4, out += 4)
		store_le32(out, randint_at(seed, i++, p->lo, range));
	if (len) {			/* the head of a cut integer */
		store_le32(tmp, randint_at(seed, i, p->lo, range));
		memcpy(out, tmp, len);
	}
}

void pattern_fill(const struct pattern *p, uint64_t seed, uint64_t offset,
		  void *buf, size_t len)
{
	switch (p->kind) {
	case PATTERN_ZERO:
		memset(buf, 0, len);
		break;
	case PATTERN_BYTE:
		memset(buf, p->byte, len);
		break;
	case PATTERN_RANDINT:
		randint_fill(p, seed, offset, buf, len);
		break;
	}
}

/*
 * A decimal integer with an optional '-' (when neg), or 0x followed by hex
 * digits (when hex).  No spaces, no '+': what --dump prints is the
 * canonical form, and anything else is more likely a typo.
 */
static int parse_int(const char **sp, bool neg, bool hex, int64_t *out)
{
	const char *s = *sp;
	bool minus = false;
	unsigned base = 10;
	int64_t v = 0;
	int ndigits = 0;

	if (neg && *s == '-') {
		minus = true;
		s++;
	}
	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++, ndigits++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		if (v > (INT64_C(1) << 40))	/* far beyond any valid value */
			return -1;
		v = v * base + d;
	}
	if (!ndigits)
		return -1;
	*out = minus ? -v : v;
	*sp = s;
	return 0;
}

static int parse_byte(const char *s, struct pattern *p, const char **why)
{
	int64_t v;

	if (parse_int(&s, false, true, &v) || *s) {
		*why = "byte:N needs N as a decimal or 0xNN number, e.g. byte:0x5a";
		return -1;
	}
	if (v > 255) {
		*why = "byte:N needs N in 0..255";
		return -1;
	}
	p->kind = PATTERN_BYTE;
	p->byte = (uint8_t)v;
	return 0;
}

static int parse_randint(const char *s, struct pattern *p, const char **why)
{
	int64_t lo, hi;

	if (parse_int(&s, true, false, &lo) || *s++ != '-' ||
	    parse_int(&s, true, false, &hi) || *s) {
		*why = "randint:LO-HI needs two decimal integers, e.g. randint:0-20 or randint:-5-5";
		return -1;
	}
	if (lo < INT32_MIN || lo > INT32_MAX || hi < INT32_MIN || hi > INT32_MAX) {
		*why = "randint:LO-HI needs LO and HI within the 32-bit integers";
		return -1;
	}
	if (lo > hi) {
		*why = "randint:LO-HI needs LO <= HI";
		return -1;
	}
	p->kind = PATTERN_RANDINT;
	p->lo = (int32_t)lo;
	p->hi = (int32_t)hi;
	return 0;
}

int pattern_parse(const char *s, struct pattern *p, const char **why)
{
	struct pattern tmp = { .kind = PATTERN_ZERO };
	int ret;

	if (!strcmp(s, "zero") || !strcmp(s, "zeros"))
		ret = 0;
	else if (!strncmp(s, "byte:", 5))
		ret = parse_byte(s + 5, &tmp, why);
	else if (!strncmp(s, "randint:", 8))
		ret = parse_randint(s + 8, &tmp, why);
	else {
		*why = "expected zero, byte:N or randint:LO-HI";
		ret = -1;
	}
	if (!ret)
		*p = tmp;
	return ret;
}

void pattern_format(const struct pattern *p, char *buf, size_t len)
{
	switch (p->kind) {
	case PATTERN_ZERO:
		snprintf(buf, len, "zero");
		break;
	case PATTERN_BYTE:
		snprintf(buf, len, "byte:0x%02x", p->byte);
		break;
	case PATTERN_RANDINT:
		snprintf(buf, len, "randint:%" PRId32 "-%" PRId32, p->lo, p->hi);
		break;
	}
}

static int write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;	/* pwrite of >0 bytes never returns 0 */
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static void set_err(char *err, size_t errlen, const char *what,
		    const char *path, int e)
{
	if (err && errlen)
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(e));
}

int filegen_create(const char *path, uint64_t size, const struct pattern *p,
		   uint64_t seed, char *err, size_t errlen)
{
	return filegen_create_held(path, size, p, seed, NULL, err, errlen);
}

int filegen_create_held(const char *path, uint64_t size,
			const struct pattern *p, uint64_t seed, int *fdp,
			char *err, size_t errlen)
{
	size_t chunk = size < CHUNK ? (size_t)size : CHUNK;
	unsigned char *buf = NULL;
	uint64_t off;
	int fd, ret;

	fd = open(path, CREATE_FLAGS, 0644);
	if (fd < 0) {
		ret = -errno;
		/* Nothing of ours to remove, and maybe someone else's file. */
		set_err(err, errlen, "cannot create", path, -ret);
		return ret;
	}
	buf = malloc(chunk ? chunk : 1);
	if (!buf) {
		ret = -ENOMEM;
		set_err(err, errlen, "cannot allocate a buffer to write", path, ENOMEM);
		goto out_unlink;
	}
	/* zero and byte:N do not depend on the offset: fill once. */
	if (p->kind != PATTERN_RANDINT)
		pattern_fill(p, seed, 0, buf, chunk);
	for (off = 0; off < size; off += chunk) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;

		if (p->kind == PATTERN_RANDINT)
			pattern_fill(p, seed, off, buf, n);
		ret = write_all(fd, buf, n, off);
		if (ret) {
			if (err && errlen)
				snprintf(err, errlen, "write %s at offset %" PRIu64 ": %s",
					 path, off, strerror(-ret));
			goto out_unlink;
		}
	}
	if (fsync(fd)) {
		ret = -errno;
		set_err(err, errlen, "fsync", path, -ret);
		goto out_unlink;
	}
	free(buf);
	if (fdp) {
		*fdp = fd;
		return 0;
	}
	if (close(fd)) {
		ret = -errno;
		set_err(err, errlen, "close", path, -ret);
		unlink(path);
		return ret;
	}
	return 0;

out_unlink:
	free(buf);
	close(fd);
	unlink(path);
	return ret;
}

int filegen_create_sparse(const char *path, uint64_t size, int *fdp,
			  char *err, size_t errlen)
{
	int fd = open(path, CREATE_FLAGS, 0644);
	int ret;

	if (fd < 0) {
		snprintf(err, errlen, "cannot create '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	if (ftruncate(fd, (off_t)size)) {
		snprintf(err, errlen, "cannot size '%s' to %llu bytes: %s",
			 path, (unsigned long long)size, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	/* Reserve the blocks now: a job that stores into a mapping of a
	 * sparse file would get SIGBUS when the disk fills under it.  File
	 * systems without fallocate keep the file sparse. */
	ret = fallocate(fd, 0, 0, (off_t)size);
	if (ret && (errno == EOPNOTSUPP || errno == ENOSYS)) {
		snprintf(err, errlen, "note: the file system of '%s' cannot "
			 "reserve its blocks (fallocate: %s); a disk that fills "
			 "during the run may end the job", path,
			 strerror(errno));
		*fdp = fd;
		return 1;
	}
	if (ret) {
		snprintf(err, errlen, "cannot reserve %llu bytes for '%s': %s%s",
			 (unsigned long long)size, path, strerror(errno),
			 errno == ENOSPC ? " (the disk filled since memjob "
			 "checked it)" : "");
		close(fd);
		unlink(path);
		return -1;
	}
	*fdp = fd;
	return 0;
}
