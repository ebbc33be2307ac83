#!/bin/bash
# t0150-man.sh - the man page and the code never disagree: the OPTIONS
# block of man/memjob.1 is exactly what the option table prints (so an
# option added without "make man" fails here), every CSV column is
# documented, and the page renders without warnings.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

MAN=$SRCDIR/man/memjob.1

test_lazy_prereq GROFF 'command -v groff'
# The man page documents every ioengine; a build that left an optional
# one out (./configure's summary) prints less than the page has.
test_lazy_prereq ALL_IOENGINES '
	! "$MEMJOB" --cmdhelp=ioengine | grep -q "^    [a-z_]* *not in this build: "
'

# The lines between the markers (the Makefile's "man" target writes them).
BEGIN_MARK='.\" BEGIN GENERATED OPTIONS'
END_MARK='.\" END GENERATED OPTIONS'

# man_block: the generated OPTIONS block of the man page, markers excluded.
man_block()
{
	# Through the environment: awk -v would eat the backslash.
	B=$BEGIN_MARK E=$END_MARK awk '
	$0 == ENVIRON["E"] { inside = 0 }
	inside { print }
	$0 == ENVIRON["B"] { inside = 1 }' "$MAN"
}

test_expect_success 'man/memjob.1 has exactly one generated OPTIONS block' '
	test "$(grep -cF -x "$BEGIN_MARK" "$MAN")" = 1 &&
	test "$(grep -cF -x "$END_MARK" "$MAN")" = 1 &&
	man_block >man-block &&
	test "$(grep -c "^\.SS" man-block)" -ge 5
'

test_expect_success ALL_IOENGINES 'the OPTIONS block is exactly memjob --cmdhelp=roff (run "make man")' '
	man_block >man-block &&
	test -s man-block &&
	"$MEMJOB" --cmdhelp=roff >generated &&
	test -s generated &&
	test_cmp generated man-block
'

test_expect_success 'every option of the table has an entry in the man page' '
	sed -n "s/^[[:space:]]*{ \.name = \"\([a-z_0-9]*\)\".*/\1/p" \
		"$SRCDIR/engine/parse/options.c" "$SRCDIR"/ioengines/*.c \
		"$SRCDIR"/engine/kernels/*.c >names &&
	test "$(wc -l <names)" -ge 30 &&
	while read -r o; do
		grep -q "^\.BI $o= " "$MAN" ||
		{ echo "option $o has no .BI $o= entry in $MAN"; exit 1; }
	done <names
'

# The command line's own flags and the subcommands' are parsed by hand
# (not from the option table): each flag their --help lists must be in
# the page too, as \-\-flag.
test_expect_success 'every flag memjob, memjob plot and memjob report --help list is in the man page' '
	for c in "" plot report; do
		# shellcheck disable=SC2086 # $c is empty or one word
		"$MEMJOB" $c --help >help.$c 2>&1 || exit 1
		sed -n "s/^ *\(--[a-z][a-z_-]*\).*/\1/p" help.$c | sort -u >flags.$c
		test "$(wc -l <flags.$c)" -ge 5 ||
		{ echo "memjob $c --help lists fewer than 5 flags"; exit 1; }
		while read -r f; do
			grep -qF -- "$(printf "%s" "$f" | sed "s/-/\\\\-/g")" "$MAN" ||
			{ echo "memjob $c: $f is in --help, not in $MAN"; exit 1; }
		done <flags.$c
	done
'

# The column names the man page's CSV section documents, one a line: the
# argument of ".B name", or the bold words of ".BR a ", " b".
man_csv_columns()
{
	sed -n '/^\.SS CSV/,/^\.S[HS]/p' "$MAN" |
	awk '
	prev_tp && /^\.B / { sub(/^\.B /, ""); print }
	prev_tp && /^\.BR / {
		sub(/^\.BR /, "")
		n = split($0, w, /[ ]*"[^"]*"[ ]*/)
		for (i = 1; i <= n; i++) if (w[i] != "") print w[i]
	}
	{ prev_tp = /^\.TP/ }'
}

# csv_columns: the columns memjob prints, one a line, in header-cols, and
# those the man page documents in man-cols.
csv_columns()
{
	"$MEMJOB" --output-format=csv --name=a --size=4k >out.csv &&
	head -n 1 out.csv | tr , "\n" >header-cols &&
	man_csv_columns >man-cols
}

test_expect_success 'every CSV column memjob prints is documented in CSV' '
	csv_columns &&
	test "$(wc -l <man-cols)" -ge 20 &&
	while read -r c; do
		grep -qx "$c" man-cols || { echo "column $c is not documented"; exit 1; }
	done <header-cols
'

test_expect_success 'the man page documents no CSV column memjob does not print' '
	csv_columns &&
	while read -r c; do
		grep -qx "$c" header-cols || { echo "documented column $c is not printed"; exit 1; }
	done <man-cols
'

test_expect_success 'the CSV columns are documented in header order' '
	csv_columns &&
	test_cmp header-cols man-cols
'

test_expect_success GROFF 'groff -ww reports a warning on a broken page (the check works)' '
	printf ".TH X 1\n.SH NAME\nx\n.NOSUCHMACRO\n" >bad.1 &&
	groff -man -ww -z bad.1 2>err || true &&
	test -s err
'

test_expect_success GROFF 'the man page renders without warnings' '
	groff -man -ww -z "$MAN" 2>err &&
	if [ -s err ]; then cat err; exit 1; fi
'

test_expect_success GROFF 'the rendered page has every section a reader looks for' '
	MANWIDTH=80 groff -man -Tutf8 "$MAN" 2>/dev/null | col -b >rendered &&
	for s in NAME SYNOPSIS DESCRIPTION "JOB FILES" "COMMAND LINE" OPTIONS \
		 OUTPUT SAFETY "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -q "^$s$" rendered || { echo "no section $s"; exit 1; }
	done
'

test_done
