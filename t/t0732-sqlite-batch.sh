#!/bin/bash
# t0732-sqlite-batch.sh - seed 001's own experiment: memjob-sqlite-batch
# runs SQLite statements one or N at a time and reports its own time and
# L1 icache misses (or says the counter is missing), refuses a bad N, and
# jobs/icache-sqlite.ini runs it as kernel=exec at batch 1 and 8, their
# repeats taking turns.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

BATCH=$SRCDIR/memjob-sqlite-batch
test_lazy_prereq SQLITE_BATCH '
	test -x "$BATCH" ||
	{ echo "memjob-sqlite-batch not built: configure found no sqlite3 (apt-get install -y libsqlite3-dev)"; false; }'

# its statement count, time and miss line, for batch N
test_expect_success SQLITE_BATCH 'batch 1 and batch 8 run the same statements' '
	"$BATCH" 1 2 100 >b1 &&
	"$BATCH" 8 2 100 >b8 &&
	cat b1 b8 &&
	grep -x "batch 1: 2 rounds of 100 SELECT and 100 UPDATE statements" b1 &&
	grep -x "batch 8: 2 rounds of 100 SELECT and 100 UPDATE statements" b8 &&
	grep -E "^statement loop: [0-9]+\.[0-9]{3} s, [0-9]+\.[0-9] ns per statement$" b1 &&
	grep -E "^statement loop: [0-9]+\.[0-9]{3} s, [0-9]+\.[0-9] ns per statement$" b8 &&
	! grep -E "^statement loop: 0\.000 s, 0\.0 ns" b1
'

test_expect_success SQLITE_BATCH 'L1 icache misses: a count, or not supported with the reason' '
	"$BATCH" 8 1 50 >b &&
	grep -E "^L1-icache-load-misses: ([0-9]+ \([0-9.]+ per statement\)|not supported \(.+\))$" b
'

test_expect_success SQLITE_BATCH 'a record count that is not a multiple of N: every row still done' '
	"$BATCH" 8 1 13 >b &&
	grep -x "batch 8: 1 rounds of 13 SELECT and 13 UPDATE statements" b
'

test_expect_success SQLITE_BATCH 'a bad N, rounds or record count: exit 2 and what was expected' '
	expect_exit 2 "$BATCH" 0 2>err &&
	grep "N .0.: expected a whole number from 1 to 1024" err &&
	expect_exit 2 "$BATCH" 2000 2>err &&
	expect_exit 2 "$BATCH" 8 x 2>err &&
	grep "ROUNDS .x.: expected a whole number" err &&
	expect_exit 2 "$BATCH" 2>err &&
	grep "^usage: memjob-sqlite-batch N" err
'

test_expect_success SQLITE_BATCH 'jobs/icache-sqlite.ini: batch 1 and batch 8 as kernel=exec, each timed' '
	PATH=$SRCDIR:$PATH ROUNDS=1 REPEAT=1 "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/icache-sqlite.ini" >out.csv 2>err &&
	test "$(csv_col out.csv job 1)" = batch-1 &&
	test "$(csv_col out.csv job 2)" = batch-8 &&
	test "$(csv_col out.csv status 1)" = ok &&
	test "$(csv_col out.csv status 2)" = ok &&
	test "$(csv_col out.csv elapsed_ns 1)" -gt 0 &&
	test "$(csv_col out.csv elapsed_ns 2)" -gt 0 &&
	grep "^batch 1: 1 rounds of 10240 SELECT" err &&
	grep "^batch 8: 1 rounds of 10240 SELECT" err
'

# REPEAT=3: the batches take turns, batch 1, batch 8, batch 1 ..., so the
# first run's cost is not batch 1's alone; the report says so.
test_expect_success SQLITE_BATCH 'jobs/icache-sqlite.ini REPEAT=3: batches interleaved, and said so' '
	PATH=$SRCDIR:$PATH ROUNDS=1 REPEAT=3 "$MEMJOB" \
		--output-format=normal,csv "$SRCDIR/jobs/icache-sqlite.ini" \
		>out 2>err &&
	sed -n "/^host,/,\$p" out >out.csv &&
	paste -d: <(csv_get out.csv start_ns) <(csv_get out.csv job) \
		<(csv_get out.csv repeat) | sort -t: -k1,1n | cut -d: -f2- |
		tr "\n" " " >actual && echo >>actual &&
	echo "batch-1:1 batch-8:1 batch-1:2 batch-8:2 batch-1:3 batch-8:3 " >expect &&
	test_cmp expect actual &&
	test "$(csv_get out.csv repeat_order | sort -u)" = interleaved &&
	grep -x "repeats: interleaved, one run of each job per round: batch-1, batch-8 (3 rounds)" out
'

test_done
