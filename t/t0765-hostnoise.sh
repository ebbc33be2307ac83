#!/bin/bash
# t0765-hostnoise.sh - the host's noise on this machine: every job run
# gets its steal, run-queue wait and frequency (man HOST NOISE), in the
# normal report, as the last fixed CSV columns and in JSON; the figures
# are percentages between 0 and 100; steal covers some ticks; and where
# this machine shows no cpufreq the output says "not readable" and leaves
# the cell empty rather than print 0.  The figures themselves are this
# host's: the test checks they are present and sane, not their size.
#
# Jobs run 50 ms each: the script takes a few seconds.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

run()
{
	"$MEMJOB" --verbose --output-format="$1" --repeat=2 --name=v --cpus_allowed=0 \
		--size=64k --kernel=chase --runtime=50ms --time_based >"$2"
}

# pct_ok VALUE: empty (not readable), or a number in 0..100
pct_ok()
{
	[ -z "$1" ] || awk -v v="$1" 'BEGIN { exit !(v + 0 == v && v >= 0 && v <= 100) }'
}

freq_readable()
{
	cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq >/dev/null 2>&1
}

test_expect_success 'normal: a line per run and the run'"'"'s figures up front' '
	run normal out &&
	grep -E "^host noise over the runs, on the jobs'"'"' CPUs: steal (not readable|[0-9.]+% \(of [0-9]+ ticks\)), waited for a CPU (not readable|[0-9.]+%), frequency (not readable|[0-9]+ MHz.*)$" out &&
	test "$(grep -c "^    host, on this job'"'"'s CPUs: steal " out)" = 2
'

test_expect_success 'CSV: the noise columns, together, after the older fixed ones' '
	run csv out.csv &&
	head -n 1 out.csv | tr , "\n" >cols &&
	grep -A3 -x host_steal_pct cols >actual &&
	printf "%s\n" host_steal_pct host_wait_pct host_cpu_mhz noise_warning >expect &&
	test_cmp expect actual &&
	# after the columns that were there before them
	test "$(grep -n -x host_steal_pct cols | cut -d: -f1)" -gt \
		"$(grep -n -x verdict cols | cut -d: -f1)"
'

test_expect_success 'CSV: steal and wait are percentages, steal is read here' '
	for r in 1 2; do
		s=$(csv_col out.csv host_steal_pct $r) &&
		w=$(csv_col out.csv host_wait_pct $r) &&
		echo "run $r: steal $s, wait $w" &&
		test -n "$s" && pct_ok "$s" && pct_ok "$w" || return 1
	done &&
	test -z "$(csv_get out.csv noise_warning | tr -d "\n")"
'

test_expect_success 'frequency: a figure where cpufreq is readable, else said so' '
	m=$(csv_col out.csv host_cpu_mhz 1) &&
	if freq_readable; then
		awk -v m="$m" "BEGIN { exit !(m > 0) }" &&
		grep -E "frequency [0-9]+ MHz" out
	else
		test -z "$m" &&
		grep -q "frequency not readable" out &&
		! grep -E "frequency 0( |$)" out
	fi
'

test_expect_success JQ 'JSON: host_noise for the run, and the columns per result' '
	run json out.json &&
	jq -e ".host_noise | (.host_steal_pct >= 0 and .host_steal_pct <= 100 and .host_steal_ticks > 0 and (.text | test(\"^steal \")) and .points == 0 and .points_warned == 0)" out.json &&
	jq -e "[.results[] | has(\"host_steal_pct\") and has(\"host_wait_pct\") and has(\"host_cpu_mhz\")] | all" out.json
'

test_done
