#!/bin/bash
# t0760-precision.sh - precision=: after its repeat rounds, memjob goes on
# alternating a victim alone and loaded for the points whose slowdown
# interval is still wider than asked, and stops when it is narrow enough
# (a loose target: early, long before the budget) or when another round
# would pass precision_budget (a target no run can reach); the report
# says which per point (normal report, CSV, JSON), every run stays a CSV
# row, and a point's figures use the alone runs of its own rounds.  Bad
# values are refused before anything runs.
#
# Victims run 10 ms per round: the script takes 10-20 seconds.
#
# Chance: no case counts the outcomes of runs against a rate.  A loose
# target (+-95%) is one that the rounds reach: a run the host disturbs
# widens the interval, and memjob goes on adding rounds (up to 120 s)
# until it narrows; an unreachable one (+-0.001%) is never reached,
# whatever the figures.  The times allowed (60 s for what takes a
# second, 4 s for a 1 s budget) leave room for a sanitizer build on a
# loaded host; the figures themselves are only printed.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

# pair FORMAT OUT OPTIONS...: a chase victim and a slow aggressor (a
# writer held to 1 MB/s, asleep nearly all the time: a small effect).
pair()
{
	"$MEMJOB" --output-format="$1" --repeat=4 \
		--name=v --role=victim --cpus_allowed=0 --size=64k \
		--kernel=chase --runtime=10ms --time_based "${@:3}" \
		--name=a --role=aggressor --cpus_allowed=0 --size=1m \
		--rw=write --kernel=fill --rate=1m --loops=1000000 "${@:3}" >"$2"
}

now() { date +%s.%N; }

test_expect_success 'a loose target: reached, long before the budget' '
	t0=$(now) &&
	pair csv loose.csv --precision=95% --precision_budget=120s &&
	t1=$(now) &&
	test "$(csv_get loose.csv precision_status job=v phase=loaded | sort -u)" = reached &&
	pairs=$(csv_get loose.csv precision_pairs job=v phase=loaded | sort -u) &&
	w=$(csv_get loose.csv precision_half_width_pct job=v phase=loaded | sort -u) &&
	echo "reached +-$w after $pairs pairs in $(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }") s" &&
	test "$pairs" -ge 4 &&
	awk -v w="$w" "BEGIN { exit !(w <= 95) }" &&
	test "$(csv_get loose.csv repeat job=v phase=loaded | wc -l)" = "$pairs" &&
	test "$(csv_get loose.csv precision_pct job=v phase=loaded | sort -u)" = 95 &&
	awk -v a="$t0" -v b="$t1" "BEGIN { exit !(b - a < 60) }"
'

test_expect_success 'the half-width is that of the interval in the same row' '
	lo=$(csv_get loose.csv slowdown_ci_lo_pct job=v phase=loaded | head -n 1) &&
	hi=$(csv_get loose.csv slowdown_ci_hi_pct job=v phase=loaded | head -n 1) &&
	w=$(csv_get loose.csv precision_half_width_pct job=v phase=loaded | head -n 1) &&
	near "$w" "$(awk -v l="$lo" -v h="$hi" "BEGIN { print (h - l) / 2 }")" 0.01
'

test_expect_success 'only loaded victims carry precision; others leave it empty' '
	test "$(lines loose.csv precision_status phase=alone)" = "" &&
	test "$(lines loose.csv precision_status job=a)" = ""
'

test_expect_success 'an unreachable target: the budget is spent, and kept' '
	t0=$(now) &&
	pair csv tight.csv --precision=0.001% --precision_budget=1s &&
	t1=$(now) &&
	test "$(csv_get tight.csv precision_status job=v phase=loaded | sort -u)" = budget &&
	pairs=$(csv_get tight.csv precision_pairs job=v phase=loaded | sort -u) &&
	echo "$pairs pairs in $(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }") s" &&
	test "$pairs" -gt 4 &&
	test "$(csv_get tight.csv repeat job=v phase=loaded | wc -l)" = "$pairs" &&
	test "$(csv_get tight.csv repeat job=v phase=alone | wc -l)" = "$pairs" &&
	test "$(csv_get tight.csv repeat job=a | wc -l)" = "$pairs" &&
	test "$(csv_get tight.csv repeat job=v phase=loaded | tail -n 1)" = "$pairs" &&
	awk -v a="$t0" -v b="$t1" "BEGIN { exit !(b - a < 4) }"
'

test_expect_success 'the normal report says which happened, per point' '
	pair normal normal.txt --precision=0.001% --precision_budget=300ms &&
	grep -E "^ +precision: budget spent: \+-[0-9.]+% after [0-9]+ pairs \(asked \+-0\.001%\)$" normal.txt &&
	pair normal loose.txt --precision=95% --precision_budget=120s &&
	grep -E "^ +precision: reached \+-[0-9.]+% after [0-9]+ pairs \(asked \+-95%\)$" loose.txt
'

test_expect_success 'JSON: the interference object says it too' '
	pair json tight.json --precision=0.001% --precision_budget=300ms &&
	jq -e ".interference[0].precision_status == \"budget\"" tight.json &&
	jq -e ".interference[0].precision_pct == 0.001" tight.json &&
	jq -e "(.interference[0].precision_pairs) as \$n |
		[.results[] | select(.job == \"v\" and .phase == \"loaded\")] | length == \$n" tight.json
'

# sweep FILE OPTIONS...: one victim, an aggressor swept over two rates.
sweep()
{
	"$MEMJOB" --output-format=csv --repeat=4 \
		--name=v --role=victim --cpus_allowed=0 --size=64k \
		--kernel=chase --runtime=10ms --time_based "${@:2}" \
		--name=a --role=aggressor --cpus_allowed=0 --size=1m \
		--rw=write --kernel=fill --loops=1000000 --sweep=rate:1m,2m \
		"${@:2}" >"$1"
}

test_expect_success 'a sweep: one budget for all its points, not one each' '
	t0=$(now) &&
	sweep grid.csv --precision=0.001% --precision_budget=1s &&
	t1=$(now) &&
	csv_get grid.csv precision_status job=v phase=loaded | sort -u >actual &&
	echo budget >expect &&
	test_cmp expect actual &&
	awk -v a="$t0" -v b="$t1" "BEGIN { exit !(b - a < 4) }" &&
	n1=$(csv_get grid.csv repeat job=v phase=loaded "point=rate=1m" | wc -l) &&
	n2=$(csv_get grid.csv repeat job=v phase=loaded "point=rate=2m" | wc -l) &&
	na=$(csv_get grid.csv repeat job=v phase=alone | wc -l) &&
	test "$n1" = "$na" && test "$n2" = "$na"
'

test_expect_success 'without precision, repeat alone decides, and no precision columns are filled' '
	pair csv plain.csv &&
	test "$(csv_get plain.csv repeat job=v phase=loaded | wc -l)" = 4 &&
	test "$(lines plain.csv precision_status job=v)" = ""
'

test_expect_success 'bad values are refused before anything runs' '
	for v in 0 0% 100% 150 -2 1x ""; do
		{ "$MEMJOB" --name=v --role=victim --size=4k --precision="$v" \
			>out 2>err; test $? = 2; } &&
		grep -F "option '"'"'precision'"'"': expected a half-width above 0% and below 100%" err &&
		test ! -s out || return 1
	done &&
	{ "$MEMJOB" --name=v --role=victim --size=4k --precision=1% \
		--precision_budget=0 >out 2>err; test $? = 2; } &&
	grep -F "option '"'"'precision_budget'"'"'" err
'

test_done
