#!/bin/bash
# t0960-fio-compat.sh - a fio user's job files: fio's defaults and words
# with fio's meaning.  The job files here are written for this test in
# fio's style (several jobs, [global] defaults, fio-only words), with
# small sizes; each check reads memjob's CSV rows and compares them with
# what fio's semantics say: the bytes read and written, the jobs and
# their files.  Where fio is installed, one job file runs under both.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

# NUMA node 0 exists with memory (libnuma's numa_available() agrees).

test_lazy_prereq FIO 'command -v fio && command -v jq'

# This build has ioengine=libaio (configure found libaio-dev).
test_lazy_prereq LIBAIO '
	! "$MEMJOB" --cmdhelp=ioengine | grep -q "libaio .*not in this build"
'

# O_DIRECT works on TEST_TMP's file system (tmpfs used to refuse it).
test_lazy_prereq DIRECT '
	dd if=/dev/zero of=direct-probe bs=4096 count=1 oflag=direct &&
	dd if=direct-probe of=/dev/null bs=4096 iflag=direct &&
	rm -f direct-probe
'

test_expect_success 'a job that names a file and no ioengine uses psync on it' '
	head -c 65536 /dev/zero >data &&
	"$MEMJOB" --output-format=csv --name=f --filename=data --bs=4k >out.csv &&
	test "$(csv_col out.csv ioengine)" = psync &&
	test "$(csv_col out.csv bytes)" = 65536 &&
	test "$(csv_col out.csv lat_ios)" = 16
'

test_expect_success 'direct=1 in [global] and no file named: psync on its own files' '
	write_file job.fio <<-\INI &&
	[global]
	direct=1
	size=64k
	bs=4k
	[w]
	rw=write
	INI
	"$MEMJOB" --output-format=csv job.fio >out.csv &&
	test "$(csv_col out.csv ioengine)" = psync &&
	test "$(csv_col out.csv write_bytes)" = 65536
'

test_expect_success 'without files or file options the default stays mem' '
	"$MEMJOB" --output-format=csv --name=m --size=64k >out.csv &&
	test "$(csv_col out.csv ioengine)" = mem
'

test_expect_success 'fio words in [global]: taken with fio meaning, one note for the no-ops' '
	write_file words.fio <<-\INI &&
	; a fio-style job file: fio-only words in [global]
	[global]
	name=ignored
	description=three jobs in fio style
	thread
	group_reporting
	gtod_reduce=1
	bsrange=4k-4k
	timeout=10s
	filesize=1m
	random_generator=lfsr
	directory=.

	[seq-skip]
	rw=read:8k

	[rand-run]
	stonewall
	rw=randread:4

	[mixed]
	rw=randrw
	rwmixwrite=25
	INI
	"$MEMJOB" --output-format=csv words.fio >out.csv 2>err &&
	test "$(lines out.csv job)" = "seq-skip rand-run mixed" &&
	test "$(lines out.csv ioengine)" = "psync psync psync" &&
	test "$(lines out.csv bs)" = "4096 4096 4096" &&
	test "$(lines out.csv size)" = "1048576 1048576 1048576" &&
	test "$(csv_get out.csv bytes job=seq-skip)" = $((86 * 4096)) &&
	test "$(csv_get out.csv bytes job=rand-run)" = 1048576 &&
	test "$(csv_get out.csv bytes job=mixed)" = 1048576 &&
	w=$(csv_get out.csv write_bytes job=mixed) &&
	test "$w" -gt $((1048576 / 8)) && test "$w" -lt $((1048576 / 2)) &&
	test "$(grep -c "note: fio options" err)" = 1 &&
	for o in "name in \[global\]" thread group_reporting gtod_reduce random_generator; do
		grep -q "$o (words.fio:" err || { echo "no note for $o"; exit 1; }
	done &&
	"$MEMJOB" --dump words.fio >dump.ini 2>/dev/null &&
	grep -qx "runtime=10s" dump.ini &&
	grep -qx "rw=read:8k" dump.ini &&
	grep -qx "rwmixread=75" dump.ini
'

test_expect_success 'fio values memjob does not do are refused with the reason' '
	for w in "bsrange=1k-4k|one size" "bssplit=4k/50:8k/50|one size" \
		 "percentile_list=95|not one of them" "rw=read:-8k|negative" \
		 "unit_base=8|bits" "kb_base=1000|powers of 1024" \
		 "io_submit_mode=offload|inline"; do
		opt=${w%%|*} why=${w#*|} &&
		expect_exit 2 "$MEMJOB" --parse-only --name=j --size=64k \
			"--$opt" 2>err &&
		grep -q "$why" err || { echo "--$opt: not refused with \"$why\""; cat err; exit 1; }
	done
'

test_expect_success 'fio words that contradict memjob options are refused' '
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=64k --rw=rw \
		--rwmixread=30 --rwmixwrite=30 2>err &&
	grep -q "do not add up to 100" err &&
	expect_exit 2 "$MEMJOB" --parse-only --name=j --filename=f --size=64k \
		--buffered=0 --direct=0 2>err &&
	grep -q "disagree" err &&
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=64k --rate=1m \
		--rate_iops=10 2>err &&
	grep -q "set one of them" err &&
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=64k \
		--filesize=128k 2>err &&
	grep -q "must agree" err
'

test_expect_success 'rw=read:N with direct=1: N must keep blocks aligned' '
	expect_exit 2 "$MEMJOB" --parse-only --name=j --filename=f \
		--size=64k --bs=4k --direct=1 --rw=read:1000 2>err &&
	grep -q "direct=1 needs blocks at multiples of 512" err &&
	"$MEMJOB" --parse-only --name=j --filename=f --size=64k --bs=4k \
		--direct=1 --rw=read:4k
'

test_expect_success 'buffered=0 is direct=1, on psync' '
	"$MEMJOB" --dump --name=j --size=64k --buffered=0 >dump.ini &&
	grep -qx "direct=1" dump.ini && grep -qx "ioengine=psync" dump.ini
'

test_expect_success 'ratemin: a clone slower than it fails the job (exit 1)' '
	expect_exit 1 "$MEMJOB" --output-format=csv --name=slow --size=1m \
		--ratemin=1t >out.csv &&
	test "$(csv_col out.csv status)" = failed &&
	csv_col out.csv error | grep -q "below ratemin"
'

test_expect_success 'rate_iops holds a clone to that many blocks per second' '
	"$MEMJOB" --output-format=csv --name=r --size=80k --bs=4k \
		--rate_iops=100 >out.csv &&
	test "$(csv_col out.csv ops)" = 20 &&
	test "$(csv_col out.csv elapsed_ns)" -ge 150000000
'

test_expect_success 'norandommap: as many blocks as the region, drawn with repeats' '
	"$MEMJOB" --output-format=csv --name=r --size=1m --bs=4k \
		--rw=randread --norandommap >out.csv &&
	test "$(csv_col out.csv ops)" = 256
'

test_expect_success 'an option in [global] that no job uses gets a warning' '
	write_file g.fio <<-\INI &&
	[global]
	size=64k
	rwmixread=30
	[a]
	rw=read
	INI
	"$MEMJOB" --parse-only g.fio 2>err &&
	grep -q "g.fio:3: warning: option .rwmixread.: set in \[global\] but applies to no job" err
'

test_expect_success 'ioengine=null: every block, no file, no I/O' '
	"$MEMJOB" --output-format=csv --name=n --ioengine=null --size=1m \
		--bs=4k --rw=randrw --rwmixread=50 >out.csv &&
	test "$(csv_col out.csv bytes)" = 1048576 &&
	test "$(csv_col out.csv ops)" = 256 &&
	w=$(csv_col out.csv write_bytes) && test "$w" -gt 0 &&
	test "$w" -lt 1048576 &&
	test_path_is_missing n.0
'

test_expect_success "fio's engines that memjob has not: refused, with memjob's way" '
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=1m \
		--ioengine=rbd 2>err &&
	grep -q "fio.s ioengine rbd is not supported by memjob" err &&
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=1m \
		--ioengine=cpuio 2>err &&
	grep -q "not supported by memjob; the memjob way: a compute kernel" err &&
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=1m \
		--ioengine=exec 2>err &&
	grep -q "kernel=exec" err
'

test_expect_success LIBAIO 'libaio reads a file at depth: the same count as psync' '
	"$MEMJOB" --name=mk --filename=aio.dat --size=4m --kernel=count \
		--pattern=randint:0-20 --keep_files=1 >/dev/null &&
	"$MEMJOB" --output-format=csv --name=p --filename=aio.dat --kernel=count \
		--pattern=randint:0-20 >p.csv &&
	"$MEMJOB" --output-format=csv --name=a --filename=aio.dat --kernel=count \
		--ioengine=libaio --iodepth=16 --bs=64k --rw=randread >a.csv &&
	test "$(csv_col a.csv status)" = ok &&
	test "$(csv_col a.csv bytes)" = 4194304 &&
	test "$(csv_col a.csv lat_ios)" = 64 &&
	test "$(csv_col a.csv result)" = "$(csv_col p.csv result)"
'

test_expect_success LIBAIO 'libaio writes, mixed and buffered: the bytes fio would' '
	"$MEMJOB" --output-format=csv --name=w --filename=w.dat --size=1m \
		--bs=4k --ioengine=libaio --iodepth=8 --rw=write >w.csv &&
	test "$(csv_col w.csv write_bytes)" = 1048576 &&
	"$MEMJOB" --output-format=csv --name=m --filename=aio.dat --bs=4k \
		--ioengine=libaio --iodepth=8 --rw=randrw --rwmixwrite=30 \
		--overwrite=1 --iodepth_batch_submit=4 >m.csv &&
	test "$(csv_col m.csv bytes)" = 4194304 &&
	w=$(csv_col m.csv write_bytes) &&
	test "$w" -gt 838860 && test "$w" -lt 1677721
'

test_expect_success LIBAIO,DIRECT 'libaio with direct=1 (O_DIRECT), fsync at the end' '
	"$MEMJOB" --output-format=csv --name=d --filename=d.dat --size=1m \
		--bs=16k --ioengine=libaio --iodepth=4 --direct=1 --rw=write \
		--end_fsync=1 --keep_files=1 >d.csv &&
	test "$(csv_col d.csv write_bytes)" = 1048576 &&
	"$MEMJOB" --output-format=csv --name=r --filename=d.dat --bs=16k \
		--ioengine=libaio --iodepth=4 --direct=1 >r.csv &&
	test "$(csv_col r.csv bytes)" = 1048576
'

test_expect_success LIBAIO 'libaio: a file cut short inside the region is an error' '
	head -c 4194304 /dev/zero >short.dat &&
	new_samples &&
	{ "$MEMJOB" --output-format=csv --name=s --filename=short.dat \
		--ioengine=libaio --iodepth=8 --bs=64k --runtime=20s \
		--time_based --sample_interval=20ms --sample_log="$samples" \
		>s.csv 2>err & } &&
	pid=$! &&
	until_moving $pid err && : >short.dat &&
	{ wait $pid && rc=0 || rc=$?; } &&
	test $rc = 1 &&
	test "$(csv_col s.csv status)" = failed &&
	csv_col s.csv error | grep -q "inside the job.s region"
'

test_expect_success LIBAIO 'libaio stops on SIGINT within a second, I/O in flight' '
	head -c 8388608 /dev/zero >big.dat &&
	new_samples &&
	{ "$MEMJOB" --output-format=csv --name=i --filename=big.dat \
		--ioengine=libaio --iodepth=32 --bs=4k --rw=randread \
		--runtime=60s --time_based --sample_interval=20ms \
		--sample_log="$samples" >i.csv 2>err & } &&
	pid=$! &&
	until_moving $pid err &&
	{ stop_within 2 INT $pid; rc=$?; } &&
	test $rc = 1 &&
	test "$(csv_col i.csv status)" = interrupted
'

test_expect_success 'a command-line option rescues the file value it overrides, even an invalid one' '
	write_file rescue.fio <<-\INI &&
	[global]
	ioengine=rbd
	size=64k
	[a]
	bs=bogus
	INI
	expect_exit 2 "$MEMJOB" --parse-only rescue.fio 2>err &&
	grep -q "rescue.fio:2: option .ioengine.: fio.s ioengine rbd is not supported" err &&
	grep -q "rescue.fio:5: option .bs." err &&
	expect_exit 2 "$MEMJOB" --parse-only rescue.fio --ioengine=psync 2>err &&
	! grep -q "ioengine" err && grep -q "rescue.fio:5: option .bs." err &&
	"$MEMJOB" --output-format=csv --ioengine=psync --bs=4k rescue.fio \
		--filename=r.dat >out.csv &&
	test "$(csv_col out.csv ioengine)" = psync &&
	test "$(csv_col out.csv bs)" = 4096
'

test_expect_success 'did you mean: close names and values only' '
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=1m \
		--kernel=chaes 2>err &&
	grep -q "unknown kernel .chaes.; did you mean .chase.?" err &&
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=1m --rw=raed 2>err &&
	grep -q "did you mean .read.?" err &&
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=1m \
		--norandmap 2>err &&
	grep -q "did you mean .--norandommap.?" err &&
	expect_exit 2 "$MEMJOB" --parse-only --name=j --size=1m \
		--gtod_reduced_clocks=1 2>err &&
	! grep -q "did you mean" err
'

# A fio user's file: several jobs, [global] defaults, wait_for, numjobs,
# rate, NUMA placement, psync and libaio, sizes shrunk from the command
# line as a user would.
write_fio_job()
{
	write_file "$1" <<-\INI
	; sequential and random I/O on files, fio style
	[global]
	ioengine=psync
	bs=4k
	size=1m
	thread
	direct=0
	invalidate=1

	[writers]
	rw=write
	numjobs=2

	[readers]
	wait_for=writers
	rw=read
	numjobs=2

	[limited]
	stonewall
	rw=randread
	rate=2m

	[aio]
	ioengine=libaio
	iodepth=8
	rw=randread

	[skip]
	rw=read:8k
	INI
}

test_expect_success LIBAIO 'a fio job file: the jobs, clones, files and bytes fio would' '
	mkdir mix && cd mix &&
	write_fio_job mix.fio &&
	"$MEMJOB" --output-format=csv --size=256k --keep_files=1 mix.fio >out.csv &&
	test "$(lines out.csv job)" = "writers readers limited aio skip" &&
	test "$(lines out.csv clones)" = "2 2 1 1 1" &&
	test "$(lines out.csv ioengine)" = "psync psync psync libaio psync" &&
	test "$(lines out.csv status)" = "ok ok ok ok ok" &&
	test "$(lines out.csv bytes)" = "524288 524288 262144 262144 90112" &&
	test "$(lines out.csv write_bytes)" = "524288 0 0 0 0" &&
	ls writers.* readers.* limited.* aio.* skip.* >files &&
	test "$(wc -l <files)" = 7 &&
	e=$(csv_get out.csv elapsed_ns job=limited) &&
	test "$e" -ge 100000000
'

test_expect_success NUMA 'fio NUMA placement words run as fio means them' '
	write_file numa.fio <<-\INI &&
	[global]
	size=64k
	numa_cpu_nodes=0
	numa_mem_policy=bind:0
	[a]
	rw=read
	filename=numa.dat
	INI
	"$MEMJOB" --output-format=csv numa.fio >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv ioengine)" = psync
'

# fio_bytes JSON JOB DIR: "read written" bytes of fio's JOB, over clones.
fio_bytes()
{
	jq -r --arg j "$2" '[.jobs[] | select(.jobname == $j)] |
		"\(map(.read.io_bytes) | add) \(map(.write.io_bytes) | add)"' "$1"
}

test_expect_success FIO,LIBAIO 'side by side with fio: the same bytes read and written per job' '
	mkdir side side/f side/m && cd side &&
	write_fio_job side.fio &&
	sed -i "s/^size=1m/size=256k/" side.fio &&
	(cd f && fio --output-format=json --output=../fio.json ../side.fio) \
		>fio.log 2>&1 || { cat fio.log; false; } &&
	(cd m && "$MEMJOB" --output-format=csv ../side.fio) >m.csv &&
	for j in writers readers limited aio skip; do
		want=$(fio_bytes fio.json $j) &&
		got="$(($(csv_get m.csv bytes job=$j) - $(csv_get m.csv write_bytes job=$j))) $(csv_get m.csv write_bytes job=$j)" &&
		echo "$j: fio $want, memjob $got" &&
		test "$want" = "$got" || exit 1
	done
'

# sched_of DIR: the active I/O scheduler of DIR's block device, or nothing.
sched_of()
{
	local d f
	d=$(stat -c '%Hd:%Ld' "$1") || return 1
	for f in /sys/dev/block/"$d"/queue/scheduler \
		 /sys/dev/block/"$d"/../queue/scheduler; do
		[ -r "$f" ] && sed -n 's/.*\[\(.*\)\].*/\1/p' "$f" && return 0
	done
	return 0
}

test_expect_success 'ioscheduler: taken when the device has it, never changed' '
	s=$(sched_of .) &&
	if [ -n "$s" ]; then
		"$MEMJOB" --parse-only --name=j --filename=s.dat --size=64k \
			--ioscheduler="$s" &&
		expect_exit 2 "$MEMJOB" --parse-only --name=j --filename=s.dat \
			--size=64k --ioscheduler=no-such-sched 2>err &&
		grep -q "uses the $s scheduler; memjob does not change" err
	else
		expect_exit 2 "$MEMJOB" --parse-only --name=j --filename=s.dat \
			--size=64k --ioscheduler=none 2>err &&
		grep -q "which has no I/O scheduler" err
	fi
'

test_expect_success 'percentile_list: the percentiles memjob reports are taken' '
	"$MEMJOB" --parse-only --name=j --size=64k --percentile_list=50:99:99.9 &&
	"$MEMJOB" --dump --name=j --size=64k --percentile_list=99 |
		grep -qx "percentile_list=99"
'

# ---- a job file read as fio's gets fio's defaults -----------------------

test_lazy_prereq STRACE '
	command -v strace >/dev/null && strace -f -o /dev/null true
'

# plain_jobs FILE: two jobs with no file word and no ioengine, a
# sequential and a random reader.
plain_jobs()
{
	write_file "$1" <<-\INI
	[global]
	size=1m
	[seq]
	rw=read
	[rand]
	rw=randread
	INI
}

# dump_of FILE JOB: the options --dump gives JOB of FILE, one a line.
dump_of()
{
	"$MEMJOB" --dump "$1" 2>/dev/null |
		awk -v j="[$2]" '$0 == j { on = 1; next } /^\[/ { on = 0 } on && /=/'
}

test_expect_success 'a .fio file gets fio'"'"'s defaults; the same jobs in a .ini keep memjob'"'"'s' '
	plain_jobs plain.fio &&
	dump_of plain.fio rand >fio.dump &&
	for o in ioengine=psync bs=4k invalidate=1 fadvise_hint=1; do
		grep -qx "$o" fio.dump || { echo "no $o"; cat fio.dump; exit 1; }
	done &&
	cp plain.fio plain.ini &&
	dump_of plain.ini rand >ini.dump &&
	grep -qx "ioengine=mem" ini.dump &&
	! grep -q "^invalidate=\|^fadvise_hint=\|^bs=" ini.dump &&
	"$MEMJOB" --dump --name=j --size=1m --rw=randread --thread 2>/dev/null |
		grep -qx "ioengine=mem"
'

test_expect_success 'a fio-only word makes a job file fio'"'"'s, from [global] too' '
	write_file words.ini <<-\INI &&
	[global]
	thread
	filename=w.dat
	size=1m
	[r]
	rw=randread
	ioengine=libaio
	INI
	dump_of words.ini r >dump &&
	for o in ioengine=libaio invalidate=1 fadvise_hint=1 bs=4k \
		 iodepth_batch_submit=1; do
		grep -qx "$o" dump || { echo "no $o"; cat dump; exit 1; }
	done
'

test_expect_success 'what the job says stays: its own value, the command line, a sweep' '
	write_file own.fio <<-\INI &&
	[global]
	size=1m
	[r]
	rw=randread
	invalidate=0
	fadvise_hint=0
	sweep=bs:8k,16k
	[m]
	ioengine=mem
	INI
	dump_of own.fio r >r.dump &&
	! grep -q "^invalidate=\|^fadvise_hint=\|^bs=" r.dump &&
	grep -qx "sweep=bs:8k,16k" r.dump &&
	dump_of own.fio m >m.dump &&
	grep -qx "ioengine=mem" m.dump && ! grep -q "^invalidate=" m.dump &&
	"$MEMJOB" --dump --bs=64k own.fio 2>/dev/null | grep -qx "bs=64k" &&
	"$MEMJOB" --output-format=csv own.fio --size=64k >out.csv 2>/dev/null &&
	test "$(lines out.csv bs)" = "8192 4096 16384 4096"
'

test_expect_success STRACE 'fadvise_hint=1: random advice for random jobs, sequential for the others' '
	plain_jobs adv.fio &&
	strace_ -f -e trace=fadvise64 -o trace "$MEMJOB" adv.fio >/dev/null 2>&1 &&
	grep -q "POSIX_FADV_RANDOM" trace &&
	grep -q "POSIX_FADV_SEQUENTIAL" trace &&
	cp adv.fio adv.ini &&
	strace_ -f -e trace=fadvise64 -o trace "$MEMJOB" adv.ini >/dev/null 2>&1 &&
	! grep -q "POSIX_FADV_RANDOM\|POSIX_FADV_SEQUENTIAL" trace
'

# fio's rand-read example, small: memjob lays the file out and, with fio's
# invalidate=1, reads it from the device, not from the pages it has just
# written (before, it read them all from memory: 27 times fio's figure).
test_expect_success BLOCKDEV,LIBAIO 'fio'"'"'s buffered random reads come from the device' '
	write_file rr.fio <<-\INI &&
	[global]
	filename=rr.dat
	rw=randread
	bs=4k
	direct=0
	[r]
	size=16m
	ioengine=libaio
	iodepth=16
	INI
	"$MEMJOB" --output-format=csv rr.fio >rr.csv 2>/dev/null &&
	bytes=$(csv_col rr.csv bytes) &&
	dev=$(csv_col rr.csv dev_read_kb) &&
	echo "read $bytes bytes, the device $dev KiB" &&
	test "$dev" -ge $((bytes / 1024 * 9 / 10))
'

test_done
