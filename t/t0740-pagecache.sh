#!/bin/bash
# t0740-pagecache.sh - page cache and file I/O: system counters against
# /proc/vmstat, fsync options, per-clone files, the time series,
# drop_caches, and the shipped page-cache scenarios.

. "$(dirname "$0")/lib.sh"

# The counters need a block device behind the test directory (not tmpfs).

test_expect_success BLOCKDEV 'pgpgin of a cold read agrees with /proc/vmstat around the run' '
	"$MEMJOB" --name=mk --ioengine=psync --rw=write --filename=f1 \
		--size=64m --bs=1m --end_fsync=1 --keep_files=1 \
		--output-format=csv >/dev/null &&
	before=$(vmstat_kib pgpgin) &&
	"$MEMJOB" --output-format=csv --name=cold --ioengine=psync \
		--filename=f1 --bs=1m --invalidate=1 >out.csv &&
	after=$(vmstat_kib pgpgin) &&
	got=$(csv_col out.csv pgpgin_kb) &&
	outer=$((after - before)) &&
	echo "memjob pgpgin $got KiB, around the run $outer KiB" &&
	# the job read the 64 MiB from the device ...
	test "$got" -ge $((64 * 1024 * 9 / 10)) &&
	# ... and its delta lies within the one taken around the process
	test "$got" -le "$outer" &&
	test "$(csv_col out.csv dev_read_kb)" -ge $((64 * 1024 * 9 / 10))
'

# pgpgin and the device counters are system-wide: QUIET_DISK (t/lib.sh)
# skips where the host reads or writes meanwhile, saying how much.
# Dropping the caches also drops the other processes' files, which they
# then read back: where that shows in the second after a drop, those
# reads would land in the job's counters, and the case skips, saying so.
test_expect_success BLOCKDEV,ROOT,QUIET_DISK 'preread=1 after a cold start: the job reads nothing from the device' '
	sync && echo 1 >/proc/sys/vm/drop_caches && i=$(vmstat_kib pgpgin) &&
	sleep 1 && i=$(($(vmstat_kib pgpgin) - i)) &&
	{ [ "$i" -lt 4096 ] || test_skip_now "after a drop of the caches the" \
		"host read $i KiB back in a second (4096 at most)"; } &&
	"$MEMJOB" --output-format=csv --name=warm --ioengine=psync \
		--filename=f1 --bs=1m --drop_caches=1 --preread=1 >out.csv &&
	got=$(csv_col out.csv pgpgin_kb) &&
	dev=$(csv_col out.csv dev_read_kb) &&
	info=$(csv_col out.csv source_info) &&
	echo "pgpgin $got KiB, device read $dev KiB; $info" &&
	echo "$info" | grep -E "^preread 64 MiB in [0-9.]+ s; started with Dirty [0-9.]+ [KMGT]?i?B, Writeback [0-9.]+ [KMGT]?i?B$" &&
	test "$got" -lt $((64 * 1024 / 10)) &&
	test "$dev" -lt $((64 * 1024 / 10))
'

test_expect_success 'preread reads the job range: offset and size' '
	"$MEMJOB" --output-format=csv --name=part --ioengine=mmap \
		--filename=part.dat --size=3m --offset=1m --preread=1 \
		--kernel=count >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	csv_col out.csv source_info | grep -E "^preread 3 MiB in [0-9.]+ s; count/simple: scalar; first touch timed \(in the first pass\); started with Dirty [0-9.]+ [KMGT]?i?B, Writeback [0-9.]+ [KMGT]?i?B$"
'

# Where each read came from is the device's counters' to say; how much
# faster the warm read is depends on the device (a virtual disk the host
# caches reads at near memory speed: 1.29x once on this guest), so the
# speeds are printed, not judged.
test_expect_success BLOCKDEV,TIMING 'pagecache-read-twice: cold from the device, warm from memory' '
	SIZE=64m DIR=. "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/pagecache-read-twice.ini" >out.csv &&
	cold=$(csv_col out.csv pgpgin_kb 1) && warm=$(csv_col out.csv pgpgin_kb 2) &&
	echo "pgpgin cold $cold KiB, warm $warm KiB" &&
	echo "GB/s cold $(csv_col out.csv gbps 1), warm $(csv_col out.csv gbps 2)" &&
	test "$cold" -ge $((64 * 1024 * 9 / 10)) &&
	test "$warm" -lt $((64 * 1024 / 10)) &&
	test "$(csv_col out.csv result 1)" = "$(csv_col out.csv result 2)" &&
	test ! -e memjob-read-twice.dat
'

test_expect_success BLOCKDEV 'end_fsync=1 puts the data on the device inside the job' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--filename=f3 --size=32m --bs=1m --end_fsync=1 >out.csv &&
	test "$(csv_col out.csv dev_write_kb)" -ge $((32 * 1024 * 9 / 10)) &&
	test "$(csv_col out.csv status)" = ok
'

# The device's counters are the whole device's: another process writing
# meanwhile adds to them.  QUIET_DISK skips where the host writes (or
# reads) more than a little, saying how much; the test is then one run.
test_expect_success BLOCKDEV,QUIET_DISK 'without end_fsync the writes stay dirty in memory' '
	sync &&
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync \
		--rw=write --filename=f4 --size=32m --bs=1m >out.csv &&
	test "$(csv_col out.csv nr_dirtied)" -ge $((32 * 256 * 9 / 10)) &&
	w=$(csv_col out.csv dev_write_kb) &&
	echo "dev_write_kb $w" &&
	test "$w" -lt $((32 * 1024 / 2))
'

test_expect_success BLOCKDEV 'fsync=N and fdatasync=N sync during the job' '
	for o in fsync fdatasync; do
		"$MEMJOB" --output-format=csv --name=w --ioengine=psync \
			--rw=write --filename=f5 --size=16m --bs=1m --$o=4 \
			>out.csv &&
		test "$(csv_col out.csv dev_write_kb)" -ge $((12 * 1024)) ||
		return 1
	done
'

test_expect_success 'fsync options on a read job are refused' '
	expect_exit 2 "$MEMJOB" --name=r --ioengine=psync --filename=f6 \
		--size=1m --end_fsync=1 2>err &&
	grep "option .end_fsync.: applies to write jobs" err
'

test_expect_success 'filename_format names each clone file; keep_files keeps them' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--size=64k --numjobs=3 --filename_format=part-\$jobname-\$jobnum \
		--keep_files=1 >out.csv &&
	test -f part-w-0 && test -f part-w-1 && test -f part-w-2 &&
	test "$(stat -c %s part-w-2)" = 65536
'

test_expect_success '256 threads, each with its own file: all run, no file left' '
	mkdir many && cd many &&
	THREADS=256 SIZE=64k "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/iozone-pagecache.ini" >../out.csv &&
	cd .. &&
	test "$(csv_rows out.csv)" = 3 &&
	test "$(csv_col out.csv clones 1)" = 256 &&
	for r in 1 2 3; do
		test "$(csv_col out.csv status $r)" = ok &&
		test "$(csv_col out.csv bytes $r)" = $((256 * 65536)) ||
			return 1
	done &&
	test -z "$(ls many)"
'

test_expect_success 'sample_interval writes a time series, one row per interval' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--filename=f9 --size=256m --bs=1m --rate=200m \
		--sample_interval=200ms >out.csv &&
	test -f w.samples.csv &&
	head -n 1 w.samples.csv | grep -q "^job,repeat,point,t_s,interval_s,job_bytes,job_mbps" &&
	rows=$(($(wc -l <w.samples.csv) - 1)) &&
	echo "$rows rows" &&
	test "$rows" -ge 4 &&
	# the rows add up to the job bytes
	total=$(awk -F, "NR > 1 { s += \$6 } END { print s }" w.samples.csv) &&
	test "$total" -le "$(csv_col out.csv bytes)" &&
	test "$total" -ge $(( $(csv_col out.csv bytes) * 8 / 10 ))
'

test_expect_success 'an existing sample_log is refused unless overwrite=1' '
	echo mine >log.csv &&
	expect_exit 2 "$MEMJOB" --name=w --size=1m --sample_interval=1s \
		--sample_log=log.csv 2>err &&
	grep "log.csv" err && test "$(cat log.csv)" = mine
'

test_expect_success ROOT 'drop_caches=1 empties the page cache before the job' '
	"$MEMJOB" --name=mk --ioengine=psync --rw=write --filename=f11 \
		--size=32m --bs=1m --end_fsync=1 --keep_files=1 >/dev/null &&
	cat f11 >/dev/null &&
	"$MEMJOB" --output-format=csv --name=r --ioengine=psync \
		--filename=f11 --bs=1m --drop_caches=1 >out.csv &&
	if ! stat -f -c %T . | grep -q tmpfs; then
		test "$(csv_col out.csv pgpgin_kb)" -ge $((32 * 1024 * 9 / 10))
	fi
'

test_lazy_prereq SETPRIV 'command -v setpriv'

test_expect_success ROOT,SETPRIV 'drop_caches=1 is refused at parse time when not root' '
	expect_exit 2 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MEMJOB" --parse-only --name=r --size=1m --drop_caches=1 2>err &&
	grep "drop_caches.: dropping the page cache needs root" err
'

test_expect_success 'randrw with rwmixread=70: 70% of the bytes read, reproducibly' '
	for i in 1 2; do
		"$MEMJOB" --output-format=csv --name=m --ioengine=psync \
			--filename=mix$i --size=16m --bs=4k --rw=randrw \
			--rwmixread=70 >out$i.csv || return 1
	done &&
	b=$(csv_col out1.csv bytes) && w=$(csv_col out1.csv write_bytes) &&
	echo "$w of $b bytes written" &&
	test "$b" = $((16 * 1024 * 1024)) &&
	awk -v b="$b" -v w="$w" "BEGIN { r = (b - w) / b; exit !(r > 0.66 && r < 0.74) }" &&
	test "$(csv_col out2.csv write_bytes)" = "$w"
'

test_expect_success 'rw=rw writes and reads the same file in sequence' '
	"$MEMJOB" --output-format=csv --name=m --ioengine=psync --filename=seqmix \
		--size=8m --bs=64k --rw=rw --rwmixread=50 --kernel=count \
		--pattern=randint:0-20 >out.csv &&
	test "$(csv_col out.csv rw)" = rw &&
	test "$(csv_col out.csv write_bytes)" -gt 0 &&
	test "$(csv_col out.csv write_bytes)" -lt $((8 * 1024 * 1024))
'

test_expect_success 'randrw writes the pattern at each written offset: the count stays' '
	"$MEMJOB" --name=mk --ioengine=psync --filename=pat --size=8m \
		--pattern=randint:0-20 --keep_files=1 --kernel=none >/dev/null &&
	tens=$("$COUNT_PLAIN" pat) &&
	"$MEMJOB" --output-format=csv --name=m --ioengine=psync --filename=pat \
		--overwrite=1 --bs=4k --rw=randrw --rwmixread=50 --kernel=count \
		--pattern=randint:0-20 >out.csv &&
	test "$(csv_col out.csv write_bytes)" -gt 0 &&
	test "$(csv_col out.csv result)" = "$tens" &&
	test "$("$COUNT_PLAIN" pat)" = "$tens"
'

test_expect_success 'mixing on a source that cannot, or rwmixread alone, is refused' '
	expect_exit 2 "$MEMJOB" --name=m --ioengine=mmap --filename=x \
		--size=1m --rw=randrw 2>err &&
	grep "option .rw.: ioengine=mmap cannot mix reads and writes" err &&
	expect_exit 2 "$MEMJOB" --name=m --size=1m --rwmixread=30 2>err &&
	grep "option .rwmixread.: applies to rw=rw or randrw" err
'

test_expect_success 'the run header states the dirty sysctls' '
	"$MEMJOB" --name=a --size=64k >out &&
	grep "vm.dirty_ratio=$(cat /proc/sys/vm/dirty_ratio) " out &&
	grep "vm.dirty_background_ratio=" out && grep "vm.swappiness=" out
'

# ---- phase isolation -----------------------------------------------------------

# started_dirty INFO: the bytes of "started with Dirty 23.24 MiB" in a
# source_info.
started_dirty()
{
	echo "$1" | sed -nE "s/.*started with Dirty ([0-9.]+) ([KMGT]?i?B),.*/\1 \2/p" |
	awk '{ m = 1
		if ($2 == "KiB") m = 1024
		if ($2 == "MiB") m = 1048576
		if ($2 == "GiB") m = 1073741824
		if ($2 == "TiB") m = 1099511627776
		printf "%.0f\n", $1 * m }'
}

# Writeback by the kernel itself starts at the background threshold: the
# control below needs 256 MiB to stay dirty, so the threshold must be well
# above it (1 GiB; dirty_background_bytes, or the ratio of MemTotal).
test_lazy_prereq DIRTY_ROOM '
	b=$(cat /proc/sys/vm/dirty_background_bytes) &&
	r=$(cat /proc/sys/vm/dirty_background_ratio) &&
	t=$(awk "/^MemTotal:/ { printf \"%.0f\", \$2 * 1024 }" /proc/meminfo) &&
	if [ "$b" -gt 0 ]; then lim=$b; else lim=$((t / 100 * r)); fi &&
	[ "$lim" -ge 1073741824 ]
'

# two_phases [OPTIONS...]: a buffered 256 MiB write, then a stonewalled
# read of 1 MiB of it; w0 and r0, the Dirty levels each started from.
two_phases()
{
	"$MEMJOB" --output-format=csv "$@" \
		--name=w --ioengine=psync --rw=write --kernel=fill \
		--filename=iso.dat --size=256m --bs=1m \
		--name=r --ioengine=psync --filename=iso.dat --size=1m \
		--stonewall >out.csv &&
	wi=$(csv_get out.csv source_info job=w) &&
	ri=$(csv_get out.csv source_info job=r) &&
	echo "w: $wi" && echo "r: $ri" &&
	w0=$(started_dirty "$wi") && r0=$(started_dirty "$ri") &&
	test -n "$w0" && test -n "$r0"
}

test_expect_success BLOCKDEV 'a phase after a buffered write starts with its data written back' '
	two_phases &&
	! echo "$ri" | grep "not isolated" &&
	# less than half of the 256 MiB the write left dirty: other
	# processes may dirty pages meanwhile, never that many
	test $((r0 - w0)) -lt $((128 * 1048576))
'

test_expect_success BLOCKDEV,DIRTY_ROOM 'isolate_phases=0: the next phase starts with the write dirty, and says so' '
	two_phases --isolate_phases=0 &&
	echo "$ri" | grep "(phases not isolated: isolate_phases=0)" &&
	test $((r0 - w0)) -gt $((128 * 1048576))
'

test_expect_success 'a job without a file says nothing of Dirty' '
	"$MEMJOB" --output-format=csv --name=m --size=1m --name=n --size=1m \
		--stonewall >out.csv &&
	! grep "started with Dirty" out.csv
'

test_done
