/*
 * topofile.c - a topology file for hwloc to read instead of this machine
 * (see topofile.h).
 *
 * The one idea: the user names one file, and its first character says
 * what it is: '<' opens hwloc XML (lstopo --of xml), anything else is an
 * hwloc synthetic description, which may span lines and carry '#'
 * comment lines, as a description a person wrote for a machine would.
 */
#include "machine/topofile.h"
#include "machine/limits.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SYNTH_PREFIX	"synthetic:"
#define SYNTH_MAX	65536	/* a synthetic description file, bytes */
/* An XML file of the largest machine memjob describes (1024 PUs with
 * their caches, nodes and devices) takes a few MiB. */
#define XML_MAX		(16ull << 20)

/*
 * Bounds before hwloc reads a description: hwloc builds every object a
 * description implies, so "pack:1000000 core:1000 pu:1000" would take
 * gigabytes and minutes before memjob could say it has too many CPUs.
 * These checks read the text only.
 */

/* A number as hwloc's synthetic grammar writes it (strtoull, base 0),
 * with its size suffix for size= and memory=; false past 2^64. */
static bool synth_number(const char *s, const char **end, bool sized,
			 uint64_t *v)
{
	static const struct { const char *unit; unsigned shift; uint64_t mul; }
	units[] = {
		{ "TiB", 40, 1 }, { "GiB", 30, 1 }, { "MiB", 20, 1 },
		{ "kiB", 10, 1 }, { "TB", 0, 1000000000000ull },
		{ "GB", 0, 1000000000ull }, { "MB", 0, 1000000ull },
		{ "kB", 0, 1000ull },
	};
	char *e;

	errno = 0;
	*v = strtoull(s, &e, 0);
	*end = e;
	if (e == s || errno == ERANGE || *s == '-')
		return e == s;	/* no number: hwloc says what is wrong */
	for (size_t i = 0; sized && i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].unit);

		if (strncasecmp(e, units[i].unit, n))
			continue;
		*end = e + n;
		if (*v > (UINT64_MAX >> units[i].shift) / units[i].mul)
			return false;
		*v = (*v << units[i].shift) * units[i].mul;
		break;
	}
	return true;
}

/* The attributes "(size=32MiB indexes=...)" at s (just after '('): each
 * size= a cache can have.  The end: just after ')', or NULL (hwloc
 * reports the missing bracket). */
static const char *synth_attrs(const char *s, const char *where, char *err,
			       size_t errlen, int *bad)
{
	const char *close = strchr(s, ')');

	for (const char *a = s; close && (a = strstr(a, "size=")) && a < close;
	     a += 5) {
		const char *end;
		uint64_t v;

		if (a > s && a[-1] != ' ' && a[-1] != '(')
			continue;	/* (not "memory=") */
		if (!synth_number(a + 5, &end, true, &v) ||
		    v > MEMJOB_MAX_CACHE) {
			snprintf(err, errlen, "%.*s in '%.*s' is more than a "
				 "cache can hold (memjob takes caches up to "
				 "%llu GiB)", (int)(end - a), a,
				 (int)(close + 1 - where), where,
				 MEMJOB_MAX_CACHE >> 30);
			*bad = 1;
			return NULL;
		}
	}
	return close ? close + 1 : NULL;
}

int topo_synthetic_bound(const char *desc, char *err, size_t errlen)
{
	uint64_t pus = 1;
	const char *s = desc + strspn(desc, " \n");
	int bad = 0;

	if (*s == '(' && !(s = synth_attrs(s + 1, s, err, errlen, &bad)))
		return -bad;
	while (*(s += strspn(s, " \n"))) {
		const char *level = s, *end;
		uint64_t arity;

		if (*s == '[') {	/* a NUMA node attached: no level */
			const char *close = strchr(s, ']');

			if (!close)
				return 0;
			s = close + 1;
			continue;
		}
		if (*s < '0' || *s > '9') {	/* "type:" before the count */
			s += strcspn(s, ": \n(");
			if (*s != ':')
				return 0;
			s++;
		}
		if (!synth_number(s, &end, false, &arity))
			arity = UINT64_MAX;
		if (end == s)
			return 0;
		if (arity && pus > MEMJOB_MAX_CPUS / arity) {
			int n = (int)strcspn(level, " \n");

			if (arity == UINT64_MAX || pus > UINT64_MAX / arity)
				snprintf(err, errlen, "level '%.*s' has more "
					 "objects than a machine, beyond "
					 "memjob's limit of %d CPUs", n, level,
					 MEMJOB_MAX_CPUS);
			else
				snprintf(err, errlen, "its levels up to '%.*s' "
					 "describe at least %" PRIu64 " CPUs, "
					 "beyond memjob's limit of %d CPUs", n,
					 level, pus * arity, MEMJOB_MAX_CPUS);
			return -1;
		}
		pus *= arity ? arity : 1;
		s = end;
		if (*s == '(' &&
		    !(s = synth_attrs(s + 1, level, err, errlen, &bad)))
			return -bad;
	}
	return 0;
}

int topo_xml_bound(const char *file, char *err, size_t errlen)
{
	static const char pu[] = "type=\"PU\"";
	char buf[65536 + sizeof(pu)];
	size_t keep = 0, n;
	unsigned long long pus = 0;
	struct stat st;
	FILE *f = fopen(file, "re");

	if (!f)
		return 0;	/* hwloc says why */
	if (fstat(fileno(f), &st) || (uint64_t)st.st_size > XML_MAX) {
		snprintf(err, errlen, "it holds %lld bytes, more than an hwloc "
			 "XML file of memjob's largest machine (%d CPUs) takes "
			 "(memjob reads at most %llu MiB)",
			 (long long)st.st_size, MEMJOB_MAX_CPUS, XML_MAX >> 20);
		fclose(f);
		return -1;
	}
	/* the PUs, counted in blocks; the tail of one block starts the next
	 * so that no word is cut in two */
	while ((n = fread(buf + keep, 1, sizeof(buf) - keep - 1, f)) > 0) {
		n += keep;
		buf[n] = '\0';
		for (const char *p = buf; (p = memmem(p, n - (size_t)(p - buf),
						      pu, sizeof(pu) - 1));
		     p += sizeof(pu) - 1)
			pus++;
		keep = n < sizeof(pu) - 2 ? n : sizeof(pu) - 2;
		memmove(buf, buf + n - keep, keep);
	}
	fclose(f);
	if (pus > MEMJOB_MAX_CPUS) {
		snprintf(err, errlen, "it describes %llu CPUs, beyond memjob's "
			 "limit of %d CPUs", pus, MEMJOB_MAX_CPUS);
		return -1;
	}
	return 0;
}

/* A file holding a synthetic description, as one line: '#' comment
 * lines dropped, line ends made blanks. */
static char *read_synthetic(FILE *f, char *err, size_t errlen,
			    const char *file)
{
	char *buf = malloc(SYNTH_MAX + 1), line[4096];
	size_t n = 0, len;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	buf[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		const char *s = line + strspn(line, " \t");

		if (*s == '#')
			continue;
		len = strcspn(s, "\r\n");
		if (n + len + 1 > SYNTH_MAX) {
			snprintf(err, errlen, "%s: longer than %d bytes for a "
				 "synthetic description", file, SYNTH_MAX);
			free(buf);
			return NULL;
		}
		memcpy(buf + n, s, len);
		n += len;
		buf[n++] = ' ';
		buf[n] = '\0';
	}
	return buf;
}

/* A bound's refusal, after the file's name. */
static int refuse(const char *file, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "the topology file '%s': %s", file, why);
	return -1;
}

int topo_env_bound(char *err, size_t errlen)
{
	const char *synth = getenv("HWLOC_SYNTHETIC");
	const char *xml = getenv("HWLOC_XMLFILE");
	char why[512];

	if (synth && topo_synthetic_bound(synth, why, sizeof(why))) {
		snprintf(err, errlen, "HWLOC_SYNTHETIC='%s': %s", synth, why);
		return -1;
	}
	if (xml && topo_xml_bound(xml, why, sizeof(why))) {
		snprintf(err, errlen, "HWLOC_XMLFILE='%s': %s", xml, why);
		return -1;
	}
	return 0;
}

int topo_set_input(hwloc_topology_t h, const char *file,
		   enum topo_origin *o, char *err, size_t errlen)
{
	char why[512];
	char *desc = NULL;
	int c, saved;
	FILE *f;

	/* hwloc says what is wrong with a file only when asked to */
	setenv("HWLOC_XML_VERBOSE", "1", 0);
	setenv("HWLOC_SYNTHETIC_VERBOSE", "1", 0);
	if (!strncmp(file, SYNTH_PREFIX, strlen(SYNTH_PREFIX))) {
		*o = ORIGIN_SYNTH;
		if (strlen(file) > SYNTH_MAX) {
			snprintf(why, sizeof(why), "longer than %d bytes for a "
				 "synthetic description", SYNTH_MAX);
			return refuse(file, why, err, errlen);
		}
		if (topo_synthetic_bound(file + strlen(SYNTH_PREFIX), why,
					 sizeof(why)))
			return refuse(file, why, err, errlen);
		if (hwloc_topology_set_synthetic(h, file + strlen(SYNTH_PREFIX)))
			goto out_synth;
		return 0;
	}
	f = fopen(file, "re");
	if (!f) {
		snprintf(err, errlen, "cannot read the topology file '%s': %s",
			 file, strerror(errno));
		return -1;
	}
	do
		c = getc(f);
	while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	if (c == '<') {
		fclose(f);
		*o = ORIGIN_XML;
		if (topo_xml_bound(file, why, sizeof(why)))
			return refuse(file, why, err, errlen);
		if (hwloc_topology_set_xml(h, file)) {
			saved = errno;
			snprintf(err, errlen, "the topology file '%s' is not an "
				 "hwloc XML topology hwloc can read (%s); write "
				 "one with `lstopo --of xml FILE`", file,
				 strerror(saved));
			return -1;
		}
		return 0;
	}
	if (c != EOF)
		ungetc(c, f);
	*o = ORIGIN_SYNTH;
	desc = read_synthetic(f, err, errlen, file);
	fclose(f);
	if (!desc)
		return -1;
	if (!desc[strspn(desc, " ")]) {
		snprintf(err, errlen, "the topology file '%s' is empty: expected "
			 "hwloc XML or a synthetic description such as "
			 "'pack:2 core:16 pu:2'", file);
		free(desc);
		return -1;
	}
	if (topo_synthetic_bound(desc, why, sizeof(why))) {
		free(desc);
		return refuse(file, why, err, errlen);
	}
	if (hwloc_topology_set_synthetic(h, desc)) {
		free(desc);
		goto out_synth;
	}
	free(desc);
	return 0;
out_synth:
	snprintf(err, errlen, "the topology file '%s' is neither hwloc XML "
		 "(which starts with '<') nor a valid hwloc synthetic "
		 "description such as 'pack:2 l3:1(size=32MiB) core:16 "
		 "pu:2' (see hwloc's synthetic topology documentation)", file);
	return -1;
}

