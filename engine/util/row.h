/*
 * row.h - a table row as a sequence of named, typed cells, and the small
 * interface that writes it (an emitter).
 *
 * The one idea: a table is described once, by the function that walks one
 * of its rows and hands each cell, with its column name, to an emitter.
 * CSV (csv_emitter, here) and JSON (json_emitter, jsonout.h) are two ways
 * of writing the same sequence, so their columns cannot disagree: a CSV
 * header is the names of a row, and a JSON row is an object whose keys are
 * those names.
 *
 * A cell is a string, an unsigned or signed integer, a double with the
 * precision it is printed with, a number given as text (a field read back
 * from a result CSV), or absent (unknown, not applicable).  An empty
 * string is absent: CSV writes an empty field, JSON null.
 */
#ifndef MEMJOB_ROW_H
#define MEMJOB_ROW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum cell_type {
	CELL_ABSENT, CELL_STR, CELL_U64, CELL_I64, CELL_DBL,
	CELL_NUMTEXT,		/* v.s: a number as text (row_is_number) */
};

struct cell {
	enum cell_type type;
	union {
		const char *s;
		uint64_t u;
		int64_t i;
		double d;
	} v;
	/* CELL_DBL: printed as printf's "%.*f" ('f') or "%.*g" ('g') with
	 * prec, or ('r') with as few digits as give back the same double;
	 * JSON gets the number as printed, not more digits. */
	char style;
	int prec;
};

struct row_emitter;

struct row_emitter_ops {
	void (*cell)(struct row_emitter *e, const char *name,
		     const struct cell *c);
	void (*end_row)(struct row_emitter *e);
};

struct row_emitter {
	const struct row_emitter_ops *ops;
};

/* A cell of each kind (a NULL or empty string is absent; a zeroed
 * struct cell is absent too). */
struct cell cell_str(const char *s);
struct cell cell_u64(uint64_t v);
struct cell cell_i64(int64_t v);
/* v with decimals digits after the point, as "%.*f" */
struct cell cell_fixed(double v, int decimals);
/* v with digits significant digits, as "%.*g" */
struct cell cell_sig(double v, int digits);
/* v exactly: as few digits as read back as v (a median of numbers read
 * from a CSV), and no exponent for whole numbers of up to 15 digits. */
struct cell cell_exact(double v);
/* A number as text, such as a field of a result CSV: CSV writes the text
 * as it is, JSON the number (an integer where the text is one).  Text
 * that row_is_number refuses is a string; an empty one is absent. */
struct cell cell_numtext(const char *s);
/* Whether s is a number as memjob writes one: decimal, with a sign, a
 * fraction and an exponent as printf makes them, or nan or inf (a figure
 * that could not be computed, null in JSON).  Not "", " 1", "0x10". */
bool row_is_number(const char *s);

/* The cells of a row, in column order; then row_end.  row_str() and the
 * others are row_put() of the cell_*() of their value. */
void row_put(struct row_emitter *e, const char *name, struct cell c);
void row_str(struct row_emitter *e, const char *name, const char *s);
void row_u64(struct row_emitter *e, const char *name, uint64_t v);
void row_i64(struct row_emitter *e, const char *name, int64_t v);
void row_fixed(struct row_emitter *e, const char *name, double v,
	       int decimals);
void row_sig(struct row_emitter *e, const char *name, double v, int digits);
void row_absent(struct row_emitter *e, const char *name);
void row_end(struct row_emitter *e);

/* A double cell's value as its text gives it (what CSV prints). */
double cell_rounded(const struct cell *c);
/*
 * One figure, one rounding: v as cell_fixed(v, decimals) or cell_sig(v,
 * digits) prints it, read back.  A quantity that several outputs print
 * is rounded by one of these once, where it is computed; CSV and JSON
 * then print that figure as it is and a table prints it with fewer
 * digits, so that no output rounds the raw value differently (a table's
 * +1.7% beside a JSON's 1.7500, read as +1.8%).
 */
double fig_fixed(double v, int decimals);
double fig_sig(double v, int digits);

/*
 * CSV through libcsv's quoting: with names, the column names of the first
 * row (the header line) and nothing for the rows after it; otherwise a
 * line of values per row.  Text is quoted only when it holds a comma, a
 * quote, a line break, or blanks at either end, so awk -F, works on
 * everything memjob itself names.
 */
struct csv_emitter {
	struct row_emitter base;
	FILE *f;
	bool names;
	unsigned ncells;	/* on the current line */
	unsigned rows;		/* ended so far */
};

void csv_emitter_init(struct csv_emitter *ce, FILE *f, bool names);
/* A table as CSV: the header, then a line per row; rows emits every row
 * (it is called twice). */
void csv_table(FILE *f, void (*rows)(struct row_emitter *e, const void *arg),
	       const void *arg);

#endif
