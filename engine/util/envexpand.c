/*
 * envexpand.c - ${VAR} and ${VAR:-default} expansion, and the same for a
 * shell command, where the variables are left to the shell (envexpand.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/envexpand.h"
#include "util/strbuf.h"

static bool valid_var_name(const char *s, size_t len)
{
	if (!len || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* The value of the "${...}" at s (closing brace at close): the
 * variable's, or its default, into *val and *vlen; -1 with why in err. */
static int resolve(const char *s, const char *close, const char **val,
		   size_t *vlen, char *err, size_t errlen)
{
	const char *inner = s + 2, *sep;
	size_t nlen;
	char *name;

	sep = strstr(inner, ":-");
	if (sep && sep > close)
		sep = NULL;
	nlen = (size_t)((sep ? sep : close) - inner);
	if (!valid_var_name(inner, nlen)) {
		snprintf(err, errlen, "cannot expand '%.*s': use ${NAME} or "
			 "${NAME:-default}", (int)(close + 1 - s), s);
		return -1;
	}
	name = strndup(inner, nlen);
	if (!name) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	*val = getenv(name);
	if (sep && (!*val || !**val)) {
		*val = sep + 2;
		*vlen = (size_t)(close - sep - 2);
	} else if (!*val) {
		snprintf(err, errlen, "environment variable '%s' is not set "
			 "(use ${%s:-default} to give a default)", name, name);
		free(name);
		return -1;
	} else {
		*vlen = strlen(*val);
	}
	free(name);
	return 0;
}

/* The '}' of the "${" at dollar, or NULL with why in err. */
static const char *closing_brace(const char *dollar, char *err,
				 size_t errlen)
{
	const char *close = strchr(dollar + 2, '}');

	if (!close)
		snprintf(err, errlen, "'${' without a closing '}'");
	return close;
}

/*
 * The shell's quoting around each ${...} of a command, as far as it
 * decides how the shell takes the variable: plain text (at the top, or
 * in $(...) or `...`, where a substitution starts afresh), inside '...'
 * or inside "...".  A stack, since "$(...)" nests plain text in quotes.
 */
enum shq { SH_PLAIN, SH_SQ, SH_DQ };

struct shctx {
	enum shq q;
	char end;		/* ')' for $(...), '`' for `...`, 0: top */
	unsigned parens;	/* ( inside $(...) */
};

#define SH_DEPTH	32

struct shlex {
	struct shctx st[SH_DEPTH];
	int top;
};

static int sh_push(struct shlex *l, enum shq q, char end)
{
	if (l->top + 1 >= SH_DEPTH)
		return -1;
	l->st[++l->top] = (struct shctx){ q, end, 0 };
	return 0;
}

/* Track the quoting through character c (and the one after it); the
 * number of characters it takes (2 for "\x" and "$("), or -1 when the
 * nesting is too deep to follow. */
static int sh_step(struct shlex *l, const char *c)
{
	struct shctx *x = &l->st[l->top];

	if (x->q == SH_SQ) {
		if (*c == '\'')
			l->top--;
		return 1;
	}
	if (*c == '\\')
		return c[1] ? 2 : 1;
	if (*c == '"') {
		if (x->q == SH_DQ)
			l->top--;
		else if (sh_push(l, SH_DQ, 0))
			return -1;
		return 1;
	}
	if (*c == '$' && c[1] == '(')
		return sh_push(l, SH_PLAIN, ')') ? -1 : 2;
	if (*c == '`')
		return x->end == '`' && x->q == SH_PLAIN ? (l->top--, 1) :
		       sh_push(l, SH_PLAIN, '`') ? -1 : 1;
	if (x->q != SH_PLAIN)
		return 1;
	if (*c == '\'')
		return sh_push(l, SH_SQ, 0) ? -1 : 1;
	if (x->end == ')' && *c == '(')
		x->parens++;
	else if (x->end == ')' && *c == ')' && !x->parens--)
		l->top--;
	return 1;
}

/* Where the shell quotes the ${...} of a command: in double quotes when
 * plain; inside '...', the quote closed around it, so that it expands
 * there too, as ${VAR} does everywhere in a job file. */
static const char *const sh_open[] = { "\"", "'\"", "" };
static const char *const sh_shut[] = { "\"", "\"'", "" };

/* env_expand() (shell false) or env_expand_shell() (shell true). */
static char *expand_text(const char *text, bool shell, char *err,
			 size_t errlen)
{
	struct strbuf b = { 0 };
	struct shlex l = { .top = 0 };
	const char *s = text;

	l.st[0] = (struct shctx){ SH_PLAIN, 0, 0 };
	if (strbuf_add(&b, "", 0))
		goto out_nomem;
	while (*s) {
		const char *close, *val, *next;
		enum shq q = l.st[l.top].q;
		size_t vlen;
		int n;

		if (s[0] != '$' || s[1] != '{') {
			next = strstr(s, "${");
			n = shell ? sh_step(&l, s) :
			    (int)(next ? next - s : (ptrdiff_t)strlen(s));
			if (n < 0) {
				snprintf(err, errlen, "quotes and substitutions "
					 "nested deeper than %d", SH_DEPTH - 1);
				goto out_fail;
			}
			if (strbuf_add(&b, s, (size_t)n))
				goto out_nomem;
			s += n;
			continue;
		}
		/* in a command, checked as anywhere else but left for the
		 * shell to expand */
		close = closing_brace(s, err, errlen);
		if (!close || resolve(s, close, &val, &vlen, err, errlen))
			goto out_fail;
		if (shell ? strbuf_add(&b, sh_open[q], strlen(sh_open[q])) ||
			    strbuf_add(&b, s, (size_t)(close + 1 - s)) ||
			    strbuf_add(&b, sh_shut[q], strlen(sh_shut[q]))
			  : strbuf_add(&b, val, vlen))
			goto out_nomem;
		s = close + 1;
	}
	return b.p;

out_nomem:
	snprintf(err, errlen, "out of memory");
out_fail:
	free(b.p);
	return NULL;
}

char *env_expand(const char *text, char *err, size_t errlen)
{
	return expand_text(text, false, err, errlen);
}

char *env_expand_shell(const char *text, char *err, size_t errlen)
{
	return expand_text(text, true, err, errlen);
}
