#!/bin/bash
# t0325-estimate.sh - before a run that may take more than 20 s, memjob
# says on standard error, in one line, how long it expects it to take
# (from runtime, repeats, sweep points, precision's budget, and size-bound
# work at nominal rates) and what shortens it, naming the job file's
# ${VAR}s; --parse-only says the same without running; a short run says
# nothing; standard output keeps only the report.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_expect_success 'a short run says nothing' '
	"$MEMJOB" --parse-only --name=a --size=64k --runtime=1s \
		--time_based=1 2>err &&
	test ! -s err
'

test_expect_success 'runtime x repeat x points: the sum, and the options that shorten it' '
	"$MEMJOB" --parse-only --name=a --size=64k --runtime=4s \
		--time_based=1 --ramp_time=1s --repeat=2 --sweep=bs:4k,8k,16k \
		2>err &&
	cat err &&
	# 3 points x 2 repeats x (4 s + 1 s)
	grep -x "memjob: expected to take about 30 s (6 runs); shorter: --repeat=1 --runtime=1s" err
'

test_expect_success 'a job file names its variables, and the sweep with many points' '
	cat >v.ini <<-\EOF &&
	[global]
	repeat=${REPEAT:-5}
	[a]
	size=64k
	runtime=${T:-3s}
	time_based=1
	sweep=bs:${BSS:-4k,8k}
	EOF
	"$MEMJOB" --parse-only v.ini 2>err &&
	cat err &&
	grep -x "memjob: expected to take about 30 s (10 runs); shorter: REPEAT=3 T=750ms, or fewer points in BSS" err &&
	REPEAT=1 "$MEMJOB" --parse-only v.ini 2>err &&
	test ! -s err
'

test_expect_success 'precision=: from the planned rounds up to its budget' '
	"$MEMJOB" --parse-only --repeat=4 --precision=1% \
		--precision_budget=90s --name=v --role=victim --size=64k \
		--kernel=chase --runtime=2s --time_based=1 \
		--name=a --role=aggressor --size=64k --rw=write --kernel=fill \
		--sweep=bs:4k,8k 2>err &&
	cat err &&
	# 4 rounds of alone + 2 points, 2 s each: 24 s, then up to 90 s
	grep -x "memjob: expected to take about 24 s, up to 1 min 30 s (12 runs; precision= adds rounds until its intervals are narrow enough or precision_budget is spent); shorter: --precision=off --precision_budget=22500ms --repeat=3 --runtime=500ms" err
'

test_expect_success 'size-bound work is counted at a nominal rate, and said so' '
	"$MEMJOB" --parse-only --name=m --size=64m --loops=2000 \
		--kernel=count 2>err &&
	cat err &&
	grep -E "^memjob: expected to take about 2[0-9] s \(1 run; size-bound work counted at 1 GB/s through files, 5 GB/s in memory\)" err
'

test_expect_success 'shipped llc-noisy: its PRECISION, BUDGET and REPEAT' '
	PMEM=$TEST_TMP "$MEMJOB" --parse-only "$SRCDIR/jobs/llc-noisy.ini" 2>err &&
	grep "^memjob: expected to take about .*, up to 2 min (" err |
		grep "; shorter: PRECISION=off BUDGET=30s REPEAT=3 VICTIM_TIME=250ms$"
'

test_expect_success 'a run says it on stderr before it starts; stdout is the CSV only' '
	"$MEMJOB" --output-format=csv --name=long --size=64k --kernel=count \
		--runtime=25s --time_based=1 >out.csv 2>err &
	pid=$! &&
	for _ in $(seq 200); do
		grep -q "^memjob: expected" err && break
		sleep 0.05
	done &&
	stop_within 20 INT $pid || : &&
	cat err &&
	grep -x "memjob: expected to take about 25 s (1 run); shorter: --runtime=6250ms" err &&
	head -n 1 out.csv | grep "^host,job," &&
	test "$(csv_rows out.csv)" = 1
'

test_done
