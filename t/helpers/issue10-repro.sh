#!/bin/bash
# t/helpers/issue10-repro.sh [N] - run each reproducer of issue 10, as the
# issue gives it, N times (default 10), and print one line per try and a
# tally per reproducer.  Needs root (a tmpfs in a private mount namespace,
# setpriv) for 1 and 6a; MEMJOB picks the binary (default ./memjob).
#
# A try is "clean" when memjob ended by itself (no SIGKILL, no SIGBUS)
# within the bound, with an expected exit status, the cause named when it
# failed, and no file of its own left behind.
set -u
cd "$(dirname "$0")/../.." || exit 1
M=$(realpath "${MEMJOB:-./memjob}")
N=${1:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A clean total

# tally NAME OK DETAIL: one try's outcome.
tally()
{
	total[$1]=$((${total[$1]:-0} + 1))
	[ "$2" = 1 ] && clean[$1]=$((${clean[$1]:-0} + 1))
	printf '%-28s try %2d: %s  %s\n' "$1" "${total[$1]}" \
		"$([ "$2" = 1 ] && echo clean || echo NOT-CLEAN)" "$3"
}

# wait_max SECONDS PID: its exit status, or 137 after a SIGKILL.
wait_max()
{
	for _ in $(seq $(($1 * 20))); do
		kill -0 "$2" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$2" 2>/dev/null && kill -KILL "$2"
	wait "$2"
}

# 1: mmap write, the disk filled by another process during the run.
disk_full_once()
{
	local d=$1
	cd "$d" || return 1
	"$M" --name=one --ioengine=mmap --rw=write --bs=64k --size=16m \
		--filename=one.dat --time_based=1 --runtime=1s >out 2>err &
	local pid=$!
	sleep 0.01
	dd if=/dev/zero of=filler bs=1M count=30 2>/dev/null
	wait_max 5 $pid
	local rc=$?
	rm -f filler
	echo "rc=$rc left=[$(ls | grep -v '^out$' | grep -v '^err$' | tr '\n' ' ')]" \
		"$(grep -h 'FAILED\|memjob:\|command line' out err | head -n 1)"
}

# 1b: two 12m mmap jobs started at once in a 20 MiB tmpfs.
two_jobs_once()
{
	local d=$1
	cd "$d" || return 1
	"$M" --name=a --ioengine=mmap --rw=write --bs=64k --size=12m \
		--filename=a.dat --time_based=1 --runtime=1s >outa 2>erra &
	local p1=$!
	"$M" --name=b --ioengine=mmap --rw=write --bs=64k --size=12m \
		--filename=b.dat --time_based=1 --runtime=1s >outb 2>errb &
	local p2=$!
	wait_max 5 $p1
	local r1=$?
	wait_max 5 $p2
	local r2=$?
	echo "rc=$r1,$r2 left=[$(ls | grep '\.dat$' | tr '\n' ' ')]" \
		"$(cat erra errb | grep -h 'memjob:\|command line' | head -n 1)"
}

if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	export M
	export -f disk_full_once two_jobs_once wait_max
	for i in $(seq "$N"); do
		line=$(unshare -m bash -c 'd=$(mktemp -d) && mount -t tmpfs -o size=20m tmpfs $d && disk_full_once $d; cd /; umount $d; rmdir $d')
		ok=0
		case $line in
		# 1: the space was gone before memjob reserved it, or its
		# report could not be written (the issue runs it in D)
		rc=0\ left=\[\]*|rc=1\ left=\[\]*No\ space\ left\ on\ device*) ok=1 ;;
		rc=2\ left=\[\]*) ok=1 ;;
		esac
		tally "1 mmap disk full" $ok "$line"
		line=$(unshare -m bash -c 'd=$(mktemp -d) && mount -t tmpfs -o size=20m tmpfs $d && two_jobs_once $d; cd /; umount $d; rmdir $d')
		ok=0
		case $line in
		rc=[012],[012]\ left=\[\]*) ok=1 ;;
		esac
		tally "1b two 12m mmap jobs" $ok "$line"
	done
fi

# 2: io_uring reading a file another process truncates.
cd "$work" || exit 1
for i in $(seq "$N"); do
	for rw in randread read; do
		rm -f src.dat
		"$M" --name=rd --ioengine=io_uring --rw=$rw --bs=4k --size=32m \
			--filename=src.dat --time_based=1 --runtime=2s >out 2>err &
		pid=$!
		sleep 0.7
		truncate -s 0 src.dat
		t0=$(date +%s%N)
		wait_max 4 $pid
		rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		cause=$(grep -o "src.dat ends at offset [0-9]*, inside the job's region" out)
		ok=0
		[ $rc = 1 ] && [ -n "$cause" ] && [ ! -e src.dat ] && ok=1
		tally "2 io_uring truncated ($rw)" $ok "rc=$rc after ${ms} ms: $cause"
		rm -f src.dat
	done
done

# 3: io_uring reading a FIFO with no writer, then SIGINT (and SIGTERM).
for i in $(seq "$N"); do
	for sig in INT TERM; do
		rm -f fifo && mkfifo fifo
		"$M" --name=f --ioengine=io_uring --rw=read --bs=4k --size=1m \
			--filename=fifo >out 2>err &
		pid=$!
		sleep 0.3
		t0=$(date +%s%N)
		kill -$sig $pid
		wait_max 5 $pid
		rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		ok=0
		[ $rc = 1 ] && [ $ms -lt 1000 ] && grep -q "stopped by" err && ok=1
		tally "3 io_uring FIFO SIG$sig" $ok "rc=$rc, ended ${ms} ms after the signal"
	done
done
rm -f fifo

# 5: a 10,000-point grid, checked only.
for i in $(seq "$N"); do
	t0=$(date +%s%N)
	"$M" --parse-only --name=sw --ioengine=mem --kernel=count \
		--sweep=size:4k..40000k:+4k
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	ok=0
	[ $rc = 0 ] && [ $ms -lt 1000 ] && ok=1
	tally "5 10,000-point grid" $ok "rc=$rc in ${ms} ms"
done

# 6a: a directory the user cannot write to (as nobody).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$work"
	mkdir -p "$work/ro"
	for i in $(seq "$N"); do
		setpriv --reuid=65534 --regid=65534 --clear-groups "$M" \
			--name=w --ioengine=psync --rw=write --size=1m \
			--directory="$work/ro" >out 2>err
		rc=$?
		ok=0
		[ $rc = 2 ] && grep -q "is not writable" err && ok=1
		tally "6a unwritable directory" $ok "rc=$rc $(head -n 1 err)"
	done
fi

# 6b: SIGINT while the jobs are still being read (stdin).
for i in $(seq "$N"); do
	sleep 3 | env --default-signal=INT "$M" - >out 2>err &
	pid=$!
	sleep 0.3
	kill -INT $pid
	wait_max 3 $pid
	rc=$?
	ok=0
	[ $rc = 1 ] && grep -q "interrupted before any job started" err && ok=1
	tally "6b SIGINT before any job" $ok "rc=$rc $(head -n 1 err)"
done

echo
for k in "${!total[@]}"; do
	printf '%-28s %d of %d clean\n' "$k" "${clean[$k]:-0}" "${total[$k]}"
done | sort
