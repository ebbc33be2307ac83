/*
 * jsonout.h - memjob's JSON, through jansson: the row emitter that makes
 * each row an object whose keys are the column names (see row.h), and the
 * helpers every JSON document of memjob uses.
 *
 * In JSON an absent or empty cell is null, a string a string, and a number
 * a number: an integer as such, a double with the digits CSV prints, a
 * number given as text (cell_numtext) the number the text reads as.
 */
#ifndef MEMJOB_JSONOUT_H
#define MEMJOB_JSONOUT_H

#include <stdio.h>

#include <jansson.h>

#include "util/row.h"

struct json_emitter {
	struct row_emitter base;
	json_t *obj;		/* the row being filled, NULL before a cell */
	json_t *rows;		/* row_end appends obj here; with NULL it
				 * leaves obj to json_emitter_take */
	bool failed;		/* out of memory on the way */
};

void json_emitter_init(struct json_emitter *je, json_t *rows);
/* For an emitter of single objects (rows NULL): the object filled so far,
 * handed to the caller; NULL when anything was lost (out of memory). */
json_t *json_emitter_take(struct json_emitter *je);
/* For an emitter of rows: frees a row left unfinished; -1 if anything
 * was lost. */
int json_emitter_finish(struct json_emitter *je);

/* A table as an array of objects, as csv_table writes it as CSV: rows
 * emits every row.  NULL when anything was lost (out of memory). */
json_t *json_rows(void (*rows)(struct row_emitter *e, const void *arg),
		  const void *arg);

/* Rows one by one into an array, where no one function emits them all:
 * json_table_start, rows through &t->je.base, json_table_finish. */
struct json_table {
	json_t *rows;
	struct json_emitter je;
};

void json_table_start(struct json_table *t);
/* The array, or NULL when anything was lost. */
json_t *json_table_finish(struct json_table *t);

/* A document built key by key: json_doc_put adds key; a NULL v (out of
 * memory on the way) marks the document failed. */
struct json_doc {
	json_t *obj;
	bool failed;
};

void json_doc_put(struct json_doc *d, const char *key, json_t *v);

/* s as a JSON string; jansson takes only UTF-8, so in text that is not,
 * every byte above 0x7f becomes '?'.  NULL when out of memory. */
json_t *json_text(const char *s);
/* doc pretty-printed (two blanks a level, keys in the order they were
 * added) and a newline, written in one piece: on failure nothing is
 * written and -1 returned. */
int json_write(FILE *f, const json_t *doc);

#endif
