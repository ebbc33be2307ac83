/*
 * outname.c - --output's per-host and per-task file name pattern (see
 * outname.h): one table of placeholders serves the check, the expansion
 * and the message that lists them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/outname.h"

static const struct placeholder {
	char letter;
	const char *env;	/* NULL: computed here */
	const char *what;
} placeholders[] = {
	{ 'h', NULL, "the host name" },
	{ 'j', "SLURM_JOB_ID", "the Slurm job id" },
	{ 'A', "SLURM_ARRAY_JOB_ID", "the Slurm array's job id" },
	{ 'a', "SLURM_ARRAY_TASK_ID", "the Slurm array task id" },
	{ 't', "SLURM_PROCID", "the Slurm task rank" },
	{ 'p', NULL, "the process id" },
	{ '%', NULL, "a '%'" },
};

#define NPLACEHOLDERS (sizeof(placeholders) / sizeof(placeholders[0]))

static const struct placeholder *find(char letter)
{
	for (size_t i = 0; i < NPLACEHOLDERS; i++)
		if (placeholders[i].letter == letter)
			return &placeholders[i];
	return NULL;
}

bool outname_is_pattern(const char *s)
{
	return strchr(s, '%') != NULL;
}

int outname_check(const char *pattern, char *why, size_t len)
{
	for (const char *p = strchr(pattern, '%'); p; p = strchr(p, '%')) {
		if (!p[1] || !find(p[1])) {
			snprintf(why, len, "%s%.1s%s in '%s': expected %%h "
				 "(host), %%j (Slurm job id), %%A (array job "
				 "id), %%a (array task id), %%t (task rank), "
				 "%%p (process id) or %%%% (a '%%')",
				 p[1] ? "unknown placeholder '%" :
				 "a '%' at the end", p + 1, p[1] ? "'" : "",
				 pattern);
			return -1;
		}
		p += 2;
	}
	return 0;
}

/* A value that must not become part of a file name: a control
 * character (a newline would split the name in every listing and log),
 * or all of "." or "..", which name directories.  0, or -1 with why. */
static int unfit(const struct placeholder *ph, const char *pattern,
		 const char *v, char *why, size_t wlen)
{
	const char *src = ph->env ? ph->env : ph->what;

	for (const char *c = v; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			snprintf(why, wlen, "'%%%c' in '%s' is %s, but %s holds "
				 "a control character (byte 0x%02x): memjob "
				 "puts none in a file name", ph->letter,
				 pattern, ph->what, src, (unsigned char)*c);
			return -1;
		}
	if (!strcmp(v, ".") || !strcmp(v, "..")) {
		snprintf(why, wlen, "'%%%c' in '%s' is %s, but %s is '%s', "
			 "which names a directory", ph->letter, pattern,
			 ph->what, src, v);
		return -1;
	}
	return 0;
}

int outname_expand(const char *pattern, const char *host, char *buf,
		   size_t len, char *why, size_t wlen)
{
	size_t at = 0;

	for (const char *p = pattern; *p; p++) {
		const struct placeholder *ph = *p == '%' ? find(p[1]) : NULL;
		char pid[24];
		const char *v;
		size_t n;

		if (!ph) {
			v = p;
			n = 1;
		} else {
			p++;
			snprintf(pid, sizeof(pid), "%ld", (long)getpid());
			v = ph->letter == 'h' ? host :
			    ph->letter == 'p' ? pid :
			    ph->letter == '%' ? "%" : getenv(ph->env);
			if (!v || !*v) {
				snprintf(why, wlen, "'%%%c' in '%s' is %s, but "
					 "%s is not set (not run by Slurm?)",
					 ph->letter, pattern, ph->what,
					 ph->env ? ph->env : "it");
				return -1;
			}
			if (unfit(ph, pattern, v, why, wlen))
				return -1;
			n = strlen(v);
		}
		if (at + n >= len) {
			snprintf(why, wlen, "'%s' makes a name too long",
				 pattern);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			buf[at++] = ph && v[i] == '/' ? '_' : v[i];
	}
	buf[at] = '\0';
	return 0;
}
