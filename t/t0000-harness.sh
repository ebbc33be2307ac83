#!/bin/bash
# t0000-harness.sh - the test harness itself: t/lib.sh's helpers, the TAP
# it prints, t/run-tests.sh's tally (the line CI reads) and the
# count_plain oracle.  If these are wrong, every other result is suspect.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

# ---- csv_col / csv_rows ----------------------------------------------------

test_expect_success 'setup: a CSV with quoted fields' '
	write_file sample.csv <<-\EOF
	job,bs,note,gbps
	cold,4k,"mmap, first touch",1.5
	warm,16k,"says ""hi"", twice",12.25
	"last",1m,,0
	EOF
'

test_expect_success 'csv_col finds a column by its header name' '
	test "$(csv_col sample.csv job)" = cold &&
	test "$(csv_col sample.csv gbps)" = 1.5
'

test_expect_success 'csv_col reads the row asked for' '
	test "$(csv_col sample.csv bs 2)" = 16k &&
	test "$(csv_col sample.csv job 3)" = last
'

test_expect_success 'csv_col keeps commas and quotes inside quoted fields' '
	test "$(csv_col sample.csv note 1)" = "mmap, first touch" &&
	test "$(csv_col sample.csv note 2)" = "says \"hi\", twice" &&
	test "$(csv_col sample.csv gbps 2)" = 12.25 &&
	test "$(csv_col sample.csv gbps 3)" = 0
'

test_expect_success 'csv_col gives an empty field as empty' '
	csv_col sample.csv note 3 >actual &&
	echo >expected &&
	test_cmp expected actual
'

test_expect_success 'csv_col fails on an unknown column or a missing row' '
	expect_exit 1 csv_col sample.csv nosuch 2>err &&
	grep "no column \"nosuch\"" err &&
	expect_exit 1 csv_col sample.csv job 4 2>err &&
	grep "no data row 4" err &&
	expect_exit 1 csv_col missing.csv job
'

test_expect_success 'csv_col reads CRLF files' '
	printf "a,b\r\n1,2\r\n" >crlf.csv &&
	test "$(csv_col crlf.csv b)" = 2
'

test_expect_success 'csv_set sets or drops the rows a filter picks, quoting what needs it' '
	csv_set sample.csv gbps 7 job=last >set.csv &&
	test "$(csv_col set.csv gbps 3)" = 7 &&
	test "$(csv_col set.csv gbps 2)" = 12.25 &&
	test "$(csv_col set.csv note 2)" = "says \"hi\", twice" &&
	csv_set sample.csv note "a, \"b\"" >all.csv &&
	test "$(csv_col all.csv note 3)" = "a, \"b\"" &&
	test "$(csv_col all.csv job 3)" = last &&
	csv_set sample.csv - "" job=last >drop.csv &&
	test "$(csv_rows drop.csv)" = 2 &&
	test "$(csv_col drop.csv note 1)" = "mmap, first touch" &&
	expect_exit 1 csv_set sample.csv nosuch 1 2>err &&
	grep "no column \"nosuch\"" err &&
	expect_exit 1 csv_set sample.csv gbps 1 nosuch=1 2>err &&
	grep "no column \"nosuch\"" err
'

test_expect_success 'csv_rows counts data rows, not the header' '
	test "$(csv_rows sample.csv)" = 3 &&
	echo "job,bs" >header-only.csv &&
	test "$(csv_rows header-only.csv)" = 0 &&
	printf "a\n1\n\n" >blank-end.csv &&
	test "$(csv_rows blank-end.csv)" = 1
'

# ---- expect_exit / test_cmp ------------------------------------------------

test_expect_success 'expect_exit passes on the expected status' '
	expect_exit 0 true &&
	expect_exit 1 false &&
	expect_exit 3 sh -c "exit 3"
'

test_expect_success 'expect_exit fails on another status, saying which' '
	if expect_exit 2 sh -c "echo oops >&2; exit 1" 2>err
	then
		echo "expect_exit did not fail"; false
	fi &&
	grep "exited with 1, expected 2" err &&
	grep "oops" err
'

test_expect_success 'expect_exit passes stdout and stderr through' '
	expect_exit 0 sh -c "echo out; echo err >&2" >o 2>e &&
	test "$(cat o)" = out &&
	test "$(cat e)" = err
'

test_expect_success 'test_cmp fails on different files' '
	echo a >one && echo b >two &&
	if test_cmp one two >diff.out; then false; fi &&
	grep "^-a" diff.out && grep "^+b" diff.out &&
	test_cmp one one
'

# ---- the TAP a script prints -----------------------------------------------

test_expect_success 'setup: a script with a passing, failing and skipped test' '
	write_file inner.sh <<-\EOF &&
	. "$SRCDIR/t/lib.sh"
	test_expect_success "good" "true"
	test_expect_success "bad" "echo some-output; expect_exit 0 false"
	test_skip "skipped" "no such hardware"
	test_expect_success NOSUCHPREREQ "needs prereq" "false"
	test_expect_success "middle failure counts" "false; true"
	test_done
	EOF
	mkdir inner-tmp
'

test_expect_success 'a failing test is "not ok", with its output; exit 1' '
	(cd "$SRCDIR" && TEST_TMP="$OLDPWD/inner-tmp" bash "$OLDPWD/inner.sh") \
		>out 2>&1 && exit 1
	grep "^ok 1 - good$" out &&
	grep "^not ok 2 - bad$" out &&
	grep "^    some-output$" out &&
	grep "^    expect_exit: .false. exited with 1, expected 0$" out &&
	grep "^ok 3 # skip skipped (no such hardware)$" out &&
	grep "^ok 4 # skip needs prereq (missing NOSUCHPREREQ)$" out &&
	grep "^not ok 5 - middle failure counts$" out &&
	grep "^1\.\.5$" out &&
	grep "1 passed, 2 failed, 2 skipped" out
'

test_expect_success 'a script with only passing tests exits 0' '
	write_file pass.sh <<-\EOF &&
	. "$SRCDIR/t/lib.sh"
	test_expect_success "one" "true"
	test_done
	EOF
	(cd "$SRCDIR" && TEST_TMP="$OLDPWD/inner-tmp" bash "$OLDPWD/pass.sh") >out &&
	grep "^ok 1 - one$" out
'

test_expect_success 'a lazy prerequisite that fails says why; one that holds runs' '
	write_file lazy.sh <<-\EOF &&
	. "$SRCDIR/t/lib.sh"
	test_lazy_prereq NOPE "echo first; echo the widget is missing; false"
	test_lazy_prereq YES "echo fine"
	test_expect_success NOPE "skipped" "false"
	test_expect_success YES,NOPE "skipped too" "false"
	test_expect_success YES "runs" "true"
	test_done
	EOF
	(cd "$SRCDIR" && TEST_TMP="$OLDPWD/inner-tmp" bash "$OLDPWD/lazy.sh") >out &&
	cat out &&
	grep "^ok 1 # skip skipped (missing NOPE: the widget is missing)$" out &&
	grep "^ok 2 # skip skipped too (missing YES,NOPE: the widget is missing)$" out &&
	grep "^ok 3 - runs$" out
'

test_expect_success 'host_quiet reads /proc/stat and says what it saw when busy' '
	if host_quiet >why; then
		test ! -s why
	else
		grep "^the host is busy: [0-9]*% idle, [0-9]*% stolen" why
	fi
'

test_expect_success 'test_skip_now skips from inside a body, with the reason and the output' '
	write_file skipnow.sh <<-\EOF &&
	. "$SRCDIR/t/lib.sh"
	test_expect_success "measured" "echo figures 42; test_skip_now the host was busy: 42%; false"
	test_expect_success "exit 77 alone is a failure" "exit 77"
	test_done
	EOF
	(cd "$SRCDIR" && TEST_TMP="$OLDPWD/inner-tmp" bash "$OLDPWD/skipnow.sh") >out && exit 1
	cat out &&
	grep "^ok 1 # skip measured (the host was busy: 42%)$" out &&
	grep "^    figures 42$" out &&
	grep "^not ok 2 - exit 77 alone is a failure$" out &&
	grep "0 passed, 1 failed, 1 skipped" out
'

test_expect_success 'binom_tail and binom_limit: the binomial law at STAT_ALPHA' '
	test "$(binom_tail 20 2 0.05)" = 0.264 &&
	test "$(binom_tail 30 8 0.05)" = 8.46e-05 &&
	test "$(binom_tail 4 0 0.3)" = 1 &&
	test "$STAT_ALPHA" = 0.0001 &&
	test "$(binom_limit 30 0.05)" = 8 &&
	test "$(binom_limit 20 0.05)" = 7 &&
	test "$(binom_limit 10 0.01)" = 4 &&
	test "$(binom_limit 4 0.01)" = 3 &&
	STAT_ALPHA=0.5 && test "$(binom_limit 2 0.5)" = 2
'

test_expect_success 'noisy_runs counts the rows the host disturbed by 5% or more' '
	write_file noise.csv <<-\EOF &&
	job,phase,host_steal_pct,host_wait_pct,note
	v,alone,0.000,4.999,"a, b"
	v,alone,5.000,0.000,
	v,loaded,0.000,60.000,
	v,alone,,,
	a,loaded,0.000,90.000,
	EOF
	test "$(noisy_runs noise.csv job=v)" = "2 3 60.0" &&
	test "$(noisy_runs noise.csv job=v phase=alone)" = "1 2 5.0"
'

test_expect_success 'test bodies run in TEST_TMP and do not share variables' '
	write_file vars.sh <<-\EOF &&
	. "$SRCDIR/t/lib.sh"
	test_expect_success "set" "leak=1; test \"\$(pwd)\" = \"\$TEST_TMP\""
	test_expect_success "see" "test -z \"\${leak:-}\""
	test_done
	EOF
	(cd "$SRCDIR" && TEST_TMP="$OLDPWD/inner-tmp" bash "$OLDPWD/vars.sh") >out &&
	grep "^ok 2 - see$" out
'

# ---- t/run-tests.sh --------------------------------------------------------

# A fake cmocka binary (2 passed, 1 failed, 1 skipped), one that dies
# before its summary, and scripts that pass, skip, and stop early.
test_expect_success 'setup: a fake test tree' '
	mkdir -p fake/unit fake/scripts &&
	write_file fake/unit/test_fake <<-\EOF &&
	#!/bin/sh
	echo "[==========] Running 4 test(s)."
	echo "[       OK ] a"
	echo "[       OK ] b"
	echo "[ RUN      ] d"
	echo "skipped: no widget (a tool) here"
	echo "[  SKIPPED ] d"
	echo "[ RUN      ] c"
	echo "[  FAILED  ] c"
	echo "[==========] 4 test(s) run."
	echo "[  PASSED  ] 2 test(s)."
	echo "[  SKIPPED ] 1 test(s), listed below:"
	echo "[  SKIPPED ] d"
	echo "[  FAILED  ] 1 test(s), listed below:"
	echo "[  FAILED  ] c"
	exit 1
	EOF
	write_file fake/unit/test_crash <<-\EOF &&
	#!/bin/sh
	echo "[==========] Running 3 test(s)."
	echo "[       OK ] a"
	kill -ABRT $$
	EOF
	chmod +x fake/unit/test_fake fake/unit/test_crash &&
	write_file fake/scripts/t0001-good.sh <<-\EOF &&
	. t/lib.sh
	test_expect_success "fine" "true"
	test_skip "later" "not here"
	test_skip "nested" "a pool (2 of 128 pages) too small"
	test_done
	EOF
	write_file fake/scripts/t0002-early.sh <<-\EOF
	. t/lib.sh
	test_expect_success "fine" "true"
	exit 0
	EOF
'

test_expect_success 'run-tests.sh tallies cmocka and TAP; closes with one line' '
	RUN_TESTS_UNIT_DIR="$PWD/fake/unit" RUN_TESTS_SCRIPT_DIR="$PWD/fake/scripts" \
		expect_exit 1 bash "$SRCDIR/t/run-tests.sh" >out 2>&1 &&
	tail -n 1 out >last &&
	echo "5 passed, 4 failed, 3 skipped" >expected &&
	test_cmp expected last &&
	grep "^total time: [0-9.]* s$" out &&
	grep "test_crash (killed by signal 6" out &&
	grep "t0002-early.sh (stopped before test_done" out &&
	grep "test_fake (exit status 1)" out &&
	grep "^  test_fake: d (no widget \[a tool\] here)$" out &&
	test "$(grep -c "^  test_fake: d " out)" = 1 &&
	grep -E "^ +1  no widget \[a tool\] here$" out &&
	grep -E "^ +1  a pool \(N of N pages\) too small$" out
'

test_expect_success 'a test that hangs is cut off, leaving its stacks in the log' '
	mkdir -p hang/unit hang/scripts &&
	write_file hang/unit/test_hang <<-\EOF &&
	#!/bin/sh
	echo "[==========] Running 1 test(s)."
	exec sleep 60
	EOF
	chmod +x hang/unit/test_hang &&
	MEMJOB_TEST_TIMEOUT=3 RUN_TESTS_UNIT_DIR="$PWD/hang/unit" \
		RUN_TESTS_SCRIPT_DIR="$PWD/hang/scripts" \
		expect_exit 1 bash "$SRCDIR/t/run-tests.sh" >out 2>&1 &&
	cat out &&
	grep "^== still running after 2 s: the stacks of every thread$" out &&
	grep "^--- process [0-9]*: sleep 60" out &&
	grep "^thread [0-9]* (sleep): state S" out &&
	grep "test_hang (timed out after 3s)" out &&
	tail -n 1 out | grep "^0 passed, 1 failed, 0 skipped$"
'

test_expect_success 'run-tests.sh runs only the tests named' '
	RUN_TESTS_UNIT_DIR="$PWD/fake/unit" RUN_TESTS_SCRIPT_DIR="$PWD/fake/scripts" \
		expect_exit 0 bash "$SRCDIR/t/run-tests.sh" t0001 >out 2>&1 &&
	test "$(tail -n 1 out)" = "1 passed, 0 failed, 2 skipped" &&
	! grep test_fake out &&
	RUN_TESTS_UNIT_DIR="$PWD/fake/unit" RUN_TESTS_SCRIPT_DIR="$PWD/fake/scripts" \
		expect_exit 1 bash "$SRCDIR/t/run-tests.sh" nosuch >out 2>&1 &&
	grep "no tests found matching: nosuch" out
'

# Scripts that note when they start and end (in $SPANS, a file per
# script), and print three lines apart in time; t0103 runs alone.
test_expect_success 'setup: scripts that take a while, one of them alone' '
	mkdir -p par/unit par/scripts spans &&
	for n in 1 2 3 4; do
		{
			if [ $n = 3 ]; then echo "# test: alone, it says so"; fi &&
			echo ". t/lib.sh" &&
			echo "echo \"\$EPOCHREALTIME\" >\"\$SPANS/t010$n.start\"" &&
			echo "test_expect_success \"first of $n\" \"sleep 0.3\"" &&
			echo "test_expect_success \"second of $n\" \"sleep 0.3\"" &&
			echo "test_skip \"third of $n\" \"no widget $n here\"" &&
			echo "echo \"\$EPOCHREALTIME\" >\"\$SPANS/t010$n.end\"" &&
			echo "test_done"
		} >par/scripts/t010$n-par.sh || return 1
	done
'

test_expect_success 'run-tests.sh -j2: side by side, each log whole, the tally exact' '
	SPANS=$PWD/spans RUN_TESTS_UNIT_DIR="$PWD/par/unit" \
		RUN_TESTS_SCRIPT_DIR="$PWD/par/scripts" \
		expect_exit 0 bash "$SRCDIR/t/run-tests.sh" -j2 >out 2>&1 &&
	cat out &&
	test "$(tail -n 1 out)" = "8 passed, 0 failed, 4 skipped" &&
	# every script'"'"'s TAP lines come together, between its two == lines
	for n in 1 2 3 4; do
		s=$(grep -n "^== t010$n-par.sh" out | head -n 1 | cut -d: -f1) &&
		e=$(grep -n "^== t010$n-par.sh: 2 passed, 0 failed, 1 skipped" out | cut -d: -f1) &&
		test -n "$s" && test -n "$e" &&
		test "$(sed -n "$s,${e}p" out | grep -c "^ok [0-9]")" = 3 &&
		test "$(sed -n "$s,${e}p" out | grep -c "^== ")" = 2 || return 1
	done &&
	# two of 1, 2 and 4 overlapped; 3 overlapped none
	overlap() { awk -v a="$(cat spans/$1.start)" -v b="$(cat spans/$1.end)" \
		-v c="$(cat spans/$2.start)" -v d="$(cat spans/$2.end)" \
		"BEGIN { exit !(a < d && c < b) }"; } &&
	{ overlap t0101 t0102 || overlap t0101 t0104 || overlap t0102 t0104; } &&
	for n in 1 2 4; do ! overlap t0103 t010$n || return 1; done &&
	grep "^== run alone, one at a time (speed, or the whole machine.s state): 1$" out &&
	grep "^== run 2 at a time: 3$" out
'

test_expect_success 'run-tests.sh ends with what it skipped and why, and the slowest' '
	sed -n "/^skipped, 4 cases:\$/,\$p" out >tail &&
	grep "^  t0101-par.sh 3: third of 1 (no widget 1 here)$" tail &&
	grep "^skipped, by reason:$" tail &&
	grep -E "^ +4  no widget N here$" tail &&
	grep "^slowest tests (wall seconds; -j 2):$" tail &&
	test "$(sed -n "/^slowest tests/,/^total time/p" tail | grep -cE "^ +[0-9.]+  t010[1-4]-par.sh$")" = 4 &&
	TEST_SLOWEST=2 SPANS=$PWD/spans RUN_TESTS_UNIT_DIR="$PWD/par/unit" \
		RUN_TESTS_SCRIPT_DIR="$PWD/par/scripts" \
		bash "$SRCDIR/t/run-tests.sh" -j 4 t0101 t0102 >out2 2>&1 &&
	test "$(sed -n "/^slowest tests/,/^total time/p" out2 | grep -cE "^ +[0-9.]+  t010")" = 2
'

test_expect_success 'run-tests.sh -j wants a number; make check passes T= and -j on' '
	expect_exit 2 bash "$SRCDIR/t/run-tests.sh" -j0 2>err &&
	grep "wants a number of tests at once, 1 or more; got .0." err &&
	expect_exit 2 bash "$SRCDIR/t/run-tests.sh" -jx 2>err &&
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -n -C "$SRCDIR" check T="t0710 test_value" >cmd &&
	grep "^bash t/run-tests.sh  *t0710 test_value$" cmd &&
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -n -j3 -C "$SRCDIR" check T=t0710 >cmd &&
	grep "^bash t/run-tests.sh -j3 t0710$" cmd
'

# ---- the count_plain oracle ------------------------------------------------

# int32 little-endian: 10, 10, 5, -3, 10, 0, then 2 stray bytes.
test_expect_success 'count_plain counts int32 elements equal to VALUE' '
	printf "\012\0\0\0\012\0\0\0\005\0\0\0\375\377\377\377" >ints &&
	printf "\012\0\0\0\0\0\0\0\012\0" >>ints &&
	test "$("$COUNT_PLAIN" ints)" = 3 &&
	test "$("$COUNT_PLAIN" ints 5)" = 1 &&
	test "$("$COUNT_PLAIN" ints -3)" = 1 &&
	test "$("$COUNT_PLAIN" ints 0)" = 1 &&
	test "$("$COUNT_PLAIN" ints 7)" = 0
'

test_expect_success 'count_plain reads pipes and empty files too' '
	test "$(cat ints | "$COUNT_PLAIN" /dev/stdin)" = 3 &&
	: >empty &&
	test "$("$COUNT_PLAIN" empty)" = 0
'

test_expect_success 'count_plain rejects bad input with status 2 or 1' '
	expect_exit 2 "$COUNT_PLAIN" &&
	expect_exit 2 "$COUNT_PLAIN" ints 2147483648 &&
	expect_exit 2 "$COUNT_PLAIN" ints 12abc &&
	expect_exit 1 "$COUNT_PLAIN" no-such-file
'

test_done
