/*
 * optfio.c - fio's words whose values need more than a plain type.
 *
 * memjob takes fio's job files wherever it has the concept; where fio's
 * value asks for something memjob does not do (blocks of several sizes,
 * a percentile it does not compute), the value is refused here with the
 * reason and what to write instead, never taken and ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/optfio.h"
#include "util/value.h"

/* "expected read, write, ... or randrw" */
static int rw_words_error(const struct opt_def *o, const char *val,
			  const char **why, char *buf, size_t buflen)
{
	size_t n = (size_t)snprintf(buf, buflen, "expected ");
	char word[32];
	const char *near;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(val, ":"), val);
	near = value_nearest_word(word, o->words);

	for (size_t i = 0; o->words[i] && n < buflen; i++)
		n += (size_t)snprintf(buf + n, buflen - n, "%s%s",
				      i ? (o->words[i + 1] ? ", " : " or ") : "",
				      o->words[i]);
	if (n < buflen)
		snprintf(buf + n, buflen - n, ", optionally with :N, got '%s'"
			 "%s%s%s", val, near ? "; did you mean '" : "",
			 near ? near : "", near ? "'?" : "");
	*why = buf;
	return -1;
}

/*
 * fio's rw=MODE:N.  Sequential: skip N bytes after each block.  Random:
 * N blocks in a row from each random place.  fio's negative N (moving
 * backwards) has no memjob counterpart and is refused.
 */
int optv_parse_rw(const struct opt_def *o, struct job_spec *j,
		  const char *val, const char **why, char *buf, size_t buflen)
{
	const char *colon = strchr(val, ':');
	char word[16];
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	uint64_t v = 0;
	int k;

	if (n >= sizeof(word))
		return rw_words_error(o, val, why, buf, buflen);
	memcpy(word, val, n);
	word[n] = '\0';
	k = value_word(word, o->words);
	if (k < 0)
		return rw_words_error(o, val, why, buf, buflen);
	if (colon) {
		const char *m = colon + 1;

		if (*m == '-') {
			snprintf(buf, buflen, "a negative :N (fio's backward "
				 "order) is not supported by memjob, got '%s'",
				 val);
			*why = buf;
			return -1;
		}
		if (RW_IS_RANDOM(k) ? value_uint(m, &v, why)
				    : value_size(m, &v, why))
			return -1;
		if (RW_IS_RANDOM(k) && v == 0) {
			*why = "rw=MODE:N with a random mode needs N of 1 or "
			       "more (blocks in a row)";
			return -1;
		}
	}
	j->rw = (enum rw_mode)k;
	j->rw_skip = RW_IS_RANDOM(k) ? 0 : v;
	j->rw_run = RW_IS_RANDOM(k) && v > 1 ? v : 0;
	return 0;
}

void optv_format_rw(const struct opt_def *o, const struct job_spec *j,
		    char *buf, size_t len)
{
	char n[32];

	if (j->rw_skip) {
		value_format_size(j->rw_skip, n, sizeof(n));
		snprintf(buf, len, "%s:%s", o->words[j->rw], n);
	} else if (j->rw_run) {
		snprintf(buf, len, "%s:%llu", o->words[j->rw],
			 (unsigned long long)j->rw_run);
	} else {
		snprintf(buf, len, "%s", o->words[j->rw]);
	}
}

static int one_size_only(const char *opt, const char *val, const char **why,
			 char *buf, size_t buflen)
{
	snprintf(buf, buflen, "memjob's blocks all have one size (bs), so "
		 "%s takes one size only, got '%s'; to compare block sizes, "
		 "sweep them (sweep=bs:4k,64k)", opt, val);
	*why = buf;
	return -1;
}

/* bsrange=A-B (fio also takes A:B); a read,write pair must agree. */
int optv_parse_bsrange(const struct opt_def *o, struct job_spec *j,
		       const char *val, const char **why, char *buf,
		       size_t buflen)
{
	char tmp[128], *lo, *hi, *comma;
	uint64_t a, b;

	(void)o;
	if (strlen(val) >= sizeof(tmp)) {
		*why = "expected SIZE-SIZE";
		return -1;
	}
	strcpy(tmp, val);
	comma = strchr(tmp, ',');
	if (comma) {	/* reads,writes: one size for both */
		*comma = '\0';
		if (strcmp(tmp, comma + 1) && comma[1])
			return one_size_only("bsrange", val, why, buf, buflen);
	}
	lo = tmp;
	hi = strpbrk(tmp, "-:");
	if (!hi) {
		*why = "expected SIZE-SIZE (such as 4k-4k)";
		return -1;
	}
	*hi++ = '\0';
	if (value_size(lo, &a, why) || value_size(hi, &b, why))
		return -1;
	if (a == 0 || a != b)
		return one_size_only("bsrange", val, why, buf, buflen);
	j->bsrange_bs = a;
	return 0;
}

/* bsrange=A-A, bssplit=A/100: the one size either can give. */
static void format_one_size(uint64_t bs, bool range, char *buf, size_t len)
{
	char v[32];

	buf[0] = '\0';
	if (!bs)
		return;
	value_format_size(bs, v, sizeof(v));
	snprintf(buf, len, "%s%s%s", v, range ? "-" : "/100", range ? v : "");
}

void optv_format_bsrange(const struct opt_def *o, const struct job_spec *j,
			 char *buf, size_t len)
{
	(void)o;
	format_one_size(j->bsrange_bs, true, buf, len);
}

/* bssplit=A/P:B/Q...: only one size, at 100% (or with no share). */
int optv_parse_bssplit(const struct opt_def *o, struct job_spec *j,
		       const char *val, const char **why, char *buf,
		       size_t buflen)
{
	char tmp[128], *slash;
	uint64_t a, pct = 100;

	(void)o;
	if (strlen(val) >= sizeof(tmp)) {
		*why = "expected SIZE/PERCENT";
		return -1;
	}
	strcpy(tmp, val);
	if (strpbrk(tmp, ":,"))
		return one_size_only("bssplit", val, why, buf, buflen);
	slash = strchr(tmp, '/');
	if (slash) {
		*slash++ = '\0';
		if (*slash && value_uint(slash, &pct, why))
			return -1;
	}
	if (value_size(tmp, &a, why))
		return -1;
	if (a == 0 || pct != 100)
		return one_size_only("bssplit", val, why, buf, buflen);
	j->bssplit_bs = a;
	return 0;
}

void optv_format_bssplit(const struct opt_def *o, const struct job_spec *j,
			 char *buf, size_t len)
{
	(void)o;
	format_one_size(j->bssplit_bs, false, buf, len);
}

/* The percentiles every latency report has (100 is the maximum). */
static const double reported[] = { 50, 90, 99, 99.9, 100 };

int optv_parse_percentiles(const struct opt_def *o, struct job_spec *j,
			   const char *val, const char **why, char *buf,
			   size_t buflen)
{
	const char *p = val;
	char *s;

	(void)o;
	while (*p) {
		char *end;
		double v = strtod(p, &end);
		bool ok = false;

		if (end == p || (*end && *end != ':')) {
			*why = "expected percentiles separated by colons, "
			       "such as 50:99:99.9";
			return -1;
		}
		for (size_t i = 0; i < sizeof(reported) / sizeof(*reported); i++)
			ok |= v == reported[i];
		if (!ok) {
			snprintf(buf, buflen, "memjob reports the latency "
				 "percentiles 50, 90, 99, 99.9 and 100 (the "
				 "maximum); %.*s is not one of them, got '%s'",
				 (int)(end - p), p, val);
			*why = buf;
			return -1;
		}
		p = *end ? end + 1 : end;
	}
	s = strdup(val);
	if (!s) {
		*why = "out of memory";
		return -1;
	}
	free(j->percentile_list);
	j->percentile_list = s;
	return 0;
}

/* fio's engines that memjob does not have, and memjob's way to the same
 * measurement where there is one. */
static const struct {
	const char *fio, *instead;
} fio_engines[] = {
	{ "sync", "ioengine=psync (pread/pwrite)" },
	{ "vsync", "ioengine=psync" },
	{ "pvsync", "ioengine=psync" },
	{ "pvsync2", "ioengine=psync" },
	{ "posixaio", "ioengine=libaio or io_uring" },
	{ "io_uring_cmd", NULL },
	{ "xnvme", "ioengine=io_uring" },
	{ "sg", NULL },
	{ "splice", NULL },
	{ "netsplice", NULL },
	{ "net", NULL },
	{ "rdma", NULL },
	{ "rbd", NULL },
	{ "http", NULL },
	{ "nfs", NULL },
	{ "nbd", NULL },
	{ "libiscsi", NULL },
	{ "gfapi", NULL },
	{ "gfapi_async", NULL },
	{ "libhdfs", NULL },
	{ "dfs", NULL },
	{ "mtd", NULL },
	{ "libblkio", NULL },
	{ "falloc", NULL },
	{ "e4defrag", NULL },
	{ "filecreate", NULL },
	{ "filestat", NULL },
	{ "filedelete", NULL },
	{ "dircreate", NULL },
	{ "dirstat", NULL },
	{ "dirdelete", NULL },
	{ "external", NULL },
	{ "windowsaio", "ioengine=libaio or io_uring" },
	{ "solarisaio", "ioengine=libaio or io_uring" },
	{ "dev-dax", "ioengine=dax (on /dev/daxX.Y)" },
	{ "libpmem", "ioengine=dax" },
	{ "cpuio", "a compute kernel on memory (ioengine=mem kernel=count, "
		   "sum, triad...)" },
	{ "exec", "kernel=exec command=PROGRAM" },
};

bool optv_fio_engine_refusal(const char *val, char *buf, size_t buflen)
{
	for (size_t i = 0; i < sizeof(fio_engines) / sizeof(*fio_engines); i++)
		if (!strcmp(fio_engines[i].fio, val)) {
			snprintf(buf, buflen, "fio's ioengine %s is not "
				 "supported by memjob%s%s", val,
				 fio_engines[i].instead ? "; the memjob way: " : "",
				 fio_engines[i].instead ? fio_engines[i].instead
							: "");
			return true;
		}
	return false;
}
