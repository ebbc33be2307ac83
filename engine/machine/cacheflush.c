/*
 * cacheflush.c - the names of every architecture's cache-maintenance
 * instructions and fences, and which of them this build has (see
 * cacheflush.h).  What the CPU has, the loops that run them and the
 * probe's clock are the architecture's own files: cacheflush_x86.c,
 * cacheflush_arm64.c; on any other architecture memjob has none, and
 * says so.  The probe itself is cacheflush_probe.c.
 */
#include <stdio.h>
#include <string.h>

#include "machine/arch.h"
#include "machine/cacheflush.h"
#include "machine/cacheflush_int.h"

struct flush_insn {
	const char *name;
	const char *arch;
	const char *archs;		/* "x86-64's" */
};

#define X86	"x86-64", "x86-64's"
#define ARM64	"arm64", "arm64's"

static const struct flush_insn insns[FLUSH_KINDS] = {
	[FLUSH_NONE] = { "none", NULL, NULL },
	[FLUSH_CLFLUSH] = { "clflush", X86 },
	[FLUSH_CLFLUSHOPT] = { "clflushopt", X86 },
	[FLUSH_CLWB] = { "clwb", X86 },
	[FLUSH_DC_CVAC] = { "dc_cvac", ARM64 },
	[FLUSH_DC_CVAP] = { "dc_cvap", ARM64 },
	[FLUSH_DC_CIVAC] = { "dc_civac", ARM64 },
};

static const struct flush_insn fences[FENCE_KINDS] = {
	[FENCE_NONE] = { "none", NULL, NULL },
	[FENCE_SFENCE] = { "sfence", X86 },
	[FENCE_DSB] = { "dsb", ARM64 },
};

/* Whether an entry is this build's: no architecture (none), or ours. */
static bool here(const struct flush_insn *f)
{
	return !f->arch || !strcmp(f->arch, ARCH_NAME);
}

const char *flush_name(enum flush_kind k)
{
	return (unsigned)k < FLUSH_KINDS ? insns[k].name : "?";
}

const char *flush_arch(enum flush_kind k)
{
	return (unsigned)k < FLUSH_KINDS && insns[k].arch ? insns[k].arch : "";
}

bool flush_here(enum flush_kind k)
{
	return (unsigned)k < FLUSH_KINDS && here(&insns[k]);
}

const char *flush_unavailable(enum flush_kind k)
{
	if ((unsigned)k >= FLUSH_KINDS)
		return "unknown";
	if (!flush_here(k))
		return insns[k].archs;
	return k == FLUSH_NONE || flush_cpu_has(k) ? NULL : "this CPU lacks it";
}

void flush_list_here(char *buf, size_t len)
{
	size_t n = 0;
	int count = 0, seen = 0;

	for (int k = FLUSH_NONE + 1; k < FLUSH_KINDS; k++)
		count += !flush_unavailable((enum flush_kind)k);
	buf[0] = '\0';
	for (int k = FLUSH_NONE + 1; k < FLUSH_KINDS && n < len; k++) {
		if (flush_unavailable((enum flush_kind)k))
			continue;
		seen++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      seen == 1 ? "" : seen == count ? " or " :
				      ", ", insns[k].name);
	}
	if (!count)
		snprintf(buf, len, "none");
}

const char *fence_name(enum fence_kind f)
{
	return (unsigned)f < FENCE_KINDS ? fences[f].name : "?";
}

bool fence_here(enum fence_kind f)
{
	return (unsigned)f < FENCE_KINDS && here(&fences[f]);
}

const char *fence_arch(enum fence_kind f)
{
	return (unsigned)f < FENCE_KINDS && fences[f].arch ? fences[f].arch : "";
}

const char *fence_unavailable(enum fence_kind f)
{
	if ((unsigned)f >= FENCE_KINDS)
		return "unknown";
	return here(&fences[f]) ? NULL : fences[f].archs;
}

#if !defined(__x86_64__) && !defined(__aarch64__)

bool flush_cpu_has(enum flush_kind k)
{
	(void)k;
	return false;
}

const char *flush_feature(enum flush_kind k)
{
	(void)k;
	return "memjob knows no cache-maintenance instruction of " ARCH_NAME;
}

size_t flush_line_size(void)
{
	return 64;
}

flush_loop_fn flush_loop(enum flush_kind k, bool fence_each_line)
{
	(void)k;
	(void)fence_each_line;
	return NULL;
}

void flush_fence(void)
{
}

bool flush_clock_usable(char *why, size_t len)
{
	snprintf(why, len, "memjob has no load timer for " ARCH_NAME);
	return false;
}

uint64_t flush_timed_load(const volatile char *p)
{
	(void)*p;
	return 0;
}

void flush_full_fence(void)
{
	__sync_synchronize();
}

#endif
