/*
 * texttable.c - cells kept as strings, widths found when printed (see
 * texttable.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/texttable.h"

struct text_table {
	unsigned ncols;
	char *align;		/* 'l' or 'r' per column */
	char **cells;		/* row after row */
	size_t n, cap;
	bool failed;
};

struct text_table *text_table_new(unsigned ncols, const char *align)
{
	struct text_table *t = calloc(1, sizeof(*t));

	if (!t || !ncols)
		goto fail;
	t->ncols = ncols;
	t->align = malloc(ncols);
	if (!t->align)
		goto fail;
	for (unsigned c = 0; c < ncols; c++)
		t->align[c] = align && c < strlen(align) ? align[c] : 'l';
	return t;
fail:
	free(t);
	return NULL;
}

void text_table_add(struct text_table *t, const char *cell)
{
	char *copy;

	if (!t)
		return;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **nc = realloc(t->cells, cap * sizeof(*nc));

		if (!nc) {
			t->failed = true;
			return;
		}
		t->cells = nc;
		t->cap = cap;
	}
	copy = strdup(cell ? cell : "");
	if (!copy)
		t->failed = true;
	t->cells[t->n++] = copy;
}

void text_table_addf(struct text_table *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text_table_add(t, buf);
}

void text_table_add_figure(struct text_table *t, double v, int decimals)
{
	if (v < 0)
		text_table_add(t, "-");
	else
		text_table_addf(t, "%.*f", decimals, v);
}

unsigned text_table_rows(const struct text_table *t)
{
	return t ? (unsigned)(t->n / t->ncols) : 0;
}

int text_table_print(const struct text_table *t, FILE *f,
		     const char *indent)
{
	size_t *w, rows;

	if (!t || t->failed || t->n % t->ncols)
		return -1;
	w = calloc(t->ncols, sizeof(*w));
	if (!w)
		return -1;
	rows = t->n / t->ncols;
	for (size_t i = 0; i < t->n; i++) {
		size_t l = strlen(t->cells[i]);

		if (l > w[i % t->ncols])
			w[i % t->ncols] = l;
	}
	for (size_t r = 0; r < rows; r++) {
		char *const *row = t->cells + r * t->ncols;
		unsigned last = t->ncols;

		/* trailing empty cells print nothing, not spaces */
		while (last > 1 && !*row[last - 1])
			last--;
		fputs(indent ? indent : "", f);
		for (unsigned c = 0; c < last; c++) {
			int pad = (int)w[c];

			if (c)
				fputs("  ", f);
			if (t->align[c] == 'r')
				fprintf(f, "%*s", pad, row[c]);
			else if (c + 1 == last)
				fputs(row[c], f);
			else
				fprintf(f, "%-*s", pad, row[c]);
		}
		fputc('\n', f);
	}
	free(w);
	return 0;
}

void text_table_free(struct text_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->align);
	free(t);
}
