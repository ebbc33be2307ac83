#!/bin/bash
# t0561-report-stream.sh - memjob report reads its inputs a row at a
# time: its memory follows the points it compares, not the rows, so a
# CSV of 100,000 rows of a few points takes well under 10 times the
# memory of one of 1,000 rows (holding every row took 60 times), with
# the same table; and a mistake in the last row is still found before
# anything is written.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq GNU_TIME '
	/usr/bin/time -f %M true 2>/dev/null
'

# rows N: a memjob result CSV of N rows, the 9 rows of seed.csv over and
# over (3 sweep points, 3 repeats each: 3 points in all)
rows()
{
	awk -v n="$1" 'NR == 1 { print; next } { r[NR - 1] = $0 }
		END { for (i = 0; i < n; i++) print r[i % (NR - 1) + 1] }' seed.csv
}

# peak_kb ARGS...: memjob ARGS's peak resident memory in KiB (its
# output in report.txt)
peak_kb()
{
	/usr/bin/time -o kb -f %M "$MEMJOB" "$@" >report.txt && cat kb
}

test_expect_success 'setup: a run of 3 points, 3 repeats each' '
	"$MEMJOB" --output-format=csv --name=s --ioengine=mem --size=64k \
		--kernel=sum --sweep=bs:4k,16k,64k --repeat=3 >seed.csv &&
	test "$(csv_rows seed.csv)" = 9
'

test_expect_success GNU_TIME '100,000 rows take under 10x the memory of 1,000, and the same table' '
	rows 1000 >small.csv &&
	rows 100000 >big.csv &&
	small=$(peak_kb report small.csv) &&
	cp report.txt small.txt &&
	big=$(peak_kb report big.csv) &&
	echo "peak resident: 1,000 rows $small KiB, 100,000 rows $big KiB" &&
	test "$big" -lt $((small * 10)) &&
	# the same points, medians, minima and maxima; only the rows differ
	awk "/^job / { t = 1; next } t { print \$1, \$2, \$4, \$5, \$6 }" small.txt >want &&
	awk "/^job / { t = 1; next } t { print \$1, \$2, \$4, \$5, \$6 }" report.txt >got &&
	test "$(wc -l <got)" = 3 &&
	test_cmp want got
'

test_expect_success GNU_TIME 'from standard input too' '
	small=$(peak_kb report small.csv) &&
	kb=$(rows 100000 | { /usr/bin/time -o kb -f %M "$MEMJOB" report - >out.txt && cat kb; }) &&
	echo "peak resident: 1,000 rows $small KiB, 100,000 rows from a pipe $kb KiB" &&
	test "$kb" -lt $((small * 10)) &&
	test "$(grep -c "^s " out.txt)" = 3
'

test_expect_success 'a bad value in the last row: exit 2, --output untouched' '
	col=$(head -n 1 seed.csv | tr , "\n" | grep -nx gbps | cut -d: -f1) &&
	{ rows 20000 &&
	  sed -n 2p seed.csv | awk -F, -v OFS=, -v c="$col" "{ \$c = \"x\"; print }"
	} >bad.csv &&
	echo keep >out.txt &&
	expect_exit 2 "$MEMJOB" report --metric=gbps --output=out.txt bad.csv 2>err &&
	grep "bad.csv:20002: column .gbps.: expected a number, got .x.$" err &&
	test "$(cat out.txt)" = keep
'

test_done
