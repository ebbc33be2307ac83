/*
 * csvmerge.h - many result CSVs as one (memjob report --merge): every row
 * of every input, under the union of their headers.
 *
 * The columns: those of the fixed list (memjob's documented columns) that
 * some input has, in the list's order; then every other column in the
 * order first seen, the sweep_* columns after the rest, as memjob itself
 * writes them.  A name a header holds twice stays two columns.  A row
 * gets an empty field under a column its input lacks.
 */
#ifndef MEMJOB_CSVMERGE_H
#define MEMJOB_CSVMERGE_H

#include <stdio.h>

#include "csvtable.h"

struct csv_merge {
	const char **col;	/* the merged header (names in the tables) */
	unsigned ncols;
	unsigned **map;		/* map[k][i]: table k's column i in col */
	const char **row;	/* a row being written */
};

/* 0, or -1 when out of memory. */
int csv_merge_plan(struct csv_merge *m, const struct csv_table *t,
		   unsigned n, const char *const *fixed);
void csv_merge_write(FILE *f, const struct csv_merge *m,
		     const struct csv_table *t, unsigned n);
void csv_merge_free(struct csv_merge *m, unsigned n);

#endif
