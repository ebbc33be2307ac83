#!/bin/bash
# t0900-broken-jobfiles.sh - the catalogue of broken job files: every one
# is refused before any job starts, with exit status 2 and one error that
# names the file, the line and the option ("f.ini:4: option 'bs': ...,
# got '12q'"), and nothing appears or changes in the working directory.
#
# Each case is a small file t/broken/NN-what.ini whose first line says
# what is wrong and what memjob must say.  memjob runs in an empty
# directory of its own (in_fresh_dir) holding only the fixtures the case
# needs; the job file stays outside it.  See t/broken/helpers.sh.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

# check_refused CASE LINE OPT FRAGMENT...: memjob refuses t/broken/CASE.ini
# with exactly one error, at CASE.ini:LINE, for option OPT (- for none),
# saying every FRAGMENT, and says that nothing was run.
check_refused()
{
	local ini=$BROKEN/$1.ini line=$2 opt=$3

	shift 3
	refuses "$ini" &&
	error_at "$ini:$line" "$opt" "$@" &&
	errors_are 1 &&
	stderr_has "nothing was run"
}

# ---- the catalogue itself --------------------------------------------------

test_expect_success 'every t/broken case has a test here and a comment line 1' '
	n=0 &&
	for f in "$BROKEN"/inc/*.ini; do
		head -n 1 "$f" | grep -q "^# ." ||
			{ echo "$f: line 1 must be a comment"; exit 1; }
	done &&
	for f in "$BROKEN"/[0-9][0-9]-*.ini; do
		name=${f##*/} && name=${name%.ini} &&
		head -n 1 "$f" | grep -q "^# ..*; expect ." ||
			{ echo "$f: line 1 must say what is wrong; expect ..."; exit 1; }
		grep -q "check_refused $name \\|\$BROKEN/$name.ini" \
			"$SRCDIR/t/t0900-broken-jobfiles.sh" ||
			{ echo "$f has no test in t0900"; exit 1; }
		n=$((n + 1))
	done &&
	test "$n" -ge 30
'

test_expect_success 'the checks fail on a file made or changed, a report, status 1' '
	write_file fake-memjob <<-\EOF &&
	#!/bin/sh
	printf "x.ini:1: option \047bs\047: bad value\n" >&2
	case $FAKE in
	create)	: >new-file ;;
	change)	echo more >>existing ;;
	report)	echo "memjob 0.1 on host" ;;
	status)	exit 1 ;;
	esac
	exit 2
	EOF
	chmod +x fake-memjob &&
	fake=$PWD/fake-memjob &&
	in_fresh_dir selftest &&
	echo old >existing &&
	MEMJOB=$fake FAKE=none refuses &&
	error_at x.ini:1 bs "bad" "value" &&
	! error_at x.ini:1 bs "good" &&
	! error_at x.ini:2 bs "bad" &&
	! error_at x.ini:1 rw "bad" &&
	errors_are 1 && ! errors_are 2 &&
	! MEMJOB=$fake FAKE=create refuses && rm new-file &&
	! MEMJOB=$fake FAKE=change refuses &&
	! MEMJOB=$fake FAKE=report refuses &&
	! MEMJOB=$fake FAKE=status refuses
'

# ---- syntax: sections, option names ---------------------------------------

test_expect_success '01 a misspelt option gets a suggestion' '
	in_fresh_dir 01 &&
	check_refused 01-unknown-option-near 4 - \
		"unknown option ${SQ}bss${SQ}" "did you mean ${SQ}bs${SQ}"
'

test_expect_success '02 a far-off unknown option gets no suggestion' '
	in_fresh_dir 02 &&
	check_refused 02-unknown-option-far 4 - \
		"unknown option ${SQ}zzzqqqxx${SQ}" &&
	stderr_lacks "did you mean"
'

test_expect_success '03 an option before any section' '
	in_fresh_dir 03 &&
	check_refused 03-outside-section 2 - \
		"option ${SQ}bs${SQ} is outside any section" "[global]"
'

test_expect_success '04 a section header without its ]' '
	in_fresh_dir 04 &&
	check_refused 04-malformed-section 2 - "expected [section]"
'

test_expect_success '05 an empty section name' '
	in_fresh_dir 05 &&
	check_refused 05-empty-section-name 2 - \
		"bad job name ${SQ}${SQ}" "must not be empty"
'

test_expect_success '06 two jobs with one name' '
	in_fresh_dir 06 &&
	check_refused 06-duplicate-job 5 - \
		"job ${SQ}twice${SQ} is defined twice" \
		"(first at $BROKEN/06-duplicate-job.ini:2)"
'

# ---- values: sizes, times, booleans, words, integers, lists ---------------

test_expect_success '07 a size with an unknown suffix (bs=12q)' '
	in_fresh_dir 07 &&
	check_refused 07-size-bad-suffix 4 bs "expected a size" \
		"got ${SQ}12q${SQ}"
'

test_expect_success '08 a negative size (bs=-1)' '
	in_fresh_dir 08 &&
	check_refused 08-size-negative 4 bs "cannot be negative" \
		"${SQ}-1${SQ}"
'

test_expect_success '09 an empty size (bs=)' '
	in_fresh_dir 09 &&
	check_refused 09-size-empty 4 bs "expected a size" "empty"
'

test_expect_success '10 a size that is not a whole number of bytes (bs=1.3)' '
	in_fresh_dir 10 &&
	check_refused 10-size-fraction 4 bs "${SQ}1.3${SQ}" \
		"not a whole number of bytes"
'

test_expect_success '11 a size beyond 64 bits (99999999999999999999)' '
	in_fresh_dir 11 &&
	check_refused 11-size-overflow 3 size \
		"${SQ}99999999999999999999${SQ} is too large"
'

test_expect_success '12 size=16e is 2^64 bytes, one too many' '
	in_fresh_dir 12 &&
	check_refused 12-size-16e 3 size "${SQ}16e${SQ} is too large"
'

test_expect_success '13 bs=0 is out of range' '
	in_fresh_dir 13 &&
	check_refused 13-bs-zero 4 bs "must be between 1 and 1g" "got 0"
'

test_expect_success '14 bs=2g is out of range' '
	in_fresh_dir 14 &&
	check_refused 14-bs-too-large 4 bs "must be between 1 and 1g" "got 2g"
'

test_expect_success '15 a time with an unknown suffix (runtime=10x)' '
	in_fresh_dir 15 &&
	check_refused 15-time-bad-suffix 4 runtime "expected a time" \
		"got ${SQ}10x${SQ}"
'

test_expect_success '16 a negative time (runtime=-1)' '
	in_fresh_dir 16 &&
	check_refused 16-time-negative 4 runtime "cannot be negative" \
		"${SQ}-1${SQ}"
'

test_expect_success '17 a boolean that is neither (direct=maybe)' '
	in_fresh_dir 17 &&
	check_refused 17-bool-maybe 4 direct "true/false" \
		"got ${SQ}maybe${SQ}"
'

test_expect_success '18 a word not in the list, which is shown (rw=reed)' '
	in_fresh_dir 18 &&
	check_refused 18-enum-reed 4 rw \
		"expected read, write, randread, randwrite, rw or randrw" \
		"got ${SQ}reed${SQ}"
'

test_expect_success '19 numjobs=0 is out of range' '
	in_fresh_dir 19 &&
	check_refused 19-numjobs-zero 4 numjobs "must be between 1 and 4096" \
		"got 0"
'

test_expect_success '20 numjobs=5000 is out of range' '
	in_fresh_dir 20 &&
	check_refused 20-numjobs-too-many 4 numjobs \
		"must be between 1 and 4096" "got 5000"
'

test_expect_success '21 numjobs=abc is not a number' '
	in_fresh_dir 21 &&
	check_refused 21-numjobs-not-number 4 numjobs "expected a whole number" \
		"got ${SQ}abc${SQ}"
'

test_expect_success '22 value=9999999999 does not fit in 32 bits, and says so' '
	in_fresh_dir 22 &&
	check_refused 22-value-too-large 5 value "32-bit" "9999999999"
'

test_expect_success '23 a reversed CPU range (7-4)' '
	in_fresh_dir 23 &&
	check_refused 23-cpus-reversed 4 cpus_allowed "7-4" "range is reversed"
'

test_expect_success '24 an empty item in a CPU list (1,,2)' '
	in_fresh_dir 24 &&
	check_refused 24-cpus-empty-item 4 cpus_allowed "empty item" \
		"${SQ}1,,2${SQ}"
'

test_expect_success '25 a CPU number past the limit (4096)' '
	in_fresh_dir 25 &&
	check_refused 25-cpus-beyond-limit 4 cpus_allowed "4096" \
		"does not exist"
'

test_lazy_prereq NO_CPU64 '[ ! -e /sys/devices/system/cpu/cpu64 ]'
test_expect_success NO_CPU64 '26 a CPU this machine does not have (64)' '
	in_fresh_dir 26 &&
	check_refused 26-cpu-missing 4 cpus_allowed "CPU 64" "does not exist"
'

test_lazy_prereq NUMA_NO_NODE7 '[ -d /sys/devices/system/node/node0 ] &&
	[ ! -e /sys/devices/system/node/node7 ]'
test_expect_success NUMA,NUMA_NO_NODE7 '27 a NUMA memory node that does not exist' '
	in_fresh_dir 27 &&
	check_refused 27-numa-mem-node-missing 4 numa_mem_policy \
		"NUMA node 7 does not exist"
'

test_lazy_prereq NUMA_NO_NODE5 '[ -d /sys/devices/system/node/node0 ] &&
	[ ! -e /sys/devices/system/node/node5 ]'
test_expect_success NUMA,NUMA_NO_NODE5 '28 a NUMA CPU node that does not exist' '
	in_fresh_dir 28 &&
	check_refused 28-numa-cpu-node-missing 4 numa_cpu_nodes \
		"NUMA node 5 does not exist"
'

test_expect_success '29 numa_mem_policy=bind without nodes' '
	in_fresh_dir 29 &&
	check_refused 29-mempolicy-bind-bare 4 numa_mem_policy "bind:NODES" \
		"got ${SQ}bind${SQ}"
'

test_expect_success '30 numa_mem_policy=preferred with two nodes' '
	in_fresh_dir 30 &&
	check_refused 30-mempolicy-preferred-two 4 numa_mem_policy \
		"exactly one node" "0-1"
'

test_expect_success '31 pattern=randint:5 lacks its range' '
	in_fresh_dir 31 &&
	check_refused 31-pattern-randint-one 4 pattern "randint:LO-HI" \
		"randint:5"
'

test_expect_success '32 pattern=randint:9-1 is reversed' '
	in_fresh_dir 32 &&
	check_refused 32-pattern-randint-reversed 4 pattern "LO <= HI" "9-1"
'

test_expect_success '33 pattern=byte:300 is not a byte' '
	in_fresh_dir 33 &&
	check_refused 33-pattern-byte-300 4 pattern "0..255" "300"
'

# ---- data sources and kernels ---------------------------------------------

test_expect_success '34 an unknown ioengine, with the list of them' '
	in_fresh_dir 34 &&
	check_refused 34-ioengine-unknown 4 ioengine \
		"unknown data source ${SQ}posix${SQ}" "expected one of:" \
		"mem" "mmap" "psync" "io_uring"
'

test_expect_success '35 an unknown kernel, with the list of them' '
	in_fresh_dir 35 &&
	check_refused 35-kernel-unknown 4 kernel \
		"unknown kernel ${SQ}cnt${SQ}" "expected one of:" "count" "sum"
'

test_expect_success '36 an impl the kernel does not have (count, fast)' '
	in_fresh_dir 36 &&
	check_refused 36-impl-not-of-kernel 5 impl "kernel=count has" \
		"simple" "unrolled" "got ${SQ}fast${SQ}"
'

test_expect_success '37 an impl for a kernel that has none (sum)' '
	in_fresh_dir 37 &&
	check_refused 37-impl-of-kernel-without 5 impl \
		"kernel=sum has no implementations"
'

# The widest count implementation this CPU lacks, if any.
cpu_flags=$(grep -m 1 '^flags' /proc/cpuinfo 2>/dev/null)
missing_impl=
if [ -n "$cpu_flags" ]; then
	case " $cpu_flags " in
	*" avx2 "*) ;;
	*) missing_impl=avx2 ;;
	esac
	case " $cpu_flags " in
	*" avx512f "*" avx512bw "*) ;;
	*) missing_impl=${missing_impl:-avx512} ;;
	esac
fi
if [ -n "$missing_impl" ]; then
	export MEMJOB_T0900_IMPL=$missing_impl
	test_set_prereq CPU_LACKS_IMPL
fi
test_expect_success CPU_LACKS_IMPL '38 an impl this CPU cannot run' '
	in_fresh_dir 38 &&
	check_refused 38-impl-unsupported 5 impl "impl=$MEMJOB_T0900_IMPL" \
		"this CPU does not support it"
'

test_expect_success '64 kernel=count with bs=6, not a multiple of 4' '
	in_fresh_dir 64 &&
	check_refused 64-count-bs-6 5 bs "multiple of 4" "got 6"
'

test_expect_success '65 ioengine=mem rw=write with kernel=none stores nothing' '
	in_fresh_dir 65 &&
	check_refused 65-mem-write-kernel-none 6 kernel "kernel=none" \
		"stores nothing"
'

test_expect_success '50 direct=1 with bs=1000' '
	in_fresh_dir 50 &&
	make_file data-16k 16384 &&
	check_refused 50-direct-bs-1000 6 bs "direct=1" "multiple of 512" \
		"got 1000"
'

test_expect_success '51 direct=1 with ioengine=mem' '
	in_fresh_dir 51 &&
	check_refused 51-direct-mem 5 direct "ioengine=mem"
'

test_expect_success '52 iodepth=4 with psync, one I/O at a time' '
	in_fresh_dir 52 &&
	make_file data-16k 16384 &&
	check_refused 52-iodepth-psync 5 iodepth "io_uring"
'

test_expect_success '78 randrw with I/O threads, which only read ahead' '
	in_fresh_dir 78 &&
	make_file data-16k 16384 &&
	check_refused 78-randrw-ioworkers 7 ioworkers "rw=read or randread" \
		"to mix reads and writes, use ioworkers=0"
'

test_expect_success '79 randrw direct=1 whose short last block would be written' '
	in_fresh_dir 79 &&
	make_file data-16k 16384 &&
	check_refused 79-randrw-direct-size 8 size "direct=1 writes" \
		"multiple of 512" "got 1000"
'

test_expect_success '53 populate=1 with psync, which maps nothing' '
	in_fresh_dir 53 &&
	make_file data-16k 16384 &&
	check_refused 53-populate-psync 5 populate "mmap"
'

# ---- run control -----------------------------------------------------------

test_expect_success '39 time_based without runtime' '
	in_fresh_dir 39 &&
	check_refused 39-time-based-no-runtime 4 time_based "needs runtime"
'

test_expect_success '40 wait_for a job that does not exist' '
	in_fresh_dir 40 &&
	check_refused 40-wait-for-unknown 4 wait_for \
		"no job named ${SQ}nosuch${SQ}"
'

test_expect_success '41 wait_for itself' '
	in_fresh_dir 41 &&
	check_refused 41-wait-for-itself 4 wait_for "cannot wait for itself"
'

test_expect_success '42 wait_for a job defined later' '
	in_fresh_dir 42 &&
	check_refused 42-wait-for-later 4 wait_for \
		"no job named ${SQ}second${SQ} before this one"
'

test_expect_success '43 concurrent jobs with different repeat' '
	in_fresh_dir 43 &&
	check_refused 43-repeat-mismatch 6 repeat "job ${SQ}b${SQ}" \
		"job ${SQ}a${SQ}" "repeat=3 here, 1 there"
'

# ---- files: sizes, places, safety ------------------------------------------

test_expect_success '44 ioengine=mem without size (at the job line)' '
	in_fresh_dir 44 &&
	check_refused 44-mem-without-size 2 size "ioengine=mem" "needs size"
'

test_expect_success '45 a file to create without size; it is not created' '
	in_fresh_dir 45 &&
	check_refused 45-create-without-size 2 size \
		"${SQ}t0900-new-file${SQ} does not exist" "needs size"
'

test_expect_success '46 a file in a directory that does not exist' '
	in_fresh_dir 46 &&
	check_refused 46-no-such-directory 6 filename \
		"directory ${SQ}no-such-dir${SQ} does not exist"
'

test_expect_success '47 filename is a directory' '
	in_fresh_dir 47 &&
	mkdir a-directory &&
	check_refused 47-filename-directory 4 filename \
		"${SQ}a-directory${SQ} is a directory"
'

test_expect_success '48 a character device without allow_devices' '
	in_fresh_dir 48 &&
	check_refused 48-char-device 4 filename \
		"${SQ}/dev/zero${SQ} is a character device" "allow_devices=1"
'

test_expect_success '49 writing into a user file without overwrite; it stays' '
	in_fresh_dir 49 &&
	echo "the user wrote this" >user-file &&
	check_refused 49-overwrite-user-file 5 rw "${SQ}user-file${SQ}" \
		"did not create" "overwrite=1" &&
	test "$(cat user-file)" = "the user wrote this"
'

test_expect_success '62 a read job larger than its file' '
	in_fresh_dir 62 &&
	make_file data-16k 16384 &&
	check_refused 62-size-beyond-file 5 size \
		"${SQ}data-16k${SQ} holds 16384 bytes" "size 1m"
'

test_expect_success '63 an offset past the end of the file' '
	in_fresh_dir 63 &&
	make_file data-16k 16384 &&
	check_refused 63-offset-beyond-file 5 offset \
		"${SQ}data-16k${SQ} holds 16384 bytes" "offset 1048576"
'

test_expect_success '66 a file to create larger than the free disk' '
	in_fresh_dir 66 &&
	check_refused 66-disk-too-small 6 size "need 1p" "free"
'

test_expect_success '67 anonymous memory larger than the machine has' '
	in_fresh_dir 67 &&
	check_refused 67-memory-too-small 4 size "memory" "available"
'

test_expect_success '72 a good job that would create a file, then a bad one' '
	in_fresh_dir 72 &&
	check_refused 72-create-then-fail 11 filename \
		"directory ${SQ}no-such-dir${SQ} does not exist" &&
	test_path_is_missing t0900-made-by-memjob
'

# ---- include and ${VAR} ----------------------------------------------------

test_expect_success '54 include of a file that does not exist' '
	in_fresh_dir 54 &&
	check_refused 54-include-missing 3 - "cannot include" \
		"t0900-no-such-include.ini" "No such file or directory"
'

test_expect_success '55 an include cycle, reported where it closes' '
	in_fresh_dir 55 &&
	refuses "$BROKEN/55-include-cycle.ini" &&
	error_at "$BROKEN/inc/55-cycle.ini:2" - "include cycle" \
		"55-include-cycle.ini includes" &&
	errors_are 1
'

# deep_chain DIR N: DIR/d01.ini includes d02.ini ... includes dN.ini, which
# holds a job; each file: a comment, then the include (or the job).
deep_chain()
{
	local i name next

	mkdir "$1" &&
	for i in $(seq 1 "$2"); do
		name=$(printf "d%02d.ini" "$i")
		next=$(printf "d%02d.ini" $((i + 1)))
		if [ "$i" -lt "$2" ]; then
			printf "# link %d\ninclude %s\n" "$i" "$next" >"$1/$name"
		else
			printf "# the end\n[deep]\nsize=64k\n" >"$1/$name"
		fi || return 1
	done
}

test_expect_success '56 includes nested 17 deep (16 is the limit)' '
	deep_chain "$TEST_TMP/deep16" 16 &&
	deep_chain "$TEST_TMP/deep17" 17 &&
	in_fresh_dir 56 &&
	MEMJOB_T0900_DEEP=$TEST_TMP/deep16 \
		"$MEMJOB" --parse-only "$BROKEN/56-include-too-deep.ini" &&
	export MEMJOB_T0900_DEEP=$TEST_TMP/deep17 &&
	refuses "$BROKEN/56-include-too-deep.ini" &&
	error_at "$TEST_TMP/deep17/d16.ini:2" - "include nesting deeper than 16" &&
	errors_are 1
'

test_expect_success '57 ${VAR} unset and without a default' '
	in_fresh_dir 57 &&
	unset MEMJOB_T0900_UNSET &&
	check_refused 57-env-unset 3 - \
		"environment variable ${SQ}MEMJOB_T0900_UNSET${SQ} is not set"
'

test_expect_success '58 "${" without its closing brace' '
	in_fresh_dir 58 &&
	check_refused 58-env-unterminated 3 - "without a closing"
'

test_expect_success '75 ${1BAD} is not a variable name' '
	in_fresh_dir 75 &&
	check_refused 75-env-bad-name 3 - "cannot expand ${SQ}\${1BAD}${SQ}"
'

test_expect_success '76 include without a file name' '
	in_fresh_dir 76 &&
	check_refused 76-include-no-name 3 - "include needs a file name"
'

# ---- lines and names -------------------------------------------------------

test_expect_success '59 a 300-character line that is not option=value' '
	in_fresh_dir 59 &&
	check_refused 59-long-prose-line 4 - "option=value"
'

test_expect_success '60 name= in [global]' '
	in_fresh_dir 60 &&
	check_refused 60-name-in-global 3 name "bad job name"
'

test_expect_success '61 a job name with a comma' '
	in_fresh_dir 61 &&
	check_refused 61-job-name-comma 2 - "bad job name ${SQ}a,b${SQ}"
'

test_expect_success '69 "=4k": a value without an option name' '
	in_fresh_dir 69 &&
	check_refused 69-empty-option-name 4 - "option=value" &&
	stderr_lacks "did you mean"
'

test_expect_success '70 a section name too long, reported once' '
	in_fresh_dir 70 &&
	check_refused 70-long-section-name 2 - "longer than 49 characters"
'

test_expect_success '71 name= inside a job cannot rename it to a bad name' '
	in_fresh_dir 71 &&
	check_refused 71-name-in-job 4 name
'

test_expect_success '73 a list step of 0 (0-1:0)' '
	in_fresh_dir 73 &&
	check_refused 73-cpus-step-zero 4 cpus_allowed "${SQ}0-1:0${SQ}" \
		"at least 1"
'

test_expect_success '74 a time that is not whole microseconds (1.5us)' '
	in_fresh_dir 74 &&
	check_refused 74-time-fraction 4 ramp_time "${SQ}1.5us${SQ}" \
		"whole number of microseconds"
'

test_expect_success '77 text after a section header is not dropped silently' '
	in_fresh_dir 77 &&
	check_refused 77-section-trailing-text 2 - "bs=4k"
'

test_expect_success '85 preread on anonymous memory has no file to warm' '
	in_fresh_dir 85 &&
	check_refused 85-preread-no-file 4 preread \
		"acts on the page cache of the job${SQ}s file, and ioengine=mem without filename has none"
'

test_expect_success '86 preread and invalidate: one or the other' '
	in_fresh_dir 86 &&
	check_refused 86-preread-invalidate 6 preread \
		"warms the file that invalidate=1 makes cold: choose one"
'

test_expect_success '87 preread with direct=1: the cache is bypassed' '
	in_fresh_dir 87 &&
	check_refused 87-preread-direct 6 preread \
		"warms the page cache, which direct=1 bypasses"
'

# ---- kernel=touch (its own options, declared in engine/kernels/touch.c) ----

test_expect_success '88 kernel=touch with touch_stride larger than bs' '
	in_fresh_dir 88 &&
	check_refused 88-touch-stride-over-block 7 touch_stride \
		"touch_stride=8192 is larger than the block (bs=4096)"
'

test_expect_success '89 kernel=touch with bs not a multiple of the stride' '
	in_fresh_dir 89 &&
	check_refused 89-touch-bs-not-multiple 5 bs \
		"bs must be a multiple of touch_stride" \
		"got bs=4000 touch_stride=64"
'

test_expect_success '90 kernel=touch stores into a read-only mapping' '
	in_fresh_dir 90 &&
	make_file data-16k 16384 &&
	check_refused 90-touch-store-mmap-read 5 kernel \
		"touch_op=store writes into each block" \
		"ioengine=mmap maps a read job${SQ}s file read-only"
'

test_expect_success '91 kernel=touch loads in a write job in memory' '
	in_fresh_dir 91 &&
	check_refused 91-touch-load-mem-write 7 touch_op \
		"touch_op=load stores nothing"
'

# ---- precision= (a victim's slowdown interval) ------------------------------

test_expect_success '92 precision below 0' '
	in_fresh_dir 92 &&
	check_refused 92-precision-negative 7 precision \
		"expected a half-width above 0% and below 100%, such as 1% (or off)" \
		"got ${SQ}-1%${SQ}"
'

test_expect_success '93 precision on a job that is no victim' '
	in_fresh_dir 93 &&
	check_refused 93-precision-plain-job 3 precision \
		"narrows the interval of a victim${SQ}s slowdown" \
		"job ${SQ}plain${SQ} is no victim or aggressor (role=none)"
'

test_expect_success '94 precision differs between a victim and its aggressor' '
	in_fresh_dir 94 &&
	check_refused 94-precision-differs 12 precision \
		"job ${SQ}a${SQ} runs at the same time as job ${SQ}v${SQ}" \
		"take the same precision and precision_budget"
'

test_expect_success '103 memory_limit with a unit that is none' '
	in_fresh_dir 103 &&
	check_refused 103-memory-limit-unit 4 memory_limit \
		"expected a size" "got ${SQ}64q${SQ}"
'

test_expect_success '104 memory_limit below what memjob itself needs' '
	in_fresh_dir 104 &&
	check_refused 104-memory-limit-small 4 memory_limit \
		"must be 0 (no limit) or at least 16m" "got 1m"
'

test_expect_success '105 two limits for jobs that run together' '
	in_fresh_dir 105 &&
	check_refused 105-memory-limit-differ 9 memory_limit \
		"${SQ}b${SQ} (128m) runs at the same time as ${SQ}a${SQ} (64m)" \
		"share one memory cgroup"
'

test_expect_success '106 a limit as large as the machine' '
	in_fresh_dir 106 &&
	check_refused 106-memory-limit-over-ram 4 memory_limit \
		"1p is not below this machine${SQ}s memory" "would limit nothing"
'

test_expect_success '107 isolate_dirty on a job with no file' '
	in_fresh_dir 107 &&
	check_refused 107-isolate-dirty-no-file 5 isolate_dirty \
		"acts between the runs of a file job" "ioengine=mem without filename"
'

test_expect_success '108 isolate_wait with isolate_phases=0' '
	in_fresh_dir 108 &&
	check_refused 108-isolate-wait-phases-off 7 isolate_wait \
		"acts only with isolate_phases=1" "this job has isolate_phases=0" &&
	test_path_is_missing memjob-broken-108.dat
'

test_expect_success 'isolate_dirty in [global] is for the file jobs it reaches, not an error in a job in memory' '
	in_fresh_dir global-isolate &&
	write_file j.ini <<-\EOF &&
	[global]
	isolate_dirty=8m
	[m]
	ioengine=mem
	size=64k
	[f]
	ioengine=psync
	filename=g.dat
	size=64k
	EOF
	"$MEMJOB" --parse-only j.ini
'

# ---- several errors --------------------------------------------------------

test_expect_success '121 a relative filename climbs out of directory' '
	in_fresh_dir 121 &&
	check_refused 121-filename-climbs-out 5 filename \
		"${SQ}sub/../../x${SQ} climbs out of directory ${SQ}.${SQ}" \
		"allow_outside_directory=1"
'

test_expect_success '122 a filename_format climbs out of directory' '
	in_fresh_dir 122 &&
	check_refused 122-filename-format-climbs-out 4 filename_format \
		"${SQ}../../w.0${SQ} climbs out of directory"
'

test_expect_success '123 a job name climbs out through the default file name' '
	in_fresh_dir 123 &&
	check_refused 123-jobname-climbs-out 2 filename_format \
		"${SQ}../x.0${SQ} climbs out of directory"
'

test_expect_success '68 three bad lines: all three reported, then the count' '
	in_fresh_dir 68 &&
	f=$BROKEN/68-three-errors.ini &&
	refuses "$f" &&
	error_at "$f:4" bs "got ${SQ}12q${SQ}" &&
	error_at "$f:5" rw "got ${SQ}reed${SQ}" &&
	error_at "$f:6" numjobs "got 0" &&
	errors_are 3 &&
	stderr_has "3 errors; nothing was run"
'

test_done
