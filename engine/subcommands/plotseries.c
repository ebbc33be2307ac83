/*
 * plotseries.c - the time series of a sample_log as gnuplot draws it (see
 * plotseries.h): one line of GB/s over time per job, point and run, and
 * the machine's Dirty and Writeback beside it on the second y axis.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands/plotchart.h"
#include "util/strbuf.h"
#include "subcommands/plotseries.h"

#define MAX_SERIES	PLOT_COLOURS

/* A row's series: "job point, run N". */
static void series_key(const struct csv_table *t, unsigned r, char *buf,
		       size_t len)
{
	snprintf(buf, len, "%s%s%s, run %s", plot_cell(t, r, "job"),
		 *plot_cell(t, r, "point") ? " " : "", plot_cell(t, r, "point"),
		 plot_cell(t, r, "repeat"));
}

/* A number of row r's column, or '?' (gnuplot's missing) into buf. */
static const char *scaled(const struct csv_table *t, unsigned r,
			  const char *name, double div, char *buf, size_t len)
{
	double v;

	if (!plot_number(plot_cell(t, r, name), &v))
		return "?";
	snprintf(buf, len, "%.9g", v / div);
	return buf;
}

int plot_series_script(FILE *f, const struct csv_table *t, char *err,
		       size_t errlen)
{
	char *keys[MAX_SERIES];
	unsigned n = 0;

	plot_put_title(f, t);
	bool dirty = false;

	for (unsigned r = 0; r < t->nrows; r++) {
		char key[640];

		series_key(t, r, key, sizeof(key));
		if (strlist_intern(keys, &n, MAX_SERIES, key) < 0)
			continue;
		dirty |= *plot_cell(t, r, "dirty_kb") != '\0';
	}
	if (!n) {
		snprintf(err, errlen, "nothing to plot: the time series has no "
			 "rows");
		return -1;
	}
	for (unsigned k = 0; k < n; k++) {
		fprintf(f, "$s%u << EOD\n", k);
		for (unsigned r = 0; r < t->nrows; r++) {
			char key[640], a[32], b[32], c[32], d[32];

			series_key(t, r, key, sizeof(key));
			if (strcmp(key, keys[k]))
				continue;
			fprintf(f, "%s %s %s %s\n",
				scaled(t, r, "t_s", 1, a, sizeof(a)),
				scaled(t, r, "job_mbps", 1000, b, sizeof(b)),
				scaled(t, r, "dirty_kb", 1024, c, sizeof(c)),
				scaled(t, r, "writeback_kb", 1024, d,
				       sizeof(d)));
		}
		fputs("EOD\n", f);
	}
	fputs("set datafile missing '?'\nset grid\n"
	      "set key below box\nset bmargin 7\n"
	      "set xlabel 'time since the run began (s)'\n"
	      "set ylabel 'job write or read rate, GB/s (10^9 bytes per "
	      "second, per sample interval)'\n", f);
	if (dirty)
		fputs("set y2label 'Dirty (thin) and Writeback (dashed), MiB, "
		      "system-wide, at the end of each interval'\n"
		      "set y2tics\nset ytics nomirror\n"
		      "set y2range [0:*]\n", f);
	fputs("set yrange [0:*]\nplot ", f);
	for (unsigned k = 0; k < n; k++) {
		fprintf(f, "%s$s%u using 1:2 with linespoints pointtype 7 "
			"pointsize 0.5 linewidth 2 linecolor rgb '%s' title ",
			k ? ", \\\n     " : "", k, plot_palette[k]);
		plot_put_quoted(f, keys[k]);
		if (dirty)
			fprintf(f, ", \\\n     $s%u using 1:3 axes x1y2 with "
				"lines linewidth 1 linecolor rgb '%s' %s, "
				"\\\n     $s%u using 1:4 axes x1y2 with lines "
				"dashtype 2 linewidth 1 linecolor rgb '%s' %s",
				k, plot_palette[k], k ? "notitle" :
				"title 'Dirty (MiB, right axis)'", k,
				plot_palette[k], k ? "notitle" :
				"title 'Writeback (MiB, right axis)'");
		free(keys[k]);
	}
	fputc('\n', f);
	return 0;
}

