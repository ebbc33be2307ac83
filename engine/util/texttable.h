/*
 * texttable.h - a table for people: cells added row by row as text, then
 * printed with every column as wide as its widest cell, numbers aligned
 * on the right and words on the left.
 *
 *	struct text_table *t = text_table_new(3, "lrr");
 *	text_table_add(t, "job");  text_table_add(t, "median"); ...
 *	text_table_addf(t, "%.3f", v);  ...
 *	text_table_print(t, stdout, "  ");
 *	text_table_free(t);
 *
 * A row is complete after ncols cells; the last column is not padded, so
 * that no line ends in spaces.  Out of memory sets a flag that print
 * reports by printing nothing and returning -1.
 */
#ifndef MEMJOB_TEXTTABLE_H
#define MEMJOB_TEXTTABLE_H

#include <stdio.h>

struct text_table;

/* ncols columns; align holds one letter per column, 'l' or 'r' (NULL:
 * all left). */
struct text_table *text_table_new(unsigned ncols, const char *align);
/* The next cell (the row ends after ncols). */
void text_table_add(struct text_table *t, const char *cell);
__attribute__((format(printf, 2, 3)))
void text_table_addf(struct text_table *t, const char *fmt, ...);
/* A figure to decimals places, or "-" where it is negative: the
 * matrices' and pivots' mark for a cell nothing measured. */
void text_table_add_figure(struct text_table *t, double v, int decimals);
/* Rows added so far, the header's included. */
unsigned text_table_rows(const struct text_table *t);
/* Each row on its own line after indent; -1 (and nothing printed) when
 * a cell could not be stored. */
int text_table_print(const struct text_table *t, FILE *f,
		     const char *indent);
void text_table_free(struct text_table *t);

#endif
