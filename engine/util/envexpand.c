/*
 * envexpand.c - ${VAR} and ${VAR:-default} expansion (see envexpand.h).
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

/* One "${...}" at s, whose closing brace is close, appended to b. */
static int expand_one(struct strbuf *b, const char *s, const char *close,
		      char *err, size_t errlen)
{
	const char *inner = s + 2, *sep, *val;
	size_t nlen;
	char *name;
	int ret;

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
	val = getenv(name);
	if (sep && (!val || !*val)) {
		ret = strbuf_add(b, sep + 2, (size_t)(close - sep - 2));
	} else if (!val) {
		snprintf(err, errlen, "environment variable '%s' is not set "
			 "(use ${%s:-default} to give a default)", name, name);
		free(name);
		return -1;
	} else {
		ret = strbuf_add(b, val, strlen(val));
	}
	free(name);
	if (ret)
		snprintf(err, errlen, "out of memory");
	return ret;
}

char *env_expand(const char *text, char *err, size_t errlen)
{
	struct strbuf b = { 0 };
	const char *s = text, *dollar, *close;

	if (strbuf_add(&b, "", 0))
		goto out_nomem;
	while ((dollar = strstr(s, "${"))) {
		if (strbuf_add(&b, s, (size_t)(dollar - s)))
			goto out_nomem;
		close = strchr(dollar + 2, '}');
		if (!close) {
			snprintf(err, errlen, "'${' without a closing '}'");
			goto out_fail;
		}
		if (expand_one(&b, dollar, close, err, errlen))
			goto out_fail;
		s = close + 1;
	}
	if (strbuf_add(&b, s, strlen(s)))
		goto out_nomem;
	return b.p;

out_nomem:
	snprintf(err, errlen, "out of memory");
out_fail:
	free(b.p);
	return NULL;
}
