/*
 * report_int.h - what the report's files share: report.c (normal output),
 * report_row.c (the columns of a result row), groups.c (a group's totals)
 * and report_json.c (the JSON document).  Not for the rest of the engine.
 * It leaves report.h (report.c's own header) out, so that report.c
 * includes this file and not the other way round: the types both need
 * are in context.h.
 */
#ifndef MEMJOB_REPORT_INT_H
#define MEMJOB_REPORT_INT_H

#include "report/context.h"
#include "report/machine.h"
#include "run/result.h"
#include "util/row.h"

#define REPORT_NDERIVED		5	/* derived counter figures */
#define REPORT_MAX_SWEEPS	64	/* swept options with a column */

extern const char *const report_status_names[];
extern const char *const report_role_names[];
extern const char *const report_phase_names[];

const char *report_impl(const struct planned_job *pj);
const char *report_rw(const struct job_spec *j);
const char *report_first_error(const struct job_result *jr);
/* The kernel's result as text: signed where the kernel says so. */
void report_result_text(const struct job_spec *j, uint64_t v, char *buf,
			size_t len);
/* "name [victim loaded] {flush=clwb numjobs=4}": a job as the reports
 * name it (summary.c). */
void report_job_label(const struct planned_job *pj, char *buf, size_t len);

/* The column names that depend on the run or are computed: built once. */
struct report_cols {
	char counter[CTR_NEVENTS][48];
	char counter_status[CTR_NEVENTS][56];
	char derived[REPORT_NDERIVED][48];
	unsigned nsweep;
	char *sweep_opt[REPORT_MAX_SWEEPS];	/* as in point labels */
	char sweep_col[REPORT_MAX_SWEEPS][160];
	/* the named events (counters.h) the jobs asked for, last: their
	 * value and status columns, "ev_" and the name as an identifier */
	unsigned nnamed;
	unsigned named_id[CTR_NAMED_MAX];
	char named_col[CTR_NAMED_MAX][136];
	char named_status[CTR_NAMED_MAX][144];
};

void report_cols_init(struct report_cols *c, const struct results *r);
void report_cols_free(struct report_cols *c);

/* The counters' columns (report_counters.c): their names for the run,
 * whether a column of theirs holds text (a status), and a row's cells:
 * the generic events' and derived figures' (after write_bytes), the
 * named events' (last). */
void report_counter_cols(struct report_cols *c, const struct results *r);
bool report_counter_is_text(const char *name);
void report_counter_cells(struct row_emitter *e, const struct report_cols *c,
			  const struct job_result *jr);
void report_named_cells(struct row_emitter *e, const struct report_cols *c,
			const struct job_result *jr);

/* The result table of a run. */
struct report_table {
	struct report_cols cols;
	const char *host;
	const struct machine_id *machine;	/* or NULL */
	const struct results *r;
};

/* A row per run of a job (jobs in plan order, each job's repeats in
 * order), every column in order; arg is a struct report_table. */
void report_rows(struct row_emitter *e, const void *arg);

/* A reporting group's figures over one repeat, for groups of 2+ jobs. */
struct group_total {
	unsigned group, repeat;		/* repeat from 0 */
	unsigned repeats;		/* of the group's segment */
	unsigned jobs, threads;
	unsigned data_jobs;		/* of jobs, those whose bytes are a
					   throughput (not KERN_NO_GBPS):
					   bytes and gbps are theirs */
	uint64_t bytes, elapsed_ns;
	double gbps;
};

void group_totals_each(const struct results *r,
		       void (*fn)(void *user, const struct group_total *g),
		       void *user);

/* The JSON document of the run (see the man page, OUTPUT, JSON). */
int report_json(const struct report_ctx *rc, const struct results *r);

#endif
