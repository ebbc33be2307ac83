#!/bin/bash
# t0820-labels.sh - every kernel's figures are those it measures, in every
# format (issue 15, item 6).  A latency chase, a strided touch, a code walk
# and a program print no GB/s and no ops/s in the normal report, leave the
# gbps and ops_per_s cells empty in CSV and null in JSON, and a data job
# keeps both; a group of such jobs has no bytes or GB/s, nor do aggressors
# whose kernel measures no rate; sizes are printed in binary units only;
# seed 004's interference table carries EMULATED when its writes were
# emulated; and the slowdown formula is the one the man page and
# jobs/llc-noisy.ini state.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

# job_block FILE JOB: the normal report's lines of JOB, up to the next job.
job_block()
{
	sed -n "/^$2[: ]/,/^\$/p" "$1"
}

# json_part FILE: the JSON document of a normal,csv,json report.
json_part()
{
	sed -n "/^{/,\$p" "$1"
}

test_expect_success 'setup: one job of each kernel that measures no rate, and a count' '
	"$MEMJOB" --verbose --output-format=normal,csv,json --repeat=2 \
		--name=chase --kernel=chase --size=128k --runtime=20ms \
		--time_based=1 \
		--name=touch --kernel=touch --rw=write --size=64k \
		--name=walk --kernel=codewalk --code_size=16k --runtime=20ms \
		--name=prog --kernel=exec --command=true \
		--name=count --kernel=count --size=256k --bs=16k \
		>all.out &&
	sed -n "/^host,/,/^\$/p" all.out | sed "/^\$/d" >all.csv &&
	json_part all.out >all.json &&
	test "$(csv_rows all.csv)" = 10 &&
	jq -e ".results | length == 10" all.json
'

test_expect_success 'the normal report: no GB/s and no ops/s for chase, touch, codewalk, exec' '
	for j in chase touch walk prog; do
		job_block all.out $j >$j.block &&
		test -s $j.block &&
		grep -E "^  run 1: elapsed [0-9.]+ s" $j.block &&
		! grep -E "GB/s|ops/s" $j.block || return 1
	done &&
	grep -E "^    [0-9.]+ ns per access \([0-9]+ accesses\)$" chase.block &&
	grep -E "^    [0-9.]+ ns per access \([0-9]+ accesses\)$" touch.block &&
	grep -E "^    [0-9.]+ ns per item \([0-9]+ items\)$" walk.block &&
	grep -E "^    [0-9.]+ ns per call$" walk.block
'

test_expect_success 'the count keeps its GB/s and ops/s' '
	job_block all.out count >count.block &&
	grep -E "^  run 1: 256 KiB in [0-9.]+ s: [0-9.]+ GB/s, [0-9.]+[kMG]? ops/s$" count.block &&
	grep -E "^  over 2 runs: GB/s median [0-9.]+ " count.block
'

test_expect_success 'CSV: gbps and ops_per_s empty where not measured, numbers where they are' '
	for r in 1 2 3 4 5 6 7 8 9 10; do
		j=$(csv_col all.csv job $r) &&
		test "$(csv_col all.csv status $r)" = ok &&
		g=$(csv_col all.csv gbps $r) && o=$(csv_col all.csv ops_per_s $r) &&
		case $j in
		count)
			echo "$g" | grep -Ex "[0-9]+\.[0-9]+" &&
			echo "$o" | grep -Ex "[0-9]+\.[0-9]+" ;;
		*)
			test -z "$g" && test -z "$o" ;;
		esac || { echo "row $r ($j): gbps=\"$g\" ops_per_s=\"$o\""; return 1; }
	done
'

test_expect_success JQ 'JSON: null where not measured, a number where it is' '
	jq -e "[.results[] | select(.job != \"count\") |
		.gbps == null and .ops_per_s == null] | length == 8 and all" all.json &&
	jq -e "[.results[] | select(.job == \"count\") |
		(.gbps | type) == \"number\" and .gbps > 0 and
		(.ops_per_s | type) == \"number\"] | length == 2 and all" all.json
'

test_expect_success 'the header states the units, once' '
	test "$(grep -c "^units: " all.out)" = 1 &&
	grep -x "units: sizes in KiB, MiB, GiB (2^10, 2^20, 2^30 bytes); rates in GB/s (10^9 bytes per second)" all.out
'

test_expect_success JQ 'a group of chases only: no bytes and no GB/s for it, in any format' '
	"$MEMJOB" --verbose --output-format=normal,json \
		--name=a --kernel=chase --size=64k --runtime=10ms --time_based=1 \
		--name=b --kernel=chase --size=64k --runtime=10ms --time_based=1 \
		>grp.out &&
	grep -E "^group 0: 2 jobs, 2 threads in [0-9.]+ s$" grp.out &&
	! grep "GB/s" grp.out | grep -v "^units: " &&
	json_part grp.out >grp.json &&
	jq -e ".group_totals | length == 1 and (.[0] | .bytes == null and .gbps == null and .elapsed_ns > 0)" grp.json
'

test_expect_success JQ 'aggressors that measure no rate: their threads, no GB/s' '
	printf "%s\n" "[global]" "repeat=2" \
		"[v]" "role=victim" "kernel=chase" "size=64k" "runtime=10ms" \
		"time_based=1" \
		"[a]" "role=aggressor" "kernel=exec" "command=sleep 5" >quiet.ini &&
	"$MEMJOB" --verbose --output-format=normal,json quiet.ini >q.out &&
	sed -n "/^interference:/,/^{/p" q.out >q.table &&
	grep -E "^  -  +[0-9.]+ \(.*\) +[0-9.]+ \(.*\) +[-+][0-9.]+ \(.*\) +1 thread$" q.table &&
	! grep "GB/s" q.table &&
	json_part q.out >q.json &&
	jq -e ".interference | length == 1 and (.[0] | .aggressor_gbps == null and .aggressor_threads == 1)" q.json
'

test_expect_success JQ 'aggressors that measure a rate keep their GB/s' '
	printf "%s\n" "[global]" "repeat=2" \
		"[v]" "role=victim" "kernel=chase" "size=64k" "runtime=10ms" \
		"time_based=1" \
		"[a]" "role=aggressor" "kernel=count" "size=256k" >busy.ini &&
	"$MEMJOB" --verbose --output-format=normal,json busy.ini >b.out &&
	sed -n "/^interference:/,/^{/p" b.out |
		grep -E "^  -  .* 1 thread, [0-9.]+ GB/s$" &&
	json_part b.out >b.json &&
	jq -e ".interference[0].aggressor_gbps > 0" b.json
'

test_expect_success 'preread and every size in a report are in binary units' '
	"$MEMJOB" --verbose --name=p --ioengine=psync --filename=p.dat --size=3m \
		--preread=1 --kernel=count >pre.out &&
	grep -E "psync: preread 3 MiB in [0-9.]+ s" pre.out &&
	! grep -E "[0-9]{5,}k|[0-9]{5,} bytes" pre.out
'

test_expect_success 'the slowdown formula: alone in the man page and llc-noisy, the seed converted' '
	man=$SRCDIR/man/memjob.1 && job=$SRCDIR/jobs/llc-noisy.ini &&
	grep -F "in % of the alone figure, not of the loaded one" "$man" &&
	grep -F "532.87 s alone and 564.55 s loaded is +5.94% here" "$man" &&
	grep -F "(loaded \\- alone) / loaded would give 5.61%" "$man" &&
	grep -F "((loaded - alone) / alone: the extra time per access)" "$job" &&
	grep -F "the loaded time ((loaded - alone) / loaded)" "$job" &&
	grep -F "+0.55%, +5.94% and +5.81%" "$job" &&
	awk "BEGIN { a = 532.873423; l = 564.545805
		s = sprintf(\"%.2f %.2f\", (l - a) / a * 100, (l - a) / l * 100)
		if (s != \"5.94 5.61\") { print s; exit 1 } }"
'

test_expect_success 'llc-noisy with emulated writes: EMULATED on every line of the final table' '
	if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
		echo "one CPU: llc-noisy has no CPU for an aggressor"; exit 0
	fi
	REPEAT=1 PRECISION=off VICTIM_TIME=10ms WRITE_SIZE=1m DAX_EMULATE=1 \
		"$MEMJOB" "$SRCDIR/jobs/llc-noisy.ini" >llc.out 2>llc.err &&
	sed -n "/^interference:/,\$p" llc.out >llc.table &&
	lines=$(grep -cE "^  flush=" llc.table) &&
	test "$lines" -ge 3 &&
	test "$(grep -cE "^  flush=.* GB/s  EMULATED$" llc.table)" = "$lines" &&
	test "$(grep -c "^  EMULATED: the writes of that point went to ordinary memory standing in for the device (dax_emulate=1)$" llc.table)" = 1
'

test_done
