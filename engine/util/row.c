/*
 * row.c - typed cells and the CSV emitter (see row.h).
 */
#include <csv.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/row.h"

struct cell cell_str(const char *s)
{
	return (struct cell){ .type = s && *s ? CELL_STR : CELL_ABSENT,
			      .v.s = s };
}

struct cell cell_u64(uint64_t v)
{
	return (struct cell){ .type = CELL_U64, .v.u = v };
}

struct cell cell_i64(int64_t v)
{
	return (struct cell){ .type = CELL_I64, .v.i = v };
}

struct cell cell_fixed(double v, int decimals)
{
	return (struct cell){ .type = CELL_DBL, .v.d = v, .style = 'f',
			      .prec = decimals };
}

struct cell cell_sig(double v, int digits)
{
	return (struct cell){ .type = CELL_DBL, .v.d = v, .style = 'g',
			      .prec = digits };
}

struct cell cell_exact(double v)
{
	return (struct cell){ .type = CELL_DBL, .v.d = v, .style = 'r' };
}

struct cell cell_numtext(const char *s)
{
	if (!s || !*s)
		return (struct cell){ .type = CELL_ABSENT };
	return (struct cell){ .type = row_is_number(s) ? CELL_NUMTEXT
						       : CELL_STR,
			      .v.s = s };
}

bool row_is_number(const char *s)
{
	const char *p = s + (*s == '+' || *s == '-');
	char *end;

	if (!strcasecmp(p, "nan") || !strcasecmp(p, "inf") ||
	    !strcasecmp(p, "infinity"))
		return true;
	/* strtod alone would take " 1", "0x10" and "nan(1)" too */
	if (!*p || p[strspn(p, "0123456789.eE+-")])
		return false;
	strtod(s, &end);
	return end != s && !*end;
}

void row_put(struct row_emitter *e, const char *name, struct cell c)
{
	e->ops->cell(e, name, &c);
}

void row_str(struct row_emitter *e, const char *name, const char *s)
{
	row_put(e, name, cell_str(s));
}

void row_u64(struct row_emitter *e, const char *name, uint64_t v)
{
	row_put(e, name, cell_u64(v));
}

void row_i64(struct row_emitter *e, const char *name, int64_t v)
{
	row_put(e, name, cell_i64(v));
}

void row_fixed(struct row_emitter *e, const char *name, double v,
	       int decimals)
{
	row_put(e, name, cell_fixed(v, decimals));
}

void row_sig(struct row_emitter *e, const char *name, double v, int digits)
{
	row_put(e, name, cell_sig(v, digits));
}

void row_absent(struct row_emitter *e, const char *name)
{
	row_put(e, name, (struct cell){ .type = CELL_ABSENT });
}

void row_end(struct row_emitter *e)
{
	e->ops->end_row(e);
}

/* As few digits as give back the same double, and no exponent for
 * whole numbers up to 15 digits (300, not 3e+02). */
static void format_exact(double v, char *buf, size_t len)
{
	int prec, whole = 1;

	for (double a = fabs(v); a >= 10 && whole < 15; a /= 10)
		whole++;
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, len, "%.*g", prec > whole ? prec : whole, v);
}

static void cell_format(const struct cell *c, char *buf, size_t len)
{
	if (c->style == 'r')
		format_exact(c->v.d, buf, len);
	else
		snprintf(buf, len, c->style == 'f' ? "%.*f" : "%.*g", c->prec,
			 c->v.d);
}

double cell_rounded(const struct cell *c)
{
	char buf[400];		/* "%.6f" of DBL_MAX has 316 characters */

	cell_format(c, buf, sizeof(buf));
	return strtod(buf, NULL);
}

double fig_fixed(double v, int decimals)
{
	struct cell c = cell_fixed(v, decimals);

	return isfinite(v) ? cell_rounded(&c) : v;
}

double fig_sig(double v, int digits)
{
	struct cell c = cell_sig(v, digits);

	return isfinite(v) ? cell_rounded(&c) : v;
}

/* ---- CSV ---- */

static void csv_text(FILE *f, const char *s)
{
	size_t n = strlen(s);

	if (strpbrk(s, ",\"\r\n") || (n && (s[0] == ' ' || s[n - 1] == ' ')))
		csv_fwrite(f, s, n);
	else
		fputs(s, f);
}

static void csv_cell(struct row_emitter *e, const char *name,
		     const struct cell *c)
{
	struct csv_emitter *ce = (struct csv_emitter *)e;
	char buf[400];		/* "%.6f" of DBL_MAX has 316 characters */

	if (ce->names && ce->rows)
		return;
	if (ce->ncells++)
		fputc(',', ce->f);
	if (ce->names) {
		csv_text(ce->f, name);
		return;
	}
	switch (c->type) {
	case CELL_ABSENT:
		break;
	case CELL_STR:
		csv_text(ce->f, c->v.s);
		break;
	case CELL_NUMTEXT:
		fputs(c->v.s, ce->f);	/* as read: nothing to quote */
		break;
	case CELL_U64:
		fprintf(ce->f, "%" PRIu64, c->v.u);
		break;
	case CELL_I64:
		fprintf(ce->f, "%" PRId64, c->v.i);
		break;
	case CELL_DBL:
		cell_format(c, buf, sizeof(buf));
		fputs(buf, ce->f);
		break;
	}
}

static void csv_end_row(struct row_emitter *e)
{
	struct csv_emitter *ce = (struct csv_emitter *)e;

	if (!ce->names || !ce->rows)
		fputc('\n', ce->f);
	ce->ncells = 0;
	ce->rows++;
}

static const struct row_emitter_ops csv_ops = {
	.cell = csv_cell,
	.end_row = csv_end_row,
};

void csv_emitter_init(struct csv_emitter *ce, FILE *f, bool names)
{
	ce->base.ops = &csv_ops;
	ce->f = f;
	ce->names = names;
	ce->ncells = 0;
	ce->rows = 0;
}

void csv_table(FILE *f, void (*rows)(struct row_emitter *e, const void *arg),
	       const void *arg)
{
	struct csv_emitter ce;

	csv_emitter_init(&ce, f, true);
	rows(&ce.base, arg);
	csv_emitter_init(&ce, f, false);
	rows(&ce.base, arg);
}
