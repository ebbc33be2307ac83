/*
 * diag.c - formatting of errors and warnings (see diag.h).
 */
#include "util/diag.h"

void diag_init(struct diag *d, FILE *out)
{
	d->out = out ? out : stderr;
	d->errors = 0;
	d->warnings = 0;
}

static void diag_emit(struct diag *d, const struct srcloc *loc, const char *kind,
		      const char *opt, const char *fmt, va_list ap)
{
	if (loc && loc->file) {
		if (loc->line > 0)
			fprintf(d->out, "%s:%d: ", loc->file, loc->line);
		else
			fprintf(d->out, "%s: ", loc->file);
	} else {
		fputs("memjob: ", d->out);
	}
	if (kind)
		fprintf(d->out, "%s: ", kind);
	if (opt)
		fprintf(d->out, "option '%s': ", opt);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
}

void diag_error(struct diag *d, const struct srcloc *loc, const char *opt,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_emit(d, loc, NULL, opt, fmt, ap);
	va_end(ap);
	d->errors++;
}

void diag_warn(struct diag *d, const struct srcloc *loc, const char *opt,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_emit(d, loc, "warning", opt, fmt, ap);
	va_end(ap);
	d->warnings++;
}

void diag_plain(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("memjob: ", d->out);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	va_end(ap);
	d->errors++;
}
