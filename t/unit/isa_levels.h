/*
 * isa_levels.h - run a group of kernel tests once per vector level
 * (isa.h) this CPU has, each forced through MEMJOB_ISA; a level the CPU
 * lacks is skipped with the reason.
 */
#ifndef MEMJOB_T_ISA_LEVELS_H
#define MEMJOB_T_ISA_LEVELS_H

#include <stddef.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>

#include <cmocka.h>

int run_at_each_isa(const char *group, const struct CMUnitTest *tests,
		    size_t n);

#define RUN_AT_EACH_ISA(tests) \
	run_at_each_isa(__FILE__, tests, sizeof(tests) / sizeof((tests)[0]))

#endif
