#!/bin/bash
# t0766-hostnoise-sysroot.sh - the host's noise from a test root
# (MEMJOB_SYSROOT), where the figures are known: proc/stat is a named
# pipe fed a new text at each open, each with the same share of cpu0's
# ticks stolen (t/helpers/statfeed.sh); cpu1 loses nothing and is not
# the job's; the proc/thread-self/schedstat file does not change (no
# wait: 0.0%, a figure, not "not readable"); cpu0's cpufreq says 2.4 GHz.
# Then: the steal is printed as fed, per run and for the run; a victim
# whose CPU loses all its time to the hypervisor gets the warning in the
# table, the CSV and JSON; without the files the figures are "not
# readable", never 0.
#
# Jobs run 10-20 ms on CPU 0: the script takes a few seconds.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. "$SRCDIR/t/helpers/statfeed.sh"

# make_root DIR: a test root with meminfo/vmstat (so the system counters
# work as usual), the schedstat file and cpu0's frequency.
make_root()
{
	mkdir -p "$1/proc/thread-self" \
		"$1/sys/devices/system/cpu/cpu0/cpufreq" &&
	cp -R "$SRCDIR/t/fixtures/sysstat/proc/." "$1/proc/" &&
	echo "1000 2000 3" >"$1/proc/thread-self/schedstat" &&
	echo 2400000 >"$1/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq" &&
	statfeed_fifo "$1"
}

test_expect_success 'steal as fed, per run and for the run; wait 0.0%; 2400 MHz' '
	make_root r10 &&
	feed r10/proc/stat 100 &&
	MEMJOB_SYSROOT=$PWD/r10 timeout 60 "$MEMJOB" --verbose --output-format=normal,csv \
		--repeat=2 --name=v --cpus_allowed=0 --size=64k --kernel=chase \
		--runtime=10ms --time_based >out; rc=$?
	stop_feed &&
	test $rc = 0 &&
	test "$(grep -c "^    host, on this job'"'"'s CPUs: steal 10.0% (of [0-9]*000 ticks), waited for a CPU 0.0%, frequency 2400 MHz$" out)" = 2 &&
	grep -x "host noise over the runs, on the jobs'"'"' CPUs: steal 10.0% (of [0-9]*000 ticks), waited for a CPU 0.0%, frequency 2400 MHz" out &&
	sed -n "/^host,job,/,\$p" out >out.csv &&
	test "$(csv_get out.csv host_steal_pct | sort -u)" = 10.000 &&
	test "$(csv_get out.csv host_wait_pct | sort -u)" = 0.000 &&
	test "$(csv_get out.csv host_cpu_mhz | sort -u)" = 2400.0
'

# shellcheck disable=SC2034 # used in a test body, which eval runs
warning="steal 100.0% of the victim's CPU time: effects below ~100.0% cannot be told from the host's noise"

# A victim on CPU 0 that loses every tick to the hypervisor, a sleeping
# aggressor left to the scheduler (off CPU 0 where there is another):
# three repeats give no interval, so the point's slowdown (of the
# medians) is the scale, and it is far below 100% unless the host stops
# us outright.  One loaded run may well be slowed more than that (a
# sanitizer build on a busy host): every row still carries the point's
# warning, not one of its own.
test_expect_success JQ 'all of the victim'"'"'s CPU stolen: the warning, in every output' '
	make_root r100 &&
	feed r100/proc/stat 1000 &&
	MEMJOB_SYSROOT=$PWD/r100 timeout 60 "$MEMJOB" --verbose --output-format=normal,csv,json \
		--repeat=3 --name=v --role=victim --cpus_allowed=0 --size=64k \
		--kernel=chase --runtime=20ms --time_based \
		--name=a --role=aggressor --size=64k \
		--kernel=exec --command="sleep 0.001" --loops=1 >all; rc=$?
	stop_feed &&
	test $rc = 0 &&
	grep -F "WARNING: $warning" all &&
	grep -F "host noise: at 1 of 1 interference point the host" all &&
	sed -n "/^host,job,/,/^$/p" all | sed "/^$/d" >all.csv &&
	test "$(csv_get all.csv noise_warning job=v phase=loaded | sort -u)" = "$warning" &&
	test -z "$(csv_get all.csv noise_warning phase=alone | tr -d "\n")" &&
	sed -n "/^{/,\$p" all >all.json &&
	jq -e ".interference[0].noise_warning == \"$warning\" and .interference[0].host_steal_pct == 100 and .host_noise.points_warned == 1" all.json
'

# The same warning where one loaded run alone is slowed far past the
# noise: the victim is a program whose sixth run (the last loaded one,
# whichever order the rounds take) sleeps six times as long.  The
# point's slowdown, of the medians, stays near 0 and the steal of 100%
# swamps it; that run's own slowdown (+500%) would not.  Each row says
# what its point says.
test_expect_success 'one run slowed past the noise: its row carries the point'"'"'s warning' '
	make_root r6 &&
	cat >step.sh <<-\EOF &&
	n=$(($(cat count 2>/dev/null || echo 0) + 1))
	echo $n >count
	if [ $n = 6 ]; then sleep 0.6; else sleep 0.1; fi
	EOF
	feed r6/proc/stat 1000 &&
	MEMJOB_SYSROOT=$PWD/r6 timeout 60 "$MEMJOB" --output-format=csv \
		--repeat=3 --name=v --role=victim --cpus_allowed=0 \
		--kernel=exec --command="sh step.sh" \
		--name=a --role=aggressor --kernel=exec \
		--command="sleep 0.001" --loops=1 >six.csv; rc=$?
	stop_feed &&
	test $rc = 0 &&
	test "$(cat count)" = 6 &&
	test "$(csv_get six.csv slowdown_pct job=v phase=loaded | awk "\$1 > 100" | wc -l)" = 1 &&
	test "$(csv_get six.csv noise_warning job=v phase=loaded | sort | uniq -c | sed "s/^ *//")" = "3 $warning"
'

test_expect_success 'no proc/stat, no cpufreq, no schedstat: not readable, never 0' '
	mkdir -p bare/proc &&
	cp -R "$SRCDIR/t/fixtures/sysstat/proc/." bare/proc/ &&
	rm -f bare/proc/stat &&
	MEMJOB_SYSROOT=$PWD/bare "$MEMJOB" --verbose --output-format=normal,csv \
		--name=v --cpus_allowed=0 --size=64k --kernel=chase \
		--runtime=10ms --time_based >bare.out &&
	grep -x "    host, on this job'"'"'s CPUs: steal not readable, waited for a CPU not readable, frequency not readable" bare.out &&
	sed -n "/^host,job,/,\$p" bare.out >bare.csv &&
	test -z "$(csv_col bare.csv host_steal_pct)$(csv_col bare.csv host_wait_pct)$(csv_col bare.csv host_cpu_mhz)"
'

test_done
