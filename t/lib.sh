#!/bin/bash
# t/lib.sh - the helper library every t/tNNNN-*.sh test script sources.
#
# A script is a list of independent tests, git-style:
#
#     #!/bin/bash
#     . t/lib.sh
#     test_expect_success 'count finds every 10' '
#         "$MEMJOB" --kernel=count ... >out.csv &&
#         test "$(csv_col out.csv count)" = "$("$COUNT_PLAIN" data)"
#     '
#     test_skip 'dax on real pmem' 'no DAX device here'
#     test_done
#
# Each test body runs in a subshell with set -e, inside $TEST_TMP (fresh
# per script, removed afterwards by t/run-tests.sh), so a test can create
# files freely and variables it sets do not leak into the next test.
# The output is TAP: "ok N - desc", "not ok N - desc" (followed by the
# failing body and its output, indented), "ok N # skip desc (reason)",
# and a closing "1..N" plan line written by test_done.
#
# Environment (set by t/run-tests.sh; defaults for running a script by
# hand from the top of the tree): MEMJOB, COUNT_PLAIN, LOCKDOWN (runs a
# command with features taken away, t/helpers/lockdown.c), TEST_TMP,
# SRCDIR; TEST_EMULATOR, set when this build's programs run under an
# emulator (a cross build's, under qemu-user).
# TEST_VERBOSE=1 shows every test's output, not only the failing ones';
# TEST_TIMES=1 prints each case's wall time after it ("# time of case").
#
# Tests that measure speed, and tests that must run alone.  t/run-tests.sh
# runs scripts side by side (-j N), so a script must not depend on having
# the machine to itself, unless it says so:
#
#   - A case whose assertion is a measured speed, rate, slowdown or knee
#     takes the TIMING prerequisite:
#         test_expect_success TIMING 'a writer slows the victim' '...'
#     It is skipped, with the reason, in a sanitizer build (which only
#     measures the sanitizer: CI's sanitizer stages list these cases as
#     left out) and on a busy host (host_quiet).  A script with such a
#     case runs alone; nothing more to write.
#   - A script that reads machine-wide state which other tests change
#     (the dirty level, the system's device reads, the hugepage pool) or
#     whose deadlines a neighbour's load could break says so in a comment
#     line of its own, anywhere in the script:
#         # test: alone, the pgpgin it checks is system-wide
#     It then runs alone too, but in every build.  A unit test says it
#     in its source's comment block: " * test: alone, WHY".
#
# A property that holds only on a quiet host is tested once the host has
# been measured quiet (TIMING, QUIET_DISK), never by retrying until green;
# a statistical test states its false-alarm rate and the arithmetic
# (t0770-significance.sh shows how).

SRCDIR=${SRCDIR:-$(pwd)}
MEMJOB=${MEMJOB:-$SRCDIR/memjob}
COUNT_PLAIN=${COUNT_PLAIN:-$SRCDIR/build/t/count_plain}
TOUCH_MEM=${TOUCH_MEM:-$SRCDIR/build/t/touch_mem}
LOCKDOWN=${LOCKDOWN:-$SRCDIR/build/t/lockdown}
export SRCDIR MEMJOB COUNT_PLAIN TOUCH_MEM LOCKDOWN

# lib.sh keeps its own scratch files (test output, captured stderr) out of
# TEST_TMP, so a test that lists TEST_TMP sees only what it made.
test_lib_tmp_=$(mktemp -d "${TMPDIR:-/tmp}/memjob-lib.XXXXXX") || exit 1
test_own_tmp_=

# Run by hand, a script gets a scratch directory of its own.
if [ -z "${TEST_TMP:-}" ]; then
	TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/memjob-test.XXXXXX") || exit 1
	test_own_tmp_=$TEST_TMP
fi
export TEST_TMP

test_cleanup_()
{
	rm -rf "$test_lib_tmp_"
	[ -n "$test_own_tmp_" ] && rm -rf "$test_own_tmp_"
	return 0
}
trap test_cleanup_ EXIT

test_count=0
test_passed=0
test_failed=0
test_skipped=0
test_prereqs=" "
test_lazy_names=" "

# ---- reporting -------------------------------------------------------------

# Indent a file's lines for the "not ok" detail.
test_indent_()
{
	sed 's/^/    /' "$1"
}

test_ok_()
{
	test_passed=$((test_passed + 1))
	echo "ok $test_count - $1"
}

test_not_ok_()
{
	test_failed=$((test_failed + 1))
	echo "not ok $test_count - $1"
}

# ---- prerequisites ---------------------------------------------------------

# test_set_prereq NAME: declare that NAME holds on this machine.
test_set_prereq()
{
	test_prereqs="$test_prereqs$1 "
}

# test_lazy_prereq NAME 'script': NAME holds if script succeeds; it is run
# (in $TEST_TMP, in a subshell) the first time a test asks for NAME.
test_lazy_prereq()
{
	test_lazy_names="$test_lazy_names$1 "
	eval "test_lazy_script_$1=\$2"
}

# test_have_prereq A,B,...: true if every named prerequisite holds.
test_have_prereq()
{
	local p script
	local IFS=,

	for p in $1; do
		case $test_prereqs in *" $p "*) continue ;; esac
		case $test_lazy_names in
		*" $p "*)
			eval "script=\${test_lazy_script_$p}"
			test_lazy_names=${test_lazy_names/ $p / }
			if (IFS=$' \t\n' && cd "$TEST_TMP" &&
			    eval "$script") >"$test_lib_tmp_/prereq" 2>&1
			then
				test_set_prereq "$p"
				continue
			fi
			# the script's last line of output says why
			eval "test_prereq_why_$p=\$(tail -n 1 \"\$test_lib_tmp_/prereq\")"
			;;
		esac
		return 1
	done
	return 0
}

# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq ROOT '[ "$(id -u)" = 0 ]'
# host_quiet: true if, over half a second, the machine was at least 75%
# idle and lost at most 10% to the hypervisor (/proc/stat); otherwise says
# what it saw.  The test runner is serial and sleeps meanwhile, so what is
# busy is someone else.
host_quiet()
{
	local a b
	read -r -a a < <(grep '^cpu ' /proc/stat) || return 1
	sleep 0.5
	read -r -a b < <(grep '^cpu ' /proc/stat) || return 1
	awk -v a="${a[*]}" -v b="${b[*]}" 'BEGIN {
		split(a, x); split(b, y)
		for (i = 2; i <= 9; i++) { d[i] = y[i] - x[i]; t += d[i] }
		if (t <= 0) exit 0
		idle = 100 * (d[5] + d[6]) / t; steal = 100 * d[9] / t
		if (idle >= 75 && steal <= 10) exit 0
		printf "the host is busy: %.0f%% idle, %.0f%% stolen by the hypervisor\n", idle, steal
		exit 1
	}'
}

# A file system with a device under it (not tmpfs): page cache, dirty
# pages and device reads mean something there.
test_lazy_prereq BLOCKDEV '
	! stat -f -c %T . | grep -q tmpfs
'

# Whether memjob may give a run a memory cgroup here (memory_limit=):
# memjob's own answer, whose refusal is the reason a test skips.
# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq MEMCG '
	"$MEMJOB" --parse-only --name=probe --ioengine=mem --size=64k \
		--memory_limit=32m 2>&1 >/dev/null | head -n 1
	test "${PIPESTATUS[0]}" = 0
'

# io_uring, NUMA and perf events as memjob finds them here: where it says
# this machine has none (kernel.io_uring_disabled, a seccomp profile,
# perf_event_paranoid, an emulator such as qemu-user, which has none of
# the three), its words are the reason a test skips; a failure for any
# other reason is a bug, and leaves the tests to fail.
# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq URING '
	"$MEMJOB" --parse-only --name=probe --ioengine=io_uring --size=64k \
		--filename=uring-probe >/dev/null 2>err && exit 0
	! grep -m 1 -o "io_uring is unavailable here: .*" err
'
# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq NUMA '
	"$MEMJOB" --parse-only --name=probe --size=64k --numa_cpu_nodes=0 \
		--numa_mem_policy=bind:0 >/dev/null 2>err && exit 0
	! grep -m 1 -o "NUMA is not available on this machine.*" err
'
# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq PERF '
	"$MEMJOB" --output-format=csv --name=probe --size=64k \
		--perf_events=task-clock >perf-probe.csv || exit 0
	s=$(csv_col perf-probe.csv task_clock_status) || exit 0
	case $s in
	not-supported|denied) echo "perf events: task-clock is $s here"; exit 1 ;;
	esac
'

# JSON is read with jq: a real parser, so "valid" means valid.
test_lazy_prereq JQ '
	command -v jq >/dev/null || { echo "no jq (apt-get install jq)"; exit 1; }
'

# Device reads and writes of the whole machine (pgpgin, pgpgout in
# /proc/vmstat) over one second: QUIET_DISK holds when the others move
# less than 4 MiB/s each way, so a run of well under 0.2 s that a test
# allows a tenth of 64 or 96 MiB from or to the device shows that much
# only when it moved it itself.  Otherwise it says what it saw.
vmstat_kib()
{
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}
# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq QUIET_DISK '
	i=$(vmstat_kib pgpgin) && o=$(vmstat_kib pgpgout) && sleep 1 &&
	i=$(($(vmstat_kib pgpgin) - i)) && o=$(($(vmstat_kib pgpgout) - o)) &&
	if [ "$i" -ge 4096 ] || [ "$o" -ge 4096 ]; then
		echo "the host read $i KiB/s and wrote $o KiB/s on its devices (4096 at most)"
		exit 1
	fi
'

# Not an AddressSanitizer or ThreadSanitizer build: their shadow memory
# reserves terabytes of address space, so that such a build cannot even
# start under an address-space limit (ulimit -v).  A case that needs one
# takes NO_SHADOW; CI's sanitizer stages list it as left out.
# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq NO_SHADOW '
	if "$MEMJOB" --version | grep -qE "sanitizers:[^)]*(address|thread)"; then
		echo "an ASan or TSan build: its shadow memory reserves terabytes of address space"
		exit 1
	fi
'

# Not a ThreadSanitizer build, for what TSan alone makes untestable: its
# shadow and metadata take several times the memory a job maps (a 64 MiB
# job does not fit a 200 MiB memory cgroup), it takes page faults of its
# own beside the job's, and in a child forked from a process with threads
# it defers a signal's handler until its runtime next gets control.  The
# case says which in a comment; CI's TSan stage lists it as left out.
# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq NOT_TSAN '
	if "$MEMJOB" --version | grep -q "sanitizers:[^)]*thread"; then
		echo "a ThreadSanitizer build: its shadow memory, faults and deferred signals"
		exit 1
	fi
'

# Timing and physics (a slowdown, a rate, a knee): a sanitizer build's
# instrumentation distorts them, and so does a busy host; an emulator
# (TEST_EMULATOR, a cross build's tests under qemu-user) times nothing of
# the CPU it pretends to be.
# shellcheck disable=SC2016 # evaluated later, on purpose
test_lazy_prereq TIMING '
	if [ -n "${TEST_EMULATOR:-}" ]; then
		echo "emulated by ${TEST_EMULATOR%% *}: times nothing of the CPU"; exit 1
	fi
	if "$MEMJOB" --version | grep -q "sanitizers:"; then
		echo "a sanitizer build"; exit 1
	fi
	host_quiet
'

# memjob_arch: the CPU architecture memjob was built for ("x86-64",
# "arm64"), from its --version.  A test of one architecture's instructions
# asks this, not uname: a cross build's memjob runs under an emulator on
# a machine of another architecture.
memjob_arch()
{
	"$MEMJOB" --version | sed -n 's/^memjob [^ ]* (\([^,)]*\).*/\1/p'
}

# test_prereq_why A,B,...: ": reason" for the first named prerequisite
# that failed and said why, or nothing.
test_prereq_why()
{
	local p why
	local IFS=,

	for p in $1; do
		eval "why=\${test_prereq_why_$p:-}"
		if [ -n "$why" ]; then
			printf ': %s' "$why"
			return
		fi
	done
}

# ---- tests -----------------------------------------------------------------

# test_expect_success [PREREQ] 'description' 'commands'
test_expect_success()
{
	local prereq='' desc body out rc

	if [ $# -eq 3 ]; then
		prereq=$1
		shift
	fi
	if [ $# -ne 2 ]; then
		echo "bug in the test script: test_expect_success needs" \
		     "[PREREQ] DESCRIPTION COMMANDS, got $# arguments" >&2
		exit 1
	fi
	desc=$1
	body=$2
	test_count=$((test_count + 1))

	if [ -n "$prereq" ] && ! test_have_prereq "$prereq"; then
		test_skipped=$((test_skipped + 1))
		echo "ok $test_count # skip $desc (missing $prereq$(test_prereq_why "$prereq"))"
		return 0
	fi

	out=$test_lib_tmp_/output
	test_case_start_=$EPOCHREALTIME
	(
		cd "$TEST_TMP" || exit 1
		set -e
		eval "$body"
	) >"$out" 2>&1 </dev/null
	rc=$?
	if [ $rc -eq 0 ]; then
		test_ok_ "$desc"
		[ "${TEST_VERBOSE:-}" = 1 ] && test_indent_ "$out"
	elif [ $rc -eq 77 ] && [ -s "$test_lib_tmp_/skip-now" ]; then
		test_skipped=$((test_skipped + 1))
		echo "ok $test_count # skip $desc ($(cat "$test_lib_tmp_/skip-now"))"
		test_indent_ "$out"
		rm -f "$test_lib_tmp_/skip-now"
	else
		test_not_ok_ "$desc"
		echo "    # commands (exit status $rc):"
		printf '%s\n' "$body" | sed -e '/^[[:space:]]*$/d' -e 's/^/    #   /'
		echo "    # output:"
		test_indent_ "$out"
	fi
	test_case_time_
	rm -f "$out"
	return 0
}

# With TEST_TIMES=1, each case's wall time, after its ok/not ok line.
test_case_time_()
{
	[ "${TEST_TIMES:-}" = 1 ] || return 0
	awk -v a="$test_case_start_" -v b="$EPOCHREALTIME" -v n="$test_count" \
		'BEGIN { printf "# time of case %d: %.2f s\n", n, b - a }'
}

# test_skip 'description' 'reason': a test this machine cannot run.
test_skip()
{
	test_count=$((test_count + 1))
	test_skipped=$((test_skipped + 1))
	echo "ok $test_count # skip $1 (${2:-no reason given})"
}

# test_skip_now 'reason': inside a test body, end the test as skipped,
# for a reason found while it ran (the noise a measurement showed), said
# with the figures; its output so far is shown under the skip line.
test_skip_now()
{
	printf '%s\n' "$*" >"$test_lib_tmp_/skip-now"
	exit 77
}

# test_done: print the plan and a summary; exit 1 if any test failed.
test_done()
{
	echo "1..$test_count"
	echo "# ${0##*/}: $test_passed passed, $test_failed failed," \
	     "$test_skipped skipped"
	[ $test_failed -eq 0 ]
	exit
}

# ---- helpers for test bodies -----------------------------------------------

# The awk function both CSV helpers use: split one CSV line into f[1..n]
# (quotes and "" escapes as RFC 4180, a trailing \r dropped); returns n.
CSV_SPLIT_AWK='
	function split_csv(line, f,    n, i, c, field, inq) {
		n = 0; field = ""; inq = 0
		sub(/\r$/, "", line)
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (inq) {
				if (c == "\"") {
					if (substr(line, i + 1, 1) == "\"") {
						field = field "\""; i++
					} else {
						inq = 0
					}
				} else {
					field = field c
				}
			} else if (c == "\"") {
				inq = 1
			} else if (c == ",") {
				f[++n] = field; field = ""
			} else {
				field = field c
			}
		}
		f[++n] = field
		return n
	}
'

# csv_col FILE COLNAME [ROW]: the value of column COLNAME (found by its
# header name) in data row ROW (1 = first row after the header).  Fields
# may be quoted with "..." (with "" for a quote inside); quotes are removed.
# Fails, saying why, if the file, column or row does not exist.
csv_col()
{
	[ -r "$1" ] || { echo "csv_col: cannot read '$1'" >&2; return 1; }
	awk -v col="$2" -v row="${3:-1}" '
	'"$CSV_SPLIT_AWK"'
	NR == 1 {
		n = split_csv($0, h)
		for (i = 1; i <= n; i++)
			if (h[i] == col)
				idx = i
		if (!idx) {
			printf "csv_col: no column \"%s\" in %s\n", col,
			       FILENAME > "/dev/stderr"
			bad = 1
			exit 1
		}
		next
	}
	NR == row + 1 {
		split_csv($0, f)
		print f[idx]
		found = 1
		exit 0
	}
	END {
		if (!found && !bad) {
			printf "csv_col: %s has no data row %s\n", FILENAME,
			       row > "/dev/stderr"
			exit 1
		}
	}' "$1"
}

# csv_rows FILE: the number of data rows (non-empty lines after the header).
csv_rows()
{
	[ -r "$1" ] || { echo "csv_rows: cannot read '$1'" >&2; return 1; }
	awk 'NR > 1 && !/^[[:space:]]*$/ { n++ } END { print n + 0 }' "$1"
}

# The awk functions csv_get and csv_set pick rows with: csv_pick_init
# indexes a header line (idx[NAME]; a name the header says twice is NAME
# the first time, NAME#2 the second) and the filters "NAME=VALUE ..."
# (fname[k], fval[k], nf of them), and returns 1 after saying which
# column is missing; csv_has says so of one column; csv_picked tells
# whether a row split into r holds every filter's value.
CSV_PICK_AWK='
	function csv_has(who, name) {
		if (name in idx)
			return 1
		printf "%s: no column \"%s\"\n", who, name > "/dev/stderr"
		return 0
	}
	function csv_pick_init(who, line, filters,    n, i, k, eq, name, h, dup, fl) {
		n = split_csv(line, h)
		for (i = 1; i <= n; i++) {
			name = h[i]
			if (name in idx)
				name = name "#" (++dup[h[i]] + 1)
			idx[name] = i
		}
		nf = split(filters, fl, " ")
		for (k = 1; k <= nf; k++) {
			eq = index(fl[k], "=")
			fname[k] = substr(fl[k], 1, eq - 1)
			fval[k] = substr(fl[k], eq + 1)
			if (!csv_has(who, fname[k]))
				return 1
		}
		return 0
	}
	function csv_picked(r,    k) {
		for (k = 1; k <= nf; k++)
			if (r[idx[fname[k]]] != fval[k])
				return 0
		return 1
	}
'

# csv_get FILE COL [NAME=VALUE...]: COL of every data row whose columns
# NAME hold VALUE, one per line, in row order.  Should a header say a
# name twice, NAME is the first such column and NAME#2 the second.
csv_get()
{
	local f=$1 col=$2

	shift 2
	[ -r "$f" ] || { echo "csv_get: cannot read '$f'" >&2; return 1; }
	awk -v col="$col" -v filters="$*" '
'"$CSV_SPLIT_AWK$CSV_PICK_AWK"'
	NR == 1 {
		if (csv_pick_init("csv_get", $0, filters) ||
		    !csv_has("csv_get", col))
			exit 1
		next
	}
	/^[[:space:]]*$/ { next }
	{
		split_csv($0, r)
		if (csv_picked(r))
			print r[idx[col]]
	}' "$f"
}

# csv_set FILE COL VALUE [NAME=VALUE...]: the CSV with COL set to VALUE
# in every data row whose columns NAME hold VALUE (all rows without a
# filter); fields are split as csv_col does, and a field that holds a
# comma, a quote or a line end is written back quoted.  COL=- instead
# drops those rows.  To standard output.
csv_set()
{
	local f=$1 col=$2 val=$3

	shift 3
	[ -r "$f" ] || { echo "csv_set: cannot read '$f'" >&2; return 1; }
	awk -v col="$col" -v val="$val" -v filters="$*" '
'"$CSV_SPLIT_AWK$CSV_PICK_AWK"'
	function quote(s) {
		if (s !~ /[",\r\n]/)
			return s
		gsub(/"/, "\"\"", s)
		return "\"" s "\""
	}
	NR == 1 {
		if (csv_pick_init("csv_set", $0, filters) ||
		    (col != "-" && !csv_has("csv_set", col)))
			exit 1
		print
		next
	}
	{
		m = split_csv($0, r)
		if (!csv_picked(r)) {
			print
			next
		}
		if (col == "-")
			next
		r[idx[col]] = val
		line = quote(r[1])
		for (i = 2; i <= m; i++)
			line = line "," quote(r[i])
		print line
	}' "$f"
}

# lines FILE COL [FILTER...]: csv_get's values joined by spaces.
lines()
{
	local v
	v=$(csv_get "$@") || return 1
	printf "%s\n" "${v//$'\n'/ }"
}

# csv_cells FILE: "row<TAB>column<TAB>value" for every field of the CSV.
csv_cells()
{
	awk "$CSV_SPLIT_AWK"'
	NR == 1 { n = split_csv($0, h); next }
	/^[[:space:]]*$/ { next }
	{
		split_csv($0, f); r++
		for (i = 1; i <= n; i++)
			printf "%d\t%s\t%s\n", r, h[i], f[i]
	}' "$1"
}

# json_cells FILE ARRAY: the same for the objects of ARRAY (a jq path such
# as .results), null as an empty value.
json_cells()
{
	jq -r "$2"' | to_entries[] | (.key + 1) as $r | .value | to_entries[] |
		[($r | tostring), .key, (.value // "" | tostring)] | @tsv' "$1"
}

# same_table CSV JSON ARRAY: the CSV's rows and ARRAY's objects hold the
# same cells: the same columns in every row, text equal, numbers equal as
# numbers ("0.500000" is 0.5).  Says where they differ.
same_table()
{
	csv_cells "$1" >csv.cells &&
	json_cells "$2" "$3" >json.cells &&
	awk -F'\t' '
	function num(v) { return v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
	NR == FNR { want[$1 "\t" $2] = $3; n++; next }
	{
		k = $1 "\t" $2; got++
		if (!(k in want)) { printf "row %s: %s is not a CSV column\n", $1, $2; bad = 1; next }
		w = want[k]; delete want[k]
		if (num(w) && num($3) ? w + 0 != $3 + 0 : w != $3) {
			printf "row %s, %s: CSV \"%s\", JSON \"%s\"\n", $1, $2, w, $3
			bad = 1
		}
	}
	END {
		for (k in want) { split(k, p, "\t"); printf "row %s: column %s is not in the JSON\n", p[1], p[2]; bad = 1 }
		if (!n) { print "no CSV cells"; bad = 1 }
		printf "%d CSV cells, %d JSON cells\n", n, got
		exit bad
	}' csv.cells json.cells
}

# near A B TOL: |A - B| <= TOL, saying so when not.
near()
{
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		if (a == "" || b == "" || d > t) {
			printf "near: %s and %s differ by more than %s\n", a, b, t
			exit 1
		}
	}'
}

# poll_proc_ PID WHAT CHECK [ARGS...]: run CHECK ARGS every 25 ms, for at
# most 20 s, until it holds; fails, saying so, when process PID ends first
# or the time runs out (WHAT says what was awaited).
poll_proc_()
{
	local pid=$1 what=$2

	shift 2
	for _ in $(seq 800); do
		"$@" && return 0
		kill -0 "$pid" 2>/dev/null || { echo "$pid ended before $what"; return 1; }
		sleep 0.025
	done
	echo "$pid: no $what in 20 s"
	return 1
}

# holds_open_ PID NAME: PID has a file whose path ends in /NAME open.
holds_open_()
{
	local fd

	for fd in /proc/"$1"/fd/*; do
		case $(readlink "$fd" 2>/dev/null) in
		*/"$2") return 0 ;;
		esac
	done
	return 1
}

# sleeps_in_ PID FUNCS: a thread of PID sleeps in a kernel function whose
# name holds one of FUNCS ("a|b").
sleeps_in_()
{
	local t f seen=

	for t in /proc/"$1"/task/*; do
		seen="$seen $(cat "$t/wchan" 2>/dev/null)"
	done
	for f in ${2//|/ }; do
		case $seen in
		*"$f"*) return 0 ;;
		esac
	done
	return 1
}

# until_open PID NAME: wait (at most 20 s) until process PID holds a file
# whose path ends in /NAME open (its /proc/PID/fd): for a job that will
# block on that file and so never shows data moved.
until_open()
{
	poll_proc_ "$1" "an open $2" holds_open_ "$1" "$2"
}

# until_waiting PID FUNCS [WHAT]: wait (at most 20 s) until a thread of
# process PID sleeps in a kernel function whose name holds one of FUNCS
# ("a|b"; its /proc/PID/task/*/wchan): io_cqring_wait once an io_uring
# job has submitted and waits for completions, wait_for_partner in the
# open of a FIFO nobody writes; WHAT names it in the message.
until_waiting()
{
	poll_proc_ "$1" "${3:-$2}" sleeps_in_ "$1" "$2" ||
		{ echo "(its threads' wchan:$(for t in /proc/"$1"/task/*; do
			printf ' %s' "$(cat "$t/wchan" 2>/dev/null)"; done))"; return 1; }
}

# until_reading PID: until_waiting for a read of a pipe or FIFO: a job
# file read from a pipe that nothing writes yet.
until_reading()
{
	until_waiting "$1" pipe_read "blocking on a pipe read"
}

# interrupt_moving SIG SAMPLES memjob args...: run memjob in the
# background, send it SIG once its time series SAMPLES (it must write one:
# --sample_interval) shows data moved (until_moving), wait for it; returns
# its exit status, or 124 when it never moved data.
interrupt_moving()
{
	local sig=$1 pid rc
	samples=$2
	shift 2
	rm -f "$samples"
	"$@" &
	pid=$!
	until_moving "$pid" || return 124
	kill -"$sig" "$pid"
	wait "$pid" && rc=0 || rc=$?
	return "$rc"
}

# new_samples: a fresh path in $samples ($TEST_TMP/samples.N.csv, N the
# case's number) for a background memjob's time series: run it with
# --sample_interval=20ms --sample_log="$samples", then until_moving.
new_samples()
{
	samples=$TEST_TMP/samples.$test_count.csv
	rm -f "$samples"
}

# until_moving PID [ERRFILE]: wait (at most 20 s) until memjob PID, run
# as new_samples says, is in its timed loop and has moved data: a row of its
# time series with job_bytes above 0.  A fixed sleep before a fault is not
# enough where starting is slow (a sanitizer build, a loaded machine):
# the fault then comes before the job has even opened its file.  On
# failure it says why, with ERRFILE (memjob's stderr) when given, and a
# job still running is killed.
until_moving()
{
	local pid=$1 errf=${2:-}

	for _ in $(seq 800); do
		[ -s "$samples" ] &&
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "job_bytes") c = i; next }
			c && $c + 0 > 0 { found = 1; exit } END { exit !found }' \
			"$samples" && return 0
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "the job ended before it moved data"
			[ -z "$errf" ] || cat "$errf"
			return 1
		fi
		sleep 0.025
	done
	echo "the job never started moving data; killed"
	kill -KILL "$pid"
	wait "$pid"
	return 1
}

# ends_within SECONDS PID: wait for the background job PID, at most
# SECONDS; returns its exit status.  One still running then is killed
# (SIGKILL), and it returns 124 after saying so.
ends_within()
{
	local secs=$1 pid=$2 rc

	for _ in $(seq $((secs * 20))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "still running after $secs s"
		kill -KILL "$pid"
		wait "$pid"
		return 124
	fi
	wait "$pid" && rc=0 || rc=$?
	return "$rc"
}

# stop_within SECONDS SIG PID: send SIG to the background job PID and wait
# for it, at most SECONDS (ends_within).
stop_within()
{
	kill -"$2" "$3"
	ends_within "$1" "$3"
}

# strace_ ARGS...: strace with LeakSanitizer off, which cannot run
# under ptrace (under an ASan build it would abort memjob at exit).
strace_()
{
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}

# expect_exit CODE cmd args...: run the command; fail unless it exits with
# CODE.  Its stdout passes through; its stderr is passed on too, and shown
# with the actual status when the status is wrong.
expect_exit()
{
	local want=$1 rc errf
	shift
	errf=$(mktemp "$test_lib_tmp_/stderr.XXXXXX") || return 1
	# Not "cmd; rc=$?": under the set -e of a test body that would end
	# the test at the command's failure, before we compare.
	"$@" 2>"$errf" && rc=0 || rc=$?
	cat "$errf" >&2
	if [ "$rc" != "$want" ]; then
		echo "expect_exit: '$*' exited with $rc, expected $want" >&2
		if [ -s "$errf" ]; then
			echo "expect_exit: its stderr was:" >&2
			sed 's/^/    /' "$errf" >&2
		fi
		rm -f "$errf"
		return 1
	fi
	rm -f "$errf"
	return 0
}

# ---- statistical tests ------------------------------------------------------
#
# A test fed by measurements that counts outcomes over N runs (false
# alarms of a 95% interval, an effect found or missed) fails only when the
# count is one that a correct program gives at most once in 10,000 CI runs
# (STAT_ALPHA), from the binomial law at the rate a correct program has;
# the script says the rate and the arithmetic in a comment.  Never retry
# until green: where the host's noise makes the count mean nothing,
# measure the noise and skip with it (noisy_runs, test_skip_now).
STAT_ALPHA=0.0001

# binom_tail N K P: P(X >= K) for X ~ Binomial(N, P).
binom_tail()
{
	awk -v n="$1" -v k="$2" -v p="$3" 'BEGIN {
		t = 0
		for (i = k; i <= n; i++) {
			c = 1
			for (j = 1; j <= i; j++) c = c * (n - i + j) / j
			t += c * p ^ i * (1 - p) ^ (n - i)
		}
		printf "%.3g\n", t
	}'
}

# binom_limit N P: the smallest K with P(X >= K) <= STAT_ALPHA, X ~
# Binomial(N, P): a count of K or more fails the test.
binom_limit()
{
	awk -v n="$1" -v p="$2" -v a="$STAT_ALPHA" 'BEGIN {
		for (k = 0; k <= n + 1; k++) {
			t = 0
			for (i = k; i <= n; i++) {
				c = 1
				for (j = 1; j <= i; j++) c = c * (n - i + j) / j
				t += c * p ^ i * (1 - p) ^ (n - i)
			}
			if (t <= a) { print k; exit }
		}
	}'
}

# noisy_runs CSV [NAME=VALUE...]: "D N W": of the N rows (csv_get's
# filter) whose host noise was read, D lost 5% or more of their time to
# other tasks on their CPUs (host_wait_pct) or to the hypervisor
# (host_steal_pct); W is the largest such share seen.  A timing that the
# host disturbed says more about the host than about memjob.
noisy_runs()
{
	local f=$1
	shift
	paste -d' ' <(csv_get "$f" host_wait_pct "$@") \
		<(csv_get "$f" host_steal_pct "$@") |
	awk '{
		w = ($1 == "" ? 0 : $1); s = ($2 == "" ? 0 : $2)
		if ($1 == "" && $2 == "") next
		n++; m = w > s ? w : s
		if (m > max) max = m
		if (m >= 5) d++
	} END { printf "%d %d %.1f\n", d, n, max }'
}

# skip_if_noisy FILE [LOG]: FILE holds noisy_runs lines, one per run of a
# batch; says their sum (also appended to LOG), and ends the test as
# skipped (test_skip_now) when the host disturbed more than one run in
# 10: its noise, not memjob, would then decide the count.
skip_if_noisy()
{
	local d n w line

	read -r d n w < <(awk '{ d += $1; n += $2; if ($3 > w) w = $3 }
		END { printf "%d %d %.1f\n", d, n, w }' "$1")
	line="host noise: $d of $n runs lost 5% or more of their time to other tasks or the hypervisor (at most $w%)"
	echo "$line"
	[ -z "${2:-}" ] || echo "$line" >>"$2"
	if [ $((d * 10)) -gt "$n" ]; then
		test_skip_now "the host disturbed $d of $n runs, by up to $w% of their time: its noise, not memjob, would decide"
	fi
}

# test_cmp EXPECTED ACTUAL: fail, showing the diff, unless they are equal.
test_cmp()
{
	diff -u "$1" "$2"
}

# write_file PATH <<EOF: write standard input to PATH (creating its dir).
write_file()
{
	mkdir -p "$(dirname "$1")" && cat >"$1"
}

test_path_is_file()
{
	[ -f "$1" ] || { echo "expected a file at '$1'" >&2; return 1; }
}

test_path_is_missing()
{
	[ ! -e "$1" ] || { echo "expected nothing at '$1'" >&2; return 1; }
}
