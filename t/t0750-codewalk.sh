#!/bin/bash
# t0750-codewalk.sh - kernel=codewalk end to end: items, calls, the
# shipped icache-batch grid.

. "$(dirname "$0")/lib.sh"

# the generated footprint exists for x86-64 and arm64; elsewhere memjob
# refuses kernel=codewalk, and says why
test_lazy_prereq CODEWALK '
	"$MEMJOB" --parse-only --name=c --kernel=codewalk 2>&1 >/dev/null | head -n 1
	test "${PIPESTATUS[0]}" = 0
'

test_expect_success CODEWALK 'codewalk counts items and calls: items = calls x batch' '
	"$MEMJOB" --output-format=csv --name=c --kernel=codewalk \
		--code_size=16k --batch=8 --runtime=100ms --time_based \
		>out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv ioengine)" = none &&
	test "$(csv_col out.csv result_name)" = calls &&
	calls=$(csv_col out.csv result) && items=$(csv_col out.csv items) &&
	test "$calls" -gt 0 &&
	test "$items" = $((calls * 8)) &&
	test "$(csv_col out.csv metric_name)" = ns_per_item
'

test_expect_success CODEWALK 'the normal report gives ns per item and per call' '
	"$MEMJOB" --verbose --name=c --kernel=codewalk --code_size=16k \
		--batch=4 --runtime=100ms --time_based >out &&
	cat out &&
	grep "ns per item" out && grep "ns per call" out &&
	grep -E "^   elapsed [0-9.]+ s: [0-9.]+[kMG]? items/s$" out &&
	# it moves no data: no throughput it did not measure
	! sed -n "/^c: /,\$p" out | grep -E "GB/s|ops/s"
'

test_expect_success CODEWALK,PERF 'codewalk runs in its thread: it is counted (exec on its program: t0218)' '
	"$MEMJOB" --output-format=csv --name=c --kernel=codewalk \
		--code_size=16k --runtime=100ms --time_based \
		--perf_events=task-clock,L1-icache-load-misses >out.csv &&
	test "$(csv_col out.csv task_clock_status)" = ok &&
	tc=$(csv_col out.csv task_clock) &&
	cpu=$(( $(csv_col out.csv usr_ns) + $(csv_col out.csv sys_ns) )) &&
	echo "task-clock $tc ns, job CPU time $cpu ns" &&
	test "$cpu" -gt 0 && test "$tc" -ge $((cpu * 8 / 10)) &&
	case "$(csv_col out.csv l1_icache_load_misses_status)" in
	ok|not-supported|denied) ;; *) false ;; esac &&
	"$MEMJOB" --output-format=csv --name=e --kernel=exec --command=true \
		>exec.csv &&
	test "$(csv_col exec.csv task_clock_status)" = ok
'

test_expect_success CODEWALK 'code_size beyond the generated code is refused' '
	expect_exit 2 "$MEMJOB" --name=c --kernel=codewalk --code_size=64m 2>err &&
	grep "option .code_size." err
'

test_expect_success CODEWALK 'batch= without kernel=codewalk is refused' '
	expect_exit 2 "$MEMJOB" --name=c --size=1m --batch=8 2>err &&
	grep "option .batch.: is used by kernel=codewalk only" err
'

test_expect_success CODEWALK 'jobs/icache-batch.ini runs on a shrunk grid' '
	"$MEMJOB" --output-format=csv --runtime=50ms \
		"$SRCDIR/jobs/icache-batch.ini" >out.csv &&
	rows=$(csv_rows out.csv) && test "$rows" -ge 6 &&
	! grep -q ",failed," out.csv
'

test_done
