/*
 * cacheflush_arm64.c - arm64's cache maintenance by address (see
 * cacheflush.h): DC CVAC and DC CIVAC, which every ARMv8-A CPU has and
 * Linux lets user space run (SCTLR_EL1.UCI), DC CVAP where HWCAP_DCPOP
 * says the CPU has ARMv8.2's point of persistence, and DSB SY as the
 * fence that waits for them.  The line is the smallest data cache line
 * CTR_EL0 gives (DminLine, in 4-byte words), which Linux lets user space
 * read (or emulates the read).
 *
 * DC CVAP is written as the SYS instruction it is (op1 3, CRn 7, CRm 12,
 * op2 1), so that an assembler set for plain ARMv8.0 takes it; it runs
 * only where HWCAP_DCPOP is set and a first one did not trap (dax.c
 * refuses the job otherwise).
 *
 * The flush probe's clock is the generic timer's virtual count
 * (CNTVCT_EL0), the one counter Linux lets user space read: ISB before
 * each read, and DSB after the load so that the second read waits for
 * it.  It ticks at CNTFRQ_EL0, 1 GHz on ARMv8.6 and later but often
 * 25 to 100 MHz before (and 62.5 MHz under qemu), where a miss to memory
 * is a handful of ticks: below MIN_CLOCK_HZ the probe does not run and
 * says why.  Its fence is DSB SY.
 */
#ifdef __aarch64__

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "machine/cacheflush.h"
#include "machine/cacheflush_int.h"

#ifndef HWCAP_DCPOP
#define HWCAP_DCPOP	(1UL << 16)
#endif

#define LINE_DEFAULT	64
#define MIN_CLOCK_HZ	400000000ULL	/* a miss to memory: 40 ticks */

#define DC(op, p)	__asm__ __volatile__(op ", %0" :: "r"(p) : "memory")
#define DSB()		__asm__ __volatile__("dsb sy" ::: "memory")
#define DC_CVAP(p)	DC("sys #3, c7, c12, #1", p)

/* Whether DC CVAP runs, beyond what HWCAP says: qemu-user (7.2) sets
 * HWCAP_DCPOP for its "max" CPU and then treats DC CVAP as undefined.
 * One DC CVAP on a line of the stack, with SIGILL caught; asked once,
 * when the first job is checked, before any thread runs. */
static sigjmp_buf probe_jmp;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static bool cvap_runs;

static void probe_sigill(int sig)
{
	(void)sig;
	siglongjmp(probe_jmp, 1);
}

static void probe_cvap(void)
{
	struct sigaction sa, old;
	volatile char line[256];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_sigill;
	sigemptyset(&sa.sa_mask);
	line[0] = 1;
	if (sigaction(SIGILL, &sa, &old))
		return;
	if (!sigsetjmp(probe_jmp, 1)) {
		DC_CVAP((uintptr_t)line);
		cvap_runs = true;
	}
	sigaction(SIGILL, &old, NULL);
}

static bool hwcap_dcpop(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_DCPOP) != 0;
}

bool flush_cpu_has(enum flush_kind k)
{
	switch (k) {
	case FLUSH_DC_CVAC:
	case FLUSH_DC_CIVAC:
		return true;
	case FLUSH_DC_CVAP:
		if (!hwcap_dcpop())
			return false;
		pthread_once(&probe_once, probe_cvap);
		return cvap_runs;
	default:
		return false;
	}
}

const char *flush_feature(enum flush_kind k)
{
	switch (k) {
	case FLUSH_DC_CVAC:
	case FLUSH_DC_CIVAC:
		return "ARMv8-A";
	case FLUSH_DC_CVAP:
		if (hwcap_dcpop() && !flush_cpu_has(k))
			return "HWCAP_DCPOP is set, but DC CVAP is undefined "
			       "here: an emulator that lacks it";
		return "HWCAP_DCPOP, ARMv8.2's point of persistence";
	default:
		return "";
	}
}

size_t flush_line_size(void)
{
	uint64_t ctr;

	__asm__ __volatile__("mrs %0, ctr_el0" : "=r"(ctr));
	ctr = 4u << ((ctr >> 16) & 0xf);
	return ctr >= 16 && ctr <= 2048 ? (size_t)ctr : LINE_DEFAULT;
}

static void loop_cvac(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line)
		DC("dc cvac", p);
}

static void loop_cvac_fenced(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line) {
		DC("dc cvac", p);
		DSB();
	}
}

static void loop_cvap(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line)
		DC_CVAP(p);
}

static void loop_cvap_fenced(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line) {
		DC_CVAP(p);
		DSB();
	}
}

static void loop_civac(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line)
		DC("dc civac", p);
}

static void loop_civac_fenced(uintptr_t p, uintptr_t end, size_t line)
{
	for (; p < end; p += line) {
		DC("dc civac", p);
		DSB();
	}
}

flush_loop_fn flush_loop(enum flush_kind k, bool fence_each_line)
{
	switch (k) {
	case FLUSH_DC_CVAC:
		return fence_each_line ? loop_cvac_fenced : loop_cvac;
	case FLUSH_DC_CVAP:
		return fence_each_line ? loop_cvap_fenced : loop_cvap;
	case FLUSH_DC_CIVAC:
		return fence_each_line ? loop_civac_fenced : loop_civac;
	default:
		return NULL;
	}
}

void flush_fence(void)
{
	DSB();
}

bool flush_clock_usable(char *why, size_t len)
{
	uint64_t hz;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
	if (hz >= MIN_CLOCK_HZ)
		return true;
	snprintf(why, len, "the generic timer (CNTVCT_EL0) ticks at %.1f MHz, "
		 "too coarse to time one load", (double)hz / 1e6);
	return false;
}

uint64_t flush_timed_load(const volatile char *p)
{
	uint64_t t0, t1;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb"
			     : "=r"(t0) :: "memory");
	(void)*p;
	__asm__ __volatile__("dsb ish\n\tisb\n\tmrs %0, cntvct_el0"
			     : "=r"(t1) :: "memory");
	return t1 - t0;
}

void flush_full_fence(void)
{
	DSB();
}

#endif
