#!/bin/bash
# t0600-uring.sh - ioengine=io_uring end to end: every way of running it
# counts the same 10s as a plain read of the file (seed 003's check), the
# latency columns and the ring's description reach the report, the
# options it alone takes are checked at parse time, and a machine that
# refuses io_uring has its jobs refused, with the reason, before anything
# runs (exit 2).
#
# Mixed reads and writes (rw=rw, randrw) on the job's ring: the split of
# the bytes follows rwmixread (the blockgen draws each block's direction
# from the seed, so the split is the same on every run and every source;
# the band checked is 7 standard deviations of a binomial draw wide), and
# the written blocks carry the pattern at their offsets, so the count over
# the units, and over the file afterwards, stays the plain count; psync
# running the same job writes the very same file.
#
# SIGINT must stop a job whose I/O never completes (a FIFO that has a
# writer who writes nothing): the job's ring waits a second at a time and
# looks at the stop flag in between, then cancels what is in flight.  The
# bound on the exit is 10 s, which no load can break.
#
# The refusal runs memjob under a seccomp filter that fails
# io_uring_setup() (build/t/lockdown --no-io-uring=ERRNO CMD...): it
# lives in that process only, so no test can leave io_uring disabled.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq SECCOMP '
	"$LOCKDOWN" --no-io-uring true
'

# uring ARGS...: one io_uring count job over data, as CSV in out.csv.
uring()
{
	"$MEMJOB" --output-format=csv --name=u --ioengine=io_uring \
		--filename=data --kernel=count --bs=16k "$@" >out.csv
}

# counts_right: the job ended ok and counted what count_plain counts.
counts_right()
{
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv result)" = "$(cat tens)"
}

test_expect_success URING 'setup: 8 MiB of int32 in 0..20, and its 10s' '
	"$MEMJOB" --name=mk --ioengine=psync --filename="$TEST_TMP/data" \
		--size=8m --pattern=randint:0-20 --keep_files=1 \
		--kernel=none >/dev/null &&
	test_path_is_file data &&
	"$COUNT_PLAIN" data >tens &&
	test "$(cat tens)" -gt 0
'

test_expect_success URING 'the job thread'"'"'s own ring: depth 1 and deep, direct or not' '
	for d in 1 256; do
		for direct in 0 1; do
			for rw in read randread; do
				uring --iodepth=$d --direct=$direct --rw=$rw &&
				counts_right || {
					echo "iodepth=$d direct=$direct rw=$rw"
					cat out.csv; exit 1; }
			done
		done
	done
'

test_expect_success URING 'batched submission and completion, registered buffers and file' '
	uring --iodepth=64 --iodepth_batch_submit=16 \
		--iodepth_batch_complete=8 --direct=1 && counts_right &&
	uring --iodepth=32 --fixedbufs=1 --registerfiles=1 --rw=randread &&
	counts_right &&
	csv_col out.csv source_info | grep "fixedbufs; registerfiles"
'

test_expect_success URING 'sqpoll, with its thread on a chosen CPU' '
	uring --iodepth=16 --sqpoll=1 --sqpoll_cpu=0 --direct=1 &&
	counts_right &&
	csv_col out.csv source_info | grep "flags SQPOLL|SQ_AFF" &&
	csv_col out.csv source_info | grep "sqpoll on CPU 0"
'

test_expect_success URING 'I/O threads, ordered and not, count the same over loops' '
	for w in 1 2 3; do
		for ordered in 0 1; do
			uring --iodepth=24 --ioworkers=$w --ordered=$ordered \
				--rw=randread --direct=1 --loops=3 &&
			test "$(csv_col out.csv status)" = ok &&
			test "$(csv_col out.csv result)" = $((3 * $(cat tens))) &&
			test "$(csv_col out.csv lat_ios)" = $((3 * 512)) &&
			csv_col out.csv source_info |
				grep "^$w rings\? (one per I/O thread), iodepth 24 in all, $((24 / w)) each, " || {
				echo "ioworkers=$w ordered=$ordered"
				cat out.csv; exit 1; }
		done
	done
'

test_expect_success URING 'I/O threads on the CPUs of ioworkers_cpus, time_based' '
	uring --iodepth=16 --ioworkers=2 --ioworkers_cpus=0 --runtime=200ms \
		--time_based=1 &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv bytes)" -gt 0
'

# The I/O threads' CPU time is theirs, not the job thread's: measured
# over the job's window (two threads: at most twice that), said apart.
test_expect_success URING 'the I/O threads'"'"' CPU time, apart from the job'"'"'s thread' '
	uring --iodepth=16 --ioworkers=2 --runtime=200ms --time_based=1 &&
	io=$(csv_col out.csv io_threads_cpu_ns) &&
	el=$(csv_col out.csv elapsed_ns) &&
	echo "I/O threads $io ns of CPU over $el ns" &&
	test "$io" -gt 0 && test "$io" -le $((2 * el + 10000000)) &&
	"$MEMJOB" --verbose --name=u --ioengine=io_uring --filename=data --kernel=count \
		--iodepth=16 --ioworkers=2 >report &&
	grep -E "^    cpu usr [0-9.]+ s, sys [0-9.]+ s \(the job.s thread\), its 2 I/O threads [0-9.]+ s; faults " report &&
	uring --iodepth=16 &&
	test -z "$(csv_col out.csv io_threads_cpu_ns)"
'

test_expect_success URING 'latency: one per I/O, ordered percentiles; latency=0: none' '
	uring --iodepth=8 --direct=1 &&
	test "$(csv_col out.csv lat_ios)" = 512 &&
	p50=$(csv_col out.csv lat_p50_ns) &&
	p99=$(csv_col out.csv lat_p99_ns) &&
	max=$(csv_col out.csv lat_max_ns) &&
	test "$p50" -gt 0 && test "$p50" -le "$p99" && test "$p99" -le "$max" &&
	uring --iodepth=8 --latency=0 &&
	counts_right &&
	test -z "$(csv_col out.csv lat_ios)" -o "$(csv_col out.csv lat_ios)" = 0
'

test_expect_success URING 'the normal report shows the latency and the ring' '
	"$MEMJOB" --verbose --name=u --ioengine=io_uring --filename=data --kernel=count \
		--iodepth=4 >report &&
	grep "latency (us): p50 .* over 512 I/Os" report &&
	grep "io_uring: ring: depth 4, flags " report
'

test_expect_success URING 'the normal report says the I/O threads and the whole iodepth' '
	"$MEMJOB" --verbose --name=u --ioengine=io_uring --filename=data --kernel=count \
		--ioworkers=2 --iodepth=6 >report &&
	cat report &&
	grep "^u: group 0, 1 thread + 2 I/O threads: ioengine=io_uring " report &&
	grep "io_uring: 2 rings (one per I/O thread), iodepth 6 in all, 3 each, flags " report &&
	"$MEMJOB" --verbose --name=u --ioengine=io_uring --filename=data --kernel=count \
		--ioworkers=2 --iodepth=5 >report &&
	grep "iodepth 5 in all, up to 3 each, flags " report
'

test_expect_success URING 'writes at depth, direct and random, leave the pattern' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=io_uring --rw=randwrite \
		--filename=wfile --size=4m --bs=16k --iodepth=32 --direct=1 \
		--kernel=fill --value=10 --keep_files=1 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$("$COUNT_PLAIN" wfile)" = $((4 * 1048576 / 4))
'

test_expect_success URING 'setup: a 16 MiB file to mix reads and writes in' '
	"$MEMJOB" --name=mk --ioengine=psync --filename="$TEST_TMP/mix0" \
		--size=16m --pattern=randint:0-20 --keep_files=1 \
		--kernel=none >/dev/null &&
	"$COUNT_PLAIN" mix0 >mixtens
'

# mixed ENGINE FILE ARGS...: a 70% read randrw count job (4096 I/Os) over
# a fresh copy of mix0 named FILE, as CSV in FILE.csv.
mixed()
{
	local engine=$1 file=$2

	shift 2
	cp mix0 "$file" &&
	"$MEMJOB" --output-format=csv --name=m --ioengine="$engine" \
		--filename="$file" --overwrite=1 --pattern=randint:0-20 \
		--kernel=count --bs=4k --rw=randrw --rwmixread=70 "$@" \
		>"$file.csv"
}

# mixed_right: io_uring'"'"'s run (mix, mix.csv) wrote and counted what the
# plain count says, in the split rwmixread asks for, and psync'"'"'s run of
# the same job (mixp, mixp.csv) did exactly the same.
mixed_right()
{
	local b w

	b=$(csv_col mix.csv bytes) && w=$(csv_col mix.csv write_bytes) &&
	echo "$w of $b bytes written" &&
	test "$(csv_col mix.csv status)" = ok &&
	test "$b" = $((16 * 1048576)) &&
	test "$(csv_col mix.csv ops)" = 4096 &&
	test "$(csv_col mix.csv lat_ios)" = 4096 &&
	awk -v b="$b" -v w="$w" "BEGIN { r = (b - w) / b
		exit !(r > 0.65 && r < 0.75) }" &&
	test "$(csv_col mix.csv result)" = "$(cat mixtens)" &&
	test "$("$COUNT_PLAIN" mix)" = "$(cat mixtens)" &&
	test "$(csv_col mixp.csv write_bytes)" = "$w" &&
	test "$(csv_col mixp.csv result)" = "$(cat mixtens)" &&
	cmp mix mixp || { cat mix.csv; return 1; }
}

test_expect_success URING 'randrw: the split follows rwmixread, the pattern stays, as psync writes it' '
	for direct in 0 1; do
		mixed io_uring mix --iodepth=32 --direct=$direct &&
		mixed psync mixp --direct=$direct &&
		mixed_right || exit 1
	done &&
	mixed io_uring mix --iodepth=8 --iodepth_batch_submit=4 \
		--fixedbufs=1 --latency=1 &&
	mixed_right
'

test_expect_success URING 'rw=rw: read + written = bytes in the report, whatever the mix' '
	for pct in 0 50 100; do
		cp mix0 seq &&
		"$MEMJOB" --verbose --name=s --ioengine=io_uring --filename=seq --overwrite=1 \
			--pattern=randint:0-20 --kernel=count --bs=64k --rw=rw \
			--rwmixread=$pct --iodepth=4 --output-format=normal,csv \
			>report &&
		line=$(grep "of which read" report) &&
		echo "rwmixread=$pct: $line" &&
		sed -n "/^host,/,\$p" report >out.csv &&
		b=$(csv_col out.csv bytes) && w=$(csv_col out.csv write_bytes) &&
		r=$((b - w)) &&
		test "$b" = $((16 * 1048576)) &&
		case $pct in
		0) echo "$line" | grep "read 0 B, written 16 MiB$" ;;
		100) echo "$line" | grep "read 16 MiB, written 0 B$" ;;
		*) echo "$line" | grep -E "read [0-9.]+ [KM]iB, written [0-9.]+ [KM]iB$" ;;
		esac &&
		case $pct in
		0) test "$r" = 0 ;;
		100) test "$w" = 0 ;;
		*) test "$r" -gt 0 && test "$w" -gt 0 ;;
		esac &&
		grep "count: $(cat mixtens)" report &&
		test "$("$COUNT_PLAIN" seq)" = "$(cat mixtens)" || exit 1
	done
'

# interrupt_blocked ARGS...: an io_uring count job over the FIFO fifo (held
# open for writing by this shell, never written), as CSV in out.csv; SIGINT
# once it has the FIFO open, and a moment for its reads to block; the job
# must be gone within 10 s, exit 1 and report itself interrupted.
interrupt_blocked()
{
	local pid rc

	rm -f fifo && mkfifo fifo && exec 3<>fifo || return 1
	"$MEMJOB" --output-format=csv --name=f --ioengine=io_uring \
		--filename=fifo --size=1m --kernel=count "$@" >out.csv 2>err &
	pid=$!
	# the job has submitted its reads and waits for them: the run started
	until_waiting "$pid" io_cqring_wait "waiting on its ring" ||
		{ kill -KILL "$pid"; exec 3>&-; return 1; }
	stop_within 10 INT "$pid" && rc=0 || rc=$?
	exec 3>&-
	test "$rc" = 1 &&
	grep "stopped by Interrupt" err &&
	test "$(csv_col out.csv status)" = interrupted &&
	test "$(csv_col out.csv bytes)" = 0
}

test_expect_success URING 'SIGINT stops reads that never complete (a FIFO nobody writes)' '
	interrupt_blocked &&
	interrupt_blocked --iodepth=16 --direct=0 &&
	interrupt_blocked --iodepth=8 --ioworkers=2
'

test_expect_success 'a FIFO needs size, and a source that takes streams' '
	mkfifo stream &&
	expect_exit 2 "$MEMJOB" --name=f --ioengine=io_uring --filename=stream \
		2>err &&
	grep "command line:.*option .size.: .stream. is a FIFO, whose size memjob cannot know: set size" err &&
	expect_exit 2 "$MEMJOB" --name=f --ioengine=psync --filename=stream \
		--size=1m 2>err &&
	grep "option .filename.: .stream. is a FIFO, which ioengine=psync cannot use (it needs offsets); ioengine=io_uring can" err
'

test_expect_success 'options only io_uring takes, and their checks' '
	expect_exit 2 "$MEMJOB" --name=x --ioengine=psync --size=1m \
		--ioworkers=2 2>err &&
	grep "option .ioworkers.: is used by ioengine=io_uring only" err &&
	expect_exit 2 "$MEMJOB" --name=x --ioengine=io_uring --size=1m \
		--ordered=1 2>err &&
	grep "option .ordered.: needs ioworkers > 0" err &&
	expect_exit 2 "$MEMJOB" --name=x --ioengine=io_uring --size=1m \
		--iodepth=8 --iodepth_batch_submit=9 2>err &&
	grep "option .iodepth_batch_submit.: must not exceed iodepth (8), got 9" err &&
	expect_exit 2 "$MEMJOB" --name=x --ioengine=io_uring --size=1m \
		--sqpoll_cpu=0 2>err &&
	grep "option .sqpoll_cpu.: needs sqpoll=1" err &&
	expect_exit 2 "$MEMJOB" --name=x --ioengine=io_uring --size=1m \
		--sqpoll=1 --sqpoll_cpu=1000 2>err &&
	grep "option .sqpoll_cpu.: CPU 1000 does not exist" err &&
	expect_exit 2 "$MEMJOB" --name=x --ioengine=io_uring --size=1m \
		--iodepth=2 --ioworkers=3 2>err &&
	grep "option .ioworkers.: each I/O thread needs an I/O in flight" err &&
	expect_exit 2 "$MEMJOB" --name=x --ioengine=io_uring --size=1m \
		--rw=write --ioworkers=1 2>err &&
	grep "option .ioworkers.: I/O threads read ahead" err &&
	expect_exit 2 "$MEMJOB" --name=x --ioengine=io_uring --size=1m \
		--rw=randrw --ioworkers=1 2>err &&
	grep "option .ioworkers.: .*to mix reads and writes, use ioworkers=0" err &&
	expect_exit 2 "$MEMJOB" --name=x --ioengine=io_uring --size=1m \
		--iodepth=40000 2>err &&
	grep "option .iodepth.: io_uring allows at most 32768" err
'

test_expect_success URING,SECCOMP 'without io_uring: refused before anything runs, with the reason' '
	write_file two.ini <<-\EOF &&
	[global]
	filename=locked
	size=1m
	kernel=count
	[uring]
	ioengine=io_uring
	iodepth=16
	[workers]
	ioengine=io_uring
	iodepth=16
	ioworkers=2
	[sync]
	ioengine=psync
	EOF
	for err in ENOSYS EPERM; do
		expect_exit 2 "$LOCKDOWN" --no-io-uring=$err "$MEMJOB" \
			--output-format=csv two.ini >out.csv 2>err &&
		test ! -s out.csv && test ! -e locked &&
		grep "two.ini:6: option .ioengine.: io_uring is unavailable here: io_uring_setup: " err &&
		grep "two.ini:9: option .ioengine.: io_uring is unavailable" err &&
		grep "seccomp filter" err &&
		grep "ioengine=psync reads and writes the same file without it" err &&
		grep "nothing was run" err || exit 1
	done
'

test_done
