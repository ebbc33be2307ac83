#!/bin/bash
# t0400-safety.sh - memjob writes only where a job says so: it refuses to
# write into a file it did not create (overwrite=1 allows it, and the file
# stays), refuses devices (allow_devices=1), removes the files it created
# (keep_files=1 keeps them), also when stopped by SIGINT or SIGTERM, and
# checks free disk and memory before it starts.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq DEV_ZERO 'test -c /dev/zero && test -c /dev/null'

# ---- files the user made ---------------------------------------------------------

test_expect_success 'setup: a file the user made, and a copy to compare' '
	for i in $(seq 200); do printf "line %d of the user data\n" $i; done >mine &&
	cp mine mine.orig &&
	test "$(stat -c %s mine)" -gt 4096
'

test_expect_success 'a write job on a file memjob did not create: exit 2, untouched' '
	expect_exit 2 "$MEMJOB" --output-format=csv --name=w --ioengine=psync \
		--rw=write --filename=mine --kernel=fill >out 2>err &&
	grep "mine" err &&
	grep "overwrite=1" err &&
	cmp mine mine.orig &&
	! grep "^host," out
'

test_expect_success 'the same refusal for mmap and for a job file' '
	expect_exit 2 "$MEMJOB" --name=w --ioengine=mmap --rw=write \
		--filename=mine --kernel=fill 2>err &&
	grep "overwrite=1" err &&
	printf "[w]\nioengine=psync\nrw=randwrite\nfilename=mine\nkernel=fill\n" >w.ini &&
	expect_exit 2 "$MEMJOB" w.ini 2>err &&
	grep "w.ini:[0-9]" err &&
	grep "mine" err &&
	cmp mine mine.orig
'

test_expect_success 'a read job on the file runs and leaves it alone' '
	"$MEMJOB" --output-format=csv --name=r --ioengine=psync --filename=mine \
		--kernel=count --bs=4k >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv bytes)" = "$(stat -c %s mine)" &&
	cmp mine mine.orig
'

test_expect_success 'overwrite=1 writes into it, and the file stays' '
	cp mine.orig mine2 &&
	size=$(stat -c %s mine2) &&
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--filename=mine2 --kernel=fill --value=7 --bs=4 \
		--overwrite=1 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv bytes)" = "$size" &&
	test_path_is_file mine2 &&
	test "$(stat -c %s mine2)" = "$size" &&
	test "$("$COUNT_PLAIN" mine2 7)" = $((size / 4))
'

# ---- files memjob creates ---------------------------------------------------------

test_expect_success 'files memjob creates are removed at the end' '
	mkdir run1 && cd run1 &&
	"$MEMJOB" --output-format=csv --name=a --ioengine=psync \
		--filename=created.dat --size=1m --kernel=count \
		--name=b --ioengine=mmap --size=64k --numjobs=2 >../out.csv &&
	test "$(csv_col ../out.csv status 1)" = ok &&
	test "$(csv_col ../out.csv status 2)" = ok &&
	test "$(ls -A)" = ""
'

test_expect_success 'created files in directory= are removed, the directory stays' '
	mkdir -p run2/sub && cd run2 &&
	"$MEMJOB" --output-format=csv --name=a --ioengine=psync --directory=sub \
		--size=64k --numjobs=2 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test -d sub &&
	test "$(ls -A sub)" = ""
'

test_expect_success 'keep_files=1 keeps them (JOB.CLONE when filename is unset)' '
	mkdir run3 && cd run3 &&
	"$MEMJOB" --output-format=csv --name=a --ioengine=psync --size=64k \
		--numjobs=2 --pattern=byte:1 --keep_files=1 \
		--name=b --ioengine=psync --filename=named.dat --size=64k \
		--keep_files=1 >../out.csv &&
	test "$(ls -A | sort | tr "\n" " ")" = "a.0 a.1 named.dat " &&
	test "$(stat -c %s a.0)" = 65536 &&
	test "$("$COUNT_PLAIN" a.1 16843009)" = 16384
'

test_expect_success 'a file created by a write job is removed too' '
	mkdir run4 && cd run4 &&
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--filename=new.dat --size=64k --kernel=fill >../out.csv &&
	test "$(csv_col ../out.csv status)" = ok &&
	test "$(ls -A)" = ""
'

# ---- devices --------------------------------------------------------------------

test_expect_success DEV_ZERO 'a character device is refused without allow_devices' '
	for d in /dev/null /dev/zero; do
		for e in psync mmap mem; do
			expect_exit 2 "$MEMJOB" --name=d --ioengine=$e \
				--filename=$d --size=1m --kernel=count >out 2>err &&
			grep "$d" err &&
			grep "allow_devices=1" err &&
			test ! -s out || exit 1
		done
	done
'

test_expect_success DEV_ZERO 'allow_devices=1: reading 1 MiB of /dev/zero counts 0 tens' '
	"$MEMJOB" --output-format=csv --name=z --ioengine=psync \
		--filename=/dev/zero --size=1m --kernel=count \
		--allow_devices=1 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv bytes)" = 1048576 &&
	test "$(csv_col out.csv result)" = 0 &&
	"$MEMJOB" --output-format=csv --name=z --ioengine=psync \
		--filename=/dev/zero --size=1m --kernel=count --value=0 \
		--allow_devices=1 >out.csv &&
	test "$(csv_col out.csv result)" = 262144
'

test_expect_success DEV_ZERO 'allow_devices=1 and overwrite=1: writing to /dev/null' '
	"$MEMJOB" --output-format=csv --name=n --ioengine=psync --rw=write \
		--filename=/dev/null --size=1m --kernel=fill --allow_devices=1 \
		--overwrite=1 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv bytes)" = 1048576 &&
	test -c /dev/null
'

# ---- signals ----------------------------------------------------------------------

# stop_with SIGNAL: start a 30 s time_based job on a file memjob creates,
# wait until it runs, send SIGNAL; memjob must exit 1 within 5 s, say it
# was stopped, report what it measured (status interrupted) and remove
# its file.
stop_with()
{
	local sig=$1 pid rc t0 t1

	new_samples
	"$MEMJOB" --output-format=csv --output=r.csv --name=long \
		--ioengine=psync --filename=long.dat --size=1m --kernel=count \
		--runtime=30s --time_based --sample_interval=20ms \
		--sample_log="$samples" 2>err &
	pid=$!
	until_moving "$pid" err || return 1
	t0=$(date +%s%N)
	stop_within 5 "$sig" "$pid" && rc=0 || rc=$?
	test "$rc" != 124 || return 1
	t1=$(date +%s%N)
	echo "exit status $rc, $(( (t1 - t0) / 1000000 )) ms after SIG$sig"
	cat err
	test "$rc" = 1 &&
	grep "stopped" err &&
	test "$(csv_rows r.csv)" = 1 &&
	test "$(csv_col r.csv status)" = interrupted &&
	test "$(csv_col r.csv bytes)" -gt 0 &&
	test "$(csv_col r.csv elapsed_ns)" -gt 0 &&
	test "$(csv_col r.csv elapsed_ns)" -lt 10000000000 &&
	test_path_is_missing long.dat
}

test_expect_success 'SIGINT stops the run: exit 1, report, created file removed' '
	stop_with INT
'

test_expect_success 'SIGTERM stops the run the same way' '
	stop_with TERM
'

test_expect_success 'SIGINT in the middle of a stonewalled file: later jobs not run' '
	printf "[global]\nsize=64k\nruntime=30s\ntime_based\n[first]\n[second]\nstonewall\n" >two.ini ||
		exit 1
	interrupt_moving INT first.samples.csv "$MEMJOB" --output-format=csv \
		--output=r.csv --sample_interval=20ms two.ini 2>err &&
		rc=0 || rc=$?
	test "$rc" = 1 &&
	test "$(csv_col r.csv job 1)" = first &&
	test "$(csv_col r.csv status 1)" = interrupted &&
	test "$(csv_col r.csv status 2)" = not_run &&
	test -z "$(csv_col r.csv result 2)"
'

# ---- free disk and memory --------------------------------------------------------

# small_files CMD ARGS...: run CMD with files limited to 2 MiB (ulimit -f),
# so that a broken free-space check cannot fill the disk: memjob would die
# of SIGXFSZ at the first 2 MiB instead.
small_files()
{
	bash -c 'ulimit -f 2048 && exec "$@"' small_files "$@"
}

test_expect_success 'a file larger than the free disk: exit 2, nothing created' '
	mkdir big && cd big &&
	expect_exit 2 small_files "$MEMJOB" --output-format=csv --name=big \
		--ioengine=psync --filename=big.dat --size=1p \
		--kernel=count >out 2>err &&
	grep "free" err &&
	grep "size" err &&
	test ! -s out &&
	test "$(ls -A | tr "\n" " ")" = "err out "
'

test_expect_success 'the disk check counts every clone file' '
	mkdir big2 && cd big2 &&
	avail=$(df -B1 --output=avail . | tail -n 1 | tr -d " ") &&
	# Each clone file fits alone, but 64 of them do not.
	per=$((avail / 32 / 1048576))m &&
	expect_exit 2 small_files "$MEMJOB" --name=big --ioengine=psync --size=$per \
		--numjobs=64 >out 2>err &&
	grep "free" err &&
	test "$(ls -A | tr "\n" " ")" = "err out "
'

test_expect_success 'ioengine=mem with size=1p: not enough memory, exit 2' '
	expect_exit 2 "$MEMJOB" --output-format=csv --name=huge --ioengine=mem \
		--size=1p --kernel=count >out 2>err &&
	grep "memory" err &&
	test ! -s out
'

test_expect_success 'not enough memory for jobs that run together: the hungriest job'"'"'s size' '
	printf "[global]\nioengine=mem\nkernel=count\n[a]\nsize=1m\n[b]\nsize=1p\n[c]\nsize=2m\n" >together.ini &&
	expect_exit 2 "$MEMJOB" together.ini >out 2>err &&
	grep "^together.ini:7: option .size.: the jobs that start with .b. need [0-9]*k ([0-9]* bytes) of memory at once, but only" err &&
	test ! -s out
'

test_expect_success 'an error in one job means nothing is created for any job' '
	mkdir run5 && cd run5 &&
	expect_exit 2 small_files "$MEMJOB" --name=a --ioengine=psync \
		--filename=a.dat --size=1m --name=b --ioengine=mem --size=1p >out 2>err &&
	test "$(ls -A | tr "\n" " ")" = "err out "
'

test_done
