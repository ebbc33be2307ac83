#!/bin/bash
# t/run-tests.sh - run memjob's test suite and print one closing tally.
#
#     t/run-tests.sh [-j N] [NAME-OR-PATTERN]...
#
# Runs every unit-test binary build/t/test_* (cmocka) and every script
# t/tNNNN-*.sh, each from the top of the tree with MEMJOB, COUNT_PLAIN,
# TOUCH_MEM, LOCKDOWN, SRCDIR and a fresh TEST_TMP in the environment.  Arguments select tests
# by name prefix or glob ("t01", "test_value", "t*-parse*"); paths work
# too.
#
# Up to N tests run at once (-j N, or TEST_JOBS; default: the CPUs this
# process may use).  A script that measures speed runs alone, with
# nothing of the suite beside it: one with a case that takes the TIMING
# prerequisite (t/lib.sh), or one that says "# test: alone, WHY" on a
# line of its own.  Those run first, one at a time, their output shown
# as it comes; the others then share the N slots, longest first by the
# times of the last run, and each one's log is printed whole when it
# ends.  With -j 1 every test streams its output as it runs.
#
# The end of the output: the failures, every case skipped and why (with a
# count per reason: in a sanitizer build that is what the stage left
# out), the 15 slowest tests (TEST_SLOWEST=N for more or fewer), the
# total time, and last "N passed, N failed, N skipped", the line CI
# reads.  The exit status is 1 if anything failed (or nothing ran).
#
# Environment: MEMJOB_TEST_TIMEOUT (seconds per binary or script, default
# 300), TEST_KEEP_TMP=1 (keep a failing script's TEST_TMP), TEST_VERBOSE=1,
# TEST_TIMES=1 (each case's time, t/lib.sh).  RUN_TESTS_UNIT_DIR and
# RUN_TESTS_SCRIPT_DIR point the runner elsewhere (t/t0000-harness.sh
# uses them to test the runner itself); the times of a run are kept in
# build/test-times only when they are unset.
# TEST_EXEC (config.mk's, which make check passes): the command that runs
# this build's programs where this machine cannot (a cross build, under
# qemu-user); the unit tests run under it, MEMJOB, COUNT_PLAIN, TOUCH_MEM
# and LOCKDOWN become wrappers that use it, and the scripts see it as
# TEST_EMULATOR.

set -u

root=$(cd "$(dirname "$0")/.." && pwd) || exit 1
cd "$root" || exit 1

unit_dir=${RUN_TESTS_UNIT_DIR:-build/t}
script_dir=${RUN_TESTS_SCRIPT_DIR:-t}
timeout_s=${MEMJOB_TEST_TIMEOUT:-300}
slowest=${TEST_SLOWEST:-15}
times_file=
if [ -z "${RUN_TESTS_UNIT_DIR:-}${RUN_TESTS_SCRIPT_DIR:-}" ]; then
	times_file=$root/build/test-times
fi

export LC_ALL=C
export SRCDIR=$root
# Absolute, because each test body runs inside its own TEST_TMP.
export MEMJOB=${MEMJOB:-$root/memjob}
export COUNT_PLAIN=${COUNT_PLAIN:-$root/build/t/count_plain}
export TOUCH_MEM=${TOUCH_MEM:-$root/build/t/touch_mem}
export LOCKDOWN=${LOCKDOWN:-$root/build/t/lockdown}
# The same sanitizer settings as CI, unless the caller chose others.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}

export TEST_TMP=

# The command line that runs this build's programs: under TEST_EXEC
# where one is set.
emulated=()
if [ -n "${TEST_EXEC:-}" ]; then
	read -r -a emulated <<<"$TEST_EXEC"
	wrap_dir=$(mktemp -d) || exit 1	# removed with $work, below
	for v in MEMJOB COUNT_PLAIN TOUCH_MEM LOCKDOWN; do
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$TEST_EXEC" "${!v}" \
			>"$wrap_dir/$v"
		chmod +x "$wrap_dir/$v"
		export "$v=$wrap_dir/$v"
	done
	export TEST_EMULATOR=$TEST_EXEC
fi
# the wrappers carry it: a run-tests.sh that a test starts (t0000) runs
# its own fake tests as they are
unset TEST_EXEC

usage()
{
	echo "usage: t/run-tests.sh [-j N] [NAME-OR-PATTERN]..." >&2
	exit 2
}

# ---- choosing the tests ----------------------------------------------------

jobs=${TEST_JOBS:-}
patterns=()
while [ $# -gt 0 ]; do
	case $1 in
	-j)	[ $# -ge 2 ] || usage; jobs=$2; shift ;;
	-j*)	jobs=${1#-j} ;;
	--jobs=*) jobs=${1#--jobs=} ;;
	-*)	usage ;;
	*)	arg=${1##*/}; patterns+=("${arg%.sh}") ;;
	esac
	shift
done
if [ -z "$jobs" ]; then
	jobs=$(nproc 2>/dev/null || echo 1)
fi
case $jobs in
''|*[!0-9]*|0) echo "run-tests: -j wants a number of tests at once, 1 or more; got '$jobs'" >&2
	exit 2 ;;
esac

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

# runs_alone FILE: true if the script FILE measures speed (a TIMING
# case) or says it must run alone ("# test: alone, WHY"; in a unit
# test's source, " * test: alone, WHY" in a comment).
runs_alone()
{
	[ -f "$1" ] &&
	grep -qE '^[[:space:]]*(test_expect_success|test_have_prereq)[[:space:]]+([A-Z0-9_]+,)*TIMING(,|[[:space:]]|$)|^(#|[[:space:]]*/?\*) test: alone' "$1"
}

# sort_in LIST TEST SOURCE: TEST goes to alone if its SOURCE says so
# (runs_alone), else to the array named LIST.
sort_in()
{
	local -n into=$1

	if runs_alone "$3"; then
		alone+=("$2")
	else
		into+=("$2")
	fi
}

units=()
alone=()
shared=()
for f in "$unit_dir"/test_*; do
	case $f in *.d|*.o) continue ;; esac
	if [ ! -f "$f" ] || [ ! -x "$f" ]; then
		continue
	fi
	# A binary whose source was removed is stale, not a test.
	if [ -z "${RUN_TESTS_UNIT_DIR:-}" ] && [ ! -f "t/unit/${f##*/}.c" ]; then
		continue
	fi
	selected "${f##*/}" && sort_in units "$f" "t/unit/${f##*/}.c"
done
for f in "$script_dir"/t[0-9][0-9][0-9][0-9]-*.sh; do
	[ -f "$f" ] || continue
	name=${f##*/}
	selected "${name%.sh}" && sort_in shared "$f" "$f"
done

if [ $((${#units[@]} + ${#alone[@]} + ${#shared[@]})) -eq 0 ]; then
	echo "run-tests: no tests found${patterns[*]:+ matching: ${patterns[*]}}" >&2
	echo "0 passed, 0 failed, 0 skipped"
	exit 1
fi
if [ $((${#alone[@]} + ${#shared[@]})) -gt 0 ] && [ ! -x "$MEMJOB" ]; then
	echo "run-tests: warning: $MEMJOB is not built; its tests will fail"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/memjob-run-tests.XXXXXX") || exit 1
trap 'rm -rf "$work" ${wrap_dir:+"$wrap_dir"}' EXIT

# ---- running one test ------------------------------------------------------

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

# run_logged STREAM LOG CMD...: run with a time limit, keeping the output
# in LOG (and showing it as it comes when STREAM is yes); a run that hangs
# leaves its threads' stacks in the log.
run_logged()
{
	local stream=$1 log=$2 pid tailpid='' wdpid rc
	shift 2
	: >"$log"
	# (the subshell's own stderr keeps bash's "Aborted" job notices out)
	(
		timeout -k 10 "$timeout_s" "$@" </dev/null >>"$log" 2>&1
		echo $? >"$log.rc"
	) 2>/dev/null &
	pid=$!
	if [ "$stream" = yes ]; then
		tail -s 0.1 --pid="$pid" -n +1 -f "$log" &
		tailpid=$!
	fi
	watchdog $((timeout_s * 9 / 10 > 1 ? timeout_s * 9 / 10 : 1)) \
		"$pid" "$log" &
	wdpid=$!
	wait "$pid"
	kill "$wdpid" 2>/dev/null
	wait "$wdpid" $tailpid 2>/dev/null
	rc=$(cat "$log.rc" 2>/dev/null) || rc=1
	rm -f "$log.rc"
	return "$rc"
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
# numbers; if it died before printing them, its OK lines do.  Writes
# "passed failed skipped" and the note on a failure to stdout.
judge_unit()
{
	local log=$1 rc=$2 passed failed skipped ran note=

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
	[ "$failed" -gt 0 ] && note=$(exit_note "$rc")
	echo "$passed $failed $skipped $note"
}

# unit_skips NAME <LOG: one line per case a cmocka binary skipped,
# "NAME: case (reason)", the reason being the last "skipped: ..." line the
# case printed (its parentheses made brackets, so the tally finds it).
unit_skips()
{
	awk -v name="$1" '
	/^\[ RUN      \] / { why = "" }
	/^skipped: / { why = substr($0, 10) }
	/^\[  SKIPPED \] [0-9]+ test/ { summary = 1 }	# the names again
	!summary && /^\[  SKIPPED \] [^0-9]/ {
		t = substr($0, 14)
		if (why == "")
			why = "it printed no reason"
		gsub(/\(/, "[", why); gsub(/\)/, "]", why)
		print name ": " t " (" why ")"
	}'
}

# A script speaks TAP through t/lib.sh.  It must reach test_done (the
# "1..N" plan) and agree with its own count, or it failed.
judge_script()
{
	local log=$1 rc=$2 passed failed skipped plan note=

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
	echo "$passed $failed $skipped $note"
}

# run_one STREAM PATH: run one binary or script; its output goes to
# $work/NAME.log, its result ("passed failed skipped seconds note") to
# $work/NAME.res, its skipped cases to $work/NAME.skips.
run_one()
{
	local stream=$1 path=$2 name=${2##*/} log rc start verdict p f s note
	log=$work/$name.log

	start=$EPOCHREALTIME
	TEST_TMP=$(mktemp -d) || exit 1
	case $path in
	*.sh)	run_logged "$stream" "$log" bash "$path" ;;
	*)	run_logged "$stream" "$log" "${emulated[@]}" "$path" ;;
	esac
	rc=$?
	case $path in
	*.sh)	verdict=$(judge_script "$log" "$rc")
		sed -n "s/^ok \([0-9][0-9]*\) # skip /$name \1: /p" "$log" \
			>"$work/$name.skips" ;;
	*)	verdict=$(judge_unit "$log" "$rc")
		unit_skips "$name" <"$log" | sort -u >"$work/$name.skips" ;;
	esac
	read -r p f s note <<<"$verdict"
	if [ "$f" -gt 0 ] && [ "${TEST_KEEP_TMP:-}" = 1 ] &&
	   [ "${name%.sh}" != "$name" ]; then
		echo "(kept $TEST_TMP)" | tee -a "$log"
	else
		rm -rf "$TEST_TMP"
	fi
	echo "$p $f $s $(awk -v a="$start" -v b="$EPOCHREALTIME" \
		'BEGIN { printf "%.1f", b - a }') $note" >"$work/$name.res.new"
	mv "$work/$name.res.new" "$work/$name.res"
}

# ---- the tally -------------------------------------------------------------

total_passed=0
total_failed=0
total_skipped=0
failures=()

# report NAME SHOWLOG: print a finished test's log (when SHOWLOG is yes)
# and its tally line, and add it to the totals.
report()
{
	local name=$1 p f s secs note

	if [ "$2" = yes ]; then
		echo "== $name"
		cat "$work/$name.log"
	fi
	read -r p f s secs note <"$work/$name.res"
	total_passed=$((total_passed + p))
	total_failed=$((total_failed + f))
	total_skipped=$((total_skipped + s))
	if [ "$f" -gt 0 ]; then
		failures+=("$name${note:+ ($note)}")
	fi
	echo "$secs $name" >>"$work/times"
	echo "== $name: $p passed, $f failed, $s skipped ($secs s)"
	echo
}

# run_streamed PATH: one test with nothing beside it, shown as it runs.
run_streamed()
{
	echo "== ${1##*/}"
	run_one yes "$1"
	report "${1##*/}" no
}

# by_last_time PATH...: the paths, the slowest of the last run first (a
# test not timed yet counts as slow), so that the long ones do not start
# last and hold the run up alone.
by_last_time()
{
	local f

	for f in "$@"; do
		printf '%s\t%s\n' \
			"$(awk -v n="${f##*/}" '$2 == n { t = $1 } END { print t == "" ? 1e9 : t }' \
				"${times_file:-/dev/null}" 2>/dev/null || echo 1e9)" "$f"
	done | sort -t "$(printf '\t')" -k1,1 -g -r -s | cut -f2-
}

# run_pool PATH...: the tests, JOBS at a time, each log printed whole when
# its test ends.
run_pool()
{
	local -A running=()
	local f pid done_pid

	for f in "$@"; do
		while [ ${#running[@]} -ge "$jobs" ]; do
			wait -n -p done_pid "${!running[@]}"
			report "${running[$done_pid]}" yes
			unset "running[$done_pid]"
		done
		run_one no "$f" &
		running[$!]=${f##*/}
	done
	while [ ${#running[@]} -gt 0 ]; do
		wait -n -p done_pid "${!running[@]}"
		report "${running[$done_pid]}" yes
		unset "running[$done_pid]"
	done
}

start=$EPOCHREALTIME
: >"$work/times"
if [ "$jobs" -eq 1 ]; then
	for f in "${units[@]}" "${alone[@]}" "${shared[@]}"; do
		run_streamed "$f"
	done
else
	if [ ${#alone[@]} -gt 0 ]; then
		echo "== run alone, one at a time (speed, or the whole machine's state): ${#alone[@]}"
		echo
	fi
	for f in "${alone[@]}"; do
		run_streamed "$f"
	done
	mapfile -t pool < <(by_last_time "${units[@]}" "${shared[@]}")
	if [ ${#pool[@]} -gt 0 ]; then
		echo "== run $jobs at a time: ${#pool[@]}"
		echo
		run_pool "${pool[@]}"
	fi
fi
end=$EPOCHREALTIME

if [ -n "$times_file" ] && [ -d "${times_file%/*}" ]; then
	# keep the times of tests this run left out
	{ awk 'NR == FNR { seen[$2] = 1; print; next } !($2 in seen)' \
		"$work/times" "$times_file" 2>/dev/null || cat "$work/times"
	} >"$work/times.all" && cp "$work/times.all" "$times_file"
fi

cat "$work"/*.skips >"$work/skips" 2>/dev/null
if [ -s "$work/skips" ]; then
	echo "skipped, $(wc -l <"$work/skips") cases:"
	sed 's/^/  /' "$work/skips"
	echo "skipped, by reason:"
	# the reason: what a missing prerequisite says, or the last (...),
	# which may hold parentheses of its own
	awk '{
		r = $0
		if ((i = index(r, " (missing ")) > 0)
			r = substr(r, i + 2)
		else if (r ~ /\)$/) {
			d = 0
			for (i = length(r); i > 0; i--) {
				c = substr(r, i, 1)
				if (c == ")")
					d++
				else if (c == "(" && --d == 0)
					break
			}
			r = i > 1 && substr(r, i - 1, 1) == " " ? \
				substr(r, i + 1) : "no reason given)"
		} else
			r = "no reason given)"
		sub(/\)$/, "", r)
		gsub(/[0-9]+/, "N", r)
		n[r]++
	} END { for (r in n) printf "%6d  %s\n", n[r], r }' "$work/skips" |
		sort -k1,1nr -k2
fi
if [ ${#failures[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
echo "slowest tests (wall seconds; -j $jobs):"
sort -k1,1gr "$work/times" | head -n "$slowest" |
	awk '{ printf "%8.1f  %s\n", $1, $2 }'
awk -v s="$start" -v e="$end" 'BEGIN { printf "total time: %.1f s\n", e - s }'
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$total_failed" -eq 0 ] && [ $((total_passed + total_skipped)) -gt 0 ]
