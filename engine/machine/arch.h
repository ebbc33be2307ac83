/*
 * arch.h - the CPU architecture memjob is built for, and the one thing
 * every architecture does its own way and the core needs inline: a spin
 * loop's pause.
 *
 * What differs between architectures lives in files named for them, each
 * compiled to nothing on the others, so the build target picks them and no
 * core file names an instruction:
 *   machine/isa.c             the vector levels (x86-64: cpuid;
 *                             arm64: HWCAP) behind isa.h
 *   machine/cacheflush_x86.c  clflush, clflushopt, clwb, sfence; the
 *                             flush probe's rdtsc and mfence
 *   machine/cacheflush_arm64.c DC CVAC, DC CVAP, DC CIVAC, DSB; the
 *                             flush probe's CNTVCT_EL0
 *   kernels/count_x86.c, count_arm64.c  count's explicit intrinsics
 *   kernels/vec_x86.h, vec_arm64.h  the streaming stores (and sum's
 *                             widening loads) of the bandwidth loops
 *                             that kernels/vec.h gives fill and STREAM's
 *                             kernels
 *   kernels/sve.c             the SVE loops
 * Another architecture builds with plain C everywhere (no vector level
 * but the compiler's, no flush instruction, plain stores for nt) and
 * says so.
 */
#ifndef MEMJOB_ARCH_H
#define MEMJOB_ARCH_H

#if defined(__x86_64__)
#define ARCH_NAME	"x86-64"
#elif defined(__aarch64__)
#define ARCH_NAME	"arm64"
#elif defined(__riscv) && __riscv_xlen == 64
#define ARCH_NAME	"riscv64"
#else
#define ARCH_NAME	"this architecture"
#endif

/* In a spin loop: let a sibling hyperthread (or the hypervisor) have the
 * core for a moment. */
static inline void arch_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

#endif
