#!/bin/bash
# t0405-limits.sh - every limit the run lives under is checked before it
# starts: a plan that does not fit is refused with exit 2 and both
# figures (what the jobs need, what the limit leaves, and where the limit
# is), instead of the OOM killer's SIGKILL (exit 137, no word) or a job
# failing half way.  The memory cgroups above memjob (read from a
# made-up tree through MEMJOB_SYSROOT, and from a real cgroup of 200 MiB
# where this machine lets the test make one), memory_limit, RLIMIT_AS,
# RLIMIT_DATA, RLIMIT_MEMLOCK (without CAP_IPC_LOCK) and RLIMIT_NOFILE
# (whose soft limit memjob raises, as far as the hard one allows).

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

# A real memory cgroup the test may make, below the one it runs in (v1),
# or beside it (v2, where the parent hands memory down): its parent in
# MEMCG_PARENT.
memcg_parent()
{
	local rel

	[ "$(id -u)" = 0 ] || { echo "not root: cannot make a cgroup"; return 1; }
	rel=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	if [ -n "$rel" ] && [ -w "/sys/fs/cgroup/memory$rel/cgroup.procs" ]; then
		echo "/sys/fs/cgroup/memory$rel"
		return 0
	fi
	rel=$(awk -F: '$1 == 0 { print $3 }' /proc/self/cgroup)
	rel=${rel%/*}
	if grep -qw memory "/sys/fs/cgroup$rel/cgroup.subtree_control" 2>/dev/null &&
	   [ -w "/sys/fs/cgroup$rel/cgroup.procs" ]; then
		echo "/sys/fs/cgroup$rel"
		return 0
	fi
	echo "no memory cgroup this test may make (v1 memory hierarchy or a v2 parent with memory in cgroup.subtree_control)"
	return 1
}

test_lazy_prereq REALMEMCG '
	memcg_parent >/dev/null
'
test_lazy_prereq SETPRIV '
	command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] &&
	setpriv --bounding-set=-ipc_lock true
'

# in_memcg LIMIT CMD...: CMD in a new memory cgroup limited to LIMIT
# bytes (v1 memory.limit_in_bytes, v2 memory.max); its exit status.  The
# cgroup is removed afterwards.
in_memcg()
{
	local parent cg rc limit=$1

	shift
	parent=$(memcg_parent) || return 1
	cg=$parent/memjob-t0405-$$-$test_count
	mkdir "$cg" || return 1
	if [ -e "$cg/memory.limit_in_bytes" ]; then
		echo "$limit" >"$cg/memory.limit_in_bytes"
	else
		echo "$limit" >"$cg/memory.max"
	fi &&
	CG=$cg sh -c 'echo $$ >"$CG/cgroup.procs" && exec "$@"' sh "$@" &&
		rc=0 || rc=$?
	for _ in $(seq 50); do
		rmdir "$cg" 2>/dev/null && break
		sleep 0.1
	done
	echo "$cg" >cgroup.txt
	return "$rc"
}

test_expect_success REALMEMCG 'in a memory cgroup of 200 MiB, a 1 GiB job is refused before it starts' '
	rc=0 &&
	in_memcg $((200 << 20)) "$MEMJOB" --name=m --ioengine=mem --size=1g \
		--kernel=sum >out 2>err || rc=$?
	cat err &&
	test "$rc" = 2 &&
	test ! -s out &&
	grep "^command line:3: option .size.: the jobs that start with .m. need 1 GiB (1073758208 bytes) of memory at once, but /sys/fs/cgroup/.*/memjob-t0405-[0-9-]*/memory\.\(limit_in_bytes\|max\) limits the memory cgroup memjob runs in to 200 MiB (209715200 bytes), of which .* is in use" err &&
	grep "killed for memory" err &&
	test ! -e "$(cat cgroup.txt)"
'

# (TSan's shadow takes several times the job's 64 MiB: the cgroup kills it)
test_expect_success REALMEMCG,NOT_TSAN 'in the same cgroup, a job that fits runs' '
	in_memcg $((200 << 20)) "$MEMJOB" --output-format=csv --name=m \
		--ioengine=mem --size=64m --kernel=sum >out.csv &&
	test "$(csv_col out.csv status)" = ok
'

# A made-up tree below MEMJOB_SYSROOT: cgroup v2, the process in
# /job/step, the job limited to 200 MiB with 50 MiB in use, 40 of which
# is file cache.
fake_v2()
{
	rm -rf root &&
	write_file root/proc/self/mountinfo <<-\EOF &&
	23 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw
	30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw
	EOF
	echo "0::/job/step" >root/proc/self/cgroup &&
	mkdir -p root/sys/fs/cgroup/job/step &&
	echo max >root/sys/fs/cgroup/job/step/memory.max &&
	echo "$1" >root/sys/fs/cgroup/job/memory.max &&
	echo 52428800 >root/sys/fs/cgroup/job/memory.current &&
	printf "anon 10485760\nfile 41943040\nactive_file 20971520\ninactive_file 20971520\n" \
		>root/sys/fs/cgroup/job/memory.stat
}

test_expect_success 'a parent cgroup limit binds (made-up v2 tree): both figures and the file' '
	fake_v2 209715200 &&
	expect_exit 2 env MEMJOB_SYSROOT="$PWD/root" "$MEMJOB" --name=m \
		--ioengine=mem --size=1g --kernel=sum >out 2>err &&
	grep "need 1 GiB (1073758208 bytes) of memory at once, but $PWD/root/sys/fs/cgroup/job/memory.max limits the memory cgroup memjob runs in to 200 MiB (209715200 bytes), of which 10 MiB (10485760 bytes) is in use (file cache aside)" err &&
	# the cache does not count: 180 MiB fits in 200 - 10
	env MEMJOB_SYSROOT="$PWD/root" "$MEMJOB" --parse-only --name=m \
		--ioengine=mem --size=180m --kernel=sum &&
	expect_exit 2 env MEMJOB_SYSROOT="$PWD/root" "$MEMJOB" --parse-only \
		--name=m --ioengine=mem --size=195m --kernel=sum 2>err
'

test_expect_success 'memory.high binds too: the run would be throttled' '
	fake_v2 max &&
	echo 104857600 >root/sys/fs/cgroup/job/step/memory.high &&
	expect_exit 2 env MEMJOB_SYSROOT="$PWD/root" "$MEMJOB" --parse-only \
		--name=m --ioengine=mem --size=128m --kernel=sum 2>err &&
	grep "job/step/memory.high limits the memory cgroup memjob runs in to 100 MiB" err &&
	grep "throttled" err
'

test_expect_success 'the jobs that run together count together; those apart do not' '
	fake_v2 209715200 &&
	expect_exit 2 env MEMJOB_SYSROOT="$PWD/root" "$MEMJOB" --parse-only \
		--ioengine=mem --kernel=sum --name=a --size=100m \
		--name=b --size=100m 2>err &&
	grep "start with .a. need 200.03 MiB" err &&
	env MEMJOB_SYSROOT="$PWD/root" "$MEMJOB" --parse-only \
		--ioengine=mem --kernel=sum --name=a --size=100m \
		--name=b --size=100m --stonewall
'

test_expect_success 'memory_limit smaller than what the jobs hold: refused, not killed' '
	expect_exit 2 "$MEMJOB" --name=m --ioengine=mem --size=128m \
		--memory_limit=64m --kernel=sum >out 2>err &&
	grep "option .memory_limit.: the jobs that start with .m. need 128.02 MiB (134234112 bytes) of memory at once, but memory_limit gives them 64 MiB (67108864 bytes)" err
'

# (an ASan or TSan build cannot start under either limit)
test_expect_success NO_SHADOW 'RLIMIT_AS and RLIMIT_DATA: refused with both figures' '
	(
		ulimit -v 500000 &&
		expect_exit 2 "$MEMJOB" --name=m --ioengine=mem --size=1g \
			--kernel=sum 2>err
	) &&
	grep "of address space (regions, mapped files, buffers and thread stacks) at once, but RLIMIT_AS (ulimit -v) is 488.28 MiB (512000000 bytes), of which memjob uses" err &&
	(
		ulimit -d 300000 &&
		expect_exit 2 "$MEMJOB" --name=m --ioengine=mem --size=1g \
			--kernel=sum 2>err
	) &&
	grep "need 1 GiB (1073758208 bytes) of private memory (regions and buffers) at once, but RLIMIT_DATA (ulimit -d) is 292.97 MiB (307200000 bytes)" err &&
	(
		ulimit -v 500000 &&
		"$MEMJOB" --parse-only --name=m --ioengine=mem --size=64m --kernel=sum
	)
'

test_expect_success NO_SHADOW 'a file mapped whole counts against the address space' '
	head -c 65536 /dev/zero >small &&
	truncate -s 1g big &&
	(
		ulimit -v 500000 &&
		"$MEMJOB" --parse-only --name=m --ioengine=mmap --filename=small \
			--kernel=sum &&
		expect_exit 2 "$MEMJOB" --parse-only --name=m --ioengine=mmap \
			--filename=big --kernel=sum 2>err
	) &&
	grep "RLIMIT_AS" err
'

test_expect_success 'RLIMIT_NOFILE: the hard limit refuses, the soft one is raised' '
	(
		ulimit -n 60 &&
		expect_exit 2 "$MEMJOB" --parse-only --name=m --ioengine=psync \
			--size=64k --numjobs=10 --filename_format="f.\$jobnum" \
			--rw=write 2>err
	) &&
	grep "option .numjobs.: the jobs that start with .m. hold [0-9]* files, rings and perf counters open at once (with memjob.s own [0-9]*), but the hard RLIMIT_NOFILE (ulimit -Hn) is 60" err &&
	(
		ulimit -Sn 40 && ulimit -Hn 4096 &&
		"$MEMJOB" --output-format=csv --name=m --ioengine=psync \
			--size=64k --numjobs=10 --filename_format="f.\$jobnum" \
			--rw=write --kernel=fill >out.csv
	) &&
	test "$(csv_col out.csv status)" = ok
'

test_expect_success SETPRIV 'RLIMIT_MEMLOCK without CAP_IPC_LOCK: registered buffers past it are refused' '
	head -c 16777216 /dev/zero >data &&
	(
		ulimit -l 8192 &&
		expect_exit 2 setpriv --bounding-set=-ipc_lock "$MEMJOB" \
			--name=u --ioengine=io_uring --filename=data --bs=1m \
			--iodepth=16 --fixedbufs=1 --kernel=sum 2>err &&
		setpriv --bounding-set=-ipc_lock "$MEMJOB" --output-format=csv \
			--name=u --ioengine=io_uring --filename=data --bs=1m \
			--iodepth=4 --fixedbufs=1 --kernel=sum >out.csv
	) &&
	grep "option .fixedbufs.: the jobs that start with .u. register 16 MiB (16777216 bytes) of buffers at once, which the kernel locks in memory, but RLIMIT_MEMLOCK (ulimit -l) is 8 MiB (8388608 bytes)" err &&
	test "$(csv_col out.csv status)" = ok
'

test_done
