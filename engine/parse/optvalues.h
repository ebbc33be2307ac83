/*
 * optvalues.h - parsers and formatters of the option types that are more
 * than a number or a word (cpu lists, memory policy, pattern, the names of
 * data sources and kernels).  Used only by the option table.
 */
#ifndef MEMJOB_OPTVALUES_H
#define MEMJOB_OPTVALUES_H

#include "spec/options.h"

int optv_parse_cpu_nodes(const struct opt_def *o, struct job_spec *j,
			 const char *val, const char **why,
			    char *buf, size_t buflen);
int optv_parse_mempolicy(const struct opt_def *o, struct job_spec *j,
			 const char *val, const char **why,
			    char *buf, size_t buflen);
int optv_parse_pattern(const struct opt_def *o, struct job_spec *j,
		       const char *val, const char **why,
			    char *buf, size_t buflen);
int optv_parse_ioengine(const struct opt_def *o, struct job_spec *j,
			const char *val, const char **why,
			    char *buf, size_t buflen);
int optv_parse_kernel(const struct opt_def *o, struct job_spec *j,
		      const char *val, const char **why,
			    char *buf, size_t buflen);

int optv_parse_size_expr(const struct opt_def *o, struct job_spec *j,
			 const char *val, const char **why, char *buf,
			 size_t buflen);
void optv_format_size_expr(const struct opt_def *o, const struct job_spec *j,
			   char *buf, size_t len);
int optv_parse_perf(const struct opt_def *o, struct job_spec *j,
		    const char *val, const char **why, char *buf,
		    size_t buflen);
void optv_format_perf(const struct opt_def *o, const struct job_spec *j,
		      char *buf, size_t len);
/* precision=: a half-width in % (1%, 0.5), or off. */
/* numjobs: a count (the table entry's min..max), or "cpus" (numjobs_cpus;
 * the check counts the CPUs). */
int optv_parse_numjobs(const struct opt_def *o, struct job_spec *j,
		       const char *val, const char **why, char *buf,
		       size_t buflen);
void optv_format_numjobs(const struct opt_def *o, const struct job_spec *j,
			 char *buf, size_t len);
/* rate: bytes per second (a size), or "N%" of the unlimited rate
 * (rate_pct, 0 < N <= 100). */
int optv_parse_rate(const struct opt_def *o, struct job_spec *j,
		    const char *val, const char **why, char *buf,
		    size_t buflen);
void optv_format_rate(const struct opt_def *o, const struct job_spec *j,
		      char *buf, size_t len);
int optv_parse_precision(const struct opt_def *o, struct job_spec *j,
			 const char *val, const char **why, char *buf,
			 size_t buflen);
void optv_format_precision(const struct opt_def *o, const struct job_spec *j,
			   char *buf, size_t len);
void optv_format_mempolicy(const struct opt_def *o, const struct job_spec *j,
			   char *buf, size_t len);
void optv_format_pattern(const struct opt_def *o, const struct job_spec *j,
			 char *buf, size_t len);
void optv_format_ioengine(const struct opt_def *o, const struct job_spec *j,
			  char *buf, size_t len);
void optv_format_kernel(const struct opt_def *o, const struct job_spec *j,
			char *buf, size_t len);

#endif
