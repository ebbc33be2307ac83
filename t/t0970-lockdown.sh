#!/bin/bash
# t0970-lockdown.sh - memjob where a container or a hardened host takes
# features away: io_uring disabled (kernel.io_uring_disabled=2 gives
# EPERM, a seccomp profile EPERM or ENOSYS), perf_event_open refused (as
# perf_event_paranoid=3 does), no CAP_SYS_ADMIN, /sys and /proc/sys
# read-only, one CPU.  Every shipped job, shrunk, either runs (exit 0,
# every row ok, what it could not do said in a note) or is refused before
# anything runs (exit 2, with the reason); none fails inside a run (exit
# 1) for a reason a check could have found first.
#
# Each restriction is applied to memjob alone by build/t/lockdown (a
# seccomp filter, a capability dropped from the bounding set, a private
# mount namespace, its CPU affinity): the machine's sysctls are never
# touched.  A restriction the helper cannot apply here (no seccomp under
# qemu-user, not root for a mount namespace) skips its tests with the
# helper's reason.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

# The shipped jobs, shrunk to a second or less through their own knobs
# (t/helpers/job-sizes.sh: a job added to jobs/ needs a line there, and
# the first test says so).
# shellcheck source=t/helpers/job-sizes.sh
. "$SRCDIR/t/helpers/job-sizes.sh"
quick_env()
{
	job_env quick "$1" .
}

# kernel=exec's program: found in the source tree (PATH below), where
# configure built it; run by /bin/sh, which an emulator cannot follow
# into a program of another architecture.
test_lazy_prereq SQLITE_BATCH '
	test -x "$SRCDIR/memjob-sqlite-batch" ||
		{ echo "memjob-sqlite-batch not built (libsqlite3-dev)"; exit 1; }
	test -z "${TEST_EMULATOR:-}" ||
		{ echo "kernel=exec under $TEST_EMULATOR runs no program of this build"; exit 1; }
'

# Under an emulator (a cross build's tests under qemu-user) the first
# case is the lock-down that says something about the architecture: the
# emulator has no io_uring and no perf events, and every job runs or says
# why not before anything runs.  Taking capabilities, /sys or CPUs away
# is done and answered by the same C on every architecture, and is
# tested natively; under the emulator each costs a dozen slow runs.
test_lazy_prereq NATIVE '
	test -z "${TEST_EMULATOR:-}" ||
		{ echo "emulated by ${TEST_EMULATOR%% *}: the same C as natively, tested there"; exit 1; }
'

# lockdown_prereq NAME OPTIONS...: NAME holds if the helper can apply
# OPTIONS here; its complaint is the reason to skip otherwise.
lockdown_prereq()
{
	local name=$1

	shift
	test_lazy_prereq "$name" "\"\$LOCKDOWN\" $* true 2>&1"
}
lockdown_prereq NO_URING --no-io-uring
lockdown_prereq NO_PERF --no-perf
lockdown_prereq NO_SYS_ADMIN --drop-cap=sys_admin
lockdown_prereq RO_SYS --ro=/sys --ro=/proc/sys
lockdown_prereq ONE_CPU --cpus=1

# shipped_under JOB WHY LOCKDOWN-OPTIONS...: run jobs/JOB.ini shrunk
# under the restrictions: it must exit 0 with every row ok, or exit 2
# before the run with a reason that matches the ERE WHY (what the
# restriction takes away; empty: no refusal is right).  Says which.
shipped_under()
{
	local job=$1 why=$2 env rc dir

	shift 2
	env=$(quick_env "$job") || { echo "no quick settings for jobs/$job.ini in t/helpers/job-sizes.sh"; return 1; }
	dir=$(mktemp -d "$TEST_TMP/$job.XXXXXX") || return 1
	# shellcheck disable=SC2086 # env is a list of VAR=value
	(cd "$dir" && env DIR=. PATH="$SRCDIR:$PATH" $env "$LOCKDOWN" "$@" -- \
		"$MEMJOB" --output-format=csv "$SRCDIR/jobs/$job.ini" \
		>out.csv 2>err) && rc=0 || rc=$?
	case $rc in
	0)
		test "$(csv_rows "$dir/out.csv")" -gt 0 &&
		if lines "$dir/out.csv" status | tr ' ' '\n' | grep -v "^ok$"
		then
			echo "$job ($*): exit 0 but a row did not end ok"
			cat "$dir/err"
			return 1
		fi
		;;
	2)
		if [ -z "$why" ] || test -s "$dir/out.csv" ||
		   ! tail -n 1 "$dir/err" | grep -q "nothing was run$" ||
		   ! grep -q -e "^$SRCDIR/jobs/$job.ini:[0-9]*: option '" \
			-e "^memjob: every point of the sweeps was left out" \
			"$dir/err" ||
		   ! grep -q -E "$why" "$dir/err"; then
			echo "$job ($*): exit 2, but not for what was taken away"
			cat "$dir/err"
			return 1
		fi
		echo "$job ($*): refused: $(head -n 1 "$dir/err")"
		;;
	*)
		echo "$job ($*): exit $rc, in the run"
		cat "$dir/err"
		return 1
		;;
	esac
}

# every_shipped_under WHY LOCKDOWN-OPTIONS...
every_shipped_under()
{
	local f job bad=0

	for f in "$SRCDIR"/jobs/*.ini; do
		job=${f##*/}
		job=${job%.ini}
		if [ "$job" = icache-sqlite ] && ! test_have_prereq SQLITE_BATCH
		then
			continue
		fi
		shipped_under "$job" "$@" || bad=1
	done
	return $bad
}

# What a refusal may give as its reason under each restriction: a CPU set
# the machine cannot give (a 1-CPU cpuset, or a host of one CPU), and
# io_uring where the host itself has none (an emulator, a container),
# and NUMA binding where libnuma finds no NUMA (qemu-user: numa-matrix).
CPUS_WHY="cpus_allowed|left out: cpus_allowed"
test_have_prereq NUMA || CPUS_WHY="$CPUS_WHY|NUMA is not available on this machine"
URING_WHY="io_uring is unavailable here|$CPUS_WHY"
test_have_prereq URING || CPUS_WHY=$URING_WHY

test_expect_success 'every shipped job has quick settings here, and runs with them' '
	every_shipped_under "$CPUS_WHY"
'

test_expect_success NO_URING 'io_uring disabled (EPERM, kernel.io_uring_disabled=2)' '
	every_shipped_under "$URING_WHY" --no-io-uring >log && cat log &&
	grep "^count10 .*: refused: .*count10.ini:[0-9]*: option .ioengine.: io_uring is unavailable here: io_uring_setup: Operation not permitted" log
'

test_expect_success NO_URING 'io_uring refused by a seccomp profile (ENOSYS)' '
	every_shipped_under "$URING_WHY" --no-io-uring=ENOSYS >log && cat log &&
	grep "^count10 .*: refused: .*io_uring_setup: Function not implemented" log
'

test_expect_success NO_PERF 'perf_event_open refused (perf_event_paranoid=3)' '
	every_shipped_under "$CPUS_WHY" --no-perf &&
	"$LOCKDOWN" --no-perf -- "$MEMJOB" --name=x --size=64k >out &&
	grep -E "^counters not counted in any run \((denied by seccomp|permission denied).*\): .*task-clock" out
'

test_expect_success NATIVE,NO_SYS_ADMIN 'without CAP_SYS_ADMIN' '
	every_shipped_under "$CPUS_WHY" --drop-cap=sys_admin
'

test_expect_success NATIVE,RO_SYS '/sys and /proc/sys read-only' '
	every_shipped_under "$CPUS_WHY" --ro=/sys --ro=/proc/sys
'

test_expect_success NATIVE,ONE_CPU 'a cpuset of one CPU' '
	every_shipped_under "$CPUS_WHY" --cpus=1
'

test_expect_success NO_URING,NO_PERF,NO_SYS_ADMIN,RO_SYS,ONE_CPU 'all of it at once' '
	every_shipped_under "$URING_WHY" --no-io-uring --no-perf \
		--drop-cap=sys_admin \
		--ro=/sys --ro=/proc/sys --cpus=1
'

test_expect_success NO_URING,NO_PERF,NO_SYS_ADMIN,RO_SYS,ONE_CPU 'the examples, all of it at once' '
	for f in "$SRCDIR"/examples/*.ini; do
		rc=0
		"$LOCKDOWN" --no-io-uring --no-perf --drop-cap=sys_admin \
			--ro=/sys --ro=/proc/sys --cpus=1 -- "$MEMJOB" \
			--output-format=csv "$f" >out.csv 2>err || rc=$?
		case $rc in
		0)	! lines out.csv status | tr " " "\n" | grep -v "^ok$" ;;
		2)	test ! -s out.csv && grep -q "^$f:[0-9]*: option " err ;;
		*)	false ;;
		esac || { echo "$f: exit $rc"; cat err; exit 1; }
	done
'

test_expect_success RO_SYS 'what needs a writable /proc/sys or /sys is refused before the run' '
	expect_exit 2 "$LOCKDOWN" --ro=/sys --ro=/proc/sys -- "$MEMJOB" \
		--name=x --size=1m --drop_caches=1 2>err &&
	grep "option .drop_caches.: " err &&
	grep -e "needs root" -e "/proc/sys/vm/drop_caches is not writable: Read-only file system" err &&
	expect_exit 2 "$LOCKDOWN" --ro=/sys --ro=/proc/sys -- "$MEMJOB" \
		--name=x --size=1m --memory_limit=64m 2>err &&
	grep "option .memory_limit.: memjob cannot give the run a memory cgroup here" err
'

test_done
