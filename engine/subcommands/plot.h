/*
 * plot.h - memjob plot: a result CSV drawn as a PNG by gnuplot.
 *
 *	memjob plot [--chart=KIND] [--x=COLUMN] [--y=COLUMN]
 *		    [--output=FILE.png] [--script=FILE.gp] [--force] [CSV|-]
 *
 * The chart follows from the rows (plotchart.h, plotloaded.h), or
 * --chart names it: loaded-latency, slowdown, lines, bars, series, auto.
 * Of a line chart: one line per series: rows are grouped by job, phase and sweep point
 * (the point column without the x option), so a sweep over size with
 * hugepage=none,thp gives two lines.  Repeats of one x are drawn as their
 * median.  x defaults to size, y to ns_per_item (metric when no row has
 * ns_per_item).  A size or bs axis is log2, labelled in KiB/MiB/GiB, with
 * the cache sizes of this machine's first CPU (as hwloc reads them;
 * MEMJOB_TOPOLOGY_FILE names another machine's) as dashed vertical lines
 * labelled L1d, L2, L3.
 *
 * The PNG goes to --output, or next to the CSV with .png for .csv; it is
 * written to a temporary file in the same directory and moved into place
 * once gnuplot has finished, and an existing file is never replaced
 * without --force.  --script writes the gnuplot script (data included)
 * instead, for a machine that has gnuplot; then gnuplot is not needed.
 *
 * Exit status: 0 the PNG was written; 1 gnuplot is missing or failed;
 * 2 a wrong command line or an unusable CSV (no such column, no rows,
 * unreadable), with nothing written.
 */
#ifndef MEMJOB_PLOT_H
#define MEMJOB_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* argv[0] is "plot"; the options and the CSV follow. */
int plot_main(int argc, char **argv);
/* Whether path can be --plot's picture: a name ending in .png or .svg
 * that does not exist yet; -1 with the reason in why. */
int plot_check_output(const char *path, char *why, size_t len);
/* memjob --plot: the results in in (the run's CSV; name for messages)
 * drawn into out as memjob plot would, never over an existing file.
 * The exit status memjob plot would give, after a message. */
int plot_results(FILE *in, const char *name, const char *out);

#endif
