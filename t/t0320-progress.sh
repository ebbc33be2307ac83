#!/bin/bash
# t0320-progress.sh - the progress line on standard error: shown on a
# terminal (--progress=auto, the default) or always, never otherwise;
# quiet for the first second of a segment; erased when the segment ends;
# never mixed into the report on standard output.  Runs that must show
# a line last 1.7 s or more: two ticks (1.0 and 1.5 s) past the quiet
# second, so one tick delayed by a loaded host still lands.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

ESC=$(printf '\033')
CR=$(printf '\r')

test_lazy_prereq SCRIPT 'script --version'

# lines_of FILE: the progress line's updates, one per line of output.
lines_of()
{
	tr '\r' '\n' <"$1" | sed "s/$ESC\\[K//g" | grep -v '^$'
}

test_expect_success 'always: a line per tick, with share, rate and eta' '
	"$MEMJOB" --progress=always --name=reader --size=32m --kernel=count \
		--runtime=2500ms --time_based >out 2>err &&
	lines_of err >updates &&
	cat updates &&
	test "$(wc -l <updates)" -ge 2 &&
	grep -E "^memjob: reader [0-9]+% [0-9.]+ [kMGT]?B/s \| eta [0-9]+s$" updates &&
	# shares only go up, and it is gone before the report
	sed -E "s/^memjob: reader ([0-9]+)%.*/\1/" updates >shares &&
	sort -n -c shares &&
	test "$(tail -c 4 err | od -An -c | tr -d " ")" = "\\r033[K" &&
	grep "^  reader " out && ! grep -F "$CR" out
'

test_expect_success 'a job that ends by size shows its share of the bytes' '
	"$MEMJOB" --progress=always --name=slow --size=4m --kernel=count \
		--rate=2m >out 2>err &&
	lines_of err >updates &&
	cat updates &&
	grep -E "^memjob: slow [0-9]+% " updates &&
	last=$(tail -n 1 updates | sed -E "s/^memjob: slow ([0-9]+)%.*/\1/") &&
	test "$last" -ge 25 && test "$last" -le 100
'

test_expect_success 'several segments and repeats are numbered' '
	"$MEMJOB" --progress=always --repeat=2 \
		--name=one --size=1m --kernel=count --runtime=1700ms --time_based \
		--name=two --stonewall --size=1m --kernel=count \
		--runtime=1700ms --time_based >out 2>err &&
	lines_of err >updates &&
	cat updates &&
	grep "^memjob: \[1/2 repeat 1/2\] one " updates &&
	grep "^memjob: \[1/2 repeat 2/2\] one " updates &&
	grep "^memjob: \[2/2 repeat 2/2\] two " updates
'

test_expect_success 'runs under a second print nothing' '
	"$MEMJOB" --progress=always --name=quick --size=1m --kernel=count \
		--runtime=300ms --time_based >out 2>err &&
	test ! -s err
'

test_expect_success 'auto (the default) is quiet when stderr is not a terminal' '
	"$MEMJOB" --name=piped --size=1m --kernel=count --runtime=1500ms \
		--time_based >out 2>err &&
	test ! -s err &&
	"$MEMJOB" --progress=auto --name=piped --size=1m --kernel=count \
		--runtime=1500ms --time_based >out 2>err &&
	test ! -s err
'

test_expect_success SCRIPT 'auto shows the line on a terminal; never does not' '
	script -qec "\"$MEMJOB\" --name=tty --size=1m --kernel=count \
		--runtime=1500ms --time_based >out" /dev/null >tty.txt &&
	lines_of tty.txt | grep -E "^memjob: tty [0-9]+%" &&
	script -qec "\"$MEMJOB\" --progress=never --name=tty --size=1m \
		--kernel=count --runtime=1500ms --time_based >out" \
		/dev/null >tty.txt &&
	! grep -F "memjob: tty" tty.txt
'

test_expect_success 'an aggressor that runs until its victims are done has no share' '
	"$MEMJOB" --progress=always \
		--name=v --role=victim --size=1m --kernel=count \
		--runtime=1700ms --time_based \
		--name=a --role=aggressor --size=1m --kernel=count >out 2>err &&
	lines_of err >updates &&
	cat updates &&
	grep -E "^memjob: \[1/2\] v \[alone\] [0-9]+%" updates &&
	grep -E "^memjob: \[2/2\] v \[loaded\] [0-9]+% .*\| a \[loaded\] [0-9.]+ [kMGT]?B/s" updates &&
	! grep -E "\| a \[loaded\] [0-9]+%" updates
'

test_expect_success 'a bad --progress is refused before anything runs' '
	expect_exit 2 "$MEMJOB" --progress=sometimes --name=x --size=1m \
		>out 2>err &&
	grep "option .progress.: expected auto, always or never, got .sometimes." err &&
	test ! -s out
'

test_done
