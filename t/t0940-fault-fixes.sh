#!/bin/bash
# t0940-fault-fixes.sh - the faults of issue 10, one test each: a job
# whose mapping loses its blocks, an io_uring read of a file that shrinks,
# opens and reads that block until a stop, a directory memjob cannot write
# into, a signal before any job starts, and checks that stay linear in the
# number of grid points and files.  Each of these hung, crashed or was
# found too late before the fix; t0950 runs the same faults against every
# data source.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

# A private mount namespace where root may mount a small tmpfs.
test_lazy_prereq MOUNT_NS '
	[ "$(id -u)" = 0 ] || { echo "not root"; exit 1; }
	command -v unshare >/dev/null || { echo "no unshare"; exit 1; }
	unshare -m sh -c "d=\$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs \$d && umount \$d && rmdir \$d" ||
		{ echo "cannot mount a tmpfs in a private mount namespace"; exit 1; }
'
test_lazy_prereq SETPRIV 'command -v setpriv'
test_lazy_prereq DEFAULT_SIGNAL '
	env --default-signal=INT true 2>/dev/null ||
		{ echo "env has no --default-signal (coreutils < 8.31)"; exit 1; }
'
test_lazy_prereq STRACE 'command -v strace'

# until_file PATH: wait (at most 10 s) until PATH exists.
until_file()
{
	for _ in $(seq 200); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	echo "$1 never appeared"
	return 1
}

test_expect_success 'setup: a 32 MiB file of our own' '
	"$MEMJOB" --name=mk --ioengine=psync --filename="$TEST_TMP/src.orig" \
		--size=32m --keep_files=1 --kernel=none >/dev/null &&
	test "$(stat -c %s src.orig)" = 33554432
'

# ---- 2: io_uring and a file that shrinks -------------------------------------

for w in 0 2; do
	for rw in read randread; do
		test_expect_success "io_uring ioworkers=$w rw=$rw: a file truncated under it is an error, not a spin" '
			cp src.orig src.dat
			new_samples
			"$MEMJOB" --output-format=csv --name=rd --ioengine=io_uring \
				--rw='$rw' --ioworkers='$w' --iodepth=8 --bs=4k \
				--filename=src.dat --time_based=1 --runtime=2s \
				--sample_interval=20ms --sample_log="$samples" \
				>out.csv 2>err &
			pid=$! &&
			until_moving $pid err &&
			truncate -s 0 src.dat &&
			{ ends_within 4 $pid && rc=0 || rc=$?; } &&
			cat out.csv err &&
			test $rc = 1 &&
			test "$(csv_col out.csv status)" = failed &&
			csv_col out.csv error | grep "src.dat ends at offset [0-9]*, inside the job" &&
			test "$(csv_col out.csv bytes)" -gt 0
		'
	done
done

# ---- 3: a stop reaches a thread blocked in open() or read() --------------------

for sig in INT TERM; do
	for w in 0 2; do
		test_expect_success "io_uring ioworkers=$w: SIG$sig stops a job blocked opening a FIFO" '
			rm -f fifo
			mkfifo fifo
			"$MEMJOB" --output-format=csv --name=f --ioengine=io_uring \
				--rw=read --bs=4k --size=1m --iodepth=4 \
				--ioworkers='$w' --filename=fifo >out.csv 2>err &
			pid=$! &&
			until_waiting $pid wait_for_partner "blocking in the FIFO'"'"'s open" &&
			kill -'$sig' $pid &&
			{ ends_within 2 $pid && rc=0 || rc=$?; } &&
			cat out.csv err &&
			test $rc = 1 &&
			grep "stopped by" err &&
			test "$(csv_col out.csv status)" = interrupted &&
			test -p fifo
		'
	done
done

# ---- 1: SIGBUS in a mapping is the job's error --------------------------------

for how in "mmap --rw=read --kernel=count" "mmap --rw=write --kernel=fill" \
	   "dax --dax_emulate=1 --rw=write --kernel=fill"; do
	test_expect_success "${how%% *} ${how#* }: a file truncated under the mapping is an error, no SIGBUS" '
		new_samples
		"$MEMJOB" --output-format=csv --name=m --ioengine='"$how"' \
			--bs=64k --size=32m --filename=m.dat --time_based=1 \
			--runtime=3s --sample_interval=20ms \
			--sample_log="$samples" >out.csv 2>err &
		pid=$! &&
		until_moving $pid err &&
		truncate -s 1m m.dat &&
		{ ends_within 5 $pid && rc=0 || rc=$?; } &&
		cat out.csv err &&
		test $rc = 1 &&
		test "$(csv_col out.csv status)" = failed &&
		csv_col out.csv error | grep "m.dat: SIGBUS at offset [0-9]* of the mapped file, which now holds 1048576 bytes" &&
		test "$(csv_col out.csv bytes)" -gt 0 &&
		test_path_is_missing m.dat
	'
done

# The disk fills after memjob created its file: the blocks were reserved
# (fallocate), so the job runs on; the filler is the one refused.  (rate=
# keeps the job from touching all of its pages before the filler comes.)
fill_after_create()
{
	local d rc
	d=$(mktemp -d) &&
	mount -t tmpfs -o size=20m tmpfs "$d" &&
	{ "$MEMJOB" --output-format=csv --name=one --ioengine=mmap \
		--rw=write --bs=64k --size=16m --filename="$d/one.dat" \
		--rate=8m --time_based=1 --runtime=1s >out.csv 2>err &
	} &&
	pid=$! &&
	until_reserved "$d/one.dat" 16777216 &&
	{ dd if=/dev/zero of="$d/filler" bs=1M count=30 2>dd.err || :; } &&
	wait $pid && rc=0 || rc=$?
	cat out.csv err dd.err
	rm -f "$d/filler"
	ls "$d"
	[ "$rc" = 0 ] && [ "$(csv_col out.csv status)" = ok ] &&
	grep "No space left" dd.err && [ ! -e "$d/one.dat" ]
	rc=$?
	umount "$d" && rmdir "$d"
	return $rc
}

# until_reserved FILE BYTES: until FILE holds BYTES of blocks (fallocate
# done), a few seconds at most: the filler must come after the reservation,
# not between the file's creation and it.
until_reserved()
{
	for _ in $(seq 200); do
		[ -e "$1" ] && [ "$(($(stat -c %b "$1") * 512))" -ge "$2" ] &&
			return 0
		sleep 0.02
	done
	echo "$1 never held $2 bytes"
	return 1
}

test_expect_success MOUNT_NS 'mmap write: a disk that fills during the run does not kill the job' '
	export -f fill_after_create until_file until_reserved csv_col &&
	export CSV_SPLIT_AWK &&
	unshare -m bash -c fill_after_create
'

# ---- 6: found before anything runs --------------------------------------------

test_expect_success ROOT,SETPRIV 'a directory the user cannot write to: exit 2 before anything runs' '
	mkdir -m 755 ro &&
	chmod 755 . &&
	expect_exit 2 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MEMJOB" --name=w --ioengine=psync --rw=write --size=1m \
		--directory=ro 2>err &&
	grep "directory .ro. is not writable: Permission denied" err &&
	grep "nothing was run" err
'

test_expect_success MOUNT_NS 'a read-only file system: exit 2 before anything runs' '
	mkdir rofs &&
	unshare -m sh -c "mount -t tmpfs -o ro,size=1m tmpfs rofs &&
		\"\$MEMJOB\" --name=w --ioengine=psync --rw=write --size=64k \
		--directory=rofs; echo rc=\$?" >out 2>err &&
	cat out err &&
	grep "^rc=2$" out &&
	grep "is not writable: Read-only file system" err
'

test_expect_success DEFAULT_SIGNAL 'SIGINT while the job file is read: a message, exit 1' '
	mkfifo in.fifo &&
	{ env --default-signal=INT "$MEMJOB" - <in.fifo >out 2>err & } &&
	pid=$! &&
	exec 3>in.fifo &&
	until_reading $pid &&
	kill -INT $pid &&
	rc=0 && ends_within 10 $pid || rc=$? &&
	exec 3>&- &&
	cat err &&
	test $rc = 1 &&
	grep "interrupted before any job started; nothing was run" err
'

# Found writing t/fuzz: a line that never ends took all memory (the OOM
# killer ended memjob).
test_expect_success 'include /dev/zero, or a FIFO: refused, exit 2, at once' '
	printf "include /dev/zero\n[a]\nsize=1m\n" >zero.ini &&
	expect_exit 2 timeout 20 "$MEMJOB" --parse-only zero.ini 2>err &&
	grep "zero.ini:1: cannot include ./dev/zero.: not a regular file" err &&
	mkfifo inc.fifo &&
	printf "include inc.fifo\n[a]\nsize=1m\n" >fifo.ini &&
	expect_exit 2 timeout 20 "$MEMJOB" --parse-only fifo.ini 2>err &&
	grep "not a regular file" err
'

test_expect_success 'a job file line longer than 1 MiB: exit 2' '
	head -c 2000000 /dev/zero | tr "\\0" a >long.ini &&
	expect_exit 2 timeout 20 "$MEMJOB" --parse-only long.ini 2>err &&
	grep "long.ini: line 1 is longer than 1048576 bytes" err
'

# ---- 5: checks that scale -------------------------------------------------------

# CPU time, not wall time: a busy host slows both builds alike.  Before
# the fix this took 6-22 s (60 s in an ASan build); now 0.2 s (1.5 s).
test_expect_success 'a 10,000-point sweep is checked in well under a second' '
	TIMEFORMAT="%U %S" &&
	{ time "$MEMJOB" --parse-only --name=sw --ioengine=mem --kernel=count \
		--sweep=size:4k..40000k:+4k 2>&1; } 2>cpu &&
	cat cpu &&
	awk "{ exit !(\$1 + \$2 < 5) }" cpu
'

test_expect_success STRACE 'free disk is looked up once per file system, not per pair of files' '
	mkdir files &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	timeout 60 strace -f -c -o trace -e trace=statfs \
		"$MEMJOB" --parse-only --name=c --ioengine=psync --rw=write \
		--size=4k --numjobs=300 --directory=files &&
	cat trace &&
	calls=$(awk "\$NF == \"statfs\" { print \$4 }" trace) &&
	test "${calls:-0}" -le 10
'

test_done
