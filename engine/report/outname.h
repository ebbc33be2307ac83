/*
 * outname.h - --output's file name pattern, for a fleet: one report file
 * per host or per Slurm task, from one command line run everywhere.
 *
 *	%h  the host name (as the rows' host column)
 *	%j  the Slurm job id (SLURM_JOB_ID)
 *	%A  the Slurm array's job id (SLURM_ARRAY_JOB_ID)
 *	%a  the Slurm array task id (SLURM_ARRAY_TASK_ID)
 *	%t  the Slurm task rank (SLURM_PROCID)
 *	%p  memjob's process id
 *	%%  a '%'
 *
 * Any other '%' is an error when the command line is read.  A
 * placeholder whose variable is unset is an error too (before any job
 * starts): a pattern meant for Slurm run elsewhere would otherwise give
 * every task the same name.  A '/' in a value becomes '_'; a value with
 * a control character (a newline), or that is "." or "..", is refused
 * (not cleaned: two tasks' names could then meet).  A name made
 * from a pattern is created, never written over (O_EXCL): many tasks
 * write into one directory, and an existing file is someone else's.
 */
#ifndef MEMJOB_OUTNAME_H
#define MEMJOB_OUTNAME_H

#include <stdbool.h>
#include <stddef.h>

/* Whether s is a pattern (holds a '%'). */
bool outname_is_pattern(const char *s);
/* 0, or -1 with why ("unknown placeholder '%x' ...") */
int outname_check(const char *pattern, char *why, size_t len);
/* The name for this run into buf; -1 with why when a placeholder's
 * variable is unset or the name is too long. */
int outname_expand(const char *pattern, const char *host, char *buf,
		   size_t len, char *why, size_t wlen);

#endif
