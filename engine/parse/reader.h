/*
 * reader.h - the lines of a job file, as inih's reader callback sees them.
 *
 * inih parses sections and key=value pairs; this layer in front of it
 * follows "include FILE" lines (relative to the including file), expands
 * ${VAR} and ${VAR:-default} from the environment, and tracks file:line of
 * every line it hands over, so that the ini handler can name the exact
 * place of an error.  It also reports each [section] header as it passes
 * (inih says nothing of an empty section).
 *
 * Debian's libinih is built with a fixed 200-byte line buffer.  A longer
 * "key = value" line is handed to inih as "key=" JOBREADER_LONG_MARK and
 * the handler takes the real value from jobreader_long_value().
 */
#ifndef MEMJOB_READER_H
#define MEMJOB_READER_H

#include "util/diag.h"

#define JOBREADER_LONG_MARK	"\x1f"
#define JOBREADER_MAX_INCLUDE	16

struct jobreader;

/* name is NULL for a header the reader refused (and reported): the
 * options after it belong to no job.  -1 stops the reading: the rest of
 * the file, and of every file that includes it, is left unread. */
typedef int (*jobreader_section_fn)(void *user, const char *name,
				    const struct srcloc *loc);

/* path "-" reads standard input (reported as "<stdin>").  NULL on failure,
 * after a diagnostic. */
struct jobreader *jobreader_open(const char *path, struct diag *d,
				 jobreader_section_fn on_section, void *user);
/* Parse a job file held in memory (tests); name is used in locations. */
struct jobreader *jobreader_open_string(const char *name, const char *text,
					struct diag *d,
					jobreader_section_fn on_section,
					void *user);

/* An ini_reader: pass it to ini_parse_stream() with the reader as stream. */
char *jobreader_gets(char *str, int num, void *stream);

/* Location of the line last handed to inih.  The file name stays valid
 * until jobreader_close(). */
const struct srcloc *jobreader_loc(const struct jobreader *r);
/* Location of the lineno-th line handed to inih (1-based, as counted and
 * returned by ini_parse_stream() for lines it rejects without calling the
 * handler, such as "[abc"); NULL if out of range. */
const struct srcloc *jobreader_line_loc(const struct jobreader *r, int lineno);
const char *jobreader_long_value(const struct jobreader *r);
/* Number of errors the reader itself reported (bad include, unset ${VAR}). */
unsigned jobreader_errors(const struct jobreader *r);
void jobreader_close(struct jobreader *r);

#endif
