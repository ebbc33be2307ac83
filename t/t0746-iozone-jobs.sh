#!/bin/bash
# t0746-iozone-jobs.sh - seed 002's iozone jobs: iozone-seq.ini runs the
# six phases in iozone's order on one file, iozone-pagecache.ini writes
# then reads and writes at random per thread; with MEMLIMIT below the file
# size the reads go to the device, without it they stay in memory.

# test: alone, the page cache and pgpgin it checks are the whole machine's
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. "$(dirname "$0")/lib.sh"


test_expect_success 'iozone-seq: write, rewrite, read, reread, randread, randwrite of one file, which goes at the end' '
	SIZE=1m "$MEMJOB" --output-format=csv "$SRCDIR/jobs/iozone-seq.ini" \
		>out.csv &&
	test "$(csv_rows out.csv)" = 6 &&
	r=0 &&
	for job in write rewrite read reread randread randwrite; do
		r=$((r + 1)) &&
		test "$(csv_col out.csv job $r)" = $job &&
		test "$(csv_col out.csv status $r)" = ok &&
		test "$(csv_col out.csv bytes $r)" = 1048576 &&
		test "$(csv_col out.csv bs $r)" = 4096 || return 1
	done &&
	# iozone order: each phase finds the file the one before left
	csv_col out.csv source_info 2 | grep "not isolated" &&
	test ! -e memjob-iozone-seq.dat
'

test_expect_success 'iozone-seq with BS=16k: the record size' '
	SIZE=1m BS=16k "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/iozone-seq.ini" >out.csv &&
	test "$(csv_col out.csv bs 3)" = 16384
'

test_expect_success MEMCG,BLOCKDEV 'iozone-seq past MEMLIMIT: read and reread come from the device' '
	SIZE=96m MEMLIMIT=32m "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/iozone-seq.ini" >out.csv &&
	for r in 3 4; do
		got=$(csv_col out.csv pgpgin_kb $r) &&
		dev=$(csv_col out.csv dev_read_kb $r) &&
		echo "$(csv_col out.csv job $r), limit 32m: pgpgin $got KiB, device read $dev KiB" &&
		test "$got" -ge $((96 * 1024 * 9 / 10)) &&
		test "$dev" -ge $((96 * 1024 * 9 / 10)) || return 1
	done
'

# pgpgin is system-wide: QUIET_DISK (t/lib.sh) skips where the host reads
# from its devices meanwhile, saying how much.
test_expect_success MEMCG,BLOCKDEV,QUIET_DISK 'iozone-seq under no limit: the read comes from memory' '
	SIZE=96m "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/iozone-seq.ini" >out.csv &&
	got=$(csv_col out.csv pgpgin_kb 3) &&
	echo "read, no limit: pgpgin $got KiB" &&
	test "$got" -lt $((96 * 1024 / 10))
'

test_expect_success 'iozone-pagecache: THREADS files, written, then read and written at random' '
	mkdir files && cd files &&
	THREADS=3 SIZE=256k "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/iozone-pagecache.ini" >../out.csv &&
	cd .. &&
	test "$(csv_rows out.csv)" = 3 &&
	r=0 &&
	for job in write randread randwrite; do
		r=$((r + 1)) &&
		test "$(csv_col out.csv job $r)" = $job &&
		test "$(csv_col out.csv clones $r)" = 3 &&
		test "$(csv_col out.csv bs $r)" = 16384 &&
		test "$(csv_col out.csv bytes $r)" = $((3 * 262144)) || return 1
	done &&
	test -z "$(ls files)"
'

test_expect_success MEMCG,BLOCKDEV 'iozone-pagecache past MEMLIMIT: the random reads go to the device' '
	THREADS=4 SIZE=24m MEMLIMIT=32m "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/iozone-pagecache.ini" >out.csv &&
	got=$(csv_col out.csv pgpgin_kb 2) &&
	echo "randread of 4 x 24 MiB, limit 32m: pgpgin $got KiB" &&
	# at most a third fits: two thirds at least come from the device
	test "$got" -ge $((96 * 1024 * 2 / 3))
'

test_done
