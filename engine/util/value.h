/*
 * value.h - pure parsers and formatters for option values.
 *
 * Every function here takes text and gives back a number, or an error
 * message in *why that completes the sentence "option 'x': <why>".  They
 * touch no global state, so the unit tests call them directly.
 *
 * Sizes: a number with an optional suffix, case-insensitive.  Every suffix
 * is a power of two, as in fio: k = ki = kib = kb = 2^10, m = 2^20,
 * g = 2^30, t = 2^40, p = 2^50, e = 2^60 (likewise with i, ib, b);
 * "b" or none means bytes.
 * Times: a number with us, ms, s, m (minutes), h or d (also usec, msec,
 * sec, min); a bare number is seconds.  Times are kept in microseconds.
 * On error *why may point into a per-thread buffer that the next call on
 * the same thread overwrites.
 */
#ifndef MEMJOB_VALUE_H
#define MEMJOB_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int value_size(const char *s, uint64_t *out, const char **why);
int value_time_us(const char *s, uint64_t *out, const char **why);
int value_uint(const char *s, uint64_t *out, const char **why);
int value_int(const char *s, int64_t *out, const char **why);
int value_bool(const char *s, bool *out, const char **why);
/* Index of s in the NULL-terminated words, or -1. */
int value_word(const char *s, const char *const *words);

/*
 * Integer lists with ranges: "0,2,4-7" (also "0-15:2", every second).
 * Sets bits in the bitmap of nbits; an id >= nbits is an error.
 */
int value_idlist(const char *s, uint64_t *bits, unsigned nbits, const char **why);

/* Canonical text for --dump: the largest exact suffix ("16k", "1g"). */
void value_format_size(uint64_t v, char *buf, size_t len);
/* "500ms", "10s", "90us", "2m": the largest exact unit. */
void value_format_time(uint64_t us, char *buf, size_t len);
/* "32 KiB", "1 MiB", "35.75 MiB" for people (labels, messages): the
 * largest binary unit up to TiB, up to two decimals; returns buf. */
const char *value_format_bytes(double v, char *buf, size_t len);
/* "0,2,4-7" from a bitmap. */
void value_format_idlist(const uint64_t *bits, unsigned nbits, char *buf, size_t len);

/* Edit distance (inserts, deletes, substitutions, and swaps of two
 * neighbours: "chaes" is one edit from "chase"), for "did you mean"? */
unsigned value_distance(const char *a, const char *b);

/*
 * The nearest of some names to a mistyped one, for "did you mean": offer
 * every candidate, then ask for the best.  A candidate is near enough
 * within one edit, or within a third of the longer name's length
 * ("randrepeat" is not near "repeat").  Of equally near ones the one closest in length
 * wins ("gbsp" is nearer "gbps" than "bs"), then the first offered.
 */
struct value_near {
	const char *want;
	const char *best;
	unsigned dist;
};

void value_near_init(struct value_near *n, const char *want);
void value_near_offer(struct value_near *n, const char *candidate);
/* The nearest candidate near enough, or NULL. */
const char *value_near_best(const struct value_near *n);
/* The same over a NULL-terminated list of words. */
const char *value_nearest_word(const char *want, const char *const *words);

#endif
