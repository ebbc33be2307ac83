#!/bin/bash
# t/broken/helpers.sh - what t0900 (broken job files) and t0910 (broken
# command lines) assert about every refused input, sourced after t/lib.sh.
#
# The contract: exit status 2; an error "FILE:LINE: option 'x': why" (or
# "command line:N: ..."); nothing started (no report on stdout) and nothing
# created or changed in the working directory.  A test body goes
#
#     in_fresh_dir case07 &&
#     refuses "$BROKEN/07-size-bad-suffix.ini" &&
#     error_at "$BROKEN/07-size-bad-suffix.ini:4" bs "got ${SQ}12q${SQ}" &&
#     errors_are 1
#
# in_fresh_dir puts the test in an empty directory of its own; memjob's
# stdout and stderr are kept beside it ($OUT, $ERR), never inside it, so
# the directory's listing is all memjob's doing.

BROKEN=$SRCDIR/t/broken
# A single quote, for fragments inside single-quoted test bodies.
# shellcheck disable=SC2089,SC2090 # a literal quote is the point
SQ="'"
# shellcheck disable=SC2090
export BROKEN SQ

# in_fresh_dir NAME: cd into a new empty directory $TEST_TMP/NAME.d.
in_fresh_dir()
{
	OUT=$TEST_TMP/$1.out
	ERR=$TEST_TMP/$1.err
	mkdir "$TEST_TMP/$1.d" && cd "$TEST_TMP/$1.d" || return 1
}

# snapshot_: every entry below the current directory with its type, size,
# mode and mtime, and every regular file's checksum.
snapshot_()
{
	find . -mindepth 1 -printf '%p %y %s %m %T@\n' | LC_ALL=C sort &&
	find . -type f -exec cksum {} + | LC_ALL=C sort
}

# make_file NAME BYTES: a fixture file of BYTES zero bytes.
make_file()
{
	head -c "$2" /dev/zero >"$1"
}

# refuses ARGS...: run memjob ARGS in the current directory, which must
# then be exactly as before (no file created, none changed); memjob must
# exit with 2 and print nothing on stdout.  Shows memjob's stderr.
refuses()
{
	local before after rc

	before=$(snapshot_) || return 1
	"$MEMJOB" "$@" >"$OUT" 2>"$ERR" && rc=0 || rc=$?
	after=$(snapshot_) || return 1
	echo "memjob $* (exit status $rc), stderr:"
	sed 's/^/| /' "$ERR"
	if [ "$rc" != 2 ]; then
		echo "refuses: expected exit status 2, got $rc"
		return 1
	fi
	if [ -s "$OUT" ]; then
		echo "refuses: expected nothing on stdout (no job started), got:"
		sed 's/^/| /' "$OUT"
		return 1
	fi
	if [ "$before" != "$after" ]; then
		echo "refuses: the working directory changed:"
		diff <(echo "$before") <(echo "$after")
		return 1
	fi
	return 0
}

# error_at LOC OPT FRAGMENT...: stderr has a line that starts with
# "LOC: option 'OPT': " ("LOC: " when OPT is -) and contains every
# FRAGMENT after that start.  Several lines may start so; one of them must
# hold them all.
error_at()
{
	local prefix="$1: " line found=

	[ "$2" != - ] && prefix="${prefix}option '$2': "
	shift 2
	while IFS= read -r line; do
		found=$line
		if has_all_ "${line#"$prefix"}" "$@"; then
			return 0
		fi
	done < <(P=$prefix awk 'index($0, ENVIRON["P"]) == 1' "$ERR")
	if [ -z "$found" ]; then
		echo "error_at: no error line starts with \"$prefix\""
	else
		echo "error_at: the error at \"$prefix\" lacks one of:"
		printf '    "%s"\n' "$@"
	fi
	return 1
}

has_all_()
{
	local line=$1 f

	shift
	for f in "$@"; do
		case $line in *"$f"*) ;; *) return 1 ;; esac
	done
	return 0
}

# errors_are N: stderr holds exactly N located errors ("WHERE:LINE: ...",
# warnings not counted), so that one mistake is not reported as several.
errors_are()
{
	local n

	n=$(grep -E '^.+:[0-9]+: ' "$ERR" |
	    grep -Evc '^.+:[0-9]+: warning: ' || true)
	if [ "$n" != "$1" ]; then
		echo "errors_are: expected $1 located error(s), stderr has $n"
		return 1
	fi
}

# stderr_lacks TEXT: stderr does not contain TEXT.
stderr_lacks()
{
	if grep -F -- "$1" "$ERR"; then
		echo "stderr_lacks: stderr should not say \"$1\""
		return 1
	fi
}

# stderr_has TEXT: stderr contains TEXT somewhere.
stderr_has()
{
	if ! grep -qF -- "$1" "$ERR"; then
		echo "stderr_has: stderr does not say \"$1\""
		return 1
	fi
}
