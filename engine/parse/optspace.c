/*
 * optspace.c - the option space: the core table, then the options of every
 * registered data source and kernel, each entry copied once with the group
 * it came from.  A group's option is listed right after the option its
 * .after names (so --cmdhelp and --dump keep a reading order that does not
 * depend on which file declares an option), or after the group's previous
 * option; one whose anchor is nowhere goes last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/optspace.h"
#include "ioengines/ioengine.h"
#include "kernels/kernel.h"

#define SPACE_MAX	512
#define GROUPS_MAX	64

struct space_store {
	struct opt_def opts[SPACE_MAX];
	const struct opt_group *groups[GROUPS_MAX];
	unsigned short by_name[SPACE_MAX];
	struct opt_space space;
};

static int by_name_cmp(const void *a, const void *b, void *arg)
{
	const struct opt_def *opts = arg;

	return strcmp(opts[*(const unsigned short *)a].name,
		      opts[*(const unsigned short *)b].name);
}

static int find_in(const struct opt_def *opts, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(opts[i].name, name))
			return (int)i;
	return -1;
}

/* Insert group g's option i after the entry at position at. */
static void insert_at(struct space_store *s, size_t at, unsigned g, size_t i)
{
	struct opt_space *sp = &s->space;

	memmove(&s->opts[at + 2], &s->opts[at + 1],
		(sp->count - at - 1) * sizeof(s->opts[0]));
	s->opts[at + 1] = s->groups[g]->opts[i];
	s->opts[at + 1].group = g;
	sp->count++;
}

/* One round: place every option whose anchor is placed; how many were.
 * placed[first[g] + i]: group g's option i is in the space. */
static size_t place_round(struct space_store *s, bool *placed,
			  const size_t *first, bool last_resort)
{
	struct opt_space *sp = &s->space;
	size_t done = 0;

	for (unsigned g = 1; g < sp->ngroups; g++) {
		const struct opt_group *grp = s->groups[g];

		for (size_t i = 0; i < grp->nopts; i++) {
			const char *anchor = grp->opts[i].after;
			int at;

			if (placed[first[g] + i])
				continue;
			if (!anchor && i)
				anchor = grp->opts[i - 1].name;
			at = anchor ? find_in(s->opts, sp->count, anchor) : -1;
			if (at < 0 && !last_resort && (anchor || i))
				continue;
			if (sp->count >= SPACE_MAX) {
				fprintf(stderr, "memjob: internal error: more "
					"than %d options\n", SPACE_MAX);
				abort();
			}
			insert_at(s, at < 0 ? sp->count - 1 : (size_t)at, g,
				  i);
			placed[first[g] + i] = true;
			done++;
		}
	}
	return done;
}

static void add_group(struct space_store *s, const struct opt_group *g)
{
	if (!g || !g->nopts)
		return;
	if (s->space.ngroups >= GROUPS_MAX) {
		fprintf(stderr, "memjob: internal error: more than %d option "
			"groups\n", GROUPS_MAX);
		abort();
	}
	s->groups[s->space.ngroups++] = g;
}

static void build(struct space_store *s)
{
	bool placed[SPACE_MAX] = { false };
	size_t first[GROUPS_MAX] = { 0 };
	struct opt_space *sp = &s->space;
	size_t used = 0;

	memcpy(s->opts, opt_core, opt_core_count * sizeof(s->opts[0]));
	sp->count = opt_core_count;
	sp->groups = s->groups;
	s->groups[0] = NULL;
	sp->ngroups = 1;
	for (size_t i = 0; ioengine_registry[i]; i++)
		add_group(s, ioengine_registry[i]->opts);
	for (size_t i = 0; kernel_registry[i]; i++)
		add_group(s, kernel_registry[i]->opts);
	for (unsigned g = 1; g < sp->ngroups; g++) {
		first[g] = used;
		used += s->groups[g]->nopts;
		if (used > SPACE_MAX) {
			fprintf(stderr, "memjob: internal error: more than "
				"%d options\n", SPACE_MAX);
			abort();
		}
	}
	while (place_round(s, placed, first, false))
		;
	place_round(s, placed, first, true);
	sp->opts = s->opts;
	for (size_t i = 0; i < sp->count; i++)
		s->by_name[i] = (unsigned short)i;
	qsort_r(s->by_name, sp->count, sizeof(s->by_name[0]), by_name_cmp,
		s->opts);
	sp->by_name = s->by_name;
}

const struct opt_space *opt_space(void)
{
	static struct space_store store;

	if (!store.space.opts)
		build(&store);
	return &store.space;
}

int opt_index(const char *name)
{
	return opt_space_index(opt_space(), name);
}

const struct opt_def *opt_find(const char *name)
{
	return opt_space_find(opt_space(), name);
}

const char *opt_nearest(const char *name)
{
	return opt_space_nearest(opt_space(), name);
}

bool opt_is_fio_word(const char *name)
{
	return opt_space_word_flags(opt_space(), name) & OPTF_FIO;
}

int job_init_defaults(struct job_spec *j)
{
	return job_init_space(j, opt_space());
}
