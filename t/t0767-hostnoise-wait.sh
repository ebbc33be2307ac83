#!/bin/bash
# t0767-hostnoise-wait.sh - the run-queue wait measures other runnable
# tasks on a job's CPU: two clones bound to one CPU take turns, so each
# waits for the CPU about half its time (more on a busy host, never much
# less), and the job's figure says so.  Skipped where the kernel has no
# /proc/thread-self/schedstat (CONFIG_SCHED_INFO): there the output must
# say "not readable" instead.  An interference point's host line covers
# its loaded runs too (their wait is in their wall time), and its
# slowdown is also given on the victim's CPU time, which leaves it out.
#
# The jobs run 200 ms and 6 x 100 ms: the script takes a few seconds.

# test: alone, the wait it measures is other tasks' on CPU 0
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

run()
{
	"$MEMJOB" --verbose --output-format=normal,csv --name=two --numjobs=2 \
		--cpus_allowed=0 --size=64k --kernel=chase --runtime=200ms \
		--time_based >out &&
	sed -n "/^host,job,/,\$p" out >out.csv
}

if [ -r /proc/thread-self/schedstat ]; then
	test_expect_success 'two clones on one CPU: each waits about half the time' '
		run &&
		w=$(csv_col out.csv host_wait_pct) &&
		echo "wait $w%" &&
		awk -v w="$w" "BEGIN { exit !(w >= 30 && w <= 100) }" &&
		grep -E "^    host, on this job'"'"'s CPUs: .*waited for a CPU [0-9.]+%" out
	'
else
	test_expect_success 'no schedstat (CONFIG_SCHED_INFO): the wait is not readable' '
		run &&
		test -z "$(csv_col out.csv host_wait_pct)" &&
		grep "waited for a CPU not readable" out
	'
fi

# A victim with an aggressor on its own CPU: the loaded runs wait about
# half their time, and that wait is inside their wall time.  The point's
# host line covers them (alone and loaded), JSON and CSV carry the loaded
# wait, and the slowdown on the victim's CPU time, which leaves the wait
# out, is the smaller one.
victim_on_one_cpu()
{
	"$MEMJOB" --output-format=normal,csv,json --repeat=3 \
		--name=v --role=victim --cpus_allowed=0 --size=64k \
		--kernel=chase --runtime=100ms --time_based \
		--name=a --role=aggressor --cpus_allowed=0 --size=64k \
		--kernel=chase --runtime=100ms --time_based >vo.out &&
	sed -n "/^{/,\$p" vo.out >vo.json &&
	sed -n "/^host,/,/^\$/p" vo.out | sed "/^\$/d" >vo.csv
}

if [ -r /proc/thread-self/schedstat ]; then
	test_expect_success JQ 'an interference point: its host line covers the loaded runs, and CPU time' '
		victim_on_one_cpu &&
		grep -E "^ +host, victim.s CPUs, alone and loaded runs: steal .*, waited for a CPU [0-9.]+% alone, [0-9.]+%( \(runs [0-9.]+-[0-9.]+%\))? loaded, frequency " vo.out &&
		grep -E "^ +on its CPU time: [-+][0-9.]+% \(CPU ns per access alone [0-9.e+]+, loaded [0-9.e+]+; without the wait for a CPU\)$" vo.out &&
		lw=$(jq -r ".interference[0].host_wait_loaded_pct" vo.json) &&
		lo=$(jq -r ".interference[0].host_wait_loaded_min_pct" vo.json) &&
		hi=$(jq -r ".interference[0].host_wait_loaded_max_pct" vo.json) &&
		wall=$(jq -r ".interference[0].slowdown_pct" vo.json) &&
		cpu=$(jq -r ".interference[0].cpu_slowdown_pct" vo.json) &&
		test "$(jq -r ".interference[0].cpu_metric_name" vo.json)" = cpu_ns_per_item &&
		echo "loaded wait $lw% ($lo-$hi), slowdown wall $wall%, cpu $cpu%" &&
		# wall against CPU time holds where the alone runs did not
		# wait too: a busy host, not memjob, decides it there
		noisy_runs vo.csv job=v phase=alone >noise &&
		skip_if_noisy noise &&
		awk -v w="$lw" -v lo="$lo" -v hi="$hi" -v a="$wall" -v c="$cpu" \
			"BEGIN { exit !(w >= 25 && lo <= w && w <= hi && c < a) }" &&
		# each loaded row: its own slowdown on CPU time too
		test "$(jq "[.results[] | select(.phase == \"loaded\" and .role == \"victim\") | .cpu_slowdown_pct | numbers] | length" vo.json)" = 3 &&
		test "$(jq "[.results[] | select(.phase != \"loaded\" or .role != \"victim\") | .cpu_slowdown_pct | numbers] | length" vo.json)" = 0
	'
fi

test_done
