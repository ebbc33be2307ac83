/*
 * csvmerge.h - many result CSVs as one (memjob report --merge): every row
 * of every input, under the union of their headers, as rows of the row
 * model (row.h), so as CSV or JSON.
 *
 * The columns: those of the fixed list (memjob's documented columns) that
 * some input has, in the list's order; then every other column in the
 * order first seen, the sweep_* columns after the rest, as memjob itself
 * writes them.  A name a header holds twice stays two columns.  A row
 * gets an empty field under a column its input lacks.
 *
 * A column is numbers when every field in it is a number or empty and it
 * is not one memjob writes as text; its fields are then numbers given as
 * text (cell_numtext): CSV writes them as read, JSON as numbers.  Other
 * columns are text throughout, so a key has one type in every row.
 */
#ifndef MEMJOB_CSVMERGE_H
#define MEMJOB_CSVMERGE_H

#include <stdbool.h>

#include "subcommands/csvtable.h"
#include "util/row.h"

struct csv_merge {
	const struct csv_table *t;	/* the inputs, which must outlive it */
	unsigned n;
	const char **col;	/* the merged header (names in the tables) */
	bool *text;		/* col[i] holds text, not numbers */
	unsigned ncols;
	unsigned **map;		/* map[k][i]: table k's column i in col */
	const char **row;	/* a row being written */
};

/* fixed: memjob's columns in order; is_text: whether memjob writes a
 * column as text.  0, or -1 when out of memory. */
int csv_merge_plan(struct csv_merge *m, const struct csv_table *t,
		   unsigned n, const char *const *fixed,
		   bool (*is_text)(const char *col));
/* Every row of every input in turn; arg is the struct csv_merge. */
void csv_merge_rows(struct row_emitter *e, const void *arg);
void csv_merge_free(struct csv_merge *m);

#endif
