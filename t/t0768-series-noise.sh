#!/bin/bash
# t0768-series-noise.sh - the host's steal in sample_interval's time
# series: every row has host_steal_pct after the system counters, the
# steal of that interval on the job's CPUs (hostnoise.h's definition, as
# the run's column of that name), then the host and memjob's version (for
# memjob plot's title).  On this machine: the column follows dev_util_pct
# in the header, and each
# value is empty (not readable, or no tick in the interval) or a number in
# 0..100.  From a test root (MEMJOB_SYSROOT) whose proc/stat is a named
# pipe fed a new text at each open, each with the same share of cpu0's
# ticks stolen (t/helpers/statfeed.sh; cpu1 loses none, not the job's): every
# row that has a figure shows exactly that share, and at least one has.
# Without proc/stat every row's field is empty, never 0.
#
# Jobs run 200 ms with rows every 20 ms: the script takes a few seconds.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. "$SRCDIR/t/helpers/statfeed.sh"

# series_col FILE COL: COL of every row of FILE, one a line (an empty
# line for an empty field); fails when there is no such column.
series_col()
{
	awk -F, -v col="$2" '
	NR == 1 {
		for (i = 1; i <= NF; i++)
			if ($i == col)
				idx = i
		if (!idx)
			exit 1
		next
	}
	{ print $idx }' "$1"
}

# pct_ok VALUE: empty, or a number in 0..100
pct_ok()
{
	[ -z "$1" ] || awk -v v="$1" 'BEGIN { exit !(v + 0 == v && v >= 0 && v <= 100) }'
}

# job ROOT LOG: a 200 ms job on CPU 0 with a row every 20 ms into LOG,
# below the test root ROOT ("" for this machine's).
job()
{
	MEMJOB_SYSROOT=$1 timeout 60 "$MEMJOB" --output-format=csv --name=j \
		--cpus_allowed=0 --size=64k --kernel=chase --runtime=200ms \
		--time_based --sample_interval=20ms --sample_log="$2" >/dev/null
}

test_expect_success 'this machine: host_steal_pct after dev_util_pct, empty or 0..100' '
	job "" real.csv &&
	head -n 1 real.csv | grep -q ",dev_util_pct,host_steal_pct,host,memjob_version$" &&
	test "$(series_col real.csv host | sort -u)" = "$(hostname)" &&
	series_col real.csv host_steal_pct >real.steal &&
	test "$(wc -l <real.steal)" -ge 2 &&
	while read -r v; do
		pct_ok "$v" || { echo "bad host_steal_pct: $v"; exit 1; }
	done <real.steal &&
	# the columns before it are where they were
	test "$(series_col real.csv job_bytes | head -n 1)" = \
		"$(awk -F, "NR == 2 { print \$6 }" real.csv)"
'

# make_root DIR: a test root with meminfo and vmstat, proc/stat fed.
make_root()
{
	mkdir -p "$1/proc" &&
	cp -R "$SRCDIR/t/fixtures/sysstat/proc/." "$1/proc/" &&
	statfeed_fifo "$1"
}

# cpu1 is not the job's: over both CPUs 10% of cpu0 would be 5.0
for steal in 100 250; do
	want=$(awk -v s=$steal 'BEGIN { printf "%.1f", s / 10 }')
	test_expect_success "a test root stealing $want% of cpu0: every row says $want" '
		make_root r$steal &&
		feed r$steal/proc/stat $steal &&
		job "$PWD/r$steal" r$steal.csv; rc=$?
		stop_feed &&
		test $rc = 0 &&
		series_col r$steal.csv host_steal_pct >r$steal.steal &&
		test "$(wc -l <r$steal.steal)" -ge 2 &&
		test "$(sed "/^$/d" r$steal.steal | sort -u)" = $want
	'
done

test_expect_success 'no proc/stat: the field is empty in every row, never 0' '
	mkdir -p bare/proc &&
	cp -R "$SRCDIR/t/fixtures/sysstat/proc/." bare/proc/ &&
	rm -f bare/proc/stat &&
	job "$PWD/bare" bare.csv &&
	head -n 1 bare.csv | grep -q ",host_steal_pct,host,memjob_version$" &&
	series_col bare.csv host_steal_pct >bare.steal &&
	test "$(wc -l <bare.steal)" -ge 2 &&
	test -z "$(tr -d "\n" <bare.steal)"
'

test_done
