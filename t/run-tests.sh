#!/bin/bash
# t/run-tests.sh - run memjob's test suite and print one closing tally.
#
#     t/run-tests.sh [NAME-OR-PATTERN]...
#
# Runs every unit-test binary build/t/test_* (cmocka), then every script
# t/tNNNN-*.sh, one at a time (some tests are timing-sensitive), each from
# the top of the tree with MEMJOB, COUNT_PLAIN, SRCDIR and a fresh TEST_TMP
# in the environment.  Arguments select tests by name prefix or glob
# ("t01", "test_value", "t*-parse*"); paths work too.  The last line is
# "N passed, N failed, N skipped", which CI reads; the exit status is 1 if
# anything failed (or nothing ran).
#
# Environment: MEMJOB_TEST_TIMEOUT (seconds per binary or script, default
# 300), TEST_KEEP_TMP=1 (keep a failing script's TEST_TMP), TEST_VERBOSE=1.
# RUN_TESTS_UNIT_DIR and RUN_TESTS_SCRIPT_DIR point the runner elsewhere
# (t/t0000-harness.sh uses them to test the runner itself).

set -u

root=$(cd "$(dirname "$0")/.." && pwd) || exit 1
cd "$root" || exit 1

unit_dir=${RUN_TESTS_UNIT_DIR:-build/t}
script_dir=${RUN_TESTS_SCRIPT_DIR:-t}
timeout_s=${MEMJOB_TEST_TIMEOUT:-300}

export LC_ALL=C
export SRCDIR=$root
# Absolute, because each test body runs inside its own TEST_TMP.
export MEMJOB=${MEMJOB:-$root/memjob}
export COUNT_PLAIN=${COUNT_PLAIN:-$root/build/t/count_plain}
export TOUCH_MEM=${TOUCH_MEM:-$root/build/t/touch_mem}
# The same sanitizer settings as CI, unless the caller chose others.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}

export TEST_TMP=

total_passed=0
total_failed=0
total_skipped=0
failures=()

now()
{
	date +%s.%N
}

# selected NAME: true if NAME matches one of the command-line patterns.
selected()
{
	local pat

	[ ${#patterns[@]} -eq 0 ] && return 0
	for pat in "${patterns[@]}"; do
		# shellcheck disable=SC2053 # the pattern is a glob on purpose
		[[ $1 == $pat* ]] && return 0
	done
	return 1
}

# count LOG REGEX: the number of lines of LOG matching the ERE.
count()
{
	grep -cE "$2" "$1"
}

# sum LOG REGEX: add up the first number on the lines matching REGEX.
sum()
{
	grep -E "$2" "$1" | awk '{ match($0, /[0-9]+/);
		n += substr($0, RSTART, RLENGTH) } END { print n + 0 }'
}

# stacks PID: where each thread of PID and of its descendants is, in the
# kernel (/proc/PID/task/TID/stack, for root) and in user space (gdb,
# where installed), so a hang can be diagnosed from CI's log alone.
stacks()
{
	local t k

	[ -d "/proc/$1" ] || return 0
	echo "--- process $1: $(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null)"
	for t in /proc/"$1"/task/*; do
		echo "thread ${t##*/} ($(cat "$t/comm" 2>/dev/null)):" \
		     "state $(awk '{ print $3 }' "$t/stat" 2>/dev/null)," \
		     "wchan $(cat "$t/wchan" 2>/dev/null)"
		sed 's/^/    /' "$t/stack" 2>/dev/null
	done
	if command -v gdb >/dev/null 2>&1; then
		gdb -q -batch -p "$1" -ex "thread apply all bt" 2>/dev/null |
			grep -E "^(Thread|#)"
	fi
	for k in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		stacks "$k"
	done
}

# watchdog SECONDS PID LOG: if PID still runs after SECONDS, append the
# stacks of the test it runs to LOG, before timeout(1) kills it.
watchdog()
{
	local s='' k g

	# TERM can come before s is set (a test that ends at once): with
	# set -u the trap would then print "s: unbound variable" into the
	# runner's own output
	trap '[ -n "$s" ] && kill "$s" 2>/dev/null; exit 0' TERM
	sleep "$1" &
	s=$!
	wait "$s"
	kill -0 "$2" 2>/dev/null || exit 0
	{
		echo "== still running after $1 s: the stacks of every thread"
		# PID is a subshell, its child timeout(1), whose child is
		# the test
		for k in $(ps -o pid= --ppid "$2" 2>/dev/null); do
			for g in $(ps -o pid= --ppid "$k" 2>/dev/null); do
				stacks "$g"
			done
		done
	} >>"$3" 2>&1
}

# run_logged LOG CMD...: run with a time limit, show and keep the output;
# a run that hangs leaves its threads' stacks in the log.
run_logged()
{
	local log=$1 pid tailpid wdpid rc
	shift
	: >"$log"
	# (the subshell's own stderr keeps bash's "Aborted" job notices out)
	(
		timeout -k 10 "$timeout_s" "$@" </dev/null >>"$log" 2>&1
		echo $? >"$log.rc"
	) 2>/dev/null &
	pid=$!
	tail -s 0.1 --pid="$pid" -n +1 -f "$log" &
	tailpid=$!
	watchdog $((timeout_s * 9 / 10 > 1 ? timeout_s * 9 / 10 : 1)) \
		"$pid" "$log" &
	wdpid=$!
	wait "$pid"
	kill "$wdpid" 2>/dev/null
	wait "$wdpid" "$tailpid" 2>/dev/null
	rc=$(cat "$log.rc" 2>/dev/null) || rc=1
	rm -f "$log.rc"
	return "$rc"
}

tally()
{
	total_passed=$((total_passed + $2))
	total_failed=$((total_failed + $3))
	total_skipped=$((total_skipped + $4))
	echo "== $1: $2 passed, $3 failed, $4 skipped"
	echo
}

exit_note()
{
	case $1 in
	124)	echo "timed out after ${timeout_s}s" ;;
	13[0-9]|1[4-9][0-9])
		echo "killed by signal $(($1 - 128)) (sanitizer report or crash?)" ;;
	*)	echo "exit status $1" ;;
	esac
}

# A cmocka binary counts as the tests it ran.  Its summary lines give the
# numbers; if it died before printing them, its OK lines do.
run_unit()
{
	local bin=$1 name=${1##*/} log rc passed failed skipped ran
	log=$(mktemp) || exit 1

	echo "== $name"
	TEST_TMP=$(mktemp -d) || exit 1
	run_logged "$log" "$bin"
	rc=$?
	rm -rf "$TEST_TMP"

	if grep -qE '^\[  PASSED  \] [0-9]+ test' "$log"; then
		passed=$(sum "$log" '^\[  PASSED  \] [0-9]+ test')
		failed=$(sum "$log" '^\[  FAILED  \] [0-9]+ test')
		skipped=$(sum "$log" '^\[  SKIPPED \] [0-9]+ test')
	else
		passed=$(count "$log" '^\[       OK \]')
		skipped=$(count "$log" '^\[  SKIPPED \] [^0-9]')
		ran=$(sum "$log" '^\[=+\] Running [0-9]+ test')
		failed=$((ran - passed - skipped))
	fi
	if [ "$rc" -ne 0 ] && [ "$failed" -le 0 ]; then
		failed=1
	fi
	if [ "$rc" -eq 0 ] && [ $((passed + failed + skipped)) -eq 0 ]; then
		passed=1	# not a cmocka binary, but it succeeded
	fi
	if [ "$failed" -gt 0 ]; then
		failures+=("$name ($(exit_note "$rc"))")
	fi
	tally "$name" "$passed" "$failed" "$skipped"
	rm -f "$log"
}

# A script speaks TAP through t/lib.sh.  It must reach test_done (the
# "1..N" plan) and agree with its own count, or it failed.
run_script()
{
	local script=$1 name=${1##*/} log rc passed failed skipped plan
	local note=
	log=$(mktemp) || exit 1

	echo "== $name"
	TEST_TMP=$(mktemp -d) || exit 1
	run_logged "$log" bash "$script"
	rc=$?

	skipped=$(count "$log" '^ok [0-9]+ # skip')
	passed=$(($(count "$log" '^ok [0-9]+') - skipped))
	failed=$(count "$log" '^not ok [0-9]+')
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$log" | tail -n 1)

	if [ -z "$plan" ]; then
		note="stopped before test_done, $(exit_note "$rc")"
	elif [ "$plan" -ne $((passed + failed + skipped)) ]; then
		note="planned $plan tests but reported $((passed + failed + skipped))"
	elif [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		note=$(exit_note "$rc")
	fi
	if [ -n "$note" ] && [ "$failed" -eq 0 ]; then
		failed=1
	fi
	if [ "$failed" -gt 0 ]; then
		failures+=("$name${note:+ ($note)}")
	fi
	if [ "$failed" -gt 0 ] && [ "${TEST_KEEP_TMP:-}" = 1 ]; then
		echo "(kept $TEST_TMP)"
	else
		rm -rf "$TEST_TMP"
	fi
	tally "$name" "$passed" "$failed" "$skipped"
	rm -f "$log"
}

patterns=()
for arg in "$@"; do
	arg=${arg##*/}
	patterns+=("${arg%.sh}")
done

units=()
for f in "$unit_dir"/test_*; do
	case $f in *.d|*.o) continue ;; esac
	if [ ! -f "$f" ] || [ ! -x "$f" ]; then
		continue
	fi
	# A binary whose source was removed is stale, not a test.
	if [ -z "${RUN_TESTS_UNIT_DIR:-}" ] && [ ! -f "t/unit/${f##*/}.c" ]; then
		continue
	fi
	selected "${f##*/}" && units+=("$f")
done
scripts=()
for f in "$script_dir"/t[0-9][0-9][0-9][0-9]-*.sh; do
	[ -f "$f" ] || continue
	name=${f##*/}
	selected "${name%.sh}" && scripts+=("$f")
done

if [ $((${#units[@]} + ${#scripts[@]})) -eq 0 ]; then
	echo "run-tests: no tests found${*:+ matching: $*}" >&2
	echo "0 passed, 0 failed, 0 skipped"
	exit 1
fi
if [ ${#scripts[@]} -gt 0 ] && [ ! -x "$MEMJOB" ]; then
	echo "run-tests: warning: $MEMJOB is not built; its tests will fail"
fi

start=$(now)
for f in "${units[@]}"; do
	run_unit "$f"
done
for f in "${scripts[@]}"; do
	run_script "$f"
done
end=$(now)

if [ ${#failures[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
awk -v s="$start" -v e="$end" 'BEGIN { printf "total time: %.1f s\n", e - s }'
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$total_failed" -eq 0 ] && [ $((total_passed + total_skipped)) -gt 0 ]
