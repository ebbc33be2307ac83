/*
 * reportcmd.h - memjob report: result CSVs read back, compared or merged.
 *
 *	memjob report [--key=COL,...] [--by=COL] [--metric=COL]
 *		      [--baseline=RUN] [--output-format=normal,csv,json]
 *		      [--output=FILE] [FILE|-]...
 *	memjob report --merge [--output-format=csv,json] [--output=FILE]
 *		      [FILE|-]...
 *
 * Compare (compare.h) groups the rows into points and runs, one run per
 * file unless --by names a column (host, for a fleet), and sets every run
 * against the first (or --baseline): a table, its rows as CSV, a JSON
 * document (compareout.h, reportcmd_json.h).  Merge writes every row of
 * every input under the union of their columns (csvmerge.h), as CSV or
 * as a JSON document.  No FILE, or -, reads standard input.
 *
 * Everything is read and checked before anything is written: exit status
 * 2 for a wrong command line or an unusable input (naming file:line), with
 * nothing written; 1 when writing failed; 0 otherwise.
 */
#ifndef MEMJOB_REPORTCMD_H
#define MEMJOB_REPORTCMD_H

/* argv[0] is "report"; the options and the files follow. */
int report_main(int argc, char **argv);

#endif
