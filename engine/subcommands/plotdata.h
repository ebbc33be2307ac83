/*
 * plotdata.h - the series that memjob plot draws, read from a result CSV.
 *
 * Rows are grouped by job, phase and sweep point: the point column
 * ("chase_layout=page hugepage=thp size=64k") without the pair of the x
 * option, so each remaining combination of swept values is one line.
 * Rows whose status is not ok, or without an x or y value, are left out;
 * several rows at one x (repeats) become their median.  A header line
 * repeated further down (CSVs concatenated with cat) is skipped.
 */
#ifndef MEMJOB_PLOTDATA_H
#define MEMJOB_PLOTDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "subcommands/csvtable.h"

struct plot_series {
	char *title;		/* "job phase point-without-x", trimmed */
	unsigned n, cap;
	double *x, *y;		/* sorted by x, one y per x */
};

struct plot_data {
	struct plot_series *series;
	unsigned nseries;
	double xmin, xmax, ymin, ymax;
	bool size_axis;		/* x counts bytes (size, bs, "64k"...) */
	char *host;		/* the host of every row, NULL if several */
	char ylabel[128];
};

/*
 * Read the CSV from f (name is for messages) and build the series of
 * column y against column x (the first column of that name).  With y_auto
 * (y was not asked for), a y column that no usable row fills gives way to
 * "metric".  Returns 0, or -1 with a sentence in err: no such column, no
 * header, no rows to plot, a row whose fields do not match the header, a
 * value that is not a number, out of memory.
 */
int plot_data_read(struct plot_data *pd, FILE *f, const char *name,
		   const char *x, const char *y, bool y_auto, char *err,
		   size_t errlen);
/* The same from a table already read (t stays the caller's). */
int plot_data_build(struct plot_data *pd, const struct csv_table *t,
		    const char *x, const char *y, bool y_auto, char *err,
		    size_t errlen);
/* The same from a file, "-" for standard input. */
int plot_data_load(struct plot_data *pd, const char *path, const char *x,
		   const char *y, bool y_auto, char *err, size_t errlen);
void plot_data_free(struct plot_data *pd);

#endif
