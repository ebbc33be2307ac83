/*
 * optfio.h - the value types of fio's words in the option table (rw with
 * its :N modifier, bsrange, bssplit, percentile_list); see optfio.c.
 */
#ifndef MEMJOB_OPTFIO_H
#define MEMJOB_OPTFIO_H

#include "spec/options.h"

int optv_parse_rw(const struct opt_def *o, struct job_spec *j,
		  const char *val, const char **why, char *buf, size_t buflen);
void optv_format_rw(const struct opt_def *o, const struct job_spec *j,
		    char *buf, size_t len);
int optv_parse_bsrange(const struct opt_def *o, struct job_spec *j,
		       const char *val, const char **why, char *buf,
		       size_t buflen);
void optv_format_bsrange(const struct opt_def *o, const struct job_spec *j,
			 char *buf, size_t len);
int optv_parse_bssplit(const struct opt_def *o, struct job_spec *j,
		       const char *val, const char **why, char *buf,
		       size_t buflen);
void optv_format_bssplit(const struct opt_def *o, const struct job_spec *j,
			 char *buf, size_t len);
int optv_parse_percentiles(const struct opt_def *o, struct job_spec *j,
			   const char *val, const char **why, char *buf,
			   size_t buflen);
/* ioengine=X that fio has and memjob has not: true, with the message
 * (and memjob's way to the same, where there is one) in buf. */
bool optv_fio_engine_refusal(const char *val, char *buf, size_t buflen);

#endif
