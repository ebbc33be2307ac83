#!/bin/bash
# t0830-touch-report.sh - the first touch as figures a script can read:
# the columns first_touch, timed_passes, touch_* and touch_fresh (at the
# end of CSV, keys of JSON; a rate only for a touch of fresh pages), the normal report's "timed:" line (which passes the clock
# ran over) and, with first_touch=phase, the touch's own line.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_expect_success 'setup: a 4 MiB file of randint:0-20' '
	"$MEMJOB" --output-format=csv --name=mk --ioengine=psync \
		--filename="$TEST_TMP/data" --size=4m --pattern=randint:0-20 \
		--keep_files=1 >mk.csv &&
	test "$(csv_col mk.csv status)" = ok
'

# tr ARGS...: one count job over data, CSV in out.csv, status ok.
tr_csv()
{
	"$MEMJOB" --output-format=csv --name=tr --filename="$TEST_TMP/data" \
		--kernel=count "$@" >out.csv &&
	test "$(csv_col out.csv status)" = ok
}

test_expect_success 'the new columns, together, after verdict, in this order' '
	tr_csv --ioengine=mem &&
	head -n 1 out.csv | tr , "\n" >cols &&
	sed -n "/^first_touch\$/,/^touch_sys_ns\$/p" cols >actual &&
	printf "%s\n" first_touch timed_passes touch_bytes touch_ns \
		touch_gbps touch_minflt touch_majflt touch_usr_ns \
		touch_sys_ns >expect &&
	test_cmp expect actual &&
	test "$(grep -x -A1 precision_pairs cols | tail -n 1)" = touch_fresh &&
	test "$(grep -n -x first_touch cols | cut -d: -f1)" -gt \
		"$(grep -n -x verdict cols | cut -d: -f1)"
'

test_expect_success 'mem, the default: untimed, no figures, the passes counted' '
	tr_csv --ioengine=mem --loops=3 &&
	test "$(csv_col out.csv first_touch)" = untimed &&
	test "$(csv_col out.csv timed_passes)" = 3 &&
	for c in touch_bytes touch_ns touch_gbps touch_minflt touch_sys_ns; do
		test -z "$(csv_col out.csv $c)" || { echo "$c set"; exit 1; }
	done
'

test_expect_success 'mem first_touch=phase: the phase in its columns, the same as source_info' '
	tr_csv --ioengine=mem --first_touch=phase --loops=2 &&
	test "$(csv_col out.csv first_touch)" = phase &&
	test "$(csv_col out.csv timed_passes)" = 2 &&
	test "$(csv_col out.csv touch_bytes)" = 4194304 &&
	test "$(csv_col out.csv touch_fresh)" = 1 &&
	# a fault per fresh page: 1024 of them
	test "$(csv_col out.csv touch_minflt)" -ge 1024 &&
	ns=$(csv_col out.csv touch_ns) && test "$ns" -gt 0 &&
	gbps=$(csv_col out.csv touch_gbps) &&
	near "$gbps" "$(awk -v n="$ns" "BEGIN { print 4194304 / n }")" 0.001 &&
	for c in touch_minflt touch_majflt touch_usr_ns touch_sys_ns; do
		csv_col out.csv $c | grep -qx "[0-9][0-9]*" ||
			{ echo "$c not a count"; exit 1; }
	done &&
	# source_info rounds the same figures to ms
	s=$(csv_col out.csv source_info | sed -n "s/.*first touch of 4 MiB (pages not yet mapped): \([0-9.]*\) s at.*/\1/p") &&
	near "$s" "$(awk -v n="$ns" "BEGIN { print n / 1e9 }")" 0.0006
'

test_expect_success 'clones: touch_bytes over all of them, the passes per clone' '
	tr_csv --ioengine=mem --first_touch=phase --numjobs=2 &&
	test "$(csv_col out.csv touch_bytes)" = 8388608 &&
	test "$(csv_col out.csv timed_passes)" = 1
'

# Without populate the faults are the first touch: as a phase they move
# from the timed pass to touch_minflt (how many depends on fault-around
# and large folios: at least one).
test_expect_success 'mmap: timed by default; as a phase its faults are in touch_minflt' '
	tr_csv --ioengine=mmap &&
	test "$(csv_col out.csv first_touch)" = timed &&
	timed=$(csv_col out.csv minflt) &&
	test -z "$(csv_col out.csv touch_minflt)" &&
	tr_csv --ioengine=mmap --first_touch=phase &&
	touched=$(csv_col out.csv touch_minflt) &&
	after=$(csv_col out.csv minflt) &&
	echo "faults: $timed timed, $touched in the phase, $after after it" &&
	test "$timed" -ge 1 && test "$touched" -ge 1 && test "$after" -lt "$timed"
'

# mmap populate=1 mapped the pages before the job: the phase is a
# re-touch, with its time and faults but no rate, and touch_fresh 0.
test_expect_success 'mmap populate=1 first_touch=phase: touch_fresh 0, no touch_gbps' '
	tr_csv --ioengine=mmap --populate=1 --first_touch=phase &&
	test "$(csv_col out.csv first_touch)" = phase &&
	test "$(csv_col out.csv touch_fresh)" = 0 &&
	test -n "$(csv_col out.csv touch_ns)" &&
	test -z "$(csv_col out.csv touch_gbps)"
'

test_expect_success 'a source that maps nothing: the columns are empty' '
	tr_csv --ioengine=psync &&
	test -z "$(csv_col out.csv first_touch)" &&
	test -z "$(csv_col out.csv timed_passes)" &&
	test -z "$(csv_col out.csv touch_bytes)" &&
	test -z "$(csv_col out.csv touch_fresh)"
'

# A read's buffers are faulted in at setup: a 1 MiB pread buffer used to
# take its 256 faults inside the timed window.  (A fault or two of the
# run's own bookkeeping may remain.)
test_lazy_prereq LIBAIO '"$MEMJOB" --name=p --ioengine=libaio --size=4k \
	--filename=p.dat >/dev/null 2>&1'

# ThreadSanitizer's runtime faults in its own shadow pages while the
# job runs (some 1800 minor faults here), which would hide the buffers':
# NOT_TSAN (t/lib.sh).
for src in psync libaio io_uring; do
	prereq=NOT_TSAN
	[ $src = libaio ] && prereq=LIBAIO,NOT_TSAN
	test_expect_success $prereq "$src read: its buffers are faulted in before the clock" '
		tr_csv --ioengine='$src' --bs=1m &&
		f=$(csv_col out.csv minflt) &&
		echo "'$src': $f minor faults in the timed window" &&
		test "$f" -lt 16
	'
done

test_expect_success 'normal report: the timed line, and the phase line with phase only' '
	"$MEMJOB" --verbose --name=tr --filename="$TEST_TMP/data" --kernel=count \
		--ioengine=mem --first_touch=phase --loops=2 >out &&
	grep -E "^    timed: 2 passes over the data, after the first touch \(not timed with them\)$" out &&
	grep -E "^    first touch of 4 MiB \(pages not yet mapped\): [0-9.]+ s, [0-9.]+ GB/s; faults [0-9]+ minor, [0-9]+ major; cpu usr [0-9.]+ s, sys [0-9.]+ s \(its own phase\)$" out &&
	# the answer names the phase too, without --verbose
	grep -E "^  tr .*  count [0-9]+; first touch [0-9.]+ m?s$" out &&
	"$MEMJOB" --verbose --name=tr --filename="$TEST_TMP/data" --kernel=count \
		--ioengine=mmap --populate=1 --first_touch=phase >out &&
	grep -E "^    first touch of 4 MiB: none to time, the source mapped its pages before the job; a walk over them: [0-9.]+ s; faults [0-9]+ minor, [0-9]+ major; cpu usr [0-9.]+ s, sys [0-9.]+ s \(its own phase\)$" out &&
	! grep "^    first touch.*GB/s" out &&
	"$MEMJOB" --verbose --name=tr --filename="$TEST_TMP/data" --kernel=count \
		--ioengine=mem --first_touch=timed >out &&
	grep -E "^    timed: 1 pass over the data, after the first touch \(the source mapped the pages before the job\)$" out &&
	"$MEMJOB" --verbose --name=tr --filename="$TEST_TMP/data" --kernel=count \
		--ioengine=mmap >out &&
	grep -E "^    timed: 1 pass over the data, the first touch of each page in the first$" out &&
	! grep "^    first touch of" out &&
	"$MEMJOB" --verbose --name=tr --filename="$TEST_TMP/data" --kernel=count \
		--ioengine=psync >out &&
	! grep -E "^    (timed|first touch)" out
'

test_expect_success JQ 'JSON: the same keys, null where CSV is empty' '
	"$MEMJOB" --output-format=json --name=tr --filename="$TEST_TMP/data" \
		--kernel=count --ioengine=mem --first_touch=phase >out.json &&
	test "$(jq -r ".results[0].first_touch" out.json)" = phase &&
	test "$(jq -r ".results[0].touch_bytes" out.json)" = 4194304 &&
	"$MEMJOB" --output-format=json --name=tr --filename="$TEST_TMP/data" \
		--kernel=count --ioengine=psync >out.json &&
	test "$(jq -r ".results[0] | has(\"touch_ns\")" out.json)" = true &&
	test "$(jq -r ".results[0].touch_ns" out.json)" = null
'

test_done
