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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYNTH_PREFIX	"synthetic:"
#define SYNTH_MAX	65536	/* a synthetic description file, bytes */

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

int topo_set_input(hwloc_topology_t h, const char *file,
		   enum topo_origin *o, char *err, size_t errlen)
{
	char *desc = NULL;
	int c, saved;
	FILE *f;

	/* hwloc says what is wrong with a file only when asked to */
	setenv("HWLOC_XML_VERBOSE", "1", 0);
	setenv("HWLOC_SYNTHETIC_VERBOSE", "1", 0);
	if (!strncmp(file, SYNTH_PREFIX, strlen(SYNTH_PREFIX))) {
		*o = ORIGIN_SYNTH;
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

