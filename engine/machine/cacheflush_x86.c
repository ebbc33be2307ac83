/*
 * cacheflush_x86.c - x86-64's cache-line flushes (see cacheflush.h):
 * what cpuid says the CPU has, the line it flushes, and one loop per
 * instruction and fence scope, so that nothing but the instruction (and
 * its sfence) is inside the loop.  clflushopt and clwb are compiled with
 * their own target attribute and run only where cpuid has them (dax.c
 * refuses the job otherwise).  The flush probe's clock is the time-stamp
 * counter, read with rdtsc before the load and rdtscp after it (rdtscp
 * waits for the load to complete), and its fence mfence, which waits for
 * clflushopt and clwb too.
 */
#ifdef __x86_64__

#include <cpuid.h>
#include <immintrin.h>
#include <x86intrin.h>

#include "machine/cacheflush.h"
#include "machine/cacheflush_int.h"

#define LINE_DEFAULT	64

struct cpuid_bit {
	unsigned leaf;			/* cpuid leaf (subleaf 0) */
	bool ebx;			/* the bit is in EBX, else in EDX */
	unsigned bit;
	const char *where;		/* for messages */
};

static const struct cpuid_bit bits[FLUSH_KINDS] = {
	[FLUSH_CLFLUSH] = { 1, false, 19, "cpuid leaf 1, EDX bit 19" },
	[FLUSH_CLFLUSHOPT] = { 7, true, 23, "cpuid leaf 7, EBX bit 23" },
	[FLUSH_CLWB] = { 7, true, 24, "cpuid leaf 7, EBX bit 24" },
};

bool flush_cpu_has(enum flush_kind k)
{
	unsigned a, b, c, d;

	if (k == FLUSH_NONE || !flush_here(k))
		return false;
	if (!__get_cpuid_count(bits[k].leaf, 0, &a, &b, &c, &d))
		return false;
	return ((bits[k].ebx ? b : d) >> bits[k].bit) & 1;
}

const char *flush_feature(enum flush_kind k)
{
	return flush_here(k) && k != FLUSH_NONE ? bits[k].where : "";
}

/* cpuid leaf 1, EBX bits 15:8, in units of 8 bytes (/proc/cpuinfo's
 * "clflush size"). */
size_t flush_line_size(void)
{
	unsigned a, b, c, d;
	size_t line;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return LINE_DEFAULT;
	line = ((b >> 8) & 0xff) * 8;
	if (line < 16 || (line & (line - 1)))
		return LINE_DEFAULT;
	return line;
}

static void loop_clflush(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line)
		_mm_clflush((void *)p);
}

static void loop_clflush_fenced(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line) {
		_mm_clflush((void *)p);
		_mm_sfence();
	}
}

__attribute__((target("clflushopt")))
static void loop_clflushopt(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line)
		_mm_clflushopt((void *)p);
}

__attribute__((target("clflushopt")))
static void loop_clflushopt_fenced(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line) {
		_mm_clflushopt((void *)p);
		_mm_sfence();
	}
}

__attribute__((target("clwb")))
static void loop_clwb(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line)
		_mm_clwb((void *)p);
}

__attribute__((target("clwb")))
static void loop_clwb_fenced(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line) {
		_mm_clwb((void *)p);
		_mm_sfence();
	}
}

flush_loop_fn flush_loop(enum flush_kind k, bool fence_each_line)
{
	switch (k) {
	case FLUSH_CLFLUSH:
		return fence_each_line ? loop_clflush_fenced : loop_clflush;
	case FLUSH_CLFLUSHOPT:
		return fence_each_line ? loop_clflushopt_fenced : loop_clflushopt;
	case FLUSH_CLWB:
		return fence_each_line ? loop_clwb_fenced : loop_clwb;
	default:
		return NULL;
	}
}

void flush_fence(void)
{
	_mm_sfence();
}

bool flush_clock_usable(char *why, size_t len)
{
	(void)why;
	(void)len;
	return true;
}

uint64_t flush_timed_load(const volatile char *p)
{
	unsigned aux;
	uint64_t t0, t1;

	_mm_lfence();
	t0 = __rdtsc();
	_mm_lfence();
	(void)*p;
	t1 = __rdtscp(&aux);
	_mm_lfence();
	return t1 - t0;
}

void flush_full_fence(void)
{
	_mm_mfence();
}

#endif
