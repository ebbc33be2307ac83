/*
 * help.c - --cmdhelp, --cmdhelp=roff and --dump, all from the option table.
 */
#include <string.h>

#include "parse/check.h"
#include "parse/help.h"
#include "ioengines/ioengine.h"
#include "kernels/kernel.h"
#include "spec/options.h"
#include "parse/optspace.h"
#include "parse/optvalues.h"
#include "parse/sweepspec.h"
#include "util/value.h"

static void default_text(const struct opt_def *o, char *buf, size_t len)
{
	struct job_spec j;

	if (!o->def) {
		snprintf(buf, len, "unset");
		return;
	}
	if (job_init_defaults(&j)) {
		snprintf(buf, len, "%s", o->def);
		return;
	}
	opt_format(o, &j, buf, len);
	job_free(&j);
}

static void range_text(const struct opt_def *o, char *buf, size_t len)
{
	char lo[32], hi[32];

	buf[0] = '\0';
	if (o->type != OPT_UINT && o->type != OPT_SIZE && o->type != OPT_TIME)
		return;
	if (o->type == OPT_SIZE) {
		value_format_size(o->min, lo, sizeof(lo));
		value_format_size(o->max, hi, sizeof(hi));
	} else if (o->type == OPT_TIME) {
		value_format_time(o->min, lo, sizeof(lo));
		value_format_time(o->max, hi, sizeof(hi));
	} else {
		snprintf(lo, sizeof(lo), "%llu", (unsigned long long)o->min);
		snprintf(hi, sizeof(hi), "%llu", (unsigned long long)o->max);
	}
	if (o->max == UINT64_MAX)
		snprintf(buf, len, "%s or more", lo);
	else
		snprintf(buf, len, "%s to %s", lo, hi);
}

/* The placeholder --cmdhelp shows: an enum whose words depend on the
 * build and the machine (another architecture's instructions, one the
 * CPU lacks) lists those offered here; the man page gives every word
 * (o->arg). */
static const char *arg_here(const struct opt_def *o, char *buf, size_t len)
{
	size_t n = 0;

	if (o->type != OPT_ENUM || !o->unavailable)
		return o->arg;
	buf[0] = '\0';
	for (int w = 0; o->words[w] && n < len; w++)
		if (!o->unavailable(w))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? "|" : "", o->words[w]);
	return buf;
}

/* The words of an enum not offered here, with why, as one line:
 * "  not here: dc_cvac, dc_cvap, dc_civac (arm64's)". */
static void not_here(FILE *f, const struct opt_def *o)
{
	const char *why = NULL, *w_why;
	bool any = false;

	for (int w = 0; o->type == OPT_ENUM && o->unavailable && o->words[w];
	     w++) {
		if (!(w_why = o->unavailable(w)))
			continue;
		if (why && strcmp(why, w_why))
			fprintf(f, " (%s);", why);
		fprintf(f, "%s%s", !any ? "  not here: " :
			why && strcmp(why, w_why) ? " " : ", ", o->words[w]);
		why = w_why;
		any = true;
	}
	if (any)
		fprintf(f, " (%s)\n", why);
}

/* roff escapes: backslash and a leading dot or quote. */
static void roff_text(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* One option's man page entry. */
static void roff_option(FILE *f, const struct opt_def *o)
{
	char def[128], range[96];

	if (o->alias) {
		fprintf(f, ".TP\n.BI %s= ", o->name);
		roff_text(f, opt_find(o->alias)->arg);
		fprintf(f, "\nfio's name for \\fB%s\\fR.\n", o->alias);
		return;
	}
	default_text(o, def, sizeof(def));
	range_text(o, range, sizeof(range));
	fprintf(f, ".TP\n.BI %s= ", o->name);
	roff_text(f, o->arg);
	fputs("\n", f);
	roff_text(f, o->help);
	fputs("\n", f);
	fputs("Default: ", f);
	roff_text(f, def);
	if (range[0]) {
		fputs("; range: ", f);
		roff_text(f, range);
	}
	fputs(".\n", f);
}

/* The man page lists a source's or kernel's own options under it. */
static void roff_group(FILE *f, const struct opt_group *g)
{
	const struct opt_space *sp = opt_space();
	bool any = false;

	for (size_t i = 0; g && i < sp->count; i++) {
		if (!sp->opts[i].group || sp->groups[sp->opts[i].group] != g)
			continue;
		if (!any)
			fputs(".RS\n", f);
		any = true;
		roff_option(f, &sp->opts[i]);
	}
	if (any)
		fputs(".RE\n", f);
}

/* The data sources or kernels an option chooses from, with their help
 * (and in the man page, their own options). */
static void choice(FILE *f, const char *name, const char *help,
		   const char *const *impls, const struct opt_group *g,
		   bool roff)
{
	if (roff) {
		fprintf(f, ".RS\n.TP\n.B %s\n", name);
		roff_text(f, help);
	} else {
		fprintf(f, "    %-12s %s", name, help);
	}
	if (impls) {
		fputs(help[0] && help[strlen(help) - 1] != '.' ? "." : "", f);
		fputs(" Implementations:", f);
		for (size_t m = 0; impls[m]; m++)
			fprintf(f, "%s %s%s", m ? "," : "", impls[m],
				m ? "" : " (default)");
		fputc('.', f);
	}
	fputs("\n", f);
	if (roff) {
		roff_group(f, g);
		fputs(".RE\n", f);
	}
}

static void choices(FILE *f, const struct opt_def *o, bool roff)
{
	if (!strcmp(o->name, "ioengine")) {
		const char *left;
		char why[256];

		for (size_t i = 0; ioengine_registry[i]; i++)
			choice(f, ioengine_registry[i]->name,
			       ioengine_registry[i]->help, NULL,
			       ioengine_registry[i]->opts, roff);
		for (size_t i = 0; (left = ioengine_left_out(i, why,
							    sizeof(why))); i++)
			choice(f, left, why, NULL, NULL, roff);
	}
	if (!strcmp(o->name, "kernel"))
		for (size_t i = 0; kernel_registry[i]; i++)
			choice(f, kernel_registry[i]->name,
			       kernel_registry[i]->help,
			       kernel_registry[i]->impls,
			       kernel_registry[i]->opts, roff);
}

static void show_one(FILE *f, const struct opt_def *o)
{
	char def[128], range[96], arg[256];

	default_text(o, def, sizeof(def));
	range_text(o, range, sizeof(range));
	fprintf(f, "%s=%s\n  category: %s\n  default:  %s\n", o->name,
		arg_here(o, arg, sizeof(arg)), opt_cat_names[o->cat], def);
	if (range[0])
		fprintf(f, "  range:    %s\n", range);
	not_here(f, o);
	fprintf(f, "  %s\n", o->help);
	choices(f, o, false);
}

static void show_roff(FILE *f)
{
	for (int c = 0; c < CAT_COUNT; c++) {
		fprintf(f, ".SS %s\n", opt_cat_names[c]);
		for (size_t i = 0; i < opt_count; i++) {
			const struct opt_def *o = &opt_table[i];

			/* a group's options: under its source or kernel */
			if ((int)o->cat != c || o->group)
				continue;
			roff_option(f, o);
			choices(f, o, true);
		}
	}
}

int help_cmdhelp(FILE *f, const char *what)
{
	const struct opt_def *o;
	char arg[256];

	if (what && !strcmp(what, "roff")) {
		show_roff(f);
		return 0;
	}
	if (!what || !strcmp(what, "all")) {
		for (int c = 0; c < CAT_COUNT; c++) {
			fprintf(f, "%s%s:\n", c ? "\n" : "", opt_cat_names[c]);
			for (size_t i = 0; i < opt_count; i++) {
				o = &opt_table[i];
				if ((int)o->cat != c)
					continue;
				if (o->alias)
					fprintf(f, "  %-20s (fio's name for %s)\n",
						o->name, o->alias);
				else
					fprintf(f, "  %-20s %s\n", o->name,
						arg_here(o, arg, sizeof(arg)));
			}
		}
		fputs("\nmemjob --cmdhelp=OPTION explains one option.\n", f);
		return 0;
	}
	o = opt_find(what);
	if (!o)
		return -1;	/* the caller says so, with its location */
	if (strcmp(o->name, what))	/* an alias: fio's name for o */
		fprintf(f, "%s=%s\n  fio's name for %s:\n\n", what,
			arg_here(o, arg, sizeof(arg)), o->name);
	show_one(f, o);
	return 0;
}

void help_dump(FILE *f, const struct jobset *js)
{
	struct job_spec defaults;

	if (job_init_defaults(&defaults))
		return;
	fputs("; jobs as memjob resolved them (memjob --dump)\n", f);
	for (size_t i = 0; i < js->njobs; i++) {
		const struct job_spec *j = &js->jobs[i];

		fprintf(f, "\n[%s]\n", j->name);
		for (size_t k = 0; k < opt_count; k++) {
			const struct opt_def *o = &opt_table[k];
			char have[512], def[512];

			if (!strcmp(o->name, "name") || o->alias)
				continue;
			if (o->parse == optv_parse_sweep) {
				for (unsigned w = 0; w < j->nsweeps; w++) {
					sweep_format(j->space, &j->sweeps[w],
						     have, sizeof(have));
					fprintf(f, "sweep=%s\n", have);
				}
				continue;
			}
			opt_format(o, j, have, sizeof(have));
			opt_format(o, &defaults, def, sizeof(def));
			/* ioengine always: its default depends on the
			 * job's other options (files: psync) */
			if ((strcmp(have, def) && have[0]) ||
			    !strcmp(o->name, "ioengine"))
				fprintf(f, "%s=%s\n", o->name, have);
		}
		if (j->size_expr) {
			char v[32];

			value_format_size(j->size, v, sizeof(v));
			fprintf(f, "; size=%s is %s (%llu bytes) on this "
				"machine\n", j->size_expr, v,
				(unsigned long long)j->size);
		}
		if (j->kernel->impls && !j->impl_name)
			fprintf(f, "; impl=%s (the kernel's default)\n",
				j->kernel->impls[job_impl_of(j)]);
	}
	job_free(&defaults);
}
