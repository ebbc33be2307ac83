/*
 * quirkreport.h - the host's quirks (machine/quirks.h) in the report: a
 * few "quirks:" lines for the run's header, and one JSON object with the
 * same figures and the same sentences.  Each line is whole in itself, so
 * that a report may place them where its header wants them.
 */
#ifndef MEMJOB_QUIRKREPORT_H
#define MEMJOB_QUIRKREPORT_H

#include <stdio.h>

#include <jansson.h>

#include "machine/quirks.h"

/* The header's lines, each "quirks: ...\n"; nothing for NULL or a run
 * that did not probe. */
void quirks_print(FILE *f, const struct machine_quirks *q);
/* The same as one object (the figures, and the lines as "text"); JSON
 * null for NULL; NULL when out of memory. */
json_t *quirks_json(const struct machine_quirks *q);

#endif
