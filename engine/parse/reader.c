/*
 * reader.c - the lines of a job file, as inih's reader callback sees them.
 *
 * inih asks for one line at a time.  Before handing one over, this layer
 * follows "include FILE" lines (a stack of open sources, each with its own
 * line counter), expands ${VAR} and ${VAR:-default}, reports [section]
 * headers, and moves values too long for inih's 200-byte line buffer aside
 * (see JOBREADER_LONG_MARK).  A line it cannot make sense of is reported
 * with its file:line and withheld from inih, so the handler never sees a
 * half-expanded value.  Every line handed over is remembered with its
 * location, so that inih's own "error on line N" can be mapped back too.
 */
#include "util/envexpand.h"
#include "parse/optspace.h"
#include "parse/reader.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define STDIN_NAME	"<stdin>"
#define INI_MAX_SECTION	50	/* inih cuts section names to 49 chars */

/* One open file (or string) on the include stack. */
struct source {
	FILE *fp;		/* NULL for a string source */
	const char *text;	/* string source: the text and where we are */
	size_t pos;
	const char *name;	/* as shown in locations; owned by r->names */
	bool own_fp;		/* false for stdin */
	bool relative;		/* includes are relative to name's directory */
	bool has_id;
	dev_t dev;
	ino_t ino;
	int line;
};

struct jobreader {
	struct diag *d;
	jobreader_section_fn on_section;
	void *user;
	struct source stack[JOBREADER_MAX_INCLUDE + 1];
	int depth;
	char **names;		/* every file name seen, freed at close */
	size_t nnames;
	struct srcloc loc;	/* the line last handed to inih */
	struct srcloc *handed;	/* location of each line handed to inih */
	size_t nhanded, caphanded;
	char *raw;		/* the line as read */
	size_t rawcap;
	struct strbuf exp;	/* the line after ${VAR} expansion */
	char *long_value;
	unsigned errors;
};

__attribute__((format(printf, 3, 4)))
static void reader_error(struct jobreader *r, const struct srcloc *loc,
			 const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(r->d, loc, NULL, "%s", msg);
	r->errors++;
}

/* Keep a file name until jobreader_close(); takes ownership of name. */
static const char *keep_name(struct jobreader *r, char *name)
{
	char **names;

	if (!name)
		return NULL;
	names = realloc(r->names, (r->nnames + 1) * sizeof(*names));
	if (!names) {
		free(name);
		return NULL;
	}
	r->names = names;
	r->names[r->nnames++] = name;
	return name;
}

static void push_source(struct jobreader *r, const struct source *src)
{
	struct source *s = &r->stack[r->depth];
	struct stat st;

	*s = *src;
	s->line = 0;
	s->has_id = false;
	if (s->fp && !fstat(fileno(s->fp), &st)) {
		s->has_id = true;
		s->dev = st.st_dev;
		s->ino = st.st_ino;
	}
	r->depth++;
}

static void pop_source(struct jobreader *r)
{
	struct source *s = &r->stack[--r->depth];

	if (s->fp && s->own_fp)
		fclose(s->fp);
	memset(s, 0, sizeof(*s));
}

static struct jobreader *reader_new(struct diag *d, jobreader_section_fn fn,
				    void *user)
{
	struct jobreader *r = calloc(1, sizeof(*r));

	if (!r) {
		diag_plain(d, "out of memory");
		return NULL;
	}
	r->d = d;
	r->on_section = fn;
	r->user = user;
	return r;
}

struct jobreader *jobreader_open(const char *path, struct diag *d,
				 jobreader_section_fn on_section, void *user)
{
	struct source src = { .own_fp = true, .relative = true };
	struct jobreader *r;
	struct stat st;

	r = reader_new(d, on_section, user);
	if (!r)
		return NULL;
	if (!strcmp(path, "-")) {
		src.fp = stdin;
		src.own_fp = false;
		src.relative = false;
		src.name = keep_name(r, strdup(STDIN_NAME));
	} else {
		src.fp = fopen(path, "re");
		if (!src.fp) {
			diag_plain(d, "cannot open job file '%s': %s", path,
				   strerror(errno));
			goto out_free;
		}
		if (!fstat(fileno(src.fp), &st) && S_ISDIR(st.st_mode)) {
			diag_plain(d, "cannot open job file '%s': %s", path,
				   strerror(EISDIR));
			goto out_close;
		}
		src.name = keep_name(r, strdup(path));
	}
	if (!src.name) {
		diag_plain(d, "out of memory");
		goto out_close;
	}
	push_source(r, &src);
	r->loc.file = src.name;
	return r;

out_close:
	if (src.own_fp)
		fclose(src.fp);
out_free:
	jobreader_close(r);
	return NULL;
}

struct jobreader *jobreader_open_string(const char *name, const char *text,
					struct diag *d,
					jobreader_section_fn on_section,
					void *user)
{
	struct source src = { .relative = false };
	struct jobreader *r;
	char *copy;

	r = reader_new(d, on_section, user);
	if (!r)
		return NULL;
	src.name = keep_name(r, strdup(name));
	copy = strdup(text);
	/* the copy is kept with the names, so close() frees it too */
	src.text = keep_name(r, copy);
	if (!src.name || !src.text) {
		diag_plain(d, "out of memory");
		jobreader_close(r);
		return NULL;
	}
	push_source(r, &src);
	r->loc.file = src.name;
	return r;
}

/* A job file's line may be this long: "include /dev/zero" is one line
 * that never ends, and must not take all memory first. */
#define MAX_LINE	(1u << 20)

/* getline(), but -3 once a line passes MAX_LINE bytes. */
static ssize_t getline_max(char **buf, size_t *cap, FILE *f)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF) {
		if (n + 2 > *cap) {
			size_t want = *cap ? 2 * *cap : 256;
			char *b;

			if (n + 2 > MAX_LINE)
				return -3;
			b = realloc(*buf, want);
			if (!b)
				return -2;
			*buf = b;
			*cap = want;
		}
		(*buf)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (!n)
		return -1;
	(*buf)[n] = '\0';
	return (ssize_t)n;
}

/*
 * The next raw line of s into r->raw, without its line ending: 0, or -1
 * at the end of s (or on a read error), -2 when out of memory, -3 when
 * the line is longer than MAX_LINE.
 */
static int read_raw(struct jobreader *r, struct source *s, size_t *len)
{
	const char *p, *nl;
	ssize_t n;

	errno = 0;
	if (s->fp) {
		n = getline_max(&r->raw, &r->rawcap, s->fp);
		if (n < 0)
			return (int)n;
		*len = (size_t)n;
	} else {
		p = s->text + s->pos;
		if (!*p)
			return -1;
		nl = strchr(p, '\n');
		*len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (*len + 1 > r->rawcap) {
			char *raw = realloc(r->raw, *len + 1);

			if (!raw)
				return -2;
			r->raw = raw;
			r->rawcap = *len + 1;
		}
		memcpy(r->raw, p, *len);
		r->raw[*len] = '\0';
		s->pos += *len;
	}
	if (*len && r->raw[*len - 1] == '\n')
		r->raw[--*len] = '\0';
	if (*len && r->raw[*len - 1] == '\r')
		r->raw[--*len] = '\0';
	return 0;
}

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static size_t trim_end(const char *s, size_t len)
{
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return len;
}

/*
 * inih's scan: the first of chars, or the start of an inline comment (a
 * comment prefix right after whitespace), or the end of the string.
 */
static const char *find_chars_or_comment(const char *s, const char *chars)
{
	bool was_space = false;

	for (; *s; s++) {
		if (chars && strchr(chars, *s))
			break;
		if (was_space && ini_allow_inline_comments &&
		    strchr(ini_inline_comment_prefixes, *s))
			break;
		was_space = isspace((unsigned char)*s);
	}
	return s;
}

/*
 * The value of a "key = value" line whose option is a shell command
 * (OPTF_SHELL), or NULL: its ${VAR}s are the shell's (env_expand_shell).
 */
static const char *shell_value(const char *line)
{
	const char *key = skip_blank(line), *sep;
	const struct opt_def *o;
	char name[64];
	size_t klen;

	sep = find_chars_or_comment(key, "=:");
	klen = trim_end(key, (size_t)(sep - key));
	if ((*sep != '=' && *sep != ':') || !klen || klen >= sizeof(name))
		return NULL;
	memcpy(name, key, klen);
	name[klen] = '\0';
	o = opt_find(name);
	return o && (o->flags & OPTF_SHELL) ? sep + 1 : NULL;
}

/* ${...} of line into r->exp: in a shell command's value as
 * env_expand_shell() leaves them, elsewhere expanded (envexpand.h). */
static char *expand_line(const char *line, char *err, size_t len)
{
	const char *value = shell_value(line);
	char *key, *val, *out = NULL;

	if (!value)
		return env_expand(line, err, len);
	key = strndup(line, (size_t)(value - line));
	val = env_expand_shell(value, err, len);
	if (key && val && asprintf(&out, "%s%s", key, val) < 0)
		out = NULL;
	if (!out && key && val)
		snprintf(err, len, "out of memory");
	free(key);
	free(val);
	return out;
}

/* Expand every ${...} in line into r->exp (see envexpand.h). */
static int expand(struct jobreader *r, const char *line,
		  const struct srcloc *loc)
{
	char err[512];
	char *out = expand_line(line, err, sizeof(err));
	int ret;

	if (!out) {
		reader_error(r, loc, "%s", err);
		return -1;
	}
	r->exp.len = 0;
	ret = strbuf_add(&r->exp, out, strlen(out));
	free(out);
	if (ret)
		reader_error(r, loc, "out of memory");
	return ret;
}

/* Remember where the line in str came from; 1, or -1 if out of memory. */
static int record(struct jobreader *r, const struct srcloc *loc)
{
	struct srcloc *h;

	if (r->nhanded == r->caphanded) {
		size_t cap = r->caphanded ? 2 * r->caphanded : 64;

		h = realloc(r->handed, cap * sizeof(*h));
		if (!h) {
			reader_error(r, loc, "out of memory");
			return -1;
		}
		r->handed = h;
		r->caphanded = cap;
	}
	r->handed[r->nhanded++] = *loc;
	r->loc = *loc;
	return 1;
}

/* Give inih len bytes of text plus a newline. */
static int hand(struct jobreader *r, const struct srcloc *loc, char *str,
		const char *text, size_t len)
{
	memcpy(str, text, len);
	str[len] = '\n';
	str[len + 1] = '\0';
	return record(r, loc);
}

/* If line is "include FILE", the file name (trimmed, in place). */
static char *include_path(char *line, bool *is_include)
{
	char *p = (char *)skip_blank(line), *end;

	*is_include = false;
	if (strncmp(p, "include", 7))
		return NULL;
	if (p[7] && p[7] != ' ' && p[7] != '\t')
		return NULL;
	p = (char *)skip_blank(p + 7);
	if (*p == '=' || *p == ':')
		return NULL;	/* an option that happens to be called include */
	*is_include = true;
	end = (char *)find_chars_or_comment(p, NULL);
	*end = '\0';
	p[trim_end(p, strlen(p))] = '\0';
	return p;
}

/* "a.ini includes b.ini which includes a.ini", from stack entry first. */
static void report_cycle(struct jobreader *r, int first,
			 const struct srcloc *loc)
{
	struct strbuf b = { 0 };
	int i, bad = 0;

	bad |= strbuf_add(&b, r->stack[first].name, strlen(r->stack[first].name));
	for (i = first + 1; i <= r->depth; i++) {
		const char *name = i < r->depth ? r->stack[i].name :
						  r->stack[first].name;
		const char *verb = i == first + 1 ? " includes " :
						    " which includes ";

		bad |= strbuf_add(&b, verb, strlen(verb));
		bad |= strbuf_add(&b, name, strlen(name));
	}
	reader_error(r, loc, "include cycle: %s", bad ? "(out of memory)" : b.p);
	free(b.p);
}

/* The path of an include, relative to the including file's directory. */
static char *resolve_include(const struct source *from, const char *path)
{
	const char *slash = strrchr(from->name, '/');
	size_t dlen;
	char *full;

	if (path[0] == '/' || !from->relative || !slash)
		return strdup(path);
	dlen = (size_t)(slash - from->name) + 1;
	full = malloc(dlen + strlen(path) + 1);
	if (!full)
		return NULL;
	memcpy(full, from->name, dlen);
	strcpy(full + dlen, path);
	return full;
}

static void do_include(struct jobreader *r, const char *path,
		       const struct srcloc *loc)
{
	struct source src = { .own_fp = true, .relative = true };
	struct stat st;
	char *full;
	int i;

	if (!*path) {
		reader_error(r, loc, "include needs a file name");
		return;
	}
	if (r->depth > JOBREADER_MAX_INCLUDE) {
		reader_error(r, loc, "include nesting deeper than %d",
			     JOBREADER_MAX_INCLUDE);
		return;
	}
	full = resolve_include(&r->stack[r->depth - 1], path);
	if (!full) {
		reader_error(r, loc, "out of memory");
		return;
	}
	/* before the open, which would block on a FIFO: a device or a FIFO
	 * may never end (/dev/zero) */
	if (!stat(full, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		reader_error(r, loc, "cannot include '%s': not a regular file",
			     full);
		goto out_free;
	}
	src.fp = fopen(full, "re");
	if (!src.fp) {
		reader_error(r, loc, "cannot include '%s': %s", full,
			     strerror(errno));
		goto out_free;
	}
	if (fstat(fileno(src.fp), &st)) {
		reader_error(r, loc, "cannot include '%s': %s", full,
			     strerror(errno));
		goto out_close;
	}
	if (S_ISDIR(st.st_mode)) {
		reader_error(r, loc, "cannot include '%s': %s", full,
			     strerror(EISDIR));
		goto out_close;
	}
	for (i = 0; i < r->depth; i++) {
		if (r->stack[i].has_id && r->stack[i].dev == st.st_dev &&
		    r->stack[i].ino == st.st_ino) {
			report_cycle(r, i, loc);
			goto out_close;
		}
	}
	src.name = keep_name(r, full);
	if (!src.name) {
		reader_error(r, loc, "out of memory");
		fclose(src.fp);
		return;
	}
	push_source(r, &src);
	return;

out_close:
	fclose(src.fp);
out_free:
	free(full);
}

/* A "[name]" line: tell the caller, then let inih have it. */
static int section_line(struct jobreader *r, const struct srcloc *loc,
			char *str, size_t num, const char *text, size_t len)
{
	const char *start = skip_blank(text) + 1;
	const char *end = find_chars_or_comment(start, "]");
	size_t nlen = (size_t)(end - start);
	char *name;

	if (*end != ']')	/* malformed: inih reports it */
		return len + 2 <= num ? hand(r, loc, str, text, len) :
					hand(r, loc, str, text, num - 2);
	if (nlen >= INI_MAX_SECTION) {
		reader_error(r, loc, "section name '%.*s' is longer than %d characters",
			     (int)nlen, start, INI_MAX_SECTION - 1);
		/* the options that follow belong to no job: say so once */
		if (r->on_section && r->on_section(r->user, NULL, loc) < 0)
			return -1;
		return 0;
	}
	{
		const char *after = skip_blank(end + 1);

		if (*after && *after != ';' && *after != '#')
			reader_error(r, loc, "text after the section header: "
				     "'%.*s' (put each option on its own "
				     "line)", (int)trim_end(after,
							    strlen(after)),
				     after);
	}
	name = strndup(start, nlen);
	if (!name) {
		reader_error(r, loc, "out of memory");
		return 0;
	}
	r->loc = *loc;
	if (r->on_section && r->on_section(r->user, name, loc) < 0) {
		free(name);
		return -1;
	}
	free(name);
	/* what follows ']' is a comment to inih: hand only the header */
	return hand(r, loc, str, text, (size_t)(end + 1 - text));
}

/* A "key = value" line too long for inih: hand over "key=" LONG_MARK. */
static int long_line(struct jobreader *r, const struct srcloc *loc,
		     char *str, size_t num, const char *text)
{
	const char *key = skip_blank(text), *sep, *val, *end;
	size_t klen, vlen;
	char *copy;

	sep = find_chars_or_comment(key, "=:");
	klen = trim_end(key, (size_t)(sep - key));
	if (*sep != '=' && *sep != ':') {
		reader_error(r, loc, "expected option=value, got '%.40s...'",
			     key);
		return 0;
	}
	if (klen + 1 + strlen(JOBREADER_LONG_MARK) + 2 > num) {
		reader_error(r, loc, "option name longer than %zu characters",
			     num - 2 - strlen(JOBREADER_LONG_MARK) - 2);
		return 0;
	}
	val = sep + 1;
	end = find_chars_or_comment(val, NULL);
	val = skip_blank(val);
	vlen = end > val ? trim_end(val, (size_t)(end - val)) : 0;
	copy = strndup(val, vlen);
	if (!copy) {
		reader_error(r, loc, "out of memory");
		return 0;
	}
	free(r->long_value);
	r->long_value = copy;
	memcpy(str, key, klen);
	strcpy(str + klen, "=" JOBREADER_LONG_MARK "\n");
	return record(r, loc);
}

/*
 * What to do with one line: 1 if str now holds a line for inih, 0 if the
 * line was consumed here (include, error), -1 to stop reading.
 */
static int process_line(struct jobreader *r, char *line, size_t len,
			const struct srcloc *loc, char *str, size_t num)
{
	const char *p = skip_blank(line);
	bool is_include;
	char *text, *path;

	if (strlen(line) != len) {
		reader_error(r, loc, "line contains a NUL byte (is this a text file?)");
		return 0;
	}
	if (*p == ';' || *p == '#')	/* a comment, passed on as it is */
		return hand(r, loc, str, line, len + 2 <= num ? len : num - 2);
	if (expand(r, line, loc))
		return 0;
	text = r->exp.p;
	len = r->exp.len;
	path = include_path(text, &is_include);
	if (is_include) {
		do_include(r, path, loc);
		return 0;
	}
	if (!strcmp(skip_blank(text), "include")) {
		reader_error(r, loc, "include needs a file name");
		return 0;
	}
	p = skip_blank(text);
	if (*p == '[')
		return section_line(r, loc, str, num, text, len);
	len = trim_end(text, len);
	if (len + 2 <= num)
		return hand(r, loc, str, text, len);
	return long_line(r, loc, str, num, text);
}

char *jobreader_gets(char *str, int num, void *stream)
{
	struct jobreader *r = stream;
	struct source *s;
	struct srcloc loc;
	size_t len = 0;
	char *line;
	int ret;

	/* room for at least "k=" LONG_MARK "\n" */
	if (num < 8)
		return NULL;
	while (r->depth > 0) {
		s = &r->stack[r->depth - 1];
		ret = read_raw(r, s, &len);
		if (ret) {
			loc.file = s->name;
			loc.line = s->line;
			if (ret == -2) {
				reader_error(r, &loc, "out of memory");
				return NULL;
			}
			if (ret == -3) {
				reader_error(r, &loc, "line %d is longer than "
					     "%u bytes", s->line + 1, MAX_LINE);
				return NULL;
			}
			/* EINTR: a SIGINT or SIGTERM, which the caller
			 * reports (nothing runs) */
			if (s->fp && ferror(s->fp) && errno != EINTR)
				reader_error(r, &loc, "read error: %s",
					     strerror(errno));
			pop_source(r);
			continue;
		}
		s->line++;
		loc.file = s->name;
		loc.line = s->line;
		line = r->raw;
		if (s->line == 1 && !strncmp(line, "\xEF\xBB\xBF", 3)) {
			line += 3;
			len -= 3;
		}
		ret = process_line(r, line, len, &loc, str, (size_t)num);
		if (ret > 0)
			return str;
		if (ret < 0)
			return NULL;
	}
	return NULL;
}

const struct srcloc *jobreader_loc(const struct jobreader *r)
{
	return &r->loc;
}

const struct srcloc *jobreader_line_loc(const struct jobreader *r, int lineno)
{
	if (lineno < 1 || (size_t)lineno > r->nhanded)
		return NULL;
	return &r->handed[lineno - 1];
}

const char *jobreader_long_value(const struct jobreader *r)
{
	return r->long_value ? r->long_value : "";
}

unsigned jobreader_errors(const struct jobreader *r)
{
	return r->errors;
}

void jobreader_close(struct jobreader *r)
{
	size_t i;

	if (!r)
		return;
	while (r->depth > 0)
		pop_source(r);
	for (i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->handed);
	free(r->raw);
	free(r->exp.p);
	free(r->long_value);
	free(r);
}
