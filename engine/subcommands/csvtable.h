/*
 * csvtable.h - a result CSV read whole into strings, for memjob plot and
 * memjob report --merge, or a row at a time, for memjob report.
 *
 * libcsv does the quoting; this layer adds what both commands expect of a
 * memjob CSV: a header, rows with exactly as many fields as it, a header
 * repeated further down (CSVs concatenated with cat) passed over, and the
 * line of every row, so that an error can say file:line.
 */
#ifndef MEMJOB_CSVTABLE_H
#define MEMJOB_CSVTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct csv_table {
	char *name;		/* for messages: the path, or "<stdin>" */
	char **head;
	unsigned ncols;
	unsigned head_line;
	char ***rows;		/* nrows rows of ncols fields each */
	unsigned *line;		/* the line each row ends on */
	unsigned nrows, cap;
};

/*
 * Read the CSV in f (or a memjob JSON document: csv_table_from_json);
 * name is for messages.  need, when not NULL, lists
 * (NULL-terminated) the columns the header must have.  Returns 0, or -1
 * with a sentence in err: no header, a needed column missing, a row with
 * another count of fields than the header, a second header unlike the
 * first, no rows, a CSV syntax error, out of memory.
 */
int csv_table_read(struct csv_table *t, FILE *f, const char *name,
		   const char *const *need, char *err, size_t errlen);
/* A memjob JSON document in f (what --output-format=json writes) as the
 * table of its "results": a column per key, null as "".  csv_table_read
 * calls it when f starts with '{'. */
int csv_table_from_json(struct csv_table *t, FILE *f, const char *name,
			const char *const *need, char *err, size_t errlen);
/* Whether f, past blanks, starts as a JSON document does ('{'); what it
 * read is put back. */
bool csv_table_is_json(FILE *f);
/*
 * The same a row at a time, for inputs too large to hold (memjob report
 * keeps what it needs of each row, not the row): csv_rows_open reads up
 * to the header, which it puts in t (rows stay NULL; nrows counts the
 * rows handed out), and checks it as csv_table_read does; NULL, with the
 * sentence in err, when it cannot.  csv_rows_next hands out the next row
 * (its ncols fields, valid until the next call) and the line it ends on:
 * 1, or 0 at the end, or -1 with the sentence csv_rows_error gives (a
 * row's error, or no rows at all).  t must outlive the stream, which
 * does not close f.
 */
struct csv_rows;
struct csv_rows *csv_rows_open(struct csv_table *t, FILE *f, const char *name,
			       const char *const *need, char *err,
			       size_t errlen);
int csv_rows_next(struct csv_rows *r, const char *const **row,
		  unsigned *line);
const char *csv_rows_error(const struct csv_rows *r);
void csv_rows_close(struct csv_rows *r);

/* The same from a file, "-" for standard input (named "<stdin>"). */
int csv_table_load(struct csv_table *t, const char *path,
		   const char *const *need, char *err, size_t errlen);
void csv_table_free(struct csv_table *t);

/* The index of the first column called name, or -1. */
int csv_table_col(const struct csv_table *t, const char *name);
/* Row r's field in column col; "" when col is -1. */
const char *csv_table_cell(const struct csv_table *t, unsigned r, int col);
/* The column of tables t[0..n) nearest to a mistyped name, or NULL. */
const char *csv_table_nearest(const struct csv_table *t, unsigned n,
			      const char *name);

#endif
