/*
 * strbuf.h - a growable, always NUL-terminated string, for text built a
 * piece at a time (${VAR} expansion, the reader's include chains).
 *
 * Start from { 0 }; the caller frees p.  Set len to 0 to reuse the buffer.
 */
#ifndef MEMJOB_STRBUF_H
#define MEMJOB_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *p;
	size_t len, cap;
};

/* Append n bytes of s: 0, or -1 when out of memory (b is then as it was). */
int strbuf_add(struct strbuf *b, const char *s, size_t n);

#endif
