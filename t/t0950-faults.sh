#!/bin/bash
# t0950-faults.sh - faults while a job runs, against every data source:
# mem, mmap, psync, psync direct=1, io_uring with and without I/O threads,
# and dax emulated (dax_emulate=1).
#
# For every case the process must end within its runtime plus 2 s, exit
# with the status the fault calls for (1 with the cause named: the file,
# the offset or the call, the error text; 2 for what is found before
# anything runs), print what it measured before the fault, and leave no
# file it created; a file of the user's is never changed.
#
# Which faults apply to which sources, and why the others do not:
# - file truncated (reads): every source with a file.  mem loads its file
#   into memory at setup; a truncation afterwards changes nothing it reads.
# - file truncated (writes): the mapped sources (mmap, dax), where a store
#   past the new end is a SIGBUS; pwrite and io_uring writes past the end
#   just extend the file, which is no fault.
# - file deleted, file replaced: every source with a file.  The job holds
#   its file open (or mapped) and runs to the end (exit 0); a replacement
#   is the other process's file, which memjob must leave alone.
# - disk full: the write jobs on a file memjob creates (mmap, psync, psync
#   direct, io_uring, dax).  io_uring with I/O threads reads only, and mem
#   has no file to grow.  The file's blocks are reserved when it is made,
#   so the job runs on and the filler is refused; a disk already full is
#   refused before anything runs (exit 2).
# - a FIFO as the file: io_uring (either way) opens it and blocks until a
#   writer comes, and must stop on a signal; the other sources need
#   offsets and refuse a FIFO before anything runs (exit 2).
# - a device as the file (a terminal nobody types into): io_uring reads it
#   and blocks, and must stop on a signal; the others fail at once with
#   the cause (a terminal has no offsets, no size, no DAX).
# - EIO (a device-mapper device whose middle is the `error` target): every
#   source that reads a block device (mem loads it, mmap faults it in).
#   dax does not take a block device.
# - SIGINT and SIGTERM while running: every source.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

SOURCES="mem mmap psync psync_direct uring uring_threads dax_emulated"

# The options of each data source.
src_opts()
{
	case $1 in
	mem)		echo "--ioengine=mem" ;;
	mmap)		echo "--ioengine=mmap" ;;
	psync)		echo "--ioengine=psync" ;;
	psync_direct)	echo "--ioengine=psync --direct=1" ;;
	uring)		echo "--ioengine=io_uring --iodepth=8" ;;
	uring_threads)	echo "--ioengine=io_uring --iodepth=8 --ioworkers=2" ;;
	dax_emulated)	echo "--ioengine=dax --dax_emulate=1" ;;
	esac
}

test_lazy_prereq MOUNT_NS '
	[ "$(id -u)" = 0 ] || { echo "not root"; exit 1; }
	command -v unshare >/dev/null || { echo "no unshare"; exit 1; }
	unshare -m sh -c "d=\$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs \$d && umount \$d && rmdir \$d" ||
		{ echo "cannot mount a tmpfs in a private mount namespace"; exit 1; }
'
test_lazy_prereq PYTHON3 'command -v python3 || { echo "no python3"; exit 1; }'
test_lazy_prereq DM_ERROR '
	[ "$(id -u)" = 0 ] || { echo "not root"; exit 1; }
	command -v dmsetup >/dev/null || { echo "no dmsetup"; exit 1; }
	command -v losetup >/dev/null || { echo "no losetup"; exit 1; }
	dmsetup targets 2>&1 | grep -q "^error" ||
		{ echo "no device-mapper error target (dmsetup targets)"; exit 1; }
	losetup -f >/dev/null 2>&1 || { echo "no free loop device"; exit 1; }
'
# O_DIRECT where the tests run (the cases with psync direct=1).
test_lazy_prereq DIRECT '
	dd if=/dev/zero of="$TEST_TMP/.direct" bs=4096 count=1 oflag=direct 2>/dev/null ||
		{ echo "no O_DIRECT on $TEST_TMP"; rm -f "$TEST_TMP/.direct"; exit 1; }
	rm -f "$TEST_TMP/.direct"
'

# O_DIRECT on a tmpfs (Linux 6.6 and later): the disk-full cases of psync
# direct=1.
test_lazy_prereq TMPFS_DIRECT '
	unshare -m sh -c "d=\$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs \$d &&
		dd if=/dev/zero of=\$d/x bs=4096 count=1 oflag=direct 2>/dev/null;
		r=\$?; umount \$d; rmdir \$d; exit \$r" ||
		{ echo "no O_DIRECT on tmpfs (before Linux 6.6)"; exit 1; }
'

# prereq_of SOURCE [MORE]: the prerequisites of a case on SOURCE.
prereq_of()
{
	local p=${2:-}

	[ "$1" = psync_direct ] && p=${p:+$p,}DIRECT
	echo "$p"
}

# case_dir: a fresh directory for one case, made the current one.
case_dir()
{
	d=$TEST_TMP/case.$test_count
	rm -rf "$d" && mkdir "$d" && cd "$d"
}

# start SOURCE ARGS...: memjob on SOURCE in the background (pid in $pid),
# its CSV in out.csv and its stderr in err; its time series outside the
# case's directory (new_samples), for until_running.
start()
{
	local src=$1

	shift
	new_samples
	# shellcheck disable=SC2046 # the source's options are words
	"$MEMJOB" --output-format=csv --name=j $(src_opts "$src") "$@" \
		--sample_interval=20ms --sample_log="$samples" >out.csv 2>err &
	pid=$!
}

# until_running: the job is in its timed loop (until_moving).
until_running()
{
	until_moving "$pid" err
}

# only_left FILE...: the case's directory holds these files and no more.
only_left()
{
	local want have

	want=$(printf '%s\n' out.csv err "$@" | sort | tr '\n' ' ')
	have=$(ls -A | sort | tr '\n' ' ')
	[ "$want" = "$have" ] || { echo "left: '$have', expected '$want'"; return 1; }
}

# failed_with REGEX: the job failed, its error matches REGEX, and it
# measured something before the fault.
failed_with()
{
	cat out.csv err
	[ "$(csv_col out.csv status)" = failed ] || { echo "status is not failed"; return 1; }
	csv_col out.csv error | grep -E "$1" || { echo "the error does not match '$1'"; return 1; }
	[ "$(csv_col out.csv bytes)" -gt 0 ] || { echo "nothing measured"; return 1; }
}

# ---- the file truncated under a running job ---------------------------------------

for src in $SOURCES; do
	[ $src = mem ] && continue
	test_expect_success "$(prereq_of $src)" "$src: the file truncated under a read" '
		case_dir &&
		start '$src' --rw=read --kernel=count --bs=64k --size=16m \
			--filename=f.dat --time_based=1 --runtime=3s &&
		until_running &&
		truncate -s 1m f.dat &&
		{ ends_within 5 $pid && rc=0 || rc=$?; } &&
		test $rc = 1 &&
		failed_with "f.dat(: SIGBUS at offset [0-9]+ of the mapped file| ends at offset [0-9]+, inside the job)" &&
		only_left
	'
done

for src in mmap dax_emulated; do
	test_expect_success "$src: the file truncated under a write (SIGBUS)" '
		case_dir &&
		start '$src' --rw=write --kernel=fill --bs=64k --size=16m \
			--filename=f.dat --time_based=1 --runtime=3s &&
		until_running &&
		truncate -s 0 f.dat &&
		{ ends_within 5 $pid && rc=0 || rc=$?; } &&
		test $rc = 1 &&
		failed_with "f.dat: SIGBUS at offset [0-9]+ of the mapped file, which now holds 0 bytes: disk full or file truncated" &&
		only_left
	'
done

# ---- deleted, replaced ----------------------------------------------------------------

for src in $SOURCES; do
	[ $src = mem ] && continue
	test_expect_success "$(prereq_of $src)" "$src: the file deleted under the job: it runs on, nothing left" '
		case_dir &&
		start '$src' --rw=read --kernel=count --bs=64k --size=8m \
			--filename=f.dat --time_based=1 --runtime=600ms &&
		until_running &&
		rm f.dat &&
		{ ends_within 3 $pid && rc=0 || rc=$?; } &&
		cat out.csv err &&
		test $rc = 0 &&
		test "$(csv_col out.csv status)" = ok &&
		test "$(csv_col out.csv bytes)" -gt 0 &&
		! grep -v "^$" err &&
		only_left
	'
	test_expect_success "$(prereq_of $src)" "$src: the file replaced under the job: the new one is left alone" '
		case_dir &&
		start '$src' --rw=read --kernel=count --bs=64k --size=8m \
			--filename=f.dat --time_based=1 --runtime=600ms &&
		until_running &&
		echo "the user'"'"'s own" >new &&
		cp new keep &&
		mv new f.dat &&
		{ ends_within 3 $pid && rc=0 || rc=$?; } &&
		cat out.csv err &&
		test $rc = 0 &&
		test "$(csv_col out.csv status)" = ok &&
		grep "f.dat. was replaced while the jobs ran (a regular file .*); the new file is left as it is" err &&
		cmp f.dat keep &&
		only_left f.dat keep
	'
done

# ---- the disk fills (a 20 MiB tmpfs in a private mount namespace) -----------------

# disk_full SOURCE_OPTS...: a write job of 12 MiB; once its file is there,
# a filler takes what is left.  The job must run to its end (its blocks
# were reserved) and leave nothing; the filler must be refused.  (rate=
# keeps the job from having touched all its blocks before the filler.)
disk_full()
{
	local d rc=0

	d=$(mktemp -d) && mount -t tmpfs -o size=20m tmpfs "$d" || return 1
	# shellcheck disable=SC2068
	"$MEMJOB" --output-format=csv --name=j $@ --rw=write --kernel=fill \
		--bs=64k --size=12m --filename="$d/f.dat" --time_based=1 \
		--runtime=1s --rate=6m >out.csv 2>err &
	pid=$!
	for _ in $(seq 200); do
		[ -e "$d/f.dat" ] && break
		sleep 0.05
	done
	sleep 0.2
	dd if=/dev/zero of="$d/filler" bs=1M count=30 2>dd.err
	ends_within 3 $pid || rc=$?
	rm -f "$d/filler"
	left=$(ls -A "$d")
	umount "$d" && rmdir "$d"
	cat out.csv err dd.err
	[ $rc = 0 ] && [ -z "$left" ] && grep "No space left on device" dd.err &&
	[ "$(csv_col out.csv status)" = ok ] &&
	[ "$(csv_col out.csv bytes)" -gt 0 ]
}

# disk_already_full SOURCE_OPTS...: the same job when 10 MiB are left:
# refused before anything runs.
disk_already_full()
{
	local d rc=0

	d=$(mktemp -d) && mount -t tmpfs -o size=20m tmpfs "$d" || return 1
	dd if=/dev/zero of="$d/filler" bs=1M count=10 2>/dev/null
	# shellcheck disable=SC2068
	"$MEMJOB" --name=j $@ --rw=write --kernel=fill --bs=64k --size=12m >out.csv \
		--filename="$d/f.dat" 2>err || rc=$?
	rm -f "$d/filler"
	left=$(ls -A "$d")
	umount "$d" && rmdir "$d"
	cat err
	[ $rc = 2 ] && [ -z "$left" ] &&
	grep "would create in .* need 12m (12582912 bytes) but only" err
}

for src in mmap psync psync_direct uring dax_emulated; do
	more=MOUNT_NS
	[ $src = psync_direct ] && more=MOUNT_NS,TMPFS_DIRECT
	test_expect_success "$(prereq_of $src $more)" "$src: the disk fills during a write: the job runs on" '
		case_dir &&
		export -f disk_full ends_within csv_col &&
		export CSV_SPLIT_AWK &&
		unshare -m bash -c "disk_full $(src_opts '$src')" &&
		only_left dd.err
	'
	test_expect_success "$(prereq_of $src $more)" "$src: a disk already too full: exit 2 before anything runs" '
		case_dir &&
		export -f disk_already_full &&
		unshare -m bash -c "disk_already_full $(src_opts '$src')" &&
		only_left
	'
done

# ---- a FIFO, a device --------------------------------------------------------------

for src in $SOURCES; do
	case $src in
	uring*)
		test_expect_success "$src: a FIFO nobody writes: SIGINT stops it while it blocks" '
			case_dir &&
			mkfifo fifo &&
			start '$src' --rw=read --bs=4k --size=1m --filename=fifo &&
			until_waiting $pid "wait_for_partner|io_cqring_wait" "blocking on the FIFO" &&
			{ stop_within 2 INT $pid && rc=0 || rc=$?; } &&
			cat out.csv err &&
			test $rc = 1 &&
			grep "stopped by Interrupt" err &&
			test "$(csv_col out.csv status)" = interrupted &&
			test -p fifo && rm fifo &&
			only_left
		'
		;;
	*)
		test_expect_success "$(prereq_of $src)" "$src: a FIFO is refused before anything runs" '
			case_dir &&
			mkfifo fifo &&
			start '$src' --rw=read --bs=4k --size=1m --filename=fifo &&
			{ ends_within 2 $pid && rc=0 || rc=$?; } &&
			cat err &&
			test $rc = 2 &&
			grep "fifo. is a FIFO, which ioengine=[a-z]* cannot use" err &&
			test -p fifo && rm fifo &&
			only_left
		'
		;;
	esac
done

# start_pty: a terminal nobody types into, its name in ptyname, held
# open by $pty_pid.
start_pty()
{
	python3 -c '
import os, pty, time
m, s = pty.openpty()
print(os.ttyname(s), flush=True)
time.sleep(60)
' >ptyname &
	pty_pid=$!
	for _ in $(seq 100); do
		[ -s ptyname ] && return 0
		sleep 0.05
	done
	return 1
}

for src in $SOURCES; do
	case $src in
	uring*)	want=stopped ;;
	mem|psync)	want="pread /dev/pts/[0-9]+ at offset 0: Illegal seek" ;;
	psync_direct)	want="open /dev/pts/[0-9]+ with O_DIRECT: Invalid argument" ;;
	mmap)	want="/dev/pts/[0-9]+ has 0 bytes, less than offset\\+size" ;;
	dax_emulated)	want="/dev/pts/[0-9]+ is a character device but not device-dax" ;;
	esac
	test_expect_success PYTHON3 "$src: a terminal as the file: $want" '
		case_dir &&
		start_pty &&
		start '$src' --rw=read --bs=4k --size=1m --allow_devices=1 \
			--filename="$(cat ptyname)" &&
		# io_uring waits for a read that never comes: stopped once it
		# waits; the others fail by themselves, unsignalled
		if test "'"$want"'" = stopped; then
			until_waiting $pid io_cqring_wait "waiting on its ring" &&
			{ stop_within 10 TERM $pid && rc=0 || rc=$?; }
		else
			{ ends_within 30 $pid && rc=0 || rc=$?; }
		fi &&
		kill $pty_pid && rm ptyname &&
		cat out.csv err &&
		test $rc = 1 &&
		if test "'"$want"'" = stopped; then
			grep "stopped by Terminated" err &&
			test "$(csv_col out.csv status)" = interrupted
		else
			test "$(csv_col out.csv status)" = failed &&
			csv_col out.csv error | grep -E "'"$want"'"
		fi &&
		only_left
	'
done

# ---- EIO: a device-mapper device whose middle fails ------------------------------

# dm_setup: an 8 MiB device, /dev/mapper/$dm, whose sectors from 4 MiB
# to 6 MiB are the error target; dm_teardown removes it.
dm_setup()
{
	dm=memjob-t0950-$$
	truncate -s 8m "$TEST_TMP/dm.img" &&
	loop=$(losetup -f --show "$TEST_TMP/dm.img") &&
	printf '%s\n' "0 8192 linear $loop 0" "8192 4096 error" \
		"12288 4096 linear $loop 12288" | dmsetup create "$dm" &&
	test -b "/dev/mapper/$dm"
}

dm_teardown()
{
	dmsetup remove "$dm" 2>/dev/null
	losetup -d "$loop" 2>/dev/null
	rm -f "$TEST_TMP/dm.img"
	return 0
}

if test_have_prereq DM_ERROR && dm_setup; then
	for src in $SOURCES; do
		[ $src = dax_emulated ] && continue
		test_expect_success "$(prereq_of $src)" "$src: EIO in the middle of the device" '
			case_dir &&
			start '$src' --rw=read --kernel=count --bs=64k \
				--size=8m --allow_devices=1 --invalidate=1 \
				--filename=/dev/mapper/'"$dm"' --runtime=3s &&
			{ ends_within 5 $pid && rc=0 || rc=$?; } &&
			cat out.csv err &&
			test $rc = 1 &&
			test "$(csv_col out.csv status)" = failed &&
			csv_col out.csv error | grep -E "(Input/output error|SIGBUS at offset)" &&
			only_left
		'
	done
	dm_teardown
else
	for src in $SOURCES; do
		[ $src = dax_emulated ] && continue
		test_skip "$src: EIO in the middle of the device" \
			"missing DM_ERROR$(test_prereq_why DM_ERROR)"
	done
fi

# ---- SIGINT, SIGTERM while running ---------------------------------------------------

for sig in INT TERM; do
	for src in $SOURCES; do
		test_expect_success "$(prereq_of $src)" "$src: SIG$sig while it runs: exit 1, report, nothing left" '
			case_dir &&
			file=f.dat &&
			if test '$src' = mem; then file=; fi &&
			start '$src' --rw=read --kernel=count --bs=64k \
				--size=8m ${file:+--filename=$file} \
				--time_based=1 --runtime=30s &&
			until_running &&
			{ stop_within 2 '$sig' $pid && rc=0 || rc=$?; } &&
			cat out.csv err &&
			test $rc = 1 &&
			grep "stopped by" err &&
			test "$(csv_col out.csv status)" = interrupted &&
			test "$(csv_col out.csv bytes)" -gt 0 &&
			only_left
		'
	done
done

test_done
