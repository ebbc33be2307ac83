/*
 * plotchart.h - which chart a memjob result table gets, and the gnuplot
 * script of the charts that are not a sweep's lines (plot.c draws those
 * from plotdata.h).
 *
 * The rows say what the run varied, and so the chart:
 *   - a loaded-latency run (a victim's loaded points differ only in its
 *     aggressors' rate=): its latency against their bandwidth
 *     (plotloaded.h; plot.c asks plotloaded.h before plot_choose);
 *   - a time series (a sample_log: columns t_s and job_mbps): GB/s over
 *     time, one line per job, point and run, with Dirty and Writeback in
 *     MiB on the second y axis;
 *   - an interference run (loaded victims with a slowdown): the victim's
 *     slowdown % per point as bars with their 95% interval as whiskers,
 *     grouped by the last swept option (llc-noisy: numjobs, the writer
 *     count) and coloured by the others (the flush instruction);
 *   - a sweep whose swept values are numbers or sizes: lines of the
 *     figure against the swept option that is a size (else the last);
 *   - anything else (phases one after another, such as count10's steps,
 *     or a sweep over words): bars of each job's median figure with its
 *     range (min..max) as whiskers, a panel per kind of figure.
 */
#ifndef MEMJOB_PLOTCHART_H
#define MEMJOB_PLOTCHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "subcommands/csvtable.h"

enum plot_kind { PLOT_LINES, PLOT_BARS, PLOT_SLOWDOWN, PLOT_SERIES,
		 PLOT_LOADED };

/* "lines", "bars", "slowdown", "time series", "loaded latency" */
const char *plot_kind_name(enum plot_kind k);
/* memjob plot --chart's words for the kinds, and the kind of a word
 * (0), or -1 for one it does not know; the word of a kind. */
#define PLOT_KIND_WORDS	"loaded-latency, slowdown, lines, bars or series"
int plot_kind_parse(const char *word, enum plot_kind *k);
const char *plot_kind_word(enum plot_kind k);
/* The chart for the rows of t; for PLOT_LINES, the x column into x. */
enum plot_kind plot_choose(const struct csv_table *t, char *x, size_t xlen);
/* The title: "memjob VERSION on HOST (CPU): JOBS", from the columns
 * memjob_version, host, cpu_model and job where the table has them. */
void plot_title(const struct csv_table *t, char *buf, size_t len);
/* "set title '...'" of plot_title. */
void plot_put_title(FILE *f, const struct csv_table *t);
/* A bars or slowdown chart of t: its title, data blocks, axes and plot
 * command, after the terminal and output lines.  0, or -1 with a
 * sentence in err (no row to draw). */
int plot_bars_script(FILE *f, const struct csv_table *t, char *err,
		     size_t errlen);
int plot_slowdown_script(FILE *f, const struct csv_table *t, char *err,
			 size_t errlen);

/* What the chart writers share. */
#define PLOT_COLOURS	16
extern const char *const plot_palette[PLOT_COLOURS];
/* s as a gnuplot single-quoted string ('' is a quote inside). */
void plot_put_quoted(FILE *f, const char *s);
/* Row r's cell in the column called name ("" when there is none). */
const char *plot_cell(const struct csv_table *t, unsigned r,
		      const char *name);
/* Whether row r is one to draw: its status ok (or no status column). */
bool plot_usable(const struct csv_table *t, unsigned r);
/* Whether s is a whole finite number, into *v. */
bool plot_number(const char *s, double *v);


#endif
