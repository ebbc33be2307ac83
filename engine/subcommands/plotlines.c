/*
 * plotlines.c - the line chart of a sweep (see plotlines.h): one line per
 * series of plotdata.h, a size axis in powers of two with this machine's
 * cache sizes marked, log scales where the values span them.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "machine/topology.h"
#include "report/knee.h"
#include "subcommands/plotchart.h"
#include "subcommands/plotlines.h"
#include "util/value.h"

#define PLOT_MAX_TICS	10

/* Tics at powers of two, labelled in binary units, at most PLOT_MAX_TICS. */
static void put_size_tics(FILE *f, double lo, double hi)
{
	int a = (int)ceil(log2(lo)), b = (int)floor(log2(hi)), step = 1, e;
	bool first = true;
	char buf[32];

	if (a > b)		/* no power of two in range: gnuplot's tics */
		return;
	while ((b - a) / step + 1 > PLOT_MAX_TICS)
		step++;
	fputs("set xtics (", f);
	for (e = a; e <= b; e += step) {
		double v = ldexp(1, e);

		fprintf(f, "%s\"%s\" %.17g", first ? "" : ", ",
			value_format_bytes(v, buf, sizeof(buf)), v);
		first = false;
	}
	fputs(")\n", f);
}

/* The dashed lines at the cache sizes of this machine's first CPU. */
static void put_caches(FILE *f, const struct plot_data *pd, double lo,
		       double hi)
{
	const struct topo_cache *lv[KNEE_MAX_LEVELS];
	const char *root = topo_env_file();
	char err[512], name[16], size[32], host[256] = "";
	struct topo t;
	unsigned cpu, n, i;

	if (topo_load(&t, root, err, sizeof(err))) {
		fprintf(stderr, "memjob plot: no cache sizes to mark: %s\n",
			err);
		return;
	}
	if (!root && pd->host && !gethostname(host, sizeof(host) - 1) &&
	    strcmp(host, pd->host))
		fprintf(stderr, "memjob plot: the rows come from host '%s'; "
			"the dashed cache sizes are this machine's ('%s')\n",
			pd->host, host);
	for (cpu = 0; cpu < t.ncpus && !t.cpus[cpu].present; cpu++)
		;
	n = cpu < t.ncpus ? knee_levels(&t, cpu, lv, KNEE_MAX_LEVELS) : 0;
	for (i = 0; i < n; i++) {
		double s = (double)lv[i]->size;

		if (s < lo || s > hi)
			continue;
		topo_cache_name(lv[i], name, sizeof(name));
		value_format_bytes(s, size, sizeof(size));
		fprintf(f, "set arrow from %.17g, graph 0 to %.17g, graph 1 "
			"nohead dashtype 2 linewidth 1.5 linecolor rgb "
			"'#707070'\n", s, s);
		fprintf(f, "set label '%s %s' at %.17g, graph 0.98 right "
			"rotate by 90 offset -1.2,0 textcolor rgb '#505050'\n",
			name, size, s);
	}
	topo_free(&t);
}

static void put_data(FILE *f, const struct plot_data *pd)
{
	for (unsigned s = 0; s < pd->nseries; s++) {
		const struct plot_series *ps = &pd->series[s];

		fprintf(f, "$d%u << EOD\n", s);
		for (unsigned i = 0; i < ps->n; i++)
			fprintf(f, "%.17g %.17g\n", ps->x[i], ps->y[i]);
		fputs("EOD\n", f);
	}
}

void plot_lines_script(FILE *f, const struct plot_data *pd, const char *x)
{
	double xlo = pd->xmin, xhi = pd->xmax;
	const char *name = strncmp(x, "sweep_", 6) ? x : x + 6;

	put_data(f, pd);
	fputs("set grid\nset key bottom right box opaque\n", f);
	if (pd->size_axis) {
		if (xlo == xhi) {
			xlo /= 2;
			xhi *= 2;
		} else {
			xlo /= 1.2;
			xhi *= 1.2;
		}
		fputs("set logscale x 2\n", f);
		fprintf(f, "set xrange [%.17g:%.17g]\n", xlo, xhi);
		put_size_tics(f, xlo, xhi);
		put_caches(f, pd, xlo, xhi);
		fputs("set xlabel ", f);
		plot_put_quoted(f, name);
		fputs(" . ' (bytes, log scale)'\n", f);
	} else {
		if (pd->xmin > 0 && pd->xmax >= 100 * pd->xmin)
			fputs("set logscale x 10\n", f);
		fputs("set xlabel ", f);
		plot_put_quoted(f, name);
		fputc('\n', f);
	}
	if (pd->ymin > 0 && pd->ymax >= 8 * pd->ymin)
		fputs("set logscale y 10\n", f);
	fputs("set ylabel ", f);
	plot_put_quoted(f, pd->ylabel);
	fputs("\nplot ", f);
	for (unsigned s = 0; s < pd->nseries; s++) {
		fprintf(f, "%s$d%u using 1:2 with linespoints pointtype 7 "
			"pointsize 0.8 linewidth 2 title ", s ? ", \\\n     " : "",
			s);
		plot_put_quoted(f, pd->series[s].title);
	}
	fputs("\n", f);
}
