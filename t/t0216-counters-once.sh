#!/bin/bash
# t0216-counters-once.sh - perf counters are probed once per run: a job of
# 256 clones opens each event the machine lacks a bounded number of times
# (in its group and alone, all modes then user space only), not once per
# clone, and reports it once.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq STRACE '
	command -v strace >/dev/null &&
	strace -f -e trace=perf_event_open -o st.probe true
'

test_expect_success STRACE '256 clones: failing perf_event_open calls do not grow with the clones' '
	# LeakSanitizer cannot run under ptrace: off for this run
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -e trace=perf_event_open -o st "$MEMJOB" --output-format=csv \
		--name=t --size=4k --numjobs=256 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	calls=$(grep -c "perf_event_open(" st) &&
	# with -f, a call may be split: "<... perf_event_open resumed>) = -1"
	failed=$(grep "perf_event_open" st | grep -c "= -1 ") || : &&
	echo "perf_event_open: $calls calls, $failed failed" &&
	# 19 events, each probed at most in its group and alone, in two
	# modes: at most 76 calls fail, whatever numjobs is
	test "$failed" -le 76 &&
	# ... while the events that open are opened by every clone
	test "$calls" -ge 256
'

test_expect_success 'an event the machine lacks is reported once per job, with its reason' '
	"$MEMJOB" --name=t --size=4k --numjobs=8 >out &&
	n=$(grep -c "not supported:" out) || : &&
	test "$n" -le 1
'

test_done
