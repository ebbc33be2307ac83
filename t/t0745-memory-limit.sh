#!/bin/bash
# t0745-memory-limit.sh - memory_limit: the run's memory cgroup bounds the
# page cache, so a file larger than the limit is read from the device
# again; the header names the cgroup, which is gone after the run (also
# after SIGTERM); where memjob may not make one it refuses, with why.
#
# Whether this machine lets memjob make the cgroup is memjob's own
# answer: the MEMCG prerequisite is a --parse-only run, whose refusal is
# the reason the tests are skipped.

# test: alone, the page cache and pgpgin it checks are the whole machine's
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. "$(dirname "$0")/lib.sh"

test_lazy_prereq UNSHARE '
	[ "$(id -u)" = 0 ] && unshare -m true
'

# write a 96 MiB file, then read it back, in one run: LIMIT or none
write_read() {
	cat >wr.ini <<-EOF2 &&
	[global]
	directory=.
	filename=wr.dat
	ioengine=psync
	bs=1m
	size=96m
	isolate_phases=0
	memory_limit=$1
	[w]
	rw=write
	[r]
	stonewall
	rw=read
	EOF2
	"$MEMJOB" --output-format=csv wr.ini >out.csv
}

test_expect_success MEMCG,BLOCKDEV 'with a 32 MiB limit the read of a 96 MiB file goes to the device' '
	write_read 32m &&
	got=$(csv_col out.csv pgpgin_kb 2) &&
	dev=$(csv_col out.csv dev_read_kb 2) &&
	echo "limit 32m: pgpgin $got KiB, device read $dev KiB" &&
	test "$got" -ge $((96 * 1024 * 9 / 10)) &&
	test "$dev" -ge $((96 * 1024 * 9 / 10))
'

# pgpgin is system-wide: on a host that reads from its devices meanwhile
# the cached read cannot be told apart, and QUIET_DISK skips it, saying
# how much the host read.
test_expect_success MEMCG,BLOCKDEV,QUIET_DISK 'without a limit the read of a 96 MiB file stays in memory' '
	write_read 0 &&
	got=$(csv_col out.csv pgpgin_kb 2) &&
	echo "no limit: pgpgin $got KiB" &&
	test "$got" -lt $((96 * 1024 / 10))
'

test_expect_success MEMCG 'the header names the limit and the cgroup, which is gone after the run' '
	"$MEMJOB" --name=j --ioengine=mem --size=1m --memory_limit=32m \
		>out.txt &&
	line=$(grep "^memory limit" out.txt) &&
	echo "$line" &&
	echo "$line" | grep -E "^memory limit 32 MiB \(cgroup v[12] /.*/memjob-[0-9]+\)$" &&
	dir=$(echo "$line" | sed -E "s/.* (\/[^)]*)\)$/\1/") &&
	test ! -e "$dir"
'

test_expect_success MEMCG 'the jobs run inside the cgroup' '
	"$MEMJOB" --name=j --kernel=exec --command="cat /proc/self/cgroup" \
		--memory_limit=48m >out.txt 2>prog.txt &&
	dir=$(sed -nE "s/^memory limit 48 MiB \(cgroup v[12] (\/.*)\)$/\1/p" out.txt) &&
	name=${dir##*/} &&
	echo "cgroup $name" &&
	test -n "$name" &&
	# the program writes to the standard error
	grep -E "^[0-9]+:(memory)?:/.*/$name$" prog.txt
'

test_expect_success MEMCG 'sweep=memory_limit: each point its own limit, in the header and the CSV' '
	"$MEMJOB" --name=j --ioengine=mem --size=1m \
		--sweep=memory_limit:32m,64m >sw.txt &&
	grep -E "^memory limit per point, 32 MiB to 64 MiB \(cgroup v[12] " sw.txt &&
	"$MEMJOB" --output-format=csv --name=j --ioengine=mem --size=1m \
		--sweep=memory_limit:32m,64m >sw.csv &&
	test "$(csv_col sw.csv sweep_memory_limit 1)" = 32m &&
	test "$(csv_col sw.csv sweep_memory_limit 2)" = 64m
'

test_expect_success MEMCG 'SIGTERM during the run: the cgroup is removed all the same' '
	# where the cgroup of a run goes: memjob-PID below the same place
	"$MEMJOB" --name=j --ioengine=mem --size=1m --memory_limit=32m >one.txt &&
	base=$(sed -nE "s/^memory limit 32 MiB \(cgroup v[12] (\/.*)\/memjob-[0-9]+\)$/\1/p" one.txt) &&
	test -n "$base" || return 1
	"$MEMJOB" --name=j --ioengine=mem --size=1m --rw=read --time_based=1 \
		--runtime=30s --memory_limit=32m >out.txt 2>err.txt &
	pid=$!

	dir=$base/memjob-$pid &&
	# made, then the process moved in (a write that takes milliseconds)
	for i in $(seq 100); do
		test -d "$dir" && grep -qx "$pid" "$dir/cgroup.procs" && break
		sleep 0.1
	done &&
	echo "cgroup $dir" &&
	test -d "$dir" &&
	grep -qx "$pid" "$dir/cgroup.procs" &&
	kill -TERM $pid &&
	rc=0 && { wait $pid || rc=$?; } &&
	test $rc = 1 &&
	grep "stopped by" err.txt &&
	test ! -e "$dir"
'

test_expect_success MEMCG 'a cgroup left by a killed run with the same PID is taken over' '
	"$MEMJOB" --name=j --ioengine=mem --size=1m --memory_limit=32m >one.txt &&
	base=$(sed -nE "s/^memory limit 32 MiB \(cgroup v[12] (\/.*)\/memjob-[0-9]+\)$/\1/p" one.txt) &&
	test -n "$base" &&
	# exec keeps the shell'"'"'s PID: memjob finds memjob-PID already there,
	# empty, as SIGKILL leaves it
	BASE=$base sh -c '"'"'mkdir "$BASE/memjob-$$" && echo "$BASE/memjob-$$" >left &&
		exec "$MEMJOB" --name=j --ioengine=mem --size=1m \
			--memory_limit=32m'"'"' >out.txt &&
	left=$(cat left) &&
	grep -F "memory limit 32 MiB (cgroup v" out.txt | grep -F "$left)" &&
	test ! -e "$left"
'

test_expect_success UNSHARE 'a read-only cgroup tree: refused before any job starts, with the reason' '
	rc=0 &&
	unshare -m sh -c "
		for m in \$(awk \"\\\$3 ~ /^cgroup/ { print \\\$2 }\" /proc/mounts); do
			mount -o remount,bind,ro \$m \$m || exit 9
		done
		\"$MEMJOB\" --name=j --ioengine=mem --size=1m --memory_limit=32m
	" >out.txt 2>err.txt || rc=$?
	test "$rc" = 2 &&
	cat err.txt &&
	grep "option .memory_limit.: memjob cannot give the run a memory cgroup here: " err.txt &&
	grep -E "(Read-only file system|not enabled for)" err.txt &&
	! test -s out.txt
'

test_expect_success UNSHARE 'no cgroup file system: refused, with the reason' '
	rc=0 &&
	unshare -m sh -c "
		for m in \$(awk \"\\\$3 ~ /^cgroup/ { print \\\$2 }\" /proc/mounts | sort -r); do
			umount \$m || exit 9
		done
		\"$MEMJOB\" --name=j --ioengine=mem --size=1m --memory_limit=32m
	" >out.txt 2>err.txt || rc=$?
	test "$rc" = 2 &&
	cat err.txt &&
	grep "no cgroup file system with the memory controller is mounted" err.txt
'

test_done
