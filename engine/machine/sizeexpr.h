/*
 * sizeexpr.h - sizes relative to the machine: "llc/2", "2*l2", "10%ram".
 *
 * A size expression is one of
 *
 *	NAME		a cache of the job's CPU: l1d, l1i (level 1 data and
 *			instruction), l2, l3, l4 (the data or unified cache
 *			of that level), llc (the last level that holds data)
 *	NAME*X, X*NAME	that size times X
 *	NAME/X		that size divided by X
 *	X%ram		X percent of MemTotal ("12.5%ram"; above 100 is
 *			allowed, for files larger than RAM)
 *	a plain size	anything value_size() takes: 4096, 16k, 1g
 *
 * X is a decimal number, possibly with a fraction ("llc*1.5").  The exact
 * result is rounded down to whole bytes: "llc/3" of a 22 MiB L3 is
 * 7689557 bytes.  A result of 0 is an error, as is a result beyond 64 bits.
 * Names are case-insensitive; blanks around '*', '/' and '%' are ignored.
 */
#ifndef MEMJOB_SIZEEXPR_H
#define MEMJOB_SIZEEXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/topology.h"

/* Whether s depends on the topology or memory (and so cannot be evaluated
 * before the job's CPU is known); false for a plain size. */
bool sizeexpr_is_relative(const char *s);

/*
 * Evaluate s for the given CPU of t.  t may be NULL for a plain size.
 * Returns 0, or -1 with a message in err that completes "option 'x': "
 * and quotes s.
 */
int sizeexpr_eval(const char *s, const struct topo *t, unsigned cpu,
		  uint64_t *out, char *err, size_t errlen);

#endif
