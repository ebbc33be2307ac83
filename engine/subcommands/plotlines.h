/*
 * plotlines.h - the line chart of a sweep: its data blocks, axes and
 * plot command (after the terminal, output and title lines).
 */
#ifndef MEMJOB_PLOTLINES_H
#define MEMJOB_PLOTLINES_H

#include <stdio.h>

#include "subcommands/plotdata.h"

/* x is the x column's name (sweep_NAME is labelled NAME). */
void plot_lines_script(FILE *f, const struct plot_data *pd, const char *x);

#endif
