#!/bin/bash
# t0910-broken-cmdline.sh - the catalogue of broken command lines: each is
# refused with exit status 2 and an error "command line:N: option 'x': ..."
# where N is the argument's position (argv[N]), before any job starts:
# nothing on stdout, nothing created or changed in the working directory.
# See t/broken/helpers.sh for refuses, error_at and errors_are.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

GOOD=$TEST_TMP/good.ini
COUNT=$TEST_TMP/count.ini
IODEPTH=$TEST_TMP/iodepth.ini
export GOOD COUNT IODEPTH

test_expect_success 'setup: job files outside the working directory' '
	write_file "$GOOD" <<-\EOF &&
	[ok]
	size=64k
	EOF
	write_file "$COUNT" <<-\EOF &&
	[c]
	size=64k
	kernel=count
	EOF
	write_file "$IODEPTH" <<-\EOF
	[c]
	filename=data-16k
	iodepth=4
	EOF
'

# The refusals below must come from the argument under test: the same
# files and options without it run.
test_expect_success 'the files and options used below are good on their own' '
	in_fresh_dir control &&
	"$MEMJOB" "$GOOD" >out && grep "^memjob " out &&
	"$MEMJOB" --parse-only "$COUNT" &&
	make_file data-16k 16384 &&
	"$MEMJOB" --dump --ioengine=io_uring "$IODEPTH" >/dev/null &&
	"$MEMJOB" --parse-only --name=j --size=64k --bs=4k &&
	"$MEMJOB" --parse-only --bs=4k "$GOOD" &&
	"$MEMJOB" --parse-only --section=ok "$GOOD"
'

# ---- job options -----------------------------------------------------------

test_expect_success 'c01 --bs=12q is reported at its position (4)' '
	in_fresh_dir c01 &&
	refuses --output-format=csv --name=j --size=64k --bs=12q &&
	error_at "command line:4" bs "expected a size" "got ${SQ}12q${SQ}" &&
	errors_are 1 &&
	stderr_has "1 error; nothing was run"
'

test_expect_success 'c02 --bss=4k: did you mean --bs' '
	in_fresh_dir c02 &&
	refuses --bss=4k "$GOOD" &&
	error_at "command line:1" - "unknown option ${SQ}--bss${SQ}" \
		"did you mean ${SQ}--bs${SQ}" &&
	errors_are 1
'

test_expect_success 'c03 a far-off --option gets no suggestion' '
	in_fresh_dir c03 &&
	refuses "$GOOD" --zzzqqqxx=1 &&
	error_at "command line:2" - "unknown option ${SQ}--zzzqqqxx${SQ}" &&
	stderr_lacks "did you mean" &&
	errors_are 1
'

test_expect_success 'c04 -x: a single dash is not an option' '
	in_fresh_dir c04 &&
	refuses -x "$GOOD" &&
	error_at "command line:1" - "unknown option ${SQ}-x${SQ}" &&
	errors_are 1
'

test_expect_success 'c05 --name= (empty)' '
	in_fresh_dir c05 &&
	refuses --name= --size=64k &&
	error_at "command line:1" name "--name=NAME" &&
	errors_are 1
'

test_expect_success 'c06 --name=a,b: a comma in a job name, quoted back' '
	in_fresh_dir c06 &&
	refuses --name=a,b --size=64k &&
	error_at "command line:1" name "a,b" &&
	errors_are 1
'

test_expect_success 'c07 --name=j twice' '
	in_fresh_dir c07 &&
	refuses --name=j --size=64k --name=j --size=64k &&
	error_at "command line:3" - "job ${SQ}j${SQ} is defined twice" \
		"first at command line:1" &&
	errors_are 1
'

test_expect_success 'c08 --name=j without size (at --name)' '
	in_fresh_dir c08 &&
	refuses --output-format=csv --name=j --kernel=sum &&
	error_at "command line:2" size "needs size" &&
	errors_are 1
'

# ---- options that need a value, given bare --------------------------------

test_expect_success 'c09 --bs with no value' '
	in_fresh_dir c09 &&
	refuses --name=j --size=64k --bs &&
	error_at "command line:3" bs "needs a value" &&
	errors_are 1
'

test_expect_success 'c10 --name with no value' '
	in_fresh_dir c10 &&
	refuses --name --size=64k &&
	error_at "command line:1" name "--name=NAME" &&
	errors_are 1
'

test_expect_success 'c11 --output, --output-format and --section with no value' '
	in_fresh_dir c11 &&
	refuses --output "$GOOD" --output-format --section &&
	error_at "command line:1" output "--output=FILE" &&
	error_at "command line:3" output-format "normal" "csv" &&
	error_at "command line:4" section "--section=NAME" &&
	errors_are 3 &&
	stderr_has "3 errors; nothing was run"
'

test_expect_success 'c12 --parse-only=1: a flag given a value' '
	in_fresh_dir c12 &&
	refuses --parse-only=1 "$GOOD" &&
	error_at "command line:1" parse-only "1" &&
	stderr_lacks "did you mean ${SQ}--parse-only${SQ}" &&
	errors_are 1
'

# ---- program options -------------------------------------------------------

test_expect_success 'c13 --output-format=xml' '
	in_fresh_dir c13 &&
	refuses --output-format=xml "$GOOD" &&
	error_at "command line:1" output-format "normal" "csv" \
		"got ${SQ}xml${SQ}" &&
	errors_are 1
'

test_expect_success 'c14 --output-format=normal,xml: one bad word in the list' '
	in_fresh_dir c14 &&
	refuses --output-format=normal,xml "$GOOD" &&
	error_at "command line:1" output-format "xml" &&
	errors_are 1
'

test_expect_success 'c15 --section=nosuch with a valid file' '
	in_fresh_dir c15 &&
	refuses "$GOOD" --section=nosuch &&
	error_at "command line:2" section "${SQ}nosuch${SQ}" &&
	errors_are 1
'

test_expect_success 'c16 --section=nosuch with a command-line job' '
	in_fresh_dir c16 &&
	refuses --name=j --size=64k --section=nosuch &&
	error_at "command line:3" section "${SQ}nosuch${SQ}" &&
	errors_are 1
'

test_expect_success 'c17 --cmdhelp=nosuch' '
	in_fresh_dir c17 &&
	refuses --cmdhelp=nosuch &&
	error_at "command line:1" cmdhelp "${SQ}nosuch${SQ}" &&
	errors_are 1
'

test_expect_success 'c18 a job file that does not exist' '
	in_fresh_dir c18 &&
	refuses "$GOOD" no-such-job-file.ini &&
	error_at "command line:2" - "${SQ}no-such-job-file.ini${SQ}" \
		"No such file or directory" &&
	errors_are 1
'

test_expect_success 'c19 no jobs at all' '
	in_fresh_dir c19 &&
	refuses &&
	stderr_has "no jobs to run"
'

# ---- --output --------------------------------------------------------------

test_expect_success 'c20 --output into a missing directory: exit 2, nothing run' '
	in_fresh_dir c20 &&
	refuses --output=/nonexistent/dir/x --name=w --ioengine=psync \
		--rw=write --size=64k --filename=t0910-would-be-made &&
	stderr_has "/nonexistent/dir/x" &&
	stderr_has "No such file or directory" &&
	stderr_has "nothing was run"
'

test_expect_success 'c21 --output into a missing directory names its argument' '
	in_fresh_dir c21 &&
	refuses --name=j --size=64k --output=/nonexistent/dir/x &&
	error_at "command line:3" output "/nonexistent/dir/x" \
		"No such file or directory" &&
	errors_are 1
'

test_expect_success 'c22 --output=FILE with a broken job: FILE is not created' '
	in_fresh_dir c22 &&
	refuses --output=report.txt "$BROKEN/72-create-then-fail.ini" &&
	test_path_is_missing report.txt &&
	test_path_is_missing t0900-made-by-memjob &&
	error_at "$BROKEN/72-create-then-fail.ini:11" filename "no-such-dir"
'

test_expect_success 'c23 --output=FILE with a broken job: an existing FILE stays' '
	in_fresh_dir c23 &&
	echo "last week${SQ}s results" >report.txt &&
	refuses --output=report.txt --name=j --size=64k --bs=0 &&
	test "$(cat report.txt)" = "last week${SQ}s results" &&
	error_at "command line:4" bs "got 0"
'

# ---- options before --name: overrides for every job ------------------------

test_expect_success 'c24 a bad override before a file: --bs=12q' '
	in_fresh_dir c24 &&
	refuses --bs=12q "$GOOD" &&
	error_at "command line:1" bs "got ${SQ}12q${SQ}" &&
	errors_are 1
'

test_expect_success 'c25 an override wrong for the file${SQ}s job: --bs=6, count' '
	in_fresh_dir c25 &&
	refuses --bs=6 "$COUNT" &&
	error_at "command line:1" bs "multiple of 4" "got 6" &&
	errors_are 1
'

test_expect_success 'c26 an override that makes a file${SQ}s line wrong' '
	in_fresh_dir c26 &&
	make_file data-16k 16384 &&
	refuses --ioengine=psync "$IODEPTH" &&
	error_at "$IODEPTH:3" iodepth "io_uring" &&
	errors_are 1
'

test_expect_success 'c27 an override before --name is checked at its place' '
	in_fresh_dir c27 &&
	refuses --size=64k --bs=0 --name=j &&
	error_at "command line:2" bs "must be between 1 and 1g" "got 0" &&
	grep -x "command line:2: option .bs.: must be between 1 and 1g, got 0" "$ERR" &&
	errors_are 1
'

# ---- several errors, other ways in -----------------------------------------

test_expect_success 'c28 three bad arguments: each at its position, "3 errors"' '
	in_fresh_dir c28 &&
	refuses --name=j --size=12q --bs=0 --rw=reed &&
	error_at "command line:2" size "got ${SQ}12q${SQ}" &&
	error_at "command line:3" bs "got 0" &&
	error_at "command line:4" rw "got ${SQ}reed${SQ}" &&
	errors_are 3 &&
	stderr_has "3 errors; nothing was run"
'

test_expect_success 'c29 errors in the command line and a file, all reported' '
	in_fresh_dir c29 &&
	f=$BROKEN/68-three-errors.ini &&
	refuses --output-format=xml "$f" &&
	error_at "command line:1" output-format "xml" &&
	error_at "$f:4" bs "got ${SQ}12q${SQ}" &&
	error_at "$f:5" rw "got ${SQ}reed${SQ}" &&
	error_at "$f:6" numjobs "got 0" &&
	errors_are 4 &&
	stderr_has "4 errors; nothing was run"
'

test_expect_success 'c30 a broken job file on standard input (-)' '
	in_fresh_dir c30 &&
	refuses - <"$BROKEN/07-size-bad-suffix.ini" &&
	error_at "<stdin>:4" bs "got ${SQ}12q${SQ}" &&
	errors_are 1
'

test_expect_success 'c31 --dump of a broken file prints no jobs' '
	in_fresh_dir c31 &&
	refuses --dump "$BROKEN/18-enum-reed.ini" &&
	error_at "$BROKEN/18-enum-reed.ini:4" rw "got ${SQ}reed${SQ}"
'

test_expect_success 'c32 --parse-only of a broken file leaves the user file alone' '
	in_fresh_dir c32 &&
	echo "mine" >user-file &&
	refuses --parse-only "$BROKEN/49-overwrite-user-file.ini" &&
	error_at "$BROKEN/49-overwrite-user-file.ini:5" rw "overwrite=1" &&
	test "$(cat user-file)" = mine
'

test_done
