/*
 * isa.c - the vector level of the hot loops, picked once per process (see
 * isa.h).  The choice is a value computed from the CPU and MEMJOB_ISA,
 * the same in every thread; it is cached after isa_init() (or the first
 * isa_level()), which main() calls before any thread starts.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/isa.h"

#ifdef __aarch64__
#include <sys/auxv.h>
#ifndef HWCAP_SVE
#define HWCAP_SVE	(1UL << 22)
#endif
#endif

static const char *const isa_names[ISA_LEVELS] = {
#if defined(__x86_64__)
	[ISA_BASE] = "sse2",
#elif defined(__aarch64__)
	[ISA_BASE] = "neon",	/* Advanced SIMD: every arm64 Linux CPU's */
#else
	[ISA_BASE] = "generic",
#endif
#if defined(__x86_64__)
	[ISA_AVX2] = "avx2",
	[ISA_AVX512] = "avx512",
#elif defined(__aarch64__)
	[ISA_SVE] = "sve",
#endif
};

static atomic_int isa_cached = -1;

const char *isa_name(enum isa_level l)
{
	return (unsigned)l < ISA_LEVELS ? isa_names[l] : "?";
}

bool isa_cpu_has(enum isa_level l)
{
#ifdef __x86_64__
	switch (l) {
	case ISA_AVX512:
		return __builtin_cpu_supports("avx512f") &&
		       __builtin_cpu_supports("avx512bw") &&
		       __builtin_cpu_supports("avx512vl") &&
		       __builtin_cpu_supports("avx512dq");
	case ISA_AVX2:
		return __builtin_cpu_supports("avx2") &&
		       __builtin_cpu_supports("fma");
	default:
		return l == ISA_BASE;
	}
#elif defined(__aarch64__)
	/* NEON is every arm64 Linux CPU's; SVE where HWCAP says so and this
	 * compiler built the SVE code */
	if (l == ISA_SVE)
		return ISA_SVE_BUILT && (getauxval(AT_HWCAP) & HWCAP_SVE);
	return l == ISA_BASE;
#else
	return l == ISA_BASE;
#endif
}

static enum isa_level isa_widest(void)
{
	int l;

	for (l = ISA_LEVELS - 1; l > ISA_BASE; l--)
		if (isa_cpu_has((enum isa_level)l))
			return (enum isa_level)l;
	return ISA_BASE;
}

int isa_init(char *err, size_t len)
{
	const char *want = getenv("MEMJOB_ISA");
	int l;

	if (!want || !*want) {
		atomic_store(&isa_cached, (int)isa_widest());
		return 0;
	}
	for (l = 0; l < ISA_LEVELS; l++)
		if (!strcmp(want, isa_names[l]))
			break;
	if (l == ISA_LEVELS) {
		char names[64];
		size_t n = 0;

		for (l = ISA_LEVELS - 1; l >= 0; l--)
			n += (size_t)snprintf(names + n, sizeof(names) - n,
					      "%s%s", isa_names[l], l == 0 ? "" :
					      l == 1 ? " or " : ", ");
		snprintf(err, len, "MEMJOB_ISA=%s: not a vector level memjob "
			 "knows on this CPU architecture (%s)", want, names);
		return -1;
	}
	if (!isa_cpu_has((enum isa_level)l)) {
		snprintf(err, len, "MEMJOB_ISA=%s: this CPU does not support "
			 "it (the widest it has is %s)", want,
			 isa_names[isa_widest()]);
		return -1;
	}
	atomic_store(&isa_cached, l);
	return 0;
}

enum isa_level isa_level(void)
{
	int l = atomic_load_explicit(&isa_cached, memory_order_relaxed);

	if (l < 0) {		/* no isa_init(): a unit test, a library use */
		char err[128];

		if (isa_init(err, sizeof(err)))
			atomic_store(&isa_cached, (int)isa_widest());
		l = atomic_load(&isa_cached);
	}
	return (enum isa_level)l;
}

void isa_describe(char *buf, size_t len)
{
	size_t n;
	int l;

	n = (size_t)snprintf(buf, len, "%s (this CPU has:",
			     isa_name(isa_level()));
	for (l = ISA_LEVELS - 1; l >= 0 && n < len; l--)
		if (isa_cpu_has((enum isa_level)l))
			n += (size_t)snprintf(buf + n, len - n, " %s",
					      isa_names[l]);
	if (n < len)
		snprintf(buf + n, len - n, ")");
}
