/*
 * isa.h - which vector instructions the hot loops use: the widest the CPU
 * has (AVX-512, AVX2, else the baseline: SSE2 on x86-64, NEON on
 * arm64, the compiler's default elsewhere), picked once at run time, or
 * the one MEMJOB_ISA names (to compare widths, and for the tests of each
 * variant).
 *
 * A kernel writes its loop once, as an always_inline body, and
 * ISA_CLONES() compiles that body once per level with the target
 * attribute of that level, plus a dispatcher of the body's name that
 * calls the variant of isa_level().  `simple` loops stay out of it: they
 * are scalar on purpose.
 */
#ifndef MEMJOB_ISA_H
#define MEMJOB_ISA_H

#include <stdbool.h>
#include <stddef.h>

#if defined(__x86_64__)
enum isa_level { ISA_BASE, ISA_AVX2, ISA_AVX512, ISA_LEVELS };
#elif defined(__aarch64__)
enum isa_level { ISA_BASE, ISA_SVE, ISA_LEVELS };
#else
enum isa_level { ISA_BASE, ISA_LEVELS };
#endif

/* Whether this compiler builds SVE code (ACLE, arm_sve.h, under a target
 * pragma): GCC 10 and later; without it the SVE level is not built, and
 * an SVE CPU runs NEON. */
#if defined(__aarch64__) && !defined(__clang__) && __GNUC__ >= 10
#define ISA_SVE_BUILT	1
#else
#define ISA_SVE_BUILT	0
#endif

/* "avx512", "avx2", "sse2" (x86-64's baseline), "sve", "neon" (arm64's
 * baseline) or "generic" (other CPUs) */
const char *isa_name(enum isa_level l);
bool isa_cpu_has(enum isa_level l);
/* The level the kernels run: MEMJOB_ISA's, else the widest the CPU has. */
enum isa_level isa_level(void);
/* Reads MEMJOB_ISA once; 0, or -1 with why in err (a name memjob does
 * not know, or a level the CPU lacks).  main() calls it before any job
 * starts, so the kernels never meet an instruction the CPU lacks. */
int isa_init(char *err, size_t len);
/* "avx2 (this CPU has: avx2 sse2)" for --version */
void isa_describe(char *buf, size_t len);

#define ISA_INLINE	static inline __attribute__((always_inline))

/*
 * ISA_TARGET_W64, _W32, _W16: the target attribute of the level whose
 * registers are that many bytes wide, for an always_inline body that
 * calls that level's own instructions (a streaming store): the body is
 * then inlined only into the variant of its width.  Empty where the
 * compiler's baseline has them (and on other CPUs, where every width is
 * built for the baseline).
 */
#ifdef __x86_64__
#define ISA_TARGET_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#define ISA_TARGET_AVX2	__attribute__((target("avx2,fma")))
#define ISA_TARGET_W64	ISA_TARGET_AVX512
#define ISA_TARGET_W32	ISA_TARGET_AVX2
#else
#define ISA_TARGET_W64
#define ISA_TARGET_W32
#endif
#define ISA_TARGET_W16
#ifdef __x86_64__

/* ret name params: the variants of the level's bodies (b512, b256, b128
 * called with args), and a dispatcher of that name over them. */
#define ISA_CLONES_OF(ret, name, params, args, b512, b256, b128)	\
	ISA_TARGET_AVX512 __attribute__((noinline))			\
	static ret name##_avx512 params { return b512 args; }		\
	ISA_TARGET_AVX2 __attribute__((noinline))			\
	static ret name##_avx2 params { return b256 args; }		\
	__attribute__((noinline))					\
	static ret name##_base params { return b128 args; }		\
	static ret name params						\
	{								\
		switch (isa_level()) {					\
		case ISA_AVX512:					\
			return name##_avx512 args;			\
		case ISA_AVX2:						\
			return name##_avx2 args;			\
		default:						\
			return name##_base args;			\
		}							\
	}
#elif ISA_SVE_BUILT
/*
 * arm64: the baseline's body (b128, NEON: the compiler's 16-byte generic
 * vectors are Advanced SIMD), and name##_sve, which the kernel writes
 * itself in SVE's own intrinsics between ISA_SVE_BEGIN and ISA_SVE_END:
 * SVE registers have no width known when compiling, so generic vectors
 * cannot express an SVE loop (GCC would give them NEON code).
 */
#define ISA_CLONES_OF(ret, name, params, args, b512, b256, b128)	\
	__attribute__((noinline))					\
	static ret name##_base params { return b128 args; }		\
	static ret name params						\
	{								\
		if (isa_level() == ISA_SVE)				\
			return name##_sve args;				\
		return name##_base args;				\
	}
#else
#define ISA_CLONES_OF(ret, name, params, args, b512, b256, b128)	\
	__attribute__((noinline))					\
	static ret name params { return b128 args; }
#endif

/*
 * The SVE code of a kernel: between these, functions are compiled for
 * SVE (and only called where the CPU has it) and arm_sve.h's intrinsics
 * are there; ISA_SVE_FN declares one (noinline, so no caller of another
 * level inlines it).  Nothing where SVE is not built.
 */
#if ISA_SVE_BUILT
#define ISA_SVE_BEGIN	_Pragma("GCC push_options")			\
			_Pragma("GCC target(\"+sve\")")
#define ISA_SVE_END	_Pragma("GCC pop_options")
#define ISA_SVE_FN	static __attribute__((noinline))
#endif

/* One body, name##_body, compiled at every level. */
#define ISA_CLONES(ret, name, params, args)				\
	ISA_CLONES_OF(ret, name, params, args, name##_body, name##_body, \
		      name##_body)
/* A loop written in generic vectors as wide as each level's registers:
 * name##_body64 (AVX-512), _body32 (AVX2), _body16 (the baseline). */
#define ISA_CLONES_WIDE(ret, name, params, args)			\
	ISA_CLONES_OF(ret, name, params, args, name##_body64,		\
		      name##_body32, name##_body16)

#endif
