/*
 * strbuf.c - a growable string (see strbuf.h).  It doubles its capacity,
 * so n appends cost O(n) copies in all.
 */
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

int strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (!b->p || b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int strlist_intern(char **list, unsigned *n, unsigned max, const char *s)
{
	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(list[i], s))
			return (int)i;
	if (*n == max || !(list[*n] = strdup(s)))
		return -1;
	return (int)(*n)++;
}
