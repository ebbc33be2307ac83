#!/bin/bash
# t0767-hostnoise-wait.sh - the run-queue wait measures other runnable
# tasks on a job's CPU: two clones bound to one CPU take turns, so each
# waits for the CPU about half its time (more on a busy host, never much
# less), and the job's figure says so.  Skipped where the kernel has no
# /proc/thread-self/schedstat (CONFIG_SCHED_INFO): there the output must
# say "not readable" instead.
#
# The job runs 200 ms: the script takes about a second.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

run()
{
	"$MEMJOB" --output-format=normal,csv --name=two --numjobs=2 \
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

test_done
