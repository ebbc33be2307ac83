/*
 * plotseries.h - a sample_log's time series as a gnuplot chart: GB/s per
 * sample interval over time, one line per job, point and run (up to 16),
 * with Dirty and Writeback in MiB on the second y axis.
 */
#ifndef MEMJOB_PLOTSERIES_H
#define MEMJOB_PLOTSERIES_H

#include <stddef.h>
#include <stdio.h>

#include "subcommands/csvtable.h"

/* The data blocks, axes and plot command (after the terminal, output and
 * title lines); 0, or -1 with a sentence in err. */
int plot_series_script(FILE *f, const struct csv_table *t, char *err,
		       size_t errlen);

#endif
