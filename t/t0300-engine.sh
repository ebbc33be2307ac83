#!/bin/bash
# t0300-engine.sh - how a run proceeds, read from the CSV's start_ns and
# end_ns (the measured window of each job, since the run began):
# stonewall, concurrency, wait_for, startdelay, runtime/time_based,
# ramp_time, new_group; then placement (cpus_allowed_policy=split, NUMA
# memory policies) and huge pages (thp, and hugetlb pools of 2 MiB).
#
# Jobs are tiny but loop enough (tens of milliseconds) for overlaps to
# show on 2 CPUs; time_based runs are 0.3 s at most.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq TWO_CPUS '
	[ "$(nproc)" -ge 2 ] && taskset -c 0,1 true
'

# NUMA (t/lib.sh): memjob has libnuma's nodes here.

test_lazy_prereq THP '
	test -r /sys/kernel/mm/transparent_hugepage/enabled &&
	! grep -q "\[never\]" /sys/kernel/mm/transparent_hugepage/enabled
'

# row_of FILE JOB: the data row number of job JOB (first repeat).
row_of()
{
	awk -F, -v j="$2" 'NR > 1 && $2 == j { print NR - 1; exit }' "$1"
}

# col FILE JOB COLUMN: COLUMN of JOB's row.
col()
{
	local r
	r=$(row_of "$1" "$2")
	[ -n "$r" ] || { echo "no job $2 in $1" >&2; return 1; }
	csv_col "$1" "$3" "$r"
}

# all_ok FILE: every row has status ok and a measured window.
all_ok()
{
	local n r
	n=$(csv_rows "$1")
	[ "$n" -gt 0 ] || return 1
	for r in $(seq "$n"); do
		if [ "$(csv_col "$1" status "$r")" != ok ] ||
		   [ -z "$(csv_col "$1" start_ns "$r")" ] ||
		   [ -z "$(csv_col "$1" end_ns "$r")" ]; then
			echo "row $r is not ok or has no window:" >&2
			sed -n "1p;$((r + 1))p" "$1" >&2
			return 1
		fi
	done
}

# ends_before_start FILE JOB_A JOB_B: A ended no later than B started.
ends_before_start()
{
	local ea sb
	ea=$(col "$1" "$2" end_ns) && sb=$(col "$1" "$3" start_ns) || return
	if [ "$ea" -gt "$sb" ]; then
		echo "$2 ended at $ea ns, after $3 started at $sb ns" >&2
		return 1
	fi
}

# overlap FILE JOB_A JOB_B: the windows of A and B overlap in time.
overlap()
{
	local sa ea sb eb
	sa=$(col "$1" "$2" start_ns) && ea=$(col "$1" "$2" end_ns) &&
	sb=$(col "$1" "$3" start_ns) && eb=$(col "$1" "$3" end_ns) || return
	if [ "$sb" -ge "$ea" ] || [ "$sa" -ge "$eb" ]; then
		echo "$2 [$sa, $ea] and $3 [$sb, $eb] do not overlap" >&2
		return 1
	fi
}

# ---- ordering ------------------------------------------------------------------

test_expect_success 'the window is consistent: end - start is elapsed_ns' '
	"$MEMJOB" --output-format=csv --name=a --size=4m --kernel=count \
		--loops=4 >out.csv &&
	all_ok out.csv &&
	s=$(csv_col out.csv start_ns) && e=$(csv_col out.csv end_ns) &&
	test "$((e - s))" = "$(csv_col out.csv elapsed_ns)" &&
	test "$s" -gt 0
'

test_expect_success 'setup: two jobs, then a stonewalled one' '
	write_file sw.ini <<-\EOF
	[global]
	ioengine=mem
	size=4m
	kernel=count
	runtime=300ms
	time_based
	[a]
	[b]
	[c]
	stonewall
	EOF
'

test_expect_success 'a stonewalled job starts after every earlier job ended' '
	"$MEMJOB" --output-format=csv sw.ini >out.csv &&
	all_ok out.csv &&
	ends_before_start out.csv a c &&
	ends_before_start out.csv b c &&
	test "$(col out.csv c group)" = 1 &&
	test "$(col out.csv a group)" = 0
'

test_expect_success 'jobs without stonewall run at the same time' '
	"$MEMJOB" --output-format=csv sw.ini >out.csv &&
	overlap out.csv a b &&
	test "$(col out.csv b group)" = 0
'

test_expect_success 'wait_for: B starts after A ends; C without it overlaps A' '
	write_file wf.ini <<-\EOF &&
	[global]
	ioengine=mem
	size=4m
	kernel=count
	runtime=300ms
	time_based
	[a]
	[b]
	wait_for=a
	time_based=0
	loops=2
	[c]
	EOF
	"$MEMJOB" --output-format=csv wf.ini >out.csv &&
	all_ok out.csv &&
	ends_before_start out.csv a b &&
	overlap out.csv a c &&
	test "$(col out.csv b group)" = 0
'

test_expect_success 'startdelay=200ms starts the job at least 200 ms later' '
	"$MEMJOB" --output-format=csv --name=now --size=64k --kernel=count \
		--name=later --size=64k --kernel=count --startdelay=200ms >out.csv &&
	all_ok out.csv &&
	sl=$(col out.csv later start_ns) && sn=$(col out.csv now start_ns) &&
	echo "now started at $sn ns, later at $sl ns" &&
	# The clock of start_ns begins before the jobs are released, so
	# the delayed one starts at 200 ms or after, however loaded the
	# host; the other one is not delayed (loose bounds: load can delay
	# either thread by a scheduler slice or a hypervisor steal).
	test "$sl" -ge 200000000 &&
	test "$sn" -lt "$sl" &&
	test "$sl" -lt 2000000000
'

# ---- time ----------------------------------------------------------------------

test_expect_success 'runtime=300ms time_based stops after about 300 ms' '
	"$MEMJOB" --output-format=csv --name=t --size=256k --kernel=count \
		--runtime=300ms --time_based >out.csv &&
	all_ok out.csv &&
	e=$(csv_col out.csv elapsed_ns) && echo "elapsed $e ns" &&
	test "$e" -ge 300000000 &&
	test "$e" -lt 2000000000 &&
	# More than one pass of 256 KiB, in whole blocks of 16 KiB.
	test "$(csv_col out.csv bytes)" -gt 262144 &&
	test $(( $(csv_col out.csv bytes) % 16384 )) = 0
'

test_expect_success 'runtime without time_based stops at the end of the loops' '
	"$MEMJOB" --output-format=csv --name=t --size=64k --kernel=count \
		--runtime=10s --loops=3 >out.csv &&
	all_ok out.csv &&
	test "$(csv_col out.csv bytes)" = 196608 &&
	test "$(csv_col out.csv elapsed_ns)" -lt 2000000000
'

test_expect_success 'ramp_time is left out: elapsed is runtime, not runtime + ramp' '
	"$MEMJOB" --output-format=csv --name=r --size=256k --kernel=count \
		--pattern=byte:10 --value=168430090 --runtime=200ms \
		--ramp_time=400ms --time_based >out.csv &&
	all_ok out.csv &&
	# With the ramp counted, elapsed would be 600 ms or more.
	e=$(col out.csv r elapsed_ns) && echo "elapsed $e ns" &&
	test "$e" -ge 200000000 &&
	test "$e" -lt 600000000 &&
	s=$(col out.csv r start_ns) &&
	echo "measured from $s ns after the run began" &&
	# (start_ns counts from before the release, where the ramp began)
	test "$s" -ge 400000000 &&
	# The count covers the ramp too: more 0x0a0a0a0a words than measured.
	words=$(( $(col out.csv r bytes) / 4 )) &&
	test "$(col out.csv r result)" -gt "$words"
'

# ---- groups ----------------------------------------------------------------------

test_expect_success 'new_group changes the group without waiting' '
	"$MEMJOB" --output-format=csv --name=a --size=4m --kernel=count \
		--loops=20 --name=b --size=4m --kernel=count --loops=20 \
		--new_group >out.csv &&
	all_ok out.csv &&
	test "$(col out.csv a group)" = 0 &&
	test "$(col out.csv b group)" = 1 &&
	overlap out.csv a b
'

test_expect_success 'groups count on: stonewall after new_group is group 2' '
	"$MEMJOB" --output-format=csv --name=a --size=64k --name=b --size=64k \
		--new_group --name=c --size=64k --stonewall >out.csv &&
	test "$(col out.csv a group)" = 0 &&
	test "$(col out.csv b group)" = 1 &&
	test "$(col out.csv c group)" = 2 &&
	ends_before_start out.csv a c &&
	ends_before_start out.csv b c
'

test_expect_success 'repeat runs a segment again only after it ended' '
	"$MEMJOB" --output-format=csv --name=a --size=1m --kernel=count \
		--loops=4 --repeat=2 --name=b --size=1m --kernel=count \
		--repeat=2 >out.csv &&
	test "$(csv_rows out.csv)" = 4 &&
	all_ok out.csv &&
	# rows: a#1 a#2 b#1 b#2; repeat 2 of a starts after both first runs.
	test "$(csv_col out.csv repeat 2)" = 2 &&
	test "$(csv_col out.csv end_ns 1)" -le "$(csv_col out.csv start_ns 2)" &&
	test "$(csv_col out.csv end_ns 3)" -le "$(csv_col out.csv start_ns 2)"
'

# ---- placement ---------------------------------------------------------------------

test_expect_success TWO_CPUS 'cpus_allowed_policy=split: one clone per CPU' '
	"$MEMJOB" --details=clones --output-format=normal,csv --name=s --size=1m --kernel=count \
		--numjobs=2 --cpus_allowed=0-1 --cpus_allowed_policy=split >out &&
	grep "clone 0 (cpu 0)" out &&
	grep "clone 1 (cpu 1)" out &&
	sed -n "/^host,/,\$p" out >out.csv &&
	test "$(csv_col out.csv clones)" = 2 &&
	test "$(csv_col out.csv status)" = ok
'

test_expect_success TWO_CPUS 'split wraps around: 3 clones on 2 CPUs' '
	"$MEMJOB" --details=clones --name=s --size=64k --numjobs=3 --cpus_allowed=0-1 \
		--cpus_allowed_policy=split >out &&
	grep "clone 0 (cpu 0)" out &&
	grep "clone 1 (cpu 1)" out &&
	grep "clone 2 (cpu 0)" out
'

test_expect_success NUMA 'numa_mem_policy=bind:0 and local run and count right' '
	for p in bind:0 local preferred:0 interleave:0; do
		"$MEMJOB" --output-format=csv --name=n --size=1m \
			--pattern=byte:10 --kernel=count --value=168430090 \
			--numa_mem_policy=$p >out.csv &&
		test "$(csv_col out.csv status)" = ok &&
		test "$(csv_col out.csv result)" = 262144 || exit 1
	done
'

test_expect_success NUMA 'numa_cpu_nodes=0 runs' '
	"$MEMJOB" --output-format=csv --name=n --size=1m --kernel=count \
		--numa_cpu_nodes=0 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv bytes)" = 1048576
'

test_expect_success NUMA 'numa_mem_policy=bind to a node that does not exist: exit 2' '
	last=$(ls -d /sys/devices/system/node/node[0-9]* | sed "s/.*node//" | sort -n | tail -n 1) &&
	missing=$((last + 1)) &&
	expect_exit 2 "$MEMJOB" --name=n --size=1m \
		--numa_mem_policy=bind:$missing >out 2>err &&
	grep "numa_mem_policy" err &&
	test ! -s out
'

test_expect_success THP 'hugepage=thp runs and counts right' '
	"$MEMJOB" --output-format=csv --name=h --size=4m --hugepage=thp \
		--pattern=byte:10 --kernel=count --value=168430090 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv result)" = 1048576
'

test_expect_success 'hugepage=none runs and counts right' '
	"$MEMJOB" --output-format=csv --name=h --size=4m --hugepage=none \
		--pattern=byte:10 --kernel=count --value=168430090 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv result)" = 1048576
'

test_expect_success THP 'hugepage=thp says how much of the buffer became huge' '
	"$MEMJOB" --output-format=csv --name=h --size=4m --hugepage=thp \
		--kernel=count >out.csv &&
	info=$(csv_col out.csv source_info) && echo "$info" &&
	echo "$info" | grep -E "^[0-9]+ of 4096 KiB in transparent huge pages \([0-9]+%\); count/simple: scalar; first touch untimed \(before the clock\)$" &&
	test "${info%% *}" -le 4096
'

POOL2M=/sys/kernel/mm/hugepages/hugepages-2048kB
test_lazy_prereq HUGETLB2M 'test -r $POOL2M/free_hugepages'

test_expect_success HUGETLB2M 'hugepage=2m beyond the free pool: refused, with the fix' '
	free=$(cat $POOL2M/free_hugepages) &&
	expect_exit 2 "$MEMJOB" --name=h --size=$(( (free + 1) * 2 ))m \
		--hugepage=2m --kernel=count >out 2>err &&
	cat err &&
	grep "option .hugepage.: the jobs that start with .h. need $((free + 1)) huge pages\? of 2 MiB at once, but $free .* free" err &&
	grep "grow the pool first, as root: echo [0-9]* > $POOL2M/nr_hugepages" err &&
	test ! -s out
'

# The pool can grow by two pages (root, and the kernel finds two free
# 2 MiB blocks); it is put back as it was.
test_lazy_prereq POOL2M_GROWS '
	test "$(id -u)" = 0 &&
	nr=$(cat $POOL2M/nr_hugepages) &&
	echo $((nr + 2)) >$POOL2M/nr_hugepages &&
	got=$(cat $POOL2M/nr_hugepages) &&
	echo $nr >$POOL2M/nr_hugepages &&
	test "$got" -ge $((nr + 2))
'

# Two more pages in the pool for the job, put back however it ends.  The
# pool is the machine's: another test's hugepage=auto run may take pages
# from it at the same time, so the pool must drop by at least two while
# memjob runs, and memjob's own report says it mapped exactly two.
test_expect_success HUGETLB2M,POOL2M_GROWS 'hugepage=2m maps hugetlb pages: the pool lends 2 while it runs' '
	nr=$(cat $POOL2M/nr_hugepages) &&
	echo $((nr + 2)) >$POOL2M/nr_hugepages &&
	free=$(cat $POOL2M/free_hugepages) &&
	{ "$MEMJOB" --output-format=csv --name=h --size=3m --hugepage=2m \
		--pattern=byte:10 --kernel=count --value=168430090 \
		--runtime=1500ms --time_based >out.csv & } &&
	pid=$! && low=$free &&
	while kill -0 $pid 2>/dev/null; do
		f=$(cat $POOL2M/free_hugepages)
		[ "$f" -lt "$low" ] && low=$f
		sleep 0.05
	done &&
	wait $pid; rc=$?
	echo $nr >$POOL2M/nr_hugepages
	cat out.csv &&
	test $rc = 0 &&
	echo "free pages: $free before, $low while it ran" &&
	test "$low" -le $((free - 2)) &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv source_info)" = "2 huge pages of 2 MiB (MAP_HUGETLB); count/simple: scalar; first touch untimed (before the clock)" &&
	# every word counted is a 10, to the last block of the half-used page
	test "$(csv_col out.csv result)" = $(( $(csv_col out.csv bytes) / 4 ))
'

test_done
