/*
 * strbuf.h - a growable, always NUL-terminated string, for text built a
 * piece at a time (${VAR} expansion, the reader's include chains); and a
 * list of distinct strings in the order first met (a table's rows and
 * columns, a chart's series).
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

/* The index of s in list[0..*n), strdup'ed onto the end when absent; -1
 * when the list already holds max strings or out of memory.  The caller
 * frees the strings. */
int strlist_intern(char **list, unsigned *n, unsigned max, const char *s);

#endif
