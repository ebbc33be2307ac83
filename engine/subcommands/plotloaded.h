/*
 * plotloaded.h - the loaded-latency chart of a result table: a victim's
 * latency against its aggressors' bandwidth, one point per injection
 * level (idle, each rate=, unlimited), MLC's "hockey stick".
 *
 * A victim is drawn so when its loaded points differ only in its
 * aggressors' rate= and its figure is a latency (metric_name
 * ns_per_item): the run the loaded-latency table prints
 * (report/loadedlat.c).  The chart's points are that table's rows: x the
 * aggressors' summed GB/s (aggressor_sum, over the rows that ran in the
 * victim's group and repeat), y the victim's median with the 95%
 * interval of that median (point_figures), idle at 0 GB/s.
 */
#ifndef MEMJOB_PLOTLOADED_H
#define MEMJOB_PLOTLOADED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "subcommands/csvtable.h"

/* Whether a victim of t is a loaded-latency curve (a rate sweep with a
 * latency figure). */
bool plot_loaded_curve(const struct csv_table *t);
/* The chart (its title, data blocks, axes and plot command, after the
 * terminal and output lines); 0, or -1 with a sentence in err: no such
 * victim, or a column or row the chart needs is missing. */
int plot_loaded_script(FILE *f, const struct csv_table *t, char *err,
		       size_t errlen);

#endif
