#!/bin/bash
# t0010-bench-lib.sh - the statistics the benchmark scripts give their
# verdicts by (t/bench/lib.sh): the median's distribution-free interval and
# the verdict drawn from it.  A wrong interval would make a benchmark say
# PASS or FAIL with a confidence it does not have.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

# lib.sh wants these before it is sourced (its messages, bench_check)
BENCH=t0010 MEMJOB=$MEMJOB ROUNDS=5
# shellcheck source=t/bench/lib.sh
. "$SRCDIR/t/bench/lib.sh"

# The ranks of the interval are those of the binomial tables (Conover,
# Practical Nonparametric Statistics, table A3): n=6 and 7 min..max; 11:
# 2nd..10th; 15: 4th..12th; 31: 10th..22nd; 100: 40th..61st.  Fed 1..n in
# a shuffled order, the interval is its ranks.
test_expect_success 'median_ci gives the order statistics of the binomial tables' '
	for case in "6 1 6 96.9" "7 1 7 98.4" "11 2 10 98.8" "15 4 12 96.5" \
		"31 10 22 97.1" "100 40 61 96.5"; do
		set -- $case
		seq 1 "$1" | shuf >v &&
		test "$(median_ci v)" = "$2.000 $3.000 $4" || {
			echo "n=$1: $(median_ci v), want $2 $3 $4"
			return 1
		}
	done
'

test_expect_success 'median_ci says when too few rounds reach 95%' '
	seq 1 5 >v &&
	test "$(median_ci v)" = "1.000 5.000 93.8" &&
	seq 1 3 >v &&
	test "$(median_ci v)" = "1.000 3.000 75.0"
'

test_expect_success 'bench_verdict: the whole interval above the bound is a PASS' '
	printf "%s\n" 0.99 1.00 1.01 1.02 0.98 1.03 1.00 >r &&
	bench_verdict 1.00 r 0.97 inf &&
	test "$verdict" = PASS &&
	test "$ci" = "0.980..1.030" && test "$ci_level" = 98.4
'

test_expect_success 'bench_verdict: the whole interval below the bound is a FAIL' '
	printf "%s\n" 0.90 0.91 0.92 0.93 0.94 0.95 0.96 >r &&
	! bench_verdict 0.93 r 0.97 inf &&
	test "$verdict" = "FAIL (not >= 0.97)"
'

test_expect_success 'bench_verdict: an interval across the bound leaves the median to decide, and says so' '
	printf "%s\n" 0.90 0.99 1.00 1.01 1.02 >r &&
	bench_verdict 1.00 r 0.97 inf &&
	case $verdict in "PASS by the median, unsure"*) ;; *) false ;; esac &&
	printf "%s\n" 0.90 0.91 0.92 0.93 1.02 >r &&
	! bench_verdict 0.92 r 0.97 inf &&
	case $verdict in "FAIL by the median, unsure"*) ;; *) false ;; esac
'

test_expect_success 'bench_verdict: a band fails on either side' '
	printf "%s\n" 1.05 1.06 1.07 1.08 1.09 1.10 >r &&
	! bench_verdict 1.07 r 0.97 1.03 &&
	test "$verdict" = "FAIL (not 0.97..1.03)" &&
	printf "%s\n" 0.99 1.00 1.01 1.00 1.02 0.98 >r &&
	bench_verdict 1.00 r 0.97 1.03 &&
	test "$verdict" = PASS
'

test_expect_success 'bench_decided: only an interval wholly on one side, at 95%, decides' '
	printf "%s\n" 1.00 1.01 1.02 0.99 1.03 1.00 >r &&
	bench_decided r 0.95 inf &&
	printf "%s\n" 0.90 0.91 0.92 0.89 0.93 0.90 >r &&
	bench_decided r 0.95 inf &&
	printf "%s\n" 0.90 1.01 1.02 0.99 1.03 1.00 >r &&
	! bench_decided r 0.95 inf &&
	# five rounds are wholly above, but their interval is only 93.8%
	printf "%s\n" 1.00 1.01 1.02 0.99 1.03 >r &&
	! bench_decided r 0.95 inf
'

test_expect_success 'best_ratio compares the fastest round of each' '
	printf "%s\n" 4.10 3.90 6.00 >a &&
	printf "%s\n" 7.00 3.80 4.00 >b &&
	test "$(best_ratio a b min)" = 1.026 &&
	test "$(best_ratio a b max)" = 0.857
'

test_done
