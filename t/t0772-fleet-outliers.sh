#!/bin/bash
# t0772-fleet-outliers.sh - memjob report --by=host on a fleet's per-host
# CSV files (t/fixtures/fleet: eight hosts, five repeats each): the rule
# (fleet.h) is robust, so two slow hosts, one 7.6% and one 24.7% below the
# fleet median, both stand out, where a mean +- 3 SD rule would let each
# hide behind the spread the other makes; a host whose repeats are noisy
# but whose median is the fleet's does not stand out; and each host's
# change against the first carries its 95% interval (t0570 checks the
# columns and the wording on one row a host).

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

FLEET=$SRCDIR/t/fixtures/fleet
export FLEET

test_expect_success 'setup: the fleet report, table and CSV' '
	"$MEMJOB" report --by=host "$FLEET"/host*.csv >by.txt &&
	"$MEMJOB" report --by=host --output-format=csv "$FLEET"/host*.csv >by.csv &&
	cat by.txt &&
	test "$(lines by.csv run)" = "h1 h2 h3 h4 h5 h6 h7 h8"
'

test_expect_success 'the fleet median and MAD of the hosts medians' '
	test "$(lines by.csv median run=h6)" = 10.1 &&
	near "$(csv_get by.csv fleet_median run=h1)" 9.96 1e-9 &&
	# |median - 9.96|: .06 .02 .02 .06 .10 .14 .76 2.46 -> MAD .08
	near "$(csv_get by.csv fleet_mad run=h1)" 0.08 1e-9
'

test_expect_success 'the two slow hosts stand out, and only they' '
	test "$(lines by.csv outlier)" = "0 0 0 0 0 0 1 1" &&
	near "$(csv_get by.csv deviation_pct run=h7)" -7.6305 0.001 &&
	near "$(csv_get by.csv deviation_pct run=h8)" -24.6988 0.001 &&
	grep -x "2 runs stand out:" by.txt &&
	grep -x "  h7 at job=a: gbps 9.2, fleet 9.96 (-7.6%)" by.txt &&
	grep -x "  h8 at job=a: gbps 7.5, fleet 9.96 (-24.7%)" by.txt
'

test_expect_success 'a mean +- 3 SD rule would have flagged neither' '
	for h in 1 2 3 4 5 6 7 8; do
		csv_get "$FLEET/host$h.csv" metric | sort -g | sed -n 3p
	done >medians &&
	awk "{ s += \$1; q += \$1 * \$1; v[NR] = \$1 }
	END {
		m = s / NR; sd = sqrt((q - NR * m * m) / (NR - 1))
		printf \"mean %.3f, sd %.3f\n\", m, sd
		for (i = 1; i <= NR; i++)
			if ((v[i] - m) ^ 2 > 9 * sd * sd) exit 1
	}" medians
'

test_expect_success 'a noisy host with the fleet median does not stand out' '
	test "$(csv_get by.csv min run=h6)" = 7.7 &&
	test "$(csv_get by.csv max run=h6)" = 12.5 &&
	test "$(csv_get by.csv outlier run=h6)" = 0 &&
	csv_get by.csv finding run=h6 | grep "^no change detected: smaller than"
'

test_expect_success 'each host against the first: the change and its interval' '
	csv_get by.csv finding run=h8 | grep -x "lower by 24.2% (95% CI 23.0..25.5%)" &&
	test "$(csv_get by.csv verdict run=h7)" = worse &&
	test "$(csv_get by.csv verdict run=h2)" = within_spread
'

test_done
